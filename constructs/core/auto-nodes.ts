/**
 * Auto nodes: vCluster-style static and dynamic pools matched against the node type catalogue at synth time.
 *
 * Selection, for every claim in config order: the types whose properties meet all requirements, that do
 * not carry an extended resource (GPU) the claim did not ask for, and that are big enough; of those, the
 * cheapest (ties by name) that still has capacity (`maxCapacity`, counted across all claims of all
 * clusters) and, for kubevirt, fits the claim's quota. Every type that loses keeps its reason.
 *
 * Static pools never split: a pool of N nodes takes N nodes of ONE type. When the cheapest type has room
 * for only part of the pool, the whole pool moves to the next cheapest type with room for all N; if no
 * type has room for all N, that is an error. One type per pool keeps the pool homogeneous (one node shape,
 * one set of labels) and keeps scaling stable: adding a node never re-types the existing ones.
 */
import { captureInto, childPath, isList, PlanIssue } from './errors';
import { AutoNodesSpec, DynamicPoolSpec, Labels, NodeProviderSpec, Requirement as RequirementSpec, StaticPoolSpec, Taint } from './model';
import { NodeType, nodeLabelsFor, INSTANCE_TYPE_LABEL, NODE_TYPE_LABEL, parseNodeProviders, ProviderKind, NodeProvider } from './node-types';
import { buildVm, FleetKubevirt, VmBuild } from './vms';
import {
  addResources,
  exceededResources,
  fitsWithin,
  get,
  isExtendedResource,
  parseResources,
  resourceNames,
  ResourceVector,
  scaleResources,
} from './resources';
import { overQuota, roomLeft, wholeWithin } from './quota-room';
import { isDnsLabel, labelKeyProblem, labelValueProblem, parseRequirements, Requirement } from './requirements';
import { kubeletLabelProblem } from './names';
import { MAX_NODES_PER_POOL, wholeNumberProblem } from './limits';
import { describeValue } from './excerpt';
import { amounts } from './report/units';

/** What auto-node planning needs from the rest of the plan: the catalogues, the entries, and the room left. */
export interface AutoNodesInput {
  /** The node providers and their catalogues. */
  readonly providers: readonly NodeProviderSpec[];
  /** The autoNodes entries to plan. */
  readonly autoNodes: readonly AutoNodesSpec[];
  /** Quota headroom left after the Elastic Node Pools. */
  readonly quotas: ReadonlyMap<
    string,
    {
      /** Room left in the quota. */
      readonly remaining: ResourceVector;
      /** The quota's fleet. */
      readonly fleet: string;
    }
  >;
  /** The KubeVirt settings of each fleet: they size every VM of a kubevirt provider. */
  readonly fleets: ReadonlyMap<string, FleetKubevirt>;
  /** Names of the declared tenant clusters. */
  readonly clusters: ReadonlySet<string>;
  /** Where the entries were written, for error paths. @default - `nodeProviders[i]` */
  readonly providersPath?: string;
  /** Where each `autoNodes` entry and its pools were written. @default - `autoNodes[i]`, `autoNodes[i].static[j]`, ... */
  readonly sourcePaths?: readonly AutoNodesSourcePath[];
  /**
   * Fleets and quotas that are declared but broken (their own problems are reported where they are
   * written): references to them are not reported again. @default - none
   */
  readonly declared?: {
    /** Fleets declared, broken or not. */
    readonly fleets: ReadonlySet<string>;
    /** Quotas declared, broken or not. */
    readonly quotas: ReadonlySet<string>;
  };
}

/** Where an autoNodes entry and its pools were written (a vcluster.yaml's paths). */
export interface AutoNodesSourcePath {
  /** Path of the entry. */
  readonly entry: string;
  /** Paths of its static pools, in order. @default - `<entry>.static[j]` */
  readonly static?: readonly string[];
  /** Paths of its dynamic pools, in order. @default - `<entry>.dynamic[j]` */
  readonly dynamic?: readonly string[];
}

/** One node of a static (or private) pool as planned. */
export interface PlannedAutoNode {
  /** `<cluster>-<pool>-<index>`: stable, so changing the quantity changes only the difference. */
  readonly name: string;
  /** `provider.type`. */
  readonly nodeType: string;
  /** metal3: the BareMetalHost the node is made from. */
  readonly host?: string;
  /** The type's resources: what the node offers. */
  readonly resources: ResourceVector;
  /** What the node costs its quota and host (kubevirt: the VM footprint incl. virt-launcher overhead). */
  readonly footprint: ResourceVector;
  /** Labels its kubelet registers with. */
  readonly labels: Readonly<Record<string, string>>;
}

/** A node type that matches a pool. */
export interface CandidateType {
  /** `provider.type`. */
  readonly nodeType: string;
  /** The bare type name (the node's instance-type label). */
  readonly name: string;
  /** Its cost per node. */
  readonly cost: number;
  /** What one node offers. */
  readonly resources: ResourceVector;
  /** What one node takes from its host and quota. */
  readonly footprint: ResourceVector;
  /** kubevirt: the VM a node of this type is, as the plan counts it. */
  readonly vm?: VmBuild;
}

/** A node type that lost, and why. */
export interface RejectedType {
  /** The type (`provider.type`). */
  readonly nodeType: string;
  /** Why it lost (a requirement, size, capacity, the quota, ...). */
  readonly reason: string;
}

/** A dynamic pool's limits and autoscaler settings as planned. */
export interface DynamicPoolPlan {
  /** Karpenter, or Cluster API with cluster-autoscaler. */
  readonly autoscaler: 'karpenter' | 'cluster-api';
  /** Karpenter limits without `nodes`. */
  readonly limits: ResourceVector;
  /** Karpenter's `nodes` limit. @default - none */
  readonly nodesLimit?: number;
  /** cluster-api: min / max size of the MachineDeployment. */
  readonly minNodes: number;
  /** cluster-api: most machines. @default - from the limits */
  readonly maxNodes?: number;
  /** Most the pool can cost its quota with limits reached, and the type that drives it. */
  readonly worstCase?: {
    /** The type that costs the quota most at the limits. */
    readonly nodeType: string;
    /** How many nodes of it the limits allow. */
    readonly nodes: number;
    /** What one such node takes. */
    readonly footprint: ResourceVector;
  };
  /** Karpenter's disruption settings. @default - Karpenter's */
  readonly disruption?: DynamicPoolSpec['disruption'];
  /** Karpenter's expireAfter. @default - Karpenter's */
  readonly expireAfter?: string;
  /** Karpenter's terminationGracePeriod. @default - none */
  readonly terminationGracePeriod?: string;
  /** Karpenter's NodePool weight. @default - none */
  readonly weight?: number;
}

