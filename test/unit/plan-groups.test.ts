// The whole-drain proof of host groups (core/plan/groups.ts), on hand-made ledgers: one CPU dimension in
// millicores, pools confined by hand, the answer worked out in each comment.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { GroupLedger, GroupPool } from '../../constructs/core/plan/groups';
import { planModel } from '../../constructs/core/plan';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { hostGroupLabel } from '../../constructs/core/naming/derived';
import { fleet, hosts, model, pool as poolSpec, quota, roomForVms } from '../support/models';

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

describe('a pool scaled by one', () => {
  // Hosts that offer VMs 8 CPUs: nine or more pools of 1-CPU VMs spread over the whole fleet could put nine on one
  // host, so the plan confines each pool to a group of its own (n + 1 hosts, one VM each). Growing one pool must
  // take one more host of its own and leave every other pool's group as it was: the deploy changes that host's
  // labels and the new node, not Node labels across the fleet.
  const planOf = (m: MetalsliceConfig) => {
    const plan = planModel(m);
    expect(plan.errors).toEqual([]);
    return plan;
  };
  const groupsOf = (plan: ReturnType<typeof planModel>): Map<string, readonly string[]> =>
    new Map(plan.vms.map((vm) => [vm.poolPath, vm.hostGroup?.hosts ?? []]));
  const hostsOf = (plan: ReturnType<typeof planModel>): Map<string, string | undefined> => new Map(plan.vms.map((vm) => [vm.name, vm.host]));
  const fleetOf = (hostCount: number, counts: readonly number[], grown: number): MetalsliceConfig =>
    model({
      fleets: [fleet('f', hosts(hostCount, roomForVms({ cpu: 8, memory: '64Gi', disk: '1Ti' })))],
      quotas: [quota('q', 'f', { cpu: 140, memory: '200Gi', disk: '1Ti' })],
      nodePools: counts.map((n, i) => poolSpec(`p${i}`, 'q', { cpu: 1, memory: '1Gi' }, n + (i === grown ? 1 : 0), { rootDisk: 'containerDisk' })),
    });

  it("takes one more host of its own, moves no other pool's group and no VM's planned host", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 40 }),
        fc.array(fc.integer({ min: 2, max: 10 }), { minLength: 9, maxLength: 12 }),
        fc.nat(),
        (hostCount, counts, pick) => {
          const grown = pick % counts.length;
          const [planBefore, planAfter] = [planOf(fleetOf(hostCount, counts, -1)), planOf(fleetOf(hostCount, counts, grown))];
          const [before, after] = [groupsOf(planBefore), groupsOf(planAfter)];
          // And no VM's planned host changes (plan --previous would count it as moved): only the new VM is placed.
          const hostsAfter = hostsOf(planAfter);
          for (const [vm, host] of hostsOf(planBefore)) expect({ vm, host: hostsAfter.get(vm) }).toEqual({ vm, host });
          for (const [poolPath, hostsBefore] of before) {
            // Not vacuous: every pool is confined to a group of n + 1 of the fleet's hosts.
            expect(hostsBefore.length).toBeGreaterThan(1);
            if (poolPath === `nodePools[${grown}]`) {
              expect(after.get(poolPath)!.length).toBe(hostsBefore.length + 1);
              expect(after.get(poolPath)).toEqual(expect.arrayContaining([...hostsBefore]));
            } else expect(after.get(poolPath)).toEqual(hostsBefore);
          }
        },
      ),
      { numRuns: 40, seed: 54 },
    );
  });
});

