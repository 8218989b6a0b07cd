/**
 * Node template benchmark: what one claim costs vCluster Platform, which runs a node template once per node claim,
 * with the modules as 0.11 writes them (the VM and HostClaim applied by `kubectl_manifest`) against 0.10's
 * (`kubernetes_manifest`), side by side in one run. Against the e2e control plane (etcd, kube-apiserver with the
 * upstream CRDs, KubeVirt's virt-api), with the cached OpenTofu and providers. For each template (kubevirt, metal3)
 * and layout, one claim: `tofu apply`, then `--runs` no-op `tofu plan`s (the layouts taking turns, so a slow moment
 * of the machine falls on both), then `tofu destroy`; each timed under GNU time (wall, CPU of tofu and its
 * providers) with the API server's CPU read from /proc before and after.
 *
 *   npm run bench:node-template [-- --runs 5] [--json]
 *
 * Prints a table and one line per template with 0.11's ratios against 0.10; with --json the last line is one JSON
 * object of them. Needs the toolchain (npm run setup). A few minutes on 2 cores; not part of `npm test`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { copyTerraformTree, startCluster } from '../test/e2e/harness';
import { modulesAsRelease010 } from '../test/support/module-layout';
import { MetalsliceConfig } from '../constructs/core/input/model';
import { planModel } from '../constructs/core/plan';
import { nodeTemplateVars } from '../constructs/render/node-template';
import { timed } from './deploy';
import { median } from './roll-records';

const LAYOUTS = ['0.10', '0.11'] as const;
type Layout = (typeof LAYOUTS)[number];
const TEMPLATES = ['kubevirt', 'metal3'] as const;
type Template = (typeof TEMPLATES)[number];

/** One kubevirt node type on a fleet of one host: the VM a kubevirt claim makes. */
const MODEL: MetalsliceConfig = {
  fleets: [{ name: 'fra1', hosts: [{ name: 'bm-01', capacity: { cpu: 16, memory: '64Gi' } }], hostSelector: { 'metalslice.io/fleet': 'fra1' } }],
  nodeProviders: [{ name: 'metalslice', kind: 'kubevirt', fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }] }],
};

/** What a claim of each template carries in its node type's properties, and the namespace its objects go to. */
const CLAIMS: Record<Template, { namespace: string; nodeType: Record<string, unknown> }> = {
  kubevirt: {
    namespace: 'bench-vms',
    nodeType: { metadata: { name: 'small' }, spec: { resources: { cpu: '2', memory: '4Gi' }, properties: { 'metalslice.io/namespace': 'bench-vms' } } },
  },
  metal3: {
    namespace: 'bench-metal',
    nodeType: {
      metadata: { name: 'gpu-node' },
      spec: {
        properties: {
          'metalslice.io/namespace': 'bench-metal',
          'metalslice.io/host-selector': 'class=gpu',
          'metalslice.io/image-url': 'https://images.example.com/ubuntu-24.04.raw',
          'metalslice.io/image-checksum': 'c'.repeat(64),
          'metalslice.io/image-checksum-type': 'sha256',
        },
      },
    },
  },
};

interface Step {
  readonly wallS: number;
  /** tofu and its providers. */
  readonly cpuS: number;
  /** kube-apiserver's CPU during the step. */
  readonly apiserverCpuS: number;
}

interface Result {
  readonly template: Template;
  readonly layout: Layout;
  readonly apply: Step;
  /** Medians of the no-op plans. */
  readonly plan: Step;
  readonly destroy: Step;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : NaN);

