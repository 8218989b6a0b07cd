import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Ajv from 'ajv';
import { stringify } from 'yaml';
import { main } from '../../constructs/cli/main';
import { EXAMPLE_CA, REPO_ROOT } from '../support/models';
import { defined } from '../support/defined';
import { EditablePlanJson, parsePlanJson } from '../support/plan-json';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

const example = path.join(REPO_ROOT, 'examples', 'metalslice.yaml');
const broken = path.join(REPO_ROOT, 'examples', 'does-not-fit.yaml');

describe('metalslice plan', () => {
  it('exits 0 on the example and prints the contract fields', async () => {
    const { code, stdout } = await run(['plan', example, '--json']);
    expect(code).toBe(0);
    const report = parsePlanJson(stdout);
    expect(report).toMatchObject({ ok: true, errors: [], warnings: expect.any(Array) });
    expect(report.fleets[0]).toEqual(expect.objectContaining({ name: 'fra1', capacity: expect.any(Object), allocated: expect.any(Object) }));
    expect(report.quotas[0]).toEqual(expect.objectContaining({ name: 'team-a', fleet: 'fra1', limits: expect.any(Object), allocated: expect.any(Object) }));
    expect(report.pools[0]).toEqual(expect.objectContaining({ name: 'team-a-workers', nodeType: 'team-a-workers' }));
    expect(report.pools[0].nodes[0]).toEqual(expect.objectContaining({ name: 'team-a-workers-0', host: expect.any(String) }));
  });

  it('exits 1 on the config that does not fit, listing every problem with its path', async () => {
    const { code, stdout } = await run(['plan', broken, '--json']);
    expect(code).toBe(1);
    const report = parsePlanJson(stdout);
    expect(report.ok).toBe(false);
    expect(report.errors.map((e) => e.path).sort()).toEqual(
      [
        'clusters[0].caCertificate',
        'nodePools[0].count',
        'nodePools[1].count',
        'nodePools[2].quota',
        'quotas[1].limits.cpu',
        'quotas[1].limits.memory',
        'quotas[2].limits.memory',
        'quotas[2].name',
      ].sort(),
    );
  });

  it('reports the chosen node type of auto-node pools and why every other type lost', async () => {
    const report = parsePlanJson((await run(['plan', example, '--json'])).stdout);
    const base = defined(
      report.pools.find((p) => p.name === 'base'),
      'pool base',
    );
    expect(base).toMatchObject({ kind: 'static', nodeType: 'virt.small', provider: 'virt' });
    expect(base.nodes.map((n) => n.nodeType)).toEqual(['virt.small', 'virt.small']);
    expect(base.rejected).toEqual([{ nodeType: 'virt.gpu', reason: expect.stringMatching(/offers nvidia\.com\/gpu, which the pool does not request/) }]);
    const burst = defined(
      report.pools.find((p) => p.name === 'burst'),
      'pool burst',
    );
    const preview = defined(burst.preview, 'the preview of pool burst');
    expect(burst.candidates?.map((c) => c.nodeType)).toEqual(['virt.small', 'virt.medium', 'virt.large']);
    expect(preview.summary).toMatch(/^40 of cpu 1, memory 2 Gi and 3 of cpu 6, memory 24 Gi would create .*virt\.large/);
    expect(preview.cost).toBeGreaterThanOrEqual(preview.lowerBound);
    // The example leaves its cluster's node software unpinned (it plans on any machine): the plan says so.
    expect(report.warnings).toEqual([
      { path: 'clusters[0].bootstrap', message: expect.stringContaining('is not set'), file: example, line: expect.any(Number), column: expect.any(Number) },
      {
        path: 'autoNodes[0].dynamic[0].preview',
        message: expect.stringMatching(/beyond the pool's limits on nodes \(\d+ > 8\)/),
        file: example,
        line:
          fs
            .readFileSync(example, 'utf8')
            .split('\n')
            .findIndex((l) => /^\s+preview:/.test(l)) + 1,
        column: expect.any(Number),
      },
    ]);
    expect(report.environments).toEqual([
      { cluster: 'team-a-prod', provider: 'metal' },
      { cluster: 'team-a-prod', provider: 'virt' },
    ]);
  });

  it('prints Markdown for pull requests', async () => {
    const { code, stdout } = await run(['plan', example, '--markdown']);
    expect(code).toBe(0);
    // The example's dynamic pool warns that pods stay pending, and its node software is unpinned, so the verdict says
    // so rather than "Everything fits".
    expect(stdout).toMatch(/^# metalslice capacity plan\n\n⚠️ \*\*Fits, with 2 warnings to read below/);
    expect(stdout).toContain('| team-a-workers-0 | team-a-workers | team-a-workers | bm-c01 |');
  });

  it('shows what changed since a previous plan', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-cli-'));
    const previous = JSON.parse((await run(['plan', example, '--json'])).stdout) as EditablePlanJson;
    previous.pools[0].nodes.pop();
    fs.writeFileSync(path.join(dir, 'prev.json'), JSON.stringify(previous));
    const { code, stdout } = await run(['plan', example, '--json', '--previous', path.join(dir, 'prev.json')]);
    expect(code).toBe(0);
    const changes = parsePlanJson(stdout).changes;
    expect(changes).toMatchObject({ added: ['team-a-workers/team-a-workers-5'], removed: [], moved: [], nodeTypes: [] });
    expect(changes?.pools).toEqual([{ pool: 'team-a-workers', before: 5, after: 6, added: 1, removed: 0, moved: 0, replaced: 0 }]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 2 naming the file when it cannot be read (a usage error, not an invalid config)', async () => {
    const { code, stdout } = await run(['plan', '/nonexistent/metalslice.yaml', '--json']);
    expect(code).toBe(2);
    expect(parsePlanJson(stdout).errors).toEqual([
      { path: '/nonexistent/metalslice.yaml', message: 'cannot read the config file: no such file (ENOENT): check the path' },
    ]);
  });

  it('refuses a previous plan it cannot read as a usage error, before printing any report', async () => {
    for (const args of [
      ['plan', example, '--previous', '/nonexistent/base-plan.json'],
      ['report', example.replace(/metalslice\.yaml$/, 'does-not-exist.json'), '--previous', '/nonexistent/base-plan.json'],
    ]) {
      const { code, stdout, stderr } = await run(args);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toMatch(/^error: \S+\/(base-plan|does-not-exist)\.json: cannot read the plan file: no such file \(ENOENT\)/);
    }
    // With a plan that reads, the previous one is what is refused; a machine still gets a document to parse.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-cli-'));
    const plan = path.join(dir, 'plan.json');
    fs.writeFileSync(plan, (await run(['plan', example, '--json'])).stdout);
    const text = await run(['report', plan, '--previous', path.join(dir, 'missing.json')]);
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 2, stdout: '' });
    expect(text.stderr).toBe(`error: ${path.join(dir, 'missing.json')}: cannot read the plan file: no such file (ENOENT): check the path\n`);
    const json = await run(['plan', example, '-o', 'json', '--previous', dir]);
    expect(json.code).toBe(2);
    expect(parsePlanJson(json.stdout)).toMatchObject({
      ok: false,
      errors: [{ path: dir, message: 'the plan file is a directory, not a regular file: pass a file' }],
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 2 when any subcommand cannot read its file, saying so on stderr and nothing on stdout', async () => {
    for (const args of [
      ['plan', '/nonexistent/m.yaml'],
      ['report', '/nonexistent/plan.json'],
      ['pack', '/nonexistent/x.vbp'],
      ['verify', '/nonexistent/m.yaml'],
      ['node-template-vars', '/nonexistent/m.yaml', '--provider', 'virt'],
      ['plan', REPO_ROOT],
    ]) {
      const { code, stdout, stderr } = await run(args);
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr).toMatch(/cannot read the (config|plan|\.vbp) file: no such file \(ENOENT\)|is a directory, not a regular file/);
    }
  });

  it('gives every subcommand a help text with examples of itself', async () => {
    const root = await run(['--help']);
    const listed = root.stdout.split('Commands:\n')[1].split('\n\n')[0];
    const commands = [...listed.matchAll(/^  ([a-z-]+) .*$/gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(commands).toEqual([
      'plan',
      'report',
      'schema',
      'pack',
      'verify',
      'node-template-vars',
      'inventory',
      'drain-node',
      'remove-node',
      'wait-quota',
      'roll-nodes',
      'roll-hosts',
      'status',
    ]);
    expect(root.stdout).toMatch(/Examples:\n  metalslice plan /);
    for (const command of commands) {
      const { code, stdout } = await run([command, '--help']);
      expect(code).toBe(0);
      const examples = stdout.split('Examples:\n')[1] ?? '';
      expect({ command, examples: examples.split('\n').filter((l) => l.startsWith(`  metalslice ${command}`)).length > 0 }).toEqual({
        command,
        examples: true,
      });
    }
  });

  it.each([[['plan']], [['plan', example, '--json', '--markdown']], [['frobnicate']], [['pack', 'x.vbp', '--time-limit-ms', 'soon']]])(
    'exits 2 on a usage error: %j',
    async (args) => {
      const { code, stderr } = await run(args);
      expect(code).toBe(2);
      expect(stderr).not.toBe('');
    },
  );

  it('prints its version with --version (and -V), from package.json', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { code, stdout } = await run([flag]);
      expect({ flag, code, stdout: stdout.trim() }).toEqual({ flag, code: 0, stdout: version });
    }
  });

  it('prints an internal error in one line, and its stack trace only with --debug', async () => {
    // Writing the report fails (as on a full disk): an error metalslice does not expect.
    const boom = { stdout: () => undefined, stderr: () => undefined };
    let plain = '';
    let debug = '';
    const failing = (into: (s: string) => void) => ({
      ...boom,
      stdout: () => {
        throw new Error('disk full');
      },
      stderr: into,
    });
    expect(
      await main(
        ['plan', example],
        failing((s) => (plain += s)),
      ),
    ).toBe(70);
    expect(plain).toMatch(/^metalslice: internal error: disk full \(rerun with --debug/);
    expect(plain).not.toMatch(/\n\s+at /);
    expect(
      await main(
        ['plan', example, '--debug'],
        failing((s) => (debug += s)),
      ),
    ).toBe(70);
    expect(debug).toMatch(/\n\s+at /);
  });

  it('prints aligned text for a terminal by default, and bounded Markdown with --max-chars', async () => {
    const text = await run(['plan', example]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^metalslice capacity plan\n\n! Fits, with 2 warnings/);
    expect(text.stdout).toMatch(/\nfleet +hosts +cpu \(cores\) used \/ limit/);
    const md = await run(['plan', example, '--markdown', '--max-chars', '3000', '--full-report', 'the CI artifact']);
    expect(md.code).toBe(0);
    expect(md.stdout.length).toBeLessThanOrEqual(3000);
    expect(md.stdout).toMatch(/rows left out to keep this within 3,000 characters\.\*\* The full report: the CI artifact\.\n$/);
  });

  it('checks N+1 per failure domain with --failure-domain', async () => {
    const report = parsePlanJson((await run(['plan', example, '--json', '--failure-domain', 'topology.kubernetes.io/zone'])).stdout);
    expect(report.fleets[0].headroom?.failureDomain).toMatchObject({ label: 'topology.kubernetes.io/zone' });
  });

  it.each([
    [['plan', example, '--max-chars', '5000'], '--max-chars bounds the Markdown report: add --markdown'],
    [['plan', example, '--markdown', '--max-chars', 'lots'], '--max-chars must be a whole number of characters'],
    [['plan', example, '--failure-domain', 'not a label!'], '--failure-domain must be a host label key'],
  ])('refuses bad flags with exit 2, naming the flag and the fix: %j', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('names a reshape for what it is: the nodes kept are replaced, with the surge, the hosts it fits on and the peak, never only "0 added"', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-reshape-'));
    // The previous plan: the example with team-a-workers at 24Gi (the example gives it 32Gi).
    fs.cpSync(path.join(path.dirname(example), 'inventory'), path.join(dir, 'inventory'), { recursive: true });
    const before = fs
      .readFileSync(example, 'utf8')
      .replace('shape: {cpu: 8, memory: 32Gi, disk: 100Gi}, count: 6', 'shape: {cpu: 8, memory: 24Gi, disk: 100Gi}, count: 6');
    expect(before).toContain('memory: 24Gi');
    fs.writeFileSync(path.join(dir, 'before.yaml'), before);
    fs.writeFileSync(path.join(dir, 'prev.json'), (await run(['plan', path.join(dir, 'before.yaml'), '--json'])).stdout);
    const text = await run(['plan', example, '--previous', path.join(dir, 'prev.json')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('nodes: 0 added, 0 removed, 6 replaced, 0 moved');
    expect(text.stdout).toMatch(
      /pool team-a-workers: 6 → 6 nodes, shape memory 24Gi → 32Gi, 6 replaced \(surge 1 on bm-\w+, 1 at a time; quota peak cpu [\d.]+ cores, memory [\d.]+ Gi\)/,
    );
    expect(text.stdout).toContain('6 running node(s) cannot take the change in place: the deploy replaces each');
    const json = parsePlanJson((await run(['plan', example, '--previous', path.join(dir, 'prev.json'), '--json'])).stdout);
    const changes = json.changes as unknown as {
      replaced: string[];
      pools: { pool: string; replaced: number; roll?: { maxSurge: number }; shape?: unknown }[];
    };
    expect(changes.replaced).toEqual([0, 1, 2, 3, 4, 5].map((i) => `team-a-workers/team-a-workers-${i}`));
    expect(changes.pools.find((p) => p.pool === 'team-a-workers')).toMatchObject({
      replaced: 6,
      roll: { maxSurge: 1, maxUnavailable: 0 },
      shape: { before: { memory: '24Gi' }, after: { memory: '32Gi' } },
    });
    // Only the reshaped pool is replaced: the others kept their revision.
    expect(changes.pools.map((p) => p.pool)).toEqual(['team-a-workers']);
    // A plan from before revisions were written: a changed shape still counts as replaced.
    const old = JSON.parse(fs.readFileSync(path.join(dir, 'prev.json'), 'utf8')) as { pools: { rollout?: unknown }[] };
    for (const p of old.pools) delete p.rollout;
    fs.writeFileSync(path.join(dir, 'old.json'), JSON.stringify(old));
    expect((await run(['plan', example, '--previous', path.join(dir, 'old.json')])).stdout).toContain('nodes: 0 added, 0 removed, 6 replaced, 0 moved');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails a reshape whose roll does not fit beside the old nodes: exit 1, the error at the pool, roll.problem and roll.fits in a JSON the schema accepts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-shrink-'));
    // Three nodes of 16Gi become 8Gi while the quota is cut from 80Gi to 60Gi: the new plan fits, with a surge,
    // but not its first step, when the surge joins the three old nodes.
    const config = (memoryGi: number, quotaGi: number) =>
      stringify({
        apiVersion: 'metalslice.io/v1alpha1',
        fleets: [{ name: 'f', hosts: ['h0', 'h1', 'h2'].map((name) => ({ name, capacity: { cpu: 32, memory: '128Gi', disk: '4Ti' } })) }],
        quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: { cpu: 40, memory: `${quotaGi}Gi` } }],
        clusters: [{ name: 'c', endpoint: 'https://10.0.0.1:6443', caCertificate: EXAMPLE_CA }],
        nodePools: [{ name: 'web', quota: 'q', cluster: 'c', shape: { cpu: 2, memory: `${memoryGi}Gi` }, count: 3, rootDisk: 'containerDisk' }],
      });
    fs.writeFileSync(path.join(dir, 'before.yaml'), config(16, 80));
    fs.writeFileSync(path.join(dir, 'after.yaml'), config(8, 60));
    const previous = await run(['plan', path.join(dir, 'before.yaml'), '--json']);
    expect(previous.code).toBe(0);
    fs.writeFileSync(path.join(dir, 'prev.json'), previous.stdout);
    expect((await run(['plan', path.join(dir, 'after.yaml')])).code).toBe(0);
    const compared = await run(['plan', path.join(dir, 'after.yaml'), '--previous', path.join(dir, 'prev.json'), '--json']);
    expect(compared.code).toBe(1);
    const json = parsePlanJson(compared.stdout);
    expect(json.ok).toBe(false);
    expect(json.errors.map((e) => [e.path, e.message])).toEqual([['pools["web"].rollout', expect.stringContaining('{maxSurge: 0, maxUnavailable: 1}')]]);
    expect(json.changes?.pools[0].roll).toMatchObject({
      maxSurge: 1,
      problem: expect.stringMatching(/^the surge of pool "web" does not fit quota "q" \(memory: needs/),
      fits: { maxSurge: 0, maxUnavailable: 1 },
    });
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'schema', 'metalslice-plan.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders a synthesized plan with `report`, against a previous one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-report-'));
    const plan = (await run(['plan', example, '--json'])).stdout;
    const previous = JSON.parse(plan) as EditablePlanJson;
    previous.pools[1].nodes[0].host = 'bm-d01';
    fs.writeFileSync(path.join(dir, 'plan.json'), plan);
    fs.writeFileSync(path.join(dir, 'prev.json'), JSON.stringify(previous));
    const { code, stdout } = await run(['report', path.join(dir, 'plan.json'), '--previous', path.join(dir, 'prev.json'), '--markdown']);
    expect(code).toBe(0);
    expect(stdout).toContain('- pool team-a-highmem: 2 → 2 nodes, 1 moved to another host');
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"hello": 1}');
    const bad = await run(['report', path.join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a metalslice plan');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs as the installed bin with the documented exit codes', () => {
    const bin = path.join(REPO_ROOT, 'bin', 'metalslice');
    const ok = spawnSync(process.execPath, [bin, 'plan', example, '--json'], { encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const bad = spawnSync(process.execPath, [bin, 'plan', broken], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/problem\(s\) in .*does-not-fit\.yaml/);
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
