/**
 * Scale benchmark: how metalslice behaves at fleet size, in one run.
 *   1. planModel on 10,000 VMs (six shapes, ~200 pools, 50 quotas) over 1,000 hosts of three kinds.
 *   2. `cdktf synth` of a 1,000-host fleet, 50 quotas and 5,000 elastic nodes (100 pools of 50),
 *      against a bare cdktf app that emits the same resources with every manifest written inline.
 * Every measured case runs in a fresh child process, so peak RSS is that case's own. Synth cases run
 * three times each, alternating, and the median counts.
 *
 *   npm run bench:scale [-- --runs N]
 *   node dist/bench/scale.js --case plan|synth-ours|synth-bare   (one case, one JSON line; for --cpu-prof)
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { planModel } from '../constructs/core/plan';
import { planInstance } from './scale-fixtures';

// Synth sizes, repeated here so that the plan case's process never loads cdktf (its peak RSS stays its own).
const SYNTH_SIZE = { hosts: 1000, quotas: 50, pools: 100, perPool: 50, clusters: 10 } as const;

const PLAN_TARGET_MS = 1000;
const SYNTH_TARGET_RATIO = 1.3;

type CaseName = 'plan' | 'synth-ours' | 'synth-bare';

interface CaseResult {
  readonly case: CaseName;
  /** Time of the measured work in the child (planModel; or building the app + app.synth()). */
  readonly ms: number;
  /** CPU time (user + system, all threads) of the same work: steadier than wall time on a busy machine. */
  readonly cpuMs: number;
  /** Peak resident set size of the child process, MiB. */
  readonly peakRssMiB: number;
  /** Heap in use at the end of the measured work, MiB. */
  readonly heapUsedMiB: number;
  /** Wall time of the whole child process, module loading included (set by the parent). */
  processMs?: number;
  readonly detail: Record<string, number | string | boolean>;
}

