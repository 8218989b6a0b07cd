// metalslice as a provider team installs it: `npm pack`, the tarball installed into an empty project that
// has only the peers (cdktf, constructs, the two provider bindings), the README's construct example
// compiled with `tsc --strict` and synthesized there, and its plan compared with the plan of the same model
// written as YAML and planned by `metalslice/core`.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectOk, REPO_ROOT, run } from './harness';
import { parsePlanJson, PlanJson } from '../support/plan-json';

jest.setTimeout(600_000);

const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
const versionOf = (name: string) => lock.packages[`node_modules/${name}`].version;
const PEERS = ['cdktf', 'constructs', '@cdktf/provider-kubernetes', '@cdktf/provider-random'];

/** The README's construct example (the first ```ts block after "## The construct API"). */
function readmeExample(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The construct API'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no ```ts block under "## The construct API"');
  return block[1];
}

/** What the README example leaves to the reader: the hosts of the fleet and the tenant CA. */
const HOSTS = Array.from({ length: 6 }, (_, i) => ({ name: `bm-${i}`, capacity: { cpu: 96, memory: '512Gi', disk: '8Ti' } }));

/** The README example's model, as a config file. */
function sameModelAsYaml(pem: string): string {
  return JSON.stringify({
    fleets: [{ name: 'fra1', hosts: HOSTS, reservedPerHost: { cpu: 2, memory: '8Gi' } }],
    quotas: [{ name: 'team-a', fleet: 'fra1', organization: 'acme', limits: { cpu: 256, memory: '1Ti', disk: '8Ti' }, maxVirtualMachines: 40 }],
    clusters: [{ name: 'team-a-prod', endpoint: 'https://10.0.0.10:6443', caCertificate: pem, kubeconfigPath: '~/.kube/team-a.config' }],
    nodePools: [{ name: 'workers', quota: 'team-a', cluster: 'team-a-prod', shape: { cpu: 8, memory: '32Gi', disk: '100Gi' }, count: 6 }],
    nodeProviders: [{ name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }] }],
    autoNodes: [
      {
        cluster: 'team-a-prod',
        provider: 'virt',
        quota: 'team-a',
        static: [{ name: 'base', quantity: 2 }],
        dynamic: [{ name: 'burst', limits: { cpu: 64, nodes: 8 } }],
      },
    ],
  });
}

/** The parts of a plan report that say what is planned (not where the model was written). */
function planned(report: PlanJson) {
  return {
    ok: report.ok,
    fleets: report.fleets,
    quotas: report.quotas,
    pools: report.pools.map((p) => ({ name: p.name, kind: p.kind, nodeType: p.nodeType, nodes: p.nodes })),
  };
}

describe('e2e: the packed library in a fresh project', () => {
  let work: string;
  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-consumer-'));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('installs from the tarball with only the peers, compiles the README example with --strict, and plans what the YAML plans', async () => {
    // 1. The tarball, as published (dist is built by `npm test` before the tests run).
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: REPO_ROOT });
    expectOk('npm pack', pack);
    const packed = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    expect(packed[0].files.filter((f) => /^(test|bench|examples)\//.test(f.path) || /\.test\.(ts|js)$/.test(f.path))).toEqual([]);

    // 2. An empty project with the peers and the tarball; from npm's cache when it has them.
    const project = path.join(work, 'app');
    fs.mkdirSync(project);
    const dependencies: Record<string, string> = Object.fromEntries([
      ...PEERS.map((p): [string, string] => [p, versionOf(p)]),
      ['metalslice', `file:${path.join(work, packed[0].filename)}`],
    ]);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies }, null, 2));
    expectOk(
      'npm install',
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, timeoutMs: 480_000 }),
    );
    // Exactly one copy of each peer: metalslice's constructs take the app's provider objects.
    for (const peer of PEERS) expect(fs.existsSync(path.join(project, 'node_modules', 'metalslice', 'node_modules', peer))).toBe(false);

    // 3. The README example, with what it leaves to the reader, compiled with --strict.
    const pem = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8');
    const prelude = `const hosts = ${JSON.stringify(HOSTS)};\nconst pem = ${JSON.stringify(pem)};\n`;
    const example = readmeExample();
    const imports = example.split('\n').filter((l) => l.startsWith('import '));
    const body = example.split('\n').filter((l) => !l.startsWith('import '));
    fs.writeFileSync(path.join(project, 'app.ts'), [...imports, prelude, ...body].join('\n'));
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'commonjs', moduleResolution: 'node', esModuleInterop: true, outDir: 'out', types: [] },
        files: ['app.ts'],
      }),
    );
    expectOk('tsc --strict', await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project }));

    // 4. Synth it, as cdktf does.
    const outdir = path.join(project, 'cdktf.out');
    expectOk('synth', await run(process.execPath, ['out/app.js'], { cwd: project, env: { ...process.env, CHECKPOINT_DISABLE: '1', CDKTF_OUTDIR: outdir } }));
    const fromConstructs = parsePlanJson(fs.readFileSync(path.join(outdir, 'stacks', 'fra1', 'metalslice-plan.json'), 'utf8'));

    // 5. The same model as YAML, planned by metalslice/core from the installed package.
    fs.writeFileSync(path.join(project, 'model.yaml'), sameModelAsYaml(pem));
    const core = await run(
      process.execPath,
      ['-e', "const m = require('metalslice/core'); process.stdout.write(JSON.stringify(m.planModel(m.loadConfigFile('model.yaml')).report))"],
      { cwd: project },
    );
    expectOk('metalslice/core', core);
    const fromYaml = parsePlanJson(core.stdout);
    expect(fromConstructs.ok).toBe(true);
    expect(planned(fromConstructs)).toEqual(planned(fromYaml));
    expect(fromConstructs.pools.map((p) => p.name)).toEqual(['workers', 'base', 'burst']);
  });
});
