/**
 * Vector bin packing with identical bins: the public entry points.
 */
import { lowerBound } from './bounds';
import { solveHeuristic } from './heuristic';
import { canonicalBins, toProblem } from './problem';
import { PackingInstance, PackOptions, PackResult, SyncPackOptions } from './types';

/** Default budget of `packBinsSync`, in candidate move evaluations (tens of milliseconds). */
export const DEFAULT_SYNC_ITERATIONS = 200_000;

// Candidate evaluations the local search does per millisecond on a slow core, with margin: turning the
// time limit into work this way makes results independent of machine load, and the clock stays a
// safety net for slower machines.
const WORK_PER_MS = 4000;

/** Heuristic-only packing, synchronous and deterministic (no clock): for callers that cannot await. */
export function packBinsSync(instance: PackingInstance, options: SyncPackOptions = {}): PackResult {
  const p = toProblem(instance);
  const lb = lowerBound(p);
  const h = solveHeuristic(p, { work: options.iterations ?? DEFAULT_SYNC_ITERATIONS, timeUp: () => false }, lb);
  const { bins, binOf } = canonicalBins(h.binOf);
  return { bins, binOf, lowerBound: lb, optimal: bins <= lb, method: h.method };
}

/** Packs the items into as few bins as it can within the time limit. */
export async function packBins(instance: PackingInstance, options: PackOptions = {}): Promise<PackResult> {
  const timeLimitMs = options.timeLimitMs ?? 2000;
  const start = Date.now();
  const p = toProblem(instance);
  const lb = lowerBound(p);
  const deadline = start + timeLimitMs;
  const h = solveHeuristic(p, { work: timeLimitMs * WORK_PER_MS, timeUp: () => Date.now() >= deadline }, lb);
  const { bins, binOf } = canonicalBins(h.binOf);
  return { bins, binOf, lowerBound: lb, optimal: bins <= lb, method: h.method };
}
