/**
 * How many nodes a model declares outright, and the bound on one plan (MAX_TOTAL_NODES), checked before the
 * planner builds a VM.
 */
import { MAX_TOTAL_NODES, poolSizeProblem } from '../base/bounds';
import type { MetalsliceConfig } from './model';

/** A declared count as a number, 0 when it is not a whole number in bounds (its own check reports that). */
function declared(value: unknown): number {
  return poolSizeProblem(value) === undefined ? (value as number) : 0;
}

/** Every node the config declares outright: elastic pools, static auto pools and private pools. */
function declaredNodes(model: MetalsliceConfig): number {
  const elastic = (model.nodePools ?? []).reduce((sum, p) => sum + declared(p.count), 0);
  const statics = (model.autoNodes ?? []).reduce((sum, a) => sum + (a.static ?? []).reduce((s, p) => s + declared(p.quantity), 0), 0);
  const privates = (model.privateNodePools ?? []).reduce((sum, p) => sum + declared(p.count), 0);
  return elastic + statics + privates;
}

/** Why the config declares more nodes than one plan holds, or undefined. */
export function totalNodesProblem(model: MetalsliceConfig): string | undefined {
  const total = declaredNodes(model);
  if (total <= MAX_TOTAL_NODES) return undefined;
  return `declares ${total.toLocaleString('en-US')} nodes over all pools, more than the ${MAX_TOTAL_NODES.toLocaleString('en-US')} one plan holds: split the fleets into several configs`;
}
