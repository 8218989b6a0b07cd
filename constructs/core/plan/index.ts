/**
 * The capacity planner: from the model (config or constructs) to a proof that every quota and pool fits,
 * down to the host each VM can land on. Pure: no cdktf, no I/O.
 *
 * Phases, each in its own file of this folder: foundation.ts (names, fleets, clusters, quotas fit their
 * fleet); the one VM list: elastic-vms.ts (elastic pools), type-selection.ts (auto-node types, against what
 * the elastic VMs leave of each quota) and auto-node-vms.ts (static and dynamic auto-node VMs); accounting.ts
 * (every quota and fleet charged from that list, as KubeVirt's launcher pods request it); placement.ts (a host
 * for every VM, all at once, with spread-proof.ts and groups.ts); headroom.ts (N+1); and the report.
 */
import { totalNodesProblem } from '../input/declared-nodes';
import { systemConsumersWarning } from '../naming/tenancy';
import { checkDerivedNames } from '../naming/owners';
import { PlannedAutoPool } from '../auto';
import { IssueCollector, PlanIssue } from '../base/errors';
import { checkHostMembership } from '../hosts/membership';
import { KUBEVIRT_VERSION } from '../kubevirt/launcher';
import { MetalsliceConfig } from '../input/model';
import { describeBootstrap } from '../input/bootstrap';
import { PoolPreview } from '../auto/preview';
import { accountVms, Accounting } from './accounting';
import { Foundation, pathOf, planFoundation } from './foundation';
import { planHeadroom } from './headroom';
import { placeVms, Placement, poolGroupLabel, vmKey } from './placement';
import { defaultNodeTypeCost } from '../auto/node-types';
import { readableResources } from '../base/units';
import { buildElasticVms, ElasticPools } from './elastic-vms';
import { AutoSelection, selectAutoNodeTypes, templateGroupIssues } from './type-selection';
import { buildAutoVms } from './auto-node-vms';
import { warnUnappliedProperties } from './unapplied-properties';
import { planRollouts, reportRollout, RolloutInput } from './change/transition';
import { planHostRollouts } from './change/host-rollout';
import { formatResources, normalizeResources, ResourceVector, subtractResources, sumResources } from '../base/resources';
import { groupBy, HostGroup, pinVm, PlannedVm } from '../vm/vm';

export { DEFAULT_KUBERNETES_VERSION } from './foundation';

import type {
  PlanOptions,
  PlannedFleet,
  PlannedPool,
  PlanReport,
  ReportGroup,
  Plan,
  PlannedQuota,
  PoolRollout,
  ReportFleet,
  ReportPool,
  ReportQuota,
} from './types';

// The planner's types live in types.ts (a leaf the phases share); the public API keeps importing them from here.
export type {
  ModelPaths,
  PlanOptions,
  PlannedHost,
  ExcludedHost,
  PlannedFleet,
  PlannedQuota,
  PlannedCluster,
  PlannedNode,
  PlannedPool,
  PlanReport,
  ReportFleet,
  ReportHostUsage,
  ReportQuota,
  ReportPool,
  ReportLauncher,
  ReportGroup,
  ReportNode,
  ReportEnvironment,
  ReportCluster,
  PlannedPrivatePool,
  Plan,
  PoolRollout,
  ReportRollout,
} from './types';

