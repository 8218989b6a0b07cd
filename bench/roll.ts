/**
 * `metalslice roll-nodes` at scale: a pool of `--nodes` VMs (100 unless told) on the e2e's control plane (real
 * kube-apiserver and etcd, KubeVirt's own virt-api and virt-controller, CDI stood in for; test/e2e/harness.ts),
 * rolled onto a new revision once for each `--surges` value (1 and 10 unless told), with the maxUnavailable the plan
 * gives (0: the default rollout). The VMs, their user data Secrets and revisions are what the stack renders from a
 * plan (render/kubevirt.ts, render/cloud-init.ts); a change of the pool's shape is applied to every VM as the deploy
 * would (KubeVirt stages it), then roll-nodes runs as the deploy runs it, against the same API server as the
 * provider and the tenant cluster. The guest is the e2e's stand-in: each new VMI "joins" at once (its Node made
 * Ready, a pod bound to it), no boot.
 *
 * Measured per roll, side by side: wall time, and per replaced node the median drain (its Node cordoned to its VM
 * set Halted) and stop to Ready again; roll-nodes' CPU seconds (user + system of the process, from GNU time) and
 * kube-apiserver's (utime + stime in /proc/<pid>/stat over the roll; and above its idle pace, sampled with the pool
 * settled just before), each per replaced node; the requests the API server served (its audit log, watches left
 * out), roll-nodes' (its user agent) and their lists beside every other client's (KubeVirt's controllers, the
 * stand-ins, the bench's watches); the most VMs that existed at once against the plan's peak (pool + maxSurge),
 * and the most nodes in flight at once (each replaced node from its VM set Halted to its Node Ready again) against
 * maxSurge + maxUnavailable, both from the bench's own watches of the API server (resourceVersion order), never
 * from roll-nodes' output. A benchmark, not a test: nothing is part of npm test.
 *
 * Needs the toolchain (npm run setup; source its env.sh), GNU time at /usr/bin/time, and `npm run build` first
 * (roll-nodes runs as `node bin/metalslice`, from dist/).
 *
 *   npm run bench:roll [-- --nodes 100] [--surges 1,10] [--interval 2] [--json]
 * `--interval` is roll-nodes' seconds between two reads while waiting (its default, 2, as the stack runs it).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { planModel, Plan } from '../constructs/core/plan';
import { MetalsliceConfig } from '../constructs/core/input/model';
import { PlannedVm } from '../constructs/core/vm/vm';
import { vmUserDataSecretName } from '../constructs/core/naming/derived';
import { caCertHash, renderJoinCloudConfig } from '../constructs/render/cloud-init';
import { elasticNodeLabels, renderVirtualMachine } from '../constructs/render/kubevirt';
import { renderQuotaNamespace } from '../constructs/render/quota';
import { startCluster, TestCluster } from '../test/e2e/harness';
import { standInJoin } from '../test/e2e/tenant-shop';
import { maxInFlight, median, peakPresent, phases, Phases, replacements, RollRecord } from './roll-records';

const REPO = path.resolve(__dirname, '..');
const CLI = path.join(REPO, 'bin', 'metalslice');
const GNU_TIME = '/usr/bin/time';
const POOL = 'web';
const CLUSTER = 'shop';
/** Where the stand-in guest's pod of each node goes (the tenant's namespace). */
const APPS = 'shop';
const MERGE_PATCH = 'application/merge-patch+json';
/** Seconds the API server's CPU is sampled with the pool settled before each roll. */
const IDLE_SECONDS = 20;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** One fleet with room for the pool and its surge, one quota, one tenant cluster at the bench's API server; memory makes the revision. */
function rollConfig(nodes: number, memoryGi: number, maxSurge: number, server: string, caPem: string): MetalsliceConfig {
  const hosts = Math.ceil(nodes / 10) + 2;
  return {
    fleets: [
      {
        name: 'bench',
        hosts: Array.from({ length: hosts }, (_, i) => ({ name: `host-${i}`, capacity: { cpu: 64, memory: '512Gi', disk: '4Ti' } })),
      },
    ],
    quotas: [
      {
        name: 'frontend',
        fleet: 'bench',
        organization: 'acme',
        limits: { cpu: 2 * (nodes + 20), memory: `${16 * (nodes + 20)}Gi`, disk: `${20 * (nodes + 20)}Gi` },
      },
    ],
    clusters: [{ name: CLUSTER, endpoint: server, kubernetesVersion: '1.33', caCertificate: caPem }],
    nodePools: [
      { name: POOL, quota: 'frontend', cluster: CLUSTER, shape: { cpu: 1, memory: `${memoryGi}Gi`, disk: '10Gi' }, count: nodes, rollout: { maxSurge } },
    ],
  };
}

