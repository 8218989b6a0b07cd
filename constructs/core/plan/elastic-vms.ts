/**
 * Planning, phase 2a: the VMs of elastic node pools, each pool's nodes of one declared shape, checked against
 * its quota, cluster and fleet before a VM is built.
 */
import { checkTaints } from '../auto';
import { poolSizeProblem } from '../base/bounds';
import { poolVmName } from '../naming/derived';
import { IssueCollector, PlanIssue } from '../base/errors';
import { excerpt } from '../base/excerpt';
import { Foundation, checkLabels, pathOf, unknownReference } from './foundation';
import { MetalsliceConfig, NodePoolSpec } from '../input/model';
import { drainTimeoutProblem, rolloutProblems } from '../input/disruption';
import { labelValueProblem } from '../naming/kube-names';
import type { ModelPaths, PlannedFleet, PlannedQuota, UnplacedPool } from './types';
import { Quantity } from '../base/quantity';
import { get, normalizeResources, parseResources, ResourceVector } from '../base/resources';
import { asksForLiveMigration, buildVm, pinVm, PlannedVm, VmBuild } from '../vm/vm';
import { amount } from '../base/units';

/** Elastic pools as declared, each with the VM build all its nodes share. */
export interface ElasticPools {
  readonly pools: readonly UnplacedPool[];
  readonly vms: readonly PlannedVm[];
}

/** Phase 2a: elastic node pools and their VMs. */
export function buildElasticVms(model: MetalsliceConfig, paths: ModelPaths | undefined, foundation: Foundation, issues: IssueCollector): ElasticPools {
  const pools: UnplacedPool[] = [];
  const vms: PlannedVm[] = [];
  (model.nodePools ?? []).forEach((spec, i) => {
    const at = pathOf(paths, 'nodePools', i);
    const countOk = checkElasticFields(spec, at, foundation, issues);
    const shape = elasticShape(spec, at, issues);
    if (!shape) return;
    const quota = foundation.quotas.get(spec.quota);
    const fleet = quota ? foundation.fleets.get(quota.fleet) : undefined;
    if (!quota || !fleet) return;
    const build = elasticBuild(spec, at, shape, fleet, issues);
    if (build) addElasticPool(spec, at, countOk ? spec.count : 0, shape, build, quota, pools, vms);
  });
  return { pools, vms };
}

/** An elastic pool's references, count, labels, taints and node type; whether its count is a valid one. */
function checkElasticFields(spec: NodePoolSpec, at: string, foundation: Foundation, issues: IssueCollector): boolean {
  if (!foundation.declared.quotas.has(spec.quota)) issues.add(`${at}.quota`, unknownReference('quota', spec.quota, foundation.quotas.keys()));
  if (!foundation.declared.clusters.has(spec.cluster)) issues.add(`${at}.cluster`, unknownReference('cluster', spec.cluster, foundation.clusters.keys()));
  const countProblem = poolSizeProblem(spec.count);
  if (countProblem !== undefined) issues.add(`${at}.count`, countProblem);
  checkLabels(spec.labels, `${at}.labels`, issues, true);
  const taintProblems: PlanIssue[] = [];
  checkTaints(spec.taints, `${at}.taints`, taintProblems);
  for (const p of taintProblems) issues.add(p.path, p.message);
  if (spec.nodeType !== undefined) {
    const problem = labelValueProblem(spec.nodeType);
    if (problem) issues.add(`${at}.nodeType`, `${excerpt(spec.nodeType)}: ${problem}`);
  }
  const drainProblem = spec.drainTimeout === undefined ? undefined : drainTimeoutProblem(spec.drainTimeout);
  if (drainProblem !== undefined) issues.add(`${at}.drainTimeout`, drainProblem);
  for (const [field, problem] of rolloutProblems(spec.rollout)) issues.add(`${at}.rollout.${field}`, problem);
  return countProblem === undefined;
}