function reportGroup(group: HostGroup): ReportGroup {
  return {
    ...(group.hosts ? { hosts: [...group.hosts] } : {}),
    ...(group.label ? { label: group.label } : {}),
    size: group.size,
    perHost: group.perHost,
    migrationTargets: group.migrationTargets,
    wholeDrain: group.wholeDrain,
  };
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
  checkHostMembership(model, (kind, index) => pathOf(options.paths, kind, index), issues);
  const foundation = planFoundation(model, options.paths, issues);
  warnings.push(...foundation.warnings);
  for (const q of foundation.quotas.values()) {
    const granted = systemConsumersWarning(q.spec.consumers, q.spec.allowSystemConsumers);
    if (granted !== undefined) warnings.push({ path: `${q.path}.consumers`, message: granted });
  }
  const elastic = buildElasticVms(model, options.paths, foundation, issues);
  const selection = selectAutoNodeTypes(model, options.paths, foundation, elastic, issues, warnings);
  const vms = [...elastic.vms, ...buildAutoVms(foundation, selection, issues, warnings)];
  warnUnappliedProperties(model, options.paths, selection, warnings);
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
  return assemblePlan(model, foundation, elastic, selection, vms, accounting, placement, issues, warnings, options.failureDomain);
}

/** A group of some of the fleet's hosts gets its pool's label; the whole fleet needs none. */
function labelled(group: HostGroup, vm: PlannedVm): HostGroup {
  return group.hosts ? { ...group, label: poolGroupLabel(vm) } : group;
}

function withHosts(vms: readonly PlannedVm[], placement: Placement): PlannedVm[] {
  return vms.map((vm) => {
    const host = placement.hostOf.get(vmKey(vm));
    const why = placement.pinnedPools.get(vm.poolPath);
    const group = placement.groups.get(vm.poolPath);
    const placed = why !== undefined ? pinVm(vm, why) : group !== undefined && vm.placement === 'spread' ? { ...vm, hostGroup: labelled(group, vm) } : vm;
    return host !== undefined ? { ...placed, host } : placed;
  });
}

/**
 * An auto pool with the VMs the plan counts for it, and a kubevirt pool's nodes with their hosts. A pool
 * without VMs (whole hosts) stays the same object: the plan's private pools refer to it.
 */
function withPlacedVms(
  pool: PlannedAutoPool,
  vms: readonly PlannedVm[] | undefined,
  hostOfVm: (pool: string, name: string) => string | undefined,
): PlannedAutoPool {
  const nodes = pool.providerKind === 'kubevirt' ? pool.nodes.map((n) => ({ ...n, host: hostOfVm(pool.path, n.name) })) : pool.nodes;
  if (vms === undefined) return pool.providerKind === 'kubevirt' ? { ...pool, nodes } : pool;
  return { ...pool, nodes, vms };
}

/** Phase 6: the plan and its report, from the placed VM list. */
// Over 60 lines: the Plan and its report are built in one literal so their fields stay in the published order.
function assemblePlan(
  model: MetalsliceConfig,
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
  const elasticSpecs = new Map(elastic.pools.map((p) => [p.path, p.spec]));
  const rolloutOf = (poolPath: string): RolloutInput =>
    elasticSpecs.has(poolPath) ? { path: `${poolPath}.rollout`, spec: elasticSpecs.get(poolPath)!.rollout } : { path: poolPath, spec: undefined };
  const vmRollouts = planRollouts(foundation, vms, accounting, rolloutOf, issues, warnings);
  // Pools of whole hosts roll too, after the VM pools: a plan without them says exactly what it said.
  const rollouts: ReadonlyMap<string, PoolRollout> = new Map([...vmRollouts, ...hostRollouts(model, foundation, selection, issues, warnings)]);
  const rolloutReport = (poolPath: string): Pick<ReportPool, 'rollout'> => (rollouts.has(poolPath) ? { rollout: reportRollout(rollouts.get(poolPath)!) } : {});
  const byPool = groupBy(vms, (vm) => vm.poolPath);
  const hosts = new Map(vms.map((vm) => [`${vm.poolPath}\u0000${vm.name}`, vm.host]));
  const hostOfVm = (pool: string, name: string): string | undefined => hosts.get(`${pool}\u0000${name}`);
  const pools: PlannedPool[] = elastic.pools.map((pool) => ({
    ...pool,
    nodes: pool.nodes.map((node) => ({ name: node.name, host: hostOfVm(pool.path, node.name) })),
    vms: byPool.get(pool.path) ?? [],
  }));
  const autoPools = selection.auto.pools.map((pool) => withPlacedVms(pool, byPool.get(pool.path), hostOfVm));
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
    fleets: [...foundation.fleets.values()].map((fleet) => fleetReport(fleet, foundation, accounting, vms, headroom)),
    quotas: [...foundation.quotas.values()].map((quota) => quotaReport(quota, accounting)),
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
        ...rolloutReport(pool.path),
        nodes: pool.nodes.map((n) => ({ name: n.name, host: n.host ?? null, nodeType: pool.nodeType })),
      }))
      .concat(
        autoPools.map((pool) =>
          autoPoolReport(pool, selection, byPool.get(pool.path) ?? [], launcherOf(pool.path), previewOf.get(pool), rolloutReport(pool.path)),
        ),
      ),
    environments: selection.auto.environments.map((e) => ({ cluster: e.cluster, provider: e.provider })),
    clusters: [...foundation.clusters.values()].map(({ name, kubernetesVersion, spec: { bootstrap } }) => ({
      name,
      kubernetesVersion,
      bootstrap: bootstrap?.mode ?? 'unpinned',
      ...(bootstrap ? { kubernetes: bootstrap.kubernetes } : {}),
      ...(bootstrap?.containerd !== undefined ? { containerd: bootstrap.containerd } : {}),
      nodeSoftware: describeBootstrap(bootstrap, kubernetesVersion),
    })),
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
    rollouts,
    privatePools: selection.privatePools,
    nodeProviders: selection.providers,
    environments: selection.auto.environments,
    report,
  };
}

