// metalslice as a platform team installs it, from the README alone: `npm pack`, then for CDK Terrain and for CDK
// for Terraform an empty project that runs the README's install lines (the tarball in place of `metalslice`, the
// cdktf variant as the README says: `cdktn` -> `cdktf`), the README's construct example compiled with `tsc
// --strict` by whatever TypeScript those lines install, and synthesized. Both frameworks give the same plan JSON
// byte for byte and the same resources in cdk.tf.json, and the plan is what the same model as YAML plans. The
// cdktn app then applies on a real kube-apiserver with OpenTofu, and the cdktf app plans no change against what
// it applied. The installed runtime tree holds no deprecated package.
// If the README's install lines or example drift from what works, this fails.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { binary, expectOk, REPO_ROOT, run, startCluster, TestCluster } from './harness';
import { deprecatedIn, NpmLsNode } from '../support/deprecated';
import { parsePlanJson, PlanJson } from '../support/plan-json';
import type { KubeDoc, KubeList } from '../support/kube-docs';

jest.setTimeout(1_200_000);

const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
type Framework = 'cdktn' | 'cdktf';

/** The first fenced block of a language after a heading. */
function blockAfter(heading: string, lang: string): string {
  const section = README.slice(README.indexOf(heading));
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!block) throw new Error(`README has no \`\`\`${lang} block under "${heading}"`);
  return block[1];
}

/** The README written for cdktn, as the README says to read it for cdktf. */
function forFramework(text: string, framework: Framework): string {
  return framework === 'cdktn' ? text : text.replace(/\bcdktn\b/g, 'cdktf');
}

/** The README's install lines, each an `npm install` argument list with the tarball in place of metalslice. */
function installLines(framework: Framework, tarball: string): string[][] {
  return forFramework(blockAfter('## Use it as a library', 'sh'), framework)
    .split('\n')
    .filter((l) => l.startsWith('npm install'))
    .map((l) =>
      l
        .split(/\s+/)
        .slice(2)
        .map((a) => (a === 'metalslice' ? tarball : a)),
    );
}

/** The README example's model, as a config file. */
function sameModelAsYaml(pem: string): string {
  const hosts = ['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-05', 'bm-06'].map((name) => ({ name, capacity: { cpu: 96, memory: '512Gi', disk: '8Ti' } }));
  return JSON.stringify({
    fleets: [{ name: 'fra1', hosts, reservedPerHost: { cpu: 2, memory: '8Gi' } }],
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

/** cdk.tf.json without what says which framework wrote it: the `//` metadata blocks. */
function withoutFrameworkMetadata(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFrameworkMetadata);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== '//')
      .map(([k, v]) => [k, withoutFrameworkMetadata(v)]),
  );
}

interface Synthesized {
  planJson: string;
  cdkTf: unknown;
  project: string;
  stackDir: string;
}

/** OpenTofu in a synthesized stack's directory with HOME at `home` (the README's `~/.kube/...` paths resolve there). */
function tofuAt(stackDir: string, home: string, args: readonly string[]) {
  // The consumer's tenant cluster is the README's example, not the test API server: its nodes go without a drain.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_INPUT: '0', METALSLICE_DRAIN: 'skip' };
  delete env.TF_PLUGIN_CACHE_DIR;
  delete env.KUBECONFIG;
  return run(binary('tofu'), [...args, '-input=false', '-no-color'], { cwd: stackDir, env, timeoutMs: 600_000 });
}

