/**
 * A synthesized stack as an earlier metalslice wrote it.
 * - 0.11 and before: each fleet's KubeVirt CR and each quota's ResourceQuota a `kubernetes_manifest`, no accounting.
 * - 0.1: every `kubectl_manifest` of a VM turned into a `kubernetes_manifest` of the same object at the same
 *   address (the resource type VirtualMachines had then), with no revision on its template; every `kubectl_manifest`
 *   of a node's user data or bootstrap token Secret into a `kubernetes_secret_v1` at the same address, its data as
 *   is; and no node drains, node ends or pool rollouts. Used by the upgrade test and by the deploy benchmark's
 *   `per-pool-manifest` and `baseline` layouts.
 * - 0.2 to 0.5: every node of a VM pool as five resources of its own (VmNode at `<pool>/<node>`), not an instance
 *   of its pool's five (constructs/parts/vm-nodes.ts): the `moved` blocks of the stack say where each was.
 * - 0.2: the bootstrap token Secrets `kubernetes_secret_v1` (in the tenant cluster), no node ends (each drain
 *   deleted its Node), and every VM's runStrategy `Always` (no list of the VMs a roll stopped).
 */
import * as fs from 'node:fs';
import { parse } from 'yaml';
import { appliedYaml, forEachInstance, forEachMap } from './stack-objects';

/** The parts of a synthesized stack (cdk.tf.json) the rewrite touches. */
export interface ManifestLayoutStack {
  terraform: { required_providers: Record<string, unknown> };
  provider?: Record<string, unknown>;
  locals?: Record<string, unknown>;
  moved?: { from: string; to: string }[];
  resource: {
    kubectl_manifest?: Record<string, { depends_on?: string[]; yaml_body: string; provider?: string; lifecycle?: unknown; wait?: boolean }>;
    kubernetes_manifest?: Record<string, unknown>;
    [type: string]: Record<string, unknown> | undefined;
  };
}

/** A user data Secret as the constructs write it (`data` values `${base64encode(<expression>)}`). */
interface SecretBody {
  kind: 'Secret';
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  type: string;
  data: Record<string, string>;
}

/** A kubectl_manifest of a Secret as the kubernetes_secret_v1 0.1 and 0.2 wrote: the data as is (the provider encodes it). */
function secretV1(r: { depends_on?: string[]; provider?: string }, secret: SecretBody): Record<string, unknown> {
  const data = Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, v.replace(/^\$\{base64encode\((.*)\)\}$/s, '$${$1}')]));
  // A bootstrap token (kube-system): in the tenant cluster, its expiration stamped once.
  const token = secret.type === 'bootstrap.kubernetes.io/token';
  return {
    ...(r.depends_on ? { depends_on: r.depends_on } : {}),
    ...(r.provider ? { provider: r.provider.replace(/^kubectl\./, 'kubernetes.') } : {}),
    metadata: secret.metadata,
    type: secret.type,
    data,
    ...(token ? { lifecycle: { ignore_changes: ['data'] } } : {}),
  };
}

/**
 * In a parsed stack: each node of a VM pool back at the addresses 0.2 to 0.5 gave it, one resource per node and
 * kind, from the stack's `moved` blocks (`from` the old address, `to` the pool resource's instance): each instance
 * becomes a resource of its own, with its arguments for its key; a reference to an instance becomes one to its
 * resource; a node's `depends_on` a pool resource, its own node's; anything else's, every node's. The moves go.
 */
