/**
 * Which node type a pool gets. For every claim, in config order: the types whose properties meet all
 * requirements, that do not carry an extended resource (GPU) the claim did not ask for, that are big enough
 * and (kubevirt) whose VMs KubeVirt would build; of those, the cheapest (ties by name) that still has capacity
 * and fits the claim's quota (static-pools.ts, dynamic-pools.ts). Every type that loses keeps its reason.
 */
import { childPath, PlanIssue } from '../base/errors';
import type { CandidateType, PlannedAutoPool, PoolContext, RejectedType } from './types';
import { INSTANCE_TYPE_LABEL, VCLUSTER_NODE_TYPE_LABEL } from '../naming/derived';
import { NodeType } from './node-types';
import { effectiveProperties, ImageSource, KubevirtProperties, kubevirtProperties, propertyLevels } from '../vm/properties';
import { Requirement } from './requirements';
import { amounts } from '../base/units';
import { exceededResources, fitsWithin, get, isExtendedResource, ResourceVector } from '../base/resources';
import { buildVm, FleetKubevirt, VmBuild } from '../vm/vm';

/** A resource vector in a message, in readable units: `cpu 4, memory 16 Gi`, or `nothing`. */
export function show(v: ResourceVector): string {
  return amounts(v) || 'nothing';
}

/** The named resources of a vector in a message, in readable units. */
export function showSome(v: ResourceVector, names: readonly string[]): string {
  return amounts(v, names);
}

/** A record with its keys sorted (node labels as planned and written). */
export function sortKeys<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}

