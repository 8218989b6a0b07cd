/**
 * A synthesized stack as metalslice 0.1 wrote it: every `kubectl_manifest` turned into a `kubernetes_manifest`
 * of the same object at the same address (the resource type VirtualMachines had then), with no revision on its
 * template, and no node drains or pool rollouts. Used by the upgrade
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

/** In a parsed stack: kubectl_manifest resources become kubernetes_manifest ones, the kubectl provider goes. */
export function kubectlToManifests(tf: ManifestLayoutStack): void {
  const objects = tf.resource.kubectl_manifest ?? {};
  delete tf.resource.kubectl_manifest;
  const manifests = (tf.resource.kubernetes_manifest ??= {});
  for (const [id, r] of Object.entries(objects)) {
    const manifest = parse(r.yaml_body) as { spec?: { template?: { metadata?: { annotations?: Record<string, string> } } } };
    // 0.1 wrote no revision on a VM's template (core/plan/transition.ts).
    delete manifest.spec?.template?.metadata?.annotations?.['metalslice.io/revision'];
    manifests[id] = { ...(r.depends_on ? { depends_on: r.depends_on } : {}), manifest };
  }
  delete tf.terraform.required_providers.kubectl;
  if (tf.provider) delete tf.provider.kubectl;
  // 0.1 drained and rolled nothing: no node-drains resources (constructs/node-drain.ts), no pool rollouts
  // (constructs/node-rollout.ts); nothing depends on them then.
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