describe('the groups the last deploy gave (hostGroups)', () => {
  type Plan = ReturnType<typeof planModel>;
  const groupsOf = (plan: Plan): Map<string, readonly string[]> => new Map(plan.vms.map((vm) => [vm.pool, vm.hostGroup?.hosts ?? []]));
  /** Each host's group labels as the deploy of `plan` writes them to its Node, and `metalslice inventory` reads them back. */
  const labelsOf = (plan: Plan): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    for (const [pool, hs] of groupsOf(plan)) for (const h of hs) out.set(h, [...(out.get(h) ?? []), hostGroupLabel('prod', pool)]);
    return out;
  };
  /** Live-migrating pools of `cpus[i]`-CPU VMs on hosts offering 8 CPUs, `grown` one VM larger, the hosts in `groups`. */
  /** Each host's VMs of `plan` as `metalslice inventory` reads them from the launcher pods bound there. */
  const runningOf = (plan: Plan): Map<string, { name: string; requests: Record<string, string> }[]> => {
    const out = new Map<string, { name: string; requests: Record<string, string> }[]>();
    for (const vm of plan.vms) {
      const requests = { cpu: vm.hostDemand.cpu.toString(), memory: vm.hostDemand.memory.toString() };
      out.set(vm.host!, [...(out.get(vm.host!) ?? []), { name: `${vm.namespace}/${vm.name}`, requests }]);
    }
    return out;
  };
  const fleetOf = (
    hostCount: number,
    counts: readonly number[],
    cpus: readonly number[],
    grown = -1,
    groups?: Map<string, string[]>,
    running?: Map<string, { name: string; requests: Record<string, string> }[]>,
  ): MetalsliceConfig =>
    model({
      fleets: [
        fleet(
          'f',
          hosts(hostCount, roomForVms({ cpu: 8, memory: '64Gi', disk: '1Ti' })).map((h) => ({
            ...h,
            ...(groups?.has(h.name) ? { hostGroups: groups.get(h.name) } : {}),
            ...(running?.has(h.name) ? { pods: { count: 0, requests: {}, virtualMachines: running.get(h.name) } } : {}),
          })),
        ),
      ],
      quotas: [quota('q', 'f', { cpu: hostCount * 8, memory: '400Gi', disk: '1Ti' })],
      nodePools: counts.map((n, i) => poolSpec(`p${i}`, 'q', { cpu: cpus[i], memory: '1Gi' }, n + (i === grown ? 1 : 0), { rootDisk: 'containerDisk' })),
    });
  const planOf = (m: MetalsliceConfig): Plan => {
    const plan = planModel(m);
    expect(plan.errors).toEqual([]);
    return plan;
  };

  it("keep a pool's group when another pool grows into one of its hosts", () => {
    // Planned afresh, p0 grown by one takes bm-08 as its eighth host, the first of its own order that fits, and
    // p9, planned after it, no longer fits bm-08 and moves to bm-02: two more Node labels change. With the groups
    // the deploy wrote, p9 keeps its hosts first and p0 grows around it.
    const counts = [6, 2, 9, 2, 3, 6, 7, 10, 6, 5, 7];
    const cpus = [2, 2, 2, 2, 3, 2, 3, 2, 3, 2, 1];
    const before = planOf(fleetOf(28, counts, cpus));
    const [was, afresh, kept] = [
      groupsOf(before),
      groupsOf(planOf(fleetOf(28, counts, cpus, 0))),
      groupsOf(planOf(fleetOf(28, counts, cpus, 0, labelsOf(before)))),
    ];
    expect(afresh.get('p9')).not.toEqual(was.get('p9'));
    for (const [pool, hs] of was)
      if (pool === 'p0') {
        expect(kept.get(pool)).toHaveLength(hs.length + 1);
        expect(kept.get(pool)).toEqual(expect.arrayContaining([...hs]));
      } else expect({ pool, hosts: kept.get(pool) }).toEqual({ pool, hosts: hs });
  });

  it('hold the VMs already running in them: an inventory read after the deploy lists them, and the groups stay', () => {
    // Without the groups, a spread pool's running VMs could lie outside any group the search finds, so the plan
    // gives up grouping; with them, each pool is kept where its VMs run, and p0 grown by one grows around the rest.
    const counts = [6, 2, 9, 2, 3, 6, 7, 10, 6, 5, 7];
    const cpus = [2, 2, 2, 2, 3, 2, 3, 2, 3, 2, 1];
    const before = planOf(fleetOf(28, counts, cpus));
    const running = runningOf(before);
    const unlabelled = planOf(fleetOf(28, counts, cpus, -1, undefined, running));
    expect(groupsOf(unlabelled)).not.toEqual(groupsOf(before));
    const again = planOf(fleetOf(28, counts, cpus, -1, labelsOf(before), running));
    expect(groupsOf(again)).toEqual(groupsOf(before));
    const hostOf = (plan: Plan) => new Map(plan.vms.map((vm) => [vm.name, vm.host]));
    expect(hostOf(again)).toEqual(hostOf(before));
    const grown = planOf(fleetOf(28, counts, cpus, 0, labelsOf(before), running));
    for (const [pool, hs] of groupsOf(before)) if (pool !== 'p0') expect({ pool, hosts: groupsOf(grown).get(pool) }).toEqual({ pool, hosts: hs });
    for (const [vm, host] of hostOf(before)) expect({ vm, host: hostOf(grown).get(vm) }).toEqual({ vm, host });
  });

  it('kept without a whole drain, a pool may search again and prove more: the plan after that one is the same', () => {
    // Every pool of the first plan has a migration target, but only one a whole drain. From its own labels the plan
    // lets p7 and p8 search again around the others, and they find groups that prove two whole drains.
    const counts = [5, 7, 10, 4, 10, 10, 10, 5, 4];
    const cpus = [3, 2, 2, 3, 2, 3, 2, 1, 1];
    const drains = (plan: Plan) => new Set(plan.vms.filter((vm) => vm.hostGroup?.wholeDrain).map((vm) => vm.pool)).size;
    const first = planOf(fleetOf(24, counts, cpus));
    const again = planOf(fleetOf(24, counts, cpus, -1, labelsOf(first)));
    expect(groupsOf(again)).not.toEqual(groupsOf(first));
    expect(drains(again)).toBeGreaterThan(drains(first));
    expect(groupsOf(planOf(fleetOf(24, counts, cpus, -1, labelsOf(again))))).toEqual(groupsOf(again));
  });

  it('planned again from what the deploy wrote, move nothing once settled, and nothing at all where every pool had a whole drain', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 1, max: 3 })), { minLength: 9, maxLength: 12 }),
        (hostCount, pools) => {
          const [counts, cpus] = [pools.map((p) => p[0]), pools.map((p) => p[1])];
          const first = planModel(fleetOf(hostCount, counts, cpus));
          fc.pre(first.errors.length === 0);
          const again = planOf(fleetOf(hostCount, counts, cpus, -1, labelsOf(first)));
          // A plan whose every pool is in a group with a whole drain is kept whole from its own labels. Otherwise a pool
          // kept without one searches again and may prove more, and that plan is kept in turn.
          if (first.vms.every((vm) => vm.hostGroup?.hosts && vm.hostGroup.wholeDrain)) expect(groupsOf(again)).toEqual(groupsOf(first));
          expect(groupsOf(planOf(fleetOf(hostCount, counts, cpus, -1, labelsOf(again))))).toEqual(groupsOf(again));
        },
      ),
      { numRuns: 40, seed: 80 },
    );
  });
});

