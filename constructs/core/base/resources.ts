/**
 * Resource vectors: CPU, memory, disk and extended resources (`nvidia.com/gpu`) as exact quantities.
 */
import { childPath, MetalsliceError, PlanIssue } from './errors';
import { Quantity, QuantityError } from './quantity';
import { describeValue, excerpt } from './excerpt';
import { MAX_BYTES, MAX_CPU_CORES, MAX_HOSTS_PER_FLEET, MAX_UNITS } from './bounds';

/**
 * The resources metalslice accounts for by name; anything else must be a qualified extended resource.
 * `disk` is a VM's root disk (a PVC: requests.storage); `pods`, `ephemeral-storage` and hugepages are what
 * kubelet reports and kube-scheduler checks beside cpu and memory.
 */
export const STANDARD_RESOURCES = ['cpu', 'memory', 'disk', 'pods', 'ephemeral-storage', 'hugepages-2Mi', 'hugepages-1Gi'] as const;
export type StandardResource = (typeof STANDARD_RESOURCES)[number];

/** A resource name mapped to its amount. Missing means zero. */
export type ResourceVector = Readonly<Record<string, Quantity>>;

/**
 * An amount as written: a Kubernetes quantity string (`500m`, `8`, `32Gi`, `2Ti`, `1.5`) or a number. Binary
 * suffixes (Ki, Mi, Gi, Ti, Pi, Ei) are powers of 1024, decimal ones (k, M, G, T, P, E) powers of 1000, and `m`
 * is a thousandth.
 */
export type ResourceValue = string | number;

/**
 * Resources as written in config or props. Known names are typed and documented; any other key is an extended
 * resource with a qualified name (`vendor.com/name`, such as `nvidia.com/GA102GL_A10`). A missing resource is
 * zero. Byte-counted resources (memory, disk, ephemeral-storage, hugepages) need a unit: a bare number there is
 * bytes, so the plan refuses amounts under 1Mi (or of 1Ei and more) and suggests the unit.
 */
export interface ResourceInput {
  /** CPU in cores: `8`, `0.5` or `500m`. A VM's shape takes whole vCPUs. */
  readonly cpu?: ResourceValue;
  /** Memory with a unit: `32Gi`, `512Mi`. */
  readonly memory?: ResourceValue;
  /** Disk with a unit: a VM's root disk (counted as the quota's requests.storage), or a host's local disk. `100Gi`, `2Ti`. */
  readonly disk?: ResourceValue;
  /** Local ephemeral storage with a unit, as the kubelet reports it. */
  readonly 'ephemeral-storage'?: ResourceValue;
  /** Pods a host runs at most (kubelet maxPods); in Karpenter limits, see `nodes`. */
  readonly pods?: ResourceValue;
  /** Whole NVIDIA GPUs (passed through to VMs; the fleet must permit the device). */
  readonly 'nvidia.com/gpu'?: ResourceValue;
  /** Other extended resources by qualified name, and `nodes` in Karpenter limits. */
  readonly [resource: string]: ResourceValue | undefined;
}

// A qualified name as Kubernetes requires for extended resources: an optional DNS prefix and a name.
const EXTENDED_RESOURCE = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)\/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export function isExtendedResource(name: string): boolean {
  return !(STANDARD_RESOURCES as readonly string[]).includes(name);
}

/** Byte-counted resources: a bare number there is bytes, which is almost never what was meant. */
const BYTE_RESOURCES = new Set(['memory', 'disk', 'ephemeral-storage', 'hugepages-2Mi', 'hugepages-1Gi']);

/** Whether a resource counts bytes (memory, disk, ephemeral storage, hugepages): reports scale it to Ki..Ei. */
export function isByteResource(name: string): boolean {
  return BYTE_RESOURCES.has(name);
}
const MEBIBYTE = 1024n ** 2n;
const EXBIBYTE = 1024n ** 6n;

/**
 * A size written without a unit that cannot be meant as bytes: below 1Mi (`disk: 100` is 100 bytes) or
 * from 1Ei up. The fix names the unit most likely meant.
 */
