import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { validateCoreObject } from '../support/core-schema';
import { knownKinds, validateAgainstCrd } from '../support/crd-schema';
import { REPO_ROOT } from '../support/models';
import { instancesOf, isRolloutKey, movesOf, readTree, resourcesOf, rolloutDelta, synthExample } from '../support/synth';
import { asApplied, forEachLocal, stackObjects } from '../support/stack-objects';

// Bootstrap tokens are `[a-z0-9]{6}.[a-z0-9]{16}`; none may ever be a literal in what synth writes.
const TOKEN_LITERAL = /\b[a-z0-9]{6}\.[a-z0-9]{16}\b/;

/** The resources that hold a node of a VM pool (constructs/parts/vm-nodes.ts), under the pool's `nodes`. */
const NODE_RESOURCES = ['BootstrapToken', 'Resource', 'TokenId', 'TokenSecret', 'UserData'];

/**
 * Between two synths of the consumer stack: `node` added exactly its instances (its VM, user data and token, under
 * `poolPath/nodes`, and its drain and end), and five `moved` blocks to them; no instance went; every instance of
 * `before` is unchanged but its pool's rollout (`pool` in its key), whose provisioner gained the node (an argument
 * Terraform's plan does not show).
 */
function expectOnlyNodeGrew(beforeJson: string, afterJson: string, node: string, poolPath: string, pool: string): void {
  const [before, after] = [instancesOf(beforeJson), instancesOf(afterJson)];
  const key = `[${JSON.stringify(node)}]`;
  const added = [...after.keys()].filter((k) => !before.has(k));
  expect(added.every((k) => k.endsWith(key))).toBe(true);
  // Its drain and end are in the pair of blocks its pool's VMs hash to (parts/node-drain.ts): the same for both.
  const bucket = /^consumer\/node-drains-team-a-prod\/Resource(-\d+)?$/.exec(
    added.map((k) => after.get(k)!.path).find((p) => p.includes('/node-drains-team-a-prod/Resource')) ?? '',
  );
  expect(bucket).not.toBeNull();
  const suffix = bucket![1] ?? '';
  expect(added.map((k) => after.get(k)!.path).sort()).toEqual(
    [
      ...NODE_RESOURCES.map((r) => `consumer/${poolPath}/nodes/${r}`),
      `consumer/node-drains-team-a-prod/Resource${suffix}`,
      `consumer/node-drains-team-a-prod/End${suffix}`,
    ].sort(),
  );
  expect([...before.keys()].filter((k) => !after.has(k))).toEqual([]);
  const changed = [...before.keys()].filter((k) => after.get(k)!.body !== before.get(k)!.body);
  expect(changed).toEqual([expect.stringContaining(pool)]);
  expect(isRolloutKey(changed[0])).toBe(true);
  expect(rolloutDelta(before.get(changed[0])!.body, after.get(changed[0])!.body)).toEqual({ dependsOn: [], nodes: [node], restUnchanged: true });
  const moves = movesOf(afterJson).filter((m) => !movesOf(beforeJson).includes(m));
  // Five from 0.2-0.5's per-node addresses; and outside the first pair of drain blocks, its drain and end from there (0.6).
  expect(moves).toHaveLength(NODE_RESOURCES.length + (suffix ? 2 : 0));
  expect(moves.filter((m) => m.endsWith(key) && m.includes(`_${node}_`))).toHaveLength(NODE_RESOURCES.length);
  expect(moves.filter((m) => m.endsWith(key) && m.includes('node-drains-team-a-prod'))).toHaveLength(suffix ? 2 : 0);
}