/** Phase 6 for pools of whole hosts (change/host-rollout.ts): how each rolls, by its planned pool's path. */
function hostRollouts(
  model: MetalsliceConfig,
  foundation: Foundation,
  selection: AutoSelection,
  issues: IssueCollector,
  warnings: PlanIssue[],
): Map<string, PoolRollout> {
  const privateEntries = new Set(model.privateNodePools ?? []);
  return planHostRollouts(
    {
      privatePools: selection.privatePools,
      autoPools: selection.auto.pools,
      providers: selection.providers,
      hostSelectorOf: (provider, nodeType) => model.nodeProviders?.find((p) => p.name === provider)?.nodeTypes.find((t) => t.name === nodeType)?.hostSelector,
      clusters: foundation.clusters,
      // A privateNodePools entry writes its rollout; a static pool on a metal3 provider has none and rolls with the defaults.
      rolloutOf: (p) => (privateEntries.has(p.spec) ? { path: `${p.path}.rollout`, spec: p.spec.rollout } : { path: p.path, spec: undefined }),
    },
    issues,
    warnings,
  );
}

/** One fleet's row of the report: capacity, what is allocated and free, quota limits, host usage and N+1. */
function fleetReport(
  fleet: PlannedFleet,
  foundation: Foundation,
  accounting: Accounting,
  vms: readonly PlannedVm[],
  headroom: ReadonlyMap<string, ReportFleet['headroom']>,
): ReportFleet {
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
    human: {
      capacity: readableResources(totals.capacity),
      allocated: readableResources(totals.allocated),
      free: readableResources(totals.free),
      quotaLimits: readableResources(totals.quotaLimits),
    },
    hostUsage: hostUsageOf(fleet, vms),
    ...(headroom.has(fleet.name) ? { headroom: headroom.get(fleet.name) } : {}),
  };
}

/** One quota's row of the report: its limits, what its VMs take, and its migration headroom. */
function quotaReport(quota: PlannedQuota, accounting: Accounting): ReportQuota {
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
}

function autoPoolReport(
  pool: PlannedAutoPool,
  selection: AutoSelection,
  vms: readonly PlannedVm[],
  launcher: PlanReport['pools'][number]['launcher'],
  preview: PoolPreview | undefined,
  rollout: Pick<PlanReport['pools'][number], 'rollout'>,
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
    ...rollout,
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
