// The deploy, proven on a real kube-apiserver with OpenTofu and the real providers: the example app is
// synthesized, applied stack by stack, read back, re-planned (no changes), scaled by +1 and -1 (exactly one
// node's resources), checked for tenant isolation and quota enforcement, and destroyed without leftovers.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exampleStackEnv, expectOk, startCluster, synthExampleApp, TestCluster, tofu } from './harness';
import { closeShop, cordoned, kwokNode, openShop, watchEnd, raiseBudget, readyOn, recordPods, ShopPod } from './tenant-shop';
import { waitFor, type WatchEvent } from '../../constructs/verify/processes';
import { exposedStateValues, findSecrets, generatedSecrets, sensitiveStateValues } from '../support/secret-scan';
import { defined } from '../support/defined';
import { parsePlanJson } from '../support/plan-json';
import type { KubeDoc, KubeList, NamespaceDoc, ResourceQuotaDoc, SecretDoc, Status, VirtualMachineDoc } from '../support/kube-docs';

jest.setTimeout(1_800_000);

const STACKS = ['provider', 'consumer'] as const;
const VMS = '/apis/kubevirt.io/v1';

interface ResourceChange {
  address: string;
  change: { actions: string[] };
}

describe('e2e: the example app on a real kube-apiserver', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;

  const stackDir = (stack: string) => path.join(work, 'cdktf.out', 'stacks', stack);

  const synth = (extra: Record<string, string> = {}): Promise<void> => synthExampleApp(work, { ...env, ...extra });

  async function planChanges(stack: string): Promise<ResourceChange[]> {
    expectOk('plan', await tofu(stackDir(stack), ['plan', '-input=false', '-no-color', '-out=tfplan']));
    const show = await tofu(stackDir(stack), ['show', '-json', 'tfplan']);
    expectOk('show', show);
    return ((JSON.parse(show.stdout) as { resource_changes?: ResourceChange[] }).resource_changes ?? []).filter(
      (c) => !c.change.actions.includes('no-op') && !c.change.actions.includes('read'),
    );
  }

  async function waitForQuotaStatus(namespaces: readonly string[]): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (const ns of namespaces) {
      for (;;) {
        const rq = (await cluster.client().get<ResourceQuotaDoc>(`/api/v1/namespaces/${ns}/resourcequotas/metalslice`)).body;
        // `used` needs every resource, CRD counts too: the controller learns those from discovery, within ~30s.
        if (rq.status?.used && Object.keys(rq.spec.hard).every((k) => k in (rq.status?.used ?? {}))) break;
        if (Date.now() > deadline) throw new Error(`ResourceQuota in ${ns} has no status after 90s:\n${cluster.logTail(40)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  beforeAll(async () => {
    // With KubeVirt's defaulting imitated (it rewrites VM specs on admission), as a real cluster would.
    // The kubevirt namespace: what installing the KubeVirt operator leaves behind, where the fleet's KubeVirt CR goes.
    cluster = await startCluster({ kubevirt: true, workloads: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-e2e-'));
    // The workers' drains may take 100 s (15 min by default): long enough to wait out a budget, short enough to see
    // a volume that never detaches stop a deploy.
    env = exampleStackEnv(cluster, { CDKTF_OUTDIR: path.join(work, 'cdktf.out'), METALSLICE_EXAMPLE_DRAIN_TIMEOUT: '100s' });
  });

  afterAll(async () => {
    if (work && cluster) {
      for (const stack of [...STACKS].reverse()) {
        if (fs.existsSync(path.join(stackDir(stack), 'terraform.tfstate')) || fs.existsSync(path.join(work, `terraform.${stack}.tfstate`))) {
          await tofu(stackDir(stack), ['destroy', '-auto-approve', '-input=false', '-no-color']);
        }
      }
    }
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  // Everything tofu printed while applying: scanned for secrets below.
  const logs: string[] = [];

  it('applies both stacks and the objects read back as planned', async () => {
    await synth();
    for (const stack of STACKS) {
      expectOk(`init ${stack}`, await tofu(stackDir(stack), ['init', '-input=false', '-no-color']));
      const apply = await tofu(stackDir(stack), ['apply', '-auto-approve', '-input=false', '-no-color']);
      expectOk(`apply ${stack}`, apply);
      logs.push(apply.stdout, apply.stderr);
      // The API server refuses objects a new quota counts until the quota controller has accounted it.
      if (stack === 'provider') await waitForQuotaStatus(['acme-team-a', 'acme-team-b', 'globex-research']);
    }
    const api = cluster.client();
    for (const ns of ['acme-team-a', 'acme-team-b', 'globex-research', 'team-a-prod-virt']) {
      expect({ ns, status: (await api.get(`/api/v1/namespaces/${ns}`)).status }).toEqual({ ns, status: 200 });
    }
    const rq = (await api.get<ResourceQuotaDoc>('/api/v1/namespaces/acme-team-a/resourcequotas/metalslice')).body;
    expect(rq.spec.hard).toEqual({ 'count/virtualmachines.kubevirt.io': '40', 'requests.cpu': '256', 'requests.memory': '1Ti', 'requests.storage': '8Ti' });

    const vms = (
      await api.get<
        KubeList<{
          metadata: { name: string };
          spec: {
            template: {
              spec: {
                domain: { cpu: { cores: number }; resources: { requests: Record<string, string> } };
                volumes: { name: string; cloudInitNoCloud?: { secretRef: { name: string } } }[];
              };
            };
          };
        }>
      >(`${VMS}/namespaces/acme-team-a/virtualmachines`)
    ).body.items;
    const plan = parsePlanJson(fs.readFileSync(path.join(stackDir('consumer'), 'metalslice-plan.json'), 'utf8'));
    const planned = plan.pools.filter((p) => p.kind !== 'dynamic').flatMap((p) => p.nodes.map((n) => ({ name: n.name, shape: p.shape })));
    expect(vms.map((v) => v.metadata.name).sort()).toEqual(planned.map((n) => n.name).sort());
    for (const vm of vms) {
      const { shape } = defined(
        planned.find((n) => n.name === vm.metadata.name),
        `the plan's node ${vm.metadata.name}`,
      );
      const domain = vm.spec.template.spec.domain;
      // int-or-string: the provider may store a whole CPU count as a number.
      const requests = { cpu: String(domain.resources.requests.cpu), memory: String(domain.resources.requests.memory) };
      expect({ vm: vm.metadata.name, cores: domain.cpu.cores, requests }).toEqual({
        vm: vm.metadata.name,
        cores: Number(shape.cpu),
        requests: { cpu: shape.cpu, memory: shape.memory },
      });
      const secretName = vm.spec.template.spec.volumes.find((v) => v.cloudInitNoCloud)!.cloudInitNoCloud!.secretRef.name;
      const secret = (await api.get<SecretDoc>(`/api/v1/namespaces/acme-team-a/secrets/${secretName}`)).body;
      expect(Buffer.from(secret.data.userdata, 'base64').toString()).toMatch(/^#cloud-config\n/);
    }
    // One bootstrap token per node, in the tenant's kube-system, with a real expiration.
    const tokens = (
      await api.get<KubeList<{ type: string; data: Record<string, string> }>>(
        '/api/v1/namespaces/kube-system/secrets?labelSelector=app.kubernetes.io/managed-by%3Dmetalslice',
      )
    ).body.items.filter((s) => s.type === 'bootstrap.kubernetes.io/token');
    expect(tokens).toHaveLength(vms.length);
    for (const t of tokens) expect(Date.parse(Buffer.from(t.data.expiration, 'base64').toString())).toBeGreaterThan(Date.now());
    // Karpenter NodePool in the tenant cluster, Cluster API objects beside the VMs.
    expect((await api.get('/apis/karpenter.sh/v1/nodepools/burst')).status).toBe(200);
    expect((await api.get<KubeList<KubeDoc>>('/apis/cluster.x-k8s.io/v1beta2/namespaces/acme-team-a/machinedeployments')).body.items).toHaveLength(1);
  });

  it('no secret outside what Terraform marks sensitive: tofu show -json, the apply logs, the files beside the state', async () => {
    let secrets = 0;
    for (const stack of STACKS) {
      const show = await tofu(stackDir(stack), ['show', '-json']);
      expectOk(`show ${stack}`, show);
      // The token secrets (random_password); the 6-character token id is public by kubeadm's design.
      const known = generatedSecrets(show.stdout);
      // Terraform marks each of them sensitive in state.
      const marked = sensitiveStateValues(show.stdout);
      for (const secret of known) expect(marked.includes(secret)).toBe(true);
      secrets += known.length;
      const exposed = exposedStateValues(show.stdout).flatMap((leaf) => findSecrets(leaf.value, known).map((hit) => `${leaf.path}: ${hit}`));
      expect({ stack, exposed }).toEqual({ stack, exposed: [] });
      for (const text of logs) expect(findSecrets(text, known)).toEqual([]);
      for (const file of ['cdk.tf.json', 'metalslice-plan.json', 'metalslice-plan.md'].filter((f) => fs.existsSync(path.join(stackDir(stack), f)))) {
        expect({ file, hits: findSecrets(fs.readFileSync(path.join(stackDir(stack), file), 'utf8'), known) }).toEqual({ file, hits: [] });
      }
    }
    // The join tokens exist (the consumer stack makes one per node) and are all marked sensitive.
    expect(secrets).toBeGreaterThan(0);
  });

  it('a second plan has no changes', async () => {
    for (const stack of STACKS) {
      const r = await tofu(stackDir(stack), ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
      expect({ stack, code: r.code, out: r.code === 0 ? '' : r.stdout.slice(-3000) }).toEqual({ stack, code: 0, out: '' });
    }
  });

  it('a field metalslice writes, changed behind its back, is planned back on that VM only (kubectl_manifest sees drift)', async () => {
    const api = cluster.client();
    const vmPath = `${VMS}/namespaces/acme-team-a/virtualmachines/team-a-workers-0`;
    const patched = await api.request(
      'PATCH',
      vmPath,
      { metadata: { labels: { 'metalslice.io/pool': 'hand-edited' } }, spec: { runStrategy: 'Halted' } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    const changes = await planChanges('consumer');
    expect(changes.map((c) => ({ address: c.address, actions: c.change.actions }))).toEqual([
      { address: expect.stringMatching(/^kubectl_manifest\.team-a-workers_nodes_[0-9A-F]{8}\["team-a-workers-0"\]$/), actions: ['update'] },
    ]);
    expectOk('apply', await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    const vm = (await api.get<VirtualMachineDoc>(vmPath)).body;
    expect({ pool: vm.metadata.labels?.['metalslice.io/pool'], runStrategy: vm.spec.runStrategy }).toEqual({ pool: 'team-a-workers', runStrategy: 'Always' });
    expect((await tofu(stackDir('consumer'), ['plan', '-detailed-exitcode', '-input=false', '-no-color'])).code).toBe(0);
  });

  it("count + 1 adds exactly the new node's resources; count - 1 ends its node in Cluster API's order (evictions, volumes detached, VM, then Node), and a volume that never detaches stops the deploy with nothing deleted", async () => {
    await synth({ METALSLICE_EXAMPLE_WORKERS: '7' });
    const up = await planChanges('consumer');
    expect(up.every((c) => c.change.actions.join() === 'create')).toBe(true);
    // The node's VM, its cloud-init Secret, its token (Secret, id, secret), its drain and its end.
    expect(up.map((c) => c.address).sort()).toHaveLength(7);
    expect(up.every((c) => c.address.includes('team-a-workers-6'))).toBe(true);
    // Its drain and end, in the pair of drain blocks its pool's VMs hash to (constructs/parts/node-drain.ts).
    expect(up.filter((c) => /^terraform_data\.node-drains-[^_]+_(Resource-\d+_)?[0-9A-F]{8}\[/.test(c.address))).toHaveLength(1);
    expect(up.filter((c) => /^terraform_data\.node-drains-[^_]+_End(-\d+)?_[0-9A-F]{8}\[/.test(c.address))).toHaveLength(1);
    expect(await planChanges('provider')).toEqual([]);
    expectOk('apply +1', await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    expect((await cluster.client().get(`${VMS}/namespaces/acme-team-a/virtualmachines/team-a-workers-6`)).status).toBe(200);

    // The node joined the tenant cluster (here the same API server; KWOK plays its kubelet, kube-scheduler binds
    // pods, the workload controllers run) and runs the shop: a Deployment's pod under a budget that allows no
    // disruption (maxUnavailable: 0) and a StatefulSet's pod. A second node is where they can go. A CSI volume is
    // attached to the node (its VolumeAttachment, as the attach/detach controller writes it for a CSI driver).
    const api = cluster.client();
    const [node, spare] = ['team-a-workers-6', 'team-a-spare'];
    await kwokNode(api, node);
    const shop = await openShop(api, 'shop', node);
    await kwokNode(api, spare);
    const attachment = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'csi-db-0' },
      spec: { attacher: 'csi.example.com', nodeName: node, source: { persistentVolumeName: 'pv-db-0' } },
    };
    expect((await api.create('/apis/storage.k8s.io/v1/volumeattachments', attachment)).status).toBe(201);

    // What the API server records, in its own order: the resourceVersion of each deletion (one etcd, one sequence).
    const deletedAt = new Map<string, number>();
    const deletions = (kind: string) => (e: WatchEvent<KubeDoc>) => {
      if (e.type === 'DELETED') deletedAt.set(kind, Number(e.object.metadata.resourceVersion));
    };
    const recorded = recordPods(api, 'shop');
    const watches = [
      api.watch(`/api/v1/nodes?watch=1&fieldSelector=metadata.name%3D${node}`, deletions('Node')),
      api.watch(`${VMS}/namespaces/acme-team-a/virtualmachines?watch=1&fieldSelector=metadata.name%3D${node}`, deletions('VirtualMachine')),
      api.watch('/apis/storage.k8s.io/v1/volumeattachments?watch=1', deletions('VolumeAttachment')),
      recorded.watch,
    ];

    await synth();
    const down = await planChanges('consumer');
    expect(down.map((c) => c.change.actions.join())).toEqual(['delete', 'delete', 'delete', 'delete', 'delete', 'delete', 'delete']);
    expect(down.map((c) => c.address).sort()).toEqual(up.map((c) => c.address).sort());
    const applying = tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']);
    let dbMoved: ShopPod;
    try {
      // The drain cordons the Node. The StatefulSet's pod, under no budget, is evicted and its controller makes
      // it again on the other node; the Deployment's pod waits on its budget, with the Node and the VM still there.
      await cordoned(api, node, 120_000, watchEnd(applying));
      dbMoved = await readyOn(api, 'shop', 'db', spare);
      await new Promise((r) => setTimeout(r, 5_000));
      expect((await api.get<ShopPod>(`/api/v1/namespaces/shop/pods/${shop.cart.metadata.name}`)).body.spec.nodeName).toBe(node);
      expect((await api.get(`/api/v1/nodes/${node}`)).status).toBe(200);
      expect((await api.get(`${VMS}/namespaces/acme-team-a/virtualmachines/${node}`)).status).toBe(200);
    } finally {
      // The budget is raised: the drain evicts the cart's pod; then it waits on the volume, which never detaches.
      await raiseBudget(api, 'shop');
    }
    const stuck = await applying;
    expect(stuck.code).not.toBe(0);
    // tofu prefixes each line of the provisioner's output with the instance's address.
    expect(stuck.stdout).toMatch(
      new RegExp(
        `drain-node: waiting on \\d pod\\(s\\) of ${node}:\\n[\\s\\S]*?\\(local-exec\\): {3}shop/${shop.cart.metadata.name}: its PodDisruptionBudget allows no disruption now`,
      ),
    );
    expect(stuck.stdout + stuck.stderr).toMatch(
      new RegExp(
        `Node ${node} was not drained in 100 s; its VM is not deleted and it is uncordoned again\\. Still there:[\\s\\S]*VolumeAttachment csi-db-0: volume pv-db-0 \\(attacher csi\\.example\\.com\\) still attached`,
      ),
    );
    // Nothing was deleted: the VM and the Node are there, the Node serving again; the shop's pods had gone.
    expect((await api.get(`${VMS}/namespaces/acme-team-a/virtualmachines/${node}`)).status).toBe(200);
    expect((await api.get<{ spec?: { unschedulable?: boolean } }>(`/api/v1/nodes/${node}`)).body.spec?.unschedulable).not.toBe(true);
    expect([deletedAt.has('VirtualMachine'), deletedAt.has('Node')]).toEqual([false, false]);

    // The deploy again: the drain waits on the volume until its storage system detaches it (the attachment goes).
    const again = tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color']);
    await cordoned(api, node, 120_000, watchEnd(again));
    await new Promise((r) => setTimeout(r, 5_000));
    expect((await api.get(`${VMS}/namespaces/acme-team-a/virtualmachines/${node}`)).status).toBe(200);
    expect((await api.delete('/apis/storage.k8s.io/v1/volumeattachments/csi-db-0')).status).toBe(200);
    const applied = await again;
    expectOk('apply -1', applied);
    expect(applied.stdout).toMatch(new RegExp(`waiting on 1 volume\\(s\\) to detach from ${node}:\\n.*VolumeAttachment csi-db-0`));
    expect((await api.get(`${VMS}/namespaces/acme-team-a/virtualmachines/${node}`)).status).toBe(404);
    expect((await api.get(`/api/v1/nodes/${node}`)).status).toBe(404);
    // The Deployment made its pod again on the other node, Running and Ready (KWOK), and the StatefulSet's stayed there.
    const cartMoved = await readyOn(api, 'shop', 'cart', spare);
    expect(cartMoved.metadata.uid).not.toBe(shop.cart.metadata.uid);
    expect((await api.get<ShopPod>('/api/v1/namespaces/shop/pods/db-0')).body.metadata.uid).toBe(dbMoved!.metadata.uid);
    // The API server has deleted them all (read above); their watch events may still be on the way.
    await waitFor(
      'the watches to record every deletion',
      30_000,
      () =>
        [shop.cart, shop.db].every((p) => recorded.pods.get(p.metadata.uid!)?.deletedAt !== undefined) &&
        ['VolumeAttachment', 'VirtualMachine', 'Node'].every((kind) => deletedAt.has(kind)),
    );
    for (const w of watches) w.stop();
    const [cartGone, dbGone] = [recorded.pods.get(shop.cart.metadata.uid!)?.deletedAt, recorded.pods.get(shop.db.metadata.uid!)?.deletedAt];
    const [volumeGone, vmGone, nodeGone] = [deletedAt.get('VolumeAttachment'), deletedAt.get('VirtualMachine'), deletedAt.get('Node')];
    // Cluster API's order, as the API server recorded it: evicted, volumes detached, the machine, then the Node.
    expect({
      dbBeforeCart: dbGone! < cartGone!,
      podsBeforeVolume: Math.max(cartGone!, dbGone!) < volumeGone!,
      volumeBeforeVm: volumeGone! < vmGone!,
      vmBeforeNode: vmGone! < nodeGone!,
    }).toEqual({
      dbBeforeCart: true,
      podsBeforeVolume: true,
      volumeBeforeVm: true,
      vmBeforeNode: true,
    });
    // No pod of the shop was ever bound to the cordoned node after the drain began.
    expect(
      [...recorded.pods.values()]
        .filter((p) => p.nodeName === node)
        .map((p) => p.name)
        .sort(),
    ).toEqual([shop.cart.metadata.name, 'db-0'].sort());
    await closeShop(api, 'shop', [spare]);
  });

  it('a tenant manages VMs in its own quota namespace only', async () => {
    const tenant = cluster.client(cluster.tenantKubeconfig('tenant-acme', ['metalslice:tenants']));
    const vm = (ns: string, name: string) => ({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name, namespace: ns },
      spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {}, resources: { requests: { memory: '1Gi' } } } } } },
    });
    const own = await tenant.create(`${VMS}/namespaces/acme-team-a/virtualmachines`, vm('acme-team-a', 'tenant-made'));
    expect(own.status).toBe(201);
    for (const ns of ['acme-team-b', 'globex-research']) {
      const denied = await tenant.create<Status>(`${VMS}/namespaces/${ns}/virtualmachines`, vm(ns, 'sneaky'));
      expect({ ns, status: denied.status }).toEqual({ ns, status: 403 });
    }
    expect((await tenant.delete(`${VMS}/namespaces/acme-team-a/virtualmachines/tenant-made`)).status).toBe(200);
  });

  it("the API server rejects one VM over the quota's count limit", async () => {
    const admin = cluster.client();
    const vm = (name: string) => ({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name },
      spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {} } } } },
    });
    // team-b allows 2 VMs (maxVirtualMachines: 2).
    expect((await admin.create(`${VMS}/namespaces/acme-team-b/virtualmachines`, vm('one'))).status).toBe(201);
    expect((await admin.create(`${VMS}/namespaces/acme-team-b/virtualmachines`, vm('two'))).status).toBe(201);
    const third = await admin.create<Status>(`${VMS}/namespaces/acme-team-b/virtualmachines`, vm('three'));
    expect(third.status).toBe(403);
    expect(third.body.message).toMatch(/exceeded quota: metalslice.*count\/virtualmachines\.kubevirt\.io/);
    for (const n of ['one', 'two']) await admin.delete(`${VMS}/namespaces/acme-team-b/virtualmachines/${n}`);
  });

  it('tofu destroy leaves nothing behind', async () => {
    for (const stack of [...STACKS].reverse()) {
      expectOk(`destroy ${stack}`, await tofu(stackDir(stack), ['destroy', '-auto-approve', '-input=false', '-no-color']));
    }
    const api = cluster.client();
    const vms = await api.get<KubeList<KubeDoc>>(`${VMS}/virtualmachines`);
    expect(vms.body.items).toEqual([]);
    const tokens = (await api.get<KubeList<KubeDoc>>('/api/v1/namespaces/kube-system/secrets?labelSelector=app.kubernetes.io/managed-by%3Dmetalslice')).body
      .items;
    expect(tokens).toEqual([]);
    expect((await api.get<KubeList<KubeDoc>>('/apis/karpenter.sh/v1/nodepools')).body.items).toEqual([]);
    // Namespaces are deleted (the namespace controller may still be finalizing them).
    for (const ns of ['acme-team-a', 'acme-team-b', 'globex-research', 'team-a-prod-virt']) {
      const res = await api.get<NamespaceDoc>(`/api/v1/namespaces/${ns}`);
      expect({ ns, gone: res.status === 404 || res.body.status?.phase === 'Terminating' }).toEqual({ ns, gone: true });
    }
  });
});
