import { describe, expect, it } from '@jest/globals';
import * as path from 'path';
import { App, TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { addConfig, addConfigStacks, CapacityPlan, ConfigStacks, MetalsliceConfig, TenantCluster } from '../../constructs';
import { loadConfigFile } from '../../constructs/core/input/config';
import { REPO_ROOT } from '../support/models';
import { isDrainKey, isNodeEndKey, isRolloutKey, rolloutDelta } from '../support/synth';
import { inlineForEach, instancesByAddress } from '../support/stack-objects';
import { DRAIN_BUCKETS } from '../../constructs/parts/node-drain';

type Resource = Record<string, unknown> & { '//'?: unknown; depends_on?: string[] };
type Synth = { resource: Record<string, Record<string, Resource>>; provider?: Record<string, unknown[]>; locals?: Record<string, unknown> };

function setUpStack(stack: TerraformStack): void {
  new KubernetesProvider(stack, 'kubernetes', {});
  new RandomProvider(stack, 'random');
}

function split(config: MetalsliceConfig): { app: App; stacks: ConfigStacks } {
  const app = Testing.app();
  return { app, stacks: addConfigStacks(app, config, { setUpStack }) };
}

function synth(stack: TerraformStack): Synth {
  return JSON.parse(Testing.synth(stack)) as Synth;
}

/** `type.name`, or `type.name["key"]` for an instance of a `for_each`, -> its arguments, without construct-path metadata. */
function instances(json: Synth): Map<string, Resource> {
  return new Map([...instancesByAddress<Resource>(json)].map(([address, { '//': _meta, ...body }]) => [address, body]));
}

/** `type.name` -> the resource without its construct-path metadata. */
function resources(json: Synth): Map<string, Resource> {
  const out = new Map<string, Resource>();
  // Each `for_each` as the map its local holds: the stacks name their locals alike, and a test compares the keys.
  for (const [type, byName] of Object.entries(inlineForEach(json).resource ?? {})) {
    for (const [name, { '//': _meta, ...body }] of Object.entries(byName)) out.set(`${type}.${name}`, body);
  }
  return out;
}

const example = (): MetalsliceConfig => loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'));

describe('addConfigStacks: a stack per elastic node pool', () => {
  const config = example();
  const { stacks } = split(config);

  it('makes a base stack and one stack per elastic pool, each deployed after the base and the pool before it (pools roll one at a time)', () => {
    expect(stacks.base.node.id).toBe('metalslice');
    expect([...stacks.pools.keys()]).toEqual((config.nodePools ?? []).map((p) => p.name));
    const ids = (deps: readonly { node: { id: string } }[]) => deps.map((d) => d.node.id);
    let previous: string | undefined;
    for (const [name, stack] of stacks.pools) {
      expect(stack.node.id).toBe(`metalslice-pool-${name}`);
      expect(ids(stack.dependencies)).toEqual(['metalslice', ...(previous ? [previous] : [])]);
      previous = stack.node.id;
    }
  });

  it("synthesizes the same resources as one stack, a pool's VMs and their Secrets waiting for their quota by stack order instead of depends_on", () => {
    const oneStack = new TerraformStack(Testing.app(), 'from-config');
    setUpStack(oneStack);
    new CapacityPlan(oneStack, 'plan');
    addConfig(oneStack, example());
    const whole = resources(synth(oneStack));

    const parts = [stacks.base, ...stacks.pools.values()].map((s) => resources(synth(s)));
    const union = new Map<string, Resource>();
    // Each stack drains its own nodes: the drains of a cluster, one resource per stack, hold together what the one
    // stack's resource holds.
    const drained = new Map<string, Set<string>>();
    for (const part of parts)
      for (const [key, body] of part) {
        if (isDrainKey(key) || isNodeEndKey(key)) {
          const nodes = Object.keys((body as unknown as { for_each: object }).for_each);
          for (const n of nodes) expect(drained.get(key)?.has(n)).not.toBe(true);
          drained.set(key, new Set([...(drained.get(key) ?? []), ...nodes]));
          if (union.has(key)) continue;
        }
        expect(union.has(key)).toBe(false);
        union.set(key, body);
      }
    for (const [key, body] of whole)
      if (isDrainKey(key) || isNodeEndKey(key))
        expect([...drained.get(key)!].sort()).toEqual(Object.keys((body as unknown as { for_each: object }).for_each).sort());
    expect([...union.keys()].sort()).toEqual([...whole.keys()].sort());
    // Every node resource depends on its cluster's node ends in its own stack (its Node deleted after it): the same
    // in both layouts, so left out of the comparison below.
    const withoutEnds = (b: Resource): Resource => {
      const kept = (b.depends_on ?? []).filter((d) => !isNodeEndKey(d) && !/^local\.node-drains-.+_Ends-\d+_[0-9A-F]{8}$/.test(d));
      const { depends_on: _, ...rest } = b;
      return kept.length > 0 ? { ...rest, depends_on: kept } : rest;
    };
    let waited = 0;
    for (const [key, full] of whole) {
      if (isDrainKey(key) || isNodeEndKey(key)) continue;
      const body = withoutEnds(full);
      const { depends_on: dependsOn, ...rest } = body;
      const mine = withoutEnds(union.get(key)!);
      const lost = (dependsOn ?? []).filter((d) => !(mine.depends_on ?? []).includes(d));
      if (lost.length > 0 && !isRolloutKey(key)) {
        // Only the VMs of pool stacks and their cloud-init Secrets lose a depends_on: the VMs the one on their
        // quota's accounting, the Secrets the one on its namespace (a VM keeps the ones on its own Secrets).
        expect(key).toMatch(/^kubectl_manifest\.team-a-(workers|highmem)_/);
        expect(lost).toEqual([
          !/_UserData_[0-9A-F]{8}$/.test(key)
            ? expect.stringMatching(/^terraform_data\.team-a_Accounted_[0-9A-F]{8}$/)
            : expect.stringMatching(/^kubernetes_namespace_v1\.team-a_Namespace_[0-9A-F]{8}$/),
        ]);
        waited += 1;
        const kept = (dependsOn ?? []).filter((d) => !lost.includes(d));
        expect(mine).toEqual(kept.length > 0 ? { ...rest, depends_on: kept } : rest);
      } else if (isRolloutKey(key)) {
        // In one stack the pools roll one after another; a pool stack rolls its own pool alone (stacks deploy in
        // turn), and the base stack's pools (auto-node and private) roll one after another among themselves.
        const chained = (dependsOn ?? []).filter(isRolloutKey);
        const mineChained = (mine.depends_on ?? []).filter(isRolloutKey);
        expect({ ...mine, depends_on: (mine.depends_on ?? []).filter((d) => !isRolloutKey(d)) }).toEqual({
          ...body,
          depends_on: (dependsOn ?? []).filter((d) => !isRolloutKey(d)),
        });
        expect(chained.length).toBeLessThanOrEqual(1);
        expect(mineChained.every((d) => whole.has(d) && union.has(d))).toBe(true);
        expect(mineChained.length).toBeLessThanOrEqual(1);
      } else if (key.startsWith('kubernetes_labels.')) {
        // A fleet's group labels are written under a field manager of the stack's own name (one per stack, so two
        // stacks planning pools on one fleet never remove each other's labels): the rest is the same.
        expect(mine).toEqual({ ...body, field_manager: mine.field_manager });
        expect([body.field_manager, mine.field_manager]).toEqual(['metalslice/from-config/fra1', 'metalslice/metalslice/fra1']);
      } else {
        expect(mine).toEqual(body);
      }
    }
    // Per pool stack: its VMs (one resource) and its cloud-init Secrets (one resource).
    expect(waited).toBe(4);
  });

  it("gives each pool stack its own providers, the tenant cluster as an alias like the base stack's", () => {
    const base = synth(stacks.base);
    for (const stack of stacks.pools.values()) {
      const json = synth(stack);
      // The same providers; their order is the order the stack first needed each (the base stack's fleet needs its
      // default kubectl provider before any tenant's), which says nothing.
      const byAlias = (provider: Synth['provider']) =>
        Object.fromEntries(
          Object.entries(provider ?? {}).map(([type, list]) => [
            type,
            [...(list as { alias?: string }[])].sort((a, b) => (a.alias ?? '').localeCompare(b.alias ?? '')),
          ]),
        );
      expect(byAlias(json.provider)).toEqual(byAlias(base.provider));
      // The token Secrets, applied server-side through the kubectl provider that mirrors the tenant's alias.
      const tokens = Object.values(json.resource.kubectl_manifest).filter((s) => s.provider !== undefined);
      expect(tokens.length).toBeGreaterThan(0);
      for (const t of tokens) expect(t.provider).toBe('kubectl.tenant-team-a-prod');
    }
  });

  it('proves every stack together with the one plan in the base stack', () => {
    const plan = CapacityPlan.of(stacks.pools.get('team-a-workers')!)!;
    expect(plan).toBe(CapacityPlan.of(stacks.base));
    expect(plan.node.path).toBe('metalslice/plan');
    const report = plan.plan().report;
    expect(report.pools.map((p) => p.name)).toEqual(expect.arrayContaining(['team-a-workers', 'team-a-highmem', 'base', 'train']));
    expect(report.quotas.find((q) => q.name === 'team-a')!.virtualMachines).toBe(10);
  });

  it("changes only the scaled pool's stack when a pool grows by one", () => {
    const config = example();
    const grown = { ...config, nodePools: config.nodePools!.map((p) => (p.name === 'team-a-workers' ? { ...p, count: p.count + 1 } : p)) };
    const after = split(grown).stacks;
    expect(Testing.synth(after.base)).toBe(Testing.synth(stacks.base));
    expect(Testing.synth(after.pools.get('team-a-highmem')!)).toBe(Testing.synth(stacks.pools.get('team-a-highmem')!));
    const [was, is] = [instances(synth(stacks.pools.get('team-a-workers')!)), instances(synth(after.pools.get('team-a-workers')!))];
    // Exactly the new node's instances: its VM, user data Secret, token (three resources), drain and end.
    const added = [...is.keys()].filter((k) => !was.has(k));
    // (The drain and end in the pair of drain blocks the pool's VMs hash to: `Resource-<n>` and `End-<n>`, or the first.)
    expect(
      added
        .map((k) =>
          k
            .replace(/_[0-9A-F]{8}\[/, '[')
            .replace(/_Resource-\d+\[/, '[')
            .replace(/_End-\d+\[/, '_End['),
        )
        .sort(),
    ).toEqual(
      [
        'kubectl_manifest.team-a-workers_nodes',
        'kubectl_manifest.team-a-workers_nodes_BootstrapToken',
        'kubectl_manifest.team-a-workers_nodes_UserData',
        'random_password.team-a-workers_nodes_TokenSecret',
        'random_string.team-a-workers_nodes_TokenId',
        'terraform_data.node-drains-team-a-prod',
        'terraform_data.node-drains-team-a-prod_End',
      ].map((r) => `${r}["team-a-workers-6"]`),
    );
    expect([...was.keys()].filter((k) => !is.has(k))).toEqual([]);
    for (const [key, body] of was) {
      if (isRolloutKey(key) && key.startsWith('terraform_data.team-a-workers_rollout_'))
        expect(rolloutDelta(JSON.stringify(body), JSON.stringify(is.get(key)))).toEqual({ dependsOn: [], nodes: ['team-a-workers-6'], restUnchanged: true });
      else expect({ key, body: is.get(key) }).toEqual({ key, body });
    }
  });

  it("keeps a pool stack's drains, with no node, when the pool is scaled to 0: the removed nodes are still drained", () => {
    const config = example();
    const none = { ...config, nodePools: config.nodePools!.map((p) => (p.name === 'team-a-workers' ? { ...p, count: 0 } : p)) };
    const drained = resources(synth(split(none).stacks.pools.get('team-a-workers')!));
    const drains = [...drained].filter(([key]) => isDrainKey(key) || isNodeEndKey(key)).map(([, body]) => (body as unknown as { for_each: object }).for_each);
    // The drains and the ends (the Nodes deleted once their VMs are gone), every pair of blocks with no instance.
    expect(drains).toEqual(Array.from({ length: 2 * DRAIN_BUCKETS }, () => ({})));
    // The pool's VMs, Secrets and tokens: their resources stay, with no instance.
    const nodes = [...drained].filter(([key]) => /^(kubectl_manifest|random_string|random_password)\./.test(key));
    expect(nodes.map(([, body]) => (body as unknown as { for_each: object }).for_each)).toEqual([{}, {}, {}, {}, {}]);
  });

  it('refuses a second plan covering the app, and a tenant cluster whose provider cannot be copied', () => {
    const { app } = split(example());
    const other = new TerraformStack(app, 'other');
    expect(() => new CapacityPlan(other, 'plan', { covers: app })).toThrow(/already covered by the CapacityPlan metalslice\/plan: one plan per app/);
    const given = new TerraformStack(Testing.app(), 'given');
    const cluster = new TenantCluster(given, 'c', {
      endpoint: 'https://10.0.0.1:6443',
      caCertificate: 'x',
      provider: new KubernetesProvider(given, 'k', { alias: 'mine' }),
    });
    expect(() => TenantCluster.inStack(new TerraformStack(given.node.scope!, 'elsewhere'), cluster)).toThrow(
      /was given its own provider, which belongs to its stack: declare it with kubeconfigPath/,
    );
    expect(TenantCluster.inStack(given, cluster)).toBe(cluster);
  });
});
