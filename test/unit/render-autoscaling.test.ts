import { describe, expect, it } from '@jest/globals';
import { AutoNodesInput, planAutoNodes, PlannedAutoPool } from '../../constructs/core/auto';
import { AutoNodesSpec, NodeProviderSpec } from '../../constructs/core/input/model';
import { parseResources } from '../../constructs/core/base/resources';
import { AUTOSCALER_MAX_SIZE, AUTOSCALER_MIN_SIZE, renderClusterApiPool } from '../../constructs/render/cluster-api';
import { renderKarpenterNodePool } from '../../constructs/render/karpenter';
import { nodeEnvironmentNamespace, renderNodeEnvironment, renderNodeEnvironments } from '../../constructs/render/node-environment';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { validateAgainstCrd } from '../support/crd-schema';
import { plainFleetKubevirt } from '../../constructs/core/vm/vm';

const virt: NodeProviderSpec = {
  name: 'virt',
  kind: 'kubevirt',
  fleet: 'fra1',
  properties: { tier: 'a,b' },
  nodeTypes: [
    { name: 'large', resources: { cpu: 4, memory: '16Gi', disk: '100Gi' } },
    { name: 'small', resources: { cpu: 2, memory: '4Gi' }, zone: 'z1' },
    { name: 'gpu', resources: { cpu: 16, memory: '128Gi', 'nvidia.com/gpu': 2 } },
  ],
};

function plan(autoNodes: AutoNodesSpec[]): PlannedAutoPool[] {
  const input: AutoNodesInput = {
    providers: [virt],
    autoNodes,
    quotas: new Map([['team-a', { remaining: parseResources({ cpu: 400, memory: '2Ti', 'nvidia.com/gpu': 8 }, 'q'), fleet: 'fra1' }]]),
    fleets: new Map([['fra1', plainFleetKubevirt({ cpuAllocationRatio: 2 }, [{ resourceName: 'nvidia.com/gpu', pciVendorSelector: '10de:2236' }])]]),
    clusters: new Set(['prod']),
  };
  const p = planAutoNodes(input);
  expect(p.issues).toEqual([]);
  return [...p.pools];
}

const burst: AutoNodesSpec['dynamic'] = [
  {
    name: 'burst',
    requirements: [
      { property: 'tier', value: 'a' },
      { property: 'scratch', operator: 'DoesNotExist' },
      { property: 'kubernetes.io/os', operator: 'Exists' },
    ],
    limits: { cpu: 64, memory: '256Gi', nodes: 8 },
    taints: [
      { key: 'dedicated', value: 'burst', effect: 'NoSchedule' },
      { key: 'spot', effect: 'PreferNoSchedule' },
    ],
    nodeLabels: { team: 'a' },
    disruption: {
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: '5m',
      budgets: [{ nodes: '10%' }, { nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h', reasons: ['Underutilized', 'Drifted'] }],
    },
    expireAfter: '720h',
    terminationGracePeriod: '1h',
    weight: 10,
  },
];

describe('Karpenter NodePool', () => {
  it('lists the matching types cheapest first, then the pool requirements, and validates against the CRD', () => {
    const [pool] = plan([
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'team-a',
        dynamic: [
          {
            ...burst[0],
            requirements: [
              { property: 'tier', value: 'a' },
              { property: 'kubernetes.io/os', operator: 'Exists' },
            ],
          },
        ],
      },
    ]);
    const np = renderKarpenterNodePool(pool);
    expect(validateAgainstCrd(np)).toEqual([]);
    const spec = np.spec as {
      template: { metadata: unknown; spec: { requirements: unknown[]; nodeClassRef: unknown; taints: unknown[] } };
      limits: unknown;
      disruption: unknown;
      weight: number;
    };
    expect(spec.template.spec.requirements).toEqual([
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['small', 'large'] },
      { key: 'tier', operator: 'In', values: ['a'] },
      { key: 'kubernetes.io/os', operator: 'Exists' },
    ]);
    expect(spec.template.spec.nodeClassRef).toEqual({ group: 'metalslice.io', kind: 'NodeProviderClass', name: 'virt' });
    expect(spec.template.metadata).toEqual({ labels: { team: 'a' } });
    expect(spec.limits).toEqual({ cpu: '64', memory: '256Gi', nodes: '8' });
    expect(spec.disruption).toEqual({
      consolidationPolicy: 'WhenEmpty',
      consolidateAfter: '5m',
      budgets: [{ nodes: '10%' }, { nodes: '0', reasons: ['Underutilized', 'Drifted'], schedule: '0 9 * * mon-fri', duration: '8h' }],
    });
    expect(spec.weight).toBe(10);
    expect(spec.template.spec.taints).toEqual([
      { key: 'dedicated', value: 'burst', effect: 'NoSchedule' },
      { key: 'spot', effect: 'PreferNoSchedule' },
    ]);
  });

  it('spells DoesNotExist as DoesNotExist and keeps GPU types when asked for', () => {
    const [pool] = plan([
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'team-a',
        dynamic: [
          {
            name: 'ml',
            requirements: [
              { property: 'nvidia.com/gpu', operator: 'Exists' },
              { property: 'scratch', operator: 'DoesNotExist' },
            ],
            limits: { nodes: 2 },
          },
        ],
      },
    ]);
    const np = renderKarpenterNodePool(pool);
    expect(validateAgainstCrd(np)).toEqual([]);
    const reqs = (np.spec as { template: { spec: { requirements: unknown[] } } }).template.spec.requirements;
    expect(reqs).toEqual([
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['gpu'] },
      { key: 'scratch', operator: 'DoesNotExist' },
    ]);
  });

  it('is byte-identical for the same plan', () => {
    const render = (): string => JSON.stringify(renderKarpenterNodePool(plan([{ cluster: 'prod', provider: 'virt', quota: 'team-a', dynamic: burst }])[0]));
    expect(render()).toBe(render());
  });

  it('fails validation when a field breaks the CRD (the helper really checks)', () => {
    const [pool] = plan([{ cluster: 'prod', provider: 'virt', quota: 'team-a', dynamic: [{ name: 'x', limits: { nodes: 1 } }] }]);
    const np = renderKarpenterNodePool(pool);
    const broken = { ...np, spec: { ...(np.spec as object), weight: 0, surprise: true } };
    expect(validateAgainstCrd(broken)).toEqual(expect.arrayContaining([expect.stringContaining('/spec/weight'), expect.stringContaining('surprise')]));
  });
});

