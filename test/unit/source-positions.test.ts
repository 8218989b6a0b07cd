import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../constructs/cli/main';
import { childPath, PlanIssue } from '../../constructs/core/base/errors';
import { renderGithubAnnotations } from '../../constructs/core/report';
import { parseConfigPath, SourceFile } from '../../constructs/core/input/source-positions';
import { REPO_ROOT } from '../support/models';
import { parsePlanJson } from '../support/plan-json';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/** The 1-based line and column where `needle` first appears after the line matching `after`. */
function find(text: string, after: RegExp, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => after.test(l));
  const line = lines.findIndex((l, i) => i >= start && l.includes(needle));
  return { line: line + 1, column: lines[line].indexOf(needle) + 1 };
}

const exampleText = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8');

describe('config paths back to positions', () => {
  const key = fc.oneof(
    fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/),
    fc.constantFrom('nvidia.com/gpu', 'topology.kubernetes.io/zone', 'a"b', 'x\\y', 'with space', '0', '9lives'),
    fc.string({ maxLength: 12 }),
  );
  const segment = fc.oneof(key, fc.nat({ max: 999 }));

  it('reads back every path childPath writes, segment by segment', () => {
    fc.assert(
      fc.property(key, fc.array(segment, { maxLength: 6 }), (first, rest) => {
        const segments = [first, ...rest];
        const written = segments.reduce<string>((acc, s) => childPath(acc, s), '');
        expect(parseConfigPath(written)).toEqual(segments);
      }),
      { numRuns: 500 },
    );
  });

  it('places a path at its key, a list item at its start, and a missing field at the nearest part that exists', () => {
    const source = new SourceFile('c.yaml', 'quotas:\n  - name: a\n    limits:\n      cpu: 4\n      "nvidia.com/gpu": 1\n  - {name: b}\n');
    expect(source.position(['quotas', 0, 'limits', 'cpu'])).toEqual({ file: 'c.yaml', line: 4, column: 7 });
    expect(source.position(['quotas', 0, 'limits', 'nvidia.com/gpu'])).toEqual({ file: 'c.yaml', line: 5, column: 7 });
    expect(source.position(['quotas', 1])).toEqual({ file: 'c.yaml', line: 6, column: 5 });
    expect(source.position(['quotas', 1, 'limits'])).toEqual({ file: 'c.yaml', line: 6, column: 5 });
    expect(source.position(['quotas', 7])).toEqual({ file: 'c.yaml', line: 1, column: 1 });
  });
});

