/**
 * `metalslice roll-hosts --namespace NS --pool POOL --revision REV --claim JSON ...`: what a stack runs when a private
 * (Metal3) pool's revision changes (constructs/parts/node-rollout.ts). A bare-metal node takes its image and user
 * data once, when Metal3 provisions its host, so a new revision means a new machine: the claim is released (Metal3
 * deprovisions and cleans the host) and claimed again at the revision.
 *
 * The stack leaves every claim not at the pool's revision as it is (it applies such a claim as it reads it), so this
 * is the one writer of a claim's revision: nothing reprovisions a host the roll has not drained.
 *
 * 1. `maxSurge` surge claims (`<cluster>-<pool>-<k>-surge`) first, on free matching hosts the plan proved, each
 *    with a copy of a node's user data under its own name; each waited for until its Node is Ready.
 * 2. Each claim not at the revision, `maxSurge + maxUnavailable` at a time, in Cluster API's order: marked,
 *    drained (`drain-node`: cordon, the Eviction API, no VolumeAttachment left), held (a ConfigMap
 *    `<node>-roll-hold` labelled ROLL_STOPPED_LABEL), the claim deleted and waited for until Metal3 has released
 *    the host, the Node deleted, the hold let go, the claim made again at the revision, and its Node waited for.
 * 3. The surge claims are drained, deleted, then their Nodes, then their Secrets.
 *
 * A roll cut short between the claim's delete and its new claim leaves the node held: the next deploy makes the
 * claim again powered off (it reads the holds when it plans), or this roll does when the release ended after the
 * deploy planned, and this roll removes the old Node before it powers
 * the claim on. Exit codes as roll-nodes: 0 done, 1 a drain, release or join ran out of time or an API server
 * refused, 2 bad options or kubeconfig.
 */
import { DEFAULT_HOST_JOIN_TIMEOUT, DEFAULT_POLL_INTERVAL_SECONDS, drainTimeoutSeconds, DEFAULT_JOIN_TIMEOUT } from '../core/input/disruption';
import {
  CLUSTER_LABEL,
  hostClaimUserDataSecretName,
  MANAGED_BY,
  POOL_LABEL,
  REPLACING_ANNOTATION,
  REVISION_LABEL,
  ROLL_STOPPED_LABEL,
  SURGE_LABEL,
  rollHoldName,
  surgeVmName,
} from '../core/naming/derived';
import { escapeText } from '../core/base/excerpt';
import { isRecord } from '../core/base/records';
import { METAL3_API_VERSION, USER_DATA_KEY } from '../render/metal3';
import { checkCluster, DrainIo, removeNode } from './drain';
import { KubeClient } from './kube/client';
import {
  byIndex,
  deleteSurgeSecret,
  FOREGROUND,
  inBatches,
  must,
  patiently,
  readObject,
  RollError,
  RollOptions,
  runRoll,
  surgeUserData,
  TenantNodes,
  waitUntil,
} from './roll-common';

/** What `roll-hosts` takes: roll-nodes' options and the pool's claim at the revision. */
export interface HostRollOptions extends RollOptions {
  /**
   * The pool's HostClaim at the revision as the stack renders it, less what is a node's own (JSON): `labels` and
   * `spec` (`hostSelector`, `image`, `poweredOn`). The roll adds each node's name, user data Secret and failure domain.
   */
  readonly claim: string;
}

/** The pool-level part of a claim, as the stack passes it. */
interface ClaimTemplate {
  readonly labels: Record<string, string>;
  readonly spec: Record<string, unknown> & { image: { url: string }; poweredOn?: boolean };
}

/** A HostClaim as the roll reads it. */
interface WireClaim {
  metadata: { name: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { image?: { url?: string }; failureDomain?: string; poweredOn?: boolean; userData?: { name?: string } };
}

interface WireSecret {
  metadata?: { labels?: Record<string, string> };
  data?: Record<string, string>;
}

/** The claim template, or what is wrong with it. */
export function parseClaimTemplate(text: string): ClaimTemplate | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  if (!isRecord(value) || !isRecord(value.labels) || !isRecord(value.spec)) return 'must be an object with labels and spec';
  if (!Object.values(value.labels).every((v) => typeof v === 'string')) return 'labels must be strings';
  const image = value.spec.image;
  if (!isRecord(image) || typeof image.url !== 'string' || image.url === '') return 'spec.image.url must be a URL';
  if (value.spec.poweredOn !== undefined && typeof value.spec.poweredOn !== 'boolean') return 'spec.poweredOn must be true or false';
  for (const key of ['userData', 'failureDomain', 'consumerRef']) if (key in value.spec) return `spec.${key} is a node's own: leave it out`;
  return value as unknown as ClaimTemplate;
}

