// The whole-drain proof of host groups (core/plan/groups.ts), on hand-made ledgers: one CPU dimension in
// millicores, pools confined by hand, the answer worked out in each comment.
import { describe, expect, it } from '@jest/globals';
import { GroupLedger, GroupPool } from '../../constructs/core/plan/groups';

const pool = (n: number, cpu: number): GroupPool => ({ n, size: [cpu], members: [], canPin: false, migrates: true });

function ledger(hostCpu: readonly number[], pools: readonly GroupPool[]): GroupLedger {
  return new GroupLedger(
    hostCpu.map((c) => [c]),
    new Map(pools.map((p, i) => [i, p])),
  );
}

describe('whole drain', () => {
  it('one VM per host needs room for a second on every other host: ceil(3 / 2) = 2 after a drain', () => {
    const roomy = ledger([2000, 2000, 2000], [pool(3, 1000)]);
    roomy.confine(0, [0, 1, 2], 1);
    expect(roomy.wholeDrain(0)).toBe(true);
    const tight = ledger([2000, 2000, 1999], [pool(3, 1000)]);
    tight.confine(0, [0, 1, 2], 1);
    expect(tight.wholeDrain(0)).toBe(false);
  });

  it('a pool that does not fill its group needs no more: 2 VMs over 3 hosts stay at one per host', () => {
    const l = ledger([1000, 1000, 1000], [pool(2, 1000)]);
    l.confine(0, [0, 1, 2], 1);
    expect(l.wholeDrain(0)).toBe(true);
  });

  it('a group of one host has nowhere to drain to', () => {
    const l = ledger([4000, 4000], [pool(2, 1000)]);
    l.confine(0, [0], 2);
    expect(l.wholeDrain(0)).toBe(false);
  });

  it('pools of different groups on one host are raised together: a rolling drain moves one into it, then the other', () => {
    // Host 0 holds a and b (1000 each). Draining host 1 sends it a second a, and the VMs stay when host 1
    // returns; draining host 2 then sends it a second b: 4000 at once. With 4000 it holds; 3999 does not.
    for (const [cap, proven] of [
      [4000, true],
      [3999, false],
    ] as const) {
      const l = ledger([cap, 4000, 4000], [pool(2, 1000), pool(2, 1000)]);
      l.confine(0, [0, 1], 1);
      l.confine(1, [0, 2], 1);
      expect([l.wholeDrain(0), l.wholeDrain(1)]).toEqual([proven, proven]);
    }
  });

  it('pinned load on a host counts, and a later change to the host is seen (the answer is not kept stale)', () => {
    const l = ledger([2500, 2500, 2500], [pool(3, 1000)]);
    l.confine(0, [0, 1, 2], 1);
    expect(l.wholeDrain(0)).toBe(true);
    l.addFixed(2, [501]);
    expect(l.wholeDrain(0)).toBe(false);
  });
});
