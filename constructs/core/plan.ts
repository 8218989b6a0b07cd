/**
 * The capacity planner: from the model (config or constructs) to a proof that every quota and pool fits,
 * down to the host each VM can land on. Pure: no cdktf, no I/O.
 *
 * Phases, each in its own file: foundation (names, fleets, clusters, quotas fit their fleet), the VM list
 * (elastic pools, auto-node type selection, static and dynamic auto-node VMs: one list), accounting
 * (every quota and fleet charged from that list, as KubeVirt's launcher pods request it), placement (a
 * host for every VM, all at once), and the report.
 */
import { totalNodesProblem } from './limits';
import { systemConsumersWarning } from './tenancy';
import { checkDerivedNames } from './derived-names';
import { NodeEnvironmentRef, PlannedAutoPool } from './auto-nodes';
import { IssueCollector, PlanIssue } from './errors';
import { checkHostOwners } from './host-owners';
import { KUBEVIRT_VERSION } from './kubevirt/launcher';
import { ClusterSpec, FleetSpec, MetalsliceConfig, NodePoolSpec, PrivateNodePoolSpec, QuotaSpec, Taint } from './model';
import type { HostTaken } from './host-offer';
import { NodeProvider } from './node-types';
import { PoolPreview } from './preview';
import { accountVms, Accounting } from './plan-accounting';
import { Foundation, pathOf, planFoundation } from './plan-foundation';
import { FleetHeadroom, planHeadroom } from './plan-headroom';
import { placeVms, Placement, vmKey } from './plan-placement';
import { defaultNodeTypeCost } from './node-types';
import { readableResources } from './report/units';
import { AutoSelection, buildAutoVms, buildElasticVms, ElasticPools, selectAutoNodeTypes, templateGroupIssues } from './plan-vms';
import { formatResources, normalizeResources, ResourceVector, subtractResources, sumResources } from './resources';
import { FleetKubevirt, groupBy, HostGroup, pinVm, PlannedVm } from './vms';

export { DEFAULT_KUBERNETES_VERSION } from './plan-foundation';

/** Where each entry of the model came from, for error paths: config paths or construct paths. */
export type ModelPaths = { readonly [K in keyof MetalsliceConfig]?: readonly string[] };

/** Options of planModel. */
export interface PlanOptions {
  /** Where each model entry was written (construct paths), for problems. @default - config paths (`nodePools[2]`) */
  readonly paths?: ModelPaths;
  /** A host label naming failure domains (rack, zone): N+1 headroom is also checked per domain. @default - hosts only */
  readonly failureDomain?: string;
}

/** A host of a fleet as planned. */
export interface PlannedHost {
  /** The host's name. */
  readonly name: string;
  /** Its labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** What it has (the Node's capacity). */
  readonly capacity: ResourceVector;
  /** What the kubelet lets pods have (the Node's allocatable; capacity when not given). */
  readonly nodeAllocatable: ResourceVector;
  /** What is taken before any VM of the plan: virt-handler, pods already there, reservedPerHost. */
  readonly taken: HostTaken;
  /** What VMs can have: nodeAllocatable less everything taken. */
  readonly allocatable: ResourceVector;
  /** Its taints as the Node carries them (cordon and not-ready taints included). */
  readonly taints: readonly Taint[];
  /** Cordoned. */
  readonly unschedulable: boolean;
  /** Its Ready condition is True. */
  readonly ready: boolean;
  /** metalslice VMs of this model already running there: `namespace/name` -> what each launcher pod requests. */
  readonly running: ReadonlyMap<string, ResourceVector>;
}

/** A host of a fleet on which no launcher pod can land, and why. */
export interface ExcludedHost {
  /** The host's name. */
  readonly name: string;
  /** Why (NotReady, cordoned, a taint launcher pods do not tolerate, ...). */
  readonly reason: string;
  /** The host as planned, for the replay: it is still a Node of the cluster. */
  readonly host: PlannedHost;
}

/** A fleet as planned: its hosts, capacity and KubeVirt settings. */
export interface PlannedFleet {
  /** The fleet's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The fleet as written. */
  readonly spec: FleetSpec;
  /** The hosts VMs can use. */
  readonly hosts: readonly PlannedHost[];
  /** The hosts no launcher pod can land on: they carry no VM and count for nothing. */
  readonly excludedHosts: readonly ExcludedHost[];
  /** What its usable hosts offer VMs (allocatable less what is taken, summed). */
  readonly capacity: ResourceVector;
  /** vCPUs per physical CPU. */
  readonly cpuAllocationRatio: number;
  /** What the fleet's KubeVirt CR says about VMs: settings and permitted devices. */
  readonly kubevirt: FleetKubevirt;
}

