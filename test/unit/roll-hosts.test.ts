// `metalslice roll-hosts` against a fake provider API server: what it decides from the clusters alone. A pool whose
// claims all carry the revision is two reads and never touches the tenant cluster; a claim from before revisions on
// the pool's image is stamped, not replaced; a claim held for a node the deploy no longer declares stops the roll
// before any write; the claim template and options are checked, hostile text never thrown. The roll itself (surge,
// drains, releases, a killed apply) runs on a real API server in test/e2e/host-rollout.test.ts.
import { afterEach, describe, expect, it } from '@jest/globals';
import * as http from 'http';
import { AddressInfo } from 'net';
import fc from 'fast-check';
import { HostRollOptions, parseClaimTemplate, runRollHosts } from '../../constructs/cli/roll-hosts';
import { caCertHash } from '../../constructs/render/cloud-init';
import { EXAMPLE_CA } from '../support/models';
import { ioSink, kubeconfigForServer } from '../support/fake-kube-api';

const REVISION = '0123456789abcdef';
const URL_NOW = 'https://images.example/node-2.raw';
const CLAIMS = '/apis/metal3.io/v1alpha1/namespaces/shop-metal/hostclaims';
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

interface FakeClaim {
  readonly name: string;
  /** Its revision label; undefined: made before revisions were written. */
  readonly revision?: string;
  readonly image?: string;
}

/** A provider API server holding one pool's claims and the user data Secrets a roll holds; every call recorded. */
async function provider(claims: FakeClaim[], held: string[] = []): Promise<{ kubeconfig: string; calls: string[] }> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === CLAIMS && req.method === 'GET') {
      expect(url.searchParams.get('labelSelector')).toBe('metalslice.io/pool=gpu,metalslice.io/cluster=shop');
      return send(200, {
        metadata: {},
        items: claims.map((c) => ({
          metadata: {
            name: c.name,
            labels: { 'metalslice.io/pool': 'gpu', 'metalslice.io/cluster': 'shop', ...(c.revision ? { 'metalslice.io/revision': c.revision } : {}) },
          },
          spec: { image: { url: c.image ?? URL_NOW }, poweredOn: true },
        })),
      });
    }
    if (url.pathname === '/api/v1/namespaces/shop-metal/configmaps' && req.method === 'GET') {
      expect(url.searchParams.get('labelSelector')).toBe('metalslice.io/pool=gpu,metalslice.io/stopped-by-roll=true');
      return send(200, { metadata: {}, items: held.map((name) => ({ metadata: { name } })) });
    }
    if (url.pathname === '/api/v1/namespaces/shop-metal/secrets' && req.method === 'GET') {
      expect(url.searchParams.get('labelSelector')).toBe('metalslice.io/surge-of=gpu');
      return send(200, { metadata: {}, items: [] });
    }
    if (req.method === 'PATCH' && url.pathname.startsWith(`${CLAIMS}/`)) return send(200, {});
    if (req.method === 'DELETE' && url.pathname.startsWith('/api/v1/namespaces/shop-metal/configmaps/')) return send(200, {});
    send(404, { message: 'no such path' });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { kubeconfig: kubeconfigForServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), calls };
}

/** A tenant API server that records every call (a roll with nothing to do makes none). */
async function tenant(): Promise<{ kubeconfig: string; calls: string[] }> {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { kubeconfig: kubeconfigForServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), calls };
}

const TEMPLATE = JSON.stringify({ labels: { 'metalslice.io/pool': 'gpu' }, spec: { image: { url: URL_NOW }, poweredOn: true, hostSelector: {} } });

const options = (p: { kubeconfig: string }, t: { kubeconfig: string }, extra: Partial<HostRollOptions> = {}): HostRollOptions => ({
  namespace: 'shop-metal',
  pool: 'gpu',
  cluster: 'shop',
  nodes: ['shop-gpu-0', 'shop-gpu-1'],
  revision: REVISION,
  claim: TEMPLATE,
  maxSurge: 1,
  maxUnavailable: 0,
  drainTimeout: '1m',
  clusterCaHash: caCertHash(EXAMPLE_CA),
  kubeconfig: p.kubeconfig,
  tenantKubeconfig: t.kubeconfig,
  interval: 0.05,
  ...extra,
});

