// Pools of whole bare-metal hosts (private node pools, static pools on metal3 providers) roll as VM pools do: a
// revision of what a host took when it was provisioned (image, node type, labels, taints, cluster), and a roll whose
// surge is free matching hosts of the node type, its peak counted in the hosts the pool holds.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { HostSpec, MetalsliceConfig, NodeProviderSpec, PrivateNodePoolSpec } from '../../constructs/core/input/model';
import { planModel, Plan } from '../../constructs/core/plan';
import { revisionProblem } from '../../constructs/core/plan/change/revision';
import { diffPlans, rollProblems, summarizeChanges } from '../../constructs/core/report';
import { TerraformStack, Testing } from 'cdktf';
import { CapacityPlan, TenantCluster } from '../../constructs';
import { NodeProvider as ProviderConstruct } from '../../constructs/node-provider';
import { PrivateNodePool, PrivateNodePoolProps } from '../../constructs/private-node-pool';
import { cluster, EXAMPLE_CA } from '../support/models';

const image = { url: 'https://images.example.com/ubuntu-24.04.qcow2', checksum: 'a'.repeat(64), checksumType: 'sha256', format: 'qcow2' } as const;

const metalHost = (name: string, cls = 'gpu'): HostSpec => ({
  name,
  labels: { class: cls },
  state: 'available',
  capacity: { cpu: 96, memory: '1Ti', disk: '3840Gi' },
});

/** A metal3 provider with `gpu` hosts (type gpu-node) and `cpu` hosts (type cpu-node). */
const metal = (gpu: number, cpu = 0, properties?: Record<string, string>): NodeProviderSpec => ({
  name: 'metal',
  kind: 'metal3',
  ...(properties ? { properties } : {}),
  hosts: [...Array.from({ length: gpu }, (_, i) => metalHost(`gpu-0${i + 1}`)), ...Array.from({ length: cpu }, (_, i) => metalHost(`cpu-0${i + 1}`, 'cpu'))],
  nodeTypes: [
    { name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } },
    { name: 'cpu-node', hostSelector: { matchLabels: { class: 'cpu' } } },
  ],
});

const privatePool = (count: number, extra: Partial<PrivateNodePoolSpec> = {}): PrivateNodePoolSpec => ({
  name: 'gpu',
  cluster: 'prod',
  provider: 'metal',
  nodeType: 'gpu-node',
  count,
  image,
  ...extra,
});

function config(hosts: number, pools: PrivateNodePoolSpec[], version = '1.33'): MetalsliceConfig {
  return { clusters: [cluster('prod', { kubernetesVersion: version })], nodeProviders: [metal(hosts, 2)], privateNodePools: pools };
}

const reportPool = (plan: Plan, name = 'gpu') => plan.report.pools.find((p) => p.name === name)!;

