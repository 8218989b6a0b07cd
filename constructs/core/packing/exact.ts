/**
 * Exact search with the HiGHS MILP solver (WebAssembly): can the items go into `target` bins?
 * Used with target = incumbent - 1, so a "no" proves the incumbent optimal and a "yes" improves it.
 *
 * The model is the assignment formulation: x[i][b] = 1 when item i goes to bin b; every item in exactly
 * one bin; every bin within capacity in every dimension. Bins are interchangeable, which makes a
 * branch-and-bound tree explode with copies of the same packing; the usual cure is to sort items by
 * decreasing size and let the j-th item use only bins 0..j, so each packing has one representation.
 * One more family of constraints makes tight instances easy: with `target` bins, each of them must hold
 * at least (total size - (target - 1) x capacity) in every dimension, because the other bins cannot
 * take more than their capacity. When the items nearly fill the bins, this pins every bin almost full.
 */
import highsLoader, { Highs } from 'highs';
import { decreasingOrder, measure } from './constructive';
import { Problem } from './problem';

let highsPromise: Promise<Highs> | undefined;

/** Loads (once) the HiGHS WebAssembly module. */
export function loadHighs(): Promise<Highs> {
  highsPromise ??= highsLoader();
  return highsPromise;
}

export type ExactOutcome = { readonly status: 'feasible'; readonly binOf: Int32Array } | { readonly status: 'infeasible' } | { readonly status: 'unknown' };

/** The assignment MILP for packing p into `target` bins, in CPLEX LP format. */
export function assignmentModel(p: Problem, target: number): { lp: string; variable: (i: number, b: number) => string; order: number[] } {
  const uniform = new Float64Array(p.d).fill(1);
  const keys = Float64Array.from({ length: p.n }, (_, i) => measure(p, i, 'sum', uniform));
  const order = decreasingOrder(keys);
  const variable = (i: number, b: number): string => `x${i}_${b}`;
  const lines: string[] = ['Minimize', ' obj:', 'Subject To'];
  const binaries: string[] = [];
  order.forEach((i, position) => {
    const terms: string[] = [];
    for (let b = 0; b <= Math.min(position, target - 1); b++) {
      terms.push(variable(i, b));
      binaries.push(variable(i, b));
    }
    lines.push(` item${i}: ${terms.join(' + ')} = 1`);
  });
  const minFill: number[] = [];
  for (let k = 0; k < p.d; k++) {
    let total = 0;
    for (let i = 0; i < p.n; i++) total += p.size[i * p.d + k];
    minFill.push(Math.max(0, total - (target - 1) * p.cap[k]));
  }
  for (let b = 0; b < target; b++) {
    for (let k = 0; k < p.d; k++) {
      const terms: string[] = [];
      order.forEach((i, position) => {
        const s = p.size[i * p.d + k];
        if (position >= b && s > 0) terms.push(`${s} ${variable(i, b)}`);
      });
      if (terms.length === 0) continue;
      lines.push(` bin${b}_${k}: ${terms.join(' + ')} <= ${p.cap[k]}`);
      if (minFill[k] > 0) lines.push(` fill${b}_${k}: ${terms.join(' + ')} >= ${minFill[k]}`);
    }
  }
  lines.push('Binary');
  // LP format lines should stay short; 20 names per line.
  for (let j = 0; j < binaries.length; j += 20) lines.push(` ${binaries.slice(j, j + 20).join(' ')}`);
  lines.push('End');
  return { lp: lines.join('\n'), variable, order };
}

/** Decides whether p fits in `target` bins, within `timeLimitMs`. */
export async function packIntoBins(p: Problem, target: number, timeLimitMs: number): Promise<ExactOutcome> {
  if (target <= 0) return p.n === 0 ? { status: 'feasible', binOf: new Int32Array(0) } : { status: 'infeasible' };
  const highs = await loadHighs();
  const { lp, variable, order } = assignmentModel(p, target);
  const result = highs.solve(lp, { time_limit: Math.max(0.01, timeLimitMs / 1000), output_flag: false, random_seed: 0 });
  if (result.Status === 'Infeasible') return { status: 'infeasible' };
  if (result.Status !== 'Optimal') return { status: 'unknown' };
  const binOf = new Int32Array(p.n).fill(-1);
  order.forEach((i, position) => {
    for (let b = 0; b <= Math.min(position, target - 1); b++) {
      const column = result.Columns[variable(i, b)];
      if (column !== undefined && 'Primal' in column && column.Primal > 0.5) binOf[i] = b;
    }
  });
  // Trust but verify: a packing that breaks a capacity (numerical trouble) is treated as no answer.
  return isValidPacking(p, binOf, target) ? { status: 'feasible', binOf } : { status: 'unknown' };
}

function isValidPacking(p: Problem, binOf: Int32Array, bins: number): boolean {
  const load = new Float64Array(bins * p.d);
  for (let i = 0; i < p.n; i++) {
    const b = binOf[i];
    if (b < 0 || b >= bins) return false;
    for (let k = 0; k < p.d; k++) {
      load[b * p.d + k] += p.size[i * p.d + k];
      if (load[b * p.d + k] > p.cap[k]) return false;
    }
  }
  return true;
}
