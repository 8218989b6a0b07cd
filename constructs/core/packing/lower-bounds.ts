/**
 * Lower bounds on the number of bins. The search stops as soon as it reaches one, so a tighter bound
 * is time saved; every bound here is cheap (at most O(n^2 d)).
 */
import { Problem } from './problem';

/** The best of the bounds below. */
export function lowerBound(p: Problem): number {
  if (p.n === 0) return 0;
  if (p.d === 0) return 1;
  return Math.max(1, volumeBound(p), dualFeasibleBound(p), conflictBound(p));
}

/** Per dimension, the total size over the capacity, rounded up. */
export function volumeBound(p: Problem): number {
  let best = 0;
  for (let k = 0; k < p.d; k++) {
    let total = 0;
    for (let i = 0; i < p.n; i++) total += p.size[i * p.d + k];
    best = Math.max(best, Math.ceil(total / p.cap[k]));
  }
  return best;
}

/**
 * Martello and Toth's bound per dimension through the dual feasible function with threshold t: items
 * larger than C - t count as a whole bin, items smaller than t as nothing, the rest at their size.
 * No bin can hold more than one whole bin's worth of transformed sizes, so their sum bounds the bins.
 */
export function dualFeasibleBound(p: Problem): number {
  let best = 0;
  for (let k = 0; k < p.d; k++) {
    const c = p.cap[k];
    const sizes: number[] = [];
    for (let i = 0; i < p.n; i++) sizes.push(p.size[i * p.d + k]);
    // Worth trying: each small size (it decides what counts as nothing) and, for each big size, the
    // smallest threshold that makes it count as a whole bin.
    const thresholds = new Set<number>([0]);
    for (const s of sizes) {
      if (2 * s <= c) thresholds.add(s);
      else if (2 * (c - s + 1) <= c) thresholds.add(c - s + 1);
    }
    for (const t of thresholds) {
      let whole = 0;
      let partial = 0;
      for (const s of sizes) {
        if (s > c - t) whole++;
        else if (s >= t) partial += s;
      }
      best = Math.max(best, whole + Math.ceil(partial / c));
    }
  }
  return best;
}

// Only items large in some dimension can be in a big clique; capping the candidates keeps this O(n d)
// plus a bounded quadratic part on large instances.
const MAX_CLIQUE_CANDIDATES = 400;

/**
 * Items that pairwise cannot share a bin each need their own bin (a clique of the conflict graph).
 * The other items can only use the room those bins have left if they are compatible with the bin's
 * clique item; whatever cannot go there needs further bins.
 */
export function conflictBound(p: Problem): number {
  const { n, d, size, cap } = p;
  const maxNorm = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) maxNorm[i] = Math.max(maxNorm[i], p.norm[i * d + k]);
  const candidates = Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => maxNorm[b] - maxNorm[a] || a - b)
    .slice(0, MAX_CLIQUE_CANDIDATES);
  const conflicts = (i: number, j: number): boolean => {
    for (let k = 0; k < d; k++) if (size[i * d + k] + size[j * d + k] > cap[k]) return true;
    return false;
  };
  let best = 0;
  // Greedy cliques from several orderings: by each dimension and by the largest share.
  const orderings: number[][] = [candidates];
  for (let k = 0; k < d; k++) orderings.push([...candidates].sort((a, b) => size[b * d + k] - size[a * d + k] || a - b));
  for (const order of orderings) {
    const clique: number[] = [];
    for (const i of order) if (clique.every((q) => conflicts(i, q))) clique.push(i);
    best = Math.max(best, boundWithClique(p, clique, conflicts));
  }
  return best;
}

function boundWithClique(p: Problem, clique: readonly number[], conflicts: (i: number, j: number) => boolean): number {
  const { n, d, size, cap } = p;
  const inClique = new Uint8Array(n);
  for (const q of clique) inClique[q] = 1;
  let extra = 0;
  for (let k = 0; k < d; k++) {
    let rest = 0;
    for (let i = 0; i < n; i++) if (!inClique[i]) rest += size[i * d + k];
    let room = 0;
    for (const q of clique) {
      let compatible = 0;
      for (let i = 0; i < n; i++) if (!inClique[i] && !conflicts(i, q)) compatible += size[i * d + k];
      room += Math.min(cap[k] - size[q * d + k], compatible);
    }
    extra = Math.max(extra, Math.ceil(Math.max(0, rest - room) / cap[k]));
  }
  return clique.length + extra;
}
