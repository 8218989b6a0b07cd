import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseConfigText } from '../../constructs/core/input/config';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import {
  addResources,
  fitsWithin,
  formatResources,
  get,
  normalizeResources,
  ResourceVector,
  subtractResources,
  sumResources,
} from '../../constructs/core/base/resources';
import { PlannedVm } from '../../constructs/core/vm/vm';
import { cluster } from '../support/models';

const gi = (n: number) => `${n}Gi`;

/** Random fleets of 1-8 hosts, quotas, elastic pools and static auto-node pools; some fit, some do not. */
const models = fc
  .record({
    hosts: fc.array(fc.record({ cpu: fc.integer({ min: 8, max: 128 }), memory: fc.integer({ min: 16, max: 1024 }) }), { minLength: 1, maxLength: 8 }),
    quotas: fc.array(
      fc.record({
        cpu: fc.integer({ min: 1, max: 256 }),
        memory: fc.integer({ min: 4, max: 2048 }),
        maxVms: fc.option(fc.integer({ min: 0, max: 20 })),
        migrations: fc.integer({ min: 0, max: 2 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    pools: fc.array(
      fc.record({
        quota: fc.nat(),
        cpu: fc.integer({ min: 1, max: 32 }),
        memory: fc.integer({ min: 1, max: 128 }),
        count: fc.integer({ min: 0, max: 12 }),
        planned: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
    statics: fc.array(fc.record({ quota: fc.nat(), quantity: fc.integer({ min: 0, max: 8 }) }), { maxLength: 2 }),
  })
  .map(({ hosts, quotas, pools, statics }): MetalsliceConfig => ({
    clusters: [cluster()],
    fleets: [
      {
        name: 'f',
        reservedPerHost: { cpu: 1, memory: '2Gi' },
        hosts: hosts.map((h, i) => ({ name: `h-${i}`, capacity: { cpu: h.cpu, memory: gi(h.memory) } })),
      },
    ],
    quotas: quotas.map((q, i) => ({
      name: `q-${i}`,
      fleet: 'f',
      organization: 'o',
      limits: { cpu: q.cpu, memory: gi(q.memory) },
      liveMigrations: q.migrations,
      ...(q.maxVms !== null ? { maxVirtualMachines: q.maxVms } : {}),
    })),
    nodePools: pools.map((p, i) => ({
      name: `p-${i}`,
      quota: `q-${p.quota % quotas.length}`,
      cluster: 'prod',
      shape: { cpu: p.cpu, memory: gi(p.memory) },
      count: p.count,
      rootDisk: 'containerDisk' as const,
      placement: p.planned ? ('planned' as const) : ('spread' as const),
    })),
    nodeProviders: [{ name: 'virt', kind: 'kubevirt', fleet: 'f', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }] }],
    autoNodes: statics.map((a, i) => ({
      cluster: 'prod',
      provider: 'virt',
      quota: `q-${a.quota % quotas.length}`,
      static: [{ name: `s-${i}`, quantity: a.quantity }],
    })),
  }));

/** One quota with room for everything, on 2-6 equal hosts: plans that are ok are often tight. */
const crowdedFleets = fc
  .record({
    hosts: fc.integer({ min: 2, max: 6 }),
    cpu: fc.integer({ min: 8, max: 48 }),
    pools: fc.array(
      fc.record({
        cpu: fc.integer({ min: 1, max: 16 }),
        memory: fc.integer({ min: 1, max: 32 }),
        count: fc.integer({ min: 1, max: 14 }),
        planned: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ hosts, cpu, pools }): MetalsliceConfig => ({
    clusters: [cluster()],
    fleets: [
      {
        name: 'f',
        reservedPerHost: { cpu: 1, memory: '2Gi' },
        hosts: Array.from({ length: hosts }, (_, i) => ({ name: `h-${i}`, capacity: { cpu, memory: gi(cpu * 4) } })),
      },
    ],
    // All the fleet offers VMs: each host's allocatable less reservedPerHost and virt-handler's 10m and 325Mi.
    quotas: [
      {
        name: 'q',
        fleet: 'f',
        organization: 'o',
        limits: { cpu: `${((cpu - 1) * 1000 - 10) * hosts}m`, memory: `${((cpu * 4 - 2) * 1024 - 325) * hosts}Mi` },
        liveMigrations: 0,
      },
    ],
    nodePools: pools.map((p, i) => ({
      name: `p-${i}`,
      quota: 'q',
      cluster: 'prod',
      shape: { cpu: p.cpu, memory: gi(p.memory) },
      count: p.count,
      rootDisk: 'containerDisk' as const,
      placement: p.planned ? ('planned' as const) : ('spread' as const),
    })),
  }));

/** Only the resources a quota limits (cpu and memory always). */
function limitedBy(v: ResourceVector, limits: ResourceVector): ResourceVector {
  return Object.fromEntries(
    Object.keys(v)
      .filter((r) => r === 'cpu' || r === 'memory' || limits[r] !== undefined)
      .map((r) => [r, v[r]]),
  );
}

describe('planner properties', () => {
  it('when a plan is ok, every VM of the one list has a host, no host is over its allocatable, no quota over its limits or VM count', () => {
    fc.assert(
      fc.property(models, (model) => {
        const plan = planModel(model);
        if (!plan.ok) return;
        const used = new Map<string, ResourceVector>();
        const perQuota = new Map<string, ResourceVector>();
        const count = new Map<string, number>();
        for (const vm of plan.vms.filter((v) => v.concrete)) {
          perQuota.set(vm.quota, addResources(perQuota.get(vm.quota) ?? {}, vm.quotaDemand));
          count.set(vm.quota, (count.get(vm.quota) ?? 0) + 1);
          expect(vm.host).toBeDefined();
          used.set(vm.host!, addResources(used.get(vm.host!) ?? {}, vm.hostDemand));
        }
        // Hosts do not report ephemeral storage here, so it is not a placement dimension.
        for (const host of plan.fleets[0].hosts) expect(fitsWithin(limitedBy(used.get(host.name) ?? {}, host.allocatable), host.allocatable)).toBe(true);
        for (const quota of plan.quotas) {
          expect(fitsWithin(limitedBy(perQuota.get(quota.name) ?? {}, quota.limits), quota.limits)).toBe(true);
          if (quota.spec.maxVirtualMachines !== undefined) expect(count.get(quota.name) ?? 0).toBeLessThanOrEqual(quota.spec.maxVirtualMachines);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('kube-scheduler binds every VM of an ok plan, whatever the creation order and whichever host its filters allow it to choose; a drain leaves every migrating VM a target, and rolling drains every VM where a whole drain is claimed', () => {
    // An adversarial scheduler with kube-scheduler's filters as metalslice renders them: NodeResourcesFit,
    // a required node affinity for pinned VMs and for a pool's host group, and PodTopologySpread (maxSkew 1,
    // DoNotSchedule, per pool, over the hosts its affinity allows); the order and every choice among allowed
    // hosts are random. Then a random host is drained (cordoned, so the spread no longer counts it): each VM
    // there of a pool whose group claims migration targets must find a host its filters allow.
    fc.assert(
      fc.property(fc.oneof(models, crowdedFleets), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (model, seed) => {
        const plan = planModel(model);
        if (!plan.ok) return;
        let a = seed;
        const random = (n: number): number => {
          a = (Math.imul(a, 48271) % 2147483647) >>> 0;
          return a % n;
        };
        const hosts = plan.fleets[0].hosts;
        const vms = plan.vms.filter((v) => v.concrete);
        for (let i = vms.length - 1; i > 0; i--) {
          const j = random(i + 1);
          [vms[i], vms[j]] = [vms[j], vms[i]];
        }
        const used = hosts.map((): ResourceVector => ({}));
        const perPool = new Map<string, number[]>();
        const hostOf = new Map<PlannedVm, number>();
        // Half the time the adversary picks at random, half the time the fullest host it may (what strands most).
        const ratio = (a: Quantity | undefined, b: Quantity) => (a && !b.isZero() ? a.toNumber() / b.toNumber() : 0);
        const fill = (i: number) => Math.max(...Object.keys(hosts[i].allocatable).map((r) => ratio(used[i][r], hosts[i].allocatable[r])));
        const pick = (allowed: number[]) => (random(2) === 0 ? allowed[random(allowed.length)] : allowed.reduce((a, b) => (fill(b) > fill(a) ? b : a)));
        const fits = (i: number, vm: PlannedVm) => fitsWithin(limitedBy(addResources(used[i], vm.hostDemand), hosts[i].allocatable), hosts[i].allocatable);
        const allowedFor = (vm: PlannedVm, cordoned: number) => {
          const counts = perPool.get(vm.poolPath) ?? hosts.map(() => 0);
          const inGroup = hosts.map((h, i) => i !== cordoned && (vm.hostGroup?.hosts === undefined || vm.hostGroup.hosts.includes(h.name)));
          const fewest = Math.min(...counts.filter((_, i) => inGroup[i]));
          return hosts
            .map((_, i) => i)
            .filter((i) => (vm.placement === 'planned' ? hosts[i].name === vm.host && i !== cordoned : inGroup[i] && counts[i] === fewest))
            .filter((i) => fits(i, vm));
        };
        for (const vm of vms) {
          const counts = perPool.get(vm.poolPath) ?? hosts.map(() => 0);
          perPool.set(vm.poolPath, counts);
          const allowed = allowedFor(vm, -1);
          expect(allowed.length).toBeGreaterThan(0);
          const h = pick(allowed);
          used[h] = addResources(used[h], vm.hostDemand);
          counts[h]++;
          hostOf.set(vm, h);
        }
        const drained = random(hosts.length);
        for (const vm of vms) {
          if (hostOf.get(vm) !== drained || vm.placement !== 'spread' || (vm.hostGroup?.migrationTargets ?? 0) === 0) continue;
          expect(allowedFor(vm, drained).length).toBeGreaterThan(0);
        }
        // Then hosts drain one after another, as in a rolling update: every spread VM on the drained host moves,
        // in a random order, to a host the adversary picks among those its filters allow (VMs that do not
        // migrate are restarted, and take room too), and stays there when the host returns. Each VM of a pool
        // whose group claims a whole drain must find a host, drain after drain.
        const drainAll = (from: number) => {
          const moving = vms.filter((vm) => hostOf.get(vm) === from && vm.placement === 'spread');
          for (let i = moving.length - 1; i > 0; i--) {
            const j = random(i + 1);
            [moving[i], moving[j]] = [moving[j], moving[i]];
          }
          for (const vm of moving) {
            const allowed = allowedFor(vm, from);
            if (vm.hostGroup?.wholeDrain) expect(allowed.length).toBeGreaterThan(0);
            if (allowed.length === 0) continue;
            const h = pick(allowed);
            const counts = perPool.get(vm.poolPath)!;
            used[h] = addResources(used[h], vm.hostDemand);
            used[from] = subtractResources(used[from], vm.hostDemand);
            counts[h]++;
            counts[from]--;
            hostOf.set(vm, h);
          }
        };
        for (let round = 0, next = drained; round < 3; round++, next = (next + 1 + random(hosts.length - 1)) % hosts.length) drainAll(next);
      }),
      { numRuns: 300 },
    );
  });

  it("the report's allocated figures are exactly the sums over the one VM list, static auto-node VMs included", () => {
    fc.assert(
      fc.property(models, (model) => {
        const plan = planModel(model);
        const concrete = plan.vms.filter((v) => v.concrete);
        for (const quota of plan.report.quotas) {
          const own = concrete.filter((vm) => vm.quota === quota.name);
          expect(quota.virtualMachines).toBe(own.length);
          expect(quota.allocated).toEqual(formatResources(normalizeResources(sumResources(own.map((vm) => vm.quotaDemand)))));
        }
        for (const fleet of plan.report.fleets) {
          expect(fleet.allocated).toEqual(
            formatResources(normalizeResources(sumResources(concrete.filter((vm) => vm.fleet === fleet.name).map((vm) => vm.hostDemand)))),
          );
        }
        // Every static auto-node of a kubevirt pool is in the list, once.
        const staticNodes = plan.autoPools.filter((p) => p.mode === 'static' && p.providerKind === 'kubevirt').flatMap((p) => p.nodes.map((n) => n.name));
        expect(
          concrete
            .filter((vm) => vm.origin === 'static')
            .map((vm) => vm.name)
            .sort(),
        ).toEqual([...staticNodes].sort());
      }),
      { numRuns: 150 },
    );
  });

  it('a plan that is not ok always says why, with a path', () => {
    fc.assert(
      fc.property(models, (model) => {
        const plan = planModel(model);
        expect(plan.ok).toBe(plan.errors.length === 0);
        for (const e of plan.errors) expect(e.path).toMatch(/^(fleets|quotas|nodePools|clusters|autoNodes|nodeProviders)\[\d+\]/);
      }),
      { numRuns: 150 },
    );
  });

  it('one node more than a quota holds is always refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 20 }), (cpu, memory, fitting) => {
        const base: MetalsliceConfig = {
          clusters: [cluster()],
          fleets: [{ name: 'f', hosts: Array.from({ length: 30 }, (_, i) => ({ name: `h-${i}`, capacity: { cpu: 512, memory: '4Ti' } })) }],
          // Live-migration headroom is its own property (below): here a quota holds VMs and nothing else.
          quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: { cpu: 10_000, memory: '1Gi' }, liveMigrations: 0 }],
          nodePools: [{ name: 'p', quota: 'q', cluster: 'prod', shape: { cpu, memory: gi(memory) }, count: 1, rootDisk: 'containerDisk' }],
        };
        const perVm = get(planModel(base).vms[0].quotaDemand, 'memory');
        // A quota exactly `fitting` VMs big, then a pool of fitting and of fitting + 1.
        const limit = Quantity.fromBytes(perVm.times(Math.max(fitting, 0)).ceilUnits()).toString();
        const withCount = (count: number): MetalsliceConfig => ({
          ...base,
          quotas: [{ ...base.quotas![0], limits: { cpu: 10_000, memory: fitting === 0 ? '1Ki' : limit } }],
          nodePools: [{ ...base.nodePools![0], count }],
        });
        expect(planModel(withCount(fitting)).ok).toBe(true);
        expect(planModel(withCount(fitting + 1)).errors.map((e) => e.path)).toContain('nodePools[0].count');
      }),
      { numRuns: 60 },
    );
  });

  it('the config parser turns any input into a config or a list of path-named problems, never a crash', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ fleets: [v], quotas: v })),
        ),
        (text) => {
          try {
            parseConfigText(text, 'c.yaml');
          } catch (e) {
            expect(e).toBeInstanceOf(MetalsliceError);
            for (const issue of (e as MetalsliceError).issues) expect(issue.path).not.toBe('');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('planning any parsed config never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        let config: MetalsliceConfig;
        try {
          config = parseConfigText(
            JSON.stringify({
              fleets: [{ name: 'f', hosts: [{ name: 'h', capacity: value }] }],
              quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: value }],
            }),
            'c',
          );
        } catch {
          return;
        }
        expect(() => planModel(config)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });
});
