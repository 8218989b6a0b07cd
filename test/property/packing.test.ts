import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { firstFitDecreasingPacking, packBins, packBinsSync, PackingInstance, packingViolations, placeOnHosts } from '../../constructs/core/packing';

/** Instances of 1 to 3 dimensions with up to `maxItems` items, every item fitting an empty bin. */
const instance = (maxItems: number): fc.Arbitrary<PackingInstance> =>
  fc.integer({ min: 1, max: 3 }).chain((d) =>
    fc
      .record({
        capacity: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: d, maxLength: d }),
        shares: fc.array(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: d, maxLength: d }), { maxLength: maxItems }),
      })
      .map(({ capacity, shares }) => ({
        capacity,
        items: shares.map((item) => item.map((share, k) => Math.floor((share * capacity[k]) / 100))),
      })),
  );

/** Every item in exactly one bin, no bin over capacity, bins numbered 0..bins-1 without gaps. */
function expectValidPacking(inst: PackingInstance, result: { bins: number; binOf: number[] }): void {
  expect(result.binOf).toHaveLength(inst.items.length);
  expect(packingViolations(inst, result.binOf)).toEqual([]);
  const used = new Set(result.binOf);
  expect(used.size).toBe(result.bins);
  for (const b of used) expect(b).toBeLessThan(result.bins);
}

describe('packBinsSync properties', () => {
  it('returns a valid packing, never worse than first fit decreasing, never below its lower bound', () => {
    fc.assert(
      fc.property(instance(40), (inst) => {
        const result = packBinsSync(inst, { iterations: 20_000 });
        expectValidPacking(inst, result);
        expect(result.bins).toBeLessThanOrEqual(firstFitDecreasingPacking(inst).bins);
        expect(result.bins).toBeGreaterThanOrEqual(result.lowerBound);
        expect(result.optimal).toBe(result.bins === result.lowerBound);
      }),
      { numRuns: 200 },
    );
  });

  it('is deterministic: the same input gives the same output', () => {
    fc.assert(
      fc.property(instance(40), (inst) => {
        expect(packBinsSync(inst, { iterations: 20_000 })).toEqual(packBinsSync(inst, { iterations: 20_000 }));
      }),
      { numRuns: 50 },
    );
  });
});

describe('packBins properties', () => {
  it('returns a valid packing, never worse than first fit decreasing (with and without the MILP)', async () => {
    await fc.assert(
      fc.asyncProperty(instance(25), fc.constantFrom('never' as const, 'auto' as const), async (inst, exact) => {
        const result = await packBins(inst, { timeLimitMs: 40, exact });
        expectValidPacking(inst, result);
        expect(result.bins).toBeLessThanOrEqual(firstFitDecreasingPacking(inst).bins);
        expect(result.bins).toBeGreaterThanOrEqual(result.lowerBound);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic when the work budget, not the clock, ends the search', async () => {
    await fc.assert(
      fc.asyncProperty(instance(25), async (inst) => {
        // 1 s of budget is far more wall time than the work it buys takes on 25 items.
        const first = await packBins(inst, { timeLimitMs: 1000, exact: 'never' });
        const second = await packBins(inst, { timeLimitMs: 1000, exact: 'never' });
        expect(second).toEqual(first);
      }),
      { numRuns: 15 },
    );
  });
});

/** A fleet of 1 to 8 hosts of various sizes and up to 40 items in up to 4 groups. */
const fleet = fc.integer({ min: 1, max: 3 }).chain((d) =>
  fc.record({
    hosts: fc.array(
      fc.array(fc.integer({ min: 0, max: 100 }), { minLength: d, maxLength: d }).map((capacity) => ({ capacity })),
      { minLength: 1, maxLength: 8 },
    ),
    items: fc.array(
      fc.record({
        size: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: d, maxLength: d }),
        group: fc.integer({ min: 0, max: 3 }),
      }),
      { maxLength: 40 },
    ),
  }),
);

describe('placeOnHosts properties', () => {
  it('places every item at most once, within every host capacity, and lists exactly the others as unplaced', () => {
    fc.assert(
      fc.property(fleet, fc.boolean(), ({ hosts, items }, spreadGroups) => {
        const { hostOf, unplaced } = placeOnHosts(hosts, items, { spreadGroups });
        expect(hostOf).toHaveLength(items.length);
        const load = hosts.map((h) => h.capacity.map(() => 0));
        hostOf.forEach((h, i) => {
          if (h < 0) return;
          expect(h).toBeLessThan(hosts.length);
          items[i].size.forEach((s, k) => (load[h][k] += s));
        });
        load.forEach((l, h) => l.forEach((x, k) => expect(x).toBeLessThanOrEqual(hosts[h].capacity[k])));
        expect(unplaced).toEqual(hostOf.flatMap((h, i) => (h < 0 ? [i] : [])));
      }),
      { numRuns: 200 },
    );
  });

  it('places everything when the items fit one bin-sized host each after packing into identical hosts', () => {
    fc.assert(
      fc.property(instance(30), (inst) => {
        // As many hosts as the packing engine needs bins: a placement of all items exists.
        const { bins } = packBinsSync(inst, { iterations: 10_000 });
        const hosts = Array.from({ length: bins }, () => ({ capacity: inst.capacity }));
        const { unplaced } = placeOnHosts(
          hosts,
          inst.items.map((size) => ({ size })),
        );
        expect(unplaced).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('spreading groups never leaves more items unplaced than packing without spreading', () => {
    fc.assert(
      fc.property(fleet, ({ hosts, items }) => {
        const plain = placeOnHosts(hosts, items);
        const spread = placeOnHosts(hosts, items, { spreadGroups: true });
        expect(spread.unplaced.length).toBeLessThanOrEqual(plain.unplaced.length);
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(fleet, fc.boolean(), ({ hosts, items }, spreadGroups) => {
        expect(placeOnHosts(hosts, items, { spreadGroups })).toEqual(placeOnHosts(hosts, items, { spreadGroups }));
      }),
      { numRuns: 50 },
    );
  });
});
