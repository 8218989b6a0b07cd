// One owner per name, rule and bound (issue 50): every derived name and label key comes from core/naming, every
// bound from core/base/bounds.ts, and the CLI's option checks ask the input owner. These tests read the library's
// source and refuse a second copy where one would come back: a label key, a Secret or surge name written out, a CA
// hash pattern, a `~` expansion, a rollout bound; and they hold the config, the planner and `roll-nodes` to the
// same rule at the edge of the bound.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as path from 'path';
import { MAX_POLL_INTERVAL_SECONDS, MAX_ROLLOUT_NODES } from '../../constructs/core/base/bounds';
import { CONFIG_SCHEMA } from '../../constructs/core/input/config-schema';
import { joinTimeoutProblem, pollIntervalProblem, rolloutProblems } from '../../constructs/core/input/disruption';
import { caHashProblem } from '../../constructs/core/input/join-token';
import { planModel } from '../../constructs/core/plan';
import { runRollNodes } from '../../constructs/cli/roll';
import { runDrainNode } from '../../constructs/cli/drain';
import { REPO_ROOT } from '../support/models';

/** Every source file of the library, relative to the repository, with its text (generated bindings left out). */
function librarySources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory() && rel !== 'constructs/providers') walk(rel);
      else if (entry.isFile() && rel.endsWith('.ts')) out.push({ file: rel, text: fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8') });
    }
  };
  walk('constructs');
  return out;
}

/** The code of a file without its comments (a comment may name a key or a pattern; only code counts). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const sources = librarySources();

/** The files whose code matches `pattern`. */
const filesWith = (pattern: RegExp): string[] =>
  sources
    .filter((s) => pattern.test(code(s.text)))
    .map((s) => s.file)
    .sort();

describe('one owner per derived name and label key', () => {
  it("metalslice's own keys are written out only in the naming owner (and the input's claim properties and apiVersions)", () => {
    expect(filesWith(/['"`]metalslice\.io\/[a-z-]/)).toEqual([
      'constructs/core/hosts/snapshot.ts',
      'constructs/core/input/config-schema.ts',
      'constructs/core/input/model.ts',
      'constructs/core/input/template-kind.ts',
    ]);
    expect(filesWith(/\$\{LABEL_PREFIX\}/)).toEqual(['constructs/core/naming/derived.ts']);
  });

  it('the well-known node labels metalslice sets are written out only where they are owned', () => {
    // naming owns both keys; vm/ may not import naming, and lists vCluster's built-in property itself; the kubelet's
    // own list of labels it may set (naming/kube-names.ts, and its subset in render/cloud-init.ts) names one.
    expect(filesWith(/['"`]vcluster\.com\/node-type['"`]/)).toEqual(['constructs/core/naming/derived.ts', 'constructs/core/vm/properties.ts']);
    expect(filesWith(/['"`]node\.kubernetes\.io\/instance-type['"`]/)).toEqual([
      'constructs/core/naming/derived.ts',
      'constructs/core/naming/kube-names.ts',
      'constructs/render/cloud-init.ts',
    ]);
  });

  it("a node's Secret names and a surge VM's name are derived only in core/naming/derived.ts", () => {
    expect(filesWith(/-cloudinit[`'"]/)).toEqual(['constructs/core/naming/derived.ts']);
    expect(filesWith(/-userdata[`'"]/).filter((f) => f !== 'constructs/verify/kubevirt-replay.ts')).toEqual(['constructs/core/naming/derived.ts']);
    expect(filesWith(/(?<!--max)-surge[`'"]/)).toEqual(['constructs/core/naming/derived.ts']);
  });
});

describe("one owner per rule: the CLI's option checks ask the input owner", () => {
  it('the CA hash pattern and the ~ of a kubeconfig path are written once', () => {
    expect(filesWith(/sha256:\[0-9a-f\]\{64\}/)).toEqual(['constructs/core/input/join-token.ts']);
    expect(filesWith(/['"`]~\/['"`]/)).toEqual(['constructs/cli/kube/config.ts']);
  });

  it('the rollout bound is one number: the config schema, the planner and roll-nodes refuse one past it alike', () => {
    expect(JSON.stringify(CONFIG_SCHEMA)).toContain(`"maxSurge":{"type":"integer","minimum":0,"maximum":${MAX_ROLLOUT_NODES}}`);
    expect(rolloutProblems({ maxSurge: MAX_ROLLOUT_NODES })).toEqual([]);
    const [[field, problem]] = rolloutProblems({ maxSurge: MAX_ROLLOUT_NODES + 1 });
    expect(field).toBe('maxSurge');
    // No number of the bound is written anywhere else in the library's code.
    expect(
      filesWith(/(maxSurge|maxUnavailable|max-surge|max-unavailable).*\b1_?000\b|\b1_?000\b.*(maxSurge|maxUnavailable|max-surge|max-unavailable)/),
    ).toEqual([]);
    return runRollNodes(
      {
        namespace: 'ns',
        pool: 'web',
        cluster: 'c',
        revision: '0123456789abcdef',
        maxSurge: MAX_ROLLOUT_NODES + 1,
        maxUnavailable: 0,
        drainTimeout: '15m',
        clusterCaHash: `sha256:${'0'.repeat(64)}`,
      },
      { stdout: () => undefined, stderr: (t) => expect(t).toBe(`metalslice roll-nodes: --max-surge ${problem}\n`) },
    ).then((code) => expect(code).toBe(2));
  });

  it('a pool refuses the same rollout in the plan as roll-nodes does, by the same rule', () => {
    const plan = planModel({
      fleets: [{ name: 'f', hosts: [{ name: 'h0', capacity: { cpu: 32, memory: '128Gi' } }] }],
      quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: { cpu: 8, memory: '16Gi' } }],
      clusters: [
        { name: 'c', endpoint: 'https://10.0.0.1:6443', caCertificate: fs.readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8') },
      ],
      nodePools: [
        {
          name: 'web',
          quota: 'q',
          cluster: 'c',
          shape: { cpu: 1, memory: '1Gi' },
          count: 1,
          rootDisk: 'containerDisk',
          rollout: { maxSurge: 0, maxUnavailable: 0 },
        },
      ],
    });
    expect(plan.errors.map((e) => [e.path, e.message])).toEqual([
      ['nodePools[0].rollout.maxUnavailable', rolloutProblems({ maxSurge: 0, maxUnavailable: 0 })[0][1]],
    ]);
  });

  it("drain-node's --interval and --cluster-ca-hash are the input owner's rules, with the option named", async () => {
    const said: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => said.push(t) };
    expect(await runDrainNode('n', { interval: MAX_POLL_INTERVAL_SECONDS + 1 }, io)).toBe(2);
    expect(await runDrainNode('n', { clusterCaHash: 'sha256:xyz' }, io)).toBe(2);
    expect(said).toEqual([
      `metalslice drain-node: --interval ${pollIntervalProblem(MAX_POLL_INTERVAL_SECONDS + 1)}\n`,
      `metalslice drain-node: --cluster-ca-hash ${caHashProblem('sha256:xyz')}\n`,
    ]);
  });

  it('a zero join timeout is said as a join timeout, not as a drain that has no time', () => {
    expect(joinTimeoutProblem('0s')).toMatch(/no time to boot and join/);
    expect(joinTimeoutProblem('0s')).not.toMatch(/drain/);
  });
});
