/**
 * `metalslice status` at scale, beside `kubectl get` of the objects it reads, in the same run: 100 hosts / 1,000
 * VMs and 1,000 hosts / 10,000 VMs of bench/verify-fixtures.ts's spread fleet, each on its own real control plane
 * (startControlPlane, with KubeVirt's and CDI's CRDs) holding the fleet as a converged deploy leaves it
 * (bench/status-fixtures.ts: host Nodes, VMs, DataVolumes, VMIs, launcher pods, tenant Nodes, ResourceQuotas; no
 * KubeVirt runs). After one untimed round, each side runs `--runs` times, interleaved; the table gives medians of
 * wall time and of peak memory (max RSS, from GNU time), and status's exit code and problem count (0 and 0 when the
 * fleet is what the plan says: anything else is a wrong fixture or a finding). kubectl is four `kubectl get` lists
 * of the same objects, one after the other: their times add up, its peak is the largest. A benchmark, not a test:
 * nothing is asserted, nothing is part of npm test.
 *
 * Needs the toolchain with kubectl (npm run setup), GNU time at /usr/bin/time, and `npm run build` first (status
 * runs as `node bin/metalslice status`, from dist/; without it the kubectl side still runs).
 *
 *   npm run bench:status [-- --only 1000,10000] [--runs 3] [--concurrency 64]
 *   npm run bench:status -- --only 500 --fixture-only     a 50-host / 500-VM fleet: made and counted, nothing timed
 * `--only` takes VM counts, 10 per host, from 500 (below it the fleet's quotas keep no live-migration room and the plan
 * fails); `--concurrency` is the requests in flight while the fleet is made.
 */
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { planModel } from '../constructs/core/plan';
import { ControlPlane, findBinaries, findToolchainBinaries, startControlPlane } from '../constructs/verify/control-plane';
import { apiserverCa, countOf, createFleet, installKubevirtCrds, statusConfig } from './status-fixtures';

const REPO = path.resolve(__dirname, '..');
/** The `metalslice` launcher: it runs dist/constructs/cli/main.js, which `npm run build` writes. */
const CLI = path.join(REPO, 'bin', 'metalslice');
const GNU_TIME = '/usr/bin/time';

/**
 * What `kubectl get` lists for the objects status reads on the provider (its VirtualMachines, VMIs, DataVolumes,
 * launcher pods by their label, ResourceQuotas, Nodes and the rolls' holds by their label); the tenant's Nodes are
 * the same server's, which status reads once.
 */
const KUBECTL_LISTS: readonly (readonly string[])[] = [
  ['get', 'virtualmachines,virtualmachineinstances,datavolumes,resourcequotas', '-A', '-o', 'json'],
  ['get', 'pods', '-A', '-l', 'kubevirt.io=virt-launcher', '-o', 'json'],
  ['get', 'nodes', '-o', 'json'],
  ['get', 'configmaps', '-A', '-l', 'metalslice.io/stopped-by-roll=true', '-o', 'json'],
];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** One timed run of a command: wall seconds, peak RSS and how it exited. */
interface Measured {
  readonly seconds: number;
  readonly peakMiB: number;
  readonly exitCode: number;
}