/** An auto-node (or private) pool as planned: the chosen node type, its nodes, and every type that lost. */
export interface PlannedAutoPool {
  /** Config path of the pool (`autoNodes[0].static[1]`). */
  readonly path: string;
  /** The tenant cluster its nodes join. */
  readonly cluster: string;
  /** Its node provider. */
  readonly provider: string;
  /** The provider's kind: `kubevirt`, `metal3` or `terraform`. */
  readonly providerKind: ProviderKind;
  /** The quota its VMs count against. @default - none (metal3 and terraform pools) */
  readonly quota?: string;
  /** The pool's name. */
  readonly name: string;
  /** `static`: a fixed number of nodes; `dynamic`: an autoscaler adds nodes up to its limits. */
  readonly mode: 'static' | 'dynamic';
  /** The chosen type (`provider.type`): static pools, and cluster-api dynamic pools (one machine template). */
  readonly nodeType?: string;
  /** Nodes of a static pool; 0 for a dynamic one. */
  readonly quantity: number;
  /** The static pool's nodes. */
  readonly nodes: readonly PlannedAutoNode[];
  /** Types that match (requirements, GPU rule, size), cheapest first, ties by name. */
  readonly candidates: readonly CandidateType[];
  /** Every type that lost, and why. */
  readonly rejected: readonly RejectedType[];
  /** The pool's requirements, parsed. */
  readonly requirements: readonly Requirement[];
  /** Taints its nodes register with (the pool's over its profile's). */
  readonly taints: readonly Taint[];
  /** Labels its nodes register with (the pool's over its profile's). */
  readonly nodeLabels: Readonly<Record<string, string>>;
  /** A dynamic pool's limits and autoscaler settings. @default - none (static pools) */
  readonly dynamic?: DynamicPoolPlan;
}

/** What static auto-node pools take from a quota. */
export interface QuotaUsage {
  /** The quota's name. */
  readonly name: string;
  /** Taken by static auto-node pools. */
  readonly consumed: ResourceVector;
  /** Left after them. */
  readonly remaining: ResourceVector;
}

/** A (tenant cluster x provider) pair whose node objects share a namespace and a default-deny policy. */
export interface NodeEnvironmentRef {
  /** The tenant cluster. */
  readonly cluster: string;
  /** The node provider. */
  readonly provider: string;
}

/** The result of planning autoNodes entries on their own (see planVclusterAutoNodes). */
export interface AutoNodesPlan {
  /** Whether every pool found its node types: no issues. */
  readonly ok: boolean;
  /** The planned pools. */
  readonly pools: readonly PlannedAutoPool[];
  /** What the static pools take from each quota. */
  readonly quotas: readonly QuotaUsage[];
  /** One per (tenant cluster x provider) pair with pools, sorted by cluster then provider. */
  readonly environments: readonly NodeEnvironmentRef[];
  /** Problems, each at its path and with the fix. */
  readonly issues: readonly PlanIssue[];
  /** Findings that do not stop the plan. */
  readonly warnings: readonly PlanIssue[];
}

// Karpenter's duration grammar (karpenter.sh/v1 NodePool CRD).
const KARPENTER_DURATION = /^(([0-9]+(s|m|h))+|Never)$/;
const GRACE_PERIOD = /^([0-9]+(s|m|h))+$/;
const BUDGET_NODES = /^((100|[0-9]{1,2})%|[0-9]+)$/;
const BUDGET_DURATION = /^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$/;
const BUDGET_REASONS = ['Underutilized', 'Empty', 'Drifted'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function show(v: ResourceVector): string {
  return amounts(v) || 'nothing';
}

function showSome(v: ResourceVector, names: readonly string[]): string {
  return amounts(v, names);
}

function sortKeys<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}