async function main(): Promise<void> {
  const runs = Number(arg('runs') ?? '5');
  if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error(`--runs ${arg('runs')}: a whole number of no-op plans per layout, 1 to 100`);
  const json = process.argv.includes('--json');
  const cluster = await startCluster({ kubevirt: true });
  try {
    for (const { namespace } of Object.values(CLAIMS)) {
      const res = await cluster.client().create('/api/v1/namespaces', { metadata: { name: namespace } });
      if (res.status !== 201) throw new Error(`creating namespace ${namespace}: HTTP ${res.status}`);
    }
    const vars = nodeTemplateVars(planModel(MODEL), MODEL, 'metalslice');
    if (!vars.ok) throw new Error(JSON.stringify(vars.errors));
    // One copy of the modules and templates per layout; 0.10's made from the current text.
    const trees = Object.fromEntries(LAYOUTS.map((l) => [l, copyTerraformTree(fs.mkdtempSync(path.join(cluster.dir, `hcl-${l}-`)))])) as Record<Layout, string>;
    modulesAsRelease010(path.join(trees['0.10'], 'modules'));
    const dirOf = (l: Layout, t: Template) => path.join(trees[l], 'node-templates', t);
    const flags = ['-var-file=claim.tfvars.json', `-var=kubeconfig_path=${cluster.adminKubeconfig}`, '-input=false', '-no-color'];
    const step = async (what: string, l: Layout, t: Template, args: readonly string[]): Promise<Step> => {
      const before = cluster.apiserverCpuSeconds();
      const r = await timed('tofu', args, dirOf(l, t), { ...process.env, TF_IN_AUTOMATION: '1' });
      if (r.code !== 0) throw new Error(`${what} (${t}, ${l}) exited ${r.code}:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
      return { wallS: r.wallS, cpuS: r.cpuS, apiserverCpuS: round(cluster.apiserverCpuSeconds() - before) };
    };
    const results: Result[] = [];
    for (const t of TEMPLATES) {
      const applies = {} as Record<Layout, Step>;
      for (const l of LAYOUTS) {
        const name = `bench-${t}-${l.replace('.', '-')}`;
        const claim = { name, namespace: 'vcluster-bench', userData: `#cloud-config\nhostname: ${name}\n`, requirements: {}, properties: {} };
        fs.writeFileSync(
          path.join(dirOf(l, t), 'claim.tfvars.json'),
          JSON.stringify({
            vcluster: {
              ...claim,
              nodeClaim: { metadata: { name, namespace: 'p-bench' } },
              nodeType: CLAIMS[t].nodeType,
              instance: { metadata: { name: 'bench', namespace: 'p-bench' } },
            },
          }),
        );
        if (t === 'kubevirt') fs.writeFileSync(path.join(dirOf(l, t), 'vm-types.auto.tfvars.json'), JSON.stringify(vars.vars));
        await step('init', l, t, ['init', '-input=false', '-no-color']);
        applies[l] = await step('apply', l, t, ['apply', '-auto-approve', ...flags]);
      }
      const plans: Record<Layout, Step[]> = { '0.10': [], '0.11': [] };
      for (let i = 0; i < runs; i++)
        for (const l of i % 2 === 0 ? LAYOUTS : [...LAYOUTS].reverse()) plans[l].push(await step('no-op plan', l, t, ['plan', '-detailed-exitcode', ...flags]));
      for (const l of LAYOUTS) {
        const p = plans[l];
        const destroy = await step('destroy', l, t, ['destroy', '-auto-approve', ...flags]);
        results.push({
          template: t,
          layout: l,
          apply: applies[l],
          plan: {
            wallS: median(p.map((s) => s.wallS)),
            cpuS: round(median(p.map((s) => s.cpuS))),
            apiserverCpuS: round(median(p.map((s) => s.apiserverCpuS))),
          },
          destroy,
        });
      }
    }
    const cell = (s: Step) => `${round(s.wallS, 1)} (${round(s.cpuS, 1)}; ${s.apiserverCpuS})`;
    process.stdout.write(
      `node templates, one claim each; seconds: wall (tofu and providers' CPU; API server's CPU). Plan: median of ${runs} no-op plans.\n` +
        `| template | layout | apply | no-op plan | destroy |\n|---|---|---|---|---|\n` +
        results.map((r) => `| ${r.template} | ${r.layout} | ${cell(r.apply)} | ${cell(r.plan)} | ${cell(r.destroy)} |`).join('\n') +
        '\n',
    );
    const summary: Record<string, Record<string, number>> = {};
    for (const t of TEMPLATES) {
      const [old, now] = LAYOUTS.map((l) => results.find((r) => r.template === t && r.layout === l)!);
      summary[t] = {
        planTime: ratio(now.plan.wallS, old.plan.wallS),
        planCpu: ratio(now.plan.cpuS, old.plan.cpuS),
        planApiserverCpu: ratio(now.plan.apiserverCpuS, old.plan.apiserverCpuS),
        applyTime: ratio(now.apply.wallS, old.apply.wallS),
        applyCpu: ratio(now.apply.cpuS, old.apply.cpuS),
      };
      const s = summary[t];
      process.stdout.write(
        `${t}: 0.11 against 0.10: no-op plan ${s.planTime}x the time, ${s.planCpu}x the CPU, ${s.planApiserverCpu}x the API server's CPU; apply ${s.applyTime}x the time, ${s.applyCpu}x the CPU\n`,
      );
    }
    if (json) process.stdout.write(`${JSON.stringify({ runs, results, summary })}\n`);
  } finally {
    await cluster.stop();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench:node-template: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
