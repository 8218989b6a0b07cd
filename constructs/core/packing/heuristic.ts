/**
 * The heuristic solver: the best of the constructive portfolio, then bin elimination by local search
 * until the lower bound is met or the work budget is spent. Synchronous and deterministic: the only
 * randomness is a seeded generator, and the budget counts work, not milliseconds.
 */
import { lowerBound } from './bounds';
import { constructives } from './constructive';
import { EjectionSearch } from './ejection-search';
import { Problem } from './problem';
import { Prng } from './prng';

export interface HeuristicResult {
  readonly binOf: Int32Array;
  readonly bins: number;
  readonly lowerBound: number;
  readonly method: string;
  /** Work spent in the local search (candidate evaluations). */
  readonly work: number;
}

export interface HeuristicBudget {
  /** Candidate move evaluations the local search may spend in total. */
  readonly work: number;
  /** Safety net: true when the wall-clock budget is exhausted. */
  readonly timeUp: () => boolean;
}

const SEED = 0x6d65746c; // "metl"

// Moves without progress after which a bin-elimination attempt restarts from the incumbent with
// another bin dissolved.
const STALL_MOVES = 4000;

export function solveHeuristic(p: Problem, budget: HeuristicBudget, knownLowerBound?: number): HeuristicResult {
  const lb = knownLowerBound ?? lowerBound(p);
  let best: { binOf: Int32Array; bins: number; method: string } = { binOf: new Int32Array(0), bins: Infinity, method: '' };
  for (const c of constructives()) {
    const packing = c.run(p);
    if (packing.bins < best.bins) best = { binOf: packing.binOf, bins: packing.bins, method: c.name };
    if (best.bins <= lb) break;
  }
  let work = 0;
  if (best.bins <= lb || p.n === 0) return { ...best, lowerBound: lb, work };

  const { n, d } = p;
  // An item's base weight is its total share of a bin: leaving big items in the pool costs more.
  const base = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) base[i] += p.norm[i * d + k];
  const rng = new Prng(SEED ^ n);
  let attempt = 0;
  while (best.bins > lb && work < budget.work && !budget.timeUp()) {
    const target = best.bins - 1;
    const dissolved = binToDissolve(best.binOf, best.bins, base, attempt, rng);
    // Renumber the kept bins 0..target-1; the dissolved bin's items start in the pool.
    const initial = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const b = best.binOf[i];
      initial[i] = b === dissolved ? -1 : b > dissolved ? b - 1 : b;
    }
    const binCap = new Float64Array(target * d);
    for (let b = 0; b < target; b++) binCap.set(p.cap, b * d);
    const search = new EjectionSearch(p, binCap, target, base, rng, initial);
    const ok = search.run({ work: budget.work - work, stall: STALL_MOVES, timeUp: budget.timeUp });
    work += search.work;
    attempt++;
    if (ok) best = { binOf: Int32Array.from(search.binOf), bins: target, method: 'local-search' };
  }
  return { ...best, lowerBound: lb, work };
}

/** The bin to empty: usually one of the least filled, cycling through them over restarts. */
function binToDissolve(binOf: Int32Array, bins: number, base: Float64Array, attempt: number, rng: Prng): number {
  const fill = new Float64Array(bins);
  for (let i = 0; i < binOf.length; i++) fill[binOf[i]] += base[i];
  const order = Array.from({ length: bins }, (_, b) => b).sort((a, b) => fill[a] - fill[b] || a - b);
  if (attempt === 0) return order[0];
  return order[rng.below(Math.min(bins, 3))];
}