function unitlessSizeProblem(name: string, raw: string | number, q: Quantity): string | undefined {
  if (!BYTE_RESOURCES.has(name) || !/^\s*[0-9.]+(e\+?[0-9]+)?\s*$/i.test(String(raw)) || q.isZero()) return undefined;
  const bytes = q.nano / 1_000_000_000n;
  if (bytes < MEBIBYTE)
    return `${name} ${String(raw)} has no unit, so it means ${String(raw)} bytes: write it with a unit, e.g. ${String(raw).trim()}Gi or ${String(raw).trim()}Mi`;
  if (bytes >= EXBIBYTE) return `${name} ${String(raw)} has no unit and is ${q.toString()} bytes, more than any machine holds: write it with a unit, e.g. 64Gi`;
  return undefined;
}

const NANO_PER_MILLI = 1_000_000n;
const NANO_PER_UNIT = 1_000_000_000n;

/**
 * What a resource map describes: one machine (a host, a shape, a node type: placed exactly, so within
 * MAX_BYTES), or a whole fleet's worth (quota and pool limits: up to MAX_HOSTS_PER_FLEET machines).
 */
export type ResourceScope = 'machine' | 'fleet';

/** The largest amount of a resource in one value (bounds.ts says why). */
function maxNano(name: string, scope: ResourceScope): bigint {
  const times = BigInt(scope === 'fleet' ? MAX_HOSTS_PER_FLEET : 1);
  if (BYTE_RESOURCES.has(name)) return BigInt(MAX_BYTES) * NANO_PER_UNIT * times;
  if (name === 'cpu') return BigInt(MAX_CPU_CORES) * NANO_PER_UNIT;
  return BigInt(MAX_UNITS) * NANO_PER_UNIT * times;
}

/** How a message writes that largest amount: worded only for an amount over it (toLocaleString is slow to run on every amount parsed). */
function maxWritten(name: string, scope: ResourceScope): string {
  const what = scope === 'fleet' ? 'a fleet' : 'one machine';
  if (BYTE_RESOURCES.has(name)) return `the ${scope === 'fleet' ? '20000Pi' : '4Pi'} ${what} may hold`;
  if (name === 'cpu') return `the ${MAX_CPU_CORES.toLocaleString('en-US')} cores metalslice plans`;
  return `the ${(MAX_UNITS * (scope === 'fleet' ? MAX_HOSTS_PER_FLEET : 1)).toLocaleString('en-US')} ${what} may hold`;
}

/** Why an amount is beyond what metalslice plans, or finer than Kubernetes counts CPU (a millicore); undefined when fine. */
function amountProblem(name: string, raw: ResourceValue, q: Quantity, scope: ResourceScope): string | undefined {
  if (name === 'cpu' && q.nano % NANO_PER_MILLI !== 0n) {
    return `cpu ${describeValue(raw)} is finer than a millicore: Kubernetes counts CPU in millicores (1m = 0.001 cores), so write 1m or more`;
  }
  if (q.nano > maxNano(name, scope)) return `${name} ${describeValue(raw)} is more than ${maxWritten(name, scope)}: check the unit (Ti, not Pi) or the digits`;
  return undefined;
}

/** Parses a resource map, collecting one issue per bad entry (unknown name, bad or negative quantity). */
export function parseResources(input: ResourceInput, path: string, scope: ResourceScope = 'machine'): ResourceVector {
  const issues: PlanIssue[] = [];
  const out: Record<string, Quantity> = {};
  for (const name of Object.keys(input).sort()) {
    const at = childPath(path, name);
    if (isExtendedResource(name) && !EXTENDED_RESOURCE.test(name)) {
      issues.push({
        path: at,
        message: `unknown resource ${excerpt(name)}: use cpu, memory, disk, pods, ephemeral-storage, hugepages-2Mi, hugepages-1Gi or a qualified extended resource such as nvidia.com/gpu`,
      });
      continue;
    }
    const value = input[name];
    if (value === undefined) continue; // an optional key written as undefined: not set
    try {
      const q = Quantity.parse(value);
      if (q.isNegative()) {
        issues.push({ path: at, message: `${name} must not be negative (got ${describeValue(value)})` });
        continue;
      }
      const sizeProblem = unitlessSizeProblem(name, value, q);
      if (sizeProblem !== undefined) {
        issues.push({ path: at, message: sizeProblem });
        continue;
      }
      const boundProblem = amountProblem(name, value, q, scope);
      if (boundProblem !== undefined) {
        issues.push({ path: at, message: boundProblem });
        continue;
      }
      if (isExtendedResource(name) && q.nano % 1_000_000_000n !== 0n) {
        issues.push({ path: at, message: `extended resource ${name} must be a whole number (got ${describeValue(input[name])})` });
        continue;
      }
      out[name] = q;
    } catch (e) {
      if (!(e instanceof QuantityError)) throw e;
      issues.push({ path: at, message: e.message });
    }
  }
  if (issues.length > 0) throw new MetalsliceError(issues);
  return out;
}

