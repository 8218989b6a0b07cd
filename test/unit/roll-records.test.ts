// bench:roll's reading of a roll's records (bench/roll-records.ts): the most intervals open at once, the most VMs
// that existed at once, and each replaced node's stop..Ready interval, each against a plain recount.
import { describe, expect, it } from '@jest/globals';
import * as fc from 'fast-check';
import { Interval, maxInFlight, median, peakPresent, phases, replacements, RollRecord } from '../../bench/roll-records';

const intervals = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 })).map(([start, length]): Interval => ({ start, end: start + length })),
  { maxLength: 30 },
);

/** How many intervals hold `x`: the count the sweep must reach at its highest point. */
const holding = (xs: readonly Interval[], x: number): number => xs.filter((i) => i.start <= x && x <= i.end).length;

describe('maxInFlight', () => {
  it('is the most intervals that hold any one point', () => {
    fc.assert(
      fc.property(intervals, (xs) => {
        const most = Math.max(0, ...xs.map((i) => holding(xs, i.start)));
        expect(maxInFlight(xs)).toBe(most);
      }),
    );
  });

  it('counts batches: k nodes stopped together and Ready before the next batch stops are k in flight, not more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 8 }), (k, batches) => {
        // Batch b's nodes stop at 100b + j and are Ready at 100b + 50 + j: they overlap each other, not the next batch.
        const xs = Array.from({ length: k * batches }, (_, n) => {
          const [b, j] = [Math.floor(n / k), n % k];
          return { start: 100 * b + j, end: 100 * b + 50 + j };
        });
        expect(maxInFlight(xs)).toBe(k);
      }),
    );
  });

  it('counts two intervals that touch as overlapping, and none as 0', () => {
    expect(
      maxInFlight([
        { start: 1, end: 3 },
        { start: 3, end: 5 },
      ]),
    ).toBe(2);
    expect(maxInFlight([])).toBe(0);
  });
});

const vmEvent = (rv: number, type: RollRecord['type'], name: string): RollRecord => ({ kind: 'VirtualMachine', type, name, rv, at: rv });

describe('peakPresent', () => {
  it('is the most VMs present after any event from fromRv on, whatever order the records were kept in', () => {
    const ops = fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 8 })), { maxLength: 40 });
    fc.assert(
      fc.property(ops, fc.integer({ min: 0, max: 40 }), fc.boolean(), (steps, from, shuffle) => {
        // A valid history: a VM is added only when absent, deleted only when present (else it is modified).
        const present = new Set<string>();
        const records = steps.map(([add, i], k) => {
          const name = `vm-${i}`;
          const type = add && !present.has(name) ? 'ADDED' : !add && present.has(name) ? 'DELETED' : 'MODIFIED';
          if (type === 'ADDED') present.add(name);
          if (type === 'DELETED') present.delete(name);
          return vmEvent(k + 1, type, name);
        });
        const counts = records.map((_, k) => {
          const live = new Set<string>();
          for (const r of records.slice(0, k + 1)) {
            if (r.type === 'DELETED') live.delete(r.name);
            else live.add(r.name);
          }
          return live.size;
        });
        const before = from === 0 ? 0 : (counts[Math.min(from, counts.length) - 1] ?? 0);
        const peak = Math.max(before, ...counts.slice(from));
        const kept = shuffle ? [...records].reverse() : records;
        expect(peakPresent(kept, from)).toEqual({ before, peak });
      }),
    );
  });

  it('leaves Node events out', () => {
    const records: RollRecord[] = [vmEvent(1, 'ADDED', 'a'), { kind: 'Node', type: 'ADDED', name: 'b', rv: 2, at: 2 }, vmEvent(3, 'ADDED', 'c')];
    expect(peakPresent(records, 1)).toEqual({ before: 1, peak: 2 });
  });
});

describe('replacements', () => {
  const node = (rv: number, name: string, ready: boolean, type: RollRecord['type'] = 'MODIFIED', cordoned = false): RollRecord => ({
    kind: 'Node',
    type,
    name,
    rv,
    at: rv * 10,
    ready,
    cordoned,
  });
  const halt = (rv: number, name: string): RollRecord => ({ kind: 'VirtualMachine', type: 'MODIFIED', name, rv, at: rv * 10, halted: true });

  it('takes the first stop after fromRv, when the cordon before it began, and the first Ready Node after it; a node not Ready again is left out', () => {
    const records = [
      halt(1, 'web-0'), // before the roll
      node(2, 'web-0', true),
      node(3, 'web-0', true, 'MODIFIED', true),
      node(4, 'web-0', true, 'MODIFIED', true), // modified again while cordoned: the drain began at 3
      halt(5, 'web-0'),
      node(6, 'web-0', true, 'DELETED'),
      node(7, 'web-0', false, 'ADDED'),
      node(8, 'web-0', true),
      halt(9, 'web-1'),
    ];
    expect(replacements(records, ['web-0', 'web-1', 'web-2'], 2)).toEqual([{ name: 'web-0', cordonAt: 30, stopRv: 5, readyRv: 8, stopAt: 50, readyAt: 80 }]);
    // No cordon recorded: the drain's start is the stop's.
    expect(replacements(records, ['web-0'], 4)[0].cordonAt).toBe(50);
  });
});

describe('phases', () => {
  const at = (rv: number, kind: RollRecord['kind'], type: RollRecord['type'], name: string, extra: Partial<RollRecord> = {}): RollRecord => ({
    kind,
    type,
    name,
    rv,
    at: rv * 1000,
    ...extra,
  });

  it("splits a roll into its surge, its replacements and its surge's end, a VM not of the pool being a surge", () => {
    const records = [
      at(1, 'VirtualMachine', 'ADDED', 'web-0'), // before the roll
      at(3, 'VirtualMachine', 'ADDED', 'web-0-surge'),
      at(4, 'Node', 'ADDED', 'web-0-surge', { ready: true }),
      at(6, 'VirtualMachine', 'MODIFIED', 'web-0', { halted: true }),
      at(7, 'VirtualMachine', 'MODIFIED', 'web-1', { halted: true }),
      at(9, 'Node', 'MODIFIED', 'web-1', { ready: true }),
      at(12, 'Node', 'MODIFIED', 'web-0', { ready: true }),
      at(13, 'VirtualMachine', 'DELETED', 'web-1-surge'),
      at(15, 'VirtualMachine', 'DELETED', 'web-0-surge'),
    ];
    expect(phases(records, ['web-0', 'web-1'], 2)).toEqual({ surgeSeconds: 3, replaceSeconds: 6, endSeconds: 3 });
    // No surge and no replacement seen: each phase NaN.
    expect(phases(records, ['web-0', 'web-1'], 15)).toEqual({ surgeSeconds: NaN, replaceSeconds: NaN, endSeconds: NaN });
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
