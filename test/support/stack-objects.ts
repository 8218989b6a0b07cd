/**
 * The Kubernetes objects a synthesized stack applies, whichever resource applies them: `kubernetes_manifest`
 * (its `manifest`) or `kubectl_manifest` (its `yaml_body`, parsed).
 */
import { parse } from 'yaml';
import { TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { addConfig, CapacityPlan } from '../../constructs';
import { MetalsliceConfig } from '../../constructs/core/input/model';

/** A Kubernetes object in a stack: where it is declared, what it waits for, and the object. */
export interface StackObject {
  /** `type.name` of the Terraform resource. */
  readonly address: string;
  /** Its `depends_on`. */
  readonly dependsOn: readonly string[];
  /** The object. */
  readonly object: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly metadata: { readonly name: string; readonly namespace?: string };
    readonly [k: string]: unknown;
  };
}

interface ObjectResource {
  readonly manifest?: StackObject['object'] | string;
  readonly yaml_body?: string;
  readonly depends_on?: string[];
}

/**
 * A VM's runStrategy as the stack writes it, a Terraform expression over its pool's stopped VMs
 * (constructs/parts/node-rollout.ts), with no VM stopped: `Always`, what Terraform makes of it then.
 */
export const RUN_STRATEGY_EXPRESSION = /\$\{length\(\[for vm in data\.kubernetes_resources\.[^}]*\}/g;

/** A kubectl_manifest's yaml_body as Terraform applies it when no roll has a VM stopped. */
export function appliedYaml(yamlBody: string): string {
  return yamlBody.replace(RUN_STRATEGY_EXPRESSION, 'Always');
}

/**
 * A HostClaim's manifest as the stack writes it in a pool with a roll, a Terraform expression that holds a claim not
 * at the revision as it is (constructs/parts/node-rollout.ts `hostClaimOf`), decoded to what Terraform applies when
 * no claim is held: its last literal, the planned claim. Any other manifest is returned as it is.
 */
export function appliedManifest(manifest: unknown): StackObject['object'] | undefined {
  if (typeof manifest !== 'string') return manifest as StackObject['object'] | undefined;
  const planned = /\[("(?:[^"\\]|\\.)*")\]\)\[0\]\)\}$/.exec(manifest);
  if (!planned) throw new Error(`a manifest expression the tests do not know: ${manifest.slice(0, 80)}`);
  return JSON.parse(JSON.parse(planned[1].replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{')) as string) as StackObject['object'];
}

/** Every object of a stack's JSON (a string, or already parsed), in resource order. */
export function stackObjects(stack: string | object): StackObject[] {
  const json = (typeof stack === 'string' ? JSON.parse(stack) : stack) as { resource?: Record<string, Record<string, ObjectResource> | undefined> };
  const out: StackObject[] = [];
  for (const type of ['kubernetes_manifest', 'kubectl_manifest']) {
    for (const [name, r] of Object.entries(json.resource?.[type] ?? {})) {
      const object = type === 'kubernetes_manifest' ? appliedManifest(r.manifest) : (parse(appliedYaml(r.yaml_body ?? '')) as StackObject['object']);
      if (object) out.push({ address: `${type}.${name}`, dependsOn: r.depends_on ?? [], object });
    }
  }
  return out;
}

/** The objects one stack applies when it declares `config` (addConfig) with a CapacityPlan that writes no report. */
export function synthConfigObjects(config: MetalsliceConfig): StackObject['object'][] {
  const stack = new TerraformStack(Testing.app(), 'tenant');
  new KubernetesProvider(stack, 'kubernetes', { configPath: '/etc/metalslice/provider.kubeconfig' });
  new RandomProvider(stack, 'random');
  new CapacityPlan(stack, 'plan', { writeReport: false });
  addConfig(stack, config);
  return stackObjects(Testing.synth(stack)).map((o) => o.object);
}

/**
 * `object` as the API server receives it, for schema validation: a Secret's `data` value that Terraform encodes
 * at apply (`${base64encode(local.…)}`, a node's user data) stood in by the base64 of a placeholder.
 */
export function asApplied(object: StackObject['object']): StackObject['object'] {
  if (object.kind !== 'Secret' || typeof object.data !== 'object' || object.data === null) return object;
  const data = Object.fromEntries(
    Object.entries(object.data as Record<string, string>).map(([k, v]) => [
      k,
      /^\$\{base64encode\(.*\)\}$/s.test(v) ? Buffer.from('#cloud-config\n').toString('base64') : v,
    ]),
  );
  return { ...object, data };
}
