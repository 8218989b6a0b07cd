import { parseResources } from '../../constructs/core/resources';
import { importVclusterAutoNodes, planVclusterAutoNodes } from '../../constructs/core/vcluster';
import { NodeProviderSpec } from '../../constructs/core/model';
import { plainFleetKubevirt } from '../../constructs/core/vms';

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
    expect(plan.pools[1].dynamic).toMatchObject({ nodesLimit: 6, expireAfter: '720h', terminationGracePeriod: '30m', disruption: { consolidateAfter: '10m', budgets: [{ nodes: '20%' }] } });
    expect(plan.pools[1].dynamic!.weight).toBeUndefined();
    expect(plan.environments).toEqual([{ cluster: 'payments', provider: 'metal' }, { cluster: 'payments', provider: 'virt' }]);
  });

  it('reports planning errors at their place in the vcluster.yaml', () => {
    const bad = vclusterYaml.replace('value: a', 'value: "a b"');
    const plan = planVclusterAutoNodes(bad, { cluster: 'payments', quota: 'team-a' }, context);
    expect(plan.issues).toEqual([{ path: 'privateNodes.autoNodes[0].static[0].nodeTypeSelector[0].value', message: expect.stringContaining('not a valid label value') }]);
  });

  it('accepts the single-object shape and a provider per pool', () => {
    const doc = {
      privateNodes: {
        enabled: true,
        autoNodes: { dynamic: [{ name: 'a', provider: 'virt', limits: { nodes: '2' } }], static: [{ name: 'b', provider: 'metal', quantity: 1, nodeTypeSelector: [{ property: 'nvidia.com/gpu', operator: 'Exists' }] }] },
      },
    };
    const imported = importVclusterAutoNodes(doc, { cluster: 'payments', quota: 'team-a' });
    expect(imported.issues).toEqual([]);
    expect(imported.autoNodes.map((e) => [e.provider, e.static?.length ?? 0, e.dynamic?.length ?? 0])).toEqual([['metal', 1, 0], ['virt', 0, 1]]);
    expect(imported.sourcePaths[0].static).toEqual(['privateNodes.autoNodes.static[0]']);
  });

  it('names wrongly typed fields and warns about unknown ones', () => {
    const doc = { privateNodes: { autoNodes: [{ provider: 'virt', static: [{ name: 'x', quantity: 'two', colour: 'blue', nodeLabels: { a: 1 } }] }] } };
    const imported = importVclusterAutoNodes(doc, { cluster: 'payments', pathPrefix: 'vcluster.yaml' });
    expect(imported.issues).toEqual([
      { path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0].nodeLabels.a', message: expect.stringContaining('must be a string') },
      { path: 'vcluster.yaml.privateNodes.autoNodes[0].static[0].quantity', message: expect.stringContaining('whole number') },
    ]);
    expect(imported.warnings.map((w) => w.path)).toEqual(['vcluster.yaml.privateNodes.enabled', 'vcluster.yaml.privateNodes.autoNodes[0].static[0].colour']);
  });

  it('reports YAML syntax errors instead of throwing', () => {
    const imported = importVclusterAutoNodes('privateNodes: [unclosed', { cluster: 'payments' });
    expect(imported.issues[0].message).toMatch(/not valid YAML/);
  });
});
