/**
 * Auto nodes: vCluster-style static and dynamic pools matched against the node type catalogue at synth time.
 * This file runs the steps; each rule lives in the file named for its job:
 *
 * - pool-input.ts: the entries and pools as written, checked (cluster, provider, quota, names, settings);
 * - type-match.ts: which node type a pool gets (requirements, GPU rule, size, cheapest first);
 * - taken.ts: what earlier claims took (nodes per type, metal3 hosts); quota/ledger.ts: each quota's room;
 * - static-pools.ts: N nodes of one type, now; dynamic-pools.ts: an autoscaler's worst case within limits;
 * - types.ts: the data they share.
 *
 * Static pools are planned first, in config order: they take nodes now; dynamic pools are checked against what
 * is left.
 */
import { TakenSoFar } from './taken';
import { checkProviderFleets, PoolInput, readPoolInput } from './pool-input';
import type { AutoNodesInput, AutoNodesPlan, NodeEnvironmentRef, PlannedAutoPool, QuotaUsage } from './types';
import { warnSharedQuotas, planDynamic } from './dynamic-pools';
import { PlanIssue } from '../base/errors';
import { parseNodeProviders } from './node-types';
import { planStatic } from './static-pools';

export type * from './types';
export { checkTaints } from './pool-input';
export { typeVm } from './type-match';

/** Plans every auto-node pool of every cluster. Never throws for bad input: problems are in `issues`. */
export function planAutoNodes(input: AutoNodesInput): AutoNodesPlan {
  const issues: PlanIssue[] = [];
  const warnings: PlanIssue[] = [];
  const catalogue = parseNodeProviders(input.providers, input.providersPath ?? 'nodeProviders');
  issues.push(...catalogue.issues);
  warnings.push(...catalogue.warnings);
  checkProviderFleets(catalogue, input, issues);
  const work = readPoolInput(input, catalogue, issues, warnings);
  const taken = new TakenSoFar(input.quotas);
  const pools = planPools(work, taken, issues, warnings);
  return {
    ok: issues.length === 0,
    pools,
    quotas: quotaUsage(pools, taken),
    environments: sortedEnvironments(work.environments.values()),
    issues,
    warnings,
  };
}

/** Static pools first, then dynamic ones, each against what earlier pools took (TakenSoFar); the planned pools in config order. */
function planPools(work: PoolInput, taken: TakenSoFar, issues: PlanIssue[], warnings: PlanIssue[]): PlannedAutoPool[] {
  const planned: { order: number; pool: PlannedAutoPool }[] = [];
  for (const w of work.statics) {
    const pool = planStatic(w.ctx, w.spec, w.path, taken, issues);
    if (pool) planned.push({ order: w.order, pool });
  }
  const dynamics: PlannedAutoPool[] = [];
  for (const w of work.dynamics) {
    const pool = planDynamic(w.ctx, w.spec, w.path, taken, issues, warnings);
    if (!pool) continue;
    planned.push({ order: w.order, pool });
    dynamics.push(pool);
  }
  warnSharedQuotas(dynamics, taken, warnings);
  return planned.sort((a, b) => a.order - b.order).map((p) => p.pool);
}

/** What the pools took from each quota they name, and what it has left, by quota name. */
function quotaUsage(pools: readonly PlannedAutoPool[], taken: TakenSoFar): QuotaUsage[] {
  const quotaNames = new Set<string>();
  for (const pool of pools) if (pool.quota) quotaNames.add(pool.quota);
  return [...quotaNames].sort().map((name) => ({ name, consumed: taken.quota(name).charged, remaining: taken.quota(name).room }));
}

/** Node environments by cluster, then provider. */
function sortedEnvironments(envs: Iterable<NodeEnvironmentRef>): NodeEnvironmentRef[] {
  return [...envs].sort((a, b) =>
    a.cluster !== b.cluster ? (a.cluster < b.cluster ? -1 : 1) : a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0,
  );
}
