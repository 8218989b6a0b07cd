import fc from 'fast-check';
import { parseConfigText } from '../../constructs/core/config';
import { MetalsliceError } from '../../constructs/core/errors';
import { MetalsliceConfig } from '../../constructs/core/model';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/quantity';
import { addResources, fitsWithin, get, ResourceVector, scaleResources } from '../../constructs/core/resources';
import { cluster } from '../support/models';

const gi = (n: number) => `${n}Gi`;

/** Random fleets of 1-8 hosts, quotas and pools; some fit, some do not. */
const models = fc
  .record({
    hosts: fc.array(fc.record({ cpu: fc.integer({ min: 8, max: 128 }), memory: fc.integer({ min: 16, max: 1024 }) }), { minLength: 1, maxLength: 8 }),
    quotas: fc.array(fc.record({ cpu: fc.integer({ min: 1, max: 256 }), memory: fc.integer({ min: 4, max: 2048 }) }), { minLength: 1, maxLength: 3 }),
    pools: fc.array(fc.record({ quota: fc.nat(), cpu: fc.integer({ min: 1, max: 32 }), memory: fc.integer({ min: 1, max: 128 }), count: fc.integer({ min: 0, max: 12 }), planned: fc.boolean() }), { maxLength: 5 }),
  })
  .map(({ hosts, quotas, pools }): MetalsliceConfig => ({
    clusters: [cluster()],
    fleets: [{ name: 'f', reservedPerHost: { cpu: 1, memory: '2Gi' }, hosts: hosts.map((h, i) => ({ name: `h-${i}`, capacity: { cpu: h.cpu, memory: gi(h.memory) } })) }],
    quotas: quotas.map((q, i) => ({ name: `q-${i}`, fleet: 'f', organization: 'o', limits: { cpu: q.cpu, memory: gi(q.memory) } })),
    nodePools: pools.map((p, i) => ({
      name: `p-${i}`,
      quota: `q-${p.quota % quotas.length}`,
      cluster: 'prod',
      shape: { cpu: p.cpu, memory: gi(p.memory) },
      count: p.count,
      rootDisk: 'containerDisk' as const,
      placement: p.planned ? ('planned' as const) : ('spread' as const),
    })),
  }));

describe('planner properties', () => {
  it('when a plan is ok, every VM has a host, no host is over its allocatable, no quota over its limits', () => {
    fc.assert(
      fc.property(models, (model) => {
        const plan = planModel(model);
        if (!plan.ok) return;
        const used = new Map<string, ResourceVector>();
        const perQuota = new Map<string, ResourceVector>();
        for (const pool of plan.pools) {
          perQuota.set(pool.quota, addResources(perQuota.get(pool.quota) ?? {}, scaleResources(pool.footprint, pool.nodes.length)));
          for (const node of pool.nodes) {
            expect(node.host).toBeDefined();
            used.set(node.host!, addResources(used.get(node.host!) ?? {}, pool.footprint));
          }
        }
        for (const host of plan.fleets[0].hosts) expect(fitsWithin(used.get(host.name) ?? {}, host.allocatable)).toBe(true);
        for (const quota of plan.quotas) expect(fitsWithin(perQuota.get(quota.name) ?? {}, quota.limits)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('a plan that is not ok always says why, with a path', () => {
    fc.assert(
      fc.property(models, (model) => {
        const plan = planModel(model);
        expect(plan.ok).toBe(plan.errors.length === 0);
        for (const e of plan.errors) expect(e.path).toMatch(/^(fleets|quotas|nodePools|clusters)\[\d+\]/);
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
          quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: { cpu: 10_000, memory: '1Gi' } }],
          nodePools: [{ name: 'p', quota: 'q', cluster: 'prod', shape: { cpu, memory: gi(memory) }, count: 1, rootDisk: 'containerDisk' }],
        };
        const perVm = get(planModel(base).pools[0].footprint, 'memory');
        // A quota exactly `fitting` VMs big, then a pool of fitting and of fitting + 1.
        const limit = Quantity.fromBytes(perVm.times(Math.max(fitting, 0)).ceilUnits()).toString();
        const withCount = (count: number): MetalsliceConfig => ({ ...base, quotas: [{ ...base.quotas![0], limits: { cpu: 10_000, memory: fitting === 0 ? '1' : limit } }], nodePools: [{ ...base.nodePools![0], count }] });
        expect(planModel(withCount(fitting)).ok).toBe(true);
        expect(planModel(withCount(fitting + 1)).errors.map((e) => e.path)).toContain('nodePools[0].count');
      }),
      { numRuns: 60 },
    );
  });

  it('the config parser turns any input into a config or a list of path-named problems, never a crash', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ fleets: [v], quotas: v }))), (text) => {
        try {
          parseConfigText(text, 'c.yaml');
        } catch (e) {
          expect(e).toBeInstanceOf(MetalsliceError);
          for (const issue of (e as MetalsliceError).issues) expect(issue.path).not.toBe('');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('planning any parsed config never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        let config: MetalsliceConfig;
        try {
          config = parseConfigText(JSON.stringify({ fleets: [{ name: 'f', hosts: [{ name: 'h', capacity: value }] }], quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: value }] }), 'c');
        } catch {
          return;
        }
        expect(() => planModel(config)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });
});