/** The cheapest first, ties broken by name: the documented, stable order. */
export function compareByCost(a: NodeType, b: NodeType): number {
  if (a.cost !== b.cost) return a.cost - b.cost;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

interface PoolContext {
  readonly path: string;
  readonly cluster: string;
  readonly provider: NodeProvider;
  readonly quota?: string;
  /** kubevirt: the fleet the VMs run on. */
  readonly fleet?: FleetKubevirt;
  /** The provider's catalogue has a problem of its own: a pool finding no type is its consequence. */
  readonly catalogueBroken?: boolean;
}

interface ParsedPoolCommon {
  readonly requirements: Requirement[];
  readonly taints: readonly Taint[];
  readonly nodeLabels: Record<string, string>;
}

/** Tracks what earlier claims took: nodes per type (maxCapacity), metal3 hosts, quota. */
class Ledger {
  private readonly usedByType = new Map<string, number>();
  private readonly usedHosts = new Set<string>();
  readonly remaining = new Map<string, ResourceVector>();
  readonly consumed = new Map<string, ResourceVector>();

  constructor(quotas: AutoNodesInput['quotas']) {
    for (const [name, q] of quotas) this.remaining.set(name, q.remaining);
  }

  used(type: NodeType): number {
    return this.usedByType.get(type.id) ?? 0;
  }

  freeHosts(type: NodeType): string[] {
    return (type.hosts ?? []).filter((h) => !this.usedHosts.has(`${type.provider}/${h}`));
  }

  /** How many more nodes of the type may exist; Infinity when unlimited. */
  left(type: NodeType): number {
    let left = type.maxCapacity === undefined ? Infinity : type.maxCapacity - this.used(type);
    if (type.hosts !== undefined) left = Math.min(left, this.freeHosts(type).length);
    return Math.max(0, left);
  }

  take(type: NodeType, count: number): string[] {
    this.usedByType.set(type.id, this.used(type) + count);
    if (type.hosts === undefined) return [];
    const hosts = this.freeHosts(type).slice(0, count);
    for (const h of hosts) this.usedHosts.add(`${type.provider}/${h}`);
    return hosts;
  }

  charge(quota: string, demand: ResourceVector): void {
    this.remaining.set(quota, roomLeft(this.remaining.get(quota) ?? {}, demand));
    this.consumed.set(quota, addResources(this.consumed.get(quota) ?? {}, demand));
  }
}

// Selection asks for a type's VM for its footprint, its KubeVirt check and its candidate entry, and the VM
// list once per node: build it once per (type, fleet).
const typeVms = new WeakMap<NodeType, WeakMap<FleetKubevirt, VmBuild | { readonly problem: string }>>();

/** A kubevirt type's VM as KubeVirt builds it on the pool's fleet, or why KubeVirt would refuse it. */
export function vmOfType(type: NodeType, fleet: FleetKubevirt): VmBuild | { readonly problem: string } {
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

/** What one node of the type costs its quota: a VM's launcher pod and disk (kubevirt), or the machine. */
function footprintOf(type: NodeType, ctx: PoolContext): ResourceVector {
  if (type.providerKind !== 'kubevirt' || !ctx.fleet) return type.resources;
  const vm = vmOfType(type, ctx.fleet);
  return 'problem' in vm ? type.resources : vm.quotaDemand;
}

/** Why KubeVirt would refuse the type's VMs on this fleet, or undefined. */
function kubevirtProblem(type: NodeType, ctx: PoolContext): string | undefined {
  if (type.providerKind !== 'kubevirt' || !ctx.fleet) return undefined;
  const vm = vmOfType(type, ctx.fleet);
  return 'problem' in vm ? `KubeVirt would refuse its VMs: ${vm.problem}` : undefined;
}

function candidateOf(type: NodeType, ctx: PoolContext): CandidateType {
  const vm = type.providerKind === 'kubevirt' && ctx.fleet ? vmOfType(type, ctx.fleet) : undefined;
  return {
    nodeType: type.id,
    name: type.name,
    cost: type.cost,
    resources: type.resources,
    footprint: footprintOf(type, ctx),
    ...(vm && !('problem' in vm) ? { vm } : {}),
  };
}

/** Extended resources a claim asks for: named by a requirement (other than DoesNotExist) or by its resources/limits. */
function requestedExtended(requirements: readonly Requirement[], resources: ResourceVector): Set<string> {
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
  const named = requirements.some((r) => (r.key === NODE_TYPE_LABEL || r.key === INSTANCE_TYPE_LABEL) && r.operator === 'In' && r.values.includes(type.name));
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

/** Taint keys, values and effects as Kubernetes validates them; the valid taints. */
export function checkTaints(taints: readonly Taint[] | undefined, path: string, issues: PlanIssue[]): Taint[] {
  if (taints === undefined) return [];
  if (!isList(taints)) {
    issues.push({ path, message: 'taints must be a list of {key, value, effect}' });
    return [];
  }
  const out: Taint[] = [];
  taints.forEach((t, i) => {
    const at = childPath(path, i);
    const before = issues.length;
    const keyProblem = typeof t.key === 'string' ? labelKeyProblem(t.key) : 'it is missing';
    if (keyProblem) issues.push({ path: childPath(at, 'key'), message: `taint key ${describeValue(t.key)} is not valid: ${keyProblem}` });
    if (t.value !== undefined) {
      const valueProblem = typeof t.value === 'string' ? labelValueProblem(t.value) : 'it must be a string';
      if (valueProblem) issues.push({ path: childPath(at, 'value'), message: `taint value ${describeValue(t.value)} is not valid: ${valueProblem}` });
    }
    if (!TAINT_EFFECTS.includes(t.effect))
      issues.push({ path: childPath(at, 'effect'), message: `taint effect ${describeValue(t.effect)} is not valid: use ${TAINT_EFFECTS.join(', ')}` });
    if (issues.length === before)
      out.push(t.value === undefined || t.value === '' ? { key: t.key, effect: t.effect } : { key: t.key, value: t.value, effect: t.effect });
  });
  return out;
}

function checkNodeLabels(labels: Labels | undefined, path: string, issues: PlanIssue[]): Record<string, string> {
  if (labels === undefined) return {};
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
    issues.push({ path, message: 'nodeLabels must be a map of label key to value' });
    return {};
  }
  const out: Record<string, string> = {};
  for (const key of Object.keys(labels).sort()) {
    const at = childPath(path, key);
    const keyProblem = labelKeyProblem(key) ?? kubeletLabelProblem(key);
    if (keyProblem) {
      issues.push({ path: at, message: `"${key}" is not a valid label key: ${keyProblem}` });
      continue;
    }
    if (key === NODE_TYPE_LABEL || key === INSTANCE_TYPE_LABEL) {
      issues.push({ path: at, message: `${key} is set by metalslice to the chosen node type: remove it (select a type with a requirement instead)` });
      continue;
    }
    const value = labels[key];
    const valueProblem = typeof value === 'string' ? labelValueProblem(value) : 'it must be a string';
    if (valueProblem) {
      issues.push({ path: at, message: `label value ${describeValue(value)} is not valid: ${valueProblem}` });
      continue;
    }
    out[key] = value;
  }
  return out;
}

function parseCommon(spec: StaticPoolSpec | DynamicPoolSpec, path: string, issues: PlanIssue[]): ParsedPoolCommon {
  let requirementSpecs: readonly RequirementSpec[] | undefined = spec.requirements;
  let requirementsPath = childPath(path, 'requirements');
  if (spec.requirements !== undefined && spec.nodeTypeSelector !== undefined) {
    issues.push({ path, message: 'both requirements and nodeTypeSelector are set: they mean the same, keep one' });
  } else if (spec.nodeTypeSelector !== undefined) {
    requirementSpecs = spec.nodeTypeSelector;
    requirementsPath = childPath(path, 'nodeTypeSelector');
  }
  const requirements = captureInto(issues, () => parseRequirements(requirementSpecs, requirementsPath)) ?? [];
  const taints = checkTaints(spec.taints, childPath(path, 'taints'), issues);
  const nodeLabels = checkNodeLabels(spec.nodeLabels, childPath(path, 'nodeLabels'), issues);
  return { requirements, taints, nodeLabels };
}

/** `In` requirements narrow comma-list / `*` properties to concrete label values. */
function narrowing(requirements: readonly Requirement[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of requirements) if (r.operator === 'In') out.set(r.key, [...r.values]);
  return out;
}

function nodeName(cluster: string, pool: string, index: number): string {
  return `${cluster}-${pool}-${index}`;
}

/** Plans every auto-node pool of every cluster. Never throws for bad input: problems are in `issues`. */
export function planAutoNodes(input: AutoNodesInput): AutoNodesPlan {
  const issues: PlanIssue[] = [];
  const warnings: PlanIssue[] = [];
  const catalogue = parseNodeProviders(input.providers, input.providersPath ?? 'nodeProviders');
  issues.push(...catalogue.issues);
  warnings.push(...catalogue.warnings);
  const providers = new Map(catalogue.providers.map((p) => [p.name, p]));
  // Providers whose catalogue has a problem: their pools' "no type matches" would only repeat it.
  const brokenCatalogues = new Set(
    catalogue.providers
      .filter((p) => catalogue.issues.some((i) => i.path === p.path || i.path.startsWith(`${p.path}.`) || i.path.startsWith(`${p.path}[`)))
      .map((p) => p.name),
  );
  const ledger = new Ledger(input.quotas);

  // Fleets of kubevirt providers must exist: their CPU allocation ratio sizes every VM.
  for (const p of catalogue.providers) {
    if (p.kind === 'kubevirt' && p.fleet && !input.fleets.has(p.fleet) && !input.declared?.fleets.has(p.fleet)) {
      issues.push({
        path: childPath(p.path, 'fleet'),
        message: `unknown fleet "${p.fleet}": use one of ${[...input.fleets.keys()].sort().join(', ') || '(no fleets defined)'}`,
      });
    }
  }

  interface StaticWork {
    ctx: PoolContext;
    spec: StaticPoolSpec;
    path: string;
    order: number;
  }
  interface DynamicWork {
    ctx: PoolContext;
    spec: DynamicPoolSpec;
    path: string;
    order: number;
  }
  const statics: StaticWork[] = [];
  const dynamics: DynamicWork[] = [];
  const poolNames = new Map<string, string>(); // `${cluster}/${name}` -> path
  const envs = new Map<string, NodeEnvironmentRef>();
  let order = 0;

  input.autoNodes.forEach((entry, i) => {
    const source = input.sourcePaths?.[i];
    const entryPath = source?.entry ?? childPath('autoNodes', i);
    const before = issues.length;
    if (!input.clusters.has(entry.cluster)) {
      issues.push({
        path: childPath(entryPath, 'cluster'),
        message: `unknown cluster ${describeValue(entry.cluster)}: use one of ${[...input.clusters].sort().join(', ') || '(no clusters defined)'}, or add it to clusters`,
      });
    }
    const provider = providers.get(entry.provider);
    const providerDeclared = input.providers.some((p) => p.name === entry.provider);
    if (!provider) {
      if (!providerDeclared) {
        issues.push({
          path: childPath(entryPath, 'provider'),
          message: `unknown node provider ${describeValue(entry.provider)}: use one of ${
            input.providers
              .map((p) => p.name)
              .sort()
              .join(', ') || '(no nodeProviders defined)'
          }`,
        });
      }
      return;
    }
    const fleet = provider.kind === 'kubevirt' && provider.fleet ? input.fleets.get(provider.fleet) : undefined;
    if (provider.kind === 'kubevirt') {
      if (entry.quota === undefined) {
        issues.push({
          path: childPath(entryPath, 'quota'),
          message: `provider ${provider.name} makes KubeVirt VMs, which are carved from a quota: set quota to one of ${[...input.quotas.keys()].sort().join(', ') || '(no quotas defined)'}`,
        });
      }
    }
    if (entry.quota !== undefined) {
      const quota = input.quotas.get(entry.quota);
      if (!quota && input.declared?.quotas.has(entry.quota)) {
        // Declared but broken: its own problem is reported at the quota; nothing here can be planned.
        return;
      } else if (!quota) {
        issues.push({
          path: childPath(entryPath, 'quota'),
          message: `unknown quota ${describeValue(entry.quota)}: use one of ${[...input.quotas.keys()].sort().join(', ') || '(no quotas defined)'}`,
        });
      } else if (provider.kind !== 'kubevirt') {
        warnings.push({
          path: childPath(entryPath, 'quota'),
          message: `provider ${provider.name} is ${provider.kind}: its nodes are whole machines outside any quota, so quota ${entry.quota} is not charged; remove it`,
        });
      } else if (provider.fleet && quota.fleet !== provider.fleet && input.fleets.has(quota.fleet) && input.fleets.has(provider.fleet)) {
        issues.push({
          path: childPath(entryPath, 'quota'),
          message: `quota ${entry.quota} slices fleet ${quota.fleet}, but provider ${provider.name} runs its VMs on fleet ${provider.fleet}: use a quota of fleet ${provider.fleet}`,
        });
      }
    }
    if (issues.length > before) return;
    const ctx: PoolContext = {
      path: entryPath,
      cluster: entry.cluster,
      provider,
      quota: provider.kind === 'kubevirt' ? entry.quota : undefined,
      fleet,
      catalogueBroken: brokenCatalogues.has(provider.name),
    };
    const claimName = (name: unknown, path: string): boolean => {
      if (typeof name !== 'string' || !isDnsLabel(name)) {
        issues.push({
          path: childPath(path, 'name'),
          message: `pool name ${describeValue(name)} is not a DNS-1123 label: use lower-case letters, digits and '-'`,
        });
        return false;
      }
      const key = `${entry.cluster}/${name}`;
      const other = poolNames.get(key);
      if (other) {
        issues.push({
          path: childPath(path, 'name'),
          message: `pool "${name}" is already defined for cluster ${entry.cluster} at ${other}: pool names must be unique per cluster`,
        });
        return false;
      }
      poolNames.set(key, path);
      return true;
    };
    (entry.static ?? []).forEach((spec, j) => {
      const path = source?.static?.[j] ?? childPath(childPath(entryPath, 'static'), j);
      if (claimName(spec.name, path)) statics.push({ ctx, spec, path, order: order++ });
    });
    (entry.dynamic ?? []).forEach((spec, j) => {
      const path = source?.dynamic?.[j] ?? childPath(childPath(entryPath, 'dynamic'), j);
      if (claimName(spec.name, path)) dynamics.push({ ctx, spec, path, order: order++ });
    });
    if ((entry.static?.length ?? 0) + (entry.dynamic?.length ?? 0) > 0) {
      envs.set(`${entry.cluster}\u0000${provider.name}`, { cluster: entry.cluster, provider: provider.name });
    }
  });

  const planned: { order: number; pool: PlannedAutoPool }[] = [];
  // Static pools first, in config order: they take nodes now; dynamic pools are checked against what is left.
  for (const work of statics) {
    const pool = planStatic(work.ctx, work.spec, work.path, ledger, issues);
    if (pool) planned.push({ order: work.order, pool });
  }
  const worstByQuota = new Map<string, { total: ResourceVector; pools: string[] }>();
  for (const work of dynamics) {
    const pool = planDynamic(work.ctx, work.spec, work.path, ledger, issues, warnings);
    if (!pool) continue;
    planned.push({ order: work.order, pool });
    if (pool.quota && pool.dynamic?.worstCase) {
      const acc = worstByQuota.get(pool.quota) ?? { total: {}, pools: [] };
      const worst = scaleResources(pool.dynamic.worstCase.footprint, pool.dynamic.worstCase.nodes);
      worstByQuota.set(pool.quota, { total: addResources(acc.total, worst), pools: [...acc.pools, pool.path] });
    }
  }
  for (const [quota, acc] of [...worstByQuota].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const remaining = ledger.remaining.get(quota) ?? {};
    const over = overQuota(acc.total, remaining);
    if (acc.pools.length > 1 && over.length > 0) {
      warnings.push({
        path: acc.pools[0],
        message: `dynamic pools ${acc.pools.join(', ')} together can reach ${showSome(acc.total, over)} at their limits, more than quota ${quota} has left (${showSome(remaining, over)}): the quota will stop some scale-ups; lower their limits to share the quota`,
      });
    }
  }

  const quotaNames = new Set<string>();
  for (const { pool } of planned) if (pool.quota) quotaNames.add(pool.quota);
  const quotas: QuotaUsage[] = [...quotaNames].sort().map((name) => ({
    name,
    consumed: ledger.consumed.get(name) ?? {},
    remaining: ledger.remaining.get(name) ?? {},
  }));
  const environments = [...envs.values()].sort((a, b) =>
    a.cluster !== b.cluster ? (a.cluster < b.cluster ? -1 : 1) : a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0,
  );
  return {
    ok: issues.length === 0,
    pools: planned.sort((a, b) => a.order - b.order).map((p) => p.pool),
    quotas,
    environments,
    issues,
    warnings,
  };
}

function planStatic(ctx: PoolContext, spec: StaticPoolSpec, path: string, ledger: Ledger, issues: PlanIssue[]): PlannedAutoPool | undefined {
  const before = issues.length;
  const common = parseCommon(spec, path, issues);
  const quantity = spec.quantity;
  const quantityProblem = wholeNumberProblem(quantity, MAX_NODES_PER_POOL, 'nodes');
  if (quantityProblem !== undefined) {
    issues.push({ path: childPath(path, 'quantity'), message: `quantity ${quantityProblem}` });
  } else if (quantity > 0 && isDnsLabel(ctx.cluster) && nodeName(ctx.cluster, spec.name, quantity - 1).length > 63) {
    issues.push({
      path: childPath(path, 'name'),
      message: `node names ${nodeName(ctx.cluster, spec.name, quantity - 1)} would be longer than 63 characters: shorten the pool or cluster name`,
    });
  }
  const minimum = spec.resources !== undefined ? captureInto(issues, () => parseResources(spec.resources!, childPath(path, 'resources'))) : undefined;
  if (issues.length > before) return undefined;

  const requested = requestedExtended(common.requirements, minimum ?? {});
  const rejected: RejectedType[] = [];
  const matching: NodeType[] = [];
  const gpuOnly: NodeType[] = [];
  for (const type of [...ctx.provider.types].sort(compareByCost)) {
    const reason = mismatch(type, common.requirements, requested, minimum);
    const refused = reason === undefined ? kubevirtProblem(type, ctx) : undefined;
    if (reason === undefined && refused === undefined) matching.push(type);
    else {
      rejected.push({ nodeType: type.id, reason: (reason ?? refused)! });
      if (reason !== undefined && mismatch(type, common.requirements, new Set([...requested, ...type.extendedResources]), minimum) === undefined)
        gpuOnly.push(type);
    }
  }
  const base = {
    path,
    cluster: ctx.cluster,
    provider: ctx.provider.name,
    providerKind: ctx.provider.kind,
    quota: ctx.quota,
    name: spec.name,
    mode: 'static' as const,
    quantity,
    candidates: matching.map((t) => candidateOf(t, ctx)),
    requirements: common.requirements,
    taints: common.taints,
    nodeLabels: sortKeys(common.nodeLabels),
  };
  if (matching.length === 0) {
    if (!ctx.catalogueBroken) issues.push({ path, message: noMatchMessage(ctx, spec.name, rejected, gpuOnly) });
    return { ...base, nodes: [], rejected };
  }

  const remaining = ctx.quota !== undefined ? (ledger.remaining.get(ctx.quota) ?? {}) : undefined;
  let chosen: NodeType | undefined;
  let firstQuotaMiss: { type: NodeType; demand: ResourceVector; over: string[] } | undefined;
  for (const type of matching) {
    const left = ledger.left(type);
    if (left < quantity) {
      const used = ledger.used(type);
      const why =
        type.hosts !== undefined
          ? `capacity exhausted: ${left} matching host(s) free (maxCapacity ${type.maxCapacity}, ${used} taken by earlier claims), the pool needs ${quantity}`
          : `capacity exhausted: maxCapacity ${type.maxCapacity} with ${used} taken by earlier claims, ${left} left, the pool needs ${quantity}`;
      rejected.push({ nodeType: type.id, reason: why });
      continue;
    }
    if (remaining !== undefined && quantity > 0) {
      const demand = scaleResources(footprintOf(type, ctx), quantity);
      const over = overQuota(demand, remaining);
      if (over.length > 0) {
        rejected.push({
          nodeType: type.id,
          reason: `over quota ${ctx.quota}: ${quantity} nodes need ${showSome(demand, over)}, ${showSome(remaining, over)} left`,
        });
        firstQuotaMiss ??= { type, demand, over };
        continue;
      }
    }
    chosen = type;
    break;
  }
  if (!chosen) {
    if (firstQuotaMiss && ctx.quota !== undefined) {
      const { type, demand, over } = firstQuotaMiss;
      const perNode = footprintOf(type, ctx);
      const fits = wholeWithin(perNode, remaining ?? {});
      issues.push({
        path: childPath(path, 'quantity'),
        message: `quota ${ctx.quota} is exceeded: ${quantity} x ${type.id} need ${showSome(demand, over)} (VM footprint incl. overhead ${showSome(perNode, over)} each), but only ${showSome(remaining ?? {}, over)} is left; lower quantity to ${fits}, select a smaller type, or raise the limits of quota ${ctx.quota}`,
      });
    } else {
      issues.push({
        path: childPath(path, 'quantity'),
        message: `no matching node type of provider ${ctx.provider.name} has room for ${quantity} nodes (a static pool takes all its nodes from one type): ${rejected
          .filter((r) => r.reason.startsWith('capacity'))
          .map((r) => `${r.nodeType}: ${r.reason}`)
          .join('; ')}; lower quantity, raise maxCapacity (metal3: add matching hosts), or add a node type`,
      });
    }
    return { ...base, nodes: [], rejected };
  }

  const footprint = footprintOf(chosen, ctx);
  const hosts = ledger.take(chosen, quantity);
  if (ctx.quota !== undefined && quantity > 0) ledger.charge(ctx.quota, scaleResources(footprint, quantity));
  const labels = nodeLabelsFor(chosen, narrowing(common.requirements), common.nodeLabels);
  const nodes: PlannedAutoNode[] = [];
  for (let index = 0; index < quantity; index++) {
    nodes.push({
      name: nodeName(ctx.cluster, spec.name, index),
      nodeType: chosen.id,
      ...(hosts[index] !== undefined ? { host: hosts[index] } : {}),
      resources: chosen.resources,
      footprint,
      labels,
    });
  }
  return { ...base, nodeType: chosen.id, nodes, rejected };
}

function noMatchMessage(ctx: PoolContext, pool: string, rejected: readonly RejectedType[], gpuOnly: readonly NodeType[]): string {
  if (gpuOnly.length > 0) {
    const resources = [...new Set(gpuOnly.flatMap((t) => t.extendedResources))].sort();
    return `no node type of provider ${ctx.provider.name} fits pool ${pool} without ${resources.join(', ')}: the only matching types (${gpuOnly.map((t) => t.id).join(', ')}) carry ${resources.join(', ')}, and such types are only chosen when the pool asks for them; add a requirement {property: ${resources[0]}, operator: Exists} if the pool should get them, or add a node type without ${resources.join(', ')}`;
  }
  return `no node type of provider ${ctx.provider.name} matches pool ${pool}: ${rejected.map((r) => `${r.nodeType}: ${r.reason}`).join('; ') || 'the provider has no node types'}; relax the requirements or add a matching node type`;
}

function planDynamic(
  ctx: PoolContext,
  spec: DynamicPoolSpec,
  path: string,
  ledger: Ledger,
  issues: PlanIssue[],
  warnings: PlanIssue[],
): PlannedAutoPool | undefined {
  const before = issues.length;
  const common = parseCommon(spec, path, issues);
  const autoscaler = spec.autoscaler ?? 'karpenter';
  if (autoscaler !== 'karpenter' && autoscaler !== 'cluster-api') {
    issues.push({ path: childPath(path, 'autoscaler'), message: `unknown autoscaler ${describeValue(autoscaler)}: use karpenter or cluster-api` });
  }
  if (autoscaler === 'cluster-api' && ctx.provider.kind !== 'kubevirt') {
    issues.push({
      path: childPath(path, 'autoscaler'),
      message: `cluster-api pools are rendered as KubevirtMachineTemplates, but provider ${ctx.provider.name} is ${ctx.provider.kind}: use autoscaler: karpenter`,
    });
  }
  // limits: Karpenter's map, resources plus `nodes`.
  let limits: ResourceVector = {};
  let nodesLimit: number | undefined;
  if (spec.limits !== undefined) {
    const { nodes, ...rest } = spec.limits;
    if (nodes !== undefined) {
      const n = typeof nodes === 'string' && /^[0-9]+$/.test(nodes) ? Number(nodes) : nodes;
      const problem = wholeNumberProblem(n, MAX_NODES_PER_POOL, 'nodes');
      if (problem !== undefined) issues.push({ path: childPath(childPath(path, 'limits'), 'nodes'), message: `limits.nodes ${problem}` });
      else nodesLimit = n as number;
    }
    limits = captureInto(issues, () => parseResources(rest, childPath(path, 'limits'), 'fleet')) ?? {};
  }
  const minNodes = spec.minNodes ?? 0;
  const minNodesProblem = wholeNumberProblem(minNodes, MAX_NODES_PER_POOL, 'nodes');
  if (minNodesProblem !== undefined) {
    issues.push({ path: childPath(path, 'minNodes'), message: `minNodes ${minNodesProblem}` });
  } else if (spec.minNodes !== undefined && autoscaler === 'karpenter') {
    issues.push({
      path: childPath(path, 'minNodes'),
      message: 'minNodes is for autoscaler: cluster-api (Karpenter pools start empty): remove it, or use a static pool for nodes that must always exist',
    });
  }
  checkDisruption(spec, path, issues);
  if (issues.length > before) return undefined;

  const requested = requestedExtended(common.requirements, limits);
  const rejected: RejectedType[] = [];
  const matching: NodeType[] = [];
  const gpuOnly: NodeType[] = [];
  for (const type of [...ctx.provider.types].sort(compareByCost)) {
    const reason = mismatch(type, common.requirements, requested, undefined);
    const refused = reason === undefined ? kubevirtProblem(type, ctx) : undefined;
    if (reason !== undefined || refused !== undefined) {
      rejected.push({ nodeType: type.id, reason: (reason ?? refused)! });
      if (reason !== undefined && mismatch(type, common.requirements, new Set([...requested, ...type.extendedResources]), undefined) === undefined)
        gpuOnly.push(type);
    } else if (ledger.left(type) === 0) {
      rejected.push({ nodeType: type.id, reason: `capacity exhausted: all ${type.maxCapacity} nodes taken by static pools` });
    } else {
      matching.push(type);
    }
  }
  const base = {
    path,
    cluster: ctx.cluster,
    provider: ctx.provider.name,
    providerKind: ctx.provider.kind,
    quota: ctx.quota,
    name: spec.name,
    mode: 'dynamic' as const,
    quantity: 0,
    nodes: [],
    candidates: matching.map((t) => candidateOf(t, ctx)),
    rejected,
    requirements: common.requirements,
    taints: common.taints,
    nodeLabels: sortKeys(common.nodeLabels),
  };
  const dynamicBase = {
    autoscaler,
    limits,
    nodesLimit,
    minNodes,
    disruption: spec.disruption,
    expireAfter: spec.expireAfter,
    terminationGracePeriod: spec.terminationGracePeriod,
    weight: spec.weight,
  };
  if (matching.length === 0) {
    const all = rejected.every((r) => r.reason.startsWith('capacity'));
    if (!ctx.catalogueBroken)
      issues.push({
        path,
        message:
          all && rejected.length > 0
            ? `every matching node type of provider ${ctx.provider.name} is used up by static pools (${rejected.map((r) => r.nodeType).join(', ')}): raise maxCapacity or add a node type`
            : noMatchMessage(ctx, spec.name, rejected, gpuOnly),
      });
    return { ...base, dynamic: dynamicBase };
  }

  // cluster-api: one MachineDeployment, one machine template, so one type: the cheapest that matches.
  const types = autoscaler === 'cluster-api' ? [matching[0]] : matching;
  if (nodesLimit === 0) {
    warnings.push({ path: childPath(childPath(path, 'limits'), 'nodes'), message: 'limits.nodes is 0: the pool can never launch a node' });
  } else {
    const launchable = types.filter((t) => resourceNames(limits).every((n) => t.resources[n] === undefined || t.resources[n].lte(limits[n])));
    if (launchable.length === 0 && Object.keys(limits).length > 0) {
      const smallest = types[0];
      const short = resourceNames(limits).filter((n) => smallest.resources[n] !== undefined && !smallest.resources[n].lte(limits[n]));
      warnings.push({
        path: childPath(path, 'limits'),
        message: `limits (${showSome(limits, short)}) are below every matching node type (the cheapest, ${smallest.id}, has ${showSome(smallest.resources, short)}): the pool may never launch a node; raise the limits`,
      });
    }
  }

  // Worst case: each type at the limits; CPU/memory limits are reached with a node that may overshoot, so round up.
  let worst: { type: NodeType; nodes: number; total: ResourceVector } | undefined;
  let unbounded = false;
  const worstCases: { type: NodeType; nodes: number; total: ResourceVector }[] = [];
  for (const type of types) {
    let n = nodesLimit ?? Infinity;
    for (const name of resourceNames(limits)) {
      const per = type.resources[name];
      if (per === undefined || per.isZero()) continue;
      n = Math.min(n, Number((limits[name].nano + per.nano - 1n) / per.nano));
    }
    if (autoscaler === 'cluster-api') n = Math.min(n, cappedMax(type, limits, nodesLimit));
    // No limits on a quota'd pool: vCluster accepts it, and the quota's ResourceQuota is then the bound.
    if (n === Infinity && ctx.quota !== undefined && autoscaler === 'karpenter') n = wholeWithin(footprintOf(type, ctx), ledger.remaining.get(ctx.quota) ?? {});
    if (n === Infinity) {
      unbounded = true;
      continue;
    }
    const total = scaleResources(footprintOf(type, ctx), n);
    worstCases.push({ type, nodes: n, total });
  }
  let maxNodes: number | undefined;
  if (autoscaler === 'cluster-api') {
    const m = cappedMax(types[0], limits, nodesLimit);
    if (m === Infinity) {
      issues.push({
        path: childPath(path, 'limits'),
        message: "a cluster-api pool needs a size bound for cluster-autoscaler's max-size: set limits.nodes (or cpu / memory limits)",
      });
    } else {
      maxNodes = m;
      if (minNodes > m)
        issues.push({
          path: childPath(path, 'minNodes'),
          message: `minNodes ${minNodes} is above the pool's maximum of ${m} nodes (from its limits): lower minNodes or raise the limits`,
        });
    }
  }
  if (ctx.quota !== undefined) {
    const remaining = ledger.remaining.get(ctx.quota) ?? {};
    // A cluster-api pool without a bound is already refused above, for cluster-autoscaler's max-size.
    if (unbounded && autoscaler !== 'cluster-api') {
      issues.push({
        path: childPath(path, 'limits'),
        message: `the pool has no limits and could grow past quota ${ctx.quota} (${show(remaining)} left): set limits.nodes, or cpu / memory limits`,
      });
    } else if (spec.limits === undefined && autoscaler === 'karpenter' && worstCases.length > 0) {
      const most = worstCases.reduce((a, b) => (b.nodes > a.nodes ? b : a));
      warnings.push({
        path,
        message: `no limits: Karpenter may grow the pool until quota ${ctx.quota} is full (${show(remaining)} left, up to ${most.nodes} x ${most.type.id}); the quota stops it there. Set limits to keep room for the quota's other pools`,
      });
    }
    for (const w of worstCases) {
      const over = overQuota(w.total, remaining);
      if (over.length > 0) {
        const perNode = footprintOf(w.type, ctx);
        const fit = Math.min(...types.map((t) => wholeWithin(footprintOf(t, ctx), remaining)));
        issues.push({
          path: childPath(path, 'limits'),
          message: `at its limits the pool can reach ${w.nodes} x ${w.type.id} = ${showSome(w.total, over)} (footprint ${showSome(perNode, over)} each), more than quota ${ctx.quota} has left (${showSome(remaining, over)}): lower limits.nodes to ${fit} or lower the cpu / memory limits, narrow the requirements to smaller types, or raise the limits of quota ${ctx.quota}`,
        });
        break;
      }
    }
  }
  // The type that costs most at the limits (memory first: it is what overhead inflates), for reports and renderers.
  for (const w of worstCases) {
    const byMemory = worst ? get(w.total, 'memory').cmp(get(worst.total, 'memory')) : 1;
    if (!worst || byMemory > 0 || (byMemory === 0 && get(w.total, 'cpu').cmp(get(worst.total, 'cpu')) > 0)) worst = w;
  }
  const nodeType = autoscaler === 'cluster-api' ? types[0].id : undefined;
  return {
    ...base,
    ...(nodeType ? { nodeType } : {}),
    dynamic: {
      ...dynamicBase,
      ...(maxNodes !== undefined ? { maxNodes } : {}),
      ...(worst ? { worstCase: { nodeType: worst.type.id, nodes: worst.nodes, footprint: footprintOf(worst.type, ctx) } } : {}),
    },
  };
}

/** The most nodes of `type` within the limits (whole nodes: cluster-autoscaler counts nodes, not resources). */
function cappedMax(type: NodeType, limits: ResourceVector, nodesLimit: number | undefined): number {
  let n = nodesLimit ?? Infinity;
  for (const name of resourceNames(limits)) {
    const per = type.resources[name];
    if (per === undefined || per.isZero()) continue;
    n = Math.min(n, Number(limits[name].nano / per.nano));
  }
  return n;
}

function checkDisruption(spec: DynamicPoolSpec, path: string, issues: PlanIssue[]): void {
  const d = spec.disruption;
  const dPath = childPath(path, 'disruption');
  if (d !== undefined) {
    if (d.consolidationPolicy !== undefined && d.consolidationPolicy !== 'WhenEmpty' && d.consolidationPolicy !== 'WhenEmptyOrUnderutilized') {
      issues.push({
        path: childPath(dPath, 'consolidationPolicy'),
        message: `unknown consolidationPolicy ${describeValue(d.consolidationPolicy)}: use WhenEmpty or WhenEmptyOrUnderutilized`,
      });
    }
    if (d.consolidateAfter !== undefined && (typeof d.consolidateAfter !== 'string' || !KARPENTER_DURATION.test(d.consolidateAfter))) {
      issues.push({
        path: childPath(dPath, 'consolidateAfter'),
        message: `consolidateAfter ${describeValue(d.consolidateAfter)} is not a duration: write e.g. 30s, 5m, 1h30m or Never`,
      });
    }
    (d.budgets ?? []).forEach((b, k) => {
      const bPath = childPath(childPath(dPath, 'budgets'), k);
      if (typeof b.nodes !== 'string' || !BUDGET_NODES.test(b.nodes)) {
        issues.push({
          path: childPath(bPath, 'nodes'),
          message: `budget nodes ${describeValue(b.nodes)} is not valid: write a count like "2" or a percentage like "10%"`,
        });
      }
      if ((b.schedule === undefined) !== (b.duration === undefined)) {
        issues.push({ path: bPath, message: 'schedule and duration go together: set both (e.g. schedule "0 9 * * mon-fri", duration 8h) or neither' });
      }
      if (
        b.schedule !== undefined &&
        (typeof b.schedule !== 'string' || !/^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$/.test(b.schedule))
      ) {
        issues.push({
          path: childPath(bPath, 'schedule'),
          message: `schedule ${describeValue(b.schedule)} is not a cron expression: five fields, or @daily style`,
        });
      }
      if (b.duration !== undefined && (typeof b.duration !== 'string' || !BUDGET_DURATION.test(b.duration))) {
        issues.push({
          path: childPath(bPath, 'duration'),
          message: `duration ${describeValue(b.duration)} is not valid: whole minutes or hours, e.g. 30m, 8h, 1h30m`,
        });
      }
      (b.reasons ?? []).forEach((r, m) => {
        if (!BUDGET_REASONS.includes(r))
          issues.push({ path: childPath(childPath(bPath, 'reasons'), m), message: `unknown reason ${describeValue(r)}: use ${BUDGET_REASONS.join(', ')}` });
      });
    });
  }
  if (spec.expireAfter !== undefined && (typeof spec.expireAfter !== 'string' || !KARPENTER_DURATION.test(spec.expireAfter))) {
    issues.push({
      path: childPath(path, 'expireAfter'),
      message: `expireAfter ${describeValue(spec.expireAfter)} is not a duration: write e.g. 720h or Never`,
    });
  }
  if (spec.terminationGracePeriod !== undefined && (typeof spec.terminationGracePeriod !== 'string' || !GRACE_PERIOD.test(spec.terminationGracePeriod))) {
    issues.push({
      path: childPath(path, 'terminationGracePeriod'),
      message: `terminationGracePeriod ${describeValue(spec.terminationGracePeriod)} is not a duration: write e.g. 30s, 10m or 1h`,
    });
  }
  if (spec.weight !== undefined && (typeof spec.weight !== 'number' || !Number.isInteger(spec.weight) || spec.weight < 1 || spec.weight > 100)) {
    issues.push({ path: childPath(path, 'weight'), message: `weight must be a whole number from 1 to 100 (got ${describeValue(spec.weight)})` });
  }
}
