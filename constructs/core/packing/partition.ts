/**
 * Exact search for tight targets: when `target` bins leave little room to spare, every bin of such a
 * packing must be nearly full. In each dimension the bins together have `target x capacity - total`
 * to spare, so each bin holds at least `capacity - spare`. The bins that qualify ("candidates") are
 * then few enough to enumerate, and a packing into `target` bins is exactly a choice of disjoint
 * candidates covering every item (exact cover, searched Algorithm X style: always branch on the item
 * with the fewest candidates left). Both searches are complete, so running out of options is a proof
 * that `target` bins are not enough; running out of budget proves nothing.
 *
 * This is what solves instances built from exact triplets (each bin exactly full), which local search
 * and the assignment MILP find hard.
 */
import { decreasingOrder, measure } from './constructive';
import { Problem } from './problem';

export type PartitionOutcome =
  | { readonly status: 'feasible'; readonly binOf: Int32Array; readonly work: number }
  | { readonly status: 'infeasible'; readonly work: number }
  | { readonly status: 'unknown'; readonly work: number };

// Beyond this many candidate bins the cover search is unlikely to finish; give up early instead.
const MAX_CANDIDATES = 50_000;
// Only targets that leave at most this much room to spare, in bins (summed over dimensions), are tried:
// with more, nearly every set of items qualifies as a candidate.
const MAX_SPARE_BINS = 0.5;

/** Decides whether p fits in `target` bins by enumerating nearly full bins, within `budget` units of work. */
export function packByPartition(p: Problem, target: number, budget: number): PartitionOutcome {
  const { n, d, size, cap } = p;
  if (n === 0) return { status: 'feasible', binOf: new Int32Array(0), work: 0 };
  if (target <= 0) return { status: 'infeasible', work: 0 };
  const minFill = new Float64Array(d);
  let spareBins = 0;
  for (let k = 0; k < d; k++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += size[i * d + k];
    const spare = target * cap[k] - total;
    if (spare < 0) return { status: 'infeasible', work: 0 };
    minFill[k] = Math.max(0, cap[k] - spare);
    spareBins += spare / cap[k];
  }
  if (spareBins > MAX_SPARE_BINS) return { status: 'unknown', work: 0 };
  let work = 0;
  const candidates = enumerateCandidates(p, minFill, budget);
  if (candidates === undefined) return { status: 'unknown', work: budget };
  work += candidates.work;
  const cover = exactCover(n, candidates, target, budget - work);
  work += cover.work;
  if (cover.chosen === undefined) return { status: cover.exhausted ? 'infeasible' : 'unknown', work };
  const binOf = new Int32Array(n).fill(-1);
  cover.chosen.forEach((c, bin) => {
    for (const i of candidates.items[c]) binOf[i] = bin;
  });
  return { status: 'feasible', binOf, work };
}

interface Candidates {
  /** Items of each candidate bin. */
  readonly items: number[][];
  /** Candidate bins as bitsets of `words` 32-bit words each. */
  readonly bits: Uint32Array[];
  readonly words: number;
  readonly work: number;
}

/** Every set of items that fits a bin and fills it to at least `minFill` in every dimension. */
function enumerateCandidates(p: Problem, minFill: Float64Array, budget: number): Candidates | undefined {
  const { n, d, size, cap } = p;
  const uniform = new Float64Array(d).fill(1);
  const order = decreasingOrder(Float64Array.from({ length: n }, (_, i) => measure(p, i, 'sum', uniform)));
  // rest[j * d + k]: total size in dimension k of order[j..]; a partial bin that cannot reach the
  // minimum fill even with all of them is abandoned.
  const rest = new Float64Array((n + 1) * d);
  for (let j = n - 1; j >= 0; j--) for (let k = 0; k < d; k++) rest[j * d + k] = rest[(j + 1) * d + k] + size[order[j] * d + k];
  const words = Math.ceil(n / 32);
  const items: number[][] = [];
  const bits: Uint32Array[] = [];
  const load = new Float64Array(d);
  const chosen: number[] = [];
  let nodes = 0;
  let aborted = false;
  const visit = (from: number): void => {
    for (let j = from; j < n && !aborted; j++) {
      if (++nodes * 2 * d > budget) {
        aborted = true;
        return;
      }
      const i = order[j];
      let fits = true;
      let reachable = true;
      for (let k = 0; k < d; k++) {
        const l = load[k] + size[i * d + k];
        if (l > cap[k]) fits = false;
        if (l + rest[(j + 1) * d + k] < minFill[k]) reachable = false;
      }
      // Without item j the bin must be filled from order[j+1..]; if even all of them (and j) cannot
      // reach the fill, no later j can either.
      let hopeless = false;
      for (let k = 0; k < d; k++) if (load[k] + rest[j * d + k] < minFill[k]) hopeless = true;
      if (hopeless) return;
      if (!fits || !reachable) continue;
      for (let k = 0; k < d; k++) load[k] += size[i * d + k];
      chosen.push(i);
      let full = true;
      for (let k = 0; k < d; k++) if (load[k] < minFill[k]) full = false;
      if (full) {
        if (items.length >= MAX_CANDIDATES) {
          aborted = true;
          return;
        }
        items.push([...chosen]);
        const b = new Uint32Array(words);
        for (const x of chosen) b[x >>> 5] |= 1 << (x & 31);
        bits.push(b);
        // Recording a candidate costs about as much as a few dozen nodes.
        nodes += 4 * (words + chosen.length);
      }
      visit(j + 1);
      chosen.pop();
      for (let k = 0; k < d; k++) load[k] -= size[i * d + k];
    }
  };
  visit(0);
  if (aborted) return undefined;
  return { items, bits, words, work: nodes * 2 * d };
}

/** Chooses at most `target` disjoint candidates covering all n items, or reports why it could not. */
function exactCover(n: number, candidates: Candidates, target: number, budget: number): { chosen?: number[]; exhausted: boolean; work: number } {
  const { items, bits, words } = candidates;
  const byItem: number[][] = Array.from({ length: n }, () => []);
  items.forEach((set, c) => {
    for (const i of set) byItem[i].push(c);
  });
  const covered = new Uint32Array(words);
  const chosen: number[] = [];
  let work = 0;
  let outOfBudget = false;
  const disjoint = (c: number): boolean => {
    const b = bits[c];
    for (let w = 0; w < words; w++) if ((b[w] & covered[w]) !== 0) return false;
    return true;
  };
  const search = (left: number): boolean => {
    if (left === 0) return true;
    if (chosen.length >= target) return false;
    // Branch on the uncovered item with the fewest candidates still usable.
    let pick = -1;
    let fewest = Infinity;
    for (let i = 0; i < n; i++) {
      if ((covered[i >>> 5] >>> (i & 31)) & 1) continue;
      let count = 0;
      for (const c of byItem[i]) if (disjoint(c)) count++;
      work += 2 * byItem[i].length * words;
      if (count < fewest) {
        fewest = count;
        pick = i;
        if (count === 0) return false;
      }
    }
    if (work > budget) {
      outOfBudget = true;
      return false;
    }
    for (const c of byItem[pick]) {
      if (!disjoint(c)) continue;
      const b = bits[c];
      for (let w = 0; w < words; w++) covered[w] |= b[w];
      chosen.push(c);
      if (search(left - items[c].length)) return true;
      chosen.pop();
      for (let w = 0; w < words; w++) covered[w] &= ~b[w];
      if (outOfBudget) return false;
    }
    return false;
  };
  const found = search(n);
  return found ? { chosen: [...chosen], exhausted: false, work } : { exhausted: !outOfBudget, work };
}