/** The cheapest first, ties broken by name: the documented, stable order. */
export function compareByCost(a: NodeType, b: NodeType): number {
  if (a.cost !== b.cost) return a.cost - b.cost;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// Selection asks for a type's VM for its footprint, its KubeVirt check and its candidate entry, and the VM
// list once per node: build it once per (type, fleet).
const typeVms = new WeakMap<NodeType, WeakMap<FleetKubevirt, VmBuild | { readonly problem: string }>>();

/** A kubevirt type's VM as KubeVirt builds it on the pool's fleet, or why KubeVirt would refuse it. */
export function plainTypeVm(type: NodeType, fleet: FleetKubevirt): VmBuild | { readonly problem: string } {
  let byFleet = typeVms.get(type);
  if (!byFleet) typeVms.set(type, (byFleet = new WeakMap()));
  let built = byFleet.get(fleet);
  if (!built) {
    const problems: PlanIssue[] = [];
    const rootDisk = get(type.resources, 'disk').isZero() ? 'containerDisk' : 'dataVolume';
    const vm = buildVm(
      type.resources,
      type.vm ?? {},
      rootDisk,
      fleet,
      { options: childPath(type.path, 'vm'), shape: childPath(type.path, 'resources') },
      problems,
    );
    built = vm ?? { problem: problems.map((p) => `${p.path}: ${p.message}`).join('; ') };
    byFleet.set(fleet, built);
  }
  return built;
}

/**
 * The VM a kubevirt node type is on a fleet, with what its properties ask (a DataVolume root disk of
 * root-disk-size, its image source): the value every road renders for that type, and what its quota is
 * charged. Undefined when KubeVirt would refuse it (with problems for the properties' root disk; the type's
 * own refusal is `plainTypeVm`'s).
 */
export function typeVm(
  type: NodeType,
  fleet: FleetKubevirt,
  props: KubevirtProperties,
  problems: PlanIssue[],
): (VmBuild & { imageSource?: ImageSource }) | undefined {
  if (!props.rootDiskSize) {
    // The type as it is: its refusal, if any, is plainTypeVm's, which type selection reports once.
    const vm = plainTypeVm(type, fleet);
    return 'problem' in vm ? undefined : vm;
  }
  // The root disk the properties ask for: a DataVolume of that size, counted against the quota.
  const vm = buildVm(
    { ...type.resources, disk: props.rootDiskSize },
    type.vm ?? {},
    'dataVolume',
    fleet,
    { options: childPath(type.path, 'vm'), shape: childPath(type.path, 'resources') },
    problems,
  );
  return vm ? { ...vm, ...(props.image ? { imageSource: props.image } : {}) } : undefined;
}

/** A claim's VM of one kubevirt node type, and what building it found in the claim's properties. */
export interface ClaimVm {
  /** The VM; undefined when KubeVirt would refuse it. */
  readonly vm?: VmBuild & { imageSource?: ImageSource };
  /** What is wrong with the properties the VM is built with (a root-disk-size that is no size, say). */
  readonly problems: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
}

// A pool asks for a type's VM for its footprint, its candidate entry and each node: build it once per entry and type.
const claimVms = new WeakMap<PoolContext, Map<NodeType, ClaimVm | undefined>>();

/**
 * The VM one node of a kubevirt type is in the entry's pools: `typeVm` with the properties the entry's nodes are
 * made with (vCluster's precedence: the claim's over the type's over the provider's), with their problems. The one
 * build of a claim's VM: type selection weighs it (footprint, candidate) and the plan's VM list takes it from the
 * chosen candidate (plan/auto-node-vms.ts), reporting its problems. Undefined when the type is not kubevirt.
 */
export function claimVm(type: NodeType, ctx: PoolContext): ClaimVm | undefined {
  if (type.providerKind !== 'kubevirt' || !ctx.fleet) return undefined;
  let byType = claimVms.get(ctx);
  if (!byType) claimVms.set(ctx, (byType = new Map<NodeType, ClaimVm | undefined>()));
  if (!byType.has(type)) {
    const levels = propertyLevels(ctx.properties?.provider, ctx.properties?.providerPath ?? ctx.path, type.name, {
      properties: ctx.properties?.claim,
      path: ctx.path,
    });
    const problems: PlanIssue[] = [];
    const warnings: PlanIssue[] = [];
    const props = kubevirtProperties(effectiveProperties(levels), ctx.path, problems, warnings);
    const vm = typeVm(type, ctx.fleet, props, problems);
    byType.set(type, { ...(vm ? { vm } : {}), problems, warnings });
  }
  return byType.get(type);
}

/** The VM of `claimVm`, or undefined when KubeVirt would refuse it or the type is not kubevirt. */
export function poolTypeVm(type: NodeType, ctx: PoolContext): VmBuild | undefined {
  return claimVm(type, ctx)?.vm;
}

/** What one node of the type costs its quota: its VM's quotaDemand (kubevirt, root-disk-size included), or the machine. */
export function footprintOf(type: NodeType, ctx: PoolContext): ResourceVector {
  return poolTypeVm(type, ctx)?.quotaDemand ?? type.resources;
}

/** Why KubeVirt would refuse the type's VMs on this fleet, or undefined. */
export function kubevirtProblem(type: NodeType, ctx: PoolContext): string | undefined {
  if (type.providerKind !== 'kubevirt' || !ctx.fleet) return undefined;
  const vm = plainTypeVm(type, ctx.fleet);
  return 'problem' in vm ? `KubeVirt would refuse its VMs: ${vm.problem}` : undefined;
}

export function candidateOf(type: NodeType, ctx: PoolContext): CandidateType {
  const built = claimVm(type, ctx);
  const vm = built?.vm;
  return {
    nodeType: type.id,
    name: type.name,
    cost: type.cost,
    resources: type.resources,
    footprint: vm?.quotaDemand ?? type.resources,
    ...(vm ? { vm } : {}),
    ...(built && built.problems.length + built.warnings.length > 0 ? { vmIssues: { problems: built.problems, warnings: built.warnings } } : {}),
  };
}

/** Extended resources a claim asks for: named by a requirement (other than DoesNotExist) or by its resources/limits. */
export function requestedExtended(requirements: readonly Requirement[], resources: ResourceVector): Set<string> {
  const out = new Set<string>();
  for (const r of requirements) if (r.operator !== 'DoesNotExist') out.add(r.key);
  for (const name of Object.keys(resources)) if (isExtendedResource(name) && !resources[name].isZero()) out.add(name);
  return out;
}

/** Why a type does not match a claim (requirements, GPU rule, size), or undefined when it does. */
function mismatch(
  type: NodeType,
  requirements: readonly Requirement[],
  requested: ReadonlySet<string>,
  minimum: ResourceVector | undefined,
): string | undefined {
  for (const r of requirements) {
    const offer = type.properties.get(r.key);
    if (!r.matches(offer)) {
      const offered = offer === undefined ? 'the type does not have the property' : `the type offers ${r.key}=${offer.any ? '*' : offer.values.join(',')}`;
      return `requirement ${r.toString()} not met: ${offered}`;
    }
  }
  // Selecting a type by its name (vCluster's node-type or instance-type property) asks for what it carries.
  const named = requirements.some(
    (r) => (r.key === VCLUSTER_NODE_TYPE_LABEL || r.key === INSTANCE_TYPE_LABEL) && r.operator === 'In' && r.values.includes(type.name),
  );
  const unrequested = named ? [] : type.extendedResources.filter((n) => !requested.has(n));
  if (unrequested.length > 0) {
    return `offers ${unrequested.join(', ')}, which the pool does not request (types with extended resources are only chosen when asked for: add a requirement on ${unrequested[0]})`;
  }
  if (minimum !== undefined && !fitsWithin(minimum, type.resources)) {
    const short = exceededResources(minimum, type.resources);
    return `too small: offers ${showSome(type.resources, short)}, the pool needs ${showSome(minimum, short)}`;
  }
  return undefined;
}

/** `In` requirements narrow comma-list / `*` properties to concrete label values. */
export function narrowing(requirements: readonly Requirement[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of requirements) if (r.operator === 'In') out.set(r.key, [...r.values]);
  return out;
}

/** Why no type matches a pool: the types with an unrequested extended resource, or every type's reason. */
export function noMatchMessage(ctx: PoolContext, pool: string, rejected: readonly RejectedType[], gpuOnly: readonly NodeType[]): string {
  if (gpuOnly.length > 0) {
    const resources = [...new Set(gpuOnly.flatMap((t) => t.extendedResources))].sort();
    return `no node type of provider ${ctx.provider.name} fits pool ${pool} without ${resources.join(', ')}: the only matching types (${gpuOnly.map((t) => t.id).join(', ')}) carry ${resources.join(', ')}, and such types are only chosen when the pool asks for them; add a requirement {property: ${resources[0]}, operator: Exists} if the pool should get them, or add a node type without ${resources.join(', ')}`;
  }
  return `no node type of provider ${ctx.provider.name} matches pool ${pool}: ${rejected.map((r) => `${r.nodeType}: ${r.reason}`).join('; ') || 'the provider has no node types'}; relax the requirements or add a matching node type`;
}

/** The provider's types, cheapest first, split into those that match a pool and those that lose (each with why). */
export interface TypeMatch {
  /** Matching types, cheapest first. */
  readonly matching: NodeType[];
  /** Types that lost, in cost order, with the reason. */
  readonly rejected: RejectedType[];
  /** Types that lost only for an extended resource (GPU) the pool did not ask for. */
  readonly gpuOnly: NodeType[];
}

/**
 * Matches the provider's types to a pool's requirements, extended resources and minimum size; `unavailable`
 * (dynamic pools: no capacity left) rejects a type that matches, in its place in cost order.
 */
export function matchTypes(
  ctx: PoolContext,
  requirements: readonly Requirement[],
  requested: ReadonlySet<string>,
  minimum: ResourceVector | undefined,
  unavailable?: (type: NodeType) => string | undefined,
): TypeMatch {
  const out: TypeMatch = { matching: [], rejected: [], gpuOnly: [] };
  for (const type of [...ctx.provider.types].sort(compareByCost)) {
    const reason = mismatch(type, requirements, requested, minimum);
    const refused = reason === undefined ? kubevirtProblem(type, ctx) : undefined;
    if (reason !== undefined || refused !== undefined) {
      out.rejected.push({ nodeType: type.id, reason: (reason ?? refused)! });
      if (reason !== undefined && mismatch(type, requirements, new Set([...requested, ...type.extendedResources]), minimum) === undefined)
        out.gpuOnly.push(type);
      continue;
    }
    const gone = unavailable?.(type);
    if (gone !== undefined) out.rejected.push({ nodeType: type.id, reason: gone });
    else out.matching.push(type);
  }
  return out;
}

/** The part of a planned pool that says which pool it is: path, cluster, provider (and its kind), quota, name. */
export function poolIdentity(
  ctx: PoolContext,
  name: string,
  path: string,
): Pick<PlannedAutoPool, 'path' | 'cluster' | 'provider' | 'providerKind' | 'quota' | 'name'> {
  return { path, cluster: ctx.cluster, provider: ctx.provider.name, providerKind: ctx.provider.kind, quota: ctx.quota, name };
}
