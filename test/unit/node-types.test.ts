import { describe, expect, it } from '@jest/globals';
import { NodeProviderSpec } from '../../constructs/core/input/model';
import { defaultNodeTypeCost, nodeLabelsFor, parseNodeProviders } from '../../constructs/core/auto/node-types';
import { parseResources } from '../../constructs/core/base/resources';

const virt = (nodeTypes: NodeProviderSpec['nodeTypes'], extra: Partial<NodeProviderSpec> = {}): NodeProviderSpec => ({
  name: 'virt',
  kind: 'kubevirt',
  fleet: 'fra1',
  nodeTypes,
  ...extra,
});

describe('default node type cost', () => {
  it('is 10 per CPU + 2 per GiB: 2 CPU / 4Gi costs 28, 4 CPU / 16Gi costs 72', () => {
    expect(defaultNodeTypeCost(parseResources({ cpu: 2, memory: '4Gi' }, 'r'))).toBe(28);
    expect(defaultNodeTypeCost(parseResources({ cpu: 4, memory: '16Gi' }, 'r'))).toBe(72);
  });

  it('adds 10000 per unit of an extended resource and ignores disk', () => {
    expect(defaultNodeTypeCost(parseResources({ cpu: 2, memory: '4Gi', disk: '100Gi', 'nvidia.com/gpu': 2 }, 'r'))).toBe(20028);
  });

  it('counts fractional CPU and memory', () => {
    expect(defaultNodeTypeCost(parseResources({ cpu: '500m', memory: '512Mi' }, 'r'))).toBe(6);
  });
});

describe('parsing a catalogue', () => {
  it('gives every type the built-in properties and its cost', () => {
    const { providers, issues } = parseNodeProviders([virt([{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }])]);
    expect(issues).toEqual([]);
    const small = providers[0].types[0];
    expect(small.id).toBe('virt.small');
    expect(small.cost).toBe(28);
    expect(Object.fromEntries([...small.properties].map(([k, v]) => [k, v.values.join(',')]))).toEqual({
      'karpenter.sh/capacity-type': 'on-demand',
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'small',
      'topology.kubernetes.io/zone': 'global',
      'vcluster.com/node-type': 'small',
    });
  });

  it('keeps an explicit cost over the formula', () => {
    const { providers } = parseNodeProviders([virt([{ name: 'big', resources: { cpu: 4, memory: '16Gi' }, cost: 5 }])]);
    expect(providers[0].types[0].cost).toBe(5);
  });

  it('lets type properties override provider properties and sets the zone', () => {
    const { providers } = parseNodeProviders([
      virt([{ name: 'a', resources: { cpu: 1, memory: '1Gi' }, zone: 'z1', properties: { tier: 'gold' } }], { properties: { tier: 'bronze', region: 'eu' } }),
    ]);
    const t = providers[0].types[0];
    expect(t.properties.get('tier')!.values).toEqual(['gold']);
    expect(t.properties.get('region')!.values).toEqual(['eu']);
    expect(t.properties.get('topology.kubernetes.io/zone')!.values).toEqual(['z1']);
    expect(t.zone).toBe('z1');
  });

  it('exposes extended resources as properties so a claim can require them', () => {
    const { providers } = parseNodeProviders([virt([{ name: 'gpu', resources: { cpu: 8, memory: '64Gi', 'nvidia.com/gpu': 1 } }])]);
    expect(providers[0].types[0].extendedResources).toEqual(['nvidia.com/gpu']);
    expect(providers[0].types[0].properties.get('nvidia.com/gpu')!.values).toEqual(['1']);
  });

  it('rejects duplicate type names, bad names and identity overrides with paths', () => {
    const { issues } = parseNodeProviders([
      virt([
        { name: 'a', resources: { cpu: 1, memory: '1Gi' } },
        { name: 'a', resources: { cpu: 1, memory: '1Gi' } },
        { name: 'Big_One', resources: { cpu: 1, memory: '1Gi' } },
        { name: 'c', resources: { cpu: 1, memory: '1Gi' }, properties: { 'vcluster.com/node-type': 'other' } },
        { name: 'd' },
      ]),
    ]);
    expect(issues.map((i) => i.path)).toEqual([
      'nodeProviders[0].nodeTypes[1].name',
      'nodeProviders[0].nodeTypes[2].name',
      'nodeProviders[0].nodeTypes[3].properties["vcluster.com/node-type"]',
      'nodeProviders[0].nodeTypes[4].resources',
    ]);
  });

  it('rejects a duplicate provider and a kubevirt provider without fleet', () => {
    const { issues } = parseNodeProviders([virt([]), virt([]), { name: 'v2', kind: 'kubevirt', nodeTypes: [] }]);
    expect(issues).toEqual([
      { path: 'nodeProviders[1].name', message: expect.stringContaining('already defined at nodeProviders[0]') },
      { path: 'nodeProviders[2].fleet', message: expect.stringContaining('needs fleet') },
    ]);
  });
});