interface PoolPlan {
  readonly vms: readonly PlannedVm[];
  readonly revision: string;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly namespace: string;
  readonly plan: Plan;
}

function planPool(config: MetalsliceConfig): PoolPlan {
  const plan = planModel(config);
  if (!plan.ok) throw new Error(`the plan failed: ${JSON.stringify(plan.errors.slice(0, 3))}`);
  const pool = plan.pools.find((p) => p.vms.some((vm) => vm.concrete))!;
  const rollout = plan.rollouts.get(pool.path);
  if (rollout === undefined) throw new Error(`the plan gives pool ${POOL} no rollout`);
  const vms = pool.vms.filter((vm) => vm.concrete);
  return { vms, revision: rollout.revision, maxSurge: rollout.maxSurge, maxUnavailable: rollout.maxUnavailable, namespace: vms[0].namespace, plan };
}

/** `items` through `step`, `concurrency` at a time. */
async function inPool<T>(items: readonly T[], concurrency: number, step: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await step(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function expectStatus(what: string, res: { status: number; body: unknown }, ok: readonly number[]): void {
  if (!ok.includes(res.status)) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
}

/** Each VM's user data Secret and its VirtualMachine, as the stack applies them (the pool's first apply). */
async function createPool(cluster: TestCluster, pool: PoolPlan, caPem: string): Promise<void> {
  const api = cluster.client();
  const ns = pool.namespace;
  expectStatus('namespace', await api.create('/api/v1/namespaces', renderQuotaNamespace(pool.plan.quotas[0])), [201, 409]);
  await inPool(pool.vms, 8, async (vm) => {
    const secret = vmUserDataSecretName(vm.name);
    const userdata = renderJoinCloudConfig({
      nodeName: vm.name,
      endpoint: cluster.server,
      caCertificate: caPem,
      token: 'abcdef.0123456789abcdef',
      kubernetesVersion: '1.33',
      labels: elasticNodeLabels(vm),
      taints: vm.taints,
    });
    const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name: secret, namespace: ns }, data: { userdata: Buffer.from(userdata).toString('base64') } };
    expectStatus(`Secret ${secret}`, await api.create(`/api/v1/namespaces/${ns}/secrets`, body), [201]);
    const object = renderVirtualMachine(vm, { userDataSecret: secret, revision: pool.revision });
    expectStatus(`VM ${vm.name}`, await api.create(`/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachines`, object), [201]);
  });
}

/** Every VM of the pool given the new plan's spec (the deploy's apply before it rolls): KubeVirt stages it. */
async function applyRevision(cluster: TestCluster, pool: PoolPlan): Promise<void> {
  const api = cluster.client();
  await inPool(pool.vms, 8, async (vm) => {
    const at = `/apis/kubevirt.io/v1/namespaces/${pool.namespace}/virtualmachines/${vm.name}`;
    const object = renderVirtualMachine(vm, { userDataSecret: vmUserDataSecretName(vm.name), revision: pool.revision }) as unknown as {
      spec: { template: unknown };
    };
    expectStatus(`apply VM ${vm.name}`, await api.request('PATCH', at, { spec: { template: object.spec.template } }, MERGE_PATCH), [200]);
  });
}