describe("a pool's own host order", () => {
  it('never costs a whole drain that packing the hosts fullest first proves', () => {
    // Live-migrating pools of 1 to 3 CPUs on 20 hosts offering 8. In their own host orders alone, four of the nine
    // pools lost the proof that a drain of any host of their group leaves every VM room; packed fullest first,
    // every pool has it, so the plan takes the packed groups.
    const counts = [13, 12, 8, 2, 2, 17, 6, 7, 15];
    const cpus = [1, 1, 1, 1, 2, 1, 3, 1, 1];
    const plan = planModel(
      model({
        fleets: [fleet('f', hosts(20, roomForVms({ cpu: 8, memory: '64Gi', disk: '1Ti' })))],
        quotas: [quota('q', 'f', { cpu: 160, memory: '400Gi', disk: '1Ti' })],
        nodePools: counts.map((n, i) => poolSpec(`p${i}`, 'q', { cpu: cpus[i], memory: '1Gi' }, n, { rootDisk: 'containerDisk' })),
      }),
    );
    expect(plan.errors).toEqual([]);
    const groups = new Map(plan.vms.map((vm) => [vm.pool, vm.hostGroup]));
    expect(groups.size).toBe(9);
    for (const [name, group] of groups)
      expect({ name, hosts: (group?.hosts?.length ?? 0) > 1, wholeDrain: group?.wholeDrain }).toEqual({ name, hosts: true, wholeDrain: true });
  });
});
