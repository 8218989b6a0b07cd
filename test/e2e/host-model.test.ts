// The fleet as the provider cluster sees it. A "live" control plane holds Nodes exactly as a kubelet and the
// node lifecycle controller show them (capacity and allocatable, taints, cordon, Ready conditions) and the
// pods bound to them (virt-handler, other workloads). `metalslice inventory` reads it into a hostsFile and a
// snapshot; the plan is made from that inventory; `verify --snapshot` replays the plan on a second control
// plane built from the snapshot, where the real kube-scheduler judges. In every case the plan's verdict and
// the scheduler's agree. Needs the toolchain (scripts/test-e2e.sh).
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { extraVmOf } from '../../bench/verify-fixtures';
import { runInventory } from '../../constructs/cli/inventory';
import { main } from '../../constructs/cli/main';
import { loadConfigFile } from '../../constructs/core/input/config';
import { virtHandlerRequests } from '../../constructs/core/kubevirt/handler';
import { MetalsliceConfig, Taint } from '../../constructs/core/input/model';
import { Plan, planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import { checkSnapshot, ClusterSnapshot } from '../../constructs/core/hosts/snapshot';
import { ControlPlane, startControlPlane } from '../../constructs/verify/control-plane';
import { verifyPlan, VerifyResult } from '../../constructs/verify/verify';
import { EXAMPLE_CA } from '../support/models';

jest.setTimeout(900_000);

const MI = 1024n * 1024n;
const EVICTION_THRESHOLD = 100n * MI; // the kubelet's default hard eviction threshold, memory.available<100Mi
const SECRET_DATA = 'c3VwZXJzZWNyZXQtdG9rZW4=';
const SECRET_ENV = 'hunter2-from-env';

interface NodeSpec {
  readonly name: string;
  readonly cpu: number;
  readonly memory: bigint;
  /** Memory the kubelet keeps back (allocatable = capacity - this). */
  readonly keptBack?: bigint;
  readonly unschedulable?: boolean;
  readonly ready?: boolean;
  readonly taints?: readonly Taint[];
}

/** A Node as a kubelet registers it and the node lifecycle controller then marks it. */
function kubeletNode(n: NodeSpec): object {
  const ready = n.ready !== false;
  const taints: Taint[] = [...(n.taints ?? [])];
  if (n.unschedulable) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  if (!ready) taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' });
  const capacity = { cpu: String(n.cpu), memory: `${n.memory / 1024n}Ki`, pods: '110', 'ephemeral-storage': '1000Gi' };
  const allocatable = { ...capacity, memory: `${(n.memory - (n.keptBack ?? 0n)) / 1024n}Ki`, 'ephemeral-storage': '900Gi' };
  const condition = (type: string, status: string) => ({
    type,
    status,
    reason: type,
    message: type,
    lastHeartbeatTime: new Date().toISOString(),
    lastTransitionTime: new Date().toISOString(),
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: n.name,
      labels: {
        'kubernetes.io/hostname': n.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        // What virt-handler's node labeller sets on a host it runs on.
        'kubevirt.io/schedulable': 'true',
        'machine-type.node.kubevirt.io/q35': 'true',
        'kubevirt.io/cpumanager': 'false',
        fleet: 'live',
      },
    },
    spec: { ...(n.unschedulable ? { unschedulable: true } : {}), ...(taints.length > 0 ? { taints } : {}) },
    status: {
      capacity,
      allocatable,
      conditions: [
        condition('MemoryPressure', 'False'),
        condition('DiskPressure', 'False'),
        condition('PIDPressure', 'False'),
        condition('Ready', ready ? 'True' : 'False'),
      ],
    },
  };
}

function boundPod(name: string, namespace: string, node: string, requests: Record<string, string>, labels: Record<string, string> = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: {
      nodeName: node,
      containers: [
        { name: 'main', image: 'registry.k8s.io/pause:3.10', command: ['/pause'], env: [{ name: 'TOKEN', value: SECRET_ENV }], resources: { requests } },
      ],
    },
  };
}

function virtHandlerPod(node: string): object {
  const r = virtHandlerRequests();
  return boundPod(`virt-handler-${node}`, 'kubevirt', node, { cpu: r.cpu.toString(), memory: r.memory.toString() }, { 'kubevirt.io': 'virt-handler' });
}

