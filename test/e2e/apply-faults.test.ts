// Faults lose nothing: a node's user data Secret that exists before its create (a lost create response) is
// taken over; the API server crashes in the middle of an apply of 200 VMs and the next apply
// converges with nothing lost or duplicated; a second apply on the same state is refused by the state lock;
// an inventory refreshed after a host disappeared and another shrank makes the plan name the pool that no
// longer fits.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runInventory } from '../../constructs/cli/inventory';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { EXAMPLE_CA } from '../support/models';
import { binary, configAppEnv, expectOk, REPO_ROOT, run, startCluster, TestCluster } from './harness';
import type { KubeDoc, KubeList, NodeDoc, SecretDoc } from '../support/kube-docs';
import { exposedStateValues, findSecrets, generatedSecrets } from '../support/secret-scan';

jest.setTimeout(2_400_000);

const VMS = '/apis/kubevirt.io/v1';
const COUNT = 200;

describe('e2e: faults during and between applies', () => {
  let cluster: TestCluster;
  let work: string;
  const stackDir = () => path.join(work, 'cdktf.out', 'stacks', 'from-config');
  let env: NodeJS.ProcessEnv;
  const tf = (args: string[]) => run(binary('tofu'), args, { cwd: stackDir(), env, timeoutMs: 1_500_000 });

  beforeAll(async () => {
    // With KubeVirt's admission defaulting imitated (it stays up across the API server crash, as a webhook would).
    cluster = await startCluster({ kubevirt: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-faults-'));
    // This test's tenant cluster is the example's, not the test API server: its nodes go without a drain.
    env = configAppEnv(cluster, path.join(work, 'cdktf.out'), { METALSLICE_DRAIN: 'skip' });
    const config = {
      fleets: [{ name: 'fra1', hosts: Array.from({ length: 8 }, (_, i) => ({ name: `bm-${i}`, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } })) }],
      quotas: [{ name: 'team-a', fleet: 'fra1', organization: 'acme', limits: { cpu: 400, memory: '400Gi', disk: '1Ti' }, maxVirtualMachines: 250 }],
      clusters: [{ name: 'prod', endpoint: cluster.server, caCertificate: EXAMPLE_CA }],
      nodePools: [{ name: 'many', quota: 'team-a', cluster: 'prod', shape: { cpu: 1, memory: '1Gi' }, rootDisk: 'containerDisk', count: COUNT }],
    };
    fs.writeFileSync(path.join(work, 'faults.json'), JSON.stringify(config));
    expectOk(
      'synth',
      await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], {
        cwd: work,
        env: { ...env, METALSLICE_CONFIG: path.join(work, 'faults.json') },
        timeoutMs: 300_000,
      }),
    );
    expectOk('init', await tf(['init', '-input=false', '-no-color']));
  });

  afterAll(async () => {
    if (work && fs.existsSync(path.join(stackDir(), 'terraform.tfstate'))) await tf(['destroy', '-auto-approve', '-input=false', '-no-color']);
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const names = async (list: string) => ((await cluster.client().get<KubeList<KubeDoc> | undefined>(list)).body?.items ?? []).map((o) => o.metadata.name);

  it("takes over a node's user data Secret that exists before its create (a create whose response was lost)", async () => {
    // A create the API server carried out but whose response was lost leaves the Secret in the cluster and not in
    // the state; the next apply must converge on it, not stop on "already exists".
    const tfJson = JSON.parse(fs.readFileSync(path.join(stackDir(), 'cdk.tf.json'), 'utf8')) as {
      resource: Record<string, Record<string, { metadata?: { name?: string } }>>;
    };
    const address = (type: string, match: (id: string, body: { metadata?: { name?: string } }) => boolean) => {
      const ids = Object.entries(tfJson.resource[type] ?? {}).filter(([id, body]) => match(id, body));
      expect(ids).toHaveLength(1);
      return `${type}.${ids[0][0]}`;
    };
    // Each a pool resource's instance of node many-0 (constructs/parts/vm-nodes.ts).
    const userData = `${address('kubectl_manifest', (id) => /^many_nodes_UserData_[0-9A-F]{8}$/.test(id))}["many-0"]`;
    // What the Secret needs first: its namespace, and the token its document embeds.
    const needs = [
      address('kubernetes_namespace_v1', (_, body) => body.metadata?.name === 'acme-team-a'),
      `${address('random_string', (id) => id.startsWith('many_nodes_TokenId_'))}["many-0"]`,
      `${address('random_password', (id) => id.startsWith('many_nodes_TokenSecret_'))}["many-0"]`,
    ];
    expectOk('apply its namespace and token', await tf(['apply', '-auto-approve', '-input=false', '-no-color', ...needs.map((a) => `-target=${a}`)]));
    const api = cluster.client();
    const secretPath = '/api/v1/namespaces/acme-team-a/secrets/many-0-cloudinit';
    const stale = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'many-0-cloudinit' },
      type: 'Opaque',
      data: { userdata: Buffer.from('#cloud-config\n').toString('base64') },
    };
    expect((await api.create('/api/v1/namespaces/acme-team-a/secrets', stale)).status).toBe(201);
    const uid = (await api.get<SecretDoc>(secretPath)).body.metadata.uid;

    const plan = await tf(['plan', '-input=false', '-no-color', '-out=userdata.tfplan', `-target=${userData}`]);
    expectOk('plan', plan);
    // The plan shows the Secret's body with its data masked.
    expect(plan.stdout).toContain('many-0-cloudinit');
    expect(plan.stdout).toMatch(/data: \(sensitive value\)/);
    const apply = await tf(['apply', '-auto-approve', '-input=false', '-no-color', 'userdata.tfplan']);
    expectOk('apply over the existing Secret', apply);

    // The same object (not deleted and made again), now what the config says, and in the state.
    const live = (await api.get<SecretDoc>(secretPath)).body;
    expect(live.metadata.uid).toBe(uid);
    expect(live.metadata.labels).toEqual({ 'metalslice.io/pool': 'many' });
    const document = Buffer.from(live.data.userdata, 'base64').toString();
    expect(document).toMatch(/^#cloud-config\nhostname: many-0\n/);
    expect(document).toMatch(/token: [a-z0-9]{6}\.[a-z0-9]{16}\n/);
    expect((await tf(['state', 'list'])).stdout.split('\n')).toContain(userData);
    // Nothing left to do for it: data (not stringData) shows in the live object as written.
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color', `-target=${userData}`]);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });

    // Neither the token nor the encoded document in what tofu printed or in state outside its sensitive values.
    const show = await tf(['show', '-json']);
    expectOk('show', show);
    const known = [...generatedSecrets(show.stdout), live.data.userdata];
    for (const text of [plan.stdout, plan.stderr, apply.stdout, apply.stderr, again.stdout]) expect(findSecrets(text, known)).toEqual([]);
    expect(exposedStateValues(show.stdout).flatMap((leaf) => findSecrets(leaf.value, known).map((hit) => `${leaf.path}: ${hit}`))).toEqual([]);
  });

  it("takes over a node's bootstrap token Secret in the tenant cluster that exists before its create (a create whose response was lost)", async () => {
    const tfJson = JSON.parse(fs.readFileSync(path.join(stackDir(), 'cdk.tf.json'), 'utf8')) as { resource: Record<string, Record<string, unknown>> };
    const address = (type: string, pattern: RegExp) => {
      const ids = Object.keys(tfJson.resource[type] ?? {}).filter((id) => pattern.test(id));
      expect(ids).toHaveLength(1);
      return `${type}.${ids[0]}`;
    };
    // Each a pool resource's instance of node many-1 (constructs/parts/vm-nodes.ts).
    const token = `${address('kubectl_manifest', /^many_nodes_BootstrapToken_[0-9A-F]{8}$/)}["many-1"]`;
    const tokenId = `${address('random_string', /^many_nodes_TokenId_/)}["many-1"]`;
    const needs = [tokenId, `${address('random_password', /^many_nodes_TokenSecret_/)}["many-1"]`];
    expectOk('apply its token id and secret', await tf(['apply', '-auto-approve', '-input=false', '-no-color', ...needs.map((a) => `-target=${a}`)]));
    const state = JSON.parse((await tf(['show', '-json'])).stdout) as {
      values: { root_module: { resources: { address: string; values: { result?: string } }[] } };
    };
    const id = state.values.root_module.resources.find((r) => r.address === tokenId)!.values.result!;
    expect(id).toMatch(/^[a-z0-9]{6}$/);
    // The Secret the lost create made, as the API server keeps it (not yet what the config says).
    const api = cluster.client();
    const secretPath = `/api/v1/namespaces/kube-system/secrets/bootstrap-token-${id}`;
    const stale = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `bootstrap-token-${id}` },
      type: 'bootstrap.kubernetes.io/token',
      data: { 'token-id': Buffer.from(id).toString('base64') },
    };
    expect((await api.create('/api/v1/namespaces/kube-system/secrets', stale)).status).toBe(201);
    const uid = (await api.get<SecretDoc>(secretPath)).body.metadata.uid;

    const apply = await tf(['apply', '-auto-approve', '-input=false', '-no-color', `-target=${token}`]);
    expectOk('apply over the existing Secret', apply);
    const live = (await api.get<SecretDoc>(secretPath)).body;
    expect(live.metadata.uid).toBe(uid);
    const decoded = Object.fromEntries(Object.entries(live.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(decoded).toMatchObject({ 'token-id': id, 'token-secret': expect.stringMatching(/^[a-z0-9]{16}$/), 'usage-bootstrap-authentication': 'true' });
    expect(Date.parse(decoded.expiration)).toBeGreaterThan(Date.now());
    expect((await tf(['state', 'list'])).stdout.split('\n')).toContain(token);
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color', `-target=${token}`]);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
    const show = await tf(['show', '-json']);
    const known = [...generatedSecrets(show.stdout), live.data['token-secret']];
    for (const text of [apply.stdout, apply.stderr, again.stdout]) expect(findSecrets(text, known)).toEqual([]);
  });

  it("takes over a quota's ResourceQuota that exists before its create, and waits until the quota controller has accounted its limits", async () => {
    const tfJson = JSON.parse(fs.readFileSync(path.join(stackDir(), 'cdk.tf.json'), 'utf8')) as { resource: Record<string, Record<string, unknown>> };
    const ids = (type: string, pattern: RegExp) => Object.keys(tfJson.resource[type] ?? {}).filter((id) => pattern.test(id));
    const [accounting] = ids('terraform_data', /^team-a_Accounted_[0-9A-F]{8}$/);
    expect(accounting).toBeDefined();
    const namespace = ids('kubernetes_namespace_v1', /^team-a_Namespace_[0-9A-F]{8}$/);
    expect(namespace).toHaveLength(1);
    expectOk('apply its namespace', await tf(['apply', '-auto-approve', '-input=false', '-no-color', `-target=kubernetes_namespace_v1.${namespace[0]}`]));
    // The quota a lost create made, with other limits (as if the config had changed since): the controller
    // accounts these first, so the wait must see status.hard change to what the config says.
    const api = cluster.client();
    const quotaPath = '/api/v1/namespaces/acme-team-a/resourcequotas/metalslice';
    const stale = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'metalslice' }, spec: { hard: { 'requests.cpu': '1' } } };
    expect((await api.create('/api/v1/namespaces/acme-team-a/resourcequotas', stale)).status).toBe(201);
    const uid = (await api.get<KubeDoc>(quotaPath)).body.metadata.uid;

    // The accounting pulls the quota in: the create applies over the quota that is there, then wait-quota runs.
    const apply = await tf(['apply', '-auto-approve', '-input=false', '-no-color', `-target=terraform_data.${accounting}`]);
    expectOk('apply over the existing quota', apply);
    expect(apply.stdout).toContain('wait-quota: ResourceQuota acme-team-a/metalslice is accounted');
    const live = (
      await api.get<KubeDoc & { spec: { hard: Record<string, string> }; status: { hard: Record<string, string>; used: Record<string, string> } }>(quotaPath)
    ).body;
    expect(live.metadata.uid).toBe(uid);
    // What the config says (the stale limit taken back: conflicts forced), and accounted when the apply ended.
    const hard = { 'count/virtualmachines.kubevirt.io': '250', 'requests.cpu': '400', 'requests.memory': '400Gi', 'requests.storage': '1Ti' };
    expect(live.spec.hard).toEqual(hard);
    expect(live.status.hard).toEqual(live.spec.hard);
    expect(Object.keys(live.status.used).sort()).toEqual(Object.keys(live.spec.hard).sort());
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color', `-target=terraform_data.${accounting}`]);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  });

  it(`converges with nothing lost or duplicated after the API server crashes in the middle of an apply of ${COUNT} VMs`, async () => {
    const first = tf(['apply', '-auto-approve', '-input=false', '-no-color']);
    // Crash once a part of the VMs exists, then bring the API server back on the same etcd.
    const deadline = Date.now() + 900_000;
    let before = 0;
    while (Date.now() < deadline) {
      before = (await names(`${VMS}/namespaces/acme-team-a/virtualmachines`).catch(() => [])).length;
      if (before >= 20) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(before).toBeGreaterThanOrEqual(20);
    // If the restart fails, the apply still ends before this test does, so the next test's apply meets no lock.
    await cluster.crashApiserver(3_000).catch(async (e: unknown) => {
      await first;
      throw e;
    });
    const interrupted = await first;
    process.stdout.write(`apply interrupted with ${before}+ of ${COUNT} VMs made; it exited ${interrupted.code}\n`);

    const second = await tf(['apply', '-auto-approve', '-input=false', '-no-color']);
    expectOk('apply after the crash', second);
    const vms = await names(`${VMS}/namespaces/acme-team-a/virtualmachines`);
    expect(vms).toHaveLength(COUNT);
    expect(new Set(vms).size).toBe(COUNT);
    expect(vms.sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `many-${i}`).sort());
    const userData = (await names('/api/v1/namespaces/acme-team-a/secrets')).filter((n) => n.endsWith('-cloudinit'));
    expect(userData).toHaveLength(COUNT);
    const tokens = (await names('/api/v1/namespaces/kube-system/secrets')).filter((n) => n.startsWith('bootstrap-token-'));
    expect(tokens).toHaveLength(COUNT);
    // And nothing left to do.
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  });

  it('refuses a second apply on the same state while one runs (state locking)', async () => {
    const [a, b] = await Promise.all([
      tf(['apply', '-auto-approve', '-input=false', '-no-color']),
      tf(['apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=0s']),
    ]);
    const outcomes = [a, b].map((r) => ({ code: r.code, locked: /Error acquiring the state lock/.test(r.stdout + r.stderr) }));
    // Exactly one ran; the other was refused by the lock, not run alongside.
    expect(outcomes.filter((o) => o.code === 0)).toHaveLength(1);
    expect(outcomes.filter((o) => o.code !== 0 && o.locked)).toHaveLength(1);
  });

  it('an inventory refreshed after a host disappeared and another shrank makes the plan name the pool that no longer fits', async () => {
    const api = cluster.client();
    const node = (name: string, cpu: string) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'metalslice.io/fleet': 'edge' } },
      status: { capacity: { cpu, memory: '64Gi', pods: '110' }, allocatable: { cpu, memory: '64Gi', pods: '110' } },
    });
    // Capacity is status: written through the status subresource, as the kubelet does, with its Ready heartbeat.
    const setCpu = async (name: string, cpu: string) => {
      const current = (await api.get<NodeDoc>(`/api/v1/nodes/${name}`)).body;
      const now = new Date().toISOString();
      const status = {
        ...current.status,
        capacity: { cpu, memory: '64Gi', pods: '110' },
        allocatable: { cpu, memory: '64Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: now, lastTransitionTime: now }],
      };
      expect((await api.request('PUT', `/api/v1/nodes/${name}/status`, { ...current, status })).status).toBe(200);
    };
    for (const n of ['edge-0', 'edge-1', 'edge-2']) {
      expect((await api.create('/api/v1/nodes', node(n, '16'))).status).toBe(201);
      await setCpu(n, '16');
      // The not-ready taint the API server puts on a new Node is lifted once it is Ready (the node lifecycle controller's job).
      expect((await api.request('PATCH', `/api/v1/nodes/${n}`, { spec: { taints: null } }, 'application/merge-patch+json')).status).toBe(200);
    }
    const dir = fs.mkdtempSync(path.join(work, 'inventory-'));
    const inventory = path.join(dir, 'hosts.json');
    const config = path.join(dir, 'metalslice.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        fleets: [{ name: 'edge', hostsFile: 'hosts.json', hostSelector: { 'metalslice.io/fleet': 'edge' } }],
        quotas: [{ name: 'edge-q', fleet: 'edge', organization: 'acme', limits: { cpu: 47, memory: '190Gi' }, liveMigrations: 0 }],
        clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
        nodePools: [{ name: 'edge-workers', quota: 'edge-q', cluster: 'prod', shape: { cpu: 7, memory: '8Gi' }, rootDisk: 'containerDisk', count: 6 }],
      }),
    );
    const refresh = async () =>
      expect(await runInventory({ kubeconfig: cluster.adminKubeconfig, out: inventory }, { stdout: () => undefined, stderr: () => undefined })).toBe(0);
    await refresh();
    expect(planModel(loadConfigFile(config)).errors).toEqual([]);
    // One host goes away, another is shrunk (a DIMM failed, a CPU was offlined).
    expect((await api.delete('/api/v1/nodes/edge-2')).status).toBe(200);
    await setCpu('edge-1', '8');
    await refresh();
    const plan = planModel(loadConfigFile(config));
    expect(plan.ok).toBe(false);
    expect(plan.errors.map((e) => e.path)).toEqual(expect.arrayContaining([expect.stringMatching(/^nodePools\[0\]|^quotas\[0\]/)]));
    expect(plan.errors.map((e) => e.message).join('\n')).toMatch(/edge-workers|edge-q/);
  });
});