/** Every path of a JSON value (objects' keys, arrays' indices), each followed by one that is not there. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix, [...prefix, 'not-there'], [...prefix, 99]];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

describe('positions in a plain JSON file', () => {
  it("are the YAML parser's positions, for every path and for paths that are not there, compact or indented", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), fc.constantFrom(undefined, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const fromYaml = new SourceFile('c.json', text);
        const fromJson = new SourceFile('c.json', text);
        fromJson.markPlainJson();
        for (const segments of pathsOf(value)) expect(fromJson.position(segments)).toEqual(fromYaml.position(segments));
      }),
      { numRuns: 200 },
    );
  });

  it('are what `metalslice plan` prints for a JSON config (the reader marks it plain)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'positions-'));
    try {
      const file = path.join(dir, 'c.json');
      const text = JSON.stringify({ fleets: [{ name: 'f', hosts: [{ name: 'h', capacity: { cpu: 'lots' } }] }] }, null, 2);
      fs.writeFileSync(file, text);
      const { stdout } = await run(['plan', file, '--json']);
      const issue = parsePlanJson(stdout).errors.find((e) => e.path === 'fleets[0].hosts[0].capacity.cpu')!;
      expect({ line: issue.line, column: issue.column }).toEqual(find(text, /capacity/, '"cpu"'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metalslice plan: every problem at its file, line and column', () => {
  it('locates schema problems in a JSON config, and prints file:line:column before the path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pos-'));
    const file = path.join(dir, 'c.json');
    const text =
      '{\n  "fleets": [\n    {"name": "a", "hosts": [], "reservedPerHots": {}}\n  ],\n  "nodePools": [{"name": "p", "quota": "q", "cluster": "c", "shape": {}, "count": -1}]\n}\n';
    fs.writeFileSync(file, text);
    try {
      const json = parsePlanJson((await run(['plan', file, '--json'])).stdout);
      const typo = json.errors.find((e) => e.path === 'fleets[0].reservedPerHots');
      expect(typo).toMatchObject({ file, ...find(text, /fleets/, '"reservedPerHots"') });
      const count = json.errors.find((e) => e.path === 'nodePools[0].count');
      expect(count).toMatchObject({ file, ...find(text, /nodePools/, '"count"') });
      const { stdout } = await run(['plan', file]);
      const at = find(text, /fleets/, '"reservedPerHots"');
      expect(stdout).toContain(
        `✗ ${file}:${at.line}:${at.column}: fleets[0].reservedPerHots: unknown field "reservedPerHots": did you mean "reservedPerHost"?`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('locates planning errors and warnings of a vcluster.yaml in that file, named from where metalslice runs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pos-'));
    const config = exampleText.replace('hostsFile: inventory/fra1.json', `hostsFile: ${path.join(REPO_ROOT, 'examples', 'inventory', 'fra1.json')}`);
    fs.mkdirSync(path.join(dir, 'tenants'));
    fs.writeFileSync(path.join(dir, 'c.yaml'), `${config}vclusters:\n  - {cluster: team-a-prod, file: tenants/a.yaml, quota: team-b}\n`);
    const vcluster =
      'privateNodes:\n  enabled: true\n  joinNode: {containerd: {enabled: true}}\n  autoNodes:\n    - provider: virt\n      static:\n        - {name: huge, quantity: 500}\n';
    fs.writeFileSync(path.join(dir, 'tenants', 'a.yaml'), vcluster);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const json = parsePlanJson((await run(['plan', 'c.yaml', '--json'])).stdout);
      const quantity = json.errors.find((e) => e.path === 'tenants/a.yaml.privateNodes.autoNodes[0].static[0].quantity');
      expect(quantity).toMatchObject({ file: path.join('tenants', 'a.yaml'), ...find(vcluster, /static/, 'quantity') });
      const join = json.warnings.find((e) => e.path === 'tenants/a.yaml.privateNodes.joinNode');
      expect(join).toMatchObject({ file: path.join('tenants', 'a.yaml'), line: 3, column: 3 });
      // A syntax error in the vcluster.yaml: its own line and column.
      fs.writeFileSync(path.join(dir, 'tenants', 'a.yaml'), 'privateNodes:\n  enabled: true\n  autoNodes: [\n');
      const broken = parsePlanJson((await run(['plan', 'c.yaml', '--json'])).stdout);
      expect(broken.errors[0]).toMatchObject({ file: path.join('tenants', 'a.yaml'), line: expect.any(Number), column: expect.any(Number) });
      expect(broken.errors[0].line).toBeGreaterThanOrEqual(3);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the config from standard input with -, named (stdin)', () => {
    const bin = path.join(REPO_ROOT, 'bin', 'metalslice');
    const text = 'fleets:\n  - name: a\n    hosts: []\nquotas:\n  - {name: q, fleet: a, organization: o, limits: {cpu: 1}, typo: 1}\n';
    const r = spawnSync(process.execPath, [bin, 'plan', '-', '-o', 'json'], { input: text, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(parsePlanJson(r.stdout).errors.find((e) => e.path === 'quotas[0].typo')).toMatchObject({ file: '(stdin)', ...find(text, /quotas/, 'typo') });
  });

  it('says a missing file is unreadable (exit 2) on standard error, and prints no report claiming the plan does not fit', async () => {
    const { code, stdout, stderr } = await run(['plan', '/nonexistent/x.yaml']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: /nonexistent/x.yaml: cannot read the config file: no such file (ENOENT): check the path\n');
  });
});

describe('GitHub annotations', () => {
  it('keeps each problem on one command line: nothing from the input ends the command or starts another', () => {
    const hostile: PlanIssue = { path: 'quotas[0].name', message: 'bad %0A\n::add-mask::x\r\u001b[31m', file: 'dir,a:b.yaml', line: 3, column: 5 };
    const out = renderGithubAnnotations({ errors: [hostile], warnings: [{ path: 'x', message: 'w' }] });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^::error file=dir%2Ca%3Ab\.yaml,line=3,col=5,title=metalslice%3A quotas\[0\]\.name::quotas\[0\]\.name: bad %250A/);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f]/);
    expect(lines[1]).toBe('::warning title=metalslice%3A x::x: w');
  });

  it('names files from the checkout root, as GitHub places annotations', () => {
    const issue: PlanIssue = { path: 'p', message: 'm', file: 'metalslice.yaml', line: 1, column: 1 };
    expect(renderGithubAnnotations({ errors: [issue], warnings: [] }, { cwd: '/w/repo/capacity', workspace: '/w/repo' })).toContain(
      'file=capacity/metalslice.yaml,',
    );
    expect(renderGithubAnnotations({ errors: [issue], warnings: [] }, { cwd: '/elsewhere', workspace: '/w/repo' })).toContain('file=metalslice.yaml,');
  });
});
