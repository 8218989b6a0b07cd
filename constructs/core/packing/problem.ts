/**
 * The engine's internal form of an instance: sizes in flat typed arrays (item-major), dimensions that
 * cannot constrain anything dropped, and sizes also normalised to fractions of the capacity.
 */
import { PackingInstance } from './types';

/** Invalid packing input: the message says which item or dimension and what is allowed. */
export class PackingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackingInputError';
  }
}

export interface Problem {
  /** Number of items. */
  readonly n: number;
  /** Number of dimensions kept (those where the capacity binds at all). */
  readonly d: number;
  /** Capacity per kept dimension. */
  readonly cap: Float64Array;
  /** Integer size of item i in kept dimension k at `i * d + k`. */
  readonly size: Float64Array;
  /** `size / cap`, the share of a bin the item takes in each dimension. */
  readonly norm: Float64Array;
}

/** Checks that `value` is a size the engine can add exactly: a non-negative safe integer. */
export function checkSize(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new PackingInputError(`${what} must be a non-negative integer, got ${String(value)}`);
  }
}

/** Validates an instance and builds its internal form; throws when an item can never fit a bin. */
export function toProblem(instance: PackingInstance): Problem {
  const capacity = instance.capacity;
  capacity.forEach((c, k) => checkSize(c, `capacity[${k}]`));
  const n = instance.items.length;
  instance.items.forEach((item, i) => {
    if (item.length !== capacity.length) {
      throw new PackingInputError(`item ${i} has ${item.length} sizes but the capacity has ${capacity.length} dimensions`);
    }
    item.forEach((s, k) => {
      checkSize(s, `item ${i} size[${k}]`);
      if (s > capacity[k]) {
        throw new PackingInputError(`item ${i} does not fit an empty bin: size[${k}] is ${s} but the capacity is ${capacity[k]}`);
      }
    });
  });
  // A dimension in which no item needs anything never constrains a packing; dropping it speeds every check.
  const kept: number[] = [];
  for (let k = 0; k < capacity.length; k++) {
    if (instance.items.some((item) => item[k] > 0)) kept.push(k);
  }
  const d = kept.length;
  const cap = Float64Array.from(kept, (k) => capacity[k]);
  const size = new Float64Array(n * d);
  const norm = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const s = instance.items[i][kept[j]];
      size[i * d + j] = s;
      norm[i * d + j] = s / cap[j];
    }
  }
  return { n, d, cap, size, norm };
}

/** Whether item i fits on top of `load` (at offset `at`) within `cap` (at offset `capAt`). */
export function fits(p: Problem, i: number, load: Float64Array, at: number, cap: Float64Array, capAt: number): boolean {
  const d = p.d;
  const base = i * d;
  for (let k = 0; k < d; k++) {
    if (load[at + k] + p.size[base + k] > cap[capAt + k]) return false;
  }
  return true;
}

/**
 * Renumbers bins by first use in item order so that equal packings print identically, and returns the
 * number of bins used.
 */
export function canonicalBins(binOf: ArrayLike<number>): { bins: number; binOf: number[] } {
  const rename = new Map<number, number>();
  const out: number[] = [];
  for (let i = 0; i < binOf.length; i++) {
    const b = binOf[i];
    let r = rename.get(b);
    if (r === undefined) {
      r = rename.size;
      rename.set(b, r);
    }
    out.push(r);
  }
  return { bins: rename.size, binOf: out };
}

/** Checks a packing against the instance; returns the problems found (empty when valid). */
export function packingViolations(instance: PackingInstance, binOf: readonly number[]): string[] {
  const problems: string[] = [];
  if (binOf.length !== instance.items.length) {
    problems.push(`binOf has ${binOf.length} entries for ${instance.items.length} items`);
    return problems;
  }
  const loads = new Map<number, number[]>();
  binOf.forEach((b, i) => {
    if (!Number.isInteger(b) || b < 0) {
      problems.push(`item ${i} has bin ${b}`);
      return;
    }
    const load = loads.get(b) ?? instance.capacity.map(() => 0);
    instance.items[i].forEach((s, k) => (load[k] += s));
    loads.set(b, load);
  });
  for (const [b, load] of loads) {
    load.forEach((l, k) => {
      if (l > instance.capacity[k]) problems.push(`bin ${b} holds ${l} in dimension ${k}, capacity ${instance.capacity[k]}`);
    });
  }
  return problems;
}
