/**
 * Vector bin packing with identical bins: the public entry points.
 */
import { lowerBound } from './lower-bounds';
import { packIntoBins } from './exact';
import { BinEliminator } from './heuristic';
import { canonicalBins, PackingInputError, toProblem } from './problem';
import { PackingInstance, PackOptions, PackResult, SyncPackOptions } from './types';

/** Default budget of `packBinsSync`, in candidate move evaluations (a few tens of milliseconds). */
export const DEFAULT_SYNC_ITERATIONS = 1_000_000;

export const DEFAULT_TIME_LIMIT_MS = 2000;

// Candidate evaluations the local search may spend per millisecond of the time limit. Calibrated so
// that the whole heuristic budget takes well under half the limit on a slow core: turning time into
// work this way makes results independent of machine load, and the clock stays a safety net.
const WORK_PER_MS = 8000;
// Share of the heuristic budget spent before the MILP gets its turn.
const FIRST_PHASE_SHARE = 0.1;
// Share of the time limit the MILP may use.
const EXACT_TIME_SHARE = 0.35;
// `exact: 'auto'` runs the MILP only on models up to this many binary variables (items x bins): beyond
// that, HiGHS rarely finishes in a couple of seconds and the time is better spent searching.
const EXACT_AUTO_MAX_VARIABLES = 3000;

/** Heuristic-only packing, synchronous and deterministic (no clock): for callers that cannot await. */
export function packBinsSync(instance: PackingInstance, options: SyncPackOptions = {}): PackResult {
  const iterations = options.iterations ?? DEFAULT_SYNC_ITERATIONS;
  if (!(iterations >= 0)) throw new PackingInputError(`iterations must be a non-negative number, got ${iterations}`);
  const p = toProblem(instance);
  const lb = lowerBound(p);
  const solver = new BinEliminator(p, lb);
  solver.improve({ work: iterations, timeUp: () => false });
  return result(solver.incumbent, lb, solver.done);
}

/** Packs the items into as few bins as it can within the time limit. */
export async function packBins(instance: PackingInstance, options: PackOptions = {}): Promise<PackResult> {
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  if (!(timeLimitMs >= 0)) throw new PackingInputError(`timeLimitMs must be a non-negative number of milliseconds, got ${timeLimitMs}`);
  const deadline = Date.now() + timeLimitMs;
  const timeUp = (): boolean => Date.now() >= deadline;
  const p = toProblem(instance);
  const lb = lowerBound(p);
  const solver = new BinEliminator(p, lb);
  const work = timeLimitMs * WORK_PER_MS;
  solver.improve({ work: work * FIRST_PHASE_SHARE, timeUp });
  let proven = solver.done;
  const exact = options.exact ?? 'auto';
  const bins = (): number => solver.incumbent.bins;
  const wanted = exact === 'always' || (exact === 'auto' && p.n * (bins() - 1) <= EXACT_AUTO_MAX_VARIABLES);
  if (!proven && wanted) {
    const exactDeadline = Date.now() + timeLimitMs * EXACT_TIME_SHARE;
    // Each success lowers the incumbent by one bin; stop at the bound, at a "no", or out of time.
    while (!proven && Date.now() < exactDeadline) {
      const outcome = await packIntoBins(p, bins() - 1, exactDeadline - Date.now());
      if (outcome.status === 'infeasible') proven = true;
      else if (outcome.status === 'feasible') {
        solver.adopt(outcome.binOf, bins() - 1, 'milp');
        proven = solver.done;
      } else break;
    }
  }
  if (!proven) {
    solver.improve({ work, timeUp });
    proven = solver.done;
  }
  return result(solver.incumbent, lb, proven);
}

function result(incumbent: { binOf: Int32Array; bins: number; method: string }, lb: number, proven: boolean): PackResult {
  const { bins, binOf } = canonicalBins(incumbent.binOf);
  // A proof by the MILP means the incumbent is optimal; report the bound it proved.
  return { bins, binOf, lowerBound: proven ? bins : lb, optimal: proven, method: incumbent.method };
}
