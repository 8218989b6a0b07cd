// `metalslice roll-nodes` against a fake provider API server: what it decides from the clusters alone. A pool whose
// nodes all run the revision is a few reads and never touches the tenant cluster (a new pool's first deploy); a VM
// the deploy has not brought to the revision stops the roll before any write; a tenant kubeconfig that reaches
// another cluster stops it before any write; bad options are usage errors naming the flag. The roll itself (surge,
// drains, restarts, a killed apply) runs on KubeVirt's own controllers in test/e2e/rollout.test.ts.
import { afterEach, describe, expect, it } from '@jest/globals';
import * as http from 'http';
import { AddressInfo } from 'net';
import fc from 'fast-check';
import { runRollNodes, RollOptions } from '../../constructs/cli/roll';
import { surgeVmName as surgeName } from '../../constructs/core/naming/derived';
import { MAX_ROLLOUT_NODES } from '../../constructs/core/base/bounds';
import { caCertHash } from '../../constructs/render/cloud-init';
import { EXAMPLE_CA } from '../support/models';
import { ioSink, kubeconfigForServer } from '../support/fake-kube-api';

const REVISION = '0123456789abcdef';
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

interface FakeVm {
  readonly name: string;
  /** The revision on the VM's template (what the deploy applied). */
  readonly template?: string;
  /** The revision its VMI runs; undefined: no VMI. */
  readonly running?: string;
  readonly restartRequired?: boolean;
  /** A VMI made before revisions were written: there, with no revision. */
  readonly legacy?: boolean;
  /** A replacement cut short: the VM stopped, or still marked as being replaced. */
  readonly halted?: boolean;
  /** The roll's mark on a VM it is replacing: still stopping, or started on the revision. */
  readonly replacing?: 'stopping' | 'started';
}

/**
 * A provider API server holding one pool's VMs and VMIs, and the user data Secrets of surges whose VMs are gone
 * (`endedSurges`, their names: a surge's end cut short after its VM went); every call recorded.
 */
async function provider(vms: FakeVm[], endedSurges: string[] = []): Promise<{ kubeconfig: string; calls: string[] }> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/apis/kubevirt.io/v1/namespaces/acme-web/virtualmachines' && req.method === 'GET') {
      // The pool's VMs in its tenant cluster: another cluster's pool of the same name may share the namespace.
      expect(url.searchParams.get('labelSelector')).toBe('metalslice.io/pool=web,metalslice.io/cluster=shop');
      return send(200, {
        metadata: {},
        items: vms.map((vm) => ({
          metadata: {
            name: vm.name,
            namespace: 'acme-web',
            labels: { 'metalslice.io/pool': 'web', 'metalslice.io/cluster': 'shop' },
            annotations: vm.replacing ? { 'metalslice.io/replacing': `${REVISION}:${vm.replacing}` } : {},
          },
          spec: {
            runStrategy: vm.halted ? 'Halted' : 'Always',
            template: { metadata: { annotations: { 'metalslice.io/revision': vm.template ?? REVISION } }, spec: {} },
          },
          status: { conditions: vm.restartRequired ? [{ type: 'RestartRequired', status: 'True' }] : [] },
        })),
      });
    }
    if (url.pathname === '/api/v1/namespaces/acme-web/secrets' && req.method === 'GET') {
      expect(url.searchParams.get('labelSelector')).toBe('metalslice.io/surge-of=web');
      return send(200, { metadata: {}, items: endedSurges.map((n) => ({ metadata: { name: `${n}-cloudinit` } })) });
    }
    const secret = /^\/api\/v1\/namespaces\/acme-web\/secrets\/([^/]+)$/.exec(url.pathname);
    if (secret && endedSurges.some((n) => `${n}-cloudinit` === secret[1]))
      return send(200, { metadata: { name: secret[1], labels: { 'metalslice.io/surge-of': 'web' } } });
    if (req.method === 'PATCH' && /^\/apis\/kubevirt\.io\/v1\/namespaces\/acme-web\/virtualmachines\/[^/]+$/.test(url.pathname)) return send(200, {});
    const vmi = /^\/apis\/kubevirt\.io\/v1\/namespaces\/acme-web\/virtualmachineinstances\/([^/]+)$/.exec(url.pathname);
    const found = vmi ? vms.find((v) => v.name === vmi[1]) : undefined;
    if (vmi && req.method === 'PATCH' && found?.legacy) {
      // The roll marks a VMI from before revisions with the one it runs, so a later revision replaces it.
      return send(200, { metadata: { name: found.name, annotations: { 'metalslice.io/revision': REVISION } } });
    }
    if (vmi && req.method === 'GET') {
      if (found?.running === undefined && !found?.restartRequired && !found?.legacy) return send(404, { kind: 'Status', message: 'not found' });
      const annotations = found.running === undefined ? {} : { 'metalslice.io/revision': found.running };
      return send(200, { metadata: { name: found.name, uid: `uid-${found.name}`, annotations } });
    }
    send(404, { message: 'no such path' });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { kubeconfig: kubeconfigForServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), calls };
}

