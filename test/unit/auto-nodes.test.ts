import { describe, expect, it } from '@jest/globals';
import { AutoNodesInput, planAutoNodes } from '../../constructs/core/auto';
import { AutoNodesSpec, NodeProviderSpec } from '../../constructs/core/input/model';
import { parseResources, ResourceVector } from '../../constructs/core/base/resources';
import { plainFleetKubevirt } from '../../constructs/core/vm/vm';

const small = { name: 'small', resources: { cpu: 2, memory: '4Gi' } };
const large = { name: 'large', resources: { cpu: 4, memory: '16Gi' } };
const gpu = { name: 'gpu', resources: { cpu: 16, memory: '128Gi', 'nvidia.com/gpu': 1 } };

function input(providers: NodeProviderSpec[], autoNodes: AutoNodesSpec[], quotaLimits: Record<string, ResourceVector> = {}): AutoNodesInput {
  const quotas = new Map(
    Object.entries({ 'team-a': parseResources({ cpu: 200, memory: '1Ti', 'nvidia.com/gpu': 4 }, 'q'), ...quotaLimits }).map(([k, v]) => [
      k,
      { remaining: v, fleet: 'fra1' },
    ]),
  );
  return {
    providers,
    autoNodes,
    quotas,
    fleets: new Map([['fra1', plainFleetKubevirt({ cpuAllocationRatio: 1 }, [{ resourceName: 'nvidia.com/gpu', pciVendorSelector: '10de:2236' }])]]),
    clusters: new Set(['prod', 'dev']),
  };
}
const virt = (nodeTypes: NodeProviderSpec['nodeTypes']): NodeProviderSpec => ({ name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes });

