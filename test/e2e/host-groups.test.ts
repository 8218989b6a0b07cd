// Host groups as Node labels, on the real API server: KubeVirt's own virt-api admits each VM and its own
// virt-controller makes each launcher pod, kube-scheduler binds it. A pool the plan confines to some hosts
// selects its group's label, which the deploy writes on exactly those hosts' Nodes; a regroup (a host racked and
// one VM more) is planned by `plan --previous` as hosts joining and leaving groups, and applied as Node label
// changes that touch no VM, VMI or launcher pod. Everything is read back from the API server.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { binary, configAppEnv, expectOk, REPO_ROOT, run, startCluster, synthConfigApp, TestCluster } from './harness';
import type { KubeDoc, KubeList } from '../support/kube-docs';
import { planModel } from '../../constructs/core/plan';
import { buildNode } from '../../constructs/verify/replay';
import { hostGroupLabel } from '../../constructs/core/naming/derived';
import type { MetalsliceConfig } from '../../constructs/core/input/model';

jest.setTimeout(1_200_000);

const NS = 'acme-frontend';
const BIG = hostGroupLabel('shop', 'big');
const TINY = hostGroupLabel('shop', 'tiny');
const MANAGER = 'metalslice/from-config/lab';

interface Pod extends KubeDoc {
  metadata: KubeDoc['metadata'] & { uid?: string; labels?: Record<string, string>; managedFields?: unknown[] };
  spec: { nodeName?: string; nodeSelector?: Record<string, string>; affinity?: unknown };
}
interface Node extends KubeDoc {
  metadata: KubeDoc['metadata'] & {
    labels?: Record<string, string>;
    managedFields?: { manager: string; fieldsV1?: { 'f:metadata'?: { 'f:labels'?: object } } }[];
  };
}
interface Vm extends KubeDoc {
  metadata: KubeDoc['metadata'] & { uid?: string; generation?: number };
  spec: { template: { spec: { nodeSelector?: Record<string, string>; affinity?: unknown } } };
}

/**
 * 8 VMs of 7 vCPUs and 6 of 1 on hosts of 15 allocatable CPUs: spread over the whole fleet, kube-scheduler could
 * put three big VMs on one host, so the plan confines big to five hosts and tiny to the other two (which, each
 * pool's own hashed order of the hosts decides: bm-02, 03, 04, 06, 07 and bm-01, 05). With an eighth host and a
 * ninth big VM, bm-01 moves from tiny's group to big's and bm-08 joins tiny's.
 */
function config(caPem: string, server: string, hosts: number, big: number): string {
  const host = (i: number) => ({ name: `bm-0${i}`, capacity: { cpu: 16, memory: '64Gi', disk: '1Ti' } });
  return stringify({
    apiVersion: 'metalslice.io/v1alpha1',
    fleets: [{ name: 'lab', reservedPerHost: { cpu: 1, memory: '2Gi' }, hosts: Array.from({ length: hosts }, (_, i) => host(i + 1)) }],
    quotas: [
      {
        name: 'frontend',
        fleet: 'lab',
        organization: 'acme',
        limits: { cpu: 98, memory: '300Gi', disk: '6Ti' },
        liveMigrations: 0,
        consumers: ['tenant-acme'],
      },
    ],
    clusters: [{ name: 'shop', endpoint: server, kubernetesVersion: '1.33', caCertificate: caPem }],
    nodePools: [
      { name: 'big', quota: 'frontend', cluster: 'shop', shape: { cpu: 7, memory: '8Gi', disk: '20Gi' }, count: big },
      { name: 'tiny', quota: 'frontend', cluster: 'shop', shape: { cpu: 1, memory: '2Gi', disk: '20Gi' }, count: 6 },
    ],
  });
}

