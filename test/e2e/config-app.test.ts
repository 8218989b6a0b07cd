// The config path in one apply: the example YAML as a single stack, so quotas and the VMs they count are
// created together. VMs wait for the quota controller to account their quota (a real race otherwise).
// Then the same config as a stack per pool (addConfigStacks): deployed in stack order, and scaling a pool
// by one changes that pool's stack alone, by exactly one node.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { binary, configAppEnv, expectOk, REPO_ROOT, run, startCluster, TestCluster, tofu } from './harness';
import { closeShop, cordoned, kwokNode, openShop, watchEnd, raiseBudget, readyOn, recordPods, ShopPod } from './tenant-shop';
import type { KubeDoc, KubeList, ResourceQuotaDoc } from '../support/kube-docs';
import { parseDocument } from 'yaml';
import { waitFor, type WatchEvent } from '../../constructs/verify/processes';

jest.setTimeout(1_200_000);

const VMS = '/apis/kubevirt.io/v1';

describe('e2e: the example config as one stack', () => {
  let cluster: TestCluster;
  let work: string;
  const stackDir = () => path.join(work, 'cdktf.out', 'stacks', 'from-config');

  beforeAll(async () => {
    cluster = await startCluster({ kubevirt: true, workloads: true });
    // What installing KubeVirt and Metal3 leaves behind: their namespaces (KubeVirt's made by startCluster).
    for (const name of ['metal3']) expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-config-'));
  });

  afterAll(async () => {
    if (work && fs.existsSync(path.join(stackDir(), '.terraform'))) await tofu(stackDir(), ['destroy', '-auto-approve', '-input=false', '-no-color']);
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('creates quotas, VMs, auto-node pools and HostClaims in one apply, re-plans clean, and destroys', async () => {
    // The example config with its tenant cluster's CA made the test API server's: that server is the tenant
    // cluster here, and a node's drain checks it reaches the cluster the node joined (kube-public/cluster-info).
    const config = path.join(work, 'one', 'metalslice.yaml');
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'inventory'), path.join(work, 'one', 'inventory'), { recursive: true });
    const doc = parseDocument(fs.readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8'));
    doc.setIn(['clusters', 0, 'caCertificate'], fs.readFileSync(cluster.caFile, 'utf8'));
    fs.writeFileSync(config, doc.toString());
    const env = configAppEnv(cluster, path.join(work, 'cdktf.out'), { METALSLICE_CONFIG: config });
    expectOk(
      'synth',
      await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], {
        cwd: work,
        env,
        timeoutMs: 120_000,
      }),
    );
    const tf = (args: string[]) => run(binary('tofu'), args, { cwd: stackDir(), env, timeoutMs: 600_000 });
    expectOk('init', await tf(['init', '-input=false', '-no-color']));
    expectOk('apply', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));

    const api = cluster.client();
    const vms = (await api.get<KubeList<KubeDoc>>(`${VMS}/namespaces/acme-team-a/virtualmachines`)).body.items;
    expect(vms.map((v) => v.metadata.name).sort()).toEqual(
      [
        'team-a-highmem-0',
        'team-a-highmem-1',
        'team-a-prod-base-0',
        'team-a-prod-base-1',
        'team-a-workers-0',
        'team-a-workers-1',
        'team-a-workers-2',
        'team-a-workers-3',
        'team-a-workers-4',
        'team-a-workers-5',
      ].sort(),
    );
    const claims = (await api.get<KubeList<KubeDoc>>('/apis/metal3.io/v1alpha1/namespaces/team-a-prod-metal/hostclaims')).body.items;
    expect(claims.map((c) => c.metadata.name).sort()).toEqual(['team-a-prod-train-0', 'team-a-prod-train-1']);
    // The quota controller counts the VMs after they are created (its status is eventually consistent): wait for it.
    let counted: string | undefined;
    for (let deadline = Date.now() + 60_000; counted !== '10' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 500)))
      counted = (await api.get<ResourceQuotaDoc>('/api/v1/namespaces/acme-team-a/resourcequotas/metalslice')).body.status?.used?.[
        'count/virtualmachines.kubevirt.io'
      ];
    expect(counted).toBe('10');

    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });

    // A private (Metal3) node and a static auto node have joined the tenant cluster (here the same API server).
    // The Metal3 node runs the shop (KWOK plays its kubelet): a Deployment's pod under a budget that allows no
    // disruption and a StatefulSet's pod, with a second node to move to; the auto node runs a bare pod. Destroying
    // drains each Node before its HostClaim or VM goes, and deletes the Node after, as the API server records.
    const joined = { 'team-a-prod-train-1': 'HostClaim', 'team-a-prod-base-1': 'VirtualMachine' } as const;
    const [metal, spare] = ['team-a-prod-train-1', 'team-a-prod-spare'];
    const deletedAt = new Map<string, number>();
    const watches = Object.entries(joined).flatMap(([node, kind]) => {
      const seen = (what: string) => (e: WatchEvent<KubeDoc>) => {
        if (e.type === 'DELETED') deletedAt.set(`${what} ${node}`, Number(e.object.metadata.resourceVersion));
      };
      const owner = kind === 'HostClaim' ? '/apis/metal3.io/v1alpha1/namespaces/team-a-prod-metal/hostclaims' : `${VMS}/namespaces/acme-team-a/virtualmachines`;
      return [
        api.watch(`/api/v1/nodes?watch=1&fieldSelector=metadata.name%3D${node}`, seen('Node')),
        api.watch(`${owner}?watch=1&fieldSelector=metadata.name%3D${node}`, seen(kind)),
        api.watch(`/api/v1/namespaces/default/pods?watch=1&fieldSelector=spec.nodeName%3D${node}`, seen('Pod')),
      ];
    });
    await kwokNode(api, metal);
    const shop = await openShop(api, 'shop', metal);
    await kwokNode(api, spare);
    const recorded = recordPods(api, 'shop');
    watches.push(recorded.watch);
    const auto = 'team-a-prod-base-1';
    expect((await api.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: auto } })).status).toBe(201);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `on-${auto}` },
      spec: { nodeName: auto, terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'registry.invalid/c:1' }] },
    };
    expect((await api.create('/api/v1/namespaces/default/pods', pod)).status).toBe(201);

    const destroying = tf(['destroy', '-auto-approve', '-input=false', '-no-color']);
    try {
      // The Metal3 node's drain moves the StatefulSet's pod and waits on the Deployment's budget, its HostClaim kept.
      await cordoned(api, metal, 300_000, watchEnd(destroying));
      await readyOn(api, 'shop', 'db', spare);
      await new Promise((r) => setTimeout(r, 5_000));
      expect((await api.get<ShopPod>(`/api/v1/namespaces/shop/pods/${shop.cart.metadata.name}`)).body.spec.nodeName).toBe(metal);
      expect((await api.get(`/apis/metal3.io/v1alpha1/namespaces/team-a-prod-metal/hostclaims/${metal}`)).status).toBe(200);
    } finally {
      await raiseBudget(api, 'shop');
    }
    expectOk('destroy', await destroying);
    expect((await api.get<KubeList<KubeDoc>>(`${VMS}/virtualmachines`)).body.items).toEqual([]);
    expect((await api.get<KubeList<KubeDoc>>('/apis/metal3.io/v1alpha1/hostclaims')).body.items).toEqual([]);
    // The Deployment made its pod again on the other node.
    expect((await readyOn(api, 'shop', 'cart', spare)).metadata.uid).not.toBe(shop.cart.metadata.uid);
    // The API server has deleted them all (read above, and below for the Nodes); their watch events may still be on the way.
    await waitFor(
      'the watches to record every deletion',
      30_000,
      () =>
        [shop.cart, shop.db].every((p) => recorded.pods.get(p.metadata.uid!)?.deletedAt !== undefined) &&
        [`Node ${metal}`, `HostClaim ${metal}`, `Node ${auto}`, `VirtualMachine ${auto}`, `Pod ${auto}`].every((key) => deletedAt.has(key)),
    );
    for (const w of watches) w.stop();
    for (const [uid, what] of [
      [shop.cart.metadata.uid!, 'cart'],
      [shop.db.metadata.uid!, 'db'],
    ] as const) {
      const gone = recorded.pods.get(uid)?.deletedAt;
      if (gone !== undefined) deletedAt.set(`Pod ${metal} ${what}`, gone);
    }
    // Cluster API's order: the pods evicted, then the machine (HostClaim or VM) deleted, then its Node.
    const order = (node: string, kind: string, pods: readonly string[]) => {
      const [gone, owner] = [deletedAt.get(`Node ${node}`), deletedAt.get(`${kind} ${node}`)];
      return { node, podsBeforeOwner: pods.every((p) => deletedAt.get(p)! < owner!), ownerBeforeNode: owner! < gone! };
    };
    for (const node of Object.keys(joined)) expect((await api.get(`/api/v1/nodes/${node}`)).status).toBe(404);
    expect(order(metal, 'HostClaim', [`Pod ${metal} cart`, `Pod ${metal} db`])).toEqual({ node: metal, podsBeforeOwner: true, ownerBeforeNode: true });
    expect(order(auto, 'VirtualMachine', [`Pod ${auto}`])).toEqual({ node: auto, podsBeforeOwner: true, ownerBeforeNode: true });
    await closeShop(api, 'shop', [spare]);
  });

  it('as a stack per pool: applies in stack order, re-plans clean, and +1 worker plans one node in one stack', async () => {
    // A copy of the example config (and its inventory), so the test can scale a pool in it.
    const dir = path.join(work, 'split');
    fs.cpSync(path.join(REPO_ROOT, 'examples', 'inventory'), path.join(dir, 'inventory'), { recursive: true });
    const yaml = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8');
    expect(yaml).toContain('count: 6}');
    const config = path.join(dir, 'metalslice.yaml');
    fs.writeFileSync(config, yaml);
    const outdir = path.join(dir, 'cdktf.out');
    // The example's tenant cluster (its CA), not the test API server: nodes go without a drain.
    const env = configAppEnv(cluster, outdir, { METALSLICE_CONFIG: config, METALSLICE_LAYOUT: 'stack-per-pool', METALSLICE_DRAIN: 'skip' });
    const synth = async () =>
      expectOk(
        'synth',
        await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], {
          cwd: dir,
          env,
          timeoutMs: 120_000,
        }),
      );
    await synth();
    const stacks = ['metalslice', 'metalslice-pool-team-a-workers', 'metalslice-pool-team-a-highmem'];
    expect(fs.readdirSync(path.join(outdir, 'stacks')).sort()).toEqual([...stacks].sort());
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as { stacks: Record<string, { dependencies: string[] }> };
    expect(manifest.stacks['metalslice-pool-team-a-workers'].dependencies).toEqual(['metalslice']);
    const tf = (stack: string, args: string[]) => run(binary('tofu'), args, { cwd: path.join(outdir, 'stacks', stack), env, timeoutMs: 600_000 });
    for (const stack of stacks) {
      expectOk(`init ${stack}`, await tf(stack, ['init', '-input=false', '-no-color']));
      expectOk(`apply ${stack}`, await tf(stack, ['apply', '-auto-approve', '-input=false', '-no-color']));
    }
    const api = cluster.client();
    const workers = async () =>
      (await api.get<KubeList<KubeDoc>>(`${VMS}/namespaces/acme-team-a/virtualmachines`)).body.items
        .map((v) => v.metadata.name)
        .filter((n) => n.startsWith('team-a-workers-'));
    expect((await workers()).length).toBe(6);
    for (const stack of stacks) {
      const again = await tf(stack, ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
      expect({ stack, code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ stack, code: 0, out: '' });
    }

    const before = new Map(stacks.map((s) => [s, fs.readFileSync(path.join(outdir, 'stacks', s, 'cdk.tf.json'), 'utf8')]));
    fs.writeFileSync(config, yaml.replace('count: 6}', 'count: 7}'));
    await synth();
    const changed = stacks.filter((s) => fs.readFileSync(path.join(outdir, 'stacks', s, 'cdk.tf.json'), 'utf8') !== before.get(s));
    expect(changed).toEqual(['metalslice-pool-team-a-workers']);
    const plusOne = await tf('metalslice-pool-team-a-workers', ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect(plusOne.code).toBe(2);
    // The node's VM, cloud-init Secret and token (Secret, id, secret), and its instances of the stack's drains and ends.
    expect(plusOne.stdout).toContain('Plan: 7 to add, 0 to change, 0 to destroy.');
    const created = [...plusOne.stdout.matchAll(/# (\S+) will be created/g)].map((m) => m[1]);
    expect(created).toHaveLength(7);
    for (const address of created)
      expect(address).toMatch(/^\w+\.(team-a-workers_nodes_(\w+_)?|node-drains-team-a-prod_(End_|Resource-\d+_|End-\d+_)?)[0-9A-F]{8}\["team-a-workers-6"\]$/);
    expect(created.filter((a) => a.startsWith('terraform_data.'))).toHaveLength(2);
    expectOk('apply +1', await tf('metalslice-pool-team-a-workers', ['apply', '-auto-approve', '-input=false', '-no-color']));
    expect((await workers()).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `team-a-workers-${i}`).sort());

    for (const stack of [...stacks].reverse()) expectOk(`destroy ${stack}`, await tf(stack, ['destroy', '-auto-approve', '-input=false', '-no-color']));
    expect((await api.get<KubeList<KubeDoc>>(`${VMS}/virtualmachines`)).body.items).toEqual([]);
  });
});