describe('static pools', () => {
  it("takes node type names with dots, as vCluster's own examples write them (t3.medium)", () => {
    const plan = planAutoNodes(
      input(
        [virt([{ ...small, name: 't3.medium' }])],
        [
          {
            cluster: 'prod',
            provider: 'virt',
            quota: 'team-a',
            static: [{ name: 'base', quantity: 1, nodeTypeSelector: [{ property: 'node.kubernetes.io/instance-type', value: 't3.medium' }] }],
          },
        ],
      ),
    );
    expect(plan.issues).toEqual([]);
    expect(plan.pools[0].nodeType).toBe('virt.t3.medium');
    expect(plan.pools[0].nodes[0].labels['node.kubernetes.io/instance-type']).toBe('t3.medium');
    const bad = planAutoNodes(input([virt([{ ...small, name: 'T3.Medium' }])], []));
    expect(bad.issues).toEqual([{ path: 'nodeProviders[0].nodeTypes[0].name', message: expect.stringContaining("lower-case letters, digits, '-' and '.'") }]);
  });

  it('picks the cheapest matching type and names nodes <cluster>-<pool>-<index>', () => {
    const plan = planAutoNodes(
      input([virt([large, small])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 2 }] }]),
    );
    expect(plan.issues).toEqual([]);
    const pool = plan.pools[0];
    expect(pool.nodeType).toBe('virt.small');
    expect(pool.nodes.map((n) => n.name)).toEqual(['prod-base-0', 'prod-base-1']);
    expect(pool.candidates.map((c) => [c.nodeType, c.cost])).toEqual([
      ['virt.small', 28],
      ['virt.large', 72],
    ]);
    expect(pool.nodes[0].labels).toMatchObject({ 'node.kubernetes.io/instance-type': 'small', 'topology.kubernetes.io/zone': 'global' });
  });

  it('counts the VM footprint (with virt-launcher overhead) against the quota', () => {
    const plan = planAutoNodes(input([virt([small])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 2 }] }]));
    const footprint = plan.pools[0].nodes[0].footprint;
    expect(footprint.memory.cmp(parseResources({ memory: '4Gi' }, 'x').memory)).toBe(1);
    expect(plan.quotas[0].consumed.memory.eq(footprint.memory.times(2))).toBe(true);
  });

  it('lets an explicit cost beat the formula', () => {
    const plan = planAutoNodes(
      input([virt([small, { ...large, cost: 20 }])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1 }] }]),
    );
    expect(plan.pools[0].nodeType).toBe('virt.large');
  });

  it('breaks cost ties by name, whatever the catalogue order', () => {
    const b = { name: 'bravo', resources: { cpu: 2, memory: '4Gi' } };
    const a = { name: 'alpha', resources: { cpu: 2, memory: '4Gi' } };
    for (const types of [
      [a, b],
      [b, a],
    ]) {
      const plan = planAutoNodes(input([virt(types)], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1 }] }]));
      expect(plan.pools[0].nodeType).toBe('virt.alpha');
    }
  });

  it('filters by requirements, recording which requirement failed', () => {
    const plan = planAutoNodes(
      input(
        [
          virt([
            { ...small, properties: { tier: 'b' } },
            { ...large, properties: { tier: 'a,b' } },
          ]),
        ],
        [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1, requirements: [{ property: 'tier', value: 'a' }] }] }],
      ),
    );
    expect(plan.pools[0].nodeType).toBe('virt.large');
    expect(plan.pools[0].nodes[0].labels.tier).toBe('a');
    expect(plan.pools[0].rejected).toEqual([{ nodeType: 'virt.small', reason: 'requirement tier In [a] not met: the type offers tier=b' }]);
  });

  it('skips types smaller than the requested resources', () => {
    const plan = planAutoNodes(
      input(
        [virt([small, large])],
        [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1, resources: { memory: '8Gi' } }] }],
      ),
    );
    expect(plan.pools[0].nodeType).toBe('virt.large');
    expect(plan.pools[0].rejected[0]).toEqual({ nodeType: 'virt.small', reason: 'too small: offers memory 4 Gi, the pool needs memory 8 Gi' });
  });

  describe('the GPU rule', () => {
    it('never gives a GPU node to a pool that does not ask for one', () => {
      const plan = planAutoNodes(
        input(
          [virt([gpu, { ...large, resources: { cpu: 32, memory: '256Gi' } }])],
          [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1 }] }],
        ),
      );
      expect(plan.pools[0].nodeType).toBe('virt.large');
      expect(plan.pools[0].rejected[0].reason).toMatch(/offers nvidia.com\/gpu, which the pool does not request/);
    });

    it('fails clearly on a GPU-only catalogue when the pool does not ask for GPUs', () => {
      const plan = planAutoNodes(input([virt([gpu])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1 }] }]));
      expect(plan.ok).toBe(false);
      expect(plan.pools[0].nodes).toEqual([]);
      expect(plan.issues).toEqual([
        {
          path: 'autoNodes[0].static[0]',
          message: expect.stringMatching(
            /only matching types \(virt.gpu\) carry nvidia.com\/gpu.*add a requirement \{property: nvidia.com\/gpu, operator: Exists\}/,
          ),
        },
      ]);
    });

    it('gives a GPU node to a pool that selects the type by name or instance type (vCluster counts that as asking)', () => {
      for (const property of ['vcluster.com/node-type', 'node.kubernetes.io/instance-type']) {
        const plan = planAutoNodes(
          input(
            [virt([gpu, small])],
            [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'ml', quantity: 1, nodeTypeSelector: [{ property, value: 'gpu' }] }] }],
          ),
        );
        expect(plan.issues).toEqual([]);
        expect(plan.pools[0].nodeType).toBe('virt.gpu');
      }
      // Naming another type still keeps the GPU type out.
      const other = planAutoNodes(
        input(
          [virt([gpu, small])],
          [
            {
              cluster: 'prod',
              provider: 'virt',
              quota: 'team-a',
              static: [{ name: 'ml', quantity: 1, nodeTypeSelector: [{ property: 'vcluster.com/node-type', operator: 'NotIn', value: 'small' }] }],
            },
          ],
        ),
      );
      expect(other.issues[0].message).toMatch(/only matching types \(virt.gpu\) carry nvidia.com\/gpu/);
    });

    it('gives a GPU node to a pool that requires the resource or requests it', () => {
      for (const pool of [
        { name: 'ml', quantity: 1, requirements: [{ property: 'nvidia.com/gpu', operator: 'Exists' as const }] },
        { name: 'ml', quantity: 1, requirements: [{ property: 'nvidia.com/gpu', operator: 'Gt' as const, value: '0' }] },
        { name: 'ml', quantity: 1, resources: { 'nvidia.com/gpu': 1 } },
      ]) {
        const plan = planAutoNodes(input([virt([gpu, small])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [pool] }]));
        expect(plan.issues).toEqual([]);
        expect(plan.pools[0].nodeType).toBe('virt.gpu');
      }
    });
  });

  describe('maxCapacity', () => {
    const capped = virt([{ ...small, maxCapacity: 3 }, large]);

    it('is counted across the claims of all clusters in config order; the rest falls to the next cheapest type', () => {
      const plan = planAutoNodes(
        input(
          [capped],
          [
            { cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 2 }] },
            { cluster: 'dev', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 2 }] },
          ],
        ),
      );
      expect(plan.issues).toEqual([]);
      expect(plan.pools.map((p) => p.nodeType)).toEqual(['virt.small', 'virt.large']);
      expect(plan.pools[1].rejected).toEqual([
        { nodeType: 'virt.small', reason: 'capacity exhausted: maxCapacity 3 with 2 taken by earlier claims, 1 left, the pool needs 2' },
      ]);
    });

    it('moves a whole static pool to the next type rather than splitting it', () => {
      const plan = planAutoNodes(input([capped], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 4 }] }]));
      expect(plan.pools[0].nodes.map((n) => n.nodeType)).toEqual(['virt.large', 'virt.large', 'virt.large', 'virt.large']);
    });

    it('is an error when no type has room for the whole pool', () => {
      const plan = planAutoNodes(
        input([virt([{ ...small, maxCapacity: 1 }])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 2 }] }]),
      );
      expect(plan.issues).toEqual([
        {
          path: 'autoNodes[0].static[0].quantity',
          message: expect.stringMatching(/no matching node type of provider virt has room for 2 nodes.*raise maxCapacity/),
        },
      ]);
    });
  });

  it('errors when the pool exceeds its quota, naming the quota, what is left and the fix', () => {
    const plan = planAutoNodes(
      input([virt([small])], [{ cluster: 'prod', provider: 'virt', quota: 'tiny', static: [{ name: 'base', quantity: 3 }] }], {
        tiny: parseResources({ cpu: 4, memory: '64Gi' }, 'q'),
      }),
    );
    expect(plan.issues).toEqual([
      {
        path: 'autoNodes[0].static[0].quantity',
        message: expect.stringMatching(
          /^static pool "base" \(virt.small\) does not fit quota "tiny" \(cpu: needs 6\.0\d\d \(3 x 2\.0\d\d, each VM's launcher pod as KubeVirt requests it\), 4 left of 4\): lower quantity to 1, select a smaller type, or raise the limits of quota "tiny"$/,
        ),
      },
    ]);
  });

  it('rejects a pool that exceeds its quota by one node after an earlier pool took its share', () => {
    const plan = planAutoNodes(
      input(
        [virt([small])],
        [
          {
            cluster: 'prod',
            provider: 'virt',
            quota: 'tiny',
            static: [
              { name: 'a', quantity: 1 },
              { name: 'b', quantity: 2 },
            ],
          },
        ],
        { tiny: parseResources({ cpu: 4, memory: '64Gi' }, 'q') },
      ),
    );
    expect(plan.pools[0].nodes).toHaveLength(1);
    expect(plan.issues.map((i) => i.path)).toEqual(['autoNodes[0].static[1].quantity']);
  });

  it('keeps existing node names when the quantity grows', () => {
    const names = (n: number): string[] =>
      planAutoNodes(
        input([virt([small])], [{ cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: n }] }]),
      ).pools[0].nodes.map((x) => x.name);
    expect(names(3).slice(0, 2)).toEqual(names(2));
  });

  it('hands out metal3 hosts one per node, never twice across clusters', () => {
    const metal: NodeProviderSpec = {
      name: 'metal',
      kind: 'metal3',
      hosts: [
        { name: 'bm-02', labels: { class: 'c' }, state: 'available', capacity: { cpu: 32, memory: '256Gi' } },
        { name: 'bm-01', labels: { class: 'c' }, state: 'ready', capacity: { cpu: 32, memory: '256Gi' } },
        { name: 'bm-03', labels: { class: 'c' }, state: 'available', capacity: { cpu: 32, memory: '256Gi' } },
      ],
      nodeTypes: [{ name: 'c', hostSelector: { matchLabels: { class: 'c' } } }],
    };
    const plan = planAutoNodes(
      input(
        [metal],
        [
          { cluster: 'prod', provider: 'metal', static: [{ name: 'bm', quantity: 2 }] },
          { cluster: 'dev', provider: 'metal', static: [{ name: 'bm', quantity: 2 }] },
        ],
      ),
    );
    expect(plan.pools[0].nodes.map((n) => n.host)).toEqual(['bm-01', 'bm-02']);
    expect(plan.pools[0].nodes[0].footprint).toEqual(plan.pools[0].nodes[0].resources);
    expect(plan.issues).toEqual([{ path: 'autoNodes[1].static[0].quantity', message: expect.stringContaining('1 matching host(s) free') }]);
  });
});

