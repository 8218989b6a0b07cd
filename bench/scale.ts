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
import { App } from 'cdktf';
import { planModel } from '../constructs/core/plan';
import { bareApp, metalsliceApp, SYNTH_SIZE } from './scale-apps';
import { planInstance } from './scale-fixtures';

const PLAN_TARGET_MS = 1000;
const SYNTH_TARGET_RATIO = 1.3;

type CaseName = 'plan' | 'synth-ours' | 'synth-bare';

interface CaseResult {
  readonly case: CaseName;
  /** Time of the measured work in the child (planModel; or building the app + app.synth()). */
  readonly ms: number;
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

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function runPlan(): CaseResult {
  const { model, vms } = planInstance();
  const hosts = model.fleets?.[0].hosts?.length ?? 0;
  const start = process.hrtime.bigint();
  const plan = planModel(model);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const placed = plan.pools.reduce((n, p) => n + p.nodes.filter((node) => node.host !== undefined).length, 0);
  return {
    case: 'plan',
    ms: round(ms),
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

function runSynth(which: 'synth-ours' | 'synth-bare'): CaseResult {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `metalslice-bench-${which}-`));
  try {
    const start = process.hrtime.bigint();
    const app: App = which === 'synth-ours' ? metalsliceApp(outdir) : bareApp(outdir);
    const built = process.hrtime.bigint();
    app.synth();
    const end = process.hrtime.bigint();
    const mem = memory();
    const stackFile = path.join(outdir, 'stacks', 'bench', 'cdk.tf.json');
    const counts = resourceCounts(outdir);
    return {
      case: which,
      ms: round(Number(end - start) / 1e6),
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

function runCase(name: CaseName): CaseResult {
  if (name === 'plan') return runPlan();
  return runSynth(name);
}

/** Runs one case in a fresh Node process and returns what it measured. */
function inChild(name: CaseName): CaseResult {
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [__filename, '--case', name], {
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

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const caseAt = args.indexOf('--case');
  if (caseAt >= 0) {
    process.stdout.write(`${JSON.stringify(runCase(args[caseAt + 1] as CaseName))}\n`);
    return;
  }
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1])) : 3;

  process.stderr.write('plan: 10,000 VMs on 1,000 hosts ...\n');
  const plan = inChild('plan');
  const ours: CaseResult[] = [];
  const bare: CaseResult[] = [];
  for (let r = 0; r < runs; r++) {
    process.stderr.write(`synth run ${r + 1}/${runs}: metalslice ...\n`);
    ours.push(inChild('synth-ours'));
    process.stderr.write(`synth run ${r + 1}/${runs}: bare cdktf ...\n`);
    bare.push(inChild('synth-bare'));
  }

  const med = (rs: readonly CaseResult[], f: (r: CaseResult) => number) => round(median(rs.map(f)));
  const oursMs = med(ours, (r) => r.ms);
  const bareMs = med(bare, (r) => r.ms);
  const oursRss = med(ours, (r) => r.peakRssMiB);
  const bareRss = med(bare, (r) => r.peakRssMiB);
  const oursProc = med(ours, (r) => r.processMs ?? 0);
  const bareProc = med(bare, (r) => r.processMs ?? 0);
  const ratio = round(oursMs / bareMs, 2);
  const procRatio = round(oursProc / bareProc, 2);
  const sameResources = JSON.stringify(countsOf(ours[0])) === JSON.stringify(countsOf(bare[0]));
  const planOk = plan.ms <= PLAN_TARGET_MS && plan.detail.placed === plan.detail.vms;
  const synthOk = ratio <= SYNTH_TARGET_RATIO;

  const out: string[] = [];
  out.push(`metalslice scale benchmark (node ${process.version}, ${os.cpus().length} cpu, ${round(os.totalmem() / 2 ** 30, 0)} GiB)`);
  out.push('');
  out.push(`1. planModel: ${plan.detail.vms} VMs, ${plan.detail.pools} pools, ${plan.detail.quotas} quotas, ${plan.detail.hosts} hosts (3 kinds)`);
  out.push(
    table([
      ['', 'time ms', 'peak RSS MiB', 'heap MiB', 'process ms', 'placed', 'target'],
      ['planModel', `${plan.ms}`, `${plan.peakRssMiB}`, `${plan.heapUsedMiB}`, `${plan.processMs}`, `${plan.detail.placed}/${plan.detail.vms}`, `<= ${PLAN_TARGET_MS} ms, all placed: ${planOk ? 'met' : 'MISSED'}`],
    ]),
  );
  out.push('');
  out.push(`2. synth: ${SYNTH_SIZE.hosts} hosts, ${SYNTH_SIZE.quotas} quotas, ${SYNTH_SIZE.pools} pools x ${SYNTH_SIZE.perPool} = ${SYNTH_SIZE.pools * SYNTH_SIZE.perPool} nodes; ${ours[0].detail.resources} resources each (${sameResources ? 'same types and counts' : 'RESOURCE COUNTS DIFFER'})`);
  const runCells = (rs: readonly CaseResult[]) => rs.map((r) => `${r.ms}`).join(' / ');
  out.push(
    table([
      ['', 'median ms', 'runs ms', 'construct ms', 'synth ms', 'peak RSS MiB', 'process ms', 'cdk.tf.json MiB'],
      ['metalslice', `${oursMs}`, runCells(ours), `${med(ours, (r) => Number(r.detail.constructMs))}`, `${med(ours, (r) => Number(r.detail.synthMs))}`, `${oursRss}`, `${oursProc}`, `${ours[0].detail.cdkTfJsonMiB}`],
      ['bare cdktf', `${bareMs}`, runCells(bare), `${med(bare, (r) => Number(r.detail.constructMs))}`, `${med(bare, (r) => Number(r.detail.synthMs))}`, `${bareRss}`, `${bareProc}`, `${bare[0].detail.cdkTfJsonMiB}`],
      ['ours / bare', `${ratio}`, '', '', '', `${round(oursRss / bareRss, 2)}`, `${procRatio}`, ''],
    ]),
  );
  out.push(`target: synth time <= ${SYNTH_TARGET_RATIO} x bare (construct + synth, median of ${runs}): ${synthOk ? 'met' : 'MISSED'}`);
  out.push('');
  process.stdout.write(`${out.join('\n')}\n`);
  const machine = {
    bench: 'scale',
    node: process.version,
    plan: { ms: plan.ms, peakRssMiB: plan.peakRssMiB, processMs: plan.processMs, ...plan.detail, targetMs: PLAN_TARGET_MS, met: planOk },
    synth: {
      ...SYNTH_SIZE,
      ours: { medianMs: oursMs, runsMs: ours.map((r) => r.ms), peakRssMiB: oursRss, processMs: oursProc },
      bare: { medianMs: bareMs, runsMs: bare.map((r) => r.ms), peakRssMiB: bareRss, processMs: bareProc },
      ratio,
      processRatio: procRatio,
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

main();