/** A quota as planned. */
export interface PlannedQuota {
  /** The quota's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The quota as written. */
  readonly spec: QuotaSpec;
  /** Its fleet. */
  readonly fleet: string;
  /** The namespace of its VMs. */
  readonly namespace: string;
  /** Its limits, parsed. */
  readonly limits: ResourceVector;
  /** Live migrations the quota keeps room for. */
  readonly liveMigrations: number;
}

/** A tenant cluster as planned. */
export interface PlannedCluster {
  /** The cluster's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The cluster as written. */
  readonly spec: ClusterSpec;
  /** The Kubernetes minor version of its nodes. */
  readonly kubernetesVersion: string;
}

/** One node of an elastic pool as planned. */
export interface PlannedNode {
  /** VM / object name, unique in its namespace; stable when the pool scales. */
  readonly name: string;
  /** The host the planner found room on; undefined when it could not be placed. */
  readonly host?: string;
}

/** An elastic node pool as planned. */
export interface PlannedPool {
  /** Always `elastic`. */
  readonly kind: 'elastic';
  /** The pool's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The pool as written. */
  readonly spec: NodePoolSpec;
  /** Its quota. */
  readonly quota: string;
  /** Its quota's fleet. */
  readonly fleet: string;
  /** The tenant cluster its nodes join. */
  readonly cluster: string;
  /** The namespace of its VMs. */
  readonly namespace: string;
  /** The node type label of its nodes. */
  readonly nodeType: string;
  /** The guest: what each VM is given. */
  readonly shape: ResourceVector;
  /** What each VM takes from its host: the launcher pod's requests, its disk, one pod. */
  readonly footprint: ResourceVector;
  /** Its nodes and their hosts. */
  readonly nodes: readonly PlannedNode[];
}

/** The plan as reported (`metalslice plan --json`, metalslice-plan.json): plain JSON, stable order. */
export interface PlanReport {
  /** Whether everything fits: no errors. */
  readonly ok: boolean;
  /** The KubeVirt release whose launcher pods the plan counts. */
  readonly kubevirtVersion: string;
  /** Problems, each at the path where it was written and with the fix; any error means nothing is deployed. */
  readonly errors: readonly PlanIssue[];
  /** Findings that do not stop the plan (ignored fields, pods that would stay pending, ...). */
  readonly warnings: readonly PlanIssue[];
  /** Each fleet's capacity and what the plan allocates from it. */
  readonly fleets: readonly ReportFleet[];
  /** Each quota's limits and what its pools allocate. */
  readonly quotas: readonly ReportQuota[];
  /** Every pool, with its nodes and, for auto-node pools, how the node type was chosen. */
  readonly pools: readonly ReportPool[];
  /** Node environments: one per (tenant cluster x provider) pair in use. */
  readonly environments?: readonly ReportEnvironment[];
}

/** A fleet in the plan report. Quantities are exact Kubernetes quantities by resource name. */
export interface ReportFleet {
  /** The fleet's name. */
  name: string;
  /** Number of hosts. */
  hosts: number;
  /** What the hosts offer VMs: capacity minus reservedPerHost, summed. */
  capacity: Record<string, string>;
  /** What the planned VMs' launcher pods take. */
  allocated: Record<string, string>;
  /** Capacity minus allocated. */
  free: Record<string, string>;
  /** The quotas' limits on this fleet, summed. */
  quotaLimits: Record<string, string>;
  /** The same four, readable (`9.45 Ti`, `1252 cores`): for people, never for arithmetic. */
  human: {
    /** Capacity, readable. */
    capacity: Record<string, string>;
    /** Allocated, readable. */
    allocated: Record<string, string>;
    /** Free, readable. */
    free: Record<string, string>;
    /** Quota limits, readable. */
    quotaLimits: Record<string, string>;
  };
  /** Per host, in the fleet's order: what it can give VMs, what the planned VMs take, and how many. */
  hostUsage: ReportHostUsage[];
  /** N+1: the hosts (and failure domains) whose loss strands VMs. @default - not checked (a fleet without hosts) */
  headroom?: FleetHeadroom;
}

