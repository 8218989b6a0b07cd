// The transition: how each pool's nodes are replaced when they cannot take a change in place, proven at plan time.
// The surge must fit the quota beside its VMs and migration room, and a host must have room for each surge VM; an
// explicit maxSurge that does not fit is refused with the peak named and the roll that fits proposed.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { RolloutSpec } from '../../constructs/core/input/disruption';
import { planModel, Plan } from '../../constructs/core/plan';
import { diffPlans, rollProblems, summarizeChanges } from '../../constructs/core/report';
import { Quantity } from '../../constructs/core/base/quantity';
import { renderJoinCloudConfig, renameJoinCloudConfig } from '../../constructs/render/cloud-init';
import { EXAMPLE_CA } from '../support/models';

/** One fleet of `hosts` hosts, one quota, one pool of `count` VMs of `cpu`/`memory`. */
function model(p: {
  hosts: number;
  count: number;
  cpu: number;
  memoryGi: number;
  quotaCpu: number;
  quotaMemoryGi: number;
  maxVms?: number;
  rollout?: RolloutSpec;
  placement?: 'spread' | 'planned';
  version?: string;
}): MetalsliceConfig {
  return {
    fleets: [{ name: 'f', hosts: Array.from({ length: p.hosts }, (_, i) => ({ name: `h${i}`, capacity: { cpu: 32, memory: '128Gi', disk: '4Ti' } })) }],
    quotas: [
      {
        name: 'q',
        fleet: 'f',
        organization: 'o',
        limits: { cpu: p.quotaCpu, memory: `${p.quotaMemoryGi}Gi` },
        ...(p.maxVms !== undefined ? { maxVirtualMachines: p.maxVms } : {}),
      },
    ],
    clusters: [{ name: 'c', endpoint: 'https://10.0.0.1:6443', caCertificate: EXAMPLE_CA, kubernetesVersion: p.version ?? '1.33' }],
    nodePools: [
      {
        name: 'web',
        quota: 'q',
        cluster: 'c',
        shape: { cpu: p.cpu, memory: `${p.memoryGi}Gi` },
        count: p.count,
        rootDisk: 'containerDisk',
        ...(p.placement ? { placement: p.placement } : {}),
        ...(p.rollout ? { rollout: p.rollout } : {}),
      },
    ],
  };
}

const rolloutOf = (plan: Plan) => plan.report.pools.find((p) => p.name === 'web')?.rollout;

