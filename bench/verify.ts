/**
 * `metalslice verify` at scale: plan, then replay on a real control plane (etcd, kube-apiserver,
 * kube-scheduler, KWOK), for 100 hosts / 1,000 VMs and 1,000 hosts / 10,000 VMs. One control plane for
 * both sizes. Prints plan time, verify time (start = nodes created and Ready, schedule = pods created
 * until all bound or settled) and bound/total side by side. Needs the toolchain (npm run setup).
 *
 *   npm run bench:verify [-- --order deploy|shuffled] [--seed N] [--only 1000|10000]
 */
import { planModel } from '../constructs/core/plan';
import { startControlPlane } from '../constructs/verify/control-plane';
import { ReplayOrder } from '../constructs/verify/replay';
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

async function run(): Promise<void> {
  const order = (arg('--order') ?? 'deploy') as ReplayOrder;
  const seed = Number(arg('--seed') ?? 1);
  const only = arg('--only');
  const t0 = Date.now();
  const cp = await startControlPlane();
  const startSeconds = (Date.now() - t0) / 1000;
  const rows: { name: string; planSeconds: number; r: VerifyResult }[] = [];
  try {
    for (const c of CASES) {
      const name = `${c.hosts} hosts / ${c.hosts * 10} VMs, ${c.kind}`;
      if (only && Number(only) !== c.hosts * 10) continue;
      const p0 = Date.now();
      const plan = planModel(c.config());
      const planSeconds = (Date.now() - p0) / 1000;
      if (!plan.ok) throw new Error(`${name}: the plan failed: ${JSON.stringify(plan.errors.slice(0, 3))}`);
      process.stderr.write(`${name}: planned in ${planSeconds.toFixed(2)} s, replaying (${order})\n`);
      const r = await verifyPlan(plan, { controlPlane: cp, order, seed, planSeconds, log: (l) => process.stderr.write(`  ${l}\n`) });
      rows.push({ name, planSeconds, r });
    }
  } finally {
    await cp.stop();
  }
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `control plane start (etcd, kube-apiserver, kube-scheduler, kwok): ${startSeconds.toFixed(1)} s; order ${order}${order === 'shuffled' ? ` seed ${seed}` : ''}`,
  );
  console.log(line(['case', 'plan s', 'nodes Ready s', 'schedule s', 'verify s', 'verify / plan', 'bound / total', 'off-plan']));
  console.log(line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const { name, planSeconds, r } of rows) {
    const verify = r.seconds.start + r.seconds.schedule;
    console.log(
      line([
        name,
        planSeconds.toFixed(2),
        r.seconds.start.toFixed(1),
        r.seconds.schedule.toFixed(1),
        verify.toFixed(1),
        `${(verify / Math.max(planSeconds, 0.001)).toFixed(0)}x`,
        `${r.bound} / ${r.vms}`,
        String(r.movedFromPlan),
      ]),
    );
  }
  for (const { name, r } of rows)
    for (const p of r.pending.slice(0, 20)) console.log(`pending in ${name}: ${p.namespace}/${p.vm} (planned ${p.plannedHost}): ${p.reason}`);
}

run().catch((e) => {
  console.error(e);
  process.exit(1);
});