/** One host's use in the plan report. */
export interface ReportHostUsage {
  /** The host's name. */
  name: string;
  /** VMs the plan places on it. */
  vms: number;
  /** What it can give VMs (capacity minus reservedPerHost). */
  allocatable: Record<string, string>;
  /** What the planned VMs' launcher pods take on it. */
  used: Record<string, string>;
}

/** A quota in the plan report. */
export interface ReportQuota {
  /** The quota's name. */
  name: string;
  /** The fleet it is a slice of. */
  fleet: string;
  /** The organisation that owns it. */
  organization: string;
  /** The namespace of its VMs. */
  namespace: string;
  /** Its limits (the ResourceQuota's hard values). */
  limits: Record<string, string>;
  /** What its VMs' launcher pods request, as the ResourceQuota counts them. */
  allocated: Record<string, string>;
  /** Kept free for live migrations (a second launcher pod each). */
  migrationHeadroom: Record<string, string>;
  /** Number of its VMs. */
  virtualMachines: number;
  /** Limits and allocation, readable: for people, never for arithmetic. */
  human: {
    /** Limits, readable. */
    limits: Record<string, string>;
    /** Allocated, readable. */
    allocated: Record<string, string>;
  };
}

/** A pool in the plan report. */
export interface ReportPool {
  /** The pool's name. */
  name: string;
  /** `elastic`, `static`, `dynamic` or `private`. */
  kind: string;
  /** The tenant cluster its nodes join. */
  cluster: string;
  /** The quota its VMs count against. @default - none (metal3 pools) */
  quota?: string;
  /** The fleet its VMs run on. @default - none (metal3 pools) */
  fleet?: string;
  /** The node type of its nodes (the chosen one, for auto-node pools). */
  nodeType: string;
  /** Its node provider. @default - none (elastic pools) */
  provider?: string;
  /** One node's guest resources. */
  shape: Record<string, string>;
  /** What one node takes from its host (the launcher pod's requests, or the whole host). */
  footprint: Record<string, string>;
  /** Shape and footprint, readable: for people, never for arithmetic. */
  human: {
    /** Shape, readable. */
    shape: Record<string, string>;
    /** Footprint, readable. */
    footprint: Record<string, string>;
  };
  /** What the pool's nodes cost, in vCluster's cost units (its node types' cost; elastic pools at vCluster's default cost of their shape). */
  cost: number;
  /** KubeVirt pools: each VM's launcher pod, what a host drain does to it, and whether it is spread or pinned. @default - none (metal3 pools) */
  launcher?: ReportLauncher;
  /** Its nodes and the host each lands on (null: a dynamic pool's node, placed when it is created). */
  nodes: ReportNode[];
  /** Auto-node pools: the matching types, cheapest first (the Karpenter instance types). @default - none */
  candidates?: {
    /** The type (`provider.type`). */
    nodeType: string;
    /** Its cost per node. */
    cost: number;
  }[];
  /** Auto-node pools: every type that lost, and why. @default - none */
  rejected?: {
    /** The type (`provider.type`). */
    nodeType: string;
    /** Why it lost. */
    reason: string;
  }[];
  /** Dynamic pools with `preview` pods: the nodes they would create, at least cost. @default - none */
  preview?: PoolPreview;
}

/** A KubeVirt pool's VMs as the launcher pod sees them. */
export interface ReportLauncher {
  /** What each VM's virt-launcher pod requests. */
  requests: Record<string, string>;
  /** KubeVirt's memory overhead on top of the guest's memory. */
  memoryOverhead: string;
  /** The VM's evictionStrategy. */
  eviction: string;
  /** Why that eviction strategy. */
  evictionReason: string;
  /** `spread` (kube-scheduler spreads the pool) or `planned` (each VM pinned to its planned host). */
  placement: 'spread' | 'planned';
  /** A spread pool's host group and its migration room. @default - none (pinned pools) */
  group?: ReportGroup;
}

/** The hosts a spread pool is confined to, and the room its VMs have to migrate in. */
export interface ReportGroup {
  /** The group's hosts; absent: every host of the fleet. */
  hosts?: string[];
  /** How many hosts. */
  size: number;
  /** The most VMs of the pool any host of the group can get (ceil(count / size)). */
  perHost: number;
  /** Hosts of the group certain, in the worst case, to take a VM of a drained host (0: no migration target proven). */
  migrationTargets: number;
}

function reportGroup(group: HostGroup): ReportGroup {
  return { ...(group.hosts ? { hosts: [...group.hosts] } : {}), size: group.size, perHost: group.perHost, migrationTargets: group.migrationTargets };
}

