import { describe, expect, it } from '@jest/globals';
import { planModel } from '../../constructs/core/plan';
import { cluster } from '../support/models';
import { MetalsliceConfig } from '../../constructs/core/input/model';

function model(
  pods: { resources: Record<string, string | number>; count: number }[],
  limits: Record<string, string | number> = { cpu: 900, nodes: 100 },
): MetalsliceConfig {
  return {
    clusters: [cluster()],
    fleets: [{ name: 'f', hosts: [{ name: 'h', capacity: { cpu: 1001, memory: '4100Gi' }, allocatable: { cpu: 1001, memory: '4100Gi' } }] }],
    quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: { cpu: 1000, memory: '4Ti' } }],
    nodeProviders: [
      {
        name: 'virt',
        kind: 'kubevirt',
        fleet: 'f',
        nodeTypes: [
          { name: 'small', resources: { cpu: 2, memory: '4Gi' } },
          { name: 'big', resources: { cpu: 16, memory: '64Gi' } },
        ],
      },
    ],
    autoNodes: [
      { cluster: 'prod', provider: 'virt', quota: 'q', dynamic: [{ name: 'burst', limits, preview: { pods, nodeOverhead: { cpu: 0, memory: 0 } } }] },
    ],
  };
}

describe('dynamic pool preview', () => {
  it('previews 40 pods of 2 CPU / 4Gi and 3 of 16 CPU / 64Gi as the cheapest mix, with a lower bound', () => {
    const plan = planModel(
      model([
        { resources: { cpu: 2, memory: '4Gi' }, count: 40 },
        { resources: { cpu: 16, memory: '64Gi' }, count: 3 },
      ]),
    );
    expect(plan.errors).toEqual([]);
    const preview = plan.report.pools.find((p) => p.name === 'burst')!.preview!;
    // small costs 28 and big 288 (10/CPU + 2/GiB): 40 small + 3 big = 1120 + 864; nothing cheaper holds the pods.
    expect(preview.nodes).toEqual([
      { nodeType: 'virt.small', count: 40 },
      { nodeType: 'virt.big', count: 3 },
    ]);
    expect(preview.cost).toBe(1984);
    expect(preview.lowerBound).toBeLessThanOrEqual(1984);
    expect(preview.summary).toBe(
      `40 of cpu 2, memory 4 Gi and 3 of cpu 16, memory 64 Gi would create 40 x virt.small, 3 x virt.big (cost 1984, no mix costs less than ${preview.lowerBound})`,
    );
  });

  it("warns when the previewed pods need more than the pool's limits allow", () => {
    const plan = planModel(model([{ resources: { cpu: 2, memory: '4Gi' }, count: 10 }], { cpu: 8, nodes: 3 }));
    expect(plan.warnings).toEqual([{ path: 'autoNodes[0].dynamic[0].preview', message: expect.stringMatching(/nodes \(10 > 3\), cpu/) }]);
  });

  it('is an error, with its path, when a previewed pod fits no matching type', () => {
    const plan = planModel(model([{ resources: { cpu: 64, memory: '4Gi' }, count: 1 }]));
    expect(plan.errors).toEqual([
      {
        path: 'autoNodes[0].dynamic[0].preview.pods[0]',
        message:
          "a pod of cpu 64, memory 4 Gi fits none of the pool's node types (virt.small, virt.big) after the node overhead: shrink the pod or allow a bigger type",
      },
    ]);
  });
});
