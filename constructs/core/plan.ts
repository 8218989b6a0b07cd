/**
 * The capacity planner: from the model (config or constructs) to a proof that every quota and pool fits,
 * down to the host each VM can land on. Pure: no cdktf, no I/O.
 *
 * Phases, each in its own file: foundation (names, fleets, clusters, quotas fit their fleet), the VM list
 * (elastic pools, auto-node type selection, static and dynamic auto-node VMs: one list), accounting
 * (every quota and fleet charged from that list, as KubeVirt's launcher pods request it), placement (a
 * host for every VM, all at once), and the report.
 */
import { checkDerivedNames } from './derived-names';
import { NodeEnvironmentRef, PlannedAutoPool } from './auto-nodes';
import { IssueCollector, PlanIssue } from './errors';
import { KUBEVIRT_VERSION } from './kubevirt/launcher';
import { ClusterSpec, FleetSpec, MetalsliceConfig, NodePoolSpec, PrivateNodePoolSpec, QuotaSpec } from './model';
import { NodeProvider } from './node-types';
import { PoolPreview } from './preview';
import { accountVms, Accounting } from './plan-accounting';
import { Foundation, pathOf, planFoundation } from './plan-foundation';
import { FleetHeadroom, planHeadroom } from './plan-headroom';
import { placeVms, Placement, vmKey } from './plan-placement';
import { defaultNodeTypeCost } from './node-types';
import { readableResources } from './report/units';
import { AutoSelection, buildAutoVms, buildElasticVms, ElasticPools, selectAutoNodeTypes } from './plan-vms';
import { formatResources, normalizeResources, ResourceVector, subtractResources, sumResources } from './resources';
import { FleetKubevirt, groupBy, pinVm, PlannedVm } from './vms';

export { DEFAULT_KUBERNETES_VERSION } from './plan-foundation';

/** Where each entry of the model came from, for error paths: config paths or construct paths. */
export type ModelPaths = { readonly [K in keyof MetalsliceConfig]?: readonly string[] };

export interface PlanOptions {
  readonly paths?: ModelPaths;
  /** A host label naming failure domains (rack, zone): N+1 headroom is also checked per domain. @default - hosts only */
  readonly failureDomain?: string;
}

export interface PlannedHost {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly capacity: ResourceVector;
  /** capacity - reservedPerHost */
  readonly allocatable: ResourceVector;
}

export interface PlannedFleet {
  readonly name: string;
  readonly path: string;
  readonly spec: FleetSpec;
  readonly hosts: readonly PlannedHost[];
  readonly capacity: ResourceVector;
  readonly cpuAllocationRatio: number;
  /** What the fleet's KubeVirt CR says about VMs: settings and permitted devices. */
  readonly kubevirt: FleetKubevirt;
}

export interface PlannedQuota {
  readonly name: string;
  readonly path: string;
  readonly spec: QuotaSpec;
  readonly fleet: string;
  readonly namespace: string;
  readonly limits: ResourceVector;
  /** Live migrations the quota keeps room for. */
  readonly liveMigrations: number;
}

export interface PlannedCluster {
  readonly name: string;
  readonly path: string;
  readonly spec: ClusterSpec;
  readonly kubernetesVersion: string;
}

export interface PlannedNode {
  /** VM / object name, unique in its namespace; stable when the pool scales. */
  readonly name: string;
  /** The host the planner found room on; undefined when it could not be placed. */
  readonly host?: string;
}

export interface PlannedPool {
  readonly kind: 'elastic';
  readonly name: string;
  readonly path: string;
  readonly spec: NodePoolSpec;
  readonly quota: string;
  readonly fleet: string;
  readonly cluster: string;
  readonly namespace: string;
  readonly nodeType: string;
  /** The guest: what each VM is given. */
  readonly shape: ResourceVector;
  /** What each VM takes from its host: the launcher pod's requests, its disk, one pod. */
  readonly footprint: ResourceVector;
  readonly nodes: readonly PlannedNode[];
}

/** The plan as reported (`metalslice plan --json`, metalslice-plan.json): plain JSON, stable order. */
export interface PlanReport {
  readonly ok: boolean;
  /** The KubeVirt release whose launcher pods the plan counts. */
  readonly kubevirtVersion: string;
  readonly errors: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
  readonly fleets: readonly {
    name: string;
    hosts: number;
    capacity: Record<string, string>;
    allocated: Record<string, string>;
    free: Record<string, string>;
    quotaLimits: Record<string, string>;
    /** The same four, readable (`9.45 Ti`, `1252 cores`): for people, never for arithmetic. */
    human: { capacity: Record<string, string>; allocated: Record<string, string>; free: Record<string, string>; quotaLimits: Record<string, string> };
    /** Per host, in the fleet's order: what it can give VMs, what the planned VMs take, and how many. */
    hostUsage: { name: string; vms: number; allocatable: Record<string, string>; used: Record<string, string> }[];
    /** N+1: the hosts (and failure domains) whose loss strands VMs. */
    headroom?: FleetHeadroom;
  }[];
  readonly quotas: readonly {
    name: string;
    fleet: string;
    organization: string;
    namespace: string;
    limits: Record<string, string>;
    allocated: Record<string, string>;
    /** Kept free for live migrations (a second launcher pod each). */
    migrationHeadroom: Record<string, string>;
    virtualMachines: number;
    human: { limits: Record<string, string>; allocated: Record<string, string> };
  }[];
  readonly pools: readonly {
    name: string;
    kind: string;
    cluster: string;
    quota?: string;
    fleet?: string;
    nodeType: string;
    provider?: string;
    shape: Record<string, string>;
    footprint: Record<string, string>;
    human: { shape: Record<string, string>; footprint: Record<string, string> };
    /** What the pool's nodes cost, in vCluster's cost units (its node types' cost; elastic pools at vCluster's default cost of their shape). */
    cost: number;
    /** KubeVirt pools: each VM's launcher pod (its requests and KubeVirt's memory overhead), what a host drain does to it, and whether kube-scheduler spreads it or it is pinned to the planned hosts. */
    launcher?: { requests: Record<string, string>; memoryOverhead: string; eviction: string; evictionReason: string; placement: 'spread' | 'planned' };
    nodes: { name: string; host: string | null; nodeType: string }[];
    /** Auto-node pools: the matching types, cheapest first (the Karpenter instance types). */
    candidates?: { nodeType: string; cost: number }[];
    /** Auto-node pools: every type that lost, and why. */
    rejected?: { nodeType: string; reason: string }[];
    /** Dynamic pools with `preview` pods: the nodes they would create, at least cost. */
    preview?: PoolPreview;
  }[];
  /** Node environments: one per (tenant cluster x provider) pair in use. */
  readonly environments?: readonly { cluster: string; provider: string }[];
}