/** One node of a pool in the plan report. */
export interface ReportNode {
  /** The node's (and its VM's or HostClaim's) name. */
  name: string;
  /** The host it lands on; null for a dynamic pool's nodes. */
  host: string | null;
  /** Its node type. */
  nodeType: string;
}

/** A node environment in the plan report: the namespace of one (tenant cluster x provider) pair. */
export interface ReportEnvironment {
  /** The tenant cluster. */
  cluster: string;
  /** The node provider. */
  provider: string;
}

/** A private (metal3) node pool as planned. */
export interface PlannedPrivatePool {
  /** The pool as written. */
  readonly spec: PrivateNodePoolSpec;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** Its hosts, as the node type selection claimed them. */
  readonly pool: PlannedAutoPool;
}

/** The full result of planning a model: the report, and the planned objects the constructs render from. */
export interface Plan {
  /** Whether everything fits: no errors. */
  readonly ok: boolean;
  /** Problems, each at its path and with the fix. */
  readonly errors: readonly PlanIssue[];
  /** Findings that do not stop the plan. */
  readonly warnings: readonly PlanIssue[];
  /** The fleets, with their hosts and capacity. */
  readonly fleets: readonly PlannedFleet[];
  /** The quotas, with their limits and allocation. */
  readonly quotas: readonly PlannedQuota[];
  /** The tenant clusters. */
  readonly clusters: readonly PlannedCluster[];
  /** The elastic node pools. */
  readonly pools: readonly PlannedPool[];
  /** Every VM the plan counts, whichever pool declared it: the one list every check and renderer reads. */
  readonly vms: readonly PlannedVm[];
  /** Static and dynamic auto-node pools, and private (metal3) node pools, as planned. */
  readonly autoPools: readonly PlannedAutoPool[];
  /** Private node pools, each with the auto pool that plans it. */
  readonly privatePools: readonly PlannedPrivatePool[];
  /** The node providers and their parsed catalogues. */
  readonly nodeProviders: readonly NodeProvider[];
  /** One node environment per (tenant cluster x provider) pair in use. */
  readonly environments: readonly NodeEnvironmentRef[];
  /** The plan as written to metalslice-plan.json and printed by `metalslice plan`. */
  readonly report: PlanReport;
}

/** Plans the whole model; never throws for bad input: problems are in `errors`. */
export function planModel(input: MetalsliceConfig, options: PlanOptions = {}): Plan {
  const issues = new IssueCollector();
  // Bounds before work: a config declaring more nodes than a plan holds is refused before any VM is built.
  const tooMany = totalNodesProblem(input);
  if (tooMany !== undefined) issues.add('(config)', tooMany);
  const model: MetalsliceConfig = tooMany === undefined ? input : { ...input, nodePools: [], autoNodes: [], privateNodePools: [] };
  // What the loader noticed (vcluster.yaml fields that change nothing) comes first: it is about the input.
  const warnings: PlanIssue[] = [...(model.readWarnings ?? [])];
  checkHostOwners(model, (kind, index) => pathOf(options.paths, kind, index), issues);
  const foundation = planFoundation(model, options.paths, issues);
  warnings.push(...foundation.warnings);
  for (const q of foundation.quotas.values()) {
    const granted = systemConsumersWarning(q.spec.consumers, q.spec.allowSystemConsumers);
    if (granted !== undefined) warnings.push({ path: `${q.path}.consumers`, message: granted });
  }
  const elastic = buildElasticVms(model, options.paths, foundation, issues);
  const selection = selectAutoNodeTypes(model, options.paths, foundation, elastic, issues, warnings);
  const vms = [...elastic.vms, ...buildAutoVms(foundation, selection, model, options.paths, issues, warnings)];
  checkDerivedNames(
    {
      model,
      quotas: foundation.quotas,
      environments: selection.auto.environments.map((e) => ({
        ...e,
        path: selection.auto.pools.find((p) => p.cluster === e.cluster && p.provider === e.provider)?.path ?? `${e.cluster}/${e.provider}`,
      })),
      vms,
      configIds: options.paths === undefined,
      pathOf: (kind, index) => pathOf(options.paths, kind, index),
    },
    issues,
  );
  const accounting = accountVms(foundation, vms, issues);
  const placement = placeVms(foundation.fleets, vms, accounting, issues, warnings);
  for (const issue of templateGroupIssues(selection, vms, placement.groups)) issues.add(issue.path, issue.message);
  return assemblePlan(foundation, elastic, selection, vms, accounting, placement, issues, warnings, options.failureDomain);
}

