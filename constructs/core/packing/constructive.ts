/**
 * Constructive heuristics for vector bin packing with identical bins. Each builds a complete packing
 * in O(n^2 d); the engine runs them all and keeps the best, because none dominates on every class of
 * instances (Panigrahy et al. 2011, "Heuristics for vector bin packing"; Mommessin et al. 2025).
 */
import { Problem } from './problem';

/** A complete packing: the bin of every item and the number of bins. */
export interface Packing {
  readonly binOf: Int32Array;
  readonly bins: number;
}

/** How an item's many sizes are folded into one number to sort by. */
export type SizeMeasure = 'sum' | 'max' | 'l2' | 'product' | 'scarcity';

/** How an item picks its bin among the open ones that fit. */
export type BinChoice = 'first' | 'best' | 'dot';

/** Per-dimension weights that grow with the total demand on that dimension: scarce resources count more. */
export function scarcityWeights(p: Problem): Float64Array {
  const w = new Float64Array(p.d);
  for (let i = 0; i < p.n; i++) for (let k = 0; k < p.d; k++) w[k] += p.norm[i * p.d + k];
  const total = w.reduce((a, b) => a + b, 0);
  for (let k = 0; k < p.d; k++) w[k] = total > 0 ? (w[k] * p.d) / total : 1;
  return w;
}

/** The size of item i folded into one number. */
export function measure(p: Problem, i: number, how: SizeMeasure, weights: Float64Array): number {
  const d = p.d;
  let acc = how === 'product' ? 1 : 0;
  for (let k = 0; k < d; k++) {
    const x = p.norm[i * d + k];
    switch (how) {
      case 'sum':
        acc += x;
        break;
      case 'max':
        acc = Math.max(acc, x);
        break;
      case 'l2':
        acc += x * x;
        break;
      case 'product':
        acc *= x;
        break;
      case 'scarcity':
        acc += weights[k] * x;
        break;
    }
  }
  return acc;
}

/** Item indices sorted by decreasing key; ties keep input order so the result is deterministic. */
export function decreasingOrder(keys: ArrayLike<number>): number[] {
  const order = Array.from({ length: keys.length }, (_, i) => i);
  order.sort((a, b) => keys[b] - keys[a] || a - b);
  return order;
}

/** Orders items by a size measure, breaking ties by the sum of normalised sizes. */
export function orderBy(p: Problem, how: SizeMeasure, weights: Float64Array): number[] {
  const keys = new Float64Array(p.n);
  for (let i = 0; i < p.n; i++) keys[i] = measure(p, i, how, weights) + 1e-9 * measure(p, i, 'sum', weights);
  return decreasingOrder(keys);
}

/**
 * Item-centric packing: items in the given order, each into an open bin chosen by `choice` (`first`
 * fit; `best` fit, the bin left tightest by weighted normalised slack; `dot`, the bin whose remaining
 * capacity is most aligned with the item), opening a new bin when none fits.
 */
export function packInOrder(p: Problem, order: readonly number[], choice: BinChoice, weights: Float64Array): Packing {
  const { d, size, norm, cap } = p;
  const load = new Float64Array(Math.max(1, p.n) * d);
  const binOf = new Int32Array(p.n);
  let bins = 0;
  for (const i of order) {
    const base = i * d;
    let chosen = -1;
    let bestScore = Infinity;
    for (let b = 0; b < bins; b++) {
      const at = b * d;
      let ok = true;
      for (let k = 0; k < d; k++) {
        if (load[at + k] + size[base + k] > cap[k]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      if (choice === 'first') {
        chosen = b;
        break;
      }
      let score = 0;
      for (let k = 0; k < d; k++) {
        const residual = (cap[k] - load[at + k]) / cap[k];
        score += choice === 'best' ? weights[k] * (residual - norm[base + k]) : -weights[k] * residual * norm[base + k];
      }
      if (score < bestScore) {
        bestScore = score;
        chosen = b;
      }
    }
    if (chosen < 0) chosen = bins++;
    binOf[i] = chosen;
    for (let k = 0; k < d; k++) load[chosen * d + k] += size[base + k];
  }
  return { binOf, bins };
}

/**
 * Bin-centric packing: fill one bin at a time, each step adding the unpacked item that fits and scores
 * best against the bin's remaining capacity: `dot` maximises the weighted dot product of item and
 * remaining capacity (Panigrahy et al.'s DotProduct), `l2` minimises the distance between them.
 */
export function packBinCentric(p: Problem, score: 'dot' | 'l2', weights: Float64Array): Packing {
  const { n, d, size, norm, cap } = p;
  const binOf = new Int32Array(n).fill(-1);
  const residual = new Float64Array(d);
  const residualNorm = new Float64Array(d);
  let left = n;
  let bins = 0;
  while (left > 0) {
    const b = bins++;
    residual.set(cap);
    residualNorm.fill(1);
    for (;;) {
      let chosen = -1;
      let bestScore = -Infinity;
      for (let i = 0; i < n; i++) {
        if (binOf[i] >= 0) continue;
        const base = i * d;
        let ok = true;
        let s = 0;
        for (let k = 0; k < d; k++) {
          if (size[base + k] > residual[k]) {
            ok = false;
            break;
          }
          if (score === 'dot') s += weights[k] * norm[base + k] * residualNorm[k];
          else {
            const gap = residualNorm[k] - norm[base + k];
            s -= weights[k] * gap * gap;
          }
        }
        if (ok && s > bestScore) {
          bestScore = s;
          chosen = i;
        }
      }
      if (chosen < 0) break;
      binOf[chosen] = b;
      left--;
      for (let k = 0; k < d; k++) {
        residual[k] -= size[chosen * d + k];
        residualNorm[k] = residual[k] / cap[k];
      }
    }
  }
  return { binOf, bins };
}

/** Plain first fit decreasing by the sum of normalised sizes: the textbook baseline. */
export function firstFitDecreasing(p: Problem): Packing {
  const uniform = new Float64Array(p.d).fill(1);
  return packInOrder(p, orderBy(p, 'sum', uniform), 'first', uniform);
}

/** A named constructive heuristic. */
export interface Constructive {
  readonly name: string;
  run(p: Problem): Packing;
}

/** The portfolio: every size measure with every bin choice, plus the bin-centric rules, each with two weightings. */
export function constructives(): Constructive[] {
  const list: Constructive[] = [];
  const measures: SizeMeasure[] = ['sum', 'max', 'l2', 'product', 'scarcity'];
  const choices: BinChoice[] = ['first', 'best', 'dot'];
  const choiceName: Record<BinChoice, string> = { first: 'ffd', best: 'bfd', dot: 'dot-fit' };
  for (const how of measures) {
    for (const choice of choices) {
      list.push({
        name: `${choiceName[choice]}-${how}`,
        run: (p) => {
          const w = how === 'scarcity' ? scarcityWeights(p) : new Float64Array(p.d).fill(1);
          return packInOrder(p, orderBy(p, how, w), choice, w);
        },
      });
    }
  }
  for (const score of ['dot', 'l2'] as const) {
    list.push({ name: `bin-centric-${score}`, run: (p) => packBinCentric(p, score, new Float64Array(p.d).fill(1)) });
    list.push({ name: `bin-centric-${score}-scarcity`, run: (p) => packBinCentric(p, score, scarcityWeights(p)) });
  }
  return list;
}