/** Resolves once `done()` says so; throws after `ms`. */
async function until(what: string, ms: number, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The bench's own watches of the pool's VMs and of the Nodes (the tenant cluster is the same API server), each event
 * kept with its resourceVersion; a watch the API server ends is opened again from the last one seen.
 */
function record(cluster: TestCluster, namespace: string, records: RollRecord[]): () => void {
  const api = cluster.client();
  let stopped = false;
  const streams: { stop(): void }[] = [];
  const open = (kind: RollRecord['kind'], base: string, from?: string): void => {
    let last = from;
    const url = `${base}?watch=1&allowWatchBookmarks=true${last ? `&resourceVersion=${last}` : ''}`;
    type Doc = {
      metadata: { name: string; resourceVersion?: string };
      spec?: { runStrategy?: string; unschedulable?: boolean };
      status?: { conditions?: { type?: string; status?: string }[] };
    };
    const w = api.watch<Doc>(url, (e) => {
      last = e.object.metadata?.resourceVersion ?? last;
      if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return;
      records.push({
        kind,
        type: e.type,
        name: e.object.metadata.name,
        rv: Number(e.object.metadata.resourceVersion),
        at: Date.now(),
        ...(kind === 'VirtualMachine' ? { halted: e.object.spec?.runStrategy === 'Halted' } : {}),
        ...(kind === 'Node'
          ? {
              ready: (e.object.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
              cordoned: e.object.spec?.unschedulable === true,
            }
          : {}),
      });
    });
    streams.push(w);
    void w.ended.then(() => {
      if (!stopped) open(kind, base, last);
    });
  };
  open('VirtualMachine', `/apis/kubevirt.io/v1/namespaces/${namespace}/virtualmachines`);
  open('Node', '/api/v1/nodes');
  return () => {
    stopped = true;
    for (const s of streams) s.stop();
  };
}

/** The e2e's stand-in guest: each new VMI of the namespace "boots and joins" at once (its Node Ready, a pod on it). */
function guests(cluster: TestCluster, namespace: string): () => void {
  const api = cluster.client();
  const joined = new Set<string>();
  type Vmi = { metadata: { name: string; uid?: string; deletionTimestamp?: string; resourceVersion?: string } };
  let stopped = false;
  const streams: { stop(): void }[] = [];
  const open = (from?: string): void => {
    let last = from;
    const w = api.watch<Vmi>(`/apis/kubevirt.io/v1/namespaces/${namespace}/virtualmachineinstances?watch=1${last ? `&resourceVersion=${last}` : ''}`, (e) => {
      last = e.object.metadata?.resourceVersion ?? last;
      const uid = e.object.metadata?.uid ?? '';
      if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
      if (joined.has(uid) || e.object.metadata.deletionTimestamp) return;
      joined.add(uid);
      void standInJoin(api, e.object.metadata.name, POOL, APPS);
    });
    streams.push(w);
    void w.ended.then(() => {
      if (!stopped) open(last);
    });
  };
  open();
  return () => {
    stopped = true;
    for (const s of streams) s.stop();
  };
}

/** How many of the pool's Nodes are Ready now. */
async function readyNodes(cluster: TestCluster): Promise<number> {
  type Node = { status?: { conditions?: { type?: string; status?: string }[] } };
  const res = await cluster.client().get<{ items: Node[] }>(`/api/v1/nodes?labelSelector=${encodeURIComponent(`metalslice.io/pool=${POOL}`)}`);
  return res.body.items.filter((n) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')).length;
}

/** What one roll measured. */
interface RollRow {
  readonly nodes: number;
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly exitCode: number;
  readonly wallSeconds: number;
  /** roll-nodes' user + system CPU seconds (GNU time). */
  readonly rollCpuSeconds: number;
  /** kube-apiserver's CPU seconds over the roll (/proc). */
  readonly apiserverCpuSeconds: number;
  /** kube-apiserver's CPU seconds per second with the pool settled, just before the roll (its watches, the controllers' leases). */
  readonly apiserverIdleCpu: number;
  readonly vmsBefore: number;
  readonly peakVms: number;
  readonly planPeakVms: number;
  readonly replaced: number;
  readonly maxInFlight: number;
  /** Median seconds from a node's stop to its Node Ready again. */
  readonly medianStopToReadySeconds: number;
  /** Median seconds from a node's cordon (its drain began) to its stop. */
  readonly medianDrainSeconds: number;
  /** The roll's surge, replacements and surge's end, in seconds. */
  readonly phases: Phases;
  /** The API server's requests over the roll, from its audit log (watches left out): roll-nodes' (its user agent), their lists, everyone else's. */
  readonly requests: AuditCounts;
  /** Every VMI of the pool on the revision and every Node Ready after the roll. */
  readonly converged: boolean;
}

/** Requests the audit log recorded, watches left out: roll-nodes' (user agent `metalslice`), their lists, all others'. */
interface AuditCounts {
  readonly rollNodes: number;
  readonly rollNodesLists: number;
  readonly others: number;
}

/** The audit log's length now: where a roll's requests begin. */
function auditOffset(cluster: TestCluster): number {
  return fs.statSync(cluster.auditLog!).size;
}

/** The requests the audit log recorded from byte `from` on (each once, at ResponseComplete). */
function auditCounts(cluster: TestCluster, from: number): AuditCounts {
  const fd = fs.openSync(cluster.auditLog!, 'r');
  const buf = Buffer.alloc(fs.fstatSync(fd).size - from);
  fs.readSync(fd, buf, 0, buf.length, from);
  fs.closeSync(fd);
  const counts = { rollNodes: 0, rollNodesLists: 0, others: 0 };
  for (const line of buf.toString('utf8').split('\n')) {
    if (line === '') continue;
    const a = JSON.parse(line) as { stage?: string; verb?: string; userAgent?: string };
    if (a.stage !== 'ResponseComplete' || a.verb === 'watch') continue;
    if (a.userAgent === 'metalslice') {
      counts.rollNodes++;
      if (a.verb === 'list') counts.rollNodesLists++;
    } else counts.others++;
  }
  return counts;
}

/** Runs roll-nodes under GNU time: its exit code, wall seconds and CPU seconds; its output to `outFile`. */
function runRollNodes(args: readonly string[], outFile: string, timeFile: string): Promise<{ code: number; wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(outFile, 'w');
    const t0 = process.hrtime.bigint();
    const child = spawn(GNU_TIME, ['-f', '%U %S', '-o', timeFile, process.execPath, CLI, 'roll-nodes', ...args], {
      stdio: ['ignore', out, out],
      env: { ...process.env, CHECKPOINT_DISABLE: '1' },
    });
    fs.closeSync(out);
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const lines = fs.readFileSync(timeFile, 'utf8').trim().split('\n');
      const [user, sys] = lines[lines.length - 1].split(' ').map(Number);
      resolve({ code: code ?? -1, wall, cpu: user + sys });
    });
  });
}