/** A tenant API server that publishes `ca` in kube-public/cluster-info; every call recorded. */
async function tenant(ca: string): Promise<{ kubeconfig: string; calls: string[] }> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (req.url?.startsWith('/api/v1/nodes/')) {
      res.end(JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }));
      return;
    }
    const kubeconfig = `clusters:\n- cluster:\n    certificate-authority-data: ${Buffer.from(ca).toString('base64')}\n    server: https://10.0.0.10:6443\n  name: ""\n`;
    res.end(JSON.stringify({ data: { kubeconfig } }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { kubeconfig: kubeconfigForServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), calls };
}

const options = (p: { kubeconfig: string }, t: { kubeconfig: string }, extra: Partial<RollOptions> = {}): RollOptions => ({
  namespace: 'acme-web',
  pool: 'web',
  cluster: 'shop',
  revision: REVISION,
  maxSurge: 1,
  maxUnavailable: 0,
  drainTimeout: '1m',
  clusterCaHash: caCertHash(EXAMPLE_CA),
  kubeconfig: p.kubeconfig,
  tenantKubeconfig: t.kubeconfig,
  interval: 0.05,
  ...extra,
});

describe('metalslice roll-nodes decides from the clusters', () => {
  it('a pool whose nodes all run the revision (a VMI from before revisions, none yet) is done after reads, and the tenant cluster is never asked', async () => {
    const p = await provider([{ name: 'web-0', running: REVISION }, { name: 'web-1', legacy: true }, { name: 'web-2' }]);
    const unreachable = { kubeconfig: kubeconfigForServer('http://127.0.0.1:1') };
    const { out, io } = ioSink();
    expect(await runRollNodes(options(p, unreachable), io)).toBe(0);
    expect(out.stdout).toBe(`roll-nodes: pool web: all 3 node(s) run revision ${REVISION}\n`);
    // Reads, and the legacy VMI marked with the revision it runs.
    expect(p.calls.filter((c) => !c.startsWith('GET '))).toEqual(['PATCH /apis/kubevirt.io/v1/namespaces/acme-web/virtualmachineinstances/web-1']);
  });

  it('a surge whose end was cut short after its VM went (its Secret left) has its Node and Secret deleted, in the cluster the nodes joined, even when every node runs the revision', async () => {
    const t = await tenant(EXAMPLE_CA);
    const p = await provider([{ name: 'web-0', running: REVISION }], [surgeName('web', 0)]);
    const { out, io } = ioSink();
    expect(await runRollNodes(options(p, t), io)).toBe(0);
    expect(out.stdout).toContain(`surge ${surgeName('web', 0)}: its end, cut short, finished`);
    // The tenant checked first, then the Node deleted; then the Secret, and nothing else written.
    expect(t.calls.filter((c) => !c.startsWith('GET ')).concat(p.calls.filter((c) => !c.startsWith('GET ')))).toEqual([
      `DELETE /api/v1/nodes/${surgeName('web', 0)}`,
      `DELETE /api/v1/namespaces/acme-web/secrets/${surgeName('web', 0)}-cloudinit`,
    ]);
    expect(t.calls[0]).toBe('GET /api/v1/namespaces/kube-public/configmaps/cluster-info');
  });

  it('a VMI from before revisions that KubeVirt staged a change for is replaced: the tenant is checked first, and another cluster stops it', async () => {
    const t = await tenant('-----BEGIN CERTIFICATE-----\nnot the one\n-----END CERTIFICATE-----\n');
    const p = await provider([{ name: 'web-0', running: undefined, restartRequired: true }]);
    const { out, io } = ioSink();
    // Staged: web-0 is to be replaced, so the tenant is read first, and it is not the cluster the nodes joined.
    expect(await runRollNodes(options(p, t), io)).toBe(1);
    expect(out.stderr).toContain('publishes no CA in kube-public/cluster-info');
    expect(out.stderr).toContain('deploy again to finish the roll');
    expect(p.calls.filter((c) => !c.startsWith('GET '))).toEqual([]);
  });

  it.each<[FakeVm, string]>([
    [{ name: 'web-1', halted: true }, 'stopped (runStrategy Halted) with no VMI'],
    [{ name: 'web-1', running: REVISION, replacing: 'stopping' }, 'started again (by the deploy) on its old disk, still marked stopping'],
  ])('a replacement cut short is replaced again, not taken for done: %j, %s', async (vm) => {
    const t = await tenant('-----BEGIN CERTIFICATE-----\nnot the one\n-----END CERTIFICATE-----\n');
    const p = await provider([{ name: 'web-0', running: REVISION }, vm]);
    const { out, io } = ioSink();
    // There is work, so the tenant is read first (and here it is not the cluster the nodes joined).
    expect(await runRollNodes(options(p, t), io)).toBe(1);
    expect(out.stderr).toContain('kube-public/cluster-info');
    expect(t.calls).toEqual(['GET /api/v1/namespaces/kube-public/configmaps/cluster-info']);
  });

  it('a node the roll had started on the revision when it was cut short is waited for and unmarked, not replaced again', async () => {
    const t = await tenant(EXAMPLE_CA);
    const p = await provider([
      { name: 'web-0', running: REVISION },
      { name: 'web-1', running: REVISION, replacing: 'started' },
    ]);
    const { io } = ioSink();
    expect(await runRollNodes(options(p, t), io)).toBe(0);
    expect(t.calls).toContain('GET /api/v1/nodes/web-1');
    expect(p.calls.filter((c) => !c.startsWith('GET '))).toEqual(['PATCH /apis/kubevirt.io/v1/namespaces/acme-web/virtualmachines/web-1']);
  });

  it("leaves the pool's VMs the deploy no longer declares (being removed) alone", async () => {
    const p = await provider([
      { name: 'web-0', running: REVISION },
      { name: 'web-1', template: 'ffffffffffffffff', running: 'ffffffffffffffff' },
    ]);
    const { out, io } = ioSink();
    expect(await runRollNodes(options(p, { kubeconfig: kubeconfigForServer('http://127.0.0.1:1') }, { nodes: ['web-0'] }), io)).toBe(0);
    expect(out.stdout).toContain('all 1 node(s) run revision');
  });

  it('property: a surge name is a DNS label that no node of any pool can have (theirs end in their index)', () => {
    const pool = fc.stringMatching(/^[a-z]([a-z0-9-]{0,54}[a-z0-9])?$/);
    fc.assert(
      fc.property(pool, pool, fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999 }), (a, b, k, i) => {
        const name = surgeName(a, k);
        expect(name).toMatch(/^[a-z]([a-z0-9-]*[a-z0-9])?$/);
        expect(name.length).toBeLessThanOrEqual(63);
        expect(name.endsWith(`-${k}-surge`)).toBe(true);
        expect(name).not.toBe(`${b}-${i}`);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to roll a pool whose VMs the deploy has not brought to the revision, before any write', async () => {
    const t = await tenant(EXAMPLE_CA);
    const p = await provider([
      { name: 'web-0', running: 'ffffffffffffffff' },
      { name: 'web-1', template: 'ffffffffffffffff', running: 'ffffffffffffffff' },
    ]);
    const { out, io } = ioSink();
    expect(await runRollNodes(options(p, t), io)).toBe(1);
    expect(out.stderr).toContain(
      `VM web-1 is at revision ffffffffffffffff, not ${REVISION}: the deploy applies every VM of the pool before it rolls; deploy again`,
    );
    expect(p.calls.filter((c) => !c.startsWith('GET '))).toEqual([]);
    expect(t.calls).toEqual([]);
  });

  it.each([
    [{ revision: 'abc' }, '--revision must be 16 lower-case hex digits'],
    [{ maxSurge: 0, maxUnavailable: 0 }, '--max-unavailable is 0 with --max-surge 0: no node could ever be replaced; allow one surge node (--max-surge 1)'],
    [{ maxSurge: -1 }, `--max-surge -1 is not a whole number of nodes from 0 to ${MAX_ROLLOUT_NODES}`],
    [{ maxUnavailable: MAX_ROLLOUT_NODES + 1 }, `--max-unavailable ${MAX_ROLLOUT_NODES + 1} is not a whole number of nodes from 0 to ${MAX_ROLLOUT_NODES}`],
    [{ joinTimeout: '0s' }, '--join-timeout "0s" gives a node no time to boot and join'],
    [{ interval: 601 }, '--interval must be a number of seconds above 0 and at most 600'],
    [{ namespace: 'Bad_NS' }, '--namespace'],
    [{ drainTimeout: 'soon' }, '--drain-timeout "soon" is not a duration'],
    [{ clusterCaHash: 'sha256:xyz' }, '--cluster-ca-hash must be sha256: and 64 lower-case hex digits'],
  ])('bad options are a usage error naming the flag, before any request: %j', async (bad, message) => {
    const p = await provider([]);
    const { out, io } = ioSink();
    expect(await runRollNodes(options(p, p, bad), io)).toBe(2);
    expect(out.stderr).toContain(message);
    expect(p.calls).toEqual([]);
  });
});
