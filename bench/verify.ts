/**
 * `metalslice verify` at scale: plan, then replay on a real control plane (etcd, kube-apiserver,
 * kube-scheduler, KWOK), for 100 hosts / 1,000 VMs and 1,000 hosts / 10,000 VMs. One control plane for
 * both sizes. Prints plan time, verify time (start = nodes created and Ready, schedule = pods created
 * until all bound or settled) and bound/total side by side. Needs the toolchain (npm run setup).
 *
 *   npm run bench:verify [-- --order deploy|shuffled] [--seed N] [--only 1000|10000] [--kinds spread,pinned] [--settings stock,tuned,kubevirt]
 *   npm run bench:verify -- --pod-sizes [--only 1000|10000]   grouped pools' launcher pod sizes, no control plane
 * Each setting starts its own control plane (the scheduler's client settings are read at start). A second table
 * gives each component's CPU seconds per case (from /proc), which says what bounds the replay. `kubevirt` is
 * `verify --kubevirt` (every VM through KubeVirt's own virt-api, one launcher pod per class rendered by its
 * virt-controller, the others made from it) beside the replay.
 */
import { planModel } from '../constructs/core/plan';
import { ControlPlaneOptions, startControlPlane } from '../constructs/verify/control-plane';
import { buildReplay, ReplayOrder } from '../constructs/verify/replay';
import { verifyPlan, VerifyResult } from '../constructs/verify/verify';
import { scaleConfig, spreadScaleConfig } from './verify-fixtures';

// Two fleets at each size: fleet-wide pools that stay spread (kube-scheduler picks every host), and one pool
// per shape and quota, each smaller than the host count, which the spread proof pins to planned hosts.
const CASES = [
  { hosts: 100, kind: 'spread', config: () => spreadScaleConfig(100) },
  { hosts: 100, kind: 'pinned', config: () => scaleConfig(100, 10) },
  { hosts: 1000, kind: 'spread', config: () => spreadScaleConfig(1000) },
  { hosts: 1000, kind: 'pinned', config: () => scaleConfig(1000, 50) },
] as const;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** One way of running the replay: the control plane's settings, creations in flight, and (kubevirt) the VM sizes it runs. */
interface Setting {
  readonly name: 'stock' | 'tuned' | 'kubevirt';
  readonly controlPlane: ControlPlaneOptions;
  readonly concurrency: number;
  /** Launcher pods made by KubeVirt's own virt-controller from applied VMs (verify --kubevirt). */
  readonly kubevirt?: boolean;
  /** Cases above this many VMs are skipped. @default - none */
  readonly maxVms?: number;
}

/**
 * The settings compared: every component as it comes (kube-scheduler's KubeSchedulerConfiguration defaults, KWOK's
 * node Leases and pod status), the replay's tuned one, and the tuned one with KubeVirt's virt-api admitting every
 * VM and virt-controller rendering one launcher pod per class.
 */
const SETTINGS: readonly Setting[] = [
  {
    name: 'stock',
    controlPlane: { schedulerQps: 50, schedulerBurst: 100, percentageOfNodesToScore: 0, kwokNodeLeaseSeconds: 40, kwokPodStatus: true },
    concurrency: 32,
  },
  { name: 'tuned', controlPlane: { schedulerQps: 5000, schedulerBurst: 10000, percentageOfNodesToScore: 10 }, concurrency: 128 },
  {
    name: 'kubevirt',
    controlPlane: { schedulerQps: 5000, schedulerBurst: 10000, percentageOfNodesToScore: 10, kubevirt: true },
    concurrency: 32,
    kubevirt: true,
  },
];

interface Row {
  name: string;
  settings: string;
  vms: number;
  planSeconds: number;
  startSeconds: number;
  r: VerifyResult;
  /** CPU seconds each control-plane component, and this process (the replay's client), used for the case. */
  cpu: Record<string, number>;
}

/** CPU seconds used between two readings, per component. */
function cpuSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, s]) => [name, s - (before[name] ?? 0)]));
}

/** This process's CPU seconds, as the control plane's readings are keyed. */
function ownCpu(): Record<string, number> {
  const u = process.cpuUsage();
  return { replay: (u.user + u.system) / 1e6 };
}

async function runSettings(setting: Setting, order: ReplayOrder, seed: number, only: string | undefined, kinds: readonly string[]): Promise<Row[]> {
  const t0 = Date.now();
  const cp = await startControlPlane(setting.controlPlane);
  const startSeconds = (Date.now() - t0) / 1000;
  const rows: Row[] = [];
  try {
    for (const c of CASES) {
      const name = `${c.hosts} hosts / ${c.hosts * 10} VMs, ${c.kind}`;
      if ((only && Number(only) !== c.hosts * 10) || !kinds.includes(c.kind) || c.hosts * 10 > (setting.maxVms ?? Infinity)) continue;
      const p0 = Date.now();
      const plan = planModel(c.config());
      const planSeconds = (Date.now() - p0) / 1000;
      if (!plan.ok) throw new Error(`${name}: the plan failed: ${JSON.stringify(plan.errors.slice(0, 3))}`);
      process.stderr.write(`[${setting.name}] ${name}: planned in ${planSeconds.toFixed(2)} s, replaying (${order})\n`);
      const cpuBefore = { ...cp.cpuSeconds(), ...ownCpu() };
      const r = await verifyPlan(plan, {
        controlPlane: cp,
        order,
        seed,
        planSeconds,
        concurrency: setting.concurrency,
        kubevirt: setting.kubevirt === true,
        log: (l) => process.stderr.write(`  ${l}\n`),
      });
      const cpu = cpuSince(cpuBefore, { ...cp.cpuSeconds(), ...ownCpu() });
      rows.push({ name, settings: setting.name, vms: c.hosts * 10, planSeconds, startSeconds, r, cpu });
    }
  } finally {
    await cp.stop();
  }
  return rows;
}