describe('references', () => {
  it('names unknown clusters, providers and quotas by path', () => {
    const plan = planAutoNodes(
      input(
        [virt([small])],
        [
          { cluster: 'nope', provider: 'virt', quota: 'team-a', static: [{ name: 'a', quantity: 1 }] },
          { cluster: 'prod', provider: 'ghost', static: [{ name: 'b', quantity: 1 }] },
          { cluster: 'prod', provider: 'virt', quota: 'ghost', static: [{ name: 'c', quantity: 1 }] },
          { cluster: 'prod', provider: 'virt', static: [{ name: 'd', quantity: 1 }] },
        ],
      ),
    );
    expect(plan.issues).toEqual([
      { path: 'autoNodes[0].cluster', message: expect.stringContaining('unknown cluster "nope": use one of dev, prod') },
      { path: 'autoNodes[1].provider', message: expect.stringContaining('unknown node provider "ghost": use one of virt') },
      { path: 'autoNodes[2].quota', message: expect.stringContaining('unknown quota "ghost"') },
      { path: 'autoNodes[3].quota', message: expect.stringContaining('set quota') },
    ]);
    expect(plan.pools).toEqual([]);
  });

  it('rejects duplicate pool names within a cluster and allows them across clusters', () => {
    const plan = planAutoNodes(
      input(
        [virt([small])],
        [
          { cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'a', quantity: 1 }], dynamic: [{ name: 'a', limits: { nodes: 1 } }] },
          { cluster: 'dev', provider: 'virt', quota: 'team-a', static: [{ name: 'a', quantity: 1 }] },
        ],
      ),
    );
    expect(plan.issues).toEqual([
      { path: 'autoNodes[0].dynamic[0].name', message: expect.stringContaining('already defined for cluster prod at autoNodes[0].static[0]') },
    ]);
  });

  it('lists one environment per (cluster, provider) pair in use, sorted', () => {
    const plan = planAutoNodes(
      input(
        [virt([small]), { name: 'tf', kind: 'terraform', nodeTypes: [small] }],
        [
          { cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'a', quantity: 1 }] },
          { cluster: 'dev', provider: 'virt', quota: 'team-a', dynamic: [{ name: 'b', limits: { nodes: 2 } }] },
          { cluster: 'prod', provider: 'tf', static: [{ name: 'c', quantity: 1 }] },
          { cluster: 'prod', provider: 'virt', quota: 'team-a', static: [{ name: 'd', quantity: 1 }] },
        ],
      ),
    );
    expect(plan.issues).toEqual([]);
    expect(plan.environments).toEqual([
      { cluster: 'dev', provider: 'virt' },
      { cluster: 'prod', provider: 'tf' },
      { cluster: 'prod', provider: 'virt' },
    ]);
  });
});