/** Whether every VM of the pool runs the revision (its VMI says so), no surge is left, and every node is Ready. */
async function converged(cluster: TestCluster, pool: PoolPlan): Promise<boolean> {
  type Doc = { metadata: { name: string; annotations?: Record<string, string> } };
  const api = cluster.client();
  const vms = (await api.get<{ items: Doc[] }>(`/apis/kubevirt.io/v1/namespaces/${pool.namespace}/virtualmachines`)).body.items;
  const vmis = (await api.get<{ items: Doc[] }>(`/apis/kubevirt.io/v1/namespaces/${pool.namespace}/virtualmachineinstances`)).body.items;
  const onRevision = vmis.filter((v) => v.metadata.annotations?.['metalslice.io/revision'] === pool.revision).length;
  return vms.length === pool.vms.length && onRevision === pool.vms.length && (await readyNodes(cluster)) === pool.vms.length;
}

interface Bench {
  readonly cluster: TestCluster;
  readonly records: RollRecord[];
  readonly caPem: string;
  readonly interval?: string;
}

/** The pool applied at `pool`'s revision, then rolled onto it by roll-nodes; measured. */
async function roll(bench: Bench, pool: PoolPlan): Promise<RollRow> {
  const { cluster, records } = bench;
  log(`applying revision ${pool.revision} to ${pool.vms.length} VMs (maxSurge ${pool.maxSurge}, maxUnavailable ${pool.maxUnavailable})`);
  await applyRevision(cluster, pool);
  const fromRv = Math.max(0, ...records.map((r) => r.rv));
  const dir = fs.mkdtempSync(path.join(cluster.dir, 'roll-'));
  const args = [
    ...['--namespace', pool.namespace, '--pool', POOL, '--cluster', CLUSTER, '--revision', pool.revision],
    ...['--nodes', pool.vms.map((vm) => vm.name).join(',')],
    ...['--max-surge', String(pool.maxSurge), '--max-unavailable', String(pool.maxUnavailable), '--drain-timeout', '5m'],
    ...['--cluster-ca-hash', caCertHash(bench.caPem), '--kubeconfig', cluster.adminKubeconfig, '--tenant-kubeconfig', cluster.adminKubeconfig],
    ...(bench.interval ? ['--interval', bench.interval] : []),
  ];
  // The API server's own pace with nothing rolling: what it spends anyway over the roll's wall time.
  const idleFrom = cluster.apiserverCpuSeconds();
  await new Promise((res) => setTimeout(res, IDLE_SECONDS * 1000));
  const idle = (cluster.apiserverCpuSeconds() - idleFrom) / IDLE_SECONDS;
  const apiBefore = cluster.apiserverCpuSeconds();
  const auditFrom = auditOffset(cluster);
  log(`roll-nodes --max-surge ${pool.maxSurge} --max-unavailable ${pool.maxUnavailable} over ${pool.vms.length} nodes`);
  const r = await runRollNodes(args, path.join(dir, 'roll.out'), path.join(dir, 'time.txt'));
  const apiCpu = cluster.apiserverCpuSeconds() - apiBefore;
  const requests = auditCounts(cluster, auditFrom);
  if (r.code !== 0) log(`  roll-nodes exited ${r.code}:\n${fs.readFileSync(path.join(dir, 'roll.out'), 'utf8').split('\n').slice(-8).join('\n')}`);
  // The watches' last events reach the bench a moment after the roll ends.
  await new Promise((res) => setTimeout(res, 2000));
  const { before, peak } = peakPresent(records, fromRv);
  const replaced = replacements(
    records,
    pool.vms.map((vm) => vm.name),
    fromRv,
  );
  const row: RollRow = {
    nodes: pool.vms.length,
    maxSurge: pool.maxSurge,
    maxUnavailable: pool.maxUnavailable,
    exitCode: r.code,
    wallSeconds: r.wall,
    rollCpuSeconds: r.cpu,
    apiserverCpuSeconds: apiCpu,
    apiserverIdleCpu: idle,
    vmsBefore: before,
    peakVms: peak,
    planPeakVms: pool.vms.length + pool.maxSurge,
    replaced: replaced.length,
    maxInFlight: maxInFlight(replaced.map((x) => ({ start: x.stopRv, end: x.readyRv }))),
    medianStopToReadySeconds: median(replaced.map((x) => (x.readyAt - x.stopAt) / 1000)),
    medianDrainSeconds: median(replaced.map((x) => (x.stopAt - x.cordonAt) / 1000)),
    phases: phases(
      records,
      pool.vms.map((vm) => vm.name),
      fromRv,
    ),
    requests,
    converged: await converged(cluster, pool),
  };
  log(`  ${JSON.stringify(row)}`);
  return row;
}