function withHosts(vms: readonly PlannedVm[], placement: Placement): PlannedVm[] {
  return vms.map((vm) => {
    const host = placement.hostOf.get(vmKey(vm));
    const why = placement.pinnedPools.get(vm.poolPath);
    const group = placement.groups.get(vm.poolPath);
    const placed = why !== undefined ? pinVm(vm, why) : group !== undefined && vm.placement === 'spread' ? { ...vm, hostGroup: group } : vm;
    return host !== undefined ? { ...placed, host } : placed;
  });
}

/** Phase 6: the plan and its report, from the placed VM list. */
function assemblePlan(
  foundation: Foundation,
  elastic: ElasticPools,
  selection: AutoSelection,
  unplacedVms: readonly PlannedVm[],
  accounting: Accounting,
  placement: Placement,
  issues: IssueCollector,
  warnings: PlanIssue[],
  failureDomain: string | undefined,
): Plan {
  const vms = withHosts(unplacedVms, placement);
  const headroom = planHeadroom(foundation.fleets, vms, failureDomain, issues, warnings);
  const byPool = groupBy(vms, (vm) => vm.poolPath);
  const hosts = new Map(vms.map((vm) => [`${vm.poolPath}\u0000${vm.name}`, vm.host]));
  const hostOfVm = (pool: string, name: string): string | undefined => hosts.get(`${pool}\u0000${name}`);
  const pools: PlannedPool[] = elastic.pools.map((pool) => ({
    ...pool,
    nodes: pool.nodes.map((node) => ({ name: node.name, host: hostOfVm(pool.path, node.name) })),
  }));
  const autoPools = selection.auto.pools.map((pool) =>
    pool.providerKind === 'kubevirt' ? { ...pool, nodes: pool.nodes.map((n) => ({ ...n, host: hostOfVm(pool.path, n.name) })) } : pool,
  );
  const previewOf = new Map(
    selection.auto.pools.flatMap((pool, i) => (selection.previews.has(pool) ? [[autoPools[i], selection.previews.get(pool)!] as const] : [])),
  );
  const launcherOf = (pool: string): PlanReport['pools'][number]['launcher'] => {
    const vm = byPool.get(pool)?.[0];
    if (!vm) return undefined;
    return {
      requests: formatResources(normalizeResources(vm.launcher.requests)),
      memoryOverhead: vm.launcher.memoryOverhead.toString(),
      eviction: vm.eviction.strategy,
      evictionReason: vm.eviction.reason,
      placement: vm.placement,
      ...(vm.hostGroup ? { group: reportGroup(vm.hostGroup) } : {}),
    };
  };
  const report: PlanReport = {
    ok: issues.ok,
    kubevirtVersion: KUBEVIRT_VERSION,
    errors: issues.issues,
    warnings,
    fleets: [...foundation.fleets.values()].map((fleet) => {
      const allocated = normalizeResources(accounting.fleets.get(fleet.name) ?? {});
      const totals = {
        capacity: formatResources(fleet.capacity),
        allocated: formatResources(allocated),
        free: formatResources(normalizeResources(subtractResources(fleet.capacity, allocated))),
        quotaLimits: formatResources(
          normalizeResources(sumResources([...foundation.quotas.values()].filter((q) => q.fleet === fleet.name).map((q) => q.limits))),
        ),
      };
      return {
        name: fleet.name,
        hosts: fleet.hosts.length,
        ...totals,
        human: {
          capacity: readableResources(totals.capacity),
          allocated: readableResources(totals.allocated),
          free: readableResources(totals.free),
          quotaLimits: readableResources(totals.quotaLimits),
        },
        hostUsage: hostUsageOf(fleet, vms),
        ...(headroom.has(fleet.name) ? { headroom: headroom.get(fleet.name) } : {}),
      };
    }),
    quotas: [...foundation.quotas.values()].map((quota) => {
      const account = accounting.quotas.get(quota.name);
      const limits = formatResources(quota.limits);
      const allocated = formatResources(account?.allocated ?? {});
      return {
        name: quota.name,
        fleet: quota.fleet,
        organization: quota.spec.organization,
        namespace: quota.namespace,
        limits,
        allocated,
        migrationHeadroom: formatResources(account?.migrationHeadroom ?? {}),
        virtualMachines: account?.virtualMachines ?? 0,
        human: { limits: readableResources(limits), allocated: readableResources(allocated) },
      };
    }),
    pools: pools
      .map((pool): PlanReport['pools'][number] => ({
        name: pool.name,
        kind: pool.kind,
        cluster: pool.cluster,
        quota: pool.quota,
        fleet: pool.fleet,
        nodeType: pool.nodeType,
        shape: formatResources(pool.shape),
        footprint: formatResources(pool.footprint),
        human: { shape: readableResources(formatResources(pool.shape)), footprint: readableResources(formatResources(pool.footprint)) },
        cost: roundCost(defaultNodeTypeCost(pool.shape) * pool.nodes.length),
        ...(launcherOf(pool.path) ? { launcher: launcherOf(pool.path) } : {}),
        nodes: pool.nodes.map((n) => ({ name: n.name, host: n.host ?? null, nodeType: pool.nodeType })),
      }))
      .concat(autoPools.map((pool) => autoPoolReport(pool, selection, byPool.get(pool.path) ?? [], launcherOf(pool.path), previewOf.get(pool)))),
    environments: selection.auto.environments.map((e) => ({ cluster: e.cluster, provider: e.provider })),
  };
  return {
    ok: issues.ok,
    errors: issues.issues,
    warnings,
    fleets: [...foundation.fleets.values()],
    quotas: [...foundation.quotas.values()],
    clusters: [...foundation.clusters.values()],
    pools,
    vms,
    autoPools,
    privatePools: selection.privatePools,
    nodeProviders: selection.providers,
    environments: selection.auto.environments,
    report,
  };
}