describe('metal3 node types', () => {
  const metal: NodeProviderSpec = {
    name: 'metal',
    kind: 'metal3',
    hosts: [
      { name: 'gpu-01', labels: { class: 'gpu' }, state: 'available', capacity: { cpu: 96, memory: '1Ti', 'nvidia.com/gpu': 8 } },
      { name: 'gpu-02', labels: { class: 'gpu' }, state: 'provisioned', consumer: 'other-cluster', capacity: { cpu: 96, memory: '1Ti', 'nvidia.com/gpu': 8 } },
      { name: 'gpu-03', labels: { class: 'gpu' }, state: 'ready', capacity: { cpu: 64, memory: '1Ti', 'nvidia.com/gpu': 4 } },
      { name: 'gpu-04', labels: { class: 'gpu' }, state: 'error', errorMessage: 'BMC unreachable', capacity: { cpu: 96, memory: '1Ti', 'nvidia.com/gpu': 8 } },
      { name: 'cpu-01', labels: { class: 'cpu' }, state: 'available', capacity: { cpu: 32, memory: '256Gi' } },
    ],
    nodeTypes: [
      { name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } },
      { name: 'cpu-node', hostSelector: { matchExpressions: [{ key: 'class', operator: 'In', values: ['cpu'] }] }, maxCapacity: 5 },
      { name: 'none', hostSelector: { matchLabels: { class: 'tpu' } } },
    ],
  };

  it('discovers resources from the smallest usable matching host and counts only free, healthy hosts', () => {
    const { providers, warnings, issues } = parseNodeProviders([metal]);
    const gpu = providers[0].types.find((t) => t.name === 'gpu-node')!;
    expect(gpu.resources.cpu.toString()).toBe('64');
    expect(gpu.resources['nvidia.com/gpu'].toString()).toBe('4');
    expect(gpu.hosts).toEqual(['gpu-01', 'gpu-03']);
    expect(gpu.maxCapacity).toBe(2);
    expect(providers[0].types.find((t) => t.name === 'cpu-node')!.maxCapacity).toBe(1);
    expect(warnings).toEqual([{ path: 'nodeProviders[0].hosts[3]', message: expect.stringContaining('gpu-04 is in error (BMC unreachable)') }]);
    expect(issues).toEqual([{ path: 'nodeProviders[0].nodeTypes[2].hostSelector', message: expect.stringContaining('matches none') }]);
  });
});

describe('node labels', () => {
  it('takes single values, narrows comma lists by In requirements, and lets claim labels win', () => {
    const { providers } = parseNodeProviders([virt([{ name: 'a', resources: { cpu: 1, memory: '1Gi' }, properties: { tier: 'x,y', team: 'red' } }])]);
    const labels = nodeLabelsFor(providers[0].types[0], new Map([['tier', ['y']]]), { team: 'blue' });
    expect(labels).toMatchObject({ tier: 'y', team: 'blue', 'vcluster.com/node-type': 'a' });
    expect(nodeLabelsFor(providers[0].types[0], new Map())).not.toHaveProperty('tier');
  });
});
