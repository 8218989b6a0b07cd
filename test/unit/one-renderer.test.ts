/**
 * One renderer: a node type taken down the constructs' roads (elastic pool, static auto-node pool, Cluster
 * API template) is one VM spec once the claim's fields are set aside, with every `vm` option and the fleet's
 * overcommit in it. The HCL road is checked by test/e2e/node-template-parity.test.ts with OpenTofu itself.
 */
import { describe, expect, it } from '@jest/globals';
import { claimFree, ROAD_TYPES, roadSpecs, roadsPlan, templateVars } from '../support/four-roads';

const plan = roadsPlan();
const roads = roadSpecs(plan);
const nameOf = (vm: Record<string, unknown>) => (vm.metadata as { name: string }).name;

describe('every road renders the same VM', () => {
  it.each(roads.map((r) => [r.type, r] as const))('%s: elastic, static and Cluster API specs are byte-equal', (_t, r) => {
    const elastic = JSON.stringify(claimFree(r.elastic, nameOf(r.elastic)));
    expect(JSON.stringify(claimFree(r.static, nameOf(r.static)))).toBe(elastic);
    expect(JSON.stringify(claimFree(r.clusterApi))).toBe(elastic);
  });

  it('the Cluster API template keeps every option the plan charged (the bug: it rendered cores, memory and requests only)', () => {
    const nfv = JSON.stringify(roads.find((r) => r.type === 'nfv')!.clusterApi);
    for (const part of [
      '"dedicatedCpuPlacement":true',
      '"isolateEmulatorThread":true',
      '"threads":2',
      '"hugepages":{"pageSize":"1Gi"}',
      '"autoattachGraphicsDevice":false',
      '"logSerialConsole":false',
      '"nodeSelector":{"metalslice.io/fleet":"fra1"}',
    ])
      expect(nfv).toContain(part);
    // The memory request the plan counted: 12Gi guest at memoryOvercommit 150.
    expect(nfv).toContain('"requests":{"memory":"8Gi"}');
  });

  it('the node template data holds each pool and each type as the renderer writes it', () => {
    const vars = templateVars(plan) as {
      vm_types: Record<string, { spec: unknown }>;
      vm_pools: Record<string, { spec: unknown; pinnedEvictionStrategy: string }>;
    };
    expect(Object.keys(vars.vm_types)).toEqual(ROAD_TYPES.map((t) => t.name).sort());
    for (const r of roads) {
      const pool = vars.vm_pools[`prod-static-${r.type}`] ?? vars.vm_pools[`static-${r.type}`];
      expect(JSON.stringify(pool.spec)).toBe(JSON.stringify(claimFree(r.elastic, nameOf(r.elastic))));
    }
    // A pool that chose External keeps it when pinned; any other pinned VM cannot migrate.
    expect(
      Object.values(vars.vm_pools)
        .map((p) => p.pinnedEvictionStrategy)
        .sort(),
    ).toEqual(['External', 'External', 'None', 'None', 'None', 'None', 'None', 'None']);
  });
});
