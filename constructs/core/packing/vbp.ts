/**
 * Reader for the VPSolver `.vbp` format: the number of dimensions d; the d bin capacities; the number
 * of item types m; then m lines of d sizes and a demand. The files put one record per line, so errors
 * name the line; blank lines, extra spaces, tabs and CRLF are tolerated.
 *
 * Item sizes may be negative (some published generators emit them): the parser keeps them as written
 * and leaves the decision to the caller, because the engine itself only takes non-negative sizes
 * (see `clampNegativeSizes`).
 */
import { MAX_PACK_ITEMS } from '../base/bounds';

const INTEGER = /^-?\d+$/;

/** Parses `.vbp` text; items are expanded by demand in file order. Throws with the line number on bad input. */
export function parseVbp(text: string): { capacity: number[]; items: number[][] } {
  const records: { line: number; fields: string[] }[] = [];
  text.split(/\r?\n/).forEach((raw, at) => {
    const content = raw.trim();
    if (content !== '') records.push({ line: at + 1, fields: content.split(/\s+/) });
  });
  let next = 0;
  const take = (count: number, expected: string, allowNegative: (field: number) => boolean): { line: number; values: number[] } => {
    const record = records[next];
    if (record === undefined) {
      const after = records.length > 0 ? records[records.length - 1].line + 1 : 1;
      throw new Error(`line ${after}: expected ${expected}, got the end of the file`);
    }
    next++;
    // The file is described, never quoted: a .vbp path may name any file.
    const got = `got ${record.fields.length} field${record.fields.length === 1 ? '' : 's'}`;
    if (record.fields.length !== count || !record.fields.every((f) => INTEGER.test(f))) {
      throw new Error(`line ${record.line}: expected ${expected}, ${got}`);
    }
    const values = record.fields.map(Number);
    values.forEach((v, j) => {
      if (!Number.isSafeInteger(v)) throw new Error(`line ${record.line}: field ${j + 1} is too large (at most ${Number.MAX_SAFE_INTEGER}), ${got}`);
      if (v < 0 && !allowNegative(j)) throw new Error(`line ${record.line}: expected ${expected}, ${got} (negative)`);
    });
    return { line: record.line, values };
  };
  const never = (): boolean => false;
  const dims = take(1, 'the number of dimensions (one integer)', never);
  const d = dims.values[0];
  if (d < 1) throw new Error(`line ${dims.line}: the number of dimensions must be at least 1, got 0`);
  const capacityRecord = take(d, `${d} bin capacities (non-negative integers)`, never);
  const capacity = capacityRecord.values;
  const m = take(1, 'the number of item types (one non-negative integer)', never).values[0];
  const items: number[][] = [];
  for (let t = 0; t < m; t++) {
    const { line, values } = take(d + 1, `${d + 1} integers (${d} sizes and a demand)`, (j) => j < d);
    const sizes = values.slice(0, d);
    sizes.forEach((s, k) => {
      if (s > capacity[k]) {
        throw new Error(
          `line ${line}: item type ${t + 1} needs ${s} in dimension ${k + 1} but the bin capacity (line ${capacityRecord.line}) is ${capacity[k]}: no bin can hold it`,
        );
      }
    });
    // Bounds before work: items are expanded by demand, so the total is capped before the first is made.
    if (items.length + values[d] > MAX_PACK_ITEMS) {
      throw new Error(`line ${line}: the demands add up to more than ${MAX_PACK_ITEMS.toLocaleString('en-US')} items, more than metalslice packs`);
    }
    for (let c = 0; c < values[d]; c++) items.push([...sizes]);
  }
  if (next < records.length) {
    throw new Error(`line ${records[next].line}: expected the end of the file after ${m} item types, got more lines`);
  }
  return { capacity, items };
}

/**
 * Raises negative sizes to zero so that the engine can take the instance. Every packing of the result
 * is a valid packing of the original (no item got smaller), but it may need more bins than the
 * original's optimum. Returns how many sizes were raised.
 */
export function clampNegativeSizes(instance: { capacity: number[]; items: number[][] }): {
  capacity: number[];
  items: number[][];
  clamped: number;
} {
  let clamped = 0;
  const items = instance.items.map((item) =>
    item.map((s) => {
      if (s >= 0) return s;
      clamped++;
      return 0;
    }),
  );
  return { capacity: instance.capacity, items, clamped };
}
