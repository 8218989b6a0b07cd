// `metalslice wait-quota` against a fake API server that answers a ResourceQuota's reads from a script: the quota
// controller's first count (status.hard, then status.used of a CRD it has not seen yet), a refusal, a quota that is
// not there. Whether a quota's accounting is what ResourceQuota admission waits for is judged on the real API server
// (test/e2e: a one-stack config app creates a quota and its VMs in one apply).
import { afterEach, describe, expect, it } from '@jest/globals';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { AddressInfo } from 'net';
import { runWaitQuota, unaccounted, waitQuotaProblem } from '../../constructs/cli/wait-quota';

const QUOTA_PATH = '/api/v1/namespaces/acme-team-a/resourcequotas/metalslice';
const HARD = { 'count/virtualmachines.kubevirt.io': '40', 'requests.cpu': '256', 'requests.memory': '1Ti' };

/** One answer of the fake: a status and a body. */
type Answer = [number, unknown];

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A fake API server that answers the quota's reads with `answers` in turn (the last one again and again). */
async function fake(answers: Answer[]): Promise<{ kubeconfig: string; reads: () => number; paths: string[] }> {
  let reads = 0;
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    const [status, body] = req.url === QUOTA_PATH ? answers[Math.min(reads++, answers.length - 1)] : [404, { message: 'no such path' }];
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const kubeconfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wait-quota-')), 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: p',
      'contexts: [{name: p, context: {cluster: p, user: p}}]',
      `clusters: [{name: p, cluster: {server: "http://127.0.0.1:${port}"}}]`,
      'users: [{name: p, user: {}}]',
      '',
    ].join('\n'),
  );
  return { kubeconfig, reads: () => reads, paths };
}

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t) } };
}

const quota = (status?: { hard?: Record<string, string>; used?: Record<string, string> }) => ({ spec: { hard: HARD }, ...(status ? { status } : {}) });

describe('metalslice wait-quota', () => {
  it("waits through the quota's absence, its first count and a CRD counted late, then exits 0", async () => {
    const used = { 'requests.cpu': '0', 'requests.memory': '0' };
    const f = await fake([
      [404, { message: 'not found' }],
      [200, quota()],
      [200, quota({ hard: HARD, used })],
      [503, { message: 'restarting' }],
      [200, quota({ hard: HARD, used: { ...used, 'count/virtualmachines.kubevirt.io': '0' } })],
    ]);
    const { out, io: sink } = io();
    expect(await runWaitQuota('metalslice', { namespace: 'acme-team-a', kubeconfig: f.kubeconfig, interval: 0.02 }, sink)).toBe(0);
    expect(f.reads()).toBe(5);
    expect(out.stdout).toBe('wait-quota: ResourceQuota acme-team-a/metalslice is accounted\n');
    expect(out.stderr).toBe('');
  });

  it('names each resource not yet accounted when the time is up, and exits 1', async () => {
    const f = await fake([[200, quota({ hard: { ...HARD, 'requests.cpu': '128' }, used: { 'requests.cpu': '0', 'requests.memory': '0' } })]]);
    const { out, io: sink } = io();
    expect(await runWaitQuota('metalslice', { namespace: 'acme-team-a', kubeconfig: f.kubeconfig, timeout: '1s', interval: 0.05 }, sink)).toBe(1);
    expect(out.stderr).toContain('ResourceQuota acme-team-a/metalslice accounted by the quota controller did not happen in 1 s');
    expect(out.stderr).toContain('count/virtualmachines.kubevirt.io (no status.used), requests.cpu (status.hard "128", spec.hard "256")');
    expect(out.stderr).toContain('resourcequota controller');
    expect(out.stderr).not.toContain('requests.memory');
  });

  it('stops at a refusal with the reason and the permission it needs (exit 1)', async () => {
    const f = await fake([[403, { message: 'resourcequotas "metalslice" is forbidden: User "ci" cannot get resource "resourcequotas"' }]]);
    const { out, io: sink } = io();
    expect(await runWaitQuota('metalslice', { namespace: 'acme-team-a', kubeconfig: f.kubeconfig, interval: 0.02 }, sink)).toBe(1);
    expect(f.reads()).toBe(1);
    expect(out.stderr).toMatch(/cannot read ResourceQuota acme-team-a\/metalslice: HTTP 403, .*forbidden.*needs get on resourcequotas there/);
  });

  it.each([
    ['a name that is no object name', 'Quota; rm -rf /', { namespace: 'acme-team-a' }, /^metalslice wait-quota: the quota name "Quota; rm -rf \/" /],
    ['no namespace', 'metalslice', {}, /--namespace is required/],
    ['a namespace with a path in it', 'metalslice', { namespace: '../../nodes' }, /^metalslice wait-quota: --namespace "\.\.\/\.\.\/nodes" /],
    [
      'a timeout that is no duration',
      'metalslice',
      { namespace: 'a', timeout: '5 minutes' },
      /--timeout "5 minutes" is not a duration: write whole hours, minutes and seconds, like 15m or 1h30m/,
    ],
    [
      'a zero timeout',
      'metalslice',
      { namespace: 'a', timeout: '0s' },
      /--timeout "0s" gives the quota controller no time to account the quota: give it at least its first count, like 5m/,
    ],
    ['an interval of no time', 'metalslice', { namespace: 'a', interval: 0 }, /--interval must be a number of seconds above 0/],
    ['a kubeconfig that is not there', 'metalslice', { namespace: 'a', kubeconfig: '/nonexistent/kubeconfig' }, /\/nonexistent\/kubeconfig/],
  ])('refuses %s before it reads anything (exit 2)', async (_what, name, opts, message) => {
    const f = await fake([[200, quota({ hard: HARD, used: HARD })]]);
    const { out, io: sink } = io();
    expect(await runWaitQuota(name, { kubeconfig: f.kubeconfig, ...opts }, sink)).toBe(2);
    expect(out.stderr).toMatch(message);
    expect(f.paths).toEqual([]);
  });
});