describe('roll-hosts decides from the claims alone', () => {
  it('a pool whose claims carry the revision: two reads, no write, the tenant cluster untouched', async () => {
    const p = await provider([
      { name: 'shop-gpu-0', revision: REVISION },
      { name: 'shop-gpu-1', revision: REVISION },
    ]);
    const t = await tenant();
    const { out, io } = ioSink();
    expect(await runRollHosts(options(p, t), io)).toBe(0);
    expect(out.stdout).toBe(`roll-hosts: pool gpu: all 2 host(s) run revision ${REVISION}\n`);
    expect(p.calls).toEqual([`GET ${CLAIMS}`, 'GET /api/v1/namespaces/shop-metal/configmaps', 'GET /api/v1/namespaces/shop-metal/secrets']);
    expect(t.calls).toEqual([]);
  });

  it('a claim from before revisions, on the pool image, is stamped with the revision and not replaced; one on another image would be', async () => {
    const p = await provider([{ name: 'shop-gpu-0' }, { name: 'shop-gpu-1', revision: REVISION }]);
    const t = await tenant();
    const { out, io } = ioSink();
    expect(await runRollHosts(options(p, t), io)).toBe(0);
    expect(p.calls).toContain(`PATCH ${CLAIMS}/shop-gpu-0`);
    expect(out.stdout).toMatch(/shop-gpu-0: made before revisions were written, on the pool's image: stamped/);
    expect(t.calls).toEqual([]);

    // On another image: a node to replace, so the roll goes to the tenant cluster (which fails here) before any claim write.
    const q = await provider([
      { name: 'shop-gpu-0', image: 'https://images.example/node-1.raw' },
      { name: 'shop-gpu-1', revision: REVISION },
    ]);
    const u = await tenant();
    const second = ioSink();
    expect(await runRollHosts(options(q, u), second.io)).toBe(1);
    expect(q.calls.filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(u.calls.length).toBeGreaterThan(0);
  });

  it("a hold for a node the deploy no longer declares is let go, and nothing else is touched (the node's end is the deploy's)", async () => {
    const p = await provider([{ name: 'shop-gpu-0', revision: REVISION }], ['shop-gpu-7-roll-hold']);
    const t = await tenant();
    const { out, io } = ioSink();
    expect(await runRollHosts(options(p, t, { nodes: ['shop-gpu-0'] }), io)).toBe(0);
    expect(out.stdout).toMatch(/shop-gpu-7: no longer declared; its hold let go/);
    expect(p.calls.filter((c) => !c.startsWith('GET'))).toEqual(['DELETE /api/v1/namespaces/shop-metal/configmaps/shop-gpu-7-roll-hold']);
    expect(t.calls).toEqual([]);
  });

  it('bad options and a bad claim template are usage errors naming the option, before any call', async () => {
    const p = await provider([]);
    const t = await tenant();
    for (const [extra, said] of [
      [{ claim: '{' }, /--claim is not JSON/],
      [{ claim: '{"labels":{},"spec":{"image":{}}}' }, /--claim spec.image.url must be a URL/],
      [{ claim: '{"labels":{},"spec":{"image":{"url":"u"},"userData":{}}}' }, /--claim spec.userData is a node's own/],
      [{ revision: 'nope' }, /--revision must be 16 lower-case hex digits/],
      [{ pool: 'Bad_Pool' }, /--pool /],
    ] as const) {
      const { out, io } = ioSink();
      expect(await runRollHosts(options(p, t, extra as Partial<HostRollOptions>), io)).toBe(2);
      expect(out.stderr).toMatch(said);
    }
    expect([...p.calls, ...t.calls]).toEqual([]);
  });
});

describe('the claim template parser', () => {
  it('never throws on hostile text, and accepts exactly an object with labels, spec and an image URL', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const parsed = parseClaimTemplate(text);
          if (typeof parsed === 'string') return;
          expect(typeof parsed.spec.image.url).toBe('string');
          expect(parsed.spec.image.url).not.toBe('');
          expect(Object.values(parsed.labels).every((v) => typeof v === 'string')).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), fc.webUrl(), fc.boolean(), (labels, url, on) => {
        const parsed = parseClaimTemplate(JSON.stringify({ labels, spec: { image: { url }, poweredOn: on } }));
        expect(parsed).toEqual({ labels, spec: { image: { url }, poweredOn: on } });
      }),
    );
  });
});
