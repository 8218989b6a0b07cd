import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { validateCoreObject } from '../support/core-schema';
import { knownKinds, validateAgainstCrd } from '../support/crd-schema';
import { REPO_ROOT } from '../support/models';
import { drainDelta, isDrainKey, isNodeEndKey, isRolloutKey, readTree, resourcesOf, rolloutDelta, synthExample } from '../support/synth';
import { asApplied, stackObjects } from '../support/stack-objects';

// Bootstrap tokens are `[a-z0-9]{6}.[a-z0-9]{16}`; none may ever be a literal in what synth writes.
const TOKEN_LITERAL = /\b[a-z0-9]{6}\.[a-z0-9]{16}\b/;

/**
 * Every resource of `before` is unchanged in `after`, but the stack's node drains and ends, which gain `node`'s
 * instance (drained before its VM goes, its Node deleted after), and its pool's rollout (`pool` in its key), which runs after its resources too.
 */
function expectOnlyNodeGrew(before: ReturnType<typeof resourcesOf>, after: ReturnType<typeof resourcesOf>, node: string, pool: string): void {
  for (const [key, value] of before) {
    if (isDrainKey(key)) {
      expect(drainDelta(value.body, after.get(key)!.body)).toEqual({ nodes: [node], dependsOn: [expect.stringContaining(node)], restUnchanged: true });
    } else if (isNodeEndKey(key)) {
      // The node's end (its Node deleted once its VM is gone) gains its instance; its VM depends on it.
      expect(drainDelta(value.body, after.get(key)!.body)).toEqual({ nodes: [node], dependsOn: [], restUnchanged: true });
    } else if (isRolloutKey(key) && key.includes(pool)) {
      // The pool's rollout runs after the new node's VM, user data and token too; tofu plan shows no depends_on.
      expect(rolloutDelta(value.body, after.get(key)!.body)).toEqual({
        dependsOn: [0, 1, 2].map(() => expect.stringContaining(node)),
        nodes: [node],
        restUnchanged: true,
      });
    } else expect({ key, body: after.get(key)?.body }).toEqual({ key, body: value.body });
  }
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

  it("one more static auto node adds exactly that node's resources", () => {
    const before = resourcesOf(readTree(first).get('stacks/consumer/cdk.tf.json')!);
    const after = resourcesOf(readTree(scaledBase).get('stacks/consumer/cdk.tf.json')!);
    const added = [...after.keys()]
      .filter((k) => !before.has(k))
      .map((k) => after.get(k)!.path)
      .sort();
    expect(added).toEqual(
      ['Join/BootstrapToken', 'Join/TokenId', 'Join/TokenSecret', 'Resource', 'UserData'].map((r) => `consumer/team-a-prod-virt/base/team-a-prod-base-2/${r}`),
    );
    expectOnlyNodeGrew(before, after, 'team-a-prod-base-2', 'base_rollout');
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
    expect(consumer).toContain('token-secret: ${base64encode(random_password.');
    expect(consumer).toContain('token-id: ${base64encode(random_string.');
  });

  it("one more node in a pool adds exactly that node's VM, Secrets and token, and changes nothing else", () => {
    const before = resourcesOf(readTree(first).get('stacks/consumer/cdk.tf.json')!);
    const after = resourcesOf(readTree(scaled).get('stacks/consumer/cdk.tf.json')!);
    const added = [...after.keys()].filter((k) => !before.has(k));
    expect(added.map((k) => after.get(k)!.path).sort()).toEqual(
      ['Join/BootstrapToken', 'Join/TokenId', 'Join/TokenSecret', 'Resource', 'UserData'].map((r) => `consumer/team-a-workers/team-a-workers-6/${r}`),
    );
    // Its VM, its user data Secret and its bootstrap token Secret, all applied server-side.
    expect(added.filter((k) => k.startsWith('kubectl_manifest.'))).toHaveLength(3);
    const drains = [...before.keys()].filter(isDrainKey);
    expect(drains).toHaveLength(1);
    expectOnlyNodeGrew(before, after, 'team-a-workers-6', 'team-a-workers_rollout');
    // And one local: the node's cloud-init document, which its user data Secret encodes.
    const locals = (dir: string) => (JSON.parse(readTree(dir).get('stacks/consumer/cdk.tf.json')!) as { locals: Record<string, string> }).locals;
    const [was, is] = [locals(first), locals(scaled)];
    for (const [k, v] of Object.entries(was)) expect({ k, v: is[k] }).toEqual({ k, v });
    expect(Object.keys(is).filter((k) => !(k in was))).toEqual([expect.stringMatching(/^team-a-workers_team-a-workers-6_UserDataDocument_[0-9A-F]{8}$/)]);
    // The provider stack does not change at all.
    expect(readTree(scaled).get('stacks/provider/cdk.tf.json')).toBe(readTree(first).get('stacks/provider/cdk.tf.json'));
  });
});
