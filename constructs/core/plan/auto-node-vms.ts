/**
 * Planning, phase 3: the VMs of kubevirt auto-node pools, from the types type selection chose: a static
 * pool's nodes, and a dynamic pool's worst case at its limits. Each VM is built with its claim's properties
 * (vCluster's precedence: claim over node type over provider).
 */
import { PlannedAutoPool, typeVm } from '../auto';
import { childPath, IssueCollector, PlanIssue } from '../base/errors';
import { Foundation } from './foundation';
import { MetalsliceConfig } from '../input/model';
import { limitVmName } from '../naming/derived';
import { ImageSource, KubevirtProperties, kubevirtProperties } from '../vm/properties';
import { NodeType } from '../auto/node-types';
import type { ModelPaths } from './types';
import { FleetKubevirt, PlannedVm, VmBuild } from '../vm/vm';
import { AutoSelection, bareTypeName, claimProperties } from './type-selection';

/** A pool's VM settings from its provider's, node type's and claim's properties (vCluster's precedence). */
function propertiesOf(
  model: MetalsliceConfig,
  paths: ModelPaths | undefined,
  selection: AutoSelection,
  pool: PlannedAutoPool,
  typeName: string,
  issues: IssueCollector,
  warnings: PlanIssue[],
): KubevirtProperties {
  const { effective, claimPath } = claimProperties(model, paths, selection, pool, typeName);
  const problems: PlanIssue[] = [];
  const found = kubevirtProperties(effective, claimPath, problems, warnings);
  for (const p of problems) issues.add(p.path, p.message);
  return found;
}

/** Phase 3: the VMs of kubevirt auto-node pools: static pools' nodes, and dynamic pools at their limits. */
export function buildAutoVms(
  foundation: Foundation,
  selection: AutoSelection,
  model: MetalsliceConfig = {},
  paths?: ModelPaths,
  issues: IssueCollector = new IssueCollector(),
  warnings: PlanIssue[] = [],
): PlannedVm[] {
  const vms: PlannedVm[] = [];
  const ctx: AutoVmContext = {
    selection,
    model,
    paths,
    issues,
    warnings,
    typeById: new Map(selection.providers.flatMap((p) => p.types.map((t) => [t.id, t] as const))),
    seenWarnings: new Set<string>(),
  };
  for (const pool of selection.auto.pools) {
    if (pool.providerKind !== 'kubevirt' || pool.quota === undefined) continue;
    const fleetName = selection.kubevirtFleetOf.get(pool.provider);
    const quota = foundation.quotas.get(pool.quota);
    const fleet = fleetName ? foundation.fleets.get(fleetName) : undefined;
    if (!fleet || !quota) continue;
    const vmOf = typeBuilds(ctx, pool, fleet.kubevirt);
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
  readonly selection: AutoSelection;
  readonly model: MetalsliceConfig;
  readonly paths?: ModelPaths;
  readonly issues: IssueCollector;
  readonly warnings: PlanIssue[];
  readonly typeById: ReadonlyMap<string, NodeType>;
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

/** The VM of each node type for one pool (with the pool's claim properties), built once per type and cached. */
function typeBuilds(ctx: AutoVmContext, pool: PlannedAutoPool, fleet: FleetKubevirt): (typeId: string) => TypeBuild {
  const builds = new Map<string, TypeBuild>();
  return (typeId) => {
    if (builds.has(typeId)) return builds.get(typeId);
    const type = ctx.typeById.get(typeId);
    let built: TypeBuild;
    if (type) {
      const poolWarnings: PlanIssue[] = [];
      const props = propertiesOf(ctx.model, ctx.paths, ctx.selection, pool, type.name, ctx.issues, poolWarnings);
      for (const w of poolWarnings) {
        if (ctx.seenWarnings.has(w.path)) continue;
        ctx.seenWarnings.add(w.path);
        ctx.warnings.push(w);
      }
      const problems: PlanIssue[] = [];
      built = typeVm(type, fleet, props, problems);
      for (const p of problems) ctx.issues.add(p.path, p.message);
    }
    builds.set(typeId, built);
    return built;
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