function printTable(rows: readonly RollRow[], interval: string): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `roll-nodes --interval ${interval}. CPU: roll-nodes' user + system (GNU time); kube-apiserver's utime + stime (/proc) over the roll, and above its idle pace (sampled ${IDLE_SECONDS} s before the roll)`,
  );
  console.log(
    line([
      'roll',
      'wall s',
      'wall s / node',
      'surge s, replacing s, surge end s',
      'drain s, median',
      'stop to Ready s, median',
      'roll-nodes CPU ms / node',
      'kube-apiserver CPU ms / node (above idle)',
      'roll-nodes requests / node (lists)',
      "other clients' requests / node",
      'peak VMs (plan: pool + surge)',
      'max in flight (surge + unavailable)',
      'replaced',
      'exit',
    ]),
  );
  console.log(line(['---', ...Array.from({ length: 13 }, () => '---:')]));
  for (const r of rows) {
    const above = r.apiserverCpuSeconds - r.apiserverIdleCpu * r.wallSeconds;
    console.log(
      line([
        `${r.nodes} nodes, maxSurge ${r.maxSurge}, maxUnavailable ${r.maxUnavailable}`,
        r.wallSeconds.toFixed(0),
        (r.wallSeconds / r.nodes).toFixed(2),
        [r.phases.surgeSeconds, r.phases.replaceSeconds, r.phases.endSeconds].map((x) => x.toFixed(0)).join(', '),
        r.medianDrainSeconds.toFixed(1),
        r.medianStopToReadySeconds.toFixed(1),
        ((r.rollCpuSeconds / r.nodes) * 1000).toFixed(0),
        `${((r.apiserverCpuSeconds / r.nodes) * 1000).toFixed(0)} (${((above / r.nodes) * 1000).toFixed(0)})`,
        `${(r.requests.rollNodes / r.nodes).toFixed(1)} (${(r.requests.rollNodesLists / r.nodes).toFixed(1)})`,
        (r.requests.others / r.nodes).toFixed(1),
        `${r.peakVms} (${r.planPeakVms})`,
        `${r.maxInFlight} (${r.maxSurge + r.maxUnavailable})`,
        `${r.replaced} / ${r.nodes}${r.converged ? '' : ', not converged'}`,
        String(r.exitCode),
      ]),
    );
  }
}

