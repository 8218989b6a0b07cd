import { describe, expect, it } from '@jest/globals';
import * as path from 'path';
import { TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { addConfig, CapacityPlan } from '../../constructs';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { validateCoreObject } from '../support/core-schema';
import { knownKinds, validateAgainstCrd } from '../support/crd-schema';
import { REPO_ROOT } from '../support/models';
import { asApplied, inlineForEach, stackObjects } from '../support/stack-objects';
import { isDrainKey } from '../support/synth';

type Synth = { resource: Record<string, Record<string, { manifest?: { apiVersion: string; kind: string; metadata: { name: string } } }>> };

describe('a cdktf app from the YAML config', () => {
  const config = loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'));
  const stack = new TerraformStack(Testing.app(), 'from-config');
  new KubernetesProvider(stack, 'kubernetes', {});
  new RandomProvider(stack, 'random');
  new CapacityPlan(stack, 'plan');
  addConfig(stack, config);
  const json = inlineForEach(JSON.parse(Testing.synth(stack)) as Synth);
  const manifests = stackObjects(json).map((o) => o.object);

  it('synthesizes every kind of node the config declares', () => {
    const count = (kind: string) => manifests.filter((m) => m.kind === kind).length;
    // 6 workers + 2 highmem (elastic) + 2 base (static auto nodes)
    expect(count('VirtualMachine')).toBe(10);
    expect(count('NodePool')).toBe(1);
    expect(count('MachineDeployment')).toBe(1);
    // 2 private GPU hosts, and the policy that lets the tenant claim them
    expect(count('HostClaim')).toBe(2);
    expect(count('HostDeployPolicy')).toBe(1);
    expect(count('KubeVirt')).toBe(1);
  });

  it('validates every manifest against its CRD or core model', () => {
    const kinds = new Set(knownKinds());
    for (const m of manifests) {
      const errors = kinds.has(`${m.apiVersion}/${m.kind}`) || kinds.has(m.kind) ? validateAgainstCrd(m) : validateCoreObject(asApplied(m));
      expect({ name: `${m.kind}/${m.metadata.name}`, errors }).toEqual({ name: `${m.kind}/${m.metadata.name}`, errors: [] });
    }
  });

  it('plans the same pools as `metalslice plan` on the same file', () => {
    const synthPlan = CapacityPlan.of(stack)!.plan().report;
    const names = (r: typeof synthPlan) => r.pools.map((p) => `${p.kind}:${p.name}:${p.nodeType}:${p.nodes.map((n) => n.host).join(',')}`);
    expect(names(synthPlan)).toEqual(names(planModel(config).report));
  });

  it("drains each node with its pool's drainTimeout (15m unless the pool says), and refuses one that is not a duration at its path", () => {
    // Every node's drain input, from all the drain blocks (a node is in the pair its VMs or HostClaim hash to).
    const drains = (j: Synth): Record<string, { timeout: string }> =>
      Object.assign(
        {},
        ...Object.entries(j.resource.terraform_data ?? {})
          .filter(([name]) => isDrainKey(`terraform_data.${name}`))
          .map(([, r]) => (r as unknown as { for_each: Record<string, { timeout: string }> }).for_each),
      ) as Record<string, { timeout: string }>;
    const defaults = drains(json);
    expect(defaults['team-a-workers-0'].timeout).toBe('15m');
    expect(defaults['team-a-prod-train-0'].timeout).toBe('15m');
    const slow = {
      ...config,
      nodePools: config.nodePools!.map((p) => (p.name === 'team-a-workers' ? { ...p, drainTimeout: '1h30m' } : p)),
      privateNodePools: config.privateNodePools!.map((p) => ({ ...p, drainTimeout: '45m' })),
    };
    const other = new TerraformStack(Testing.app(), 'from-config');
    new KubernetesProvider(other, 'kubernetes', {});
    new RandomProvider(other, 'random');
    new CapacityPlan(other, 'plan');
    addConfig(other, slow);
    const set = drains(inlineForEach(JSON.parse(Testing.synth(other)) as Synth));
    expect([set['team-a-workers-0'].timeout, set['team-a-highmem-0'].timeout, set['team-a-prod-train-1'].timeout]).toEqual(['1h30m', '15m', '45m']);

    const bad = { ...config, nodePools: config.nodePools!.map((p, i) => (i === 0 ? { ...p, drainTimeout: '15 minutes' } : p)) };
    const problems = planModel(bad).errors.filter((e) => e.path.endsWith('drainTimeout'));
    expect(problems).toEqual([
      { path: 'nodePools[0].drainTimeout', message: expect.stringContaining('is not a duration: write whole hours, minutes and seconds, like 15m') },
    ]);
  });
});