class HostRoll {
  private readonly claims: string;
  private readonly secrets: string;
  private readonly configMaps: string;
  private readonly started: string;
  private readonly interval: number;
  private readonly joinSeconds: number;
  /** The pool's Nodes in the tenant cluster: drained, waited for. */
  private readonly nodes: TenantNodes;

  constructor(
    private readonly provider: KubeClient,
    private readonly tenant: KubeClient,
    private readonly opts: HostRollOptions,
    private readonly template: ClaimTemplate,
    private readonly io: DrainIo,
  ) {
    const ns = encodeURIComponent(opts.namespace);
    this.claims = `/apis/${METAL3_API_VERSION}/namespaces/${ns}/hostclaims`;
    this.secrets = `/api/v1/namespaces/${ns}/secrets`;
    this.configMaps = `/api/v1/namespaces/${ns}/configmaps`;
    this.started = `${opts.revision}:started`;
    this.interval = opts.interval ?? DEFAULT_POLL_INTERVAL_SECONDS;
    this.joinSeconds = drainTimeoutSeconds(opts.joinTimeout ?? DEFAULT_JOIN_TIMEOUT)!;
    this.nodes = new TenantNodes(tenant, opts, io);
  }

  private say(text: string): void {
    this.io.stdout(`roll-hosts: ${text}\n`);
  }

  private claimPath(name: string): string {
    return `${this.claims}/${encodeURIComponent(name)}`;
  }

  private secretPath(name: string): string {
    return `${this.secrets}/${encodeURIComponent(name)}`;
  }

  /** The claim of node `name` at the revision, as the stack renders it. */
  private claimAt(name: string, failureDomain: string | undefined, extraLabels: Record<string, string> = {}): unknown {
    return {
      apiVersion: METAL3_API_VERSION,
      kind: 'HostClaim',
      metadata: {
        name,
        namespace: this.opts.namespace,
        labels: { ...this.template.labels, ...extraLabels, [REVISION_LABEL]: this.opts.revision },
        annotations: { [REPLACING_ANNOTATION]: this.started },
      },
      spec: {
        ...this.template.spec,
        userData: { name: hostClaimUserDataSecretName(name), namespace: this.opts.namespace },
        ...(failureDomain !== undefined ? { failureDomain } : {}),
      },
    };
  }

