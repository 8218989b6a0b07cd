/**
 * Planning, phase 3: the VMs of kubevirt auto-node pools, from the types type selection chose: a static
 * pool's nodes, and a dynamic pool's worst case at its limits. Each VM is the one type selection built for the
 * chosen candidate with its claim's properties (vCluster's precedence: claim over node type over provider): a
 * claim's VM is built once (auto/type-match.ts `claimVm`).
 */
import type { PlannedAutoPool } from '../auto';
import { childPath, IssueCollector, PlanIssue } from '../base/errors';
import { Foundation } from './foundation';
import { limitVmName } from '../naming/derived';
import { ImageSource } from '../vm/properties';
import { PlannedVm, VmBuild } from '../vm/vm';
import { AutoSelection, bareTypeName } from './type-selection';

/** Phase 3: the VMs of kubevirt auto-node pools: static pools' nodes, and dynamic pools at their limits. */
export function buildAutoVms(
  foundation: Foundation,
  selection: AutoSelection,
  issues: IssueCollector = new IssueCollector(),
  warnings: PlanIssue[] = [],
): PlannedVm[] {
  const vms: PlannedVm[] = [];
  const ctx: AutoVmContext = { issues, warnings, seenWarnings: new Set<string>() };
  for (const pool of selection.auto.pools) {
    if (pool.providerKind !== 'kubevirt' || pool.quota === undefined) continue;
    const fleetName = selection.kubevirtFleetOf.get(pool.provider);
    const quota = foundation.quotas.get(pool.quota);
    const fleet = fleetName ? foundation.fleets.get(fleetName) : undefined;
    if (!fleet || !quota) continue;
    const vmOf = typeBuilds(ctx, pool);
    const common = {
      origin: pool.mode,
      pool: pool.name,
      poolPath: pool.path,
      cluster: pool.cluster,
      quota: quota.name,
      fleet: fleet.name,
      namespace: quota.namespace,
      placement: 'spread' as const,
      taints: pool.taints,
      ...(selection.templateVms.has(pool.provider) ? { madeByNodeTemplate: true } : {}),
    };
    if (pool.mode === 'static') pushStaticVms(pool, vmOf, common, vms);
    else pushLimitVms(pool, vmOf, common, vms);
  }
  return vms;
}

/** What building the VMs of auto pools reads and writes, shared by every pool. */
interface AutoVmContext {
  readonly issues: IssueCollector;
  readonly warnings: PlanIssue[];
  /** Property warnings already given (one per path, however many pools share the entry). */
  readonly seenWarnings: Set<string>;
}

/** A type's VM as built for one pool. */
type TypeBuild = (VmBuild & { imageSource?: ImageSource }) | undefined;

/** The fields every VM of a pool shares. */
type PoolVmFields = Pick<
  PlannedVm,
  'origin' | 'pool' | 'poolPath' | 'cluster' | 'quota' | 'fleet' | 'namespace' | 'placement' | 'taints' | 'madeByNodeTemplate'
>;

/**
 * The VM of each node type for one pool: the one type selection built for the pool's candidate (auto/type-match.ts
 * `claimVm`, with the claim's properties), its problems reported once and its warnings once per path.
 */
function typeBuilds(ctx: AutoVmContext, pool: PlannedAutoPool): (typeId: string) => TypeBuild {
  const reported = new Set<string>();
  // Asked once per node: the pool's candidates by type, looked up in one step.
  const candidates = new Map(pool.candidates.map((c) => [c.nodeType, c]));
  return (typeId) => {
    const candidate = candidates.get(typeId);
    if (candidate?.vmIssues && !reported.has(typeId)) {
      reported.add(typeId);
      for (const p of candidate.vmIssues.problems) ctx.issues.add(p.path, p.message);
      for (const w of candidate.vmIssues.warnings) {
        if (ctx.seenWarnings.has(w.path)) continue;
        ctx.seenWarnings.add(w.path);
        ctx.warnings.push(w);
      }
    }
    return candidate?.vm;
  };
}

/** A static pool's VMs: one per planned node, concrete. */
function pushStaticVms(pool: PlannedAutoPool, vmOf: (typeId: string) => TypeBuild, common: PoolVmFields, vms: PlannedVm[]): void {
  pool.nodes.forEach((node, index) => {
    const build = vmOf(node.nodeType);
    if (!build) return;
    vms.push({
      ...build,
      ...common,
      name: node.name,
      concrete: true,
      countPath: childPath(pool.path, 'quantity'),
      index,
      nodeType: bareTypeName(node.nodeType),
      labels: node.labels,
    });
  });
}

/** A dynamic pool's VMs at its limits (its worst case), not concrete: what it may reach, not what it has. */
function pushLimitVms(pool: PlannedAutoPool, vmOf: (typeId: string) => TypeBuild, common: PoolVmFields, vms: PlannedVm[]): void {
  const worst = pool.dynamic?.worstCase;
  const build = worst ? vmOf(worst.nodeType) : undefined;
  if (!worst || !build) return;
  for (let index = 0; index < worst.nodes; index++) {
    vms.push({
      ...build,
      ...common,
      name: limitVmName(pool.cluster, pool.name, index),
      concrete: false,
      countPath: childPath(pool.path, 'limits'),
      index,
      nodeType: bareTypeName(worst.nodeType),
      labels: pool.nodeLabels,
    });
  }
}