describe('the revision of a pool of whole hosts', () => {
  const revisionOf = (m: MetalsliceConfig): string => {
    const plan = planModel(m);
    expect(plan.errors).toEqual([]);
    return plan.rollouts.get('privateNodePools[0]')!.revision;
  };

  it('is 16 hex digits, as revisionProblem accepts', () => {
    const revision = revisionOf(config(3, [privatePool(2)]));
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    expect(revisionProblem(revision)).toBeUndefined();
  });

  const spec = fc.record({
    count: fc.integer({ min: 1, max: 3 }),
    url: fc.constantFrom('https://images.example.com/a.qcow2', 'https://images.example.com/b.qcow2'),
    version: fc.constantFrom('1.32', '1.33'),
    labels: fc.dictionary(fc.constantFrom('tier', 'team', 'zone'), fc.constantFrom('a', 'b')),
    taint: fc.boolean(),
    drainTimeout: fc.option(fc.constantFrom('10m', '1h'), { nil: undefined }),
    nodeType: fc.constantFrom('gpu-node', 'cpu-node'),
  });
  type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;
  const build = (s: Spec): MetalsliceConfig => ({
    clusters: [cluster('prod', { kubernetesVersion: s.version })],
    nodeProviders: [metal(4, 4)],
    privateNodePools: [
      privatePool(s.count, {
        nodeType: s.nodeType,
        image: { ...image, url: s.url },
        ...(Object.keys(s.labels).length > 0 ? { labels: s.labels } : {}),
        ...(s.taint ? { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' as const }] } : {}),
        ...(s.drainTimeout !== undefined ? { drainTimeout: s.drainTimeout } : {}),
      }),
    ],
  });

  it('changes with the image, the Kubernetes version, the labels, the taints and the node type; not with the count or drain timeout', () => {
    fc.assert(
      fc.property(spec, spec, (a, b) => {
        // Label order is no change: labels compare as sorted entries. Count and drain timeout are not compared.
        const sameLabels = JSON.stringify(Object.entries(a.labels).sort()) === JSON.stringify(Object.entries(b.labels).sort());
        const sameNodes = a.url === b.url && a.version === b.version && sameLabels && a.taint === b.taint && a.nodeType === b.nodeType;
        expect(revisionOf(build(a)) === revisionOf(build(b))).toBe(sameNodes);
      }),
      { numRuns: 60 },
    );
  });

  it('each field on its own changes it; count and drain timeout do not', () => {
    const base: Spec = {
      count: 2,
      url: 'https://images.example.com/a.qcow2',
      version: '1.33',
      labels: {},
      taint: false,
      drainTimeout: undefined,
      nodeType: 'gpu-node',
    };
    const r = revisionOf(build(base));
    expect(revisionOf(build({ ...base, url: 'https://images.example.com/b.qcow2' }))).not.toBe(r);
    expect(revisionOf(build({ ...base, version: '1.32' }))).not.toBe(r);
    expect(revisionOf(build({ ...base, labels: { tier: 'a' } }))).not.toBe(r);
    expect(revisionOf(build({ ...base, taint: true }))).not.toBe(r);
    expect(revisionOf(build({ ...base, nodeType: 'cpu-node' }))).not.toBe(r);
    expect(revisionOf(build({ ...base, count: 3 }))).toBe(r);
    expect(revisionOf(build({ ...base, drainTimeout: '1h' }))).toBe(r);
  });

  it('changes with the image checksum and the node type hostSelector', () => {
    const m = config(3, [privatePool(1)]);
    const r = revisionOf(m);
    expect(revisionOf(config(3, [privatePool(1, { image: { ...image, checksum: 'b'.repeat(64) } })]))).not.toBe(r);
    const provider = m.nodeProviders![0];
    const wider: NodeProviderSpec = {
      ...provider,
      nodeTypes: provider.nodeTypes.map((t) =>
        t.name === 'gpu-node' ? { ...t, hostSelector: { matchExpressions: [{ key: 'class', operator: 'In' as const, values: ['gpu'] }] } } : t,
      ),
    };
    expect(revisionOf({ ...m, nodeProviders: [wider] })).not.toBe(r);
  });
});

describe('the roll of a pool of whole hosts, at rest', () => {
  it('with one free matching host: a surge of 1 on it, and a peak of the pool and that host', () => {
    const plan = planModel(config(3, [privatePool(2)]));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings).toEqual([]);
    const rollout = plan.rollouts.get('privateNodePools[0]')!;
    expect(rollout).toMatchObject({ maxSurge: 1, maxUnavailable: 0, surgeHosts: ['gpu-03'] });
    expect(rollout.fallback).toBeUndefined();
    expect(reportPool(plan).rollout).toEqual({
      revision: rollout.revision,
      maxSurge: 1,
      maxUnavailable: 0,
      surgeHosts: ['gpu-03'],
      peak: { hosts: '3' },
      each: { hosts: '1' },
    });
  });

  it('with no free matching host: falls back to {maxSurge: 0, maxUnavailable: 1} with a warning naming the pool and the free hosts', () => {
    const plan = planModel(config(2, [privatePool(2)]));
    expect(plan.errors).toEqual([]);
    expect(reportPool(plan).rollout).toMatchObject({ maxSurge: 0, maxUnavailable: 1, surgeHosts: [], peak: { hosts: '2' } });
    expect(plan.warnings).toHaveLength(1);
    expect(plan.warnings[0].path).toBe('privateNodePools[0].rollout');
    expect(plan.warnings[0].message).toMatch(
      /^a roll of private pool "gpu" \(2 node\(s\)\) with \{maxSurge: 1\} does not fit: node type metal\.gpu-node has 0 free matching host\(s\)/,
    );
    expect(plan.warnings[0].message).toMatch(/it rolls with \{maxSurge: 0, maxUnavailable: 1\} instead: .*free a matching host of node type metal\.gpu-node/);
  });

  it('an asked maxUnavailable is kept in the fallback', () => {
    const plan = planModel(config(3, [privatePool(3, { rollout: { maxUnavailable: 2 } })]));
    expect(reportPool(plan).rollout).toMatchObject({ maxSurge: 0, maxUnavailable: 2 });
  });

  it('an explicit maxSurge above the free hosts is refused at rollout.maxSurge, naming them and the roll that fits', () => {
    const plan = planModel(config(3, [privatePool(2, { rollout: { maxSurge: 2 } })]));
    expect(plan.ok).toBe(false);
    expect(plan.errors).toHaveLength(1);
    expect(plan.errors[0].path).toBe('privateNodePools[0].rollout.maxSurge');
    expect(plan.errors[0].message).toBe(
      'a roll of private pool "gpu" (2 node(s)) with {maxSurge: 2} does not fit: node type metal.gpu-node has 1 free matching host(s) (gpu-03) beside the hosts the planned pools claim; set rollout to {maxSurge: 1}, or free a matching host of node type metal.gpu-node (a BareMetalHost its hostSelector matches that no pool claims)',
    );
    expect(plan.rollouts.has('privateNodePools[0]')).toBe(false);
  });

  it('an explicit maxSurge within the free hosts is kept; one above the count is capped by it', () => {
    const two = planModel(config(4, [privatePool(2, { rollout: { maxSurge: 2 } })]));
    expect(two.errors).toEqual([]);
    expect(reportPool(two).rollout).toMatchObject({ maxSurge: 2, surgeHosts: ['gpu-03', 'gpu-04'], peak: { hosts: '4' } });
    const capped = planModel(config(4, [privatePool(1, { rollout: { maxSurge: 3 } })]));
    expect(capped.errors).toEqual([]);
    expect(reportPool(capped).rollout).toMatchObject({ maxSurge: 1, surgeHosts: ['gpu-02'], peak: { hosts: '2' } });
  });

  it('refuses a rollout that could never replace a node, at its field', () => {
    const plan = planModel(config(3, [privatePool(1, { rollout: { maxSurge: 0, maxUnavailable: 0 } })]));
    expect(plan.errors.map((e) => e.path)).toContain('privateNodePools[0].rollout.maxUnavailable');
    const negative = planModel(config(3, [privatePool(1, { rollout: { maxSurge: -1 } })]));
    expect(negative.errors.map((e) => e.path)).toContain('privateNodePools[0].rollout.maxSurge');
  });

  it('a pool of no hosts has no roll', () => {
    const plan = planModel(config(3, [privatePool(0)]));
    expect(plan.errors).toEqual([]);
    expect(plan.rollouts.has('privateNodePools[0]')).toBe(false);
    expect(reportPool(plan).rollout).toBeUndefined();
  });

  it('a static pool on a metal3 provider rolls with the defaults, keyed by its path', () => {
    const properties = { 'metal3.vcluster.com/image-url': image.url, 'metal3.vcluster.com/image-checksum': image.checksum };
    const plan = planModel({
      clusters: [cluster()],
      nodeProviders: [metal(3, 1, properties)],
      autoNodes: [
        {
          cluster: 'prod',
          provider: 'metal',
          static: [{ name: 'gpu', quantity: 2, requirements: [{ property: 'vcluster.com/node-type', value: 'gpu-node' }] }],
        },
      ],
    });
    expect(plan.errors).toEqual([]);
    expect(plan.privatePools.map((p) => p.pool.path)).toEqual(['autoNodes[0].static[0]']);
    expect(plan.rollouts.get('autoNodes[0].static[0]')).toMatchObject({ maxSurge: 1, maxUnavailable: 0, surgeHosts: ['gpu-03'] });
    expect(reportPool(plan).rollout?.peak).toEqual({ hosts: '3' });
  });

  it('surge hosts are free matching hosts no planned pool took, as many as maxSurge and no more than are free', () => {
    const arb = fc.record({
      gpuHosts: fc.integer({ min: 1, max: 6 }),
      cpuHosts: fc.integer({ min: 0, max: 3 }),
      pools: fc.array(
        fc.record({
          count: fc.integer({ min: 0, max: 3 }),
          nodeType: fc.constantFrom('gpu-node', 'cpu-node'),
          maxSurge: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(arb, ({ gpuHosts, cpuHosts, pools }) => {
        const plan = planModel({
          clusters: [cluster()],
          nodeProviders: [metal(gpuHosts, cpuHosts)],
          privateNodePools: pools.map((p, i) =>
            privatePool(p.count, {
              name: `p${i}`,
              nodeType: p.nodeType,
              ...(p.maxSurge !== undefined ? { rollout: { maxSurge: p.maxSurge, maxUnavailable: 1 } } : {}),
            }),
          ),
        });
        const taken = new Set(plan.autoPools.flatMap((p) => p.nodes.map((n) => n.host)));
        const matching = (type: string) =>
          type === 'gpu-node' ? Array.from({ length: gpuHosts }, (_, i) => `gpu-0${i + 1}`) : Array.from({ length: cpuHosts }, (_, i) => `cpu-0${i + 1}`);
        for (const p of plan.privatePools) {
          const rollout = plan.rollouts.get(p.pool.path);
          if (rollout === undefined) continue;
          const free = matching(p.spec.nodeType).filter((h) => !taken.has(h));
          expect(rollout.surgeHosts).toHaveLength(rollout.maxSurge);
          expect(rollout.maxSurge).toBeLessThanOrEqual(Math.min(free.length, p.pool.nodes.length));
          for (const h of rollout.surgeHosts) expect(free).toContain(h);
          expect(rollout.peak.hosts.toString()).toBe(String(p.pool.nodes.length + rollout.maxSurge));
          expect(rollout.maxSurge + rollout.maxUnavailable).toBeGreaterThan(0);
        }
        // Every planned pool with hosts rolls, or is refused at its rollout.
        for (const p of plan.privatePools)
          if (p.pool.nodes.length > 0 && p.pool.nodes.every((n) => n.host !== undefined))
            expect(plan.rollouts.has(p.pool.path) || plan.errors.some((e) => e.path === `${p.path}.rollout.maxSurge`)).toBe(true);
      }),
      { numRuns: 80 },
    );
  });
});

describe('the roll of a pool of whole hosts against a previous plan', () => {
  it('a new Kubernetes version replaces every node of the pool, with its roll counted in hosts', () => {
    const before = planModel(config(3, [privatePool(2)], '1.32'));
    const after = planModel(config(3, [privatePool(2)], '1.33'));
    expect(before.errors).toEqual([]);
    expect(after.errors).toEqual([]);
    const changes = diffPlans(before.report, after.report);
    expect(changes.replaced).toEqual(['gpu/prod-gpu-0', 'gpu/prod-gpu-1']);
    const pool = changes.pools.find((p) => p.pool === 'gpu')!;
    expect(pool).toMatchObject({ before: 2, after: 2, replaced: 2 });
    expect(pool.roll).toEqual({ maxSurge: 1, maxUnavailable: 0, surgeHosts: ['gpu-03'], peak: { hosts: '3' } });
    expect(rollProblems(changes, after.report)).toEqual([]);
    const text = summarizeChanges(changes);
    expect(text).toContain('pool gpu: 2 → 2 nodes, 2 replaced (surge 1 on gpu-03, 1 at a time; peak 3 hosts held)');
  });

  it('a change of count alone replaces nothing', () => {
    const before = planModel(config(4, [privatePool(2)]));
    const after = planModel(config(4, [privatePool(3)]));
    const changes = diffPlans(before.report, after.report);
    expect(changes.replaced).toEqual([]);
    expect(changes.pools.find((p) => p.pool === 'gpu')).toMatchObject({ added: 1, replaced: 0 });
    expect(changes.pools.find((p) => p.pool === 'gpu')?.roll).toBeUndefined();
  });

  it('a roll with no surge says so, and its peak is the pool', () => {
    const before = planModel(config(2, [privatePool(2)], '1.32'));
    const after = planModel(config(2, [privatePool(2)], '1.33'));
    const changes = diffPlans(before.report, after.report);
    expect(changes.pools.find((p) => p.pool === 'gpu')?.roll).toEqual({ maxSurge: 0, maxUnavailable: 1, surgeHosts: [], peak: { hosts: '2' } });
    expect(summarizeChanges(changes)).toContain('pool gpu: 2 → 2 nodes, 2 replaced (no surge, 1 at a time, 1 out of service; peak 2 hosts held)');
  });

  it('a running roll whose surge host is gone names the private pool and the fix', () => {
    const before = planModel(config(3, [privatePool(2)], '1.32'));
    const after = planModel(config(3, [privatePool(2)], '1.33'));
    // An edited report, as a hand-made previous plan could be: the roll asks for a second surge host it lacks.
    const pools = after.report.pools.map((p) => (p.name === 'gpu' ? { ...p, rollout: { ...p.rollout!, maxSurge: 2 } } : p));
    const edited = { ...after.report, pools };
    const changes = diffPlans(before.report, edited);
    const problems = rollProblems(changes, edited);
    expect(problems).toHaveLength(1);
    expect(problems[0].path).toBe('pools["gpu"].rollout');
    expect(problems[0].message).toMatch(
      /^a roll of private pool "gpu" \(2 node\(s\)\) with \{maxSurge: 2\} does not fit: .*free a matching host of node type metal\.gpu-node/,
    );
  });
});

describe('PrivateNodePool rollout', () => {
  const metalHostOf = (name: string): HostSpec => metalHost(name);
  function stackWith(rollout: PrivateNodePoolProps['rollout'], hosts = 4): { stack: TerraformStack; plan: CapacityPlan; pool: () => PrivateNodePool } {
    const stack = new TerraformStack(Testing.app(), 's');
    const plan = new CapacityPlan(stack, 'plan', { writeReport: false });
    const metal = new ProviderConstruct(stack, 'metal', {
      kind: 'metal3',
      hosts: Array.from({ length: hosts }, (_, i) => metalHostOf(`gpu-0${i + 1}`)),
      nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }],
    });
    const prod = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    return { stack, plan, pool: () => new PrivateNodePool(stack, 'gpu', { cluster: prod, provider: metal, nodeType: 'gpu-node', count: 2, image, rollout }) };
  }

  it('is checked where it is written', () => {
    expect(() => stackWith({ maxSurge: -1 }).pool()).toThrow(/\[s\/gpu\] rollout\.maxSurge -1 is not a whole number of nodes/);
    expect(() => stackWith({ maxSurge: 0, maxUnavailable: 0 }).pool()).toThrow(/\[s\/gpu\] rollout\.maxUnavailable is 0 with maxSurge 0/);
  });

  it('is planned as written: the plan rolls the pool with its surge on the free hosts, keyed by the pool path', () => {
    const { plan, pool } = stackWith({ maxSurge: 2 });
    const p = pool();
    const planned = plan.plannedPrivatePool('prod', 'metal', p.poolName)!;
    expect(plan.plannedRollout(planned.pool.path)).toMatchObject({ maxSurge: 2, maxUnavailable: 0, surgeHosts: ['gpu-03', 'gpu-04'] });
    expect(planned.spec.rollout).toEqual({ maxSurge: 2 });
  });
});