/**
 * `--pod-sizes`: no control plane. Per case, each grouped pool's launcher pod as the replay creates it (what a
 * pool's placement puts in every pod), in bytes of JSON: what each write and watch event of it carries.
 */
function podSizes(only: string | undefined, kinds: readonly string[]): void {
  console.log('| case | grouped pools | their VMs | largest group (hosts) | launcher pod bytes, min / max | all their launcher pods, MB |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const c of CASES) {
    if ((only !== undefined && String(c.hosts * 10) !== only) || !kinds.includes(c.kind)) continue;
    const plan = planModel(c.config());
    const grouped = new Set(plan.vms.filter((vm) => vm.hostGroup?.hosts !== undefined).map((vm) => vm.poolPath));
    const sizes = buildReplay(plan)
      .pods.filter((p) => grouped.has(p.poolPath))
      .map((p) => JSON.stringify(p.object).length);
    const largest = Math.max(0, ...plan.vms.map((vm) => vm.hostGroup?.hosts?.length ?? 0));
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(
      `| ${c.hosts} hosts / ${plan.vms.length} VMs, ${c.kind} | ${grouped.size} | ${sizes.length} | ${largest} | ${Math.min(...sizes)} / ${Math.max(...sizes)} | ${(total / 1e6).toFixed(1)} |`,
    );
  }
}

async function run(): Promise<void> {
  if (process.argv.includes('--pod-sizes')) return podSizes(arg('--only'), (arg('--kinds') ?? 'spread,pinned').split(','));
  const order = (arg('--order') ?? 'deploy') as ReplayOrder;
  const seed = Number(arg('--seed') ?? 1);
  const only = arg('--only');
  const kinds = (arg('--kinds') ?? 'spread,pinned').split(',');
  const which = (arg('--settings') ?? 'stock,tuned,kubevirt').split(',');
  const rows: Row[] = [];
  for (const setting of SETTINGS) if (which.includes(setting.name)) rows.push(...(await runSettings(setting, order, seed, only, kinds)));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `order ${order}${order === 'shuffled' ? ` seed ${seed}` : ''}; ${SETTINGS.map((s) => `${s.name}: ${JSON.stringify(s.controlPlane)}, ${s.concurrency} creations in flight`).join('; ')}`,
  );
  console.log(
    line([
      'case',
      'settings',
      'control plane s',
      'plan s',
      'nodes Ready s',
      'schedule s',
      'verify s',
      's per 1,000 VMs',
      'stock / this',
      'bound / total',
      'off-plan',
      'pods virt-controller rendered',
    ]),
  );
  console.log(line(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  const verifyOf = (r: Row) => r.r.seconds.start + r.r.seconds.schedule;
  for (const row of rows) {
    const stock = rows.find((o) => o.name === row.name && o.settings === 'stock');
    const ratio = stock && row.settings !== 'stock' ? `${(verifyOf(stock) / Math.max(verifyOf(row), 0.001)).toFixed(1)}x` : '';
    console.log(
      line([
        row.name,
        row.settings,
        row.startSeconds.toFixed(1),
        row.planSeconds.toFixed(2),
        row.r.seconds.start.toFixed(1),
        row.r.seconds.schedule.toFixed(1),
        verifyOf(row).toFixed(1),
        ((verifyOf(row) * 1000) / row.vms).toFixed(1),
        ratio,
        `${row.r.bound} / ${row.r.vms}`,
        String(row.r.movedFromPlan),
        String(row.r.renderedByVirtController ?? '-'),
      ]),
    );
  }
  // What bounds a replay: CPU seconds per component over the case (2 cores: the sum cannot pass 2 x verify s).
  const components = [...new Set(rows.flatMap((r) => Object.keys(r.cpu)))];
  console.log('');
  console.log(line(['case', 'settings', ...components.map((c) => `${c} CPU s`), 'CPU s per VM (all)']));
  console.log(line(['---', '---', ...components.map(() => '---:'), '---:']));
  for (const row of rows) {
    const total = Object.values(row.cpu).reduce((a, b) => a + b, 0);
    console.log(line([row.name, row.settings, ...components.map((c) => (row.cpu[c] ?? 0).toFixed(1)), ((total / row.vms) * 1000).toFixed(1) + ' ms']));
  }
  for (const { name, r } of rows)
    for (const p of r.pending.slice(0, 20)) console.log(`pending in ${name}: ${p.namespace}/${p.vm} (planned ${p.plannedHost}): ${p.reason}`);
}

run().catch((e) => {
  console.error(e);
  process.exit(1);
});
