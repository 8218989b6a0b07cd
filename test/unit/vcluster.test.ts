import { describe, expect, it } from '@jest/globals';
import { parseResources } from '../../constructs/core/base/resources';
import { importVclusterAutoNodes } from '../../constructs/core/input/vcluster';
import { planVclusterAutoNodes } from '../../constructs/core/auto/vcluster';
import { NodeProviderSpec } from '../../constructs/core/input/model';
import { plainFleetKubevirt } from '../../constructs/core/vm/vm';

const vclusterYaml = `
controlPlane:
  distro:
    k8s:
      image:
        tag: v1.33.1
privateNodes:
  enabled: true
  autoNodes:
    - provider: virt
      static:
        - name: base
          quantity: 2
          nodeTypeSelector:
            - property: tier
              value: a
          nodeLabels:
            team: payments
          taints:
            - key: dedicated
              value: payments
              effect: NoSchedule
      dynamic:
        - name: burst
          nodeTypeSelector:
            - property: vcluster.com/node-type
              operator: In
              values: [small, large]
          limits:
            cpu: "32"
            memory: 128Gi
            nodes: "6"
          disruption:
            consolidationPolicy: WhenEmptyOrUnderutilized
            consolidateAfter: 10m
            budgets:
              - nodes: "20%"
          expireAfter: 720h
          terminationGracePeriod: 30m
          weight: 0
    - provider: metal
      static:
        - name: gpu
          quantity: 1
          nodeTypeSelector:
            - property: nvidia.com/gpu
              operator: Exists
`;

const providers: NodeProviderSpec[] = [
  {
    name: 'virt',
    kind: 'kubevirt',
    fleet: 'fra1',
    nodeTypes: [
      { name: 'small', resources: { cpu: 2, memory: '4Gi' }, properties: { tier: 'a,b' } },
      { name: 'large', resources: { cpu: 4, memory: '16Gi' }, properties: { tier: 'a' } },
    ],
  },
  {
    name: 'metal',
    kind: 'metal3',
    hosts: [{ name: 'gpu-01', labels: { class: 'gpu' }, state: 'available', capacity: { cpu: 96, memory: '1Ti', 'nvidia.com/gpu': 8 } }],
    nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }],
  },
];

const context = {
  providers,
  quotas: new Map([['team-a', { remaining: parseResources({ cpu: 96, memory: '384Gi' }, 'q'), fleet: 'fra1' }]]),
  fleets: new Map([['fra1', plainFleetKubevirt({ cpuAllocationRatio: 1 }, [{ resourceName: 'nvidia.com/gpu', pciVendorSelector: '10de:2236' }])]]),
  clusters: new Set(['payments']),
};