async function must(cp: ControlPlane, method: string, apiPath: string, body?: unknown): Promise<void> {
  const res = await cp.request(method, apiPath, body);
  if (res.status >= 300 && res.status !== 404) throw new Error(`${method} ${apiPath}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
}

/** Empties the live cluster and lays out the given Nodes and pods, as kubelets and controllers would have. */
async function layOut(cp: ControlPlane, nodes: readonly NodeSpec[], pods: readonly object[]): Promise<void> {
  for (const ns of ['kubevirt', 'monitoring']) await must(cp, 'DELETE', `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`);
  await must(cp, 'DELETE', '/api/v1/nodes?labelSelector=fleet%3Dlive');
  for (const n of nodes) {
    await must(cp, 'POST', '/api/v1/nodes', kubeletNode(n));
    // A kubelet reports status through the status subresource; the API server may drop it on create.
    await must(cp, 'PUT', `/api/v1/nodes/${n.name}/status`, { ...(await nodeNow(cp, n.name)), status: (kubeletNode(n) as { status: object }).status });
  }
  for (const p of pods) {
    const meta = (p as { metadata: { namespace: string } }).metadata;
    await must(cp, 'POST', `/api/v1/namespaces/${meta.namespace}/pods`, p);
  }
}

async function nodeNow(cp: ControlPlane, name: string): Promise<object> {
  return (await cp.request('GET', `/api/v1/nodes/${name}`)).body as object;
}

interface Case {
  readonly dir: string;
  readonly config: string;
  readonly snapshot: ClusterSnapshot;
  readonly snapshotText: string;
  readonly inventoryText: string;
}

/** `metalslice inventory --out --snapshot` on the live cluster, and a config whose fleet reads that inventory. */
async function inventoryOf(live: ControlPlane, model: (hostsFile: string) => MetalsliceConfig): Promise<Case> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-hosts-'));
  const out = path.join(dir, 'inventory.json');
  const snapshotFile = path.join(dir, 'snapshot.json');
  const err: string[] = [];
  const code = await runInventory({ kubeconfig: live.kubeconfig, out, snapshot: snapshotFile }, { stdout: () => undefined, stderr: (t) => err.push(t) });
  expect({ code, err: err.join('') }).toEqual({ code: 0, err: expect.stringContaining('wrote') });
  const config = path.join(dir, 'metalslice.json');
  fs.writeFileSync(config, JSON.stringify(model('inventory.json')));
  const snapshotText = fs.readFileSync(snapshotFile, 'utf8');
  return { dir, config, snapshot: checkSnapshot(JSON.parse(snapshotText), snapshotFile), snapshotText, inventoryText: fs.readFileSync(out, 'utf8') };
}

function fleetModel(hostsFile: string, pool: { cpu: number; memory: string; count: number }, quota: { cpu: number; memory: string }): MetalsliceConfig {
  return {
    fleets: [{ name: 'live', hostsFile, hostSelector: { fleet: 'live' } }],
    quotas: [{ name: 'q', fleet: 'live', organization: 'acme', limits: quota, liveMigrations: 0 }],
    clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
    nodePools: [
      { name: 'w', quota: 'q', cluster: 'prod', shape: { cpu: pool.cpu, memory: pool.memory, disk: '10Gi' }, count: pool.count, rootDisk: 'containerDisk' },
    ],
  };
}

function withCount(config: string, count: number): Plan {
  const m = loadConfigFile(config);
  return planModel({ ...m, nodePools: [{ ...m.nodePools![0], count }] });
}

function show(name: string, r: VerifyResult): string {
  return `${name}: ${r.bound}/${r.vms} bound; pending ${r.pending.map((p) => `${p.vm}: ${p.reason}`).join(' | ') || 'none'}`;
}

/** What one launcher pod of a 1-vCPU VM with this guest memory requests, as the plan (and KubeVirt) count it. */
function launcherMemory(guest: string): bigint {
  const plan = planModel({
    fleets: [{ name: 'f', hosts: [{ name: 'h', capacity: { cpu: 64, memory: '512Gi' }, allocatable: { cpu: 64, memory: '512Gi' } }] }],
    quotas: [{ name: 'q', fleet: 'f', organization: 'acme', limits: { cpu: 8, memory: '64Gi' }, liveMigrations: 0 }],
    clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
    nodePools: [{ name: 'w', quota: 'q', cluster: 'prod', shape: { cpu: 1, memory: guest, disk: '10Gi' }, count: 1, rootDisk: 'containerDisk' }],
  });
  return plan.vms[0].launcher.requests.memory.ceilUnits();
}

/** A quota with room for n launcher pods and a little more, so that only the hosts can refuse the (n+1)th. */
function quotaFor(n: number, launcher: bigint): string {
  return `${(BigInt(n) * launcher) / MI + 10n}Mi`;
}

describe('the fleet as the provider cluster sees it', () => {
  let live: ControlPlane;
  let replay: ControlPlane;

  beforeAll(async () => {
    [live, replay] = await Promise.all([startControlPlane(), startControlPlane()]);
    for (const ns of ['kubevirt', 'monitoring'])
      await must(live, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  });

  afterAll(async () => {
    await Promise.all([live?.stop(), replay?.stop()]);
  });

  /** The plan of k-1 binds fully; the plan of k is refused, and the k-th launcher pod stays Pending on the snapshot. */
  async function expectLastOneRefused(c: Case, k: number, reason: RegExp): Promise<void> {
    const refused = withCount(c.config, k);
    expect(refused.ok).toBe(false);
    expect(refused.errors.map((e) => e.path)).toContain('nodePools[0].count');
    const fits = withCount(c.config, k - 1);
    expect(fits.errors).toEqual([]);
    const all = await verifyPlan(fits, { controlPlane: replay, snapshot: c.snapshot });
    console.log(show(`${k - 1} VMs`, all));
    expect(all.bound).toBe(k - 1);
    const plusOne = await verifyPlan(fits, { controlPlane: replay, snapshot: c.snapshot, extraVms: [extraVmOf(fits, 'w')], quietMs: 3000 });
    console.log(show(`${k} VMs`, plusOne));
    expect(plusOne.bound).toBe(k - 1);
    expect(plusOne.pending).toHaveLength(1);
    expect(plusOne.pending[0].reason).toMatch(reason);
  }

  test('(a) allocatable 100Mi below capacity: k VMs fit the capacity, k-1 the allocatable; the plan refuses k and kube-scheduler agrees', async () => {
    const k = 5;
    const launcher = launcherMemory('2Gi');
    // Room for k launcher pods beside virt-handler by capacity, 50Mi short of it by allocatable.
    const memory = BigInt(k) * launcher + virtHandlerRequests().memory.ceilUnits() + 50n * MI;
    await layOut(live, [{ name: 'bm-a', cpu: 64, memory, keptBack: EVICTION_THRESHOLD }], [virtHandlerPod('bm-a')]);
    const c = await inventoryOf(live, (f) => fleetModel(f, { cpu: 1, memory: '2Gi', count: k }, { cpu: 16, memory: quotaFor(k - 1, launcher) }));
    const host = (JSON.parse(c.inventoryText) as { hosts: { capacity: { memory: string }; allocatable: { memory: string } }[] }).hosts[0];
    expect(Quantity.parse(host.capacity.memory).sub(Quantity.parse(host.allocatable.memory)).ceilUnits()).toBe(EVICTION_THRESHOLD);
    await expectLastOneRefused(c, k, /Insufficient memory/);
  });

  test("(b) allocatable = capacity, but KubeVirt's virt-handler runs on the host: the plan counts it and kube-scheduler agrees", async () => {
    const k = 5;
    const launcher = launcherMemory('2Gi');
    // Room for k launcher pods, short of it by what virt-handler requests.
    const memory = BigInt(k) * launcher + 100n * MI;
    await layOut(live, [{ name: 'bm-b', cpu: 64, memory }], [virtHandlerPod('bm-b')]);
    const c = await inventoryOf(live, (f) => fleetModel(f, { cpu: 1, memory: '2Gi', count: k }, { cpu: 16, memory: quotaFor(k - 1, launcher) }));
    expect(JSON.parse(c.inventoryText)).toMatchObject({ hosts: [{ name: 'bm-b', pods: { count: 1, virtHandler: true } }] });
    await expectLastOneRefused(c, k, /Insufficient memory/);
  });

  test('(c) four hosts, one cordoned, one tainted control-plane, one NotReady: the plan places VMs only on the fourth, and so does kube-scheduler', async () => {
    const memory = 64n * 1024n * MI;
    await layOut(
      live,
      [
        { name: 'bm-c1', cpu: 16, memory, unschedulable: true },
        { name: 'bm-c2', cpu: 16, memory, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
        { name: 'bm-c3', cpu: 16, memory, ready: false },
        { name: 'bm-c4', cpu: 16, memory, keptBack: EVICTION_THRESHOLD },
      ],
      ['bm-c1', 'bm-c3', 'bm-c4'].map(virtHandlerPod),
    );
    const c = await inventoryOf(live, (f) => fleetModel(f, { cpu: 4, memory: '8Gi', count: 3 }, { cpu: 15, memory: '60Gi' }));
    const plan = withCount(c.config, 3);
    expect(plan.errors).toEqual([]);
    expect(plan.vms.map((vm) => vm.host)).toEqual(['bm-c4', 'bm-c4', 'bm-c4']);
    const warning = plan.warnings.find((w) => w.path === 'fleets[0].hosts')!.message;
    expect(warning).toMatch(/3 hosts of fleet "live" can take no VM/);
    expect(warning).toMatch(/"bm-c1" \(cordoned/);
    expect(warning).toMatch(/"bm-c2" \(tainted node-role.kubernetes.io\/control-plane:NoSchedule/);
    expect(warning).toMatch(/"bm-c3" \(NotReady/);
    expect(plan.report.fleets[0].hosts).toBe(1);
    const r = await verifyPlan(plan, { controlPlane: replay, snapshot: c.snapshot, order: 'shuffled', seed: 5 });
    console.log(show('four hosts', r));
    expect(r.bound).toBe(3);
    expect(r.movedFromPlan).toBe(0);
    // A fourth 4-vCPU VM fits none: 16 CPUs less virt-handler and three launcher pods leave less than one.
    expect(withCount(c.config, 4).ok).toBe(false);
    const plusOne = await verifyPlan(plan, { controlPlane: replay, snapshot: c.snapshot, extraVms: [extraVmOf(plan, 'w')], quietMs: 3000 });
    console.log(show('four hosts + 1', plusOne));
    expect(plusOne.pending).toHaveLength(1);
    expect(plusOne.pending[0].reason).toMatch(/Insufficient cpu/);
    // The control-plane and not-ready taints keep two hosts out, the cordon the third.
    expect(plusOne.pending[0].reason).toMatch(/2 node\(s\) had untolerated taint/);
    expect(plusOne.pending[0].reason).toMatch(/1 node\(s\) were unschedulable/);
  });

  test('(d) a host already running a 30-CPU pod: the plan counts it and kube-scheduler agrees', async () => {
    await layOut(
      live,
      [{ name: 'bm-d', cpu: 64, memory: 256n * 1024n * MI, keptBack: EVICTION_THRESHOLD }],
      [virtHandlerPod('bm-d'), boundPod('etl', 'monitoring', 'bm-d', { cpu: '30', memory: '4Gi' }), boundPod('done', 'monitoring', 'bm-d', { cpu: '30' })],
    );
    // A finished pod's requests no longer count, for kube-scheduler or for the plan.
    await must(live, 'PUT', '/api/v1/namespaces/monitoring/pods/done/status', {
      ...((await live.request('GET', '/api/v1/namespaces/monitoring/pods/done')).body as object),
      status: { phase: 'Succeeded' },
    });
    const c = await inventoryOf(live, (f) => fleetModel(f, { cpu: 8, memory: '8Gi', count: 4 }, { cpu: 33, memory: '200Gi' }));
    expect(JSON.parse(c.inventoryText)).toMatchObject({ hosts: [{ name: 'bm-d', pods: { count: 2, requests: { cpu: '30010m' } } }] });
    expect(c.snapshot.pods.map((p) => p.metadata.name).sort()).toEqual(['etl', 'virt-handler-bm-d']);
    await expectLastOneRefused(c, 4 + 1, /Insufficient cpu/);
  });

  test('(e) a healthy control: everything fits and binds, through the CLI, in deploy and shuffled order; the snapshot holds no secret', async () => {
    await must(live, 'POST', '/api/v1/namespaces/monitoring/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'token' },
      data: { token: SECRET_DATA },
    });
    const memory = 128n * 1024n * MI;
    await layOut(
      live,
      [
        { name: 'bm-e1', cpu: 32, memory, keptBack: EVICTION_THRESHOLD },
        { name: 'bm-e2', cpu: 32, memory, keptBack: EVICTION_THRESHOLD },
      ],
      ['bm-e1', 'bm-e2'].map(virtHandlerPod),
    );
    const c = await inventoryOf(live, (f) => fleetModel(f, { cpu: 4, memory: '8Gi', count: 6 }, { cpu: 48, memory: '100Gi' }));
    expect(withCount(c.config, 6).errors).toEqual([]);
    for (const text of [c.snapshotText, c.inventoryText]) {
      expect(text).not.toContain(SECRET_DATA);
      expect(text).not.toContain(SECRET_ENV);
      expect(text).not.toContain('/pause');
    }
    for (const order of ['deploy', 'shuffled']) {
      const out: string[] = [];
      const code = await main(['verify', c.config, '--snapshot', path.join(c.dir, 'snapshot.json'), '--json', '--order', order], {
        stdout: (t) => out.push(t),
        stderr: () => undefined,
      });
      const result = JSON.parse(out.join('')) as { ok: boolean; vms: number; bound: number };
      console.log(`control (${order}): ${JSON.stringify({ code, vms: result.vms, bound: result.bound })}`);
      expect({ code, ok: result.ok, vms: result.vms, bound: result.bound }).toEqual({ code: 0, ok: true, vms: 6, bound: 6 });
    }
  });
});
