import { describe, expect, it } from '@jest/globals';
import { lowerBound } from '../../constructs/core/packing/lower-bounds';
import { packBins, packingViolations } from '../../constructs/core/packing';
import { toProblem } from '../../constructs/core/packing/problem';

/**
 * Small instances of the vector packing benchmark (Mommessin, Erlebach, Shakhlevich 2025, MIT) whose
 * optimum is known and lies above the engine's own lower bound: only the MILP can prove it optimal.
 */
const KNOWN: { name: string; optimum: number; capacity: string; items: string }[] = [
  {
    name: 'New/class1_20_3_2',
    optimum: 13,
    capacity: '100 100 100',
    items:
      '94 20 7 / 77 15 6 / 99 7 18 / 97 15 18 / 75 8 19 / 76 20 21 / 11 85 7 / 4 90 13 / 19 88 20 / 17 62 6 / 23 76 18 / 15 65 13 / 8 20 66 / 17 2 81 / 21 14 58 / 21 13 93 / 0 9 96 / 22 0 89 / 9 25 90 / 15 22 93',
  },
  {
    name: 'New/class4_20_3_4',
    optimum: 11,
    capacity: '100 100 100',
    items:
      '34 19 27 / 37 29 73 / 33 30 56 / 29 79 74 / 18 37 71 / 0 47 79 / 23 30 21 / 74 27 18 / 41 21 60 / 49 46 73 / 38 13 49 / 50 41 33 / 15 24 15 / 32 17 45 / 31 24 60 / 28 22 15 / 39 77 24 / 30 37 98 / 20 47 32 / 43 26 44',
  },
  {
    name: 'Panigrahy/class6_20_3_1',
    optimum: 10,
    capacity: '150 150 150',
    items:
      '53 98 100 / 99 56 51 / 59 98 34 / 23 84 50 / 50 22 50 / 75 43 99 / 63 78 94 / 77 62 51 / 20 42 61 / 91 100 41 / 52 89 55 / 97 95 68 / 83 54 31 / 45 31 47 / 53 76 66 / 46 63 65 / 66 34 40 / 86 42 47 / 79 81 99 / 39 41 83',
  },
  {
    name: 'Panigrahy/class9_20_3_0',
    optimum: 14,
    capacity: '100 100 100',
    items:
      '19 39 57 / 96 64 32 / 49 12 12 / 53 27 79 / 23 24 93 / 37 55 18 / 27 55 81 / 29 88 59 / 39 19 57 / 64 97 33 / 45 12 11 / 31 62 93 / 24 47 69 / 27 52 78 / 11 23 34 / 41 41 41 / 29 56 1 / 25 48 72 / 71 71 70 / 32 32 32 / 30 31 30',
  },
];

const toInstance = (k: (typeof KNOWN)[number]): { capacity: number[]; items: number[][] } => ({
  capacity: k.capacity.split(' ').map(Number),
  items: k.items.split(' / ').map((item) => item.split(' ').map(Number)),
});

describe('packBins exact mode (HiGHS)', () => {
  it.each(KNOWN)('reproduces the known optimum of $name and proves it', async (known) => {
    const instance = toInstance(known);
    expect(lowerBound(toProblem(instance))).toBeLessThan(known.optimum);
    const result = await packBins(instance, { timeLimitMs: 4000, exact: 'always' });
    expect(packingViolations(instance, result.binOf)).toEqual([]);
    expect(result.bins).toBe(known.optimum);
    expect(result.optimal).toBe(true);
    expect(result.lowerBound).toBe(known.optimum);
  });

  it('without the MILP, still finds the optimum but cannot prove it', async () => {
    const instance = toInstance(KNOWN[0]);
    const result = await packBins(instance, { timeLimitMs: 300, exact: 'never' });
    expect(result.bins).toBe(KNOWN[0].optimum);
    expect(result.optimal).toBe(false);
    expect(result.lowerBound).toBeLessThan(KNOWN[0].optimum);
  });
});