function memory(): { peakRssMiB: number; heapUsedMiB: number } {
  return { peakRssMiB: round(process.resourceUsage().maxRSS / 1024), heapUsedMiB: round(process.memoryUsage().heapUsed / 2 ** 20) };
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return round((used.user + used.system) / 1000);
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function runPlan(hostCount = 1000): CaseResult {
  const { model, vms } = planInstance(hostCount, Math.max(5, hostCount / 20));
  const hosts = model.fleets?.[0].hosts?.length ?? 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const plan = planModel(model);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpuMs = cpuSince(cpu);
  const placed = plan.pools.reduce((n, p) => n + p.nodes.filter((node) => node.host !== undefined).length, 0);
  return {
    case: 'plan',
    ms: round(ms),
    cpuMs,
    ...memory(),
    detail: { hosts, vms, pools: model.nodePools?.length ?? 0, quotas: model.quotas?.length ?? 0, placed, ok: plan.ok, errors: plan.errors.length },
  };
}

/** Resource counts by type, from the synthesized stack. */
function resourceCounts(outdir: string): Record<string, number> {
  const file = path.join(outdir, 'stacks', 'bench', 'cdk.tf.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { resource?: Record<string, Record<string, unknown>> };
  const counts: Record<string, number> = {};
  for (const [type, byName] of Object.entries(json.resource ?? {})) counts[type] = Object.keys(byName).length;
  return counts;
}

async function runSynth(which: 'synth-ours' | 'synth-bare'): Promise<CaseResult> {
  // Loaded here, not imported at the top: only the synth cases load cdktf.
  const apps = await import('./scale-apps');
  if (JSON.stringify(apps.SYNTH_SIZE) !== JSON.stringify(SYNTH_SIZE)) throw new Error('bench/scale.ts and bench/scale-apps.ts disagree on the synth size');
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `metalslice-bench-${which}-`));
  try {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const app = which === 'synth-ours' ? apps.metalsliceApp(outdir) : apps.bareApp(outdir);
    const built = process.hrtime.bigint();
    app.synth();
    const end = process.hrtime.bigint();
    const cpuMs = cpuSince(cpu);
    const mem = memory();
    const stackFile = path.join(outdir, 'stacks', 'bench', 'cdk.tf.json');
    const counts = resourceCounts(outdir);
    return {
      case: which,
      ms: round(Number(end - start) / 1e6),
      cpuMs,
      ...mem,
      detail: {
        constructMs: round(Number(built - start) / 1e6),
        synthMs: round(Number(end - built) / 1e6),
        cdkTfJsonMiB: round(fs.statSync(stackFile).size / 2 ** 20),
        resources: Object.values(counts).reduce((a, b) => a + b, 0),
        ...Object.fromEntries(Object.entries(counts).map(([t, n]) => [`resource:${t}`, n])),
      },
    };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

async function runCase(name: CaseName, hostCount?: number): Promise<CaseResult> {
  if (name === 'plan') return runPlan(hostCount);
  return runSynth(name);
}

/** Runs one case in a fresh Node process and returns what it measured. */
function inChild(name: CaseName, hostCount?: number): CaseResult {
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [__filename, '--case', name, ...(hostCount ? ['--hosts', String(hostCount)] : [])], {
    env: { ...process.env, CHECKPOINT_DISABLE: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const processMs = round(Number(process.hrtime.bigint() - start) / 1e6);
  if (child.status !== 0) throw new Error(`case ${name} failed (exit ${child.status}):\n${child.stderr}`);
  const line = child.stdout.trim().split('\n').pop() ?? '';
  const result = JSON.parse(line) as CaseResult;
  result.processMs = processMs;
  return result;
}

/** `metalslice plan --json` on the instance written as a config file: wall time of the whole command, start-up included. */
function cliWall(hostCount: number): { ms: number; vms: number; exit: number | null } {
  const { model, vms } = planInstance(hostCount, Math.max(5, hostCount / 20));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-bench-cli-'));
  try {
    const file = path.join(dir, 'metalslice.json');
    fs.writeFileSync(file, JSON.stringify(model));
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'metalslice'), 'plan', file, '--json'], {
      encoding: 'utf8',
      maxBuffer: 256 * 2 ** 20,
    });
    return { ms: round(Number(process.hrtime.bigint() - start) / 1e6), vms, exit: r.status };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const caseAt = args.indexOf('--case');
  if (caseAt >= 0) {
    const hostsAt = args.indexOf('--hosts');
    process.stdout.write(`${JSON.stringify(await runCase(args[caseAt + 1] as CaseName, hostsAt >= 0 ? Number(args[hostsAt + 1]) : undefined))}\n`);
    return;
  }
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1])) : 3;

  process.stderr.write('plan: 10,000 VMs on 1,000 hosts ...\n');
  const plan = inChild('plan');
  process.stderr.write('plan and CLI at 1,000 and 10,000 VMs ...\n');
  const small = inChild('plan', 100);
  const cli = [cliWall(100), cliWall(1000)];
  const ours: CaseResult[] = [];
  const bare: CaseResult[] = [];
  for (let r = 0; r < runs; r++) {
    process.stderr.write(`synth run ${r + 1}/${runs}: metalslice ...\n`);
    ours.push(inChild('synth-ours'));
    process.stderr.write(`synth run ${r + 1}/${runs}: bare cdktf ...\n`);
    bare.push(inChild('synth-bare'));
  }

  const med = (rs: readonly CaseResult[], f: (r: CaseResult) => number) => round(median(rs.map(f)));
  const summary = (rs: readonly CaseResult[]) => ({
    medianMs: med(rs, (r) => r.ms),
    runsMs: rs.map((r) => r.ms),
    cpuMs: med(rs, (r) => r.cpuMs),
    constructMs: med(rs, (r) => Number(r.detail.constructMs)),
    synthMs: med(rs, (r) => Number(r.detail.synthMs)),
    peakRssMiB: med(rs, (r) => r.peakRssMiB),
    processMs: med(rs, (r) => r.processMs ?? 0),
    cdkTfJsonMiB: Number(rs[0].detail.cdkTfJsonMiB),
  });
  const o = summary(ours);
  const b = summary(bare);
  const ratio = round(o.medianMs / b.medianMs, 2);
  const cpuRatio = round(o.cpuMs / b.cpuMs, 2);
  const sameResources = JSON.stringify(countsOf(ours[0])) === JSON.stringify(countsOf(bare[0]));
  const placedAll = plan.detail.placed === plan.detail.vms;
  const planOk = plan.ms <= PLAN_TARGET_MS && placedAll;
  const synthOk = ratio <= SYNTH_TARGET_RATIO;

  const out: string[] = [];
  out.push(
    `metalslice scale benchmark (node ${process.version}, ${os.cpus().length} cpu, ${round(os.totalmem() / 2 ** 30, 0)} GiB, load average ${os.loadavg()[0].toFixed(1)})`,
  );
  out.push('');
  out.push(`1. planModel: ${plan.detail.vms} VMs, ${plan.detail.pools} pools, ${plan.detail.quotas} quotas, ${plan.detail.hosts} hosts (3 kinds)`);
  out.push(
    table([
      ['', 'wall ms', 'cpu ms', 'peak RSS MiB', 'heap MiB', 'process ms', 'placed', 'target <= 1000 ms, all placed'],
      [
        'planModel',
        `${plan.ms}`,
        `${plan.cpuMs}`,
        `${plan.peakRssMiB}`,
        `${plan.heapUsedMiB}`,
        `${plan.processMs}`,
        `${plan.detail.placed}/${plan.detail.vms}`,
        planOk ? 'met' : 'MISSED',
      ],
    ]),
  );
  out.push('');
  out.push('1b. planModel (in process) beside `metalslice plan --json` (the whole command: start-up, reading the file, planning, the report)');
  out.push(
    table([
      ['VMs', 'planModel wall ms', 'planModel cpu ms', 'CLI wall ms', 'CLI exit', 'CLI ms per 1,000 VMs'],
      ...[small, plan].map((p, i) => [
        `${p.detail.vms}`,
        `${p.ms}`,
        `${p.cpuMs}`,
        `${cli[i].ms}`,
        `${cli[i].exit}`,
        `${round(cli[i].ms / (cli[i].vms / 1000))}`,
      ]),
    ]),
  );
  out.push('');
  out.push(
    `2. cdktf synth: ${SYNTH_SIZE.hosts} hosts, ${SYNTH_SIZE.quotas} quotas, ${SYNTH_SIZE.pools} pools x ${SYNTH_SIZE.perPool} = ${SYNTH_SIZE.pools * SYNTH_SIZE.perPool} nodes; ` +
      `${ours[0].detail.resources} resources each (${sameResources ? 'same types and counts' : 'RESOURCE COUNTS DIFFER'}); median of ${runs}, alternating`,
  );
  const row = (name: string, x: ReturnType<typeof summary>) => [
    name,
    `${x.medianMs}`,
    x.runsMs.join(' / '),
    `${x.cpuMs}`,
    `${x.constructMs}`,
    `${x.synthMs}`,
    `${x.peakRssMiB}`,
    `${x.processMs}`,
    `${x.cdkTfJsonMiB}`,
  ];
  out.push(
    table([
      ['', 'wall ms', 'runs ms', 'cpu ms', 'construct ms', 'synth ms', 'peak RSS MiB', 'process ms', 'cdk.tf.json MiB'],
      row('metalslice', o),
      row('bare cdktf', b),
      [
        'ours / bare',
        `${ratio}`,
        '',
        `${cpuRatio}`,
        `${round(o.constructMs / b.constructMs, 2)}`,
        `${round(o.synthMs / b.synthMs, 2)}`,
        `${round(o.peakRssMiB / b.peakRssMiB, 2)}`,
        `${round(o.processMs / b.processMs, 2)}`,
        '',
      ],
    ]),
  );
  out.push(`target: synth wall time (construct + app.synth()) <= ${SYNTH_TARGET_RATIO} x bare: ${synthOk ? 'met' : 'MISSED'} (${ratio}; cpu time ${cpuRatio})`);
  out.push('');
  process.stdout.write(`${out.join('\n')}\n`);
  const machine = {
    bench: 'scale',
    node: process.version,
    loadAverage: round(os.loadavg()[0], 2),
    cli: cli.map((c, i) => ({ vms: c.vms, cliMs: c.ms, exit: c.exit, planModelMs: [small, plan][i].ms })),
    plan: { ms: plan.ms, cpuMs: plan.cpuMs, peakRssMiB: plan.peakRssMiB, processMs: plan.processMs, ...plan.detail, targetMs: PLAN_TARGET_MS, met: planOk },
    synth: {
      ...SYNTH_SIZE,
      runs,
      ours: o,
      bare: b,
      ratio,
      cpuRatio,
      sameResources,
      resources: ours[0].detail.resources,
      targetRatio: SYNTH_TARGET_RATIO,
      met: synthOk,
    },
  };
  process.stdout.write(`${JSON.stringify(machine)}\n`);
}

function countsOf(r: CaseResult): Record<string, number | string | boolean> {
  return Object.fromEntries(Object.entries(r.detail).filter(([k]) => k.startsWith('resource:')));
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
