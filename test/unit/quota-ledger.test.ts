/**
 * One ledger per quota: type selection charges a node what accounting charges its VM (root-disk-size
 * included), and every kind of pool is refused in one wording.
 */
import { describe, expect, it } from '@jest/globals';
import { planModel } from '../../constructs/core/plan';
import { MetalsliceConfig, NodeTypeSpec } from '../../constructs/core/input/model';
import { poolSubject, QuotaLedger } from '../../constructs/core/quota/ledger';
import { parseResources } from '../../constructs/core/base/resources';
import { cluster, fleet, hosts, quota } from '../support/models';

const DISK = 'kubevirt.vcluster.com/root-disk-size';
const bigDisk: NodeTypeSpec = { name: 'small', resources: { cpu: 2, memory: '4Gi' }, properties: { [DISK]: '400Gi' } };
const noDisk: NodeTypeSpec = { name: 'medium', resources: { cpu: 4, memory: '8Gi' } };

/** A quota of 1Ti of disk and a static pool of three nodes on a kubevirt provider with these types. */
function model(nodeTypes: NodeTypeSpec[], pool: 'static' | 'dynamic' = 'static'): MetalsliceConfig {
  return {
    fleets: [fleet('fra1', hosts(2, { cpu: 64, memory: '256Gi', disk: '4Ti' }))],
    quotas: [quota('q', 'fra1', { cpu: 32, memory: '128Gi', disk: '1Ti' })],
    clusters: [cluster('prod')],
    nodeProviders: [{ name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes }],
    autoNodes: [
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'q',
        ...(pool === 'static' ? { static: [{ name: 'base', quantity: 3 }] } : { dynamic: [{ name: 'burst', limits: { nodes: 3 } }] }),
      },
    ],
  };
}

describe('the quota ledger', () => {
  it("refuses a static pool in type selection when its type's root-disk-size puts it over the quota, in the one wording", () => {
    // 3 x 400Gi root disks is 1200Gi, past 1Ti: accounting would refuse the VMs, so selection must not accept the type.
    const plan = planModel(model([bigDisk]));
    expect(plan.errors).toEqual([
      {
        path: 'autoNodes[0].static[0].quantity',
        message:
          'static pool "base" (virt.small) does not fit quota "q" (disk: needs 1.17 Ti (3 x 400 Gi, each VM\'s launcher pod as KubeVirt and its root disk), 1 Ti left of 1 Ti): lower quantity to 2, select a smaller type, or raise quotas[0].limits',
      },
    ]);
    expect(plan.vms).toEqual([]);
  });

  it('moves a static pool to the next cheapest type when the cheapest one only fits without its root disk', () => {
    const plan = planModel(model([bigDisk, noDisk]));
    expect(plan.errors).toEqual([]);
    expect(plan.vms.map((vm) => vm.nodeType)).toEqual(['medium', 'medium', 'medium']);
    const rejected = plan.autoPools[0].rejected;
    expect(rejected).toEqual([{ nodeType: 'virt.small', reason: expect.stringMatching(/^over quota q: 3 nodes need disk 1.17 Ti, disk 1 Ti left$/) }]);
  });

  it("counts a dynamic pool's root disks in its worst case", () => {
    const plan = planModel(model([bigDisk], 'dynamic'));
    expect(plan.errors).toEqual([
      {
        path: 'autoNodes[0].dynamic[0].limits',
        message: expect.stringMatching(/^dynamic pool "burst" \(virt.small\) at its limits does not fit quota "q" \(disk: needs 1.17 Ti \(3 x 400 Gi, /),
      },
    ]);
  });

  it('counts only what a claim asks for: a quota already over on disk does not refuse a pool without disks for it', () => {
    const ledger = new QuotaLedger({ name: 'q', path: 'quotas[0]', limits: parseResources({ cpu: 8, memory: '16Gi', disk: '10Gi' }, 'q') });
    ledger.charge(parseResources({ cpu: 1, memory: '1Gi', disk: '20Gi' }, 'x'));
    const each = parseResources({ cpu: 2, memory: '2Gi' }, 'x');
    expect(ledger.refusal({ subject: poolSubject('elastic', 'web'), count: 3, each, field: 'count' })).toBeUndefined();
    expect(ledger.refusal({ subject: poolSubject('elastic', 'web'), count: 4, each, field: 'count' })).toBe(
      'pool "web" does not fit quota "q" (cpu: needs 8 (4 x 2, each VM\'s launcher pod as KubeVirt requests it), 7 left of 8): lower count to 3 or raise quotas[0].limits',
    );
  });
});