async function run(): Promise<void> {
  const nodes = Number(arg('--nodes') ?? 100);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 1000) throw new Error(`--nodes takes a whole number from 1 to 1000: got ${arg('--nodes')}`);
  const surges = (arg('--surges') ?? '1,10').split(',').map(Number);
  const bad = surges.find((s) => !Number.isInteger(s) || s < 1 || s > nodes);
  if (bad !== undefined) throw new Error(`--surges takes whole numbers from 1 to --nodes: got ${bad}`);
  const interval = arg('--interval');
  const json = process.argv.includes('--json');
  if (!fs.existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} (GNU time) measures roll-nodes' CPU time: install it (Debian: apt-get install time)`);
  if (!fs.existsSync(path.join(REPO, 'dist', 'constructs', 'cli', 'main.js'))) throw new Error('roll-nodes runs from dist/: npm run build first');
  const t0 = Date.now();
  // The audit log (every request, Metadata level) says whose requests the API server served during each roll.
  const cluster = await startCluster({ kubevirt: true, cdi: true, audit: true });
  const stops: (() => void)[] = [];
  try {
    const caPem = fs.readFileSync(cluster.caFile, 'utf8');
    const first = planPool(rollConfig(nodes, 2, surges[0], cluster.server, caPem));
    const records: RollRecord[] = [];
    expectStatus('namespace shop', await cluster.client().create('/api/v1/namespaces', { metadata: { name: APPS } }), [201]);
    stops.push(record(cluster, first.namespace, records), guests(cluster, first.namespace));
    log(`control plane up in ${((Date.now() - t0) / 1000).toFixed(0)} s; making ${nodes} VMs at revision ${first.revision}`);
    const made = Date.now();
    await createPool(cluster, first, caPem);
    await until(`${nodes} Nodes Ready`, 600_000, async () => (await readyNodes(cluster)) === nodes);
    log(`${nodes} VMs made and joined in ${((Date.now() - made) / 1000).toFixed(0)} s`);
    const bench: Bench = {
      cluster,
      records,
      caPem,
      interval,
    };
    const rows: RollRow[] = [];
    for (const [i, surge] of surges.entries()) rows.push(await roll(bench, planPool(rollConfig(nodes, 3 + i, surge, cluster.server, caPem))));
    if (json) console.log(JSON.stringify({ nodes, interval: interval ?? '2', rolls: rows }, null, 2));
    else printTable(rows, interval ?? '2 (its default)');
  } finally {
    for (const stop of stops) stop();
    await cluster.stop();
  }
}

run().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