  /**
   * Holds (or lets go) a node whose claim the roll releases: while its hold (a ConfigMap, `<node>-roll-hold`) is there,
   * the stack makes the node's claim powered off, so no host joins before the roll has deleted the old Node.
   */
  private async hold(node: string, held: boolean): Promise<void> {
    const name = rollHoldName(node);
    if (!held) {
      await must(this.provider, 'DELETE', `${this.configMaps}/${encodeURIComponent(name)}`, `delete ConfigMap ${name} (the roll's hold of ${node})`);
      return;
    }
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: this.opts.namespace, labels: { ...MANAGED_BY, [POOL_LABEL]: this.opts.pool, [ROLL_STOPPED_LABEL]: 'true' } },
      data: { node, revision: this.opts.revision },
    };
    await must(this.provider, 'POST', this.configMaps, `create ConfigMap ${name} (the roll's hold of ${node})`, body, true);
  }

  /** Deletes a claim and waits until Metal3 has released its host (the claim is gone). */
  private async release(name: string): Promise<void> {
    await must(this.provider, 'DELETE', this.claimPath(name), `delete HostClaim ${name}`, FOREGROUND);
    await waitUntil(`HostClaim ${name} released (its host deprovisioned)`, this.joinSeconds, this.interval, async () => {
      return (await readObject<WireClaim>(this.provider, this.claimPath(name), `HostClaim ${name}`)) === undefined;
    });
  }

  /** Replaces one node's host: drained, released, its Node deleted, claimed again at the revision, joined. */
  private async replace(claim: WireClaim): Promise<void> {
    const name = claim.metadata.name;
    this.say(`replacing ${name}`);
    // What the new claim needs is readable before the node goes (a refusal stops the roll here, the node serving).
    const secret = hostClaimUserDataSecretName(name);
    if ((await readObject(this.provider, this.secretPath(secret), `Secret ${secret}`)) === undefined)
      throw new RollError(`HostClaim ${name} has no user data Secret ${secret}: deploy again (the stack makes it) before its host is replaced`);
    await must(this.provider, 'PATCH', this.claimPath(name), `mark HostClaim ${name} as being replaced`, {
      metadata: { annotations: { [REPLACING_ANNOTATION]: `${this.opts.revision}:stopping` } },
    });
    await this.nodes.drain(name, 'its host');
    // Held before the claim goes: a deploy resumed from here makes the claim again powered off.
    await this.hold(name, true);
    await this.release(name);
    // The machine is gone: its Node goes now, never before.
    await removeNode(this.tenant, name, this.io);
    // Let go before the new claim: a deploy that plans after this makes it as the stack renders it.
    await this.hold(name, false);
    await must(this.provider, 'POST', this.claims, `create HostClaim ${name} at revision ${this.opts.revision}`, this.claimAt(name, claim.spec?.failureDomain));
    await this.joined(name);
    await this.unmark(name);
    this.say(`${name} replaced: revision ${this.opts.revision}, Ready`);
  }

  /**
   * A node whose replacement was cut short once its claim was released: its claim made again powered off (when the
   * stack planned before the release ended, it made none), its old Node deleted, then the claim powered on.
   */
  private async resume(name: string, claim: WireClaim | undefined): Promise<void> {
    this.say(`${name}: its replacement, cut short, carried on`);
    if (claim === undefined) {
      const off = this.claimAt(name, undefined) as { spec: Record<string, unknown> };
      await must(this.provider, 'POST', this.claims, `create HostClaim ${name} (powered off) at revision ${this.opts.revision}`, {
        ...off,
        spec: { ...off.spec, poweredOn: false },
      });
    }
    await removeNode(this.tenant, name, this.io);
    await this.hold(name, false);
    await must(this.provider, 'PATCH', this.claimPath(name), `power on HostClaim ${name}`, {
      metadata: { annotations: { [REPLACING_ANNOTATION]: this.started } },
      spec: { poweredOn: this.template.spec.poweredOn ?? true },
    });
    await this.joined(name);
    await this.unmark(name);
  }

  /** Waits until Node `name` is Ready; a pool whose hosts are kept powered off joins nothing, so nothing is waited for. */
  private async joined(name: string): Promise<void> {
    if (this.template.spec.poweredOn === false) return;
    await this.nodes.joined(name);
  }

  private async unmark(name: string): Promise<void> {
    await must(this.provider, 'PATCH', this.claimPath(name), `unmark HostClaim ${name}`, { metadata: { annotations: { [REPLACING_ANNOTATION]: null } } });
  }

  /** Makes (or keeps, when an earlier run made it at this revision) surge claim `name`, with `source`'s user data. */
  private async surge(name: string, source: WireClaim, existing: WireClaim | undefined): Promise<void> {
    if (existing?.metadata.labels?.[REVISION_LABEL] === this.opts.revision) {
      this.say(`surge ${name} is there from an earlier run`);
      await this.joined(name);
      return;
    }
    if (existing) await this.removeSurge(name);
    const from = hostClaimUserDataSecretName(source.metadata.name);
    const read = await readObject<WireSecret>(this.provider, this.secretPath(from), `Secret ${from}`);
    if (read === undefined) throw new RollError(`Secret ${from} of HostClaim ${source.metadata.name} is not there to copy`);
    const userData = surgeUserData(read.data?.[USER_DATA_KEY], from, USER_DATA_KEY, name);
    const secret = hostClaimUserDataSecretName(name);
    await this.deleteSurgeSecret(secret);
    await must(this.provider, 'POST', this.secrets, `create Secret ${secret}`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secret, namespace: this.opts.namespace, labels: { ...MANAGED_BY, [POOL_LABEL]: this.opts.pool, [SURGE_LABEL]: this.opts.pool } },
      type: 'Opaque',
      data: { [USER_DATA_KEY]: userData },
    });
    await must(
      this.provider,
      'POST',
      this.claims,
      `create surge HostClaim ${name} (a free host of the node type must be there: the plan's rollout says whether one is)`,
      this.claimAt(name, undefined, { [SURGE_LABEL]: this.opts.pool }),
    );
    this.say(`surge ${name} claimed (user data of ${source.metadata.name}, revision ${this.opts.revision})`);
    await this.joined(name);
    await this.unmark(name);
    this.say(`surge ${name} Ready`);
  }

  private async removeSurge(name: string): Promise<void> {
    await this.nodes.drain(name, 'its host');
    await this.release(name);
    await removeNode(this.tenant, name, this.io);
    await this.deleteSurgeSecret(hostClaimUserDataSecretName(name));
    this.say(`surge ${name} drained and released`);
  }

  /** Deletes a surge's user data Secret (Secrets the roll did not make stop it). */
  private async deleteSurgeSecret(name: string): Promise<void> {
    await deleteSurgeSecret(this.provider, this.secretPath(name), name, this.opts.pool);
  }

  /**
   * The pool's claims by what the roll does with them: replaced (not at the revision, or marked being replaced),
   * carried on (held: released by a roll cut short, made again powered off), waited for (started on the revision by a
   * roll cut short). A claim from before revisions were written, on the pool's image, is stamped with the revision.
   */
  private async sortMembers(
    members: readonly WireClaim[],
    isHeld: (node: string) => boolean,
  ): Promise<{ stale: WireClaim[]; resumed: { name: string; claim?: WireClaim }[]; joining: WireClaim[] }> {
    const stale: WireClaim[] = [];
    const resumed: { name: string; claim?: WireClaim }[] = [];
    const joining: WireClaim[] = [];
    for (const claim of members) {
      const revision = claim.metadata.labels?.[REVISION_LABEL];
      const mark = claim.metadata.annotations?.[REPLACING_ANNOTATION];
      if (revision === undefined && claim.spec?.image?.url === this.template.spec.image.url && mark === undefined) {
        // A claim from before revisions were written, on the revision's image: stamped, not replaced.
        await must(this.provider, 'PATCH', this.claimPath(claim.metadata.name), `stamp HostClaim ${claim.metadata.name} with revision ${this.opts.revision}`, {
          metadata: { labels: { [REVISION_LABEL]: this.opts.revision } },
        });
        this.say(`${claim.metadata.name}: made before revisions were written, on the pool's image: stamped with revision ${this.opts.revision}`);
      } else if (revision !== this.opts.revision || (mark !== undefined && mark !== this.started)) stale.push(claim);
      else if (isHeld(claim.metadata.name)) resumed.push({ name: claim.metadata.name, claim });
      else if (mark === this.started) joining.push(claim);
    }
    return { stale, resumed, joining };
  }

  async run(): Promise<void> {
    const selector = `${POOL_LABEL}=${this.opts.pool},${CLUSTER_LABEL}=${this.opts.cluster}`;
    const all = await patiently(`a read of pool ${this.opts.pool}'s HostClaims`, this.interval, () =>
      this.provider.list<WireClaim>(this.claims, { labelSelector: selector }),
    );
    const surges = all.filter((c) => c.metadata.labels?.[SURGE_LABEL] === this.opts.pool);
    const declared = this.opts.nodes === undefined ? undefined : new Set(this.opts.nodes);
    const members = all
      .filter((c) => c.metadata.labels?.[SURGE_LABEL] === undefined && (declared === undefined || declared.has(c.metadata.name)))
      .sort(byIndex);
    const held = new Set(
      (
        await patiently(`a read of pool ${this.opts.pool}'s holds`, this.interval, () =>
          this.provider.list<{ metadata: { name: string } }>(this.configMaps, { labelSelector: `${POOL_LABEL}=${this.opts.pool},${ROLL_STOPPED_LABEL}=true` }),
        )
      ).map((c) => c.metadata.name),
    );
    const isHeld = (node: string) => held.has(rollHoldName(node));
    // A surge's user data Secret outlives its claim and its Node (removeSurge): one whose claim is gone is a surge
    // whose end was cut short, its Node perhaps still there (cordoned, its host released).
    const surgeSecrets = await patiently(`a read of pool ${this.opts.pool}'s surge Secrets`, this.interval, () =>
      this.provider.list<{ metadata: { name: string } }>(this.secrets, { labelSelector: `${SURGE_LABEL}=${this.opts.pool}` }),
    );
    const endedSurges = surgeSecrets
      .map((x) => x.metadata.name)
      .filter((secret) => secret.endsWith(hostClaimUserDataSecretName('')) && !surges.some((c) => hostClaimUserDataSecretName(c.metadata.name) === secret));
    const { stale, resumed, joining } = await this.sortMembers(members, isHeld);
    // Held and without a claim: released after the deploy planned (so it made none). A node the deploy no longer
    // declares is the stack's to end (its drain and end), and its hold goes.
    const names = new Set(members.map((c) => c.metadata.name));
    const heldNodes = [...held].filter((h) => h.endsWith(rollHoldName(''))).map((h) => h.slice(0, -rollHoldName('').length));
    for (const node of heldNodes.filter((n) => !names.has(n))) if (declared === undefined || declared.has(node)) resumed.push({ name: node });
    const dropped = heldNodes.filter((n) => declared !== undefined && !declared.has(n));
    for (const node of dropped) {
      await this.hold(node, false);
      this.say(`${node}: no longer declared; its hold let go (its end is the deploy's)`);
    }
    if (stale.length + resumed.length + joining.length + surges.length + endedSurges.length === 0) {
      this.say(`pool ${this.opts.pool}: all ${members.length} host(s) run revision ${this.opts.revision}`);
      return;
    }
    await checkCluster(this.tenant, this.opts.clusterCaHash);
    for (const secret of endedSurges) {
      const name = secret.slice(0, -hostClaimUserDataSecretName('').length);
      await removeNode(this.tenant, name, this.io);
      await this.deleteSurgeSecret(secret);
      this.say(`surge ${name}: its end, cut short, finished (Node and Secret deleted)`);
    }
    for (const r of resumed) await this.resume(r.name, r.claim);
    for (const claim of joining) {
      await this.joined(claim.metadata.name);
      await this.unmark(claim.metadata.name);
    }
    // The hosts already at the revision (an earlier run replaced them, or the deploy made them) must have joined before
    // another goes: a revision that cannot join must not take the pool down one host per deploy.
    if (stale.length > 0) for (const claim of members.filter((c) => !stale.includes(c))) await this.joined(claim.metadata.name);
    const surgeCount = Math.min(this.opts.maxSurge, stale.length);
    this.say(
      `pool ${this.opts.pool}: ${stale.length} of ${members.length} host(s) to replace (${stale.map((c) => c.metadata.name).join(', ') || 'none'}), surge ${surgeCount}, ${surgeCount + this.opts.maxUnavailable} at a time`,
    );
    const surgeNames = Array.from({ length: surgeCount }, (_, k) => surgeVmName(`${this.opts.cluster}-${this.opts.pool}`, k));
    for (const claim of surges.filter((s) => !surgeNames.includes(s.metadata.name))) await this.removeSurge(claim.metadata.name);
    for (const [k, name] of surgeNames.entries())
      await this.surge(
        name,
        members[k % members.length],
        surges.find((s) => s.metadata.name === name),
      );
    const batch = Math.max(1, surgeCount + this.opts.maxUnavailable);
    await inBatches(stale, batch, (c) => this.replace(c));
    for (const name of surgeNames) await this.removeSurge(name);
    this.say(`pool ${this.opts.pool}: all ${members.length} host(s) run revision ${this.opts.revision}`);
  }
}

/** The command: checks the options and the claim, finds both clusters, rolls. */
export function runRollHosts(opts: HostRollOptions, io: DrainIo): Promise<number> {
  const template = parseClaimTemplate(opts.claim);
  const problem = typeof template === 'string' ? `--claim ${escapeText(template)}` : undefined;
  // A host's release and its provisioning each take minutes: its own default, longer than a VM's.
  const withDefaults: HostRollOptions = { ...opts, joinTimeout: opts.joinTimeout ?? DEFAULT_HOST_JOIN_TIMEOUT };
  return runRoll(
    'roll-hosts',
    'hosts',
    withDefaults,
    io,
    problem,
    (provider, tenant) => new HostRoll(provider, tenant, withDefaults, template as ClaimTemplate, io),
  );
}