describe('dynamic pools', () => {
  const entry = (dynamic: AutoNodesSpec['dynamic'], quota: string | undefined = 'team-a'): AutoNodesSpec => ({
    cluster: 'prod',
    provider: 'virt',
    quota,
    dynamic,
  });

  it('lists the matching types cheapest first for the Karpenter instance-type requirement', () => {
    const plan = planAutoNodes(input([virt([large, small, gpu])], [entry([{ name: 'burst', limits: { cpu: 16, nodes: 4 } }])]));
    expect(plan.issues).toEqual([]);
    expect(plan.pools[0].candidates.map((c) => c.name)).toEqual(['small', 'large']);
    expect(plan.pools[0].dynamic!.worstCase!.nodeType).toBe('virt.large');
    expect(plan.pools[0].dynamic!.worstCase!.nodes).toBe(4);
  });

  it('warns when the limits are below the smallest matching type', () => {
    const plan = planAutoNodes(input([virt([large, small])], [entry([{ name: 'burst', limits: { cpu: 1 } }])]));
    expect(plan.issues).toEqual([]);
    expect(plan.warnings).toEqual([
      { path: 'autoNodes[0].dynamic[0].limits', message: expect.stringContaining('below every matching node type (the cheapest, virt.small, has cpu 2)') },
    ]);
  });

  it('errors when the worst case exceeds the quota, rounding cpu limits up to whole nodes', () => {
    // Each 4-CPU VM's launcher pod requests a little more than 4 CPUs (KubeVirt's support containers).
    const quota = parseResources({ cpu: 9, memory: '64Gi' }, 'q');
    // cpu 6 with 4-CPU nodes can end at 2 nodes = 8 CPUs and change: fits; nodes 3 of large = 12 CPUs and change: does not.
    const fits = planAutoNodes(input([virt([large])], [entry([{ name: 'burst', limits: { cpu: 6 } }], 'q')], { q: quota }));
    expect(fits.issues).toEqual([]);
    const over = planAutoNodes(input([virt([large])], [entry([{ name: 'burst', limits: { nodes: 3 } }], 'q')], { q: quota }));
    expect(over.issues).toEqual([
      {
        path: 'autoNodes[0].dynamic[0].limits',
        message: expect.stringMatching(
          /^dynamic pool "burst" \(virt.large\) at its limits does not fit quota "q" \(cpu: needs 12\.0\d\d \(3 x 4\.0\d\d, each VM's launcher pod as KubeVirt requests it\), 9 left of 9\): lower limits.nodes to 2, /,
        ),
      },
    ]);
  });

  it('bounds a kubevirt pool without limits by its quota, and says so (vCluster accepts such a pool)', () => {
    const quota = parseResources({ cpu: 9, memory: '64Gi' }, 'q');
    const plan = planAutoNodes(input([virt([small])], [entry([{ name: 'burst' }], 'q')], { q: quota }));
    expect(plan.issues).toEqual([]);
    // small VMs request 2 CPUs plus KubeVirt's launcher overhead: 4 fit in 9 CPUs, not 5.
    expect(plan.pools[0].dynamic!.worstCase).toMatchObject({ nodeType: 'virt.small', nodes: 4 });
    expect(plan.warnings).toEqual([
      {
        path: 'autoNodes[0].dynamic[0]',
        message: expect.stringMatching(/no limits: Karpenter may grow the pool until quota q is full .*up to 4 x virt.small/),
      },
    ]);
  });

  it('errors when a cluster-api pool has no limits, and when a kubevirt pool has no quota', () => {
    expect(planAutoNodes(input([virt([small])], [entry([{ name: 'burst', autoscaler: 'cluster-api' }])])).issues).toEqual([
      { path: 'autoNodes[0].dynamic[0].limits', message: expect.stringContaining('needs a size bound') },
    ]);
    expect(planAutoNodes(input([virt([small])], [{ cluster: 'prod', provider: 'virt', dynamic: [{ name: 'burst', limits: { nodes: 1 } }] }])).issues).toEqual([
      { path: 'autoNodes[0].quota', message: expect.stringContaining('set quota') },
    ]);
  });

  it('checks Karpenter fields with paths', () => {
    const plan = planAutoNodes(
      input(
        [virt([small])],
        [
          entry([
            {
              name: 'burst',
              limits: { nodes: 2 },
              expireAfter: '30 days',
              weight: 0,
              disruption: { consolidateAfter: 'soon', budgets: [{ nodes: '10%', schedule: '@daily' }] },
            },
          ]),
        ],
      ),
    );
    expect(plan.issues.map((i) => i.path)).toEqual([
      'autoNodes[0].dynamic[0].disruption.consolidateAfter',
      'autoNodes[0].dynamic[0].disruption.budgets[0]',
      'autoNodes[0].dynamic[0].expireAfter',
      'autoNodes[0].dynamic[0].weight',
    ]);
  });

  it('gives a cluster-api pool one type and a max size from its limits', () => {
    const plan = planAutoNodes(input([virt([large, small])], [entry([{ name: 'ca', autoscaler: 'cluster-api', limits: { cpu: 9 }, minNodes: 1 }])]));
    expect(plan.issues).toEqual([]);
    expect(plan.pools[0].nodeType).toBe('virt.small');
    expect(plan.pools[0].dynamic).toMatchObject({ autoscaler: 'cluster-api', minNodes: 1, maxNodes: 4 });
  });

  it('does not offer types whose maxCapacity static pools used up', () => {
    const plan = planAutoNodes(
      input(
        [virt([{ ...small, maxCapacity: 1 }, large])],
        [entry([{ name: 'burst', limits: { nodes: 2 } }]), { cluster: 'dev', provider: 'virt', quota: 'team-a', static: [{ name: 'base', quantity: 1 }] }],
      ),
    );
    expect(plan.pools[0].candidates.map((c) => c.name)).toEqual(['large']);
    expect(plan.pools[0].rejected[0].reason).toMatch(/capacity exhausted/);
  });
});
