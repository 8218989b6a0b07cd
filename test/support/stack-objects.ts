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

/**
 * A kubectl_manifest's yaml_body as Terraform applies it when no roll has a VM stopped: the runStrategy expression
 * `Always`, and each escaped template opener (`$${`, `%%{`: constructs/plumbing/kubectl.ts literalYaml) the text it stands for.
 */
export function appliedYaml(yamlBody: string): string {
  return yamlBody
    .replace(RUN_STRATEGY_EXPRESSION, 'Always')
    .replace(/\$\$\{/g, '${')
    .replace(/%%\{/g, '%{');
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

/** A synthesized stack's resources and locals, as `forEachInstances` reads them. */
interface ForEachStack {
  readonly resource?: Record<string, Record<string, object> | undefined>;
  readonly locals?: Record<string, unknown>;
}

/**
 * A resource's arguments for one key of its `for_each` (a pool's nodes, constructs/parts/vm-nodes.ts): a value that
 * is the key's entry of a local map (`${local.<name>[each.key]}`) becomes that entry, `${each.key}` in a text the key,
 * and every other `[each.key]` an index by the key.
 */
export function forEachInstance<T>(arguments_: T, key: string, locals: Record<string, unknown> = {}): T {
  const literal = JSON.stringify(key);
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = /^\$\{local\.([\w-]+)\[each\.key\]\}$/.exec(value);
      if (whole) return (locals[whole[1]] as Record<string, unknown> | undefined)?.[key];
      return value.split('${each.key}').join(key).split('[each.key]').join(`[${literal}]`);
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return resolve(arguments_) as T;
}

/** The local a `for_each` reads its map from (`${local.<name>}`, constructs/parts/addresses.ts `forEachOf`), if it reads one. */
export function forEachLocal(forEach: unknown): string | undefined {
  return typeof forEach === 'string' ? /^\$\{local\.([\w-]+)\}$/.exec(forEach)?.[1] : undefined;
}

/** A `for_each` as the stack writes it: the local that holds the map (`forEachLocal`) resolved to the map. */
export function forEachMap(forEach: unknown, locals: Record<string, unknown> = {}): unknown {
  const local = forEachLocal(forEach);
  return local !== undefined ? locals[local] : forEach;
}

/**
 * `stack` with each resource's `for_each` the map its local holds (the stack itself is not changed), for tests that
 * read a resource's keys.
 */
export function inlineForEach<T>(stack: T): T {
  const s = stack as ForEachStack;
  const resource = Object.fromEntries(
    Object.entries(s.resource ?? {}).map(([type, byName]) => [
      type,
      Object.fromEntries(
        Object.entries(byName ?? {}).map(([name, r]) => {
          const forEach = (r as { for_each?: unknown }).for_each;
          return [name, forEach === undefined ? r : { ...r, for_each: forEachMap(forEach, s.locals) }];
        }),
      ),
    ]),
  );
  return (s.resource ? { ...s, resource } : s) as T;
}

/**
 * The resources of `type` in a stack, one entry per instance: a resource with a `for_each` map becomes one
 * entry per key, named `<name>["<key>"]`, its arguments as `forEachInstance` gives them (without `for_each`).
 */
export function resourceInstances<T extends object>(stack: ForEachStack, type: string): [string, T][] {
  const out: [string, T][] = [];
  for (const [name, r] of Object.entries(stack.resource?.[type] ?? {})) {
    const keys = forEachMap((r as { for_each?: unknown }).for_each, stack.locals);
    if (keys === null || typeof keys !== 'object') {
      out.push([name, r as unknown as T]);
      continue;
    }
    const { for_each: _, ...rest } = r as { for_each?: unknown };
    for (const key of Object.keys(keys)) out.push([`${name}[${JSON.stringify(key)}]`, forEachInstance(rest as unknown as T, key, stack.locals)]);
  }
  return out;
}

/** Every resource instance of a stack, of every type, by address (`type.name` or `type.name["key"]`), as {@link resourceInstances} gives them. */
export function instancesByAddress<T extends object>(stack: ForEachStack): Map<string, T> {
  return new Map(
    Object.keys(stack.resource ?? {}).flatMap((type) => resourceInstances<T>(stack, type).map(([name, r]) => [`${type}.${name}`, r] as [string, T])),
  );
}

/** Every object of a stack's JSON (a string, or already parsed), in resource order, one per instance. */
export function stackObjects(stack: string | object): StackObject[] {
  const json = (typeof stack === 'string' ? JSON.parse(stack) : stack) as ForEachStack;
  const out: StackObject[] = [];
  for (const type of ['kubernetes_manifest', 'kubectl_manifest']) {
    for (const [name, r] of resourceInstances<ObjectResource>(json, type)) {
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