describe('Cluster API pool', () => {
  const caPool = (): PlannedAutoPool =>
    plan([
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'team-a',
        dynamic: [
          {
            name: 'ca',
            autoscaler: 'cluster-api',
            requirements: [{ property: 'tier', value: 'b' }],
            limits: { cpu: 20 },
            taints: [{ key: 'dedicated', value: 'ca', effect: 'NoSchedule' }],
            nodeLabels: { team: 'a' },
          },
        ],
      },
    ])[0];

  it('renders a MachineDeployment, KubevirtMachineTemplate and KubeadmConfigTemplate that the CRDs accept', () => {
    const objs = renderClusterApiPool(caPool(), { namespace: 'acme-team-a' });
    expect(validateAgainstCrd(objs.machineDeployment)).toEqual([]);
    expect(validateAgainstCrd(objs.machineTemplate)).toEqual([]);
    expect(validateAgainstCrd(objs.bootstrapTemplate)).toEqual([]);
    expect(objs.machineDeployment.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
  });

  it('annotates min/max size (min 0) and the scale-from-zero capacity of the chosen type', () => {
    const md = renderClusterApiPool(caPool(), { namespace: 'acme-team-a' }).machineDeployment;
    expect(md.metadata.annotations).toEqual({
      [AUTOSCALER_MIN_SIZE]: '0',
      [AUTOSCALER_MAX_SIZE]: '10',
      'capacity.cluster-autoscaler.kubernetes.io/cpu': '2',
      'capacity.cluster-autoscaler.kubernetes.io/memory': '4Gi',
      'capacity.cluster-autoscaler.kubernetes.io/maxPods': '110',
      'capacity.cluster-autoscaler.kubernetes.io/labels': 'node.kubernetes.io/instance-type=small,team=a,vcluster.com/node-type=small',
      'capacity.cluster-autoscaler.kubernetes.io/taints': 'dedicated=ca:NoSchedule',
    });
    expect(md.spec).not.toHaveProperty('replicas');
  });

  it('requests the CPU the planner counted (after the allocation ratio) and gives GPUs to the VM', () => {
    const objs = renderClusterApiPool(caPool(), { namespace: 'acme-team-a' });
    const domain = (
      objs.machineTemplate.spec as {
        template: { spec: { virtualMachineTemplate: { spec: { template: { spec: { domain: { cpu: unknown; resources: unknown } } } } } } };
      }
    ).template.spec.virtualMachineTemplate.spec.template.spec.domain;
    expect(domain.cpu).toEqual({ cores: 2, sockets: 1, threads: 1 });
    expect(domain.resources).toEqual({ requests: { cpu: '1', memory: '4Gi' } });

    const [gpuPool] = plan([
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'team-a',
        dynamic: [{ name: 'ml', autoscaler: 'cluster-api', requirements: [{ property: 'nvidia.com/gpu', operator: 'Exists' }], limits: { nodes: 2 } }],
      },
    ]);
    const gpuObjs = renderClusterApiPool(gpuPool, { namespace: 'acme-team-a' });
    expect(validateAgainstCrd(gpuObjs.machineTemplate)).toEqual([]);
    expect(gpuObjs.machineDeployment.metadata.annotations).toMatchObject({
      'capacity.cluster-autoscaler.kubernetes.io/gpu-type': 'nvidia.com/gpu',
      'capacity.cluster-autoscaler.kubernetes.io/gpu-count': '2',
    });
  });
});

describe('node environment', () => {
  it('makes a namespace and a default-deny NetworkPolicy per (cluster, provider)', () => {
    const [ns, np] = renderNodeEnvironment({ cluster: 'prod', provider: 'virt' });
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'prod-virt',
        labels: { 'app.kubernetes.io/managed-by': 'metalslice', 'metalslice.io/cluster': 'prod', 'metalslice.io/provider': 'virt' },
      },
    });
    expect(np).toMatchObject({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'default-deny', namespace: 'prod-virt' },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    });
    // Core objects: validated against the Kubernetes OpenAPI schema (throws when invalid).
    expect(() => new Namespace(ns as ConstructorParameters<typeof Namespace>[0]).validate()).not.toThrow();
    expect(() => new NetworkPolicy(np as ConstructorParameters<typeof NetworkPolicy>[0]).validate()).not.toThrow();
    expect(
      renderNodeEnvironments([
        { cluster: 'a', provider: 'b' },
        { cluster: 'c', provider: 'd' },
      ]),
    ).toHaveLength(4);
  });

  it('shortens long names with a stable hash that keeps pairs apart', () => {
    const long = 'x'.repeat(40);
    const a = nodeEnvironmentNamespace({ cluster: long, provider: `${long}a` });
    const b = nodeEnvironmentNamespace({ cluster: long, provider: `${long}b` });
    expect(a.length).toBeLessThanOrEqual(63);
    expect(a).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(a).not.toBe(b);
    expect(nodeEnvironmentNamespace({ cluster: long, provider: `${long}a` })).toBe(a);
  });
});