describe('importing a vcluster.yaml', () => {
  it('turns privateNodes.autoNodes into claims for the cluster and plans them as is', () => {
    const plan = planVclusterAutoNodes(vclusterYaml, { cluster: 'payments', quotaByProvider: { virt: 'team-a' } }, context);
    expect(plan.issues).toEqual([]);
    expect(plan.pools.map((p) => [p.path, p.name, p.mode, p.nodeType ?? null])).toEqual([
      ['privateNodes.autoNodes[0].static[0]', 'base', 'static', 'virt.small'],
      ['privateNodes.autoNodes[0].dynamic[0]', 'burst', 'dynamic', null],
      ['privateNodes.autoNodes[1].static[0]', 'gpu', 'static', 'metal.gpu-node'],
    ]);
    expect(plan.pools[0].nodes.map((n) => n.name)).toEqual(['payments-base-0', 'payments-base-1']);
    expect(plan.pools[0].nodes[0].labels).toMatchObject({ team: 'payments', tier: 'a' });
    expect(plan.pools[2].nodes[0].host).toBe('gpu-01');
    expect(plan.pools[1].dynamic).toMatchObject({
      nodesLimit: 6,
      expireAfter: '720h',
      terminationGracePeriod: '30m',
      disruption: { consolidateAfter: '10m', budgets: [{ nodes: '20%' }] },
    });
    expect(plan.pools[1].dynamic!.weight).toBeUndefined();
    expect(plan.environments).toEqual([
      { cluster: 'payments', provider: 'metal' },
      { cluster: 'payments', provider: 'virt' },
    ]);
  });

  it('reports planning errors at their place in the vcluster.yaml', () => {
    const bad = vclusterYaml.replace('value: a', 'value: "a b"');
    const plan = planVclusterAutoNodes(bad, { cluster: 'payments', quota: 'team-a' }, context);
    expect(plan.issues).toEqual([
      { path: 'privateNodes.autoNodes[0].static[0].nodeTypeSelector[0].value', message: expect.stringContaining('not a valid label value') },
    ]);
  });

  it('refuses the v0.28/v0.29 shapes with the release that changed them and the new form', () => {
    const object = { privateNodes: { enabled: true, autoNodes: { dynamic: [{ name: 'a', provider: 'virt', limits: { nodes: '2' } }] } } };
    expect(importVclusterAutoNodes(object, { cluster: 'payments' }).issues).toEqual([
      { path: 'privateNodes.autoNodes', message: expect.stringMatching(/a list since vCluster v0\.30.*autoNodes: \[\{provider/) },
    ]);
    const perPool = {
      privateNodes: {
        enabled: true,
        autoNodes: [{ provider: 'virt', static: [{ name: 'b', provider: 'metal', quantity: 1, requirements: [{ property: 'tier', value: 'a' }] }] }],
      },
    };
    const issues = importVclusterAutoNodes(perPool, { cluster: 'payments' }).issues;
    // One issue per cause: the schema's "unknown field" for the same keys is not repeated.
    expect(issues).toEqual([
      { path: 'privateNodes.autoNodes[0].static[0].provider', message: expect.stringContaining('v0.30 moved provider from each pool to its autoNodes entry') },
      { path: 'privateNodes.autoNodes[0].static[0].requirements', message: expect.stringContaining("renamed a pool's requirements to nodeTypeSelector") },
    ]);
  });

  it("names wrongly typed and unknown fields as vCluster's schema does, with the key a typo meant", () => {
    const doc = {
      privateNodes: {
        enabled: true,
        autoNodes: [{ provider: 'virt', dynamc: [], static: [{ name: 'x', quantity: 'two', colour: 'blue', nodeLabels: { a: 1 } }] }],
      },
    };
    const imported = importVclusterAutoNodes(doc, { cluster: 'payments', pathPrefix: 'vcluster.yaml' });
    expect(imported.issues).toEqual(
      expect.arrayContaining([
        { path: 'vcluster.yaml.privateNodes.autoNodes[0].dynamc', message: expect.stringContaining('did you mean "dynamic"?') },
        { path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0].colour', message: expect.stringContaining('known fields here: name, nodeTypeSelector') },
        { path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0].nodeLabels.a', message: 'must be a string (got 1): quote it ("1")' },
        { path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0].quantity', message: 'must be a whole number (got "two")' },
      ]),
    );
    expect(imported.issues).toHaveLength(4);
    expect(imported.autoNodes).toEqual([]);
  });

  it('follows vCluster\'s operators: DoesNotExist and "" are accepted, NotExists is refused with its spelling', () => {
    const withOperator = (operator: string, extra: object = {}) => ({
      privateNodes: {
        enabled: true,
        autoNodes: [{ provider: 'virt', static: [{ name: 'x', quantity: 1, nodeTypeSelector: [{ property: 'tier', operator, ...extra }] }] }],
      },
    });
    expect(importVclusterAutoNodes(withOperator('DoesNotExist'), { cluster: 'payments' }).issues).toEqual([]);
    expect(importVclusterAutoNodes(withOperator('', { value: 'a' }), { cluster: 'payments' }).issues).toEqual([]);
    expect(importVclusterAutoNodes(withOperator('NotExists'), { cluster: 'payments' }).issues).toEqual([
      { path: 'privateNodes.autoNodes[0].static[0].nodeTypeSelector[0].operator', message: expect.stringContaining('spells it DoesNotExist') },
    ]);
    expect(importVclusterAutoNodes(withOperator('In', { value: 'a', values: ['b'] }), { cluster: 'payments' }).issues[0].message).toContain(
      'value and values cannot both be set',
    );
    expect(importVclusterAutoNodes(withOperator('Exists', { value: 'a' }), { cluster: 'payments' }).issues[0].message).toContain('takes no value');
  });

  it("refuses what vCluster's validation refuses, every case at once: one entry per provider, unique pool names", () => {
    const doc = {
      privateNodes: {
        enabled: true,
        autoNodes: [
          { provider: 'virt', static: [{ name: 'a', quantity: -1 }] },
          { provider: 'virt', dynamic: [{ name: 'a' }] },
          { provider: 'metal', static: [{ name: '', quantity: 1 }] },
        ],
      },
    };
    expect(importVclusterAutoNodes(doc, { cluster: 'payments' }).issues.map((i) => [i.path, i.message.split(':')[0]])).toEqual([
      ['privateNodes.autoNodes[0].static[0].quantity', 'quantity cannot be negative (got -1)'],
      ['privateNodes.autoNodes[1].provider', 'provider virt already has an entry at privateNodes.autoNodes[0]'],
      ['privateNodes.autoNodes[1].dynamic[0].name', 'node pool name a is already used at privateNodes.autoNodes[0].static[0]'],
      ['privateNodes.autoNodes[2].static[0].name', 'name is required'],
    ]);
  });

  it('plans nothing when privateNodes.enabled is not true, and says so', () => {
    const doc = { privateNodes: { autoNodes: [{ provider: 'virt', static: [{ name: 'a', quantity: 1 }] }] } };
    const imported = importVclusterAutoNodes(doc, { cluster: 'payments' });
    expect(imported.issues).toEqual([]);
    expect(imported.autoNodes).toEqual([]);
    expect(imported.warnings).toEqual([{ path: 'privateNodes.enabled', message: expect.stringContaining('vCluster ignores autoNodes') }]);
  });

  it('carries properties, profiles and the default profile, and warns about fields that change nothing here', () => {
    const doc = {
      privateNodes: {
        enabled: true,
        defaultProfile: 'standard',
        joinNode: { containerd: { enabled: true } },
        autoNodes: [
          {
            provider: 'virt',
            properties: { 'kubevirt.vcluster.com/root-disk-size': '40Gi' },
            static: [{ name: 'a', quantity: 1, profile: 'gpu', terminationGracePeriod: '5m' }],
          },
        ],
      },
    };
    const imported = importVclusterAutoNodes(doc, { cluster: 'payments', quota: 'team-a' });
    expect(imported.issues).toEqual([]);
    expect(imported.autoNodes).toEqual([
      {
        cluster: 'payments',
        provider: 'virt',
        quota: 'team-a',
        properties: { 'kubevirt.vcluster.com/root-disk-size': '40Gi' },
        defaultProfile: 'standard',
        static: [{ name: 'a', quantity: 1, profile: 'gpu' }],
      },
    ]);
    expect(imported.warnings.map((w) => w.path)).toEqual(['privateNodes.joinNode', 'privateNodes.autoNodes[0].static[0].terminationGracePeriod']);
    // vCluster's containerd settings have their place in metalslice: the cluster's bootstrap.
    expect(imported.warnings[0].message).toContain('clusters[].bootstrap');
  });

  it('reports YAML syntax errors instead of throwing', () => {
    const imported = importVclusterAutoNodes('privateNodes: [unclosed', { cluster: 'payments' });
    expect(imported.issues[0].message).toMatch(/not valid YAML/);
  });
});
