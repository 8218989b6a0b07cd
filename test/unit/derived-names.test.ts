import { describe, expect, it } from '@jest/globals';
import { planModel } from '../../constructs/core/plan';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { cluster, fleet, hosts, quota } from '../support/models';

const base = (extra: Partial<MetalsliceConfig>): MetalsliceConfig => ({
  fleets: [fleet('fra1', hosts(4, { cpu: 64, memory: '256Gi', disk: '2Ti' }))],
  quotas: [quota('q1', 'fra1', { cpu: 32, memory: '64Gi', disk: '1Ti' })],
  clusters: [cluster('team'), cluster('team-a')],
  ...extra,
});
const virt = (name: string) => ({ name, kind: 'kubevirt' as const, fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 1, memory: '2Gi' } }] });

describe('derived names have one owner', () => {
  it('refuses two tenants whose cluster and provider names concatenate to one namespace, naming both', () => {
    const plan = planModel(
      base({
        nodeProviders: [virt('a-virt'), virt('virt')],
        autoNodes: [
          { cluster: 'team', provider: 'a-virt', quota: 'q1', dynamic: [{ name: 'x', limits: { nodes: 1 } }] },
          { cluster: 'team-a', provider: 'virt', quota: 'q1', dynamic: [{ name: 'y', limits: { nodes: 1 } }] },
        ],
      }),
    );
    expect(plan.errors).toEqual([
      {
        path: 'autoNodes[1].dynamic[0]',
        message: expect.stringContaining(
          'namespace "team-a-virt" would belong to both the node environment of cluster "team" and provider "a-virt" (autoNodes[0].dynamic[0]) and the node environment of cluster "team-a" and provider "virt"',
        ),
      },
    ]);
  });

  it('refuses a quota namespace that is also a node environment', () => {
    const plan = planModel(
      base({
        quotas: [quota('q1', 'fra1', { cpu: 32, memory: '64Gi', disk: '1Ti' }, { namespace: 'team-virt' })],
        nodeProviders: [virt('virt')],
        autoNodes: [{ cluster: 'team', provider: 'virt', quota: 'q1', dynamic: [{ name: 'x', limits: { nodes: 1 } }] }],
      }),
    );
    expect(plan.errors.map((e) => e.message)).toEqual([expect.stringContaining('namespace "team-virt" would belong to both quota "q1"')]);
  });

  it('refuses a quota and a node pool of one name (they would be one construct of a config app)', () => {
    const plan = planModel(base({ nodePools: [{ name: 'q1', quota: 'q1', cluster: 'team', shape: { cpu: 1, memory: '2Gi', disk: '10Gi' }, count: 1 }] }));
    expect(plan.errors).toEqual([
      { path: 'nodePools[0].name', message: expect.stringContaining('"q1" would belong to both quota "q1" (quotas[0].name) and node pool "q1"') },
    ]);
  });

  it("refuses an elastic pool whose VM names are a static pool's in the same namespace", () => {
    const plan = planModel(
      base({
        nodeProviders: [virt('virt')],
        nodePools: [{ name: 'team-base', quota: 'q1', cluster: 'team', shape: { cpu: 1, memory: '2Gi', disk: '10Gi' }, count: 1 }],
        autoNodes: [{ cluster: 'team', provider: 'virt', quota: 'q1', static: [{ name: 'base', quantity: 1 }] }],
      }),
    );
    expect(plan.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('VM name in namespace acme-q1 "team-base-0" would belong to both elastic pool "team-base"'),
    ]);
  });
});
