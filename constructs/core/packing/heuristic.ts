/**
 * The heuristic solver: the best of the constructive portfolio, then bin elimination by local search
 * until the lower bound is met or the work budget is spent. Synchronous and deterministic: the only
 * randomness is a seeded generator, and budgets count work, not milliseconds.
 */
import { constructives } from './constructive';
import { EjectionSearch } from './ejection-search';
import { packByPartition } from './partition';
import { Problem } from './problem';
import { Prng } from './prng';

export interface Incumbent {
  readonly binOf: Int32Array;
  readonly bins: number;
  readonly method: string;
}

export interface WorkBudget {
  /** Total candidate move evaluations the local search may have spent when it stops. */
  readonly work: number;
  /** Safety net: true when the wall-clock budget is exhausted. */
  readonly timeUp: () => boolean;
}

const SEED = 0x6d65746c; // "metl"

// Share of a budget slice the exact cover of nearly full bins may use per target, and its minimum.
const PARTITION_SHARE = 0.1;
const PARTITION_MIN_WORK = 500_000;

// Moves without progress after which a bin-elimination attempt restarts from the incumbent with
// another bin dissolved.
const STALL_MOVES = 4000;

/** Holds the incumbent packing and improves it in as many slices of budget as the caller grants. */
export class BinEliminator {
  incumbent: Incumbent;
  /** Candidate move evaluations spent so far. */
  work = 0;
  /** Set when a complete search proved that one bin fewer than the incumbent is impossible. */
  provenOptimal = false;
  private readonly base: Float64Array;
  private readonly rng: Prng;
  private attempt = 0;

  constructor(
    private readonly p: Problem,
    private readonly lowerBound: number,
  ) {
    let best: Incumbent | undefined;
    for (const c of constructives()) {
      const packing = c.run(p);
      if (best === undefined || packing.bins < best.bins) best = { binOf: packing.binOf, bins: packing.bins, method: c.name };
      if (best.bins <= lowerBound) break;
    }
    this.incumbent = best ?? { binOf: new Int32Array(0), bins: 0, method: 'empty' };
    // An item's base weight is its total share of a bin: leaving big items in the pool costs more.
    const { n, d } = p;
    this.base = new Float64Array(n);
    for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) this.base[i] += p.norm[i * d + k];
    this.rng = new Prng(SEED ^ n);
  }

  get done(): boolean {
    return this.provenOptimal || this.incumbent.bins <= this.lowerBound;
  }

  /** Replaces the incumbent with a better packing found elsewhere (the MILP). */
  adopt(binOf: Int32Array, bins: number, method: string): void {
    if (bins < this.incumbent.bins) this.incumbent = { binOf, bins, method };
  }

  /** Tries to remove bins, one at a time, until the bound is met or the budget is spent. */
  improve(budget: WorkBudget): void {
    const { p } = this;
    const { n, d } = p;
    const slice = budget.work - this.work;
    let partitionTried = -1;
    while (!this.done && this.work < budget.work && !budget.timeUp()) {
      const best = this.incumbent;
      const target = best.bins - 1;
      if (partitionTried !== target) {
        // Tight targets first get the exact cover of nearly full bins: it settles them either way.
        partitionTried = target;
        const allowed = Math.min(budget.work - this.work, Math.max(PARTITION_SHARE * slice, PARTITION_MIN_WORK));
        const outcome = packByPartition(p, target, allowed);
        this.work += outcome.work;
        if (outcome.status === 'infeasible') this.provenOptimal = true;
        if (outcome.status === 'feasible') this.incumbent = { binOf: outcome.binOf, bins: target, method: 'exact-cover' };
        if (outcome.status !== 'unknown') continue;
      }
      const dissolved = this.binToDissolve();
      // Renumber the kept bins 0..target-1; the dissolved bin's items start in the pool.
      const initial = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const b = best.binOf[i];
        initial[i] = b === dissolved ? -1 : b > dissolved ? b - 1 : b;
      }
      const binCap = new Float64Array(target * d);
      for (let b = 0; b < target; b++) binCap.set(p.cap, b * d);
      const search = new EjectionSearch(p, binCap, target, this.base, this.rng, initial);
      const ok = search.run({ work: budget.work - this.work, stall: STALL_MOVES, timeUp: budget.timeUp });
      this.work += search.work;
      this.attempt++;
      if (ok) this.incumbent = { binOf: Int32Array.from(search.binOf), bins: target, method: 'local-search' };
    }
  }

  /** The bin to empty: the least filled first, then one of the three least filled at random. */
  private binToDissolve(): number {
    const { binOf, bins } = this.incumbent;
    const fill = new Float64Array(bins);
    for (let i = 0; i < binOf.length; i++) fill[binOf[i]] += this.base[i];
    const order = Array.from({ length: bins }, (_, b) => b).sort((a, b) => fill[a] - fill[b] || a - b);
    if (this.attempt === 0) return order[0];
    return order[this.rng.below(Math.min(bins, 3))];
  }
}
