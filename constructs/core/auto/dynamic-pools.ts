/**
 * Dynamic auto-node pools: nodes an autoscaler (Karpenter, or cluster-autoscaler on a Cluster API
 * MachineDeployment) launches later, within the pool's limits. Nothing is taken now; the plan proves the
 * pool's worst case (every matching type at the limits) still fits what its quota has left after the static
 * pools, and names the type that costs most at the limits for reports and renderers.
 */
import type { TakenSoFar } from './taken';
import { DynamicSettings, parseCommon, parseDynamicSettings } from './pool-input';
import type { PlannedAutoPool, PoolContext } from './types';
import { childPath, PlanIssue } from '../base/errors';
import { DynamicPoolSpec } from '../input/model';
import { NodeType } from './node-types';
import { candidateOf, footprintOf, matchTypes, noMatchMessage, poolIdentity, requestedExtended, show, showSome, sortKeys } from './type-match';
import { poolSubject } from '../quota/ledger';
import { addResources, get, resourceNames, ResourceVector, scaleResources } from '../base/resources';

/** One type at the pool's limits: how many nodes, and what they take from the quota. */
interface WorstCase {
  readonly type: NodeType;
  readonly nodes: number;
  readonly total: ResourceVector;
}

/** Plans one dynamic pool: checks it, matches its types, and proves its worst case against its quota. */
// Over 60 lines: the pool record is built once, field by field, between the named steps.
export function planDynamic(
  ctx: PoolContext,
  spec: DynamicPoolSpec,
  path: string,
  taken: TakenSoFar,
  issues: PlanIssue[],
  warnings: PlanIssue[],
): PlannedAutoPool | undefined {
  const before = issues.length;
  const common = parseCommon(spec, path, issues);
  const settings = parseDynamicSettings(ctx, spec, path, issues);
  if (issues.length > before) return undefined;

  const { autoscaler, limits, nodesLimit, minNodes } = settings;
  const { matching, rejected, gpuOnly } = matchTypes(ctx, common.requirements, requestedExtended(common.requirements, limits), undefined, (type) =>
    taken.left(type) === 0 ? `capacity exhausted: all ${type.maxCapacity} nodes taken by static pools` : undefined,
  );
  const base = {
    ...poolIdentity(ctx, spec.name, path),
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
  warnUnlaunchable(path, settings, types, warnings);
  const { worstCases, unbounded } = worstCasesOf(ctx, settings, types, taken);
  const maxNodes = autoscaler === 'cluster-api' ? clusterApiMaxNodes(path, settings, types[0], issues) : undefined;
  if (ctx.quota !== undefined) checkQuotaRoom(ctx, spec, path, { settings, types, worstCases, unbounded }, taken, issues, warnings);
  const worst = costliest(worstCases);
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

/** A pool whose limits allow no node (limits.nodes 0, or limits below every type) is legal but never launches. */
function warnUnlaunchable(path: string, settings: DynamicSettings, types: readonly NodeType[], warnings: PlanIssue[]): void {
  const { limits, nodesLimit } = settings;
  if (nodesLimit === 0) {
    warnings.push({ path: childPath(childPath(path, 'limits'), 'nodes'), message: 'limits.nodes is 0: the pool can never launch a node' });
    return;
  }
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

/**
 * Worst case: each type at the limits; CPU/memory limits are reached with a node that may overshoot, so round
 * up. `unbounded`: some type has no bound at all.
 */
function worstCasesOf(
  ctx: PoolContext,
  settings: DynamicSettings,
  types: readonly NodeType[],
  taken: TakenSoFar,
): { worstCases: WorstCase[]; unbounded: boolean } {
  const { autoscaler, limits, nodesLimit } = settings;
  let unbounded = false;
  const worstCases: WorstCase[] = [];
  for (const type of types) {
    let n = nodesLimit ?? Infinity;
    for (const name of resourceNames(limits)) {
      const per = type.resources[name];
      if (per === undefined || per.isZero()) continue;
      n = Math.min(n, Number((limits[name].nano + per.nano - 1n) / per.nano));
    }
    if (autoscaler === 'cluster-api') n = Math.min(n, cappedMax(type, limits, nodesLimit));
    // No limits on a quota'd pool: vCluster accepts it, and the quota's ResourceQuota is then the bound.
    if (n === Infinity && ctx.quota !== undefined && autoscaler === 'karpenter') n = taken.quota(ctx.quota).fits(footprintOf(type, ctx));
    if (n === Infinity) {
      unbounded = true;
      continue;
    }
    worstCases.push({ type, nodes: n, total: scaleResources(footprintOf(type, ctx), n) });
  }
  return { worstCases, unbounded };
}

/** cluster-autoscaler's max-size for a cluster-api pool: its limits must bound it, and minNodes must fit under it. */
function clusterApiMaxNodes(path: string, settings: DynamicSettings, type: NodeType, issues: PlanIssue[]): number | undefined {
  const m = cappedMax(type, settings.limits, settings.nodesLimit);
  if (m === Infinity) {
    issues.push({
      path: childPath(path, 'limits'),
      message: "a cluster-api pool needs a size bound for cluster-autoscaler's max-size: set limits.nodes (or cpu / memory limits)",
    });
    return undefined;
  }
  if (settings.minNodes > m)
    issues.push({
      path: childPath(path, 'minNodes'),
      message: `minNodes ${settings.minNodes} is above the pool's maximum of ${m} nodes (from its limits): lower minNodes or raise the limits`,
    });
  return m;
}

/** A pool's worst cases against what its quota has left: unbounded, unlimited (a warning), or over the room. */
function checkQuotaRoom(
  ctx: PoolContext,
  spec: DynamicPoolSpec,
  path: string,
  sizing: { settings: DynamicSettings; types: readonly NodeType[]; worstCases: readonly WorstCase[]; unbounded: boolean },
  taken: TakenSoFar,
  issues: PlanIssue[],
  warnings: PlanIssue[],
): void {
  const { settings, types, worstCases, unbounded } = sizing;
  const quota = taken.quota(ctx.quota!);
  const remaining = quota.room;
  // A cluster-api pool without a bound is already refused (clusterApiMaxNodes), for cluster-autoscaler's max-size.
  if (unbounded && settings.autoscaler !== 'cluster-api') {
    issues.push({
      path: childPath(path, 'limits'),
      message: `the pool has no limits and could grow past quota ${ctx.quota} (${show(remaining)} left): set limits.nodes, or cpu / memory limits`,
    });
  } else if (spec.limits === undefined && settings.autoscaler === 'karpenter' && worstCases.length > 0) {
    const most = worstCases.reduce((a, b) => (b.nodes > a.nodes ? b : a));
    warnings.push({
      path,
      message: `no limits: Karpenter may grow the pool until quota ${ctx.quota} is full (${show(remaining)} left, up to ${most.nodes} x ${most.type.id}); the quota stops it there. Set limits to keep room for the quota's other pools`,
    });
  }
  const w = worstCases.find((c) => quota.over(c.total).length > 0);
  if (w === undefined) return;
  const claim = {
    subject: `${poolSubject('dynamic', spec.name, w.type.id)} at its limits`,
    count: w.nodes,
    each: footprintOf(w.type, ctx),
    field: 'limits.nodes',
    fit: Math.min(...types.map((t) => quota.fits(footprintOf(t, ctx)))),
    alternatives: ['lower the cpu / memory limits', 'narrow the requirements to smaller types'],
  };
  issues.push({ path: childPath(path, 'limits'), message: quota.refusal(claim)! });
}

/** The type that costs most at the limits (memory first: it is what overhead inflates), for reports and renderers. */
function costliest(worstCases: readonly WorstCase[]): WorstCase | undefined {
  let worst: WorstCase | undefined;
  for (const w of worstCases) {
    const byMemory = worst ? get(w.total, 'memory').cmp(get(worst.total, 'memory')) : 1;
    if (!worst || byMemory > 0 || (byMemory === 0 && get(w.total, 'cpu').cmp(get(worst.total, 'cpu')) > 0)) worst = w;
  }
  return worst;
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

/**
 * Dynamic pools that share a quota: each may fit alone, but together at their limits they can reach more than
 * the quota has left. A warning (the quota stops some scale-ups), in quota order.
 */
export function warnSharedQuotas(pools: readonly PlannedAutoPool[], taken: TakenSoFar, warnings: PlanIssue[]): void {
  const worstByQuota = new Map<string, { total: ResourceVector; pools: string[] }>();
  for (const pool of pools) {
    if (!pool.quota || !pool.dynamic?.worstCase) continue;
    const acc = worstByQuota.get(pool.quota) ?? { total: {}, pools: [] };
    const worst = scaleResources(pool.dynamic.worstCase.footprint, pool.dynamic.worstCase.nodes);
    worstByQuota.set(pool.quota, { total: addResources(acc.total, worst), pools: [...acc.pools, pool.path] });
  }
  for (const [quota, acc] of [...worstByQuota].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const remaining = taken.quota(quota).room;
    const over = taken.quota(quota).over(acc.total);
    if (acc.pools.length > 1 && over.length > 0) {
      warnings.push({
        path: acc.pools[0],
        message: `dynamic pools ${acc.pools.join(', ')} together can reach ${showSome(acc.total, over)} at their limits, more than quota ${quota} has left (${showSome(remaining, over)}): the quota will stop some scale-ups; lower their limits to share the quota`,
      });
    }
  }
}
