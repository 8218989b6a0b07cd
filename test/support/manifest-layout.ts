/**
 * A synthesized stack as metalslice 0.1 wrote it: every `kubectl_manifest` of a VM turned into a
 * `kubernetes_manifest` of the same object at the same address (the resource type VirtualMachines had then), with
 * no revision on its template; every `kubectl_manifest` of a node's user data Secret into a `kubernetes_secret_v1`
 * at the same address, its document as is; and no node drains or pool rollouts. Used by the upgrade
 * test and by the deploy benchmark's `per-pool-manifest` and `baseline` layouts.
 */
import * as fs from 'node:fs';
import { parse } from 'yaml';

/** The parts of a synthesized stack (cdk.tf.json) the rewrite touches. */
export interface ManifestLayoutStack {
  terraform: { required_providers: Record<string, unknown> };
  provider?: Record<string, unknown>;
  resource: {
    kubectl_manifest?: Record<string, { depends_on?: string[]; yaml_body: string }>;
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

/**
 * In a parsed stack: kubectl_manifest resources become kubernetes_manifest ones (user data Secrets
 * kubernetes_secret_v1 ones), the kubectl provider goes.
 */
export function kubectlToManifests(tf: ManifestLayoutStack): void {
  const objects = tf.resource.kubectl_manifest ?? {};
  delete tf.resource.kubectl_manifest;
  const manifests = (tf.resource.kubernetes_manifest ??= {});
  const secrets: Record<string, unknown> = {};
  for (const [id, r] of Object.entries(objects)) {
    const body = parse(r.yaml_body) as { kind?: string };
    if (body.kind === 'Secret') {
      // 0.1: kubernetes_secret_v1 with the document in `data` (the provider encodes it).
      const secret = body as SecretBody;
      const data = Object.fromEntries(Object.entries(secret.data).map(([k, v]) => [k, v.replace(/^\$\{base64encode\((.*)\)\}$/s, '$${$1}')]));
      secrets[id] = { ...(r.depends_on ? { depends_on: r.depends_on } : {}), metadata: secret.metadata, type: secret.type, data };
      continue;
    }
    const manifest = body as { spec?: { template?: { metadata?: { annotations?: Record<string, string> } } } };
    // 0.1 wrote no revision on a VM's template (core/plan/change/revision.ts).
    delete manifest.spec?.template?.metadata?.annotations?.['metalslice.io/revision'];
    manifests[id] = { ...(r.depends_on ? { depends_on: r.depends_on } : {}), manifest };
  }
  if (Object.keys(secrets).length > 0) {
    tf.resource.kubernetes_secret_v1 = { ...(tf.resource.kubernetes_secret_v1 ?? {}), ...secrets };
    // What waited for a Secret (a HostClaim) waits for it under its 0.1 type.
    const moved = new Map(Object.keys(secrets).map((id) => [`kubectl_manifest.${id}`, `kubernetes_secret_v1.${id}`]));
    for (const byId of Object.values(tf.resource))
      for (const r of Object.values(byId ?? {})) {
        const res = r as { depends_on?: string[] };
        if (res.depends_on) res.depends_on = res.depends_on.map((d) => moved.get(d) ?? d);
      }
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

/** Rewrites `file` (a cdk.tf.json) with {@link kubectlToManifests}. */
export function toManifests(file: string): void {
  const tf = JSON.parse(fs.readFileSync(file, 'utf8')) as ManifestLayoutStack;
  kubectlToManifests(tf);
  fs.writeFileSync(file, JSON.stringify(tf, null, 2));
}