/** Runs a command under GNU time (its max RSS), standard output to `stdoutFile`; resolves when it ends. */
function measure(command: string, args: readonly string[], stdoutFile: string, timeFile: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(stdoutFile, 'w');
    const t0 = process.hrtime.bigint();
    const child = spawn(GNU_TIME, ['-f', '%M', '-o', timeFile, command, ...args], {
      stdio: ['ignore', out, 'pipe'],
      env: { ...process.env, CHECKPOINT_DISABLE: '1' },
    });
    fs.closeSync(out);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      // GNU time writes "Command exited with non-zero status N" before its format line when the command fails.
      const lines = fs.readFileSync(timeFile, 'utf8').trim().split('\n');
      const kib = Number(lines[lines.length - 1]);
      if (code !== 0 && code !== 1)
        log(`  ${path.basename(command)} ${args.slice(0, 2).join(' ')} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
      resolve({ seconds, peakMiB: Number.isFinite(kib) ? kib / 1024 : NaN, exitCode: code ?? -1 });
    });
  });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Whether dist/ has the status command (`status --help` exits 0 and names --kubeconfig). */
async function statusBuilt(dir: string): Promise<boolean> {
  const help = path.join(dir, 'help.txt');
  const r = await measure(process.execPath, [CLI, 'status', '--help'], help, path.join(dir, 'time.txt'));
  return r.exitCode === 0 && fs.readFileSync(help, 'utf8').includes('--kubeconfig');
}

/** One size's results. */
interface Row {
  readonly vms: number;
  readonly hosts: number;
  readonly fixtureSeconds: number;
  /** Each timed run; the distinct problem counts and exit codes over them. */
  readonly status?: { readonly runs: Measured[]; readonly problems: string; readonly exitCodes: string };
  readonly kubectl: { readonly runs: Measured[]; readonly perList: number[][] };
}

/** The problems `status -o json` reported, or `?` when its output is not that JSON. */
function problemsOf(file: string): string {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { problems?: unknown[] };
    return Array.isArray(report.problems) ? String(report.problems.length) : '?';
  } catch {
    return '?';
  }
}

/** kubectl's lists one after the other: their seconds added, the largest peak, the first failure's exit code. */
async function kubectlRun(kubectl: string, kubeconfig: string, cacheDir: string, dir: string): Promise<{ total: Measured; each: number[] }> {
  const each: Measured[] = [];
  for (const list of KUBECTL_LISTS)
    each.push(await measure(kubectl, [...list, '--kubeconfig', kubeconfig, '--cache-dir', cacheDir], '/dev/null', path.join(dir, 'time.txt')));
  return {
    total: {
      seconds: each.reduce((a, m) => a + m.seconds, 0),
      peakMiB: Math.max(...each.map((m) => m.peakMiB)),
      exitCode: each.find((m) => m.exitCode !== 0)?.exitCode ?? 0,
    },
    each: each.map((m) => m.seconds),
  };
}

/** The objects the fleet is made of, counted back from the API server. */
async function countFleet(cp: ControlPlane): Promise<string> {
  const kinds: [string, string][] = [
    ['nodes', '/api/v1/nodes'],
    ['pods', '/api/v1/pods'],
    ['VMs', '/apis/kubevirt.io/v1/virtualmachines'],
    ['VMIs', '/apis/kubevirt.io/v1/virtualmachineinstances'],
    ['DataVolumes', '/apis/cdi.kubevirt.io/v1beta1/datavolumes'],
  ];
  const counts = await Promise.all(kinds.map(async ([name, collection]) => `${await countOf(cp, collection)} ${name}`));
  return counts.join(', ');
}

/** The fleet of `vms` VMs on the control plane, and the config that plans it (written beside the control plane's files). */
async function makeFleet(cp: ControlPlane, vms: number, concurrency: number): Promise<{ configFile: string; vms: number; seconds: number }> {
  const hosts = vms / 10;
  const statusSubresources = await installKubevirtCrds(cp);
  const config = statusConfig(hosts, { server: cp.server, caCertificate: apiserverCa(path.join(cp.dir, 'certs', 'apiserver.crt')), kubeconfig: cp.kubeconfig });
  const configFile = path.join(cp.dir, 'config.yaml');
  fs.writeFileSync(configFile, stringify(config));
  const plan = planModel(config);
  if (!plan.ok) throw new Error(`${hosts} hosts: the plan failed: ${JSON.stringify(plan.errors.slice(0, 3))}`);
  const t0 = Date.now();
  const made = await createFleet(cp, plan, statusSubresources, concurrency, log);
  const seconds = (Date.now() - t0) / 1000;
  log(`${hosts} hosts / ${made.vms} VMs made in ${seconds.toFixed(1)} s; the API server holds ${await countFleet(cp)}`);
  return { configFile, vms: made.vms, seconds };
}

/** One round: status (when built), then kubectl's lists. */
async function round(
  cp: ControlPlane,
  configFile: string,
  kubectl: string,
  built: boolean,
): Promise<{ status?: Measured & { problems: string }; kubectl: { total: Measured; each: number[] } }> {
  let status: (Measured & { problems: string }) | undefined;
  if (built) {
    const out = path.join(cp.dir, 'status.json');
    const m = await measure(process.execPath, [CLI, 'status', configFile, '--kubeconfig', cp.kubeconfig, '-o', 'json'], out, path.join(cp.dir, 'time.txt'));
    status = { ...m, problems: problemsOf(out) };
  }
  return { status, kubectl: await kubectlRun(kubectl, cp.kubeconfig, path.join(cp.dir, 'kubectl-cache'), cp.dir) };
}

/**
 * Starts a control plane, makes the fleet of `vms` VMs, then one untimed round (kubectl's discovery cache and Node's
 * compile cache filled, as on a workstation that has run both before) and `runs` timed ones.
 */
async function runSize(vms: number, opts: { runs: number; concurrency: number; fixtureOnly: boolean; kubectl: string }): Promise<Row> {
  const cp = await startControlPlane();
  try {
    const fleet = await makeFleet(cp, vms, opts.concurrency);
    const row: Row = { vms: fleet.vms, hosts: vms / 10, fixtureSeconds: fleet.seconds, kubectl: { runs: [], perList: [] } };
    if (opts.fixtureOnly) return row;
    const built = await statusBuilt(cp.dir);
    if (!built) log(`  ${CLI} has no status command (npm run build once it exists): timing kubectl only`);
    const warm = await round(cp, fleet.configFile, opts.kubectl, built);
    log(
      `  warm-up: status ${warm.status ? `${warm.status.seconds.toFixed(2)} s, exit ${warm.status.exitCode}, ${warm.status.problems} problems` : '-'}; kubectl ${warm.kubectl.total.seconds.toFixed(2)} s`,
    );
    const statusRuns: (Measured & { problems: string })[] = [];
    for (let run = 0; run < opts.runs; run++) {
      const r = await round(cp, fleet.configFile, opts.kubectl, built);
      if (r.status) statusRuns.push(r.status);
      row.kubectl.runs.push(r.kubectl.total);
      row.kubectl.perList.push(r.kubectl.each);
      log(`  run ${run + 1}: status ${r.status ? `${r.status.seconds.toFixed(2)} s` : '-'}, kubectl ${r.kubectl.total.seconds.toFixed(2)} s`);
    }
    if (!built) return row;
    const distinct = (xs: readonly (string | number)[]) => [...new Set(xs)].join('/');
    return {
      ...row,
      status: { runs: statusRuns, problems: distinct(statusRuns.map((m) => m.problems)), exitCodes: distinct(statusRuns.map((m) => m.exitCode)) },
    };
  } finally {
    await cp.stop();
  }
}

function printTable(rows: readonly Row[], runs: number): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(`medians of ${runs} runs; kubectl: ${KUBECTL_LISTS.map((l) => `kubectl ${l.join(' ')}`).join('; ')}`);
  console.log(
    line([
      'size',
      'metalslice status s',
      'kubectl get s',
      'time status / kubectl',
      'metalslice peak MiB',
      'kubectl peak MiB',
      'peak status / kubectl',
      'status exit',
      'problems',
    ]),
  );
  console.log(line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const r of rows) {
    const k = { s: median(r.kubectl.runs.map((m) => m.seconds)), mib: median(r.kubectl.runs.map((m) => m.peakMiB)) };
    const s = r.status ? { s: median(r.status.runs.map((m) => m.seconds)), mib: median(r.status.runs.map((m) => m.peakMiB)) } : undefined;
    console.log(
      line([
        `${r.hosts.toLocaleString('en-US')} hosts / ${r.vms.toLocaleString('en-US')} VMs`,
        s ? s.s.toFixed(2) : '-',
        k.s.toFixed(2),
        s ? `${(s.s / k.s).toFixed(2)}x` : '-',
        s ? s.mib.toFixed(0) : '-',
        k.mib.toFixed(0),
        s ? `${(s.mib / k.mib).toFixed(2)}x` : '-',
        r.status?.exitCodes ?? '-',
        r.status?.problems ?? '-',
      ]),
    );
  }
  console.log('');
  console.log(line(['size', 'fleet made in s', ...KUBECTL_LISTS.map((l) => `kubectl get ${l[1]} s`)]));
  console.log(line(['---', '---:', ...KUBECTL_LISTS.map(() => '---:')]));
  for (const r of rows)
    console.log(
      line([
        `${r.vms.toLocaleString('en-US')} VMs`,
        r.fixtureSeconds.toFixed(1),
        ...KUBECTL_LISTS.map((_, i) => median(r.kubectl.perList.map((p) => p[i])).toFixed(2)),
      ]),
    );
}

/**
 * The kubectl of the control plane's own build (beside its kube-apiserver), else the toolchain's as findBinaries
 * looks: a kubectl on PATH may be any version (a cloud SDK's, say). Logged with its version.
 */
function findKubectl(): string {
  const beside = path.join(path.dirname(findBinaries()['kube-apiserver']), 'kubectl');
  const kubectl = fs.existsSync(beside) ? beside : findToolchainBinaries(['kubectl']).kubectl;
  if (!kubectl) throw new Error('kubectl is not in the toolchain: run scripts/toolchain.sh (npm run setup)');
  const version = execFileSync(kubectl, ['version', '--client'], { encoding: 'utf8' }).split('\n')[0];
  log(`kubectl: ${kubectl} (${version})`);
  return kubectl;
}

async function run(): Promise<void> {
  const sizes = (arg('--only') ?? '1000,10000').split(',').map(Number);
  const bad = sizes.find((n) => !Number.isInteger(n) || n < 10 || n % 10 !== 0);
  if (bad !== undefined) throw new Error(`--only takes VM counts, multiples of 10 (10 VMs per host): got ${bad}`);
  const runs = Number(arg('--runs') ?? 3);
  const concurrency = Number(arg('--concurrency') ?? 64);
  const fixtureOnly = process.argv.includes('--fixture-only');
  const kubectl = fixtureOnly ? 'kubectl' : findKubectl();
  if (!fixtureOnly && !fs.existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} (GNU time) measures peak memory: install it (Debian: apt-get install time)`);
  const rows: Row[] = [];
  for (const vms of sizes) rows.push(await runSize(vms, { runs, concurrency, fixtureOnly, kubectl }));
  if (!fixtureOnly) printTable(rows, runs);
}

run().catch((e) => {
  console.error(e);
  process.exit(1);
});