export interface Plan {
  readonly ok: boolean;
  readonly errors: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
  readonly fleets: readonly PlannedFleet[];
  readonly quotas: readonly PlannedQuota[];
  readonly clusters: readonly PlannedCluster[];
  readonly pools: readonly PlannedPool[];
  /** Every VM the plan counts, whichever pool declared it: the one list every check and renderer reads. */
  readonly vms: readonly PlannedVm[];
  /** Static and dynamic auto-node pools, and private (metal3) node pools, as planned. */
  readonly autoPools: readonly PlannedAutoPool[];
  /** Private node pools, each with the auto pool that plans it. */
  readonly privatePools: readonly { readonly spec: PrivateNodePoolSpec; readonly path: string; readonly pool: PlannedAutoPool }[];
  readonly nodeProviders: readonly NodeProvider[];
  readonly environments: readonly NodeEnvironmentRef[];
  readonly report: PlanReport;
}


/** Plans the whole model; never throws for bad input: problems are in `errors`. */
export function planModel(model: MetalsliceConfig, options: PlanOptions = {}): Plan {
  const issues = new IssueCollector();
  // What the loader noticed (vcluster.yaml fields that change nothing) comes first: it is about the input.
  const warnings: PlanIssue[] = [...(model.readWarnings ?? [])];
  const foundation = planFoundation(model, options.paths, issues);
  const elastic = buildElasticVms(model, options.paths, foundation, issues);
  const selection = selectAutoNodeTypes(model, options.paths, foundation, elastic, issues, warnings);
  const vms = [...elastic.vms, ...buildAutoVms(foundation, selection, model, options.paths, issues, warnings)];
  checkDerivedNames(
    {
      model,
      quotas: foundation.quotas,
      environments: selection.auto.environments.map((e) => ({ ...e, path: selection.auto.pools.find((p) => p.cluster === e.cluster && p.provider === e.provider)?.path ?? `${e.cluster}/${e.provider}` })),
      vms,
      configIds: options.paths === undefined,
      pathOf: (kind, index) => pathOf(options.paths, kind, index),
    },
    issues,
  );
  const accounting = accountVms(foundation, vms, issues);
  const placement = placeVms(foundation.fleets, vms, accounting, issues, warnings);
  return assemblePlan(foundation, elastic, selection, vms, accounting, placement, issues, warnings, options.failureDomain);
}

function withHosts(vms: readonly PlannedVm[], placement: Placement): PlannedVm[] {
  return vms.map((vm) => {
    const host = placement.hostOf.get(vmKey(vm));
    const why = placement.pinnedPools.get(vm.poolPath);
    const placed = why !== undefined ? pinVm(vm, why) : vm;
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
  const headroom = planHeadroom(foundation.fleets, vms, failureDomain, issues);
  const byPool = groupBy(vms, (vm) => vm.poolPath);
  const hosts = new Map(vms.map((vm) => [`${vm.poolPath}\u0000${vm.name}`, vm.host]));
  const hostOfVm = (pool: string, name: string): string | undefined => hosts.get(`${pool}\u0000${name}`);
  const pools: PlannedPool[] = elastic.pools.map((pool) => ({ ...pool, nodes: pool.nodes.map((node) => ({ name: node.name, host: hostOfVm(pool.path, node.name) })) }));
  const autoPools = selection.auto.pools.map((pool) =>
    pool.providerKind === 'kubevirt' ? { ...pool, nodes: pool.nodes.map((n) => ({ ...n, host: hostOfVm(pool.path, n.name) })) } : pool,
  );
  const previewOf = new Map(selection.auto.pools.flatMap((pool, i) => (selection.previews.has(pool) ? [[autoPools[i], selection.previews.get(pool)!] as const] : [])));
  const launcherOf = (pool: string): PlanReport['pools'][number]['launcher'] => {
    const vm = byPool.get(pool)?.[0];
    if (!vm) return undefined;
    return { requests: formatResources(normalizeResources(vm.launcher.requests)), memoryOverhead: vm.launcher.memoryOverhead.toString(), eviction: vm.eviction.strategy, evictionReason: vm.eviction.reason, placement: vm.placement };
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
        quotaLimits: formatResources(normalizeResources(sumResources([...foundation.quotas.values()].filter((q) => q.fleet === fleet.name).map((q) => q.limits)))),
      };
      return {
        name: fleet.name,
        hosts: fleet.hosts.length,
        ...totals,
        human: { capacity: readableResources(totals.capacity), allocated: readableResources(totals.allocated), free: readableResources(totals.free), quotaLimits: readableResources(totals.quotaLimits) },
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
  const isPrivate = selection.privateNames.has(pool.name) && pool.providerKind === 'metal3' && selection.privatePools.some((p) => p.pool === pool);
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