describe('e2e: host groups are Node labels, and a regroup changes labels, not VMs', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const configFile = () => path.join(work, 'metalslice.yaml');
  const stackDir = () => path.join(work, 'cdktf.out', 'stacks', 'from-config');
  const api = () => cluster.client();
  const tf = (args: string[]) => run(binary('tofu'), args, { cwd: stackDir(), env, timeoutMs: 900_000 });
  const metalslice = (args: string[]) => run(process.execPath, [path.join(REPO_ROOT, 'bin', 'metalslice'), ...args], { cwd: work, env, timeoutMs: 120_000 });

  const writeConfig = (hosts: number, big: number) =>
    fs.writeFileSync(configFile(), config(fs.readFileSync(cluster.caFile, 'utf8'), cluster.server, hosts, big));
  const synth = async () => {
    await synthConfigApp(work, env);
  };
  /** The provider cluster's Nodes of the hosts, Ready, as a kubelet and virt-handler leave them: no group label on any. */
  const rackHosts = async (names: readonly string[]) => {
    const plan = planModel(parse(fs.readFileSync(configFile(), 'utf8')) as MetalsliceConfig);
    for (const host of plan.fleets[0].hosts.filter((h) => names.includes(h.name))) {
      const node = buildNode(host);
      expect(Object.keys(node.metadata.labels).filter((k) => k.startsWith('group.'))).toEqual([]);
      expect((await api().create('/api/v1/nodes', node)).status).toBe(201);
      // The API server taints a new Node not-ready (TaintNodesByCondition); no kubelet or node lifecycle controller
      // runs here to clear it once the Node is Ready, so the test does, as they would.
      const ready = { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'racked' }] } };
      expect((await api().request('PATCH', `/api/v1/nodes/${host.name}/status`, ready, 'application/merge-patch+json')).status).toBe(200);
      expect((await api().request('PATCH', `/api/v1/nodes/${host.name}`, { spec: { taints: null } }, 'application/merge-patch+json')).status).toBe(200);
    }
  };
  const launchers = async () =>
    (await api().get<KubeList<Pod>>(`/api/v1/namespaces/${NS}/pods?labelSelector=kubevirt.io%3Dvirt-launcher`)).body.items.filter(
      (p) => !(p.metadata as { deletionTimestamp?: string }).deletionTimestamp,
    );
  const groupLabels = async () =>
    Object.fromEntries(
      (await api().get<KubeList<Node>>('/api/v1/nodes')).body.items
        .filter((n) => n.metadata.name.startsWith('bm-'))
        .map((n) => [
          n.metadata.name,
          Object.keys(n.metadata.labels ?? {})
            .filter((k) => k.startsWith('group.metalslice.io/'))
            .sort(),
        ]),
    );
  const vmOf = (p: Pod) => p.metadata.labels?.['kubevirt.io/vm'] ?? '';
  /** Waits until each VM has one launcher pod and kube-scheduler bound it. */
  const allBound = async (count: number) => {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const pods = await launchers();
      if (pods.length === count && pods.every((p) => p.spec.nodeName)) return pods;
      if (Date.now() > deadline) {
        const why = pods.map(
          (p) => (p as { status?: { conditions?: { type: string; message?: string }[] } }).status?.conditions?.find((c) => c.type === 'PodScheduled')?.message,
        );
        throw new Error(
          `launcher pods not all bound: ${pods.map((p) => `${vmOf(p)}@${p.spec.nodeName ?? '-'}`).join(' ')}\nwhy: ${JSON.stringify(why.slice(0, 3))}\nNode group labels: ${JSON.stringify(await groupLabels())}\n${cluster.logTail(30)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  const vms = async () => (await api().get<KubeList<Vm>>(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`)).body.items;
  const vmis = async () => (await api().get<KubeList<KubeDoc>>(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`)).body.items;

  beforeAll(async () => {
    cluster = await startCluster({ kubevirt: true, cdi: true, workloads: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-host-groups-'));
    env = configAppEnv(cluster, path.join(work, 'cdktf.out'), { METALSLICE_CONFIG: configFile() });
    writeConfig(7, 8);
    await rackHosts(['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-05', 'bm-06', 'bm-07']);
    await synth();
    expectOk('init', await tf(['init', '-input=false', '-no-color']));
    expectOk('first apply', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));
    await allBound(14);
  });

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("labels exactly the groups' hosts, and the VMs and their launcher pods select the label, no host list", async () => {
    const byPool = { big: ['bm-02', 'bm-03', 'bm-04', 'bm-06', 'bm-07'], tiny: ['bm-01', 'bm-05'] };
    expect(await groupLabels()).toEqual({
      ...Object.fromEntries(byPool.big.map((h) => [h, [BIG]])),
      ...Object.fromEntries(byPool.tiny.map((h) => [h, [TINY]])),
    });
    // The labels are owned by the stack's own field manager (server-side apply), so removing them removes its keys only.
    const node = (await api().get<Node>('/api/v1/nodes/bm-02')).body;
    const owner = node.metadata.managedFields?.find((f) => f.manager === MANAGER);
    expect(JSON.stringify(owner?.fieldsV1?.['f:metadata']?.['f:labels'])).toContain(`"f:${BIG}"`);
    for (const vm of await vms()) {
      const label = vm.metadata.name.startsWith('big-') ? BIG : TINY;
      expect({ vm: vm.metadata.name, selector: vm.spec.template.spec.nodeSelector?.[label], affinity: vm.spec.template.spec.affinity }).toEqual({
        vm: vm.metadata.name,
        selector: 'true',
        affinity: undefined,
      });
    }
    const pods = await launchers();
    expect(pods).toHaveLength(14);
    const sizes: number[] = [];
    for (const pod of pods) {
      const pool = vmOf(pod).startsWith('big-') ? 'big' : 'tiny';
      const label = pool === 'big' ? BIG : TINY;
      // virt-controller copied the VMI's nodeSelector (the group label beside its own kubevirt.io/schedulable), and no host name.
      expect({ pod: vmOf(pod), selector: pod.spec.nodeSelector?.[label], hostNames: JSON.stringify(pod.spec.affinity ?? {}).includes('bm-0') }).toEqual({
        pod: vmOf(pod),
        selector: 'true',
        hostNames: false,
      });
      // kube-scheduler bound it inside its group.
      expect({ pod: vmOf(pod), inGroup: byPool[pool].includes(pod.spec.nodeName!) }).toEqual({ pod: vmOf(pod), inGroup: true });
      const { managedFields: _managed, ...metadata } = pod.metadata;
      sizes.push(JSON.stringify({ ...pod, metadata }).length);
    }
    process.stdout.write(`launcher pod bytes (JSON, no managedFields): ${Math.min(...sizes)} to ${Math.max(...sizes)}\n`);
  });

  it('a regroup is planned as hosts joining and leaving groups and applied as Node labels only: no VM, VMI or launcher pod changes', async () => {
    const previous = path.join(work, 'previous-plan.json');
    const before = await metalslice(['plan', configFile(), '--json']);
    expectOk('plan', before);
    fs.writeFileSync(previous, before.stdout);
    const vmsBefore = new Map((await vms()).map((v) => [v.metadata.name, `${v.metadata.uid}/${v.metadata.generation}`]));
    const vmisBefore = new Map((await vmis()).map((v) => [v.metadata.name, (v.metadata as { uid?: string }).uid]));
    const podsBefore = new Map((await launchers()).map((p) => [vmOf(p), `${p.metadata.uid}@${p.spec.nodeName}`]));
    const tinyOnBm01 = [...podsBefore].filter(([, at]) => at.endsWith('@bm-01')).map(([vm]) => vm);
    expect(tinyOnBm01.length).toBeGreaterThan(0);

    // An eighth host is racked, and big grows by one.
    writeConfig(8, 9);
    await rackHosts(['bm-08']);
    const planned = await metalslice(['plan', configFile(), '--previous', previous, '--json']);
    expectOk('plan --previous', planned);
    const changes = (JSON.parse(planned.stdout) as { changes: { regrouped: unknown; replaced: unknown[]; added: unknown[] } }).changes;
    expect(changes.regrouped).toEqual([
      { pool: 'big', cluster: 'shop', label: BIG, joined: ['bm-01'], left: [] },
      { pool: 'tiny', cluster: 'shop', label: TINY, joined: ['bm-08'], left: ['bm-01'] },
    ]);
    expect(changes.replaced).toEqual([]);
    expect(changes.added).toEqual(['big/big-8']);

    // What tofu will do: the two hosts' labels, and the new node's objects; nothing of a node that stays.
    await synth();
    expectOk('plan', await tf(['plan', '-input=false', '-no-color', '-out=regroup.tfplan']));
    const show = await tf(['show', '-json', 'regroup.tfplan']);
    expectOk('show', show);
    const plannedChanges = (JSON.parse(show.stdout) as { resource_changes: { address: string; change: { actions: string[] } }[] }).resource_changes
      .filter((c) => !c.change.actions.every((a) => a === 'no-op' || a === 'read'))
      .map((c) => `${c.change.actions.join('+')} ${c.address}`);
    const labelChanges = plannedChanges.filter((c) => c.includes('kubernetes_labels.'));
    expect(labelChanges.sort()).toEqual([expect.stringMatching(/^create .*\["bm-08"\]$/), expect.stringMatching(/^update .*\["bm-01"\]$/)]);
    const others = plannedChanges.filter((c) => !c.includes('kubernetes_labels.'));
    expect(others.filter((c) => !(c.startsWith('create ') && /big-8/.test(c)))).toEqual([]);
    expect(others.some((c) => /^create kubectl_manifest\.big_nodes_[0-9A-F]{8}\["big-8"\]$/.test(c))).toBe(true);

    expectOk('regroup apply', await tf(['apply', '-auto-approve', '-input=false', '-no-color', 'regroup.tfplan']));
    expect(await groupLabels()).toEqual({
      ...Object.fromEntries(['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-06', 'bm-07'].map((h) => [h, [BIG]])),
      'bm-05': [TINY],
      'bm-08': [TINY],
    });
    const pods = await allBound(15);
    // Nothing that stayed was touched: same VM (uid and generation), same VMI, same launcher pod on the same host;
    // the tiny VMs on bm-01, which left tiny's group, stay there.
    const vmsAfter = new Map((await vms()).map((v) => [v.metadata.name, `${v.metadata.uid}/${v.metadata.generation}`]));
    for (const [name, id] of vmsBefore) expect({ name, id: vmsAfter.get(name) }).toEqual({ name, id });
    const vmisAfter = new Map((await vmis()).map((v) => [v.metadata.name, (v.metadata as { uid?: string }).uid]));
    for (const [name, uid] of vmisBefore) expect({ name, uid: vmisAfter.get(name) }).toEqual({ name, uid });
    const podsAfter = new Map(pods.map((p) => [vmOf(p), `${p.metadata.uid}@${p.spec.nodeName}`]));
    for (const [vm, at] of podsBefore) expect({ vm, at: podsAfter.get(vm) }).toEqual({ vm, at });
    for (const vm of tinyOnBm01) expect(podsAfter.get(vm)).toMatch(/@bm-01$/);
    // The new VM went into big's new group.
    expect(['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-06', 'bm-07']).toContain(podsAfter.get('big-8')!.split('@')[1]);
    // And the deploy converged: the next plan is empty.
    const again = await tf(['plan', '-input=false', '-no-color', '-detailed-exitcode']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout }).toEqual({ code: 0, out: '' });
  });

  it('the groups read back by `metalslice inventory` are the labels the deploy wrote, and a plan from them changes nothing', async () => {
    const read = await metalslice(['inventory', '--kubeconfig', cluster.adminKubeconfig]);
    expectOk('inventory', read);
    const inventory = JSON.parse(read.stdout) as { hosts: { name: string; hostGroups?: string[]; labels?: Record<string, string> }[] };
    const groups = Object.fromEntries(inventory.hosts.filter((h) => h.name.startsWith('bm-')).map((h) => [h.name, h.hostGroups ?? []]));
    expect(groups).toEqual(await groupLabels());
    // Group keys are not host labels: no hostSelector or requirement can come to match them.
    for (const h of inventory.hosts) expect(Object.keys(h.labels ?? {}).filter((k) => k.startsWith('group.'))).toEqual([]);
    const doc = parse(fs.readFileSync(configFile(), 'utf8')) as { fleets: { hosts: { name: string; hostGroups?: string[] }[] }[] };
    for (const h of doc.fleets[0].hosts) h.hostGroups = groups[h.name];
    fs.writeFileSync(configFile(), stringify(doc));
    await synth();
    const plan = await tf(['plan', '-input=false', '-no-color', '-detailed-exitcode']);
    expect({ code: plan.code, out: plan.code === 0 ? '' : plan.stdout }).toEqual({ code: 0, out: '' });
  });
});
