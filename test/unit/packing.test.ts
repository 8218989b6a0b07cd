import { describe, expect, it } from '@jest/globals';
import { firstFitDecreasingPacking, packBins, packBinsSync, PackingInputError, packingViolations, placeOnHosts } from '../../constructs/core/packing';
import { conflictBound, dualFeasibleBound, lowerBound, volumeBound } from '../../constructs/core/packing/lower-bounds';
import { placeWithBudget } from '../../constructs/core/packing/place-on-hosts';
import { toProblem } from '../../constructs/core/packing/problem';

describe('packBins and packBinsSync', () => {
  it('packs nothing into no bins', async () => {
    expect(await packBins({ capacity: [10, 10], items: [] })).toMatchObject({ bins: 0, binOf: [], lowerBound: 0, optimal: true });
    expect(packBinsSync({ capacity: [10], items: [] })).toMatchObject({ bins: 0, binOf: [] });
  });

  it('puts items of size zero into one bin', () => {
    expect(
      packBinsSync({
        capacity: [10, 10],
        items: [
          [0, 0],
          [0, 0],
        ],
      }),
    ).toMatchObject({ bins: 1, binOf: [0, 0], optimal: true });
  });

  it('accepts a dimension of capacity zero when no item needs it', () => {
    const result = packBinsSync({
      capacity: [10, 0],
      items: [
        [6, 0],
        [6, 0],
        [4, 0],
      ],
    });
    expect(result).toMatchObject({ bins: 2, optimal: true });
  });

  it('pairs items that only fit together crosswise (the vector case)', async () => {
    // Sorted by any single size, first fit opens three bins; the optimum pairs (8,2) with (2,8).
    const instance = {
      capacity: [10, 10],
      items: [
        [8, 2],
        [7, 3],
        [2, 8],
        [3, 7],
      ],
    };
    const result = await packBins(instance, { timeLimitMs: 200 });
    expect(result).toMatchObject({ bins: 2, optimal: true });
    expect(packingViolations(instance, result.binOf)).toEqual([]);
  });

  it('numbers bins by first use, so equal packings print the same', () => {
    const { binOf } = packBinsSync({ capacity: [10], items: [[9], [9], [1], [1]] });
    expect(binOf[0]).toBe(0);
    expect(binOf[1]).toBe(1);
  });

  it('beats first fit decreasing where a cleverer packing exists', async () => {
    // FFD by size puts 5+4 together and then strands the 3s; 5+3+2, 4+4+2, 3+3+... fits in three bins.
    const items = [[5], [4], [4], [3], [3], [3], [2], [2], [2], [2]];
    const instance = { capacity: [10], items };
    const result = await packBins(instance, { timeLimitMs: 300 });
    expect(result.bins).toBe(3);
    expect(result.bins).toBeLessThanOrEqual(firstFitDecreasingPacking(instance).bins);
    expect(packingViolations(instance, result.binOf)).toEqual([]);
  });

  it('finds the packing of items built from exact triplets, where every bin must be exactly full', () => {
    // Eight triplets, each summing to exactly (100, 100, 100), shuffled; greedy and local search rarely
    // find such packings, the exact cover of full bins does at once.
    const items: number[][] = [];
    for (let t = 0; t < 8; t++) {
      const a = [20 + 3 * t, 30 + t, 25 + 2 * t];
      const b = [35 - t, 31 + 2 * t, 40 - t];
      items.push(
        a,
        b,
        a.map((x, k) => 100 - x - b[k]),
      );
    }
    const shuffled = items
      .map((item, i) => ({ item, key: (i * 37) % items.length }))
      .sort((x, y) => x.key - y.key)
      .map((x) => x.item);
    const instance = { capacity: [100, 100, 100], items: shuffled };
    const result = packBinsSync(instance);
    expect(result).toMatchObject({ bins: 8, optimal: true });
    expect(packingViolations(instance, result.binOf)).toEqual([]);
  });

  it.each([
    [{ capacity: [10], items: [[11]] }, 'item 0 does not fit an empty bin: size[0] is 11 but the capacity is 10'],
    [{ capacity: [10, 10], items: [[1]] }, 'item 0 has 1 sizes but the capacity has 2 dimensions'],
    [{ capacity: [10], items: [[1.5]] }, 'item 0 size[0] must be a non-negative integer, got 1.5'],
    [{ capacity: [10], items: [[-1]] }, 'item 0 size[0] must be a non-negative integer, got -1'],
    [{ capacity: [2 ** 60], items: [[1]] }, 'capacity[0] must be a non-negative integer'],
  ])('rejects invalid input %#', (instance, message) => {
    expect(() => packBinsSync(instance)).toThrow(PackingInputError);
    expect(() => packBinsSync(instance)).toThrow(message);
  });
});

