/**
 * Static auto-node pools (and private node pools): N nodes that exist now, on one node type.
 *
 * A static pool never splits: a pool of N nodes takes N nodes of ONE type. When the cheapest matching type has
 * room for only part of the pool, the whole pool moves to the next cheapest type with room for all N; if no
 * type has room for all N, that is an error. One type per pool keeps the pool homogeneous (one node shape, one
 * set of labels) and keeps scaling stable: adding a node never re-types the existing ones.
 */
import type { TakenSoFar } from './taken';
import { checkStaticQuantity, parseCommon } from './pool-input';
import type { ParsedPoolCommon, PlannedAutoNode, PlannedAutoPool, PoolContext, RejectedType } from './types';
import { captureInto, childPath, PlanIssue } from '../base/errors';
import { StaticPoolSpec } from '../input/model';
import { autoNodeName } from '../naming/derived';
import { nodeLabelsFor, NodeType } from './node-types';
import { candidateOf, footprintOf, matchTypes, narrowing, noMatchMessage, poolIdentity, requestedExtended, showSome, sortKeys } from './type-match';
import { poolSubject, QuotaClaim, QuotaLedger } from '../quota/ledger';
import { parseResources, scaleResources } from '../base/resources';

/** Plans one static pool: checks it, matches its type, takes its nodes from what is left (TakenSoFar). */
export function planStatic(ctx: PoolContext, spec: StaticPoolSpec, path: string, taken: TakenSoFar, issues: PlanIssue[]): PlannedAutoPool | undefined {
  const before = issues.length;
  const common = parseCommon(spec, path, issues);
  const quantity = spec.quantity;
  checkStaticQuantity(ctx, spec, path, issues);
  const minimum = spec.resources !== undefined ? captureInto(issues, () => parseResources(spec.resources!, childPath(path, 'resources'))) : undefined;
  if (issues.length > before) return undefined;

  const { matching, rejected, gpuOnly } = matchTypes(ctx, common.requirements, requestedExtended(common.requirements, minimum ?? {}), minimum);
  const base = {
    ...poolIdentity(ctx, spec.name, path),
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
  const quota = ctx.quota !== undefined ? taken.quota(ctx.quota) : undefined;
  const { chosen, quotaMiss } = chooseType(ctx, matching, spec, quota, taken, rejected);
  if (!chosen) {
    issues.push(noRoomProblem(ctx, path, quantity, quotaMiss, rejected));
    return { ...base, nodes: [], rejected };
  }
  return { ...base, nodeType: chosen.id, nodes: takeNodes(ctx, spec, chosen, common, taken), rejected };
}

/** The cheapest matching type with room for every node, in capacity and in the quota; the losers join `rejected`. */
function chooseType(
  ctx: PoolContext,
  matching: readonly NodeType[],
  spec: StaticPoolSpec,
  quota: QuotaLedger | undefined,
  taken: TakenSoFar,
  rejected: RejectedType[],
): { chosen?: NodeType; quotaMiss?: string } {
  let quotaMiss: string | undefined;
  const quantity = spec.quantity;
  for (const type of matching) {
    const left = taken.left(type);
    if (left < quantity) {
      const used = taken.used(type);
      const why =
        type.hosts !== undefined
          ? `capacity exhausted: ${left} matching host(s) free (maxCapacity ${type.maxCapacity}, ${used} taken by earlier claims), the pool needs ${quantity}`
          : `capacity exhausted: maxCapacity ${type.maxCapacity} with ${used} taken by earlier claims, ${left} left, the pool needs ${quantity}`;
      rejected.push({ nodeType: type.id, reason: why });
      continue;
    }
    if (quota !== undefined && quantity > 0) {
      const demand = scaleResources(footprintOf(type, ctx), quantity);
      const over = quota.over(demand);
      if (over.length > 0) {
        rejected.push({
          nodeType: type.id,
          reason: `over quota ${ctx.quota}: ${quantity} nodes need ${showSome(demand, over)}, ${showSome(quota.room, over)} left`,
        });
        quotaMiss ??= quota.refusal(staticClaim(ctx, spec.name, type, quantity));
        continue;
      }
    }
    return { chosen: type, quotaMiss };
  }
  return { quotaMiss };
}

/** What a static pool of `quantity` nodes of the type asks of its quota, as a refusal words it. */
function staticClaim(ctx: PoolContext, name: string, type: NodeType, quantity: number): QuotaClaim {
  return {
    subject: poolSubject('static', name, type.id),
    count: quantity,
    each: footprintOf(type, ctx),
    field: 'quantity',
    alternatives: ['select a smaller type'],
  };
}

/** Why no matching type can take the pool: the quota (the refusal of the cheapest type it had no room for), or capacity. */
function noRoomProblem(ctx: PoolContext, path: string, quantity: number, quotaMiss: string | undefined, rejected: readonly RejectedType[]): PlanIssue {
  if (quotaMiss !== undefined) return { path: childPath(path, 'quantity'), message: quotaMiss };
  return {
    path: childPath(path, 'quantity'),
    message: `no matching node type of provider ${ctx.provider.name} has room for ${quantity} nodes (a static pool takes all its nodes from one type): ${rejected
      .filter((r) => r.reason.startsWith('capacity'))
      .map((r) => `${r.nodeType}: ${r.reason}`)
      .join('; ')}; lower quantity, raise maxCapacity (metal3: add matching hosts), or add a node type`,
  };
}

/** Takes the pool's nodes (and metal3 hosts) of the chosen type, charges its quota, and names each node. */
function takeNodes(ctx: PoolContext, spec: StaticPoolSpec, chosen: NodeType, common: ParsedPoolCommon, taken: TakenSoFar): PlannedAutoNode[] {
  const quantity = spec.quantity;
  const footprint = footprintOf(chosen, ctx);
  const hosts = taken.take(chosen, quantity);
  if (ctx.quota !== undefined && quantity > 0) taken.quota(ctx.quota).charge(scaleResources(footprint, quantity));
  const labels = nodeLabelsFor(chosen, narrowing(common.requirements), common.nodeLabels);
  const nodes: PlannedAutoNode[] = [];
  for (let index = 0; index < quantity; index++) {
    nodes.push({
      name: autoNodeName(ctx.cluster, spec.name, index),
      nodeType: chosen.id,
      ...(hosts[index] !== undefined ? { host: hosts[index] } : {}),
      resources: chosen.resources,
      footprint,
      labels,
    });
  }
  return nodes;
}