describe('the plan proves the transition', () => {
  it('a surge that fits: maxSurge 1 on a named host, and the quota peak is the pool, its migration room and one more VM', () => {
    const plan = planModel(model({ hosts: 3, count: 3, cpu: 4, memoryGi: 16, quotaCpu: 40, quotaMemoryGi: 160 }));
    expect(plan.errors).toEqual([]);
    const rollout = rolloutOf(plan)!;
    expect(rollout).toMatchObject({ maxSurge: 1, maxUnavailable: 0, surgeHosts: ['h0'] });
    const quota = plan.report.quotas[0];
    const each = Quantity.parse(plan.vms[0].quotaDemand.cpu.toString());
    const peak = Quantity.parse(rollout.peak.cpu);
    expect(
      peak.cmp(
        Quantity.parse(quota.allocated.cpu)
          .add(Quantity.parse(quota.migrationHeadroom.cpu ?? '0'))
          .add(each),
      ),
    ).toBe(0);
  });

  it('an explicit surge the quota cannot hold is refused at rollout.maxSurge, naming the peak and the roll that fits', () => {
    // 3 VMs of 4 cpu and a migration room of one: 16 cores and a bit; 17 leaves no room for a fourth.
    const plan = planModel(model({ hosts: 3, count: 3, cpu: 4, memoryGi: 8, quotaCpu: 17, quotaMemoryGi: 160, rollout: { maxSurge: 1 } }));
    expect(plan.ok).toBe(false);
    expect(plan.errors).toHaveLength(1);
    expect(plan.errors[0].path).toBe('nodePools[0].rollout.maxSurge');
    expect(plan.errors[0].message).toMatch(
      /^a roll of pool "web" \(3 node\(s\)\) with \{maxSurge: 1\} does not fit: the surge of pool "web" does not fit quota "q" \(cpu: needs 4\.\d+ \(1 x 4\.\d+, each VM's launcher pod as KubeVirt requests it\), [\d.]+m? left of 17\)/,
    );
    expect(plan.errors[0].message).toContain('set rollout to {maxSurge: 0, maxUnavailable: 1}');
  });

  it('the default surge that does not fit falls back to one node out of service at a time, and says so', () => {
    const plan = planModel(model({ hosts: 3, count: 3, cpu: 4, memoryGi: 8, quotaCpu: 17, quotaMemoryGi: 160 }));
    expect(plan.errors).toEqual([]);
    expect(rolloutOf(plan)).toMatchObject({ maxSurge: 0, maxUnavailable: 1, surgeHosts: [] });
    expect(plan.warnings.map((w) => w.path)).toContain('nodePools[0].rollout');
    expect(plan.warnings.find((w) => w.path === 'nodePools[0].rollout')!.message).toContain('it rolls with {maxSurge: 0, maxUnavailable: 1} instead');
  });

  it("maxVirtualMachines bounds the surge like the quota's resources", () => {
    const plan = planModel(model({ hosts: 3, count: 3, cpu: 2, memoryGi: 4, quotaCpu: 60, quotaMemoryGi: 300, maxVms: 3, rollout: { maxSurge: 2 } }));
    expect(plan.errors.map((e) => e.path)).toEqual(['nodePools[0].rollout.maxSurge']);
  });

  it("a pinned pool's surge copies a VM and its pin: its host must have the room, or the roll falls back", () => {
    // Two hosts of 32 cores, each holding 7 pinned VMs of 4 cores (28, plus launcher overhead): no room for an eighth.
    const full = planModel(model({ hosts: 2, count: 14, cpu: 4, memoryGi: 4, quotaCpu: 63, quotaMemoryGi: 250, placement: 'planned' }));
    expect(full.errors).toEqual([]);
    expect(rolloutOf(full)).toMatchObject({ maxSurge: 0, maxUnavailable: 1 });
    expect(full.warnings.find((w) => w.path === 'nodePools[0].rollout')!.message).toContain(
      'the hosts its VMs are pinned to have room for 0 surge VM(s) beside the placed VMs',
    );
    const roomy = planModel(model({ hosts: 2, count: 12, cpu: 4, memoryGi: 4, quotaCpu: 60, quotaMemoryGi: 250, placement: 'planned' }));
    expect(rolloutOf(roomy)).toMatchObject({ maxSurge: 1, surgeHosts: [roomy.vms[0].host] });
  });

  it('a host with room for two surge VMs takes two, and each surge host holds its surge beside its VMs', () => {
    // 2 hosts of 32 cores, 4 VMs of 2 cores: maxSurge 3 puts two surge VMs on one host, fewest of the pool first.
    const plan = planModel(model({ hosts: 2, count: 4, cpu: 2, memoryGi: 4, quotaCpu: 60, quotaMemoryGi: 200, rollout: { maxSurge: 3 } }));
    expect(plan.errors).toEqual([]);
    const rollout = rolloutOf(plan)!;
    expect(rollout.maxSurge).toBe(3);
    expect([...rollout.surgeHosts].sort()).toEqual(['h0', 'h0', 'h1']);
    for (const host of new Set(rollout.surgeHosts)) {
      const vms = plan.vms.filter((vm) => vm.host === host);
      const surge = rollout.surgeHosts.filter((h) => h === host).length;
      const cpu = [...vms.map((vm) => vm.hostDemand.cpu), ...Array.from({ length: surge }, () => vms[0].hostDemand.cpu)].reduce((a, b) => a.add(b));
      expect(cpu.cmp(plan.fleets[0].hosts.find((h) => h.name === host)!.allocatable.cpu)).toBeLessThanOrEqual(0);
    }
  });

  it('refuses a rollout that could never replace a node, and values that are not node counts', () => {
    const none = planModel(model({ hosts: 3, count: 3, cpu: 2, memoryGi: 4, quotaCpu: 60, quotaMemoryGi: 300, rollout: { maxSurge: 0, maxUnavailable: 0 } }));
    expect(none.errors.map((e) => [e.path, e.message])).toEqual([
      ['nodePools[0].rollout.maxUnavailable', expect.stringContaining('no node could ever be replaced')],
    ]);
    const bad = planModel(model({ hosts: 3, count: 3, cpu: 2, memoryGi: 4, quotaCpu: 60, quotaMemoryGi: 300, rollout: { maxSurge: -1, maxUnavailable: 1.5 } }));
    expect(bad.errors.map((e) => e.path).sort()).toEqual(['nodePools[0].rollout.maxSurge', 'nodePools[0].rollout.maxUnavailable']);
  });

  it('property: whatever the pool and quota, the roll the plan settles on fits, and never surges more than asked', () => {
    fc.assert(
      fc.property(
        fc.record({
          hosts: fc.integer({ min: 1, max: 6 }),
          count: fc.integer({ min: 1, max: 12 }),
          cpu: fc.integer({ min: 1, max: 8 }),
          memoryGi: fc.integer({ min: 1, max: 32 }),
          quotaCpu: fc.integer({ min: 1, max: 200 }),
          quotaMemoryGi: fc.integer({ min: 1, max: 800 }),
          maxVms: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
          surge: fc.integer({ min: 0, max: 4 }),
          placement: fc.constantFrom('spread' as const, 'planned' as const),
        }),
        (p) => {
          const plan = planModel(model({ ...p, rollout: { maxSurge: p.surge, maxUnavailable: 1 } }));
          const rollout = rolloutOf(plan);
          if (!plan.ok || !rollout) return;
          const quota = plan.report.quotas[0];
          expect(rollout.maxSurge).toBeLessThanOrEqual(p.surge);
          // An explicit surge is never cut short silently: the plan fits with it whole, or refuses.
          expect(rollout.maxSurge).toBe(Math.min(p.surge, p.count));
          expect(rollout.surgeHosts).toHaveLength(rollout.maxSurge);
          for (const r of ['cpu', 'memory']) expect(Quantity.parse(rollout.peak[r]).cmp(Quantity.parse(quota.limits[r]))).toBeLessThanOrEqual(0);
          if (p.maxVms !== undefined) expect(quota.virtualMachines + rollout.maxSurge).toBeLessThanOrEqual(p.maxVms);
          // Each surge VM fits on its host beside the VMs placed there.
          const demand = plan.vms[0].hostDemand;
          for (const host of rollout.surgeHosts) {
            const h = plan.fleets[0].hosts.find((x) => x.name === host)!;
            const used = plan.vms.filter((v) => v.host === host).reduce((t, v) => t.add(v.hostDemand.cpu), Quantity.ZERO);
            expect(used.add(demand.cpu).cmp(h.allocatable.cpu)).toBeLessThanOrEqual(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('plan --previous proves the roll against the running fleet', () => {
  // A reshape's roll starts with every old node running at its old size: the surge joins beside them.
  const reshape = (old: { memoryGi: number; quotaMemoryGi: number }, now: { memoryGi: number; quotaMemoryGi: number }, rollout?: RolloutSpec) => {
    const base = { hosts: 3, count: 3, cpu: 2, quotaCpu: 40 };
    const before = planModel(model({ ...base, ...old }));
    const after = planModel(model({ ...base, ...now, ...(rollout ? { rollout } : {}) }));
    return { before, after, changes: diffPlans(before.report, after.report) };
  };

  it('a shrinking reshape whose surge fits the new plan but not beside the old, bigger nodes is refused, with the roll that fits', () => {
    // New plan: 3 VMs of 8Gi, room for one more and a surge under 60Gi. The old nodes are 16Gi each until replaced.
    const { before, after, changes } = reshape({ memoryGi: 16, quotaMemoryGi: 80 }, { memoryGi: 8, quotaMemoryGi: 60 });
    expect(after.ok).toBe(true);
    expect(rolloutOf(after)).toMatchObject({ maxSurge: 1 });
    const roll = changes.pools.find((p) => p.pool === 'web')!.roll!;
    // The peak counts the three old nodes at what each took from the quota (16Gi and its overhead), and the
    // migration room of the old, larger VM: that much more than the new plan says.
    const each = (plan: Plan) => Quantity.parse(rolloutOf(plan)!.each!.memory);
    const room = (plan: Plan) => Quantity.parse(plan.report.quotas[0].migrationHeadroom.memory);
    const more = each(before)
      .sub(each(after))
      .times(3)
      .add(room(before).sub(room(after)));
    expect(Quantity.parse(roll.peak.memory).cmp(Quantity.parse(rolloutOf(after)!.peak.memory).add(more))).toBe(0);
    expect(more.cmp(Quantity.parse('24Gi'))).toBeGreaterThanOrEqual(0);
    expect(roll.problem).toMatch(
      /^the surge of pool "web" does not fit quota "q" \(memory: needs [\d.]+ Gi \(1 x [\d.]+ Gi, each VM's launcher pod as KubeVirt requests it\), (0|[\d.]+ \w+) left of 60 Gi\), the nodes not yet replaced still at their old size$/,
    );
    expect(roll.fits).toEqual({ maxSurge: 0, maxUnavailable: 1 });
    const problems = rollProblems(changes, after.report);
    expect(problems.map((p) => p.path)).toEqual(['pools["web"].rollout']);
    expect(problems[0].message).toContain('set rollout to {maxSurge: 0, maxUnavailable: 1}, or raise the limits of quota "q"');
    expect(summarizeChanges(changes).join('\n')).toContain('the roll does not fit: the surge of pool "web" does not fit quota "q"');
  });

  it('a roll without surge peaks when its first node starts again, beside the other old nodes, not with all of them', () => {
    // 2 old nodes of 16Gi and one new of 8Gi, with the old migration room: about 57.6Gi; all three old: 65.6Gi.
    const { changes } = reshape({ memoryGi: 16, quotaMemoryGi: 80 }, { memoryGi: 8, quotaMemoryGi: 60 }, { maxSurge: 0, maxUnavailable: 1 });
    const roll = changes.pools.find((p) => p.pool === 'web')!.roll!;
    expect(roll.problem).toBeUndefined();
    expect(Quantity.parse(roll.peak.memory).cmp(Quantity.parse('60Gi'))).toBeLessThanOrEqual(0);
    expect(Quantity.parse(roll.peak.memory).cmp(Quantity.parse('56Gi'))).toBeGreaterThan(0);
  });

  it("a surge host that holds the old, bigger nodes has no room for the surge, though the new plan's host has", () => {
    // One host of 128Gi: three old VMs of 40Gi leave no room for a 30Gi surge; three new ones of 30Gi would.
    const base = { hosts: 1, count: 3, cpu: 2, quotaCpu: 40, quotaMemoryGi: 400 };
    const before = planModel(model({ ...base, memoryGi: 40 }));
    const after = planModel(model({ ...base, memoryGi: 30 }));
    expect(rolloutOf(after)).toMatchObject({ maxSurge: 1, surgeHosts: ['h0'] });
    const roll = diffPlans(before.report, after.report).pools.find((p) => p.pool === 'web')!.roll!;
    expect(roll.problem).toMatch(
      /^host h0 would hold memory [\d.]+ Gi of memory [\d.]+ Gi with 1 surge VM\(s\), the nodes not yet replaced still at their old size$/,
    );
    expect(roll.fits).toEqual({ maxSurge: 0, maxUnavailable: 1 });
  });

  it('a growing reshape peaks where the new plan says: no false alarm', () => {
    const { after, changes } = reshape({ memoryGi: 8, quotaMemoryGi: 100 }, { memoryGi: 16, quotaMemoryGi: 100 });
    const roll = changes.pools.find((p) => p.pool === 'web')!.roll!;
    expect(roll.peak).toEqual(rolloutOf(after)!.peak);
    expect(roll.problem).toBeUndefined();
    expect(rollProblems(changes, after.report)).toEqual([]);
  });

  it('when not even a roll without surge fits (limits cut below the running fleet), it says no roll does', () => {
    const { after, changes } = reshape({ memoryGi: 16, quotaMemoryGi: 80 }, { memoryGi: 4, quotaMemoryGi: 30 });
    const roll = changes.pools.find((p) => p.pool === 'web')!.roll!;
    expect(roll.problem).toBeDefined();
    expect(roll.fits).toBeUndefined();
    expect(rollProblems(changes, after.report)[0].message).toContain('no roll fits');
  });

  // A pool of a few nodes whose memory and quota change between two plans, either way.
  const memory = fc.integer({ min: 1, max: 24 });
  const quotaMemory = fc.integer({ min: 10, max: 400 });
  const change = fc.record({ count: fc.integer({ min: 1, max: 6 }), oldGi: memory, newGi: memory, oldQuotaGi: quotaMemory, newQuotaGi: quotaMemory });

  it('property: the peak is the quota when the roll first or last creates, old nodes at their old size; a roll let pass fits', () => {
    fc.assert(
      fc.property(change, (p) => {
        const base = { hosts: 4, count: p.count, cpu: 1, quotaCpu: 64 };
        const before = planModel(model({ ...base, memoryGi: p.oldGi, quotaMemoryGi: p.oldQuotaGi }));
        const after = planModel(model({ ...base, memoryGi: p.newGi, quotaMemoryGi: p.newQuotaGi }));
        const [old, now] = [rolloutOf(before), rolloutOf(after)];
        if (!before.ok || !after.ok || !old || !now || old.revision === now.revision) return;
        const roll = diffPlans(before.report, after.report).pools.find((x) => x.pool === 'web')!.roll!;
        const mem = (q: string | undefined) => Quantity.parse(q ?? '0');
        const [oldEach, newEach] = [mem(old.each?.memory), mem(now.each?.memory)];
        const quota = after.report.quotas[0];
        const [oldRoom, newRoom] = [mem(before.report.quotas[0].migrationHeadroom.memory), mem(quota.migrationHeadroom.memory)];
        // Independently: the quota when the roll first creates (the surge beside every old node, or with no surge
        // the first nodes out of service started again) and when it last creates (every node new, the surge
        // still there), with the larger migration room.
        const [n, s] = [p.count, now.maxSurge];
        const k = Math.min(n, Math.max(1, now.maxUnavailable));
        const firstCreate = s > 0 ? oldEach.times(n).add(newEach.times(s)) : oldEach.times(n - k).add(newEach.times(k));
        const lastCreate = newEach.times(n + s);
        const peak = (firstCreate.cmp(lastCreate) > 0 ? firstCreate : lastCreate).add(oldRoom.cmp(newRoom) > 0 ? oldRoom : newRoom);
        expect(mem(roll.peak.memory).cmp(peak)).toBe(0);
        if (roll.problem === undefined) expect(peak.cmp(mem(quota.limits.memory))).toBeLessThanOrEqual(0);
        else expect(peak.cmp(mem(quota.limits.memory)) > 0 || /host/.test(roll.problem)).toBe(true);
      }),
      { numRuns: 120 },
    );
  });
});

describe('one proof of a roll: the planner at rest and plan --previous against the running fleet agree', () => {
  // Random fleets, quotas, pools and rollouts; the previous plan is the same fleet at another Kubernetes version, so
  // every node is replaced and the running fleet is exactly the new plan at rest. The roll plan --previous proves
  // then is the planner's, field for field: a second proof of the roll that weighed a quota or a host its own way
  // would part from it.
  // Quotas and hosts sized around the pool, from tight (a surge may not fit) to roomy, so most plans fit at rest.
  const params = fc
    .record({
      count: fc.integer({ min: 1, max: 8 }),
      cpu: fc.integer({ min: 1, max: 12 }),
      memoryGi: fc.integer({ min: 1, max: 40 }),
      spareHosts: fc.integer({ min: 0, max: 2 }),
      quotaRoom: fc.double({ min: 1, max: 2, noNaN: true }),
      moreVms: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      placement: fc.constantFrom<'spread' | 'planned' | undefined>(undefined, 'spread', 'planned'),
      rollout: fc.option(
        fc
          .record({ maxSurge: fc.integer({ min: 0, max: 4 }), maxUnavailable: fc.integer({ min: 0, max: 3 }) })
          .filter((r) => r.maxSurge + r.maxUnavailable > 0),
        { nil: undefined },
      ),
    })
    .map(({ spareHosts, quotaRoom, moreVms, ...p }) => {
      // The pool and one VM of live-migration room, times the room; hosts (32 cores, 128Gi each) enough to hold the quota.
      const quotaCpu = Math.ceil((p.count + 1) * (p.cpu + 0.01) * quotaRoom);
      const quotaMemoryGi = Math.ceil((p.count + 1) * (p.memoryGi + 1.5) * quotaRoom);
      const hosts = Math.max(Math.ceil(quotaCpu / 31), Math.ceil(quotaMemoryGi / 126)) + spareHosts;
      return { ...p, maxVms: moreVms === undefined ? undefined : p.count + moreVms, hosts, quotaCpu, quotaMemoryGi };
    });

  it('property: every replaced pool rolls as the plan proved it, with its peak, and no problem', () => {
    fc.assert(
      fc.property(params, (p) => {
        const before = planModel(model({ ...p, version: '1.33' }));
        const after = planModel(model({ ...p, version: '1.34' }));
        const now = rolloutOf(after);
        if (!before.ok || !after.ok || !now) return;
        const changes = diffPlans(before.report, after.report);
        const pool = changes.pools.find((x) => x.pool === 'web')!;
        expect(pool.replaced).toBe(p.count);
        expect(pool.roll).toEqual({ maxSurge: now.maxSurge, maxUnavailable: now.maxUnavailable, surgeHosts: now.surgeHosts, peak: now.peak });
        expect(rollProblems(changes, after.report)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('property: a surge the planner refuses at rest, plan --previous refuses against the same fleet, naming the same roll that fits', () => {
    // maxVirtualMachines is left out: the VMs a roll adds do not depend on the old nodes' size, so the plan at rest
    // is the whole proof of that count, and a report does not carry it.
    fc.assert(
      fc.property(params, ({ maxVms: _maxVms, ...p }) => {
        // The roll the planner proved, asked for again with one more surge VM than it allowed.
        const proved = rolloutOf(planModel(model({ ...p, version: '1.34' })));
        if (!proved) return;
        const asked = { maxSurge: proved.maxSurge + 1, maxUnavailable: proved.maxUnavailable };
        const refused = planModel(model({ ...p, version: '1.34', rollout: asked }));
        const error = refused.errors.find((e) => e.path === 'nodePools[0].rollout.maxSurge');
        if (asked.maxSurge > p.count || error === undefined) return;
        // At rest: the fix names the roll the planner proved.
        expect(error.message).toContain(`set rollout to {maxSurge: ${proved.maxSurge}`);
        // Against the running fleet: the same roll, forced into a later plan's report, is refused the same way.
        const before = planModel(model({ ...p, version: '1.33' }));
        const after = planModel(model({ ...p, version: '1.34' }));
        const rollout = rolloutOf(after);
        if (!before.ok || !after.ok || !rollout) return;
        if (rollout.maxSurge !== proved.maxSurge || rollout.surgeHosts.length === 0) return;
        // A report's peak is the quota at its own maxSurge: one more surge VM is one more `each`.
        const peak = Object.fromEntries(
          Object.entries(rollout.peak).map(([r, q]) => [
            r,
            Quantity.parse(q)
              .add(Quantity.parse(rollout.each?.[r] ?? '0'))
              .toString(),
          ]),
        );
        const surgeHosts = [...rollout.surgeHosts, ...rollout.surgeHosts.slice(0, 1)];
        const forced = {
          ...after.report,
          pools: after.report.pools.map((x) => (x.name === 'web' ? { ...x, rollout: { ...rollout, maxSurge: asked.maxSurge, surgeHosts, peak } } : x)),
        };
        const roll = diffPlans(before.report, forced).pools.find((x) => x.pool === 'web')!.roll!;
        expect(roll.problem).toBeDefined();
        expect(roll.fits?.maxSurge).toBe(proved.maxSurge);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a node's revision", () => {
  const base = { hosts: 3, count: 3, cpu: 4, memoryGi: 16, quotaCpu: 60, quotaMemoryGi: 300 };
  const revision = (p: Partial<typeof base> & { version?: string; placement?: 'spread' | 'planned' }) =>
    rolloutOf(planModel(model({ ...base, ...p })))!.revision;

  it('changes with what a running node cannot take in place: its shape, the Kubernetes version it runs', () => {
    const now = revision({});
    expect(now).toMatch(/^[0-9a-f]{16}$/);
    expect(revision({ memoryGi: 20 })).not.toBe(now);
    expect(revision({ cpu: 6 })).not.toBe(now);
    expect(revision({ version: '1.34' })).not.toBe(now);
  });

  it('stays when only the count changes (scaling is not a new revision), and is the same on every plan of the same input', () => {
    expect(revision({ count: 4 })).toBe(revision({}));
    expect(revision({})).toBe(revision({}));
  });
});

describe('a surge node joins under its own name', () => {
  const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
  it('property: renaming a join document is the document rendered for the other name, token, labels and taints kept', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        const options = {
          endpoint: 'https://10.0.0.1:6443',
          caCertificate: EXAMPLE_CA,
          token: 'abcdef.0123456789abcdef',
          kubernetesVersion: '1.33',
          labels: { 'metalslice.io/pool': 'web', tier: 'a' },
          taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' as const }],
        };
        expect(renameJoinCloudConfig(renderJoinCloudConfig({ ...options, nodeName: a }), b)).toBe(renderJoinCloudConfig({ ...options, nodeName: b }));
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a document metalslice did not write', () => {
    expect(() => renameJoinCloudConfig('#!/bin/sh\necho hi\n', 'x')).toThrow('not a #cloud-config document');
    expect(() => renameJoinCloudConfig('#cloud-config\nhostname: a\n', 'x')).toThrow('writes no /etc/kubernetes/kubeadm-join.yaml');
  });
});