export function get(vector: ResourceVector, name: string): Quantity {
  return vector[name] ?? Quantity.ZERO;
}

/** Every resource name used by any of the vectors, sorted: cpu, memory, disk first, then extended. */
export function resourceNames(...vectors: ResourceVector[]): string[] {
  const names = new Set<string>();
  for (const v of vectors) for (const k of Object.keys(v)) names.add(k);
  return [...names].sort(compareResourceNames);
}

function compareResourceNames(a: string, b: string): number {
  const ia = (STANDARD_RESOURCES as readonly string[]).indexOf(a);
  const ib = (STANDARD_RESOURCES as readonly string[]).indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  return a < b ? -1 : a > b ? 1 : 0;
}

function combine(a: ResourceVector, b: ResourceVector, op: (x: Quantity, y: Quantity) => Quantity): ResourceVector {
  const out: Record<string, Quantity> = {};
  for (const name of resourceNames(a, b)) out[name] = op(get(a, name), get(b, name));
  return out;
}

export function addResources(a: ResourceVector, b: ResourceVector): ResourceVector {
  return combine(a, b, (x, y) => x.add(y));
}

export function subtractResources(a: ResourceVector, b: ResourceVector): ResourceVector {
  return combine(a, b, (x, y) => x.sub(y));
}

export function scaleResources(v: ResourceVector, factor: number | bigint): ResourceVector {
  const out: Record<string, Quantity> = {};
  for (const name of resourceNames(v)) out[name] = v[name].times(factor);
  return out;
}

/** The sum of many vectors, exactly as `addResources` one by one from `{}` gives it (formats too), names sorted once. */
export function sumResources(vectors: Iterable<ResourceVector>): ResourceVector {
  const total = new Map<string, Quantity>();
  for (const v of vectors) {
    for (const name of Object.keys(v)) {
      const sum = total.get(name);
      total.set(name, (sum ?? Quantity.ZERO).add(v[name]));
    }
  }
  const out: Record<string, Quantity> = {};
  for (const name of [...total.keys()].sort(compareResourceNames)) out[name] = total.get(name)!;
  return out;
}

/** The resources of `v` named in `names` (zero where `v` has none), in that order. */
export function pickResources(v: ResourceVector, names: readonly string[]): ResourceVector {
  return Object.fromEntries(names.map((n) => [n, get(v, n)]));
}

/** The resources of `demand` that exceed `capacity`, in resource order; empty when it fits. */
export function exceededResources(demand: ResourceVector, capacity: ResourceVector): string[] {
  return resourceNames(demand).filter((name) => !get(demand, name).lte(get(capacity, name)));
}

export function fitsWithin(demand: ResourceVector, capacity: ResourceVector): boolean {
  return exceededResources(demand, capacity).length === 0;
}

/** Quantities as canonical strings, for reports and manifests. Zero entries are dropped. */
export function formatResources(v: ResourceVector): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of resourceNames(v)) if (!v[name].isZero()) out[name] = v[name].toString();
  return out;
}

/** Memory-like resources are held in bytes so they format with binary suffixes. */
export function normalizeResources(v: ResourceVector): ResourceVector {
  const out: Record<string, Quantity> = {};
  for (const name of resourceNames(v)) {
    const q = v[name];
    out[name] = name === 'memory' || name === 'disk' ? Quantity.fromNano(q.nano, 'BinarySI') : q;
  }
  return out;
}
