// `metalslice drain-node` against a fake API server that answers as kube-apiserver does: evictions refused with
// 429 while a PodDisruptionBudget allows nothing, DaemonSet and mirror pods on the node, a pod that must not be
// disrupted, and a Node that is already gone. The real thing (a real API server, a real budget, tofu running the
// drain before a VM's delete) is test/e2e/examples.test.ts.
import { afterEach, describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { AddressInfo } from 'net';
import { runDrainNode, runRemoveNode } from '../../constructs/cli/drain';
import { caCertHash } from '../../constructs/render/cloud-init';
import { EXAMPLE_CA } from '../support/models';
import { makeCa } from '../../constructs/verify/certificates';

interface FakePod {
  name: string;
  annotations?: Record<string, string>;
  daemonSet?: boolean;
  /** Evictions refused (429) before one is accepted. */
  refusals?: number;
  /** Every eviction refused with this status (403: RBAC). */
  refuseWith?: number;
  /** The pod's deletion time, relative to now in seconds (negative: passed): a pod already terminating. */
  deletesIn?: number;
  /** After an accepted eviction the pod stays, terminating for its grace period (no kubelet confirms it). */
  lingers?: boolean;
}

/** A VolumeAttachment on the fake's API server. */
interface FakeAttachment {
  name: string;
  node: string;
  /** Lists of VolumeAttachments that still show it (Infinity: it never detaches). */
  listsLeft: number;
  detachError?: string;
}

interface Fake {
  kubeconfig: string;
  /** VolumeAttachments; `forbidden` answers their list with 403 (RBAC). */
  attachments: FakeAttachment[];
  attachmentsForbidden: boolean;
  /** Every request, as `METHOD path` (query left off). */
  calls: string[];
  /** The body of every request that had one, as `METHOD path` and the parsed JSON. */
  bodies: { call: string; body: unknown }[];
  node: { exists: boolean; unschedulable: boolean; annotations: Record<string, string> };
  /** How many more pod lists fail with HTTP 503 (an API server restarting). */
  failLists: number;
  close(): Promise<void>;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function fakeApiServer(pods: FakePod[], nodeExists = true, ready = 'True', clusterInfoCa?: string): Promise<Fake> {
  const calls: string[] = [];
  const bodies: Fake['bodies'] = [];
  const node = { exists: nodeExists, unschedulable: false, annotations: {} as Record<string, string> };
  const live = new Map(
    pods.map((p) => [p.name, { ...p, refusals: p.refusals ?? 0, deletionTime: p.deletesIn === undefined ? undefined : Date.now() + p.deletesIn * 1000 }]),
  );
  const fake = { failLists: 0, attachments: [] as FakeAttachment[], attachmentsForbidden: false };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const call = `${req.method} ${url.pathname}`;
    calls.push(call);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString('utf8')));
    req.on('end', () => {
      const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      if (body !== undefined) bodies.push({ call, body });
      if (url.pathname === '/api/v1/namespaces/kube-public/configmaps/cluster-info') {
        if (clusterInfoCa === undefined) return send(404, { kind: 'Status', message: 'configmaps "cluster-info" not found' });
        const kubeconfig = `clusters:\n- cluster:\n    certificate-authority-data: ${Buffer.from(clusterInfoCa).toString('base64')}\n    server: https://10.0.0.10:6443\n  name: ""\n`;
        return send(200, { data: { kubeconfig } });
      }
      if (url.pathname === '/api/v1/nodes/w-1') {
        if (!node.exists) return send(404, { kind: 'Status', message: 'nodes "w-1" not found' });
        if (req.method === 'PATCH') {
          const patch = body as { metadata?: { annotations?: Record<string, string | null> }; spec?: { unschedulable?: boolean } };
          if (patch.spec?.unschedulable !== undefined) node.unschedulable = patch.spec.unschedulable;
          for (const [k, v] of Object.entries(patch.metadata?.annotations ?? {})) {
            if (v === null) delete node.annotations[k];
            else node.annotations[k] = v;
          }
        }
        if (req.method === 'DELETE') node.exists = false;
        return send(200, {
          metadata: { name: 'w-1', annotations: node.annotations },
          spec: { unschedulable: node.unschedulable },
          status: { conditions: [{ type: 'Ready', status: ready }] },
        });
      }
      if (url.pathname === '/api/v1/pods') {
        expect(url.searchParams.get('fieldSelector')).toBe('spec.nodeName=w-1');
        if (fake.failLists > 0) {
          fake.failLists -= 1;
          return send(503, { kind: 'Status', message: 'the server is currently unable to handle the request' });
        }
        return send(200, {
          items: [...live.values()].map((p) => ({
            metadata: {
              name: p.name,
              namespace: 'shop',
              annotations: p.annotations,
              ownerReferences: p.daemonSet ? [{ kind: 'DaemonSet', name: 'logs', controller: true }] : [],
              ...(p.deletionTime !== undefined ? { deletionTimestamp: new Date(p.deletionTime).toISOString() } : {}),
            },
            status: { phase: 'Running' },
          })),
          metadata: {},
        });
      }
      if (url.pathname === '/apis/storage.k8s.io/v1/volumeattachments') {
        if (fake.attachmentsForbidden)
          return send(403, { kind: 'Status', message: 'volumeattachments.storage.k8s.io is forbidden: User "u" cannot list resource "volumeattachments"' });
        const shown = fake.attachments.filter((a) => a.listsLeft > 0);
        for (const a of shown) a.listsLeft -= 1;
        return send(200, {
          items: shown.map((a) => ({
            metadata: { name: a.name },
            spec: { attacher: 'csi.example.com', nodeName: a.node, source: { persistentVolumeName: `pv-${a.name}` } },
            status: { attached: true, ...(a.detachError ? { detachError: { message: a.detachError } } : {}) },
          })),
          metadata: {},
        });
      }
      const eviction = /^\/api\/v1\/namespaces\/shop\/pods\/([^/]+)\/eviction$/.exec(url.pathname);
      if (eviction && req.method === 'POST') {
        const pod = live.get(eviction[1]);
        if (!pod) return send(404, { message: 'not found' });
        if (pod.refuseWith !== undefined)
          return send(pod.refuseWith, { kind: 'Status', message: 'pods "x" is forbidden: User "u" cannot create resource "pods/eviction"' });
        if (pod.refusals > 0) {
          pod.refusals -= 1;
          return send(429, { kind: 'Status', message: "Cannot evict pod as it would violate the pod's disruption budget." });
        }
        const grace = (body as { deleteOptions?: { gracePeriodSeconds?: number } }).deleteOptions?.gracePeriodSeconds ?? 30;
        if (pod.lingers) pod.deletionTime = Math.min(pod.deletionTime ?? Infinity, Date.now() + grace * 1000);
        else live.delete(pod.name);
        return send(201, { kind: 'Status', status: 'Success' });
      }
      send(404, { message: 'no such path' });
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drain-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: t',
      'contexts: [{name: t, context: {cluster: t, user: t}}]',
      `clusters: [{name: t, cluster: {server: "http://127.0.0.1:${port}"}}]`,
      'users: [{name: t, user: {}}]',
      '',
    ].join('\n'),
  );
  return Object.assign(fake, { kubeconfig, calls, bodies, node, close: () => new Promise<void>((r) => server.close(() => r())) });
}

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t) } };
}

