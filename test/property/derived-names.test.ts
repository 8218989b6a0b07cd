/**
 * Every derived name has one owner: for any names people write, either the plan refuses naming both owners
 * of a clash, or every namespace, every VM name within a namespace and every config construct id is
 * distinct. Names are drawn from a tiny alphabet with dashes so that concatenations collide often.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { planModel } from '../../constructs/core/plan';
import { AutoNodesSpec, MetalsliceConfig } from '../../constructs/core/input/model';
import { nodeEnvironmentNamespace } from '../../constructs/render/node-environment';
import { cluster, fleet, hosts, quota } from '../support/models';

const part = fc.constantFrom('a', 'b', 'team', 'virt', 'a-virt', 'team-a', 'b-a');
const names = (n: number) => fc.uniqueArray(part, { minLength: 1, maxLength: n });

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)));
}

describe('derived names (property)', () => {
  it('are distinct, or the plan names both owners of the clash', () => {
    fc.assert(
      fc.property(names(3), names(2), names(2), names(2), fc.constantFrom('acme', 'team', 'a'), (clusters, providers, quotas, pools, org) => {
        const model: MetalsliceConfig = {
          fleets: [fleet('fra1', hosts(4, { cpu: 64, memory: '256Gi', disk: '2Ti' }))],
          quotas: quotas.map((q) => quota(q, 'fra1', { cpu: 32, memory: '64Gi', disk: '1Ti' }, { organization: org })),
          clusters: clusters.map((c) => cluster(c)),
          nodeProviders: providers.map((p) => ({
            name: p,
            kind: 'kubevirt' as const,
            fleet: 'fra1',
            nodeTypes: [{ name: 'small', resources: { cpu: 1, memory: '2Gi' } }],
          })),
          nodePools: pools.map((p, i) => ({
            name: p,
            quota: quotas[i % quotas.length],
            cluster: clusters[0],
            shape: { cpu: 1, memory: '2Gi', disk: '10Gi' },
            count: 1,
          })),
          autoNodes: clusters.flatMap((c, i): AutoNodesSpec[] =>
            providers.map((p) => ({ cluster: c, provider: p, quota: quotas[i % quotas.length], static: [{ name: `s${i}`, quantity: 1 }] })),
          ),
        };
        const plan = planModel(model);
        const clashes = plan.errors.filter((e) => /would belong to both/.test(e.message));
        const namespaces = [...plan.report.quotas.map((q) => q.namespace), ...(plan.report.environments ?? []).map((e) => nodeEnvironmentNamespace(e))];
        const vmNames = plan.vms.filter((v) => v.concrete).map((v) => `${v.namespace}/${v.name}`);
        const ids = [
          ...(model.quotas ?? []),
          ...(model.clusters ?? []),
          ...(model.nodeProviders ?? []),
          ...(model.nodePools ?? []),
          ...(model.fleets ?? []),
        ].map((x) => x.name);
        const clashing = [...duplicates(namespaces), ...duplicates(vmNames), ...duplicates(ids)];
        if (clashes.length === 0) {
          // No clash reported: then there must be none (unless the plan refused for other reasons first).
          if (plan.errors.length === 0) expect(clashing).toEqual([]);
        } else {
          // Every clash reported names two owners.
          for (const c of clashes) expect(c.message).toMatch(/both .+ \(.+\) and .+:/);
        }
        if (clashing.length > 0) expect(plan.ok).toBe(false);
      }),
      { numRuns: 300, seed: 1311 },
    );
  });
});