describe('unaccounted', () => {
  // Amounts that are often whole units, so the same amount has more than one spelling.
  const amount = fc
    .tuple(fc.bigInt({ min: 0n, max: 1n << 20n }), fc.constantFrom(1n, 1000n, 1024n, 1000n ** 2n, 1024n ** 2n, 1024n ** 3n))
    .map(([n, unit]) => n * unit);
  // The same amount as the API server may write it back: plain, or in the largest binary or decimal unit that divides it.
  const spellings = (n: bigint): string[] => {
    const out = [String(n)];
    for (const [suffix, unit] of [
      ['Ki', 1024n],
      ['Mi', 1024n ** 2n],
      ['Gi', 1024n ** 3n],
      ['k', 1000n],
      ['M', 1000n ** 2n],
    ] as const)
      if (n !== 0n && n % unit === 0n) out.push(`${n / unit}${suffix}`);
    return out;
  };

  it('is empty exactly when every limit is in status.hard as the same amount, however written, and in status.used', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('requests.cpu', 'requests.memory', 'requests.storage', 'count/virtualmachines.kubevirt.io', 'pods'), amount, {
          minKeys: 1,
        }),
        fc.nat(),
        fc.option(fc.constantFrom('hard-missing', 'hard-other', 'used-missing'), { nil: undefined }),
        (limits, pick, fault) => {
          const keys = Object.keys(limits).sort();
          const spec = Object.fromEntries(keys.map((k) => [k, String(limits[k])]));
          const hard = Object.fromEntries(
            keys.map((k, i) => {
              const s = spellings(limits[k]);
              return [k, s[(pick + i) % s.length]];
            }),
          );
          const used = Object.fromEntries(keys.map((k) => [k, '0']));
          const broken = keys[pick % keys.length];
          if (fault === 'hard-missing') delete hard[broken];
          if (fault === 'hard-other') hard[broken] = String(limits[broken] + 1n);
          if (fault === 'used-missing') delete used[broken];
          const missing = unaccounted({ spec: { hard: spec }, status: { hard, used } });
          expect(missing.map((m) => m.split(' ')[0])).toEqual(fault === undefined ? [] : [broken]);
        },
      ),
    );
  });

  it('counts a quota with no limits as accounted, and a value that is no quantity as not', () => {
    expect(unaccounted({ spec: {} })).toEqual([]);
    expect(unaccounted({ spec: { hard: { pods: '10' } }, status: { hard: { pods: 'ten' }, used: { pods: '0' } } })).toEqual([
      'pods (status.hard "ten", spec.hard "10")',
    ]);
  });
});

describe('waitQuotaProblem', () => {
  it('passes what a stack writes', () => {
    expect(waitQuotaProblem('metalslice', { namespace: 'acme-team-a' })).toBeUndefined();
    expect(waitQuotaProblem('metalslice', { namespace: 'acme-team-a', timeout: '1h30m', interval: 2 })).toBeUndefined();
  });
});
