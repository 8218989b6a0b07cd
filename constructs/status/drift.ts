/**
 * Drift: a field the stack writes that holds another value in the cluster. Only what the stack writes is
 * compared (the rendered object is a subset of the live one: API server and webhook defaults are not drift), and
 * quantities by value (`1024Mi` is `1Gi`), as a server-side apply of the same object would find it.
 */
import { quantity, rec } from './objects';

/** The first field that differs: its path, what the stack writes and what the cluster holds. */
export interface Difference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** Most array items and map keys walked: a hostile object cannot make the comparison take long. */
const MAX_WALK = 10_000;

function sameScalar(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  // 4 and "4", 16Gi and 17179869184: a quantity the server may write in another form.
  const e = quantity(expected);
  const a = quantity(actual);
  return e !== undefined && a !== undefined && (typeof expected === 'string' || typeof actual === 'string') && e.eq(a);
}

function pathOf(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/**
 * The first field of `expected` that `actual` does not hold, depth first in the rendered order; undefined when
 * every field the stack writes is as written. Arrays are compared item by item, and must be as long.
 */
export function firstDifference(expected: unknown, actual: unknown, path: string, budget = { left: MAX_WALK }): Difference | undefined {
  if (--budget.left < 0) return undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { path, expected, actual };
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i], pathOf(path, i), budget);
      if (d) return d;
    }
    return undefined;
  }
  const e = rec(expected);
  if (e) {
    const a = rec(actual);
    if (!a) return { path, expected, actual };
    for (const [k, v] of Object.entries(e)) {
      if (v === null || v === undefined) continue;
      const d = firstDifference(v, a[k], pathOf(path, k), budget);
      if (d) return d;
    }
    return undefined;
  }
  return sameScalar(expected, actual) ? undefined : { path, expected, actual };
}