describe('metalslice drain-node', () => {
  it('cordons, waits out the budget, leaves DaemonSet and mirror pods, then deletes the Node', async () => {
    const fake = await fakeApiServer([
      { name: 'cart', refusals: 2 },
      { name: 'logs-x1', daemonSet: true },
      { name: 'kube-proxy-w-1', annotations: { 'kubernetes.io/config.mirror': 'abc' } },
    ]);
    const { out, io: sink } = io();
    const code = await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '1m', interval: 0.05 }, sink);
    expect({ code, stderr: out.stderr }).toEqual({ code: 0, stderr: '' });
    const writes = fake.calls.filter((c) => !c.startsWith('GET'));
    expect(writes).toEqual([
      'PATCH /api/v1/nodes/w-1',
      'POST /api/v1/namespaces/shop/pods/cart/eviction',
      'POST /api/v1/namespaces/shop/pods/cart/eviction',
      'POST /api/v1/namespaces/shop/pods/cart/eviction',
      'DELETE /api/v1/nodes/w-1',
    ]);
    // The cordon as a merge patch kubectl cordon would send (and the drain's mark); the Eviction as policy/v1 has it.
    expect(fake.bodies[0]).toEqual({
      call: 'PATCH /api/v1/nodes/w-1',
      body: { metadata: { annotations: { 'metalslice.io/draining': 'true' } }, spec: { unschedulable: true } },
    });
    expect(fake.bodies[1].body).toEqual({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'cart', namespace: 'shop' } });
    expect(fake.node.exists).toBe(false);
    expect(out.stdout).toContain('shop/cart: its PodDisruptionBudget allows no disruption now');
  });

  it("waits until the node's volumes are detached (no VolumeAttachment names it), other nodes' ignored; with --keep-node the drained Node stays for remove-node", async () => {
    for (const keepNode of [false, true]) {
      const fake = await fakeApiServer([{ name: 'web' }]);
      fake.attachments = [
        { name: 'va-db', node: 'w-1', listsLeft: 3 },
        { name: 'va-elsewhere', node: 'w-2', listsLeft: Infinity },
      ];
      const { out, io: sink } = io();
      expect({ keepNode, code: await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '1m', interval: 0.05, keepNode }, sink) }).toEqual({
        keepNode,
        code: 0,
      });
      expect(out.stdout).toContain(
        'waiting on 1 volume(s) to detach from w-1:\n  VolumeAttachment va-db: volume pv-va-db (attacher csi.example.com) still attached',
      );
      // One list before the cordon (may the identity see them?); then volumes are waited for only once the pods are
      // gone: no list between the cordon and the eviction.
      const [cordon, eviction] = [fake.calls.indexOf('PATCH /api/v1/nodes/w-1'), fake.calls.indexOf('POST /api/v1/namespaces/shop/pods/web/eviction')];
      expect(fake.calls.indexOf('GET /apis/storage.k8s.io/v1/volumeattachments')).toBeLessThan(cordon);
      expect(fake.calls.slice(cordon, eviction)).not.toContain('GET /apis/storage.k8s.io/v1/volumeattachments');
      expect(fake.attachments[0].listsLeft).toBe(0);
      if (keepNode) {
        expect(fake.calls).not.toContain('DELETE /api/v1/nodes/w-1');
        expect(fake.node).toEqual({ exists: true, unschedulable: true, annotations: { 'metalslice.io/draining': 'true' } });
      } else expect(fake.calls.indexOf('DELETE /api/v1/nodes/w-1')).toBeGreaterThan(fake.calls.lastIndexOf('GET /apis/storage.k8s.io/v1/volumeattachments'));
    }
  });

  it('a volume that never detaches stops the drain in time, naming the attachment, its volume and the detach error; nothing is deleted', async () => {
    const fake = await fakeApiServer([]);
    fake.attachments = [{ name: 'va-db', node: 'w-1', listsLeft: Infinity, detachError: 'rpc error: volume is busy' }];
    const { out, io: sink } = io();
    expect(await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '1s', interval: 0.05 }, sink)).toBe(1);
    expect(out.stderr).toContain(
      'Node w-1 was not drained in 1 s; its VM is not deleted and it is uncordoned again. Still there:\n  VolumeAttachment va-db: volume pv-va-db (attacher csi.example.com) still attached: detach error: rpc error: volume is busy',
    );
    expect(out.stderr).toMatch(/kubectl describe volumeattachment NAME.*Nothing was deleted/);
    expect(fake.calls).not.toContain('DELETE /api/v1/nodes/w-1');
    expect(fake.node.exists).toBe(true);
  });

  it('stops at once when VolumeAttachments may not be listed (RBAC), naming what the identity needs', async () => {
    const fake = await fakeApiServer([]);
    fake.attachmentsForbidden = true;
    const { out, io: sink } = io();
    expect(await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '10m', interval: 0.05 }, sink)).toBe(1);
    expect(out.stderr).toMatch(/cannot list VolumeAttachments: .*needs list on volumeattachments\.storage\.k8s\.io/);
    // Asked before anything is written: the Node was never cordoned, no pod evicted.
    expect(fake.calls.filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(fake.node).toEqual({ exists: true, unschedulable: false, annotations: {} });
  });

  it('remove-node deletes the Node of a machine that is gone, and refuses a bad name before it talks to a cluster', async () => {
    const fake = await fakeApiServer([]);
    expect(await runRemoveNode('w-1', { kubeconfig: fake.kubeconfig }, io().io)).toBe(0);
    expect(fake.calls).toEqual(['DELETE /api/v1/nodes/w-1']);
    expect(fake.node.exists).toBe(false);
    // Already gone: still 0 (a deploy resumed after the Node went).
    expect(await runRemoveNode('w-1', { kubeconfig: fake.kubeconfig }, io().io)).toBe(0);
    const { out, io: sink } = io();
    expect(await runRemoveNode('W_1;rm', { kubeconfig: fake.kubeconfig }, sink)).toBe(2);
    expect(out.stderr).toMatch(/the Node name must consist of lower-case letters/);
    expect(fake.calls).toHaveLength(2);
  });

  it('never evicts a pod annotated karpenter.sh/do-not-disrupt: it stops in time, names the pod, and uncordons the Node it cordoned', async () => {
    const fake = await fakeApiServer([{ name: 'batch', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }, { name: 'web' }]);
    const { out, io: sink } = io();
    const code = await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '1s', interval: 0.05 }, sink);
    expect(code).toBe(1);
    expect(out.stderr).toMatch(/Node w-1 was not drained in 1 s; its VM is not deleted and it is uncordoned again/);
    expect(out.stderr).toContain('shop/batch: annotated karpenter.sh/do-not-disrupt: "true"');
    expect(fake.calls).not.toContain('POST /api/v1/namespaces/shop/pods/batch/eviction');
    expect(fake.calls).toContain('POST /api/v1/namespaces/shop/pods/web/eviction');
    expect(fake.calls).not.toContain('DELETE /api/v1/nodes/w-1');
    // The VM stays, so the node keeps serving: not left drained but running.
    expect(fake.node).toEqual({ exists: true, unschedulable: false, annotations: {} });
  });

  it('a pod that stays terminating holds the drain on a Ready Node; on an unreachable one it is evicted with 1 s grace and then counts as gone', async () => {
    for (const [ready, code] of [
      ['Unknown', 0],
      ['True', 1],
    ] as const) {
      // Already terminating, an hour to go (a long grace period), and no kubelet to confirm it.
      const fake = await fakeApiServer([{ name: 'stuck', deletesIn: 3600, lingers: true }], true, ready);
      const { out, io: sink } = io();
      expect({ ready, code: await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '4s', interval: 0.2 }, sink) }).toEqual({ ready, code });
      expect(fake.node.exists).toBe(code !== 0);
      const evictions = fake.bodies.filter((b) => b.call.endsWith('/eviction')).map((b) => b.body);
      if (ready === 'Unknown') expect(evictions[0]).toMatchObject({ deleteOptions: { gracePeriodSeconds: 1 } });
      else {
        expect(evictions).toEqual([]);
        expect(out.stderr).toContain('shop/stuck: evicted, still terminating');
      }
    }
  }, 30_000);

  it('stops at once when an eviction is refused for good (RBAC), naming what the identity needs', async () => {
    const fake = await fakeApiServer([{ name: 'web', refuseWith: 403 }]);
    const { out, io: sink } = io();
    expect(await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '10m', interval: 0.05 }, sink)).toBe(1);
    expect(out.stderr).toMatch(/the eviction of shop\/web was refused: HTTP 403, .*needs create on pods\/eviction/);
    expect(fake.calls.filter((c) => c.endsWith('/eviction'))).toHaveLength(1);
    // The node keeps serving: the drain's cordon is undone.
    expect(fake.node).toEqual({ exists: true, unschedulable: false, annotations: {} });
  });

  it('waits through an API server that does not answer for a while (a restart), instead of failing the deploy', async () => {
    const fake = await fakeApiServer([{ name: 'web' }]);
    fake.failLists = 3;
    const { out, io: sink } = io();
    expect(await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, timeout: '1m', interval: 0.05 }, sink)).toBe(0);
    expect(out.stdout).toContain('the API server did not answer');
    expect(fake.node.exists).toBe(false);
  });

  it('a Node that is gone (a drain resumed after it finished) is done: exit 0, nothing written', async () => {
    const fake = await fakeApiServer([{ name: 'web' }], false);
    const { out, io: sink } = io();
    expect(await runDrainNode('w-1', { kubeconfig: fake.kubeconfig, interval: 0.05 }, sink)).toBe(0);
    expect(fake.calls).toEqual(['GET /api/v1/nodes/w-1']);
    expect(out.stdout).toContain('not in the cluster');
  });

  it("checks that the kubeconfig reaches the node's cluster (its cluster-info CA) before a missing Node counts as drained", async () => {
    const hash = caCertHash(EXAMPLE_CA);
    const caDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drain-ca-'));
    makeCa(caDir, 'other', 'another cluster');
    const OTHER_CA = fs.readFileSync(path.join(caDir, 'other.crt'), 'utf8');
    const right = await fakeApiServer([], false, 'True', EXAMPLE_CA);
    expect(await runDrainNode('w-1', { kubeconfig: right.kubeconfig, clusterCaHash: hash }, io().io)).toBe(0);
    expect(right.calls).toEqual(['GET /api/v1/namespaces/kube-public/configmaps/cluster-info', 'GET /api/v1/nodes/w-1']);
    for (const [ca, message] of [
      [OTHER_CA, /is not the tenant cluster the node joined \(its CA hash is sha256:[0-9a-f]{64}, the node's is sha256:/],
      [undefined, /publishes no CA in kube-public\/cluster-info \(HTTP 404\).*METALSLICE_DRAIN=skip/],
    ] as const) {
      const other = await fakeApiServer([], false, 'True', ca);
      const { out, io: sink } = io();
      expect(await runDrainNode('w-1', { kubeconfig: other.kubeconfig, clusterCaHash: hash }, sink)).toBe(1);
      expect(out.stderr).toMatch(message);
      expect(other.calls).not.toContain('GET /api/v1/nodes/w-1');
    }
    const { out, io: sink } = io();
    expect(await runDrainNode('w-1', { kubeconfig: right.kubeconfig, clusterCaHash: 'sha256:abc' }, sink)).toBe(2);
    expect(out.stderr).toContain('--cluster-ca-hash must be sha256:');
  });

  it('refuses a bad timeout, interval or Node name with exit 2 before it talks to any cluster', async () => {
    const fake = await fakeApiServer([]);
    for (const [node, opts, message] of [
      ['w-1', { timeout: '15 minutes' }, /--timeout "15 minutes" is not a duration/],
      ['w-1', { timeout: '0s' }, /gives the drain no time/],
      ['w-1', { interval: 0 }, /--interval must be/],
      ['W_1;rm -rf', {}, /the Node name must consist of lower-case letters/],
    ] as const) {
      const { out, io: sink } = io();
      expect(await runDrainNode(node, { kubeconfig: fake.kubeconfig, ...opts }, sink)).toBe(2);
      expect(out.stderr).toMatch(message);
    }
    expect(fake.calls).toEqual([]);
  });
});