function autoPoolReport(
  pool: PlannedAutoPool,
  selection: AutoSelection,
  vms: readonly PlannedVm[],
  launcher: PlanReport['pools'][number]['launcher'],
  preview: PoolPreview | undefined,
): PlanReport['pools'][number] {
  const isPrivate = selection.privatePools.some((p) => p.pool === pool);
  const vm = vms[0];
  const shape = formatResources(pool.nodes[0]?.resources ?? pool.candidates[0]?.resources ?? {});
  const footprint = formatResources(vm ? normalizeResources(vm.hostDemand) : (pool.nodes[0]?.footprint ?? pool.candidates[0]?.footprint ?? {}));
  const costOf = new Map(pool.candidates.map((c) => [c.nodeType, c.cost]));
  return {
    name: pool.name,
    kind: isPrivate ? 'private' : pool.mode,
    cluster: pool.cluster,
    quota: pool.quota,
    fleet: selection.kubevirtFleetOf.get(pool.provider),
    provider: pool.provider,
    nodeType: pool.nodeType ?? (pool.candidates.length > 0 ? pool.candidates[0].nodeType : ''),
    shape,
    footprint,
    human: { shape: readableResources(shape), footprint: readableResources(footprint) },
    cost: roundCost(pool.nodes.reduce((total, n) => total + (costOf.get(n.nodeType) ?? 0), 0)),
    ...(launcher ? { launcher } : {}),
    nodes: pool.nodes.map((n) => ({ name: n.name, host: n.host ?? null, nodeType: n.nodeType })),
    candidates: pool.candidates.map((c) => ({ nodeType: c.nodeType, cost: c.cost })),
    rejected: pool.rejected.map((r) => ({ nodeType: r.nodeType, reason: r.reason })),
    ...(preview ? { preview } : {}),
  };
}

/** Costs to a thousandth, as node types carry them: sums of floats must not print as 1208.0000000001. */
function roundCost(cost: number): number {
  return Math.round(cost * 1000) / 1000;
}

/** Each host's allocatable and what the planned VMs on it take (their launcher pods, disks and pods). */
function hostUsageOf(fleet: PlannedFleet, vms: readonly PlannedVm[]): PlanReport['fleets'][number]['hostUsage'] {
  const used = new Map<string, { vms: number; demand: ResourceVector[] }>();
  for (const vm of vms) {
    if (vm.host === undefined || vm.fleet !== fleet.name || !vm.concrete) continue;
    const entry = used.get(vm.host) ?? { vms: 0, demand: [] };
    entry.vms++;
    entry.demand.push(vm.hostDemand);
    used.set(vm.host, entry);
  }
  return fleet.hosts.map((h) => ({
    name: h.name,
    vms: used.get(h.name)?.vms ?? 0,
    allocatable: formatResources(h.allocatable),
    used: formatResources(normalizeResources(sumResources(used.get(h.name)?.demand ?? []))),
  }));
}
