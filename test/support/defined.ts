/** The value, or a test failure naming what was missing (instead of a TypeError further on). */
export function defined<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, found none`);
  return value;
}