export function toPerNodeLayout(tf: ManifestLayoutStack): void {
  toRelease06Layout(tf);
  const moves = tf.moved ?? [];
  delete tf.moved;
  if (moves.length === 0) return;
  const byPool = new Map<string, Map<string, string>>();
  const resources = tf.resource as Record<string, Record<string, object> | undefined>;
  for (const { from, to } of moves) {
    const [, pool, key] = /^([\w-]+\.[\w-]+)\[("[^"]+")\]$/.exec(to)!;
    const olds = byPool.get(pool) ?? new Map<string, string>();
    olds.set(JSON.parse(key) as string, from);
    byPool.set(pool, olds);
  }
  for (const [pool, olds] of byPool) {
    const [type, name] = pool.split('.');
    const { for_each: _, ...args } = resources[type]![name] as { for_each?: unknown; depends_on?: string[] };
    delete resources[type]![name];
    for (const [key, from] of olds) {
      const own = forEachInstance<{ depends_on?: string[] }>(args, key, tf.locals);
      if (own.depends_on) own.depends_on = own.depends_on.map((d) => byPool.get(d)?.get(key) ?? d);
      resources[type]![from.slice(type.length + 1)] = own;
    }
  }
  for (const byId of Object.values(resources))
    for (const r of Object.values(byId ?? {})) {
      const res = r as { depends_on?: string[] };
      if (res.depends_on) res.depends_on = res.depends_on.flatMap((d) => (byPool.has(d) ? [...byPool.get(d)!.values()] : [d]));
    }
  let text = JSON.stringify(tf);
  for (const { from, to } of moves) text = text.split(JSON.stringify(to).slice(1, -1)).join(from);
  Object.assign(tf, JSON.parse(text));
  // The locals the instances took whole (a pool's VMs) are referred to no more: they go.
  const { locals, ...rest } = tf;
  const used = JSON.stringify(rest);
  for (const name of Object.keys(locals ?? {})) if (!used.includes(`local.${name}`)) delete locals![name];
}

/**
 * In a parsed stack: what 0.11 (and every release before it) wrote, from this release's. Each fleet's KubeVirt CR
 * and each quota's ResourceQuota a `kubernetes_manifest` at the same address, the quota waiting for `status.used` of
 * each of its limits; no quota accounting (constructs/quota.ts), what waited for one waiting for its quota; and no
 * kubectl provider in a stack left with no `kubectl_manifest` (the provider team's).
 */
export function toRelease11Layout(tf: ManifestLayoutStack): void {
  const objects = tf.resource.kubectl_manifest ?? {};
  const renamed = new Map<string, string>();
  for (const [id, r] of Object.entries(objects)) {
    const object = parse(appliedYaml(r.yaml_body)) as { kind?: string; spec?: { hard?: Record<string, string> } };
    if (object.kind !== 'KubeVirt' && object.kind !== 'ResourceQuota') continue;
    const waits =
      object.kind === 'ResourceQuota'
        ? {
            wait: { fields: Object.fromEntries(Object.keys(object.spec?.hard ?? {}).map((k) => [`status.used["${k}"]`, '*'])) },
            timeouts: { create: '5m', update: '5m' },
          }
        : {};
    (tf.resource.kubernetes_manifest ??= {})[id] = { ...(r.depends_on ? { depends_on: r.depends_on } : {}), manifest: object, ...waits };
    delete objects[id];
    renamed.set(`kubectl_manifest.${id}`, `kubernetes_manifest.${id}`);
  }
  const data = tf.resource.terraform_data ?? {};
  for (const [id, r] of Object.entries(data)) {
    if (!/_Accounted_[0-9A-F]{8}$/.test(id)) continue;
    const [quota] = (r as { depends_on: string[] }).depends_on;
    renamed.set(`terraform_data.${id}`, renamed.get(quota) ?? quota);
    delete data[id];
  }
  if (tf.resource.terraform_data && Object.keys(data).length === 0) delete tf.resource.terraform_data;
  for (const byId of Object.values(tf.resource))
    for (const r of Object.values(byId ?? {})) {
      const res = r as { depends_on?: string[] };
      if (res.depends_on) res.depends_on = res.depends_on.map((d) => renamed.get(d) ?? d);
    }
  if (tf.resource.kubectl_manifest && Object.keys(objects).length === 0) {
    delete tf.resource.kubectl_manifest;
    delete tf.terraform.required_providers.kubectl;
    if (tf.provider) delete tf.provider.kubectl;
  }
}

/**
 * In a parsed stack: what 0.8 wrote, from this release's. What 0.11 wrote ({@link toRelease11Layout}); every
 * `kubectl_manifest` waits on destroy until its object is gone, the Secrets too (constructs/plumbing/kubectl.ts
 * `waitForDeletion`).
 */
export function toRelease08Layout(tf: ManifestLayoutStack): void {
  toRelease11Layout(tf);
  for (const r of Object.values(tf.resource.kubectl_manifest ?? {})) r.wait = true;
}

/**
 * In a parsed stack: what 0.6 wrote, from this release's. What 0.8 wrote ({@link toRelease08Layout}); every
 * `for_each` map written in its resource, a token Secret's id and secret read from the random resources by key, and
 * every dependency named directly, not through a local (constructs/parts/addresses.ts, vm-nodes.ts); one pair of
 * drain blocks per tenant cluster (its nodes in the first pair, where the stack's moves take them from), not sixteen
 * (constructs/parts/node-drain.ts); and the moves of a node of a later chunk of its pool (constructs/parts/vm-nodes.ts)
 * from the per-node address straight to its own.
 */
export function toRelease06Layout(tf: ManifestLayoutStack): void {
  toRelease08Layout(tf);
  const locals = (tf.locals ??= {});
  const data = tf.resource.terraform_data ?? {};
  const all = () => Object.values(tf.resource).flatMap((byId) => Object.values(byId ?? {}) as { depends_on?: string[]; for_each?: Record<string, unknown> }[]);
  // Each `for_each` map inline, as 0.6 wrote it, not the local that holds it (addresses.ts forEachOf).
  const held = new Set<string>();
  for (const r of all() as { for_each?: unknown }[]) {
    const map = forEachMap(r.for_each, locals);
    if (map === r.for_each) continue;
    held.add((r.for_each as string).slice('${local.'.length, -1));
    r.for_each = structuredClone(map);
  }
  for (const name of held) delete locals[name];
  // The token Secrets name the random resources by key, as 0.6 and 0.7.0 wrote them, not the locals of their results
  // (vm-nodes.ts: only a token Secret's body reads them).
  const results = new Map<string, string>();
  for (const [name, value] of Object.entries(locals)) {
    const over = typeof value === 'string' ? /^\$\{\{ for k, r in ([\w.-]+) : k => r\.result \}\}$/.exec(value) : null;
    if (over) results.set(name, over[1]);
  }
  for (const name of results.keys()) delete locals[name];
  for (const r of Object.values(tf.resource.kubectl_manifest ?? {}))
    r.yaml_body = r.yaml_body.replace(/local\.([\w-]+)\[([^\]]+)\]/g, (whole: string, name: string, key: string) =>
      results.has(name) ? `${results.get(name)!}[${key}].result` : whole,
    );
  // The locals that stand for a list of resources in depends_on.
  const hubs = new Map<string, string[]>();
  for (const [name, value] of Object.entries(locals)) {
    const list = typeof value === 'string' ? /^\$\{\[(.*)\]\}$/s.exec(value) : null;
    if (list)
      hubs.set(
        `local.${name}`,
        list[1].split(', ').filter((a) => a !== ''),
      );
  }
  for (const r of all()) if (r.depends_on) r.depends_on = r.depends_on.flatMap((d) => hubs.get(d) ?? [d]);
  for (const hub of hubs.keys()) delete locals[hub.slice('local.'.length)];
  // The drain and end blocks past the first pair: their instances back in the first pair, what named them names it.
  const first = new Map<string, string>();
  const moves = tf.moved ?? [];
  for (const { from, to } of moves) {
    const [f, t] = [from, to].map((a) => /^terraform_data\.(node-drains-[^[]+)\[/.exec(a)?.[1]);
    if (f && t) first.set(t, f);
  }
  for (const id of Object.keys(data).filter((k) => /^node-drains-.+_(Resource|End)-\d+_[0-9A-F]{8}$/.test(k))) {
    const block = data[id] as { for_each?: Record<string, unknown>; depends_on?: string[] };
    const into = first.get(id);
    if (into) {
      const target = data[into] as { for_each: Record<string, unknown>; depends_on?: string[] };
      target.for_each = Object.fromEntries(Object.entries({ ...target.for_each, ...block.for_each }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      target.depends_on = [...(target.depends_on ?? []), ...(block.depends_on ?? [])];
    } else if (Object.keys(block.for_each ?? {}).length > 0) throw new Error(`drain block ${id} has nodes but no move from the first pair`);
    delete data[id];
  }
  const inFirst = (d: string) => {
    const id = first.get(d.replace(/^terraform_data\./, ''));
    return id === undefined ? d : `terraform_data.${id}`;
  };
  for (const r of all()) if (r.depends_on) r.depends_on = [...new Set(r.depends_on.map(inFirst))];
  // A chain of moves (per-node address, first chunk, later chunk) as one.
  const kept = moves.filter(({ from }) => !/^terraform_data\.node-drains-/.test(from));
  const next = new Map(kept.map((m) => [m.from, m.to]));
  const targets = new Set(kept.map((m) => m.to));
  tf.moved = kept
    .filter((m) => !targets.has(m.from))
    .map(({ from, to }) => {
      let end = to;
      while (next.has(end)) end = next.get(end)!;
      return { from, to: end };
    });
}

/** Moves Secrets from kubectl_manifest to kubernetes_secret_v1 (what waited for one waits for it under that type). */
function secretsToV1(tf: ManifestLayoutStack, which: (secret: SecretBody) => boolean): void {
  const objects = tf.resource.kubectl_manifest ?? {};
  const secrets: Record<string, unknown> = {};
  for (const [id, r] of Object.entries(objects)) {
    const body = parse(appliedYaml(r.yaml_body)) as { kind?: string };
    if (body.kind !== 'Secret' || !which(body as SecretBody)) continue;
    secrets[id] = secretV1(r, body as SecretBody);
    delete objects[id];
  }
  if (Object.keys(secrets).length === 0) return;
  tf.resource.kubernetes_secret_v1 = { ...(tf.resource.kubernetes_secret_v1 ?? {}), ...secrets };
  const moved = new Map(Object.keys(secrets).map((id) => [`kubectl_manifest.${id}`, `kubernetes_secret_v1.${id}`]));
  for (const byId of Object.values(tf.resource))
    for (const r of Object.values(byId ?? {})) {
      const res = r as { depends_on?: string[] };
      if (res.depends_on) res.depends_on = res.depends_on.map((d) => moved.get(d) ?? d);
    }
}

/** Removes the node ends (constructs/parts/node-drain.ts) and every dependency on them; the drains keep no node_end. */
function withoutNodeEnds(tf: ManifestLayoutStack): void {
  const data = tf.resource.terraform_data ?? {};
  const ends = new Set(Object.keys(data).filter((id) => /^node-drains-.+_End_[0-9A-F]{8}$/.test(id)));
  for (const id of ends) delete data[id];
  for (const byId of Object.values(tf.resource))
    for (const r of Object.values(byId ?? {})) {
      const res = r as { depends_on?: string[] };
      if (!res.depends_on) continue;
      res.depends_on = res.depends_on.filter((d) => !ends.has(d.replace(/^terraform_data\./, '')));
      if (res.depends_on.length === 0) delete res.depends_on;
    }
  for (const [id, r] of Object.entries(data)) {
    if (!id.startsWith('node-drains-')) continue;
    const drain = r as { for_each?: Record<string, Record<string, string>> };
    for (const input of Object.values(drain.for_each ?? {})) delete input.node_end;
  }
}

/**
 * In a parsed stack: kubectl_manifest resources become kubernetes_manifest ones (user data and token Secrets
 * kubernetes_secret_v1 ones), the kubectl provider goes.
 */
export function kubectlToManifests(tf: ManifestLayoutStack): void {
  toPerNodeLayout(tf);
  secretsToV1(tf, () => true);
  withoutNodeEnds(tf);
  withoutStoppedLists(tf);
  const objects = tf.resource.kubectl_manifest ?? {};
  delete tf.resource.kubectl_manifest;
  const manifests = (tf.resource.kubernetes_manifest ??= {});
  for (const [id, r] of Object.entries(objects)) {
    const manifest = parse(appliedYaml(r.yaml_body)) as { spec?: { template?: { metadata?: { annotations?: Record<string, string> } } } };
    // 0.1 wrote no revision on a VM's template (core/plan/change/revision.ts).
    delete manifest.spec?.template?.metadata?.annotations?.['metalslice.io/revision'];
    manifests[id] = { ...(r.depends_on ? { depends_on: r.depends_on } : {}), manifest };
  }
  delete tf.terraform.required_providers.kubectl;
  if (tf.provider) delete tf.provider.kubectl;
  // 0.1 drained and rolled nothing: no node-drains resources (constructs/parts/node-drain.ts), no pool rollouts
  // (constructs/parts/node-rollout.ts); nothing depends on them then.
  const data = tf.resource.terraform_data ?? {};
  const gone = new Set(Object.keys(data).filter((id) => id.startsWith('node-drains-') || /_rollout_[0-9A-F]{8}$/.test(id)));
  for (const id of gone) delete data[id];
  if (tf.resource.terraform_data && Object.keys(data).length === 0) delete tf.resource.terraform_data;
}

/** Drops the pools' data sources of VMs the roll stopped; each VM's runStrategy is `Always` again, as 0.1 and 0.2 wrote it. */
function withoutStoppedLists(tf: ManifestLayoutStack): void {
  for (const r of Object.values(tf.resource.kubectl_manifest ?? {})) r.yaml_body = appliedYaml(r.yaml_body);
  const data = (tf as { data?: Record<string, unknown> }).data;
  if (data) delete data.kubernetes_resources;
  if (data && Object.keys(data).length === 0) delete (tf as { data?: unknown }).data;
}

/** In a parsed stack: what 0.2 wrote (token Secrets kubernetes_secret_v1, no node ends, VMs always `Always`). */
export function toRelease02Layout(tf: ManifestLayoutStack): void {
  toPerNodeLayout(tf);
  secretsToV1(tf, (secret) => secret.type === 'bootstrap.kubernetes.io/token');
  withoutNodeEnds(tf);
  withoutStoppedLists(tf);
  // The tenant clusters' kubectl providers (aliases) came with the token Secrets.
  const kubectl = tf.provider?.kubectl as { alias?: string }[] | undefined;
  if (kubectl) tf.provider!.kubectl = kubectl.filter((p) => p.alias === undefined);
}

/** Parses `file` (a cdk.tf.json), lets `layout` change it, and writes it back. */
function rewrite(file: string, layout: (tf: ManifestLayoutStack) => void): void {
  const tf = JSON.parse(fs.readFileSync(file, 'utf8')) as ManifestLayoutStack;
  layout(tf);
  fs.writeFileSync(file, JSON.stringify(tf, null, 2));
}

/** Rewrites `file` (a cdk.tf.json) as metalslice 0.2 wrote it ({@link toRelease02Layout}). */
export function toRelease02(file: string): void {
  rewrite(file, toRelease02Layout);
}

/** Rewrites `file` (a cdk.tf.json) as metalslice 0.2 to 0.5 wrote it ({@link toPerNodeLayout}). */
export function toRelease05(file: string): void {
  rewrite(file, toPerNodeLayout);
}

/** Rewrites `file` (a cdk.tf.json) as metalslice 0.6 wrote it ({@link toRelease06Layout}). */
export function toRelease06(file: string): void {
  rewrite(file, toRelease06Layout);
}

/** Rewrites `file` (a cdk.tf.json) as metalslice 0.8 wrote it ({@link toRelease08Layout}). */
export function toRelease08(file: string): void {
  rewrite(file, toRelease08Layout);
}

/** Rewrites `file` (a cdk.tf.json) as metalslice 0.11 wrote it ({@link toRelease11Layout}). */
export function toRelease11(file: string): void {
  rewrite(file, toRelease11Layout);
}

/** Rewrites `file` (a cdk.tf.json) with {@link kubectlToManifests}. */
export function toManifests(file: string): void {
  rewrite(file, kubectlToManifests);
}