/** The pool's VM shape: whole vCPUs, memory enough to boot, a size for a dataVolume root disk. */
function elasticShape(spec: NodePoolSpec, at: string, issues: IssueCollector): ResourceVector | undefined {
  const shape = issues.capture(() => normalizeResources(parseResources(spec.shape, `${at}.shape`)));
  if (!shape) return undefined;
  const cpu = get(shape, 'cpu');
  if (cpu.isZero() || cpu.nano % 1_000_000_000n !== 0n) {
    issues.add(`${at}.shape.cpu`, `a VM gets whole vCPUs: got ${cpu}; use ${Math.max(1, Number(cpu.ceilUnits()))}`);
    return undefined;
  }
  if (get(shape, 'memory').cmp(Quantity.parse('256Mi')) < 0) {
    issues.add(
      `${at}.shape.memory`,
      `a node needs at least 256Mi of memory to boot (got ${amount('memory', get(shape, 'memory'))}); kubelet wants 2Gi or more`,
    );
    return undefined;
  }
  if ((spec.rootDisk ?? 'dataVolume') === 'dataVolume' && get(shape, 'disk').isZero()) {
    issues.add(`${at}.shape.disk`, 'a dataVolume root disk needs a size: add disk (e.g. 40Gi), or set rootDisk: containerDisk');
    return undefined;
  }
  return shape;
}

/** How every VM of the pool is built on its quota's fleet; a pinned pool cannot ask for live migration. */
function elasticBuild(spec: NodePoolSpec, at: string, shape: ResourceVector, fleet: PlannedFleet, issues: IssueCollector): VmBuild | undefined {
  const problems: PlanIssue[] = [];
  const build = buildVm(shape, spec.vm ?? {}, spec.rootDisk ?? 'dataVolume', fleet.kubevirt, { options: `${at}.vm`, shape: `${at}.shape` }, problems);
  for (const p of problems) issues.add(p.path, p.message);
  if (!build) return undefined;
  if ((spec.placement ?? 'spread') === 'planned' && asksForLiveMigration(spec.vm ?? {})) {
    issues.add(
      `${at}.vm.evictionStrategy`,
      `${spec.vm?.evictionStrategy} needs a second host to migrate to, but placement: planned pins each VM to one host (a drain would wait forever): use None or External, or placement: spread`,
    );
    return undefined;
  }
  return build;
}

/** The pool as planned and its `count` VMs, each a copy of one template with its own name and index. */
function addElasticPool(
  spec: NodePoolSpec,
  at: string,
  count: number,
  shape: ResourceVector,
  build: VmBuild,
  quota: PlannedQuota,
  pools: UnplacedPool[],
  vms: PlannedVm[],
): void {
  const nodeType = spec.nodeType ?? spec.name;
  const placement = spec.placement ?? 'spread';
  const pool: UnplacedPool = {
    kind: 'elastic',
    name: spec.name,
    path: at,
    spec,
    quota: quota.name,
    fleet: quota.fleet,
    cluster: spec.cluster,
    namespace: quota.namespace,
    nodeType,
    shape,
    footprint: normalizeResources(build.hostDemand),
    nodes: Array.from({ length: count }, (_, n) => ({ name: poolVmName(spec.name, n) })),
  };
  pools.push(pool);
  // One object per pool with every field in its final order; each VM copies it and sets its own name and
  // index. Spreading `build` and adding fields per VM cost ~50 us a VM (0.5 s at 10,000 VMs).
  const template: PlannedVm = {
    ...build,
    name: '',
    origin: 'elastic',
    concrete: true,
    pool: spec.name,
    poolPath: at,
    countPath: `${at}.count`,
    index: 0,
    cluster: spec.cluster,
    quota: quota.name,
    fleet: quota.fleet,
    namespace: quota.namespace,
    nodeType,
    ...(spec.image !== undefined ? { image: spec.image } : {}),
    placement,
    labels: spec.labels ?? {},
    taints: spec.taints ?? [],
  };
  for (let index = 0; index < count; index++) {
    const vm: PlannedVm = { ...template, name: pool.nodes[index].name, index };
    vms.push(placement === 'planned' ? pinVm(vm, 'placement: planned') : vm);
  }
}
