// `metalslice inventory` against a real kube-apiserver: BareMetalHosts (status written through the status
// subresource, as the baremetal-operator does) and a Node, read into the inventory file, which then plans.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runInventory } from '../../constructs/cli/inventory';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { EXAMPLE_CA } from '../support/models';
import { KubeClient } from '../../constructs/cli/kube/client';
import { findTarget } from '../../constructs/cli/kube/config';
import { startCluster, TestCluster } from './harness';
import type { KubeDoc } from '../support/kube-docs';

jest.setTimeout(600_000);

const BMH = '/apis/metal3.io/v1alpha1/namespaces/metal3/baremetalhosts';

interface HostStatus {
  state: string;
  error?: string;
  cpus: number;
  ramMiB: number;
  disks: number[];
}

async function createHost(
  cluster: TestCluster,
  name: string,
  labels: Record<string, string>,
  status: HostStatus,
  consumer?: { kind: string; name: string; namespace: string },
): Promise<void> {
  const admin = cluster.client();
  const created = await admin.create<KubeDoc>(BMH, {
    apiVersion: 'metal3.io/v1alpha1',
    kind: 'BareMetalHost',
    metadata: { name, labels },
    spec: {
      online: true,
      bootMACAddress: '52:54:00:00:00:01',
      bmc: { address: `redfish://10.0.0.1/redfish/v1/Systems/${name}`, credentialsName: `${name}-bmc-secret` },
      ...(consumer ? { consumerRef: { apiVersion: 'metal3.io/v1alpha1', ...consumer } } : {}),
    },
  });
  expect(created.status).toBe(201);
  const withStatus = {
    ...created.body,
    status: {
      errorCount: status.error ? 1 : 0,
      errorMessage: status.error ?? '',
      ...(status.error ? { errorType: 'registration error' } : {}),
      operationalStatus: status.error ? 'error' : 'OK',
      poweredOn: true,
      provisioningFailCount: 0,
      provisioning: { ID: `ironic-${name}`, state: status.state },
      hardware: {
        cpu: { count: status.cpus, arch: 'x86_64' },
        ramMebibytes: status.ramMiB,
        storage: status.disks.map((sizeBytes, i) => ({ name: `/dev/sd${'abc'[i]}`, sizeBytes })),
      },
    },
  };
  const updated = await admin.request('PUT', `${BMH}/${name}/status`, withStatus);
  expect(updated.status).toBe(200);
}