describe('lower bounds', () => {
  it('volume: the total size over the capacity, per dimension', () => {
    expect(
      volumeBound(
        toProblem({
          capacity: [10, 10],
          items: [
            [5, 1],
            [5, 1],
            [5, 1],
          ],
        }),
      ),
    ).toBe(2);
  });

  it('dual feasible function: items above half a bin each need their own bin', () => {
    // Three items of 6 cannot share bins though their total fits two.
    expect(dualFeasibleBound(toProblem({ capacity: [10], items: [[6], [6], [6]] }))).toBe(3);
  });

  it('conflicts: items that pairwise clash in some dimension each need a bin', () => {
    // Each pair clashes in one of the dimensions, though no single dimension has two big items... except pairwise.
    const p = toProblem({
      capacity: [10, 10, 10],
      items: [
        [6, 6, 0],
        [6, 0, 6],
        [0, 6, 6],
      ],
    });
    expect(volumeBound(p)).toBe(2);
    expect(conflictBound(p)).toBe(3);
    expect(lowerBound(p)).toBe(3);
  });
});

describe('placeOnHosts', () => {
  it('places items on hosts of different sizes and reports none unplaced when all fit', () => {
    const hosts = [{ capacity: [4, 8] }, { capacity: [16, 64] }];
    const items = [{ size: [8, 32] }, { size: [4, 8] }, { size: [4, 16] }];
    const { hostOf, unplaced } = placeOnHosts(hosts, items);
    expect(unplaced).toEqual([]);
    expect(hostOf[0]).toBe(1);
  });

  it('repairs what greedy best fit gets wrong by moving placed items', () => {
    // Largest first, best fit places five of six; 2+6+2 and 3+5+2 fill both hosts exactly.
    const hosts = [{ capacity: [10] }, { capacity: [10] }];
    const items = [2, 6, 2, 3, 5, 2].map((s) => ({ size: [s] }));
    expect(placeWithBudget(hosts, items, {}, 0).unplaced).toHaveLength(1);
    expect(placeOnHosts(hosts, items).unplaced).toEqual([]);
  });

  it('lists the items that cannot be placed, placing as many as possible', () => {
    const hosts = [{ capacity: [10] }];
    const { hostOf, unplaced } = placeOnHosts(hosts, [{ size: [6] }, { size: [3] }, { size: [3] }, { size: [12] }]);
    // 3 + 3 leaves room the 6 cannot use, 6 + 3 leaves 1: two items either way; the 12 never fits.
    expect(unplaced).toContain(3);
    expect(hostOf.filter((h) => h >= 0)).toHaveLength(2);
  });

  it('spreads the items of a group across hosts when asked', () => {
    const hosts = [{ capacity: [100] }, { capacity: [100] }, { capacity: [100] }];
    const items = Array.from({ length: 6 }, () => ({ size: [10], group: 7 }));
    const packed = placeOnHosts(hosts, items);
    const spread = placeOnHosts(hosts, items, { spreadGroups: true });
    expect(new Set(packed.hostOf).size).toBe(1);
    expect([0, 1, 2].map((h) => spread.hostOf.filter((x) => x === h).length)).toEqual([2, 2, 2]);
  });

  it('spreads only as far as it can without leaving an item out', () => {
    // The 8 fills host 1 almost; spreading both 5s would need host 1 too. Everything must still be placed.
    const hosts = [{ capacity: [10] }, { capacity: [10] }];
    const items = [
      { size: [5], group: 1 },
      { size: [5], group: 1 },
      { size: [8], group: 2 },
    ];
    const { hostOf, unplaced } = placeOnHosts(hosts, items, { spreadGroups: true });
    expect(unplaced).toEqual([]);
    expect(hostOf[0]).toBe(hostOf[1]);
  });

  it('rejects hosts and items of different dimensions', () => {
    expect(() => placeOnHosts([{ capacity: [1, 2] }], [{ size: [1] }])).toThrow('item 0 has 1 sizes, expected 2');
  });
});