describe('e2e: the packed library in a fresh project, from the README', () => {
  let work: string;
  let tarball: string;
  const synthesized: Partial<Record<Framework, Synthesized>> = {};

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-consumer-'));
    // The tarball, as published (dist is built by `npm test` before the tests run).
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: REPO_ROOT });
    expectOk('npm pack', pack);
    const packed = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    expect(packed[0].files.filter((f) => /^(test|bench|examples)\//.test(f.path) || /\.test\.(ts|js)$/.test(f.path))).toEqual([]);
    expect(packed[0].files.map((f) => f.path)).toEqual(expect.arrayContaining(['dist/constructs/index.js', 'dist/cdktn/constructs/index.js']));
    tarball = path.join(work, packed[0].filename);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  for (const framework of ['cdktn', 'cdktf'] as const) {
    it(`${framework}: the README's install lines, then its example compiled with --strict and synthesized`, async () => {
      const project = path.join(work, framework);
      fs.mkdirSync(project);
      // An ES module project, as a new TypeScript project is by default.
      fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: `consumer-${framework}`, private: true, type: 'module' }, null, 2));
      for (const args of installLines(framework, tarball)) {
        expectOk(
          `npm install ${args.join(' ')}`,
          await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args], { cwd: project, timeoutMs: 600_000 }),
        );
      }
      // Exactly one copy of each framework package: metalslice's constructs take the app's objects.
      for (const peer of [framework, 'constructs']) expect(fs.existsSync(path.join(project, 'node_modules', 'metalslice', 'node_modules', peer))).toBe(false);
      expect(fs.existsSync(path.join(project, 'node_modules', '@cdktf', 'provider-kubernetes'))).toBe(false);
      // What a user installs with metalslice, at runtime: nothing npm calls deprecated.
      const ls = await run('npm', ['ls', '--omit=dev', '--all', '--json'], { cwd: project });
      const metalslice = (JSON.parse(ls.stdout) as NpmLsNode).dependencies?.metalslice ?? {};
      expect(Object.keys(metalslice.dependencies ?? {})).toContain('yaml');
      expect(deprecatedIn({ dependencies: { metalslice } })).toEqual([]);

      fs.writeFileSync(path.join(project, 'app.ts'), forFramework(blockAfter('## The construct API', 'ts'), framework));
      fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), path.join(project, 'team-a-prod-ca.crt'));
      fs.writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', outDir: 'out', types: ['node'] }, files: ['app.ts'] }),
      );
      expectOk('tsc --strict', await run(path.join(project, 'node_modules', '.bin', 'tsc'), ['-p', project], { cwd: project }));

      const outdir = path.join(project, 'cdktf.out');
      const env = { ...process.env, CHECKPOINT_DISABLE: '1', CDKTF_OUTDIR: outdir, CDKTN_OUTDIR: outdir };
      expectOk('synth', await run(process.execPath, ['out/app.js'], { cwd: project, env }));
      const stackDir = path.join(outdir, 'stacks', 'fra1');
      synthesized[framework] = {
        planJson: fs.readFileSync(path.join(stackDir, 'metalslice-plan.json'), 'utf8'),
        // The default local backend names the project's directory, which differs between the two projects.
        cdkTf: JSON.parse(fs.readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8').replaceAll(project, '<project>')),
        project,
        stackDir,
      };
    });
  }

  it('gives the same plan JSON byte for byte and the same resources with cdktn and with cdktf', () => {
    const { cdktn, cdktf } = synthesized;
    if (!cdktn || !cdktf) throw new Error('a framework did not synthesize (see the test above)');
    expect(cdktn.planJson).toBe(cdktf.planJson);
    expect(withoutFrameworkMetadata(cdktn.cdkTf)).toEqual(withoutFrameworkMetadata(cdktf.cdkTf));
    const resources = (cdktn.cdkTf as { resource: Record<string, Record<string, unknown>> }).resource;
    expect(Object.keys(resources).sort()).toEqual(
      expect.arrayContaining(['kubectl_manifest', 'kubernetes_manifest', 'kubernetes_namespace_v1', 'random_password', 'random_string']),
    );
  });

  it('plans with the constructs what metalslice/core plans from the same model as YAML', async () => {
    const cdktn = synthesized.cdktn;
    if (!cdktn) throw new Error('cdktn did not synthesize (see the test above)');
    const pem = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8');
    fs.writeFileSync(path.join(cdktn.project, 'model.yaml'), sameModelAsYaml(pem));
    const core = await run(
      process.execPath,
      ['-e', "const m = require('metalslice/core'); process.stdout.write(JSON.stringify(m.planModel(m.loadConfigFile('model.yaml')).report))"],
      { cwd: cdktn.project },
    );
    expectOk('metalslice/core', core);
    const fromConstructs = parsePlanJson(cdktn.planJson);
    expect(fromConstructs.ok).toBe(true);
    expect(planned(fromConstructs)).toEqual(planned(parsePlanJson(core.stdout)));
    expect(fromConstructs.pools.map((p) => p.name)).toEqual(['workers', 'base', 'burst']);
  });

  describe('on a real kube-apiserver', () => {
    let cluster: TestCluster | undefined;
    afterAll(async () => {
      await cluster?.stop();
    });

    it('the cdktn app applies with OpenTofu; the cdktf app plans no change against it; both destroy clean', async () => {
      const { cdktn, cdktf } = synthesized;
      if (!cdktn || !cdktf) throw new Error('a framework did not synthesize (see the tests above)');
      // KubeVirt's defaulting imitated and its namespace made, as a cluster with KubeVirt installed has them.
      cluster = await startCluster({ kubevirt: true });
      // The README's providers read ~/.kube/provider.config and ~/.kube/team-a.config: here both are the test
      // cluster's admin (the tenant's kube-system is the same cluster, as in the other deploy tests).
      const home = path.join(work, 'home');
      fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
      for (const f of ['provider.config', 'team-a.config']) fs.copyFileSync(cluster.adminKubeconfig, path.join(home, '.kube', f));

      expectOk('tofu init (cdktn)', await tofuAt(cdktn.stackDir, home, ['init']));
      expectOk('tofu apply (cdktn)', await tofuAt(cdktn.stackDir, home, ['apply', '-auto-approve']));
      const api = cluster.client();
      const vms = (await api.get<KubeList<KubeDoc>>('/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines')).body.items
        .map((v) => v.metadata.name)
        .sort();
      expect(vms).toEqual(['team-a-prod-base-0', 'team-a-prod-base-1', 'workers-0', 'workers-1', 'workers-2', 'workers-3', 'workers-4', 'workers-5']);
      const tokens = (await api.get<KubeList<KubeDoc>>('/api/v1/namespaces/kube-system/secrets')).body.items.filter((s) =>
        s.metadata.name.startsWith('bootstrap-token-'),
      );
      expect(tokens).toHaveLength(8);
      expect((await api.get<KubeList<KubeDoc>>('/apis/karpenter.sh/v1/nodepools')).body.items).toHaveLength(1);
      const replan = await tofuAt(cdktn.stackDir, home, ['plan', '-detailed-exitcode']);
      expect({ code: replan.code, changes: replan.code === 2 ? replan.stdout : '' }).toEqual({ code: 0, changes: '' });

      // The cdktf app's configuration against the cdktn app's state: the same resources, so no change.
      fs.copyFileSync(path.join(cdktn.project, 'terraform.fra1.tfstate'), path.join(cdktf.project, 'terraform.fra1.tfstate'));
      expectOk('tofu init (cdktf)', await tofuAt(cdktf.stackDir, home, ['init']));
      const cross = await tofuAt(cdktf.stackDir, home, ['plan', '-detailed-exitcode']);
      expect({ code: cross.code, changes: cross.code === 2 ? cross.stdout : '' }).toEqual({ code: 0, changes: '' });

      expectOk('tofu destroy (cdktn)', await tofuAt(cdktn.stackDir, home, ['destroy', '-auto-approve']));
      expect((await api.get<KubeList<KubeDoc>>('/apis/kubevirt.io/v1/virtualmachines')).body.items).toEqual([]);
    });
  });
});