describe('metalslice inventory', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startCluster({ controllerManager: false });
    const admin = cluster.client();
    expect((await admin.create('/api/v1/namespaces', { metadata: { name: 'metal3' } })).status).toBe(201);
    await createHost(cluster, 'gpu-02', { class: 'gpu' }, { state: 'available', cpus: 96, ramMiB: 1048576, disks: [1920383410176, 1920383410176] });
    await createHost(cluster, 'gpu-01', { class: 'gpu' }, { state: 'available', cpus: 96, ramMiB: 1048576, disks: [3840766820352] });
    await createHost(
      cluster,
      'gpu-03',
      { class: 'gpu' },
      { state: 'provisioned', cpus: 96, ramMiB: 1048576, disks: [3840766820352] },
      { kind: 'HostClaim', name: 'other-gpu-0', namespace: 'other-metal' },
    );
    await createHost(
      cluster,
      'gpu-04',
      { class: 'gpu' },
      { state: 'registering', error: 'Failed to get power state for node: BMC unreachable', cpus: 96, ramMiB: 1048576, disks: [] },
    );
    const node = await admin.create('/api/v1/nodes', { metadata: { name: 'bm-01', labels: { 'kubernetes.io/hostname': 'bm-01', zone: 'a' } } });
    expect(node.status).toBe(201);
    const status = await admin.request(
      'PATCH',
      '/api/v1/nodes/bm-01/status',
      {
        status: {
          capacity: { cpu: '64', memory: '263921780Ki', 'ephemeral-storage': '3840Gi', pods: '110', 'nvidia.com/gpu': '2' },
          allocatable: { cpu: '63', memory: '250Gi', 'ephemeral-storage': '3800Gi', pods: '110', 'nvidia.com/gpu': '2' },
          // A kubelet's heartbeat: the node lifecycle controller then lifts the not-ready taint it put on the new Node.
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              lastHeartbeatTime: new Date().toISOString(),
              lastTransitionTime: new Date().toISOString(),
            },
          ],
        },
      },
      'application/merge-patch+json',
    );
    expect(status.status).toBe(200);
    // The API server's TaintNodesByCondition admission put not-ready:NoSchedule on the new Node; the node
    // lifecycle controller lifts it once the Node is Ready, which this test does in its place.
    const untainted = await admin.request('PATCH', '/api/v1/nodes/bm-01', { spec: { taints: null } }, 'application/merge-patch+json');
    expect(untainted.status).toBe(200);
    for (const deadline = Date.now() + 60_000; ;) {
      const now = (await admin.request('GET', '/api/v1/nodes/bm-01')).body as { spec?: { taints?: unknown[] } };
      if ((now.spec?.taints ?? []).length === 0) break;
      if (Date.now() > deadline) throw new Error(`bm-01 still tainted: ${JSON.stringify(now.spec?.taints)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('writes every Node and BareMetalHost, sorted, with capacity, state, consumer and error, and nothing from the BMC', async () => {
    const dir = fs.mkdtempSync(path.join(cluster.dir, 'inv-'));
    const out = path.join(dir, 'inventory.json');
    const stderr: string[] = [];
    const code = await runInventory({ kubeconfig: cluster.adminKubeconfig, context: 'e2e', out }, { stdout: () => undefined, stderr: (s) => stderr.push(s) });
    expect({ code, stderr: stderr.join('') }).toEqual({ code: 0, stderr: `metalslice inventory: wrote ${out}\n` });
    const text = fs.readFileSync(out, 'utf8');
    expect(JSON.parse(text)).toEqual({
      hosts: [
        {
          name: 'bm-01',
          labels: { 'kubernetes.io/hostname': 'bm-01', zone: 'a' },
          capacity: { cpu: '64', memory: '263921780Ki', disk: '3840Gi', 'nvidia.com/gpu': '2', pods: '110' },
          allocatable: { cpu: '63', memory: '250Gi', disk: '3800Gi', 'nvidia.com/gpu': '2', pods: '110' },
        },
        { name: 'gpu-01', labels: { class: 'gpu' }, capacity: { cpu: '96', memory: '1Ti', disk: '3750748848Ki' }, state: 'available' },
        { name: 'gpu-02', labels: { class: 'gpu' }, capacity: { cpu: '96', memory: '1Ti', disk: '3750748848Ki' }, state: 'available' },
        {
          name: 'gpu-03',
          labels: { class: 'gpu' },
          capacity: { cpu: '96', memory: '1Ti', disk: '3750748848Ki' },
          state: 'provisioned',
          consumer: 'other-metal/other-gpu-0',
        },
        {
          name: 'gpu-04',
          labels: { class: 'gpu' },
          capacity: { cpu: '96', memory: '1Ti' },
          state: 'registering',
          errorMessage: 'Failed to get power state for node: BMC unreachable',
        },
      ],
    });
    expect(text).not.toMatch(/redfish|bmc-secret|52:54:00/);

    // Deterministic: a second run writes the same bytes.
    const again: string[] = [];
    expect(await runInventory({ kubeconfig: cluster.adminKubeconfig }, { stdout: (s) => again.push(s), stderr: () => undefined })).toBe(0);
    expect(again.join('')).toBe(text);
  });

  it('round-trips: a config whose fleet and metal3 provider point hostsFile at the file plans with those hosts', async () => {
    const dir = fs.mkdtempSync(path.join(cluster.dir, 'plan-'));
    expect(
      await runInventory({ kubeconfig: cluster.adminKubeconfig, out: path.join(dir, 'hosts.json') }, { stdout: () => undefined, stderr: () => undefined }),
    ).toBe(0);
    const config = {
      fleets: [{ name: 'fra1', hostsFile: 'hosts.json', hostSelector: { zone: 'a' }, reservedPerHost: { cpu: 2, memory: '8Gi' } }],
      clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
      nodeProviders: [
        { name: 'metal', kind: 'metal3', hostsFile: 'hosts.json', nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }] },
      ],
      privateNodePools: [
        {
          name: 'gpu',
          cluster: 'prod',
          provider: 'metal',
          nodeType: 'gpu-node',
          count: 2,
          image: { url: 'https://images.example.com/os.raw', checksum: 'f'.repeat(64) },
        },
      ],
    };
    fs.writeFileSync(path.join(dir, 'metalslice.json'), JSON.stringify(config));
    const plan = planModel(loadConfigFile(path.join(dir, 'metalslice.json')));
    expect(plan.errors).toEqual([]);
    // The fleet: the one Node in zone a, its allocatable (not its capacity) less the reservation and virt-handler.
    expect(plan.report.fleets[0]).toMatchObject({ name: 'fra1', hosts: 1, capacity: { cpu: '60990m', memory: '247483Mi' } });
    // The metal3 type: only the free hosts (not the consumed one, not the one in error), smallest first.
    const gpuType = plan.nodeProviders.find((p) => p.name === 'metal')!.types[0];
    expect(gpuType.hosts).toEqual(['gpu-01', 'gpu-02']);
    expect(gpuType.resources.cpu.toString()).toBe('96');
    expect(plan.autoPools.find((p) => p.name === 'gpu')!.nodes.map((n) => n.host)).toEqual(['gpu-01', 'gpu-02']);

    // One more node than there are free hosts is refused at plan time, naming how many are free.
    fs.writeFileSync(path.join(dir, 'metalslice.json'), JSON.stringify({ ...config, privateNodePools: [{ ...config.privateNodePools[0], count: 3 }] }));
    const over = planModel(loadConfigFile(path.join(dir, 'metalslice.json')));
    expect(over.ok).toBe(false);
    expect(over.errors.map((e) => e.message).join('\n')).toMatch(/2 [^\n]*free/);
  });

  describe('authenticates as kubectl does, with its own client (no client library)', () => {
    const q = JSON.stringify; // JSON strings are YAML scalars
    const read = async (kubeconfig: string): Promise<{ code: number; out: string; err: string }> => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runInventory({ kubeconfig }, { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
      return { code, out: out.join(''), err: err.join('') };
    };
    const kubeconfigWith = (name: string, settings: Record<string, unknown>, user: Record<string, unknown>): string => {
      const file = path.join(cluster.dir, `${name}.kubeconfig`);
      fs.writeFileSync(
        file,
        `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: ${q({ server: cluster.server, ...settings })}}]\nusers: [{name: u, user: ${q(user)}}]\ncontexts: [{name: ${name}, context: {cluster: c, user: u}}]\ncurrent-context: ${name}\n`,
      );
      return file;
    };
    let token: string;
    let expected: string;

    beforeAll(async () => {
      // What the admin's file-based kubeconfig reads: the reference for every other way in.
      expected = (await read(cluster.adminKubeconfig)).out;
      expect((JSON.parse(expected) as { hosts: unknown[] }).hosts).toHaveLength(5);
      // A ServiceAccount with only what the README's ClusterRole grants, and a token for it (TokenRequest).
      const admin = cluster.client();
      const rbac = '/apis/rbac.authorization.k8s.io/v1';
      expect((await admin.create('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'inventory' } })).status).toBe(201);
      const role = {
        metadata: { name: 'metalslice-inventory' },
        rules: [
          { apiGroups: [''], resources: ['nodes', 'pods'], verbs: ['list'] },
          { apiGroups: ['metal3.io'], resources: ['baremetalhosts'], verbs: ['list'] },
        ],
      };
      expect((await admin.create(`${rbac}/clusterroles`, role)).status).toBe(201);
      const binding = {
        metadata: { name: 'metalslice-inventory' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metalslice-inventory' },
        subjects: [{ kind: 'ServiceAccount', name: 'inventory', namespace: 'default' }],
      };
      expect((await admin.create(`${rbac}/clusterrolebindings`, binding)).status).toBe(201);
      const tr = await admin.create<{ status: { token: string } }>('/api/v1/namespaces/default/serviceaccounts/inventory/token', {
        spec: { expirationSeconds: 3600 },
      });
      expect(tr.status).toBe(201);
      token = tr.body.status.token;
    });

    it('certificate-authority-data, client-certificate-data and client-key-data (what cloud CLIs write)', async () => {
      const admin = findTarget({ kubeconfig: cluster.adminKubeconfig });
      const b64 = (b: Buffer | undefined) => b!.toString('base64');
      const file = kubeconfigWith(
        'data',
        { 'certificate-authority-data': b64(admin.ca) },
        { 'client-certificate-data': b64(admin.cert), 'client-key-data': b64(admin.key) },
      );
      expect(await read(file)).toEqual({ code: 0, out: expected, err: '' });
    });

    it('a ServiceAccount token from tokenFile, with only list on nodes, pods and baremetalhosts', async () => {
      fs.writeFileSync(path.join(cluster.dir, 'sa.token'), token);
      const file = kubeconfigWith('token-file', { 'certificate-authority': cluster.caFile }, { tokenFile: 'sa.token' });
      expect(await read(file)).toEqual({ code: 0, out: expected, err: '' });
    });

    it('an exec credential plugin (client.authentication.k8s.io/v1), as EKS, GKE and AKS users have', async () => {
      const plugin = path.join(cluster.dir, 'cred-plugin.js');
      fs.writeFileSync(
        plugin,
        `#!${process.execPath}\nconst info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);\nprocess.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token: require('fs').readFileSync(process.argv[2], 'utf8') } }));\n`,
        { mode: 0o755 },
      );
      fs.writeFileSync(path.join(cluster.dir, 'sa.token'), token);
      const file = kubeconfigWith(
        'exec',
        { 'certificate-authority': cluster.caFile },
        {
          exec: {
            apiVersion: 'client.authentication.k8s.io/v1',
            command: './cred-plugin.js',
            args: [path.join(cluster.dir, 'sa.token')],
            interactiveMode: 'Never',
          },
        },
      );
      expect(await read(file)).toEqual({ code: 0, out: expected, err: '' });
    });

    it('the in-cluster service account (KUBERNETES_SERVICE_HOST/PORT, token and ca.crt)', async () => {
      const sa = fs.mkdtempSync(path.join(cluster.dir, 'sa-'));
      fs.writeFileSync(path.join(sa, 'token'), token);
      fs.copyFileSync(cluster.caFile, path.join(sa, 'ca.crt'));
      const url = new URL(cluster.server);
      const target = findTarget({}, { env: { KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port }, home: sa, serviceAccountDir: sa });
      const nodes = await new KubeClient(target).list<{ metadata: { name: string } }>('/api/v1/nodes');
      expect(nodes.map((n) => n.metadata.name)).toEqual(['bm-01']);
    });

    it('insecure-skip-tls-verify trusts any server; without it and without the CA, the server is refused, naming the fix', async () => {
      expect(await read(kubeconfigWith('insecure', { 'insecure-skip-tls-verify': true }, { token }))).toEqual({ code: 0, out: expected, err: '' });
      const untrusted = await read(kubeconfigWith('untrusted', {}, { token }));
      expect(untrusted.code).toBe(1);
      expect(untrusted.err).toMatch(
        /^metalslice inventory: reading https:\/\/127\.0\.0\.1:\d+ failed \(context "untrusted" in .*untrusted\.kubeconfig\): cannot trust https:\/\/127\.0\.0\.1:\d+ \([A-Z_]+\): set certificate-authority\(-data\) of the cluster/,
      );
      expect(untrusted.err).not.toContain(token);
    });

    it('a user RBAC does not let list Nodes: HTTP 403, the user and the ClusterRole it needs; a bad token: 401', async () => {
      const forbidden = await read(cluster.tenantKubeconfig('no-rights', []));
      expect(forbidden.code).toBe(1);
      expect(forbidden.err).toMatch(
        /HTTP 403 for \/api\/v1\/nodes: nodes is forbidden: User "no-rights" cannot list resource "nodes".*; user "[^"]+" of context "[^"]+" in .* may not list \/api\/v1\/nodes: grant it list on nodes, pods and baremetalhosts/,
      );
      const refused = await read(kubeconfigWith('bad-token', { 'certificate-authority': cluster.caFile }, { token: `${token.slice(0, -4)}AAAA` }));
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/HTTP 401 for \/api\/v1\/nodes.*the credentials of user "u" of context "bad-token" .* were refused: renew them/);
      expect(refused.err).not.toContain(token.slice(0, -4));
    });
  });
});