describe('example app synth', () => {
  const first = synthExample();
  const second = synthExample();
  const scaled = synthExample({ METALSLICE_EXAMPLE_WORKERS: '7' });
  const scaledBase = synthExample({ METALSLICE_EXAMPLE_BASE_NODES: '3' });
  afterAll(() => [first, second, scaled, scaledBase].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('every object applied validates: CRD objects against the upstream CRDs, core objects against their models', () => {
    const kinds = new Set(knownKinds());
    let checked = 0;
    for (const stack of ['provider', 'consumer']) {
      for (const { address: name, object: m } of stackObjects(readTree(first).get(`stacks/${stack}/cdk.tf.json`) ?? '{}')) {
        const crd = kinds.has(`${m.apiVersion}/${m.kind}`) || kinds.has(m.kind);
        const errors = crd ? validateAgainstCrd(m) : validateCoreObject(asApplied(m));
        expect({ name, errors }).toEqual({ name, errors: [] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it("one more static auto node adds exactly that node's instances", () => {
    const consumer = (dir: string) => readTree(dir).get('stacks/consumer/cdk.tf.json')!;
    expectOnlyNodeGrew(consumer(first), consumer(scaledBase), 'team-a-prod-base-2', 'team-a-prod-virt/base', 'base_rollout');
  });

  it('a plan that does not fit stops the app with the construct path and the fix, and leaves no stack written', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-nofit-'));
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'app.ts')], {
      env: { ...process.env, CHECKPOINT_DISABLE: '1', CDKTF_OUTDIR: outdir, METALSLICE_EXAMPLE_WORKERS: '40' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /synth failed, nothing was written:[\s\S]*\[consumer\/plan\] consumer\/team-a-workers\.count: pool "team-a-workers" does not fit quota "team-a"/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(outdir, 'stacks'))).toBe(false);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('writes cdk.tf.json and the plan report beside it, for both stacks', () => {
    const files = [...readTree(first).keys()];
    for (const stack of ['provider', 'consumer']) {
      expect(files).toEqual(
        expect.arrayContaining([`stacks/${stack}/cdk.tf.json`, `stacks/${stack}/metalslice-plan.json`, `stacks/${stack}/metalslice-plan.md`]),
      );
    }
  });

  it('is byte-identical when synthesized twice', () => {
    const a = readTree(first);
    const b = readTree(second);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [file, content] of a) expect(b.get(file)).toBe(content);
  });

  it('has no token-like literal and no private key in any file it writes', () => {
    for (const [file, content] of readTree(first)) {
      expect({ file, token: TOKEN_LITERAL.exec(content)?.[0] }).toEqual({ file, token: undefined });
      expect(content).not.toMatch(/PRIVATE KEY/);
    }
  });

  it('makes bootstrap tokens with the random provider', () => {
    const consumer = readTree(first).get('stacks/consumer/cdk.tf.json')!;
    // Each token Secret reads its id and secret from a local of its chunk, which reads the random resources.
    const { locals } = JSON.parse(consumer) as { locals: Record<string, unknown> };
    const reads = (local: string | undefined) => (local === undefined ? undefined : String(locals[local]));
    const [id, secret] = [/token-id: \$\{base64encode\(local\.([\w-]+)\[/, /token-secret: \$\{base64encode\(local\.([\w-]+)\[/].map(
      (re) => re.exec(consumer)?.[1],
    );
    expect(reads(id)).toMatch(/^\$\{\{ for k, r in random_string\.[\w-]+ : k => r\.result \}\}$/);
    expect(reads(secret)).toMatch(/^\$\{\{ for k, r in random_password\.[\w-]+ : k => r\.result \}\}$/);
  });

  it('has the destroy of every VM wait until it is gone, and no other object wait (nothing needs a Secret, a quota or a KubeVirt CR gone first)', () => {
    const waits: Record<string, boolean[]> = {};
    for (const [file, content] of readTree(first)) {
      if (!file.endsWith('cdk.tf.json')) continue;
      const stack = JSON.parse(content) as {
        locals?: Record<string, unknown>;
        resource?: { kubectl_manifest?: Record<string, { yaml_body: string; wait: boolean }> };
      };
      for (const r of Object.values(stack.resource?.kubectl_manifest ?? {})) {
        // A pool's VMs read their YAML from a local map by node name.
        const held = /^\$\{local\.([\w-]+)\[each\.key\]\}$/.exec(r.yaml_body)?.[1];
        const yaml = held === undefined ? r.yaml_body : String(Object.values(stack.locals![held] as Record<string, string>)[0]);
        const kind = /^kind: (\w+)$/m.exec(yaml)?.[1] ?? 'none';
        (waits[kind] ??= []).push(r.wait);
      }
    }
    // The fleet's KubeVirt CR and the quotas' ResourceQuotas do not wait either: their VMs go before them.
    expect(Object.keys(waits).sort()).toEqual(['KubeVirt', 'ResourceQuota', 'Secret', 'VirtualMachine']);
    for (const [kind, list] of Object.entries(waits)) expect({ kind, waits: [...new Set(list)] }).toEqual({ kind, waits: [kind === 'VirtualMachine'] });
  });

  it('has every for_each read its map from a local (written inline, OpenTofu parses the map again per instance)', () => {
    let forEaches = 0;
    for (const [file, content] of readTree(first)) {
      if (!file.endsWith('cdk.tf.json')) continue;
      const stack = JSON.parse(content) as { locals?: Record<string, unknown>; resource?: Record<string, Record<string, { for_each?: unknown }>> };
      for (const [type, byName] of Object.entries(stack.resource ?? {}))
        for (const [name, r] of Object.entries(byName)) {
          if (r.for_each === undefined) continue;
          forEaches += 1;
          const local = forEachLocal(r.for_each);
          const map = local === undefined ? undefined : stack.locals?.[local];
          expect({ file, at: `${type}.${name}`, readsALocalMap: map !== null && typeof map === 'object' && !Array.isArray(map) }).toEqual({
            file,
            at: `${type}.${name}`,
            readsALocalMap: true,
          });
        }
    }
    // The three pools' five node resources and the sixteen pairs of drain blocks, at least.
    expect(forEaches).toBeGreaterThanOrEqual(3 * NODE_RESOURCES.length + 32);
  });

  it('runs OpenTofu at most once per stack while it synthesizes (not once per terraform_data: plumbing/terraform-data.ts)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-tofu-calls-'));
    const calls = path.join(dir, 'calls');
    const fake = path.join(dir, 'tofu');
    fs.writeFileSync(fake, `#!/bin/sh\necho "$*" >> '${calls}'\necho '{"terraform_version":"1.10.10"}'\n`, { mode: 0o755 });
    const out = synthExample({ TERRAFORM_BINARY_NAME: fake });
    try {
      const stacks = fs.readdirSync(path.join(out, 'stacks')).length;
      const ran = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [];
      // With cdktf's DataResource it ran once per terraform_data resource (the pools' rolls, the pairs of drain blocks): 35 here.
      expect({ stacks, ran: ran.length }).toEqual({ stacks: 2, ran: expect.any(Number) });
      expect(ran.length).toBeLessThanOrEqual(stacks);
      expect(readTree(out).get('stacks/consumer/cdk.tf.json')).toBe(readTree(first).get('stacks/consumer/cdk.tf.json'));
    } finally {
      [dir, out].forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
    }
  });

  it("one more node in a pool adds exactly that node's VM, Secrets and token, and changes nothing else", () => {
    const consumer = (dir: string) => readTree(dir).get('stacks/consumer/cdk.tf.json')!;
    expectOnlyNodeGrew(consumer(first), consumer(scaled), 'team-a-workers-6', 'team-a-workers', 'team-a-workers_rollout');
    // Its VM, its user data Secret and its bootstrap token Secret, all applied server-side: instances of the pool's three.
    const kubectl = [...instancesOf(consumer(scaled)).keys()].filter((k) => k.startsWith('kubectl_manifest.') && k.endsWith('["team-a-workers-6"]'));
    expect(kubectl).toHaveLength(3);
    // One resource per kind for the pool, whatever its size: the scaled stack has as many resources as before.
    expect(resourcesOf(consumer(scaled)).size).toBe(resourcesOf(consumer(first)).size);
    // And one entry of the pool's three locals (its keys, the node's VM and its cloud-init document) and of the two
    // that key its pair of drain blocks, the drain and the end (constructs/parts/addresses.ts forEachOf).
    const locals = (dir: string) => (JSON.parse(consumer(dir)) as { locals: Record<string, Record<string, string>> }).locals;
    const [was, is] = [locals(first), locals(scaled)];
    expect(Object.keys(is)).toEqual(Object.keys(was));
    // (The maps, keyed by node; the other locals are the one-vertex dependencies.)
    const grown: string[] = [];
    for (const [k, map] of Object.entries(was).filter(([, v]) => typeof v === 'object')) {
      for (const [node, v] of Object.entries(map)) expect({ k, node, v: is[k][node] }).toEqual({ k, node, v });
      const grew = Object.keys(is[k]).filter((n) => !(n in map));
      if (grew.length > 0) grown.push(k);
      expect({ k, grew }).toEqual({ k, grew: grew.length > 0 ? ['team-a-workers-6'] : [] });
    }
    const pair = grown.map((k) => /^node-drains-team-a-prod_(Resource|End)(-\d+)?Nodes_[0-9A-F]{8}$/.exec(k)).filter((m) => m !== null);
    expect(pair.map((m) => m[1]).sort()).toEqual(['End', 'Resource']);
    expect(pair[0][2]).toBe(pair[1][2]);
    expect(grown.filter((k) => k.startsWith('team-a-workers_nodes_'))).toHaveLength(3);
    expect(grown).toHaveLength(5);
    // The provider stack does not change at all.
    expect(readTree(scaled).get('stacks/provider/cdk.tf.json')).toBe(readTree(first).get('stacks/provider/cdk.tf.json'));
  });
});
