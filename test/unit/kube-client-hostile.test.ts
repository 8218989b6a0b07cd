// metalslice's own Kubernetes client against what a hostile or broken cluster, kubeconfig or network gives it:
// a list that never ends, credentials that are not what they must be, a proxy, a redirect, and the settings a
// careful client warns about. The fake API server and proxy are test/support/fake-kube-api.ts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { KubeApiError, KubeClient, KubeClientOptions, MAX_LIST_OBJECTS, MAX_LIST_PAGES } from '../../constructs/cli/kube/client';
import { findTarget, KubeconfigError, KubeEnv, KubeTarget } from '../../constructs/cli/kube/config';
import { REPO_ROOT } from '../support/models';
import { FakeKubeApi, FakeProxy, makePem } from '../support/fake-kube-api';

const SECRET = 'sEcReT-hostile-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-hostile-'));
const pem = makePem();
const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};
const kenv: KubeEnv = { env: {}, home: path.join(dir, 'no-home'), serviceAccountDir: path.join(dir, 'no-sa') };
const kubeconfig = (name: string, user: Record<string, unknown>, cluster: Record<string, unknown> = { server: 'https://127.0.0.1:1' }): string =>
  write(
    `${name}/config`,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
const refusal = (file: string): KubeconfigError => {
  try {
    findTarget({ kubeconfig: file }, kenv);
  } catch (e) {
    if (e instanceof KubeconfigError) return e;
    throw e;
  }
  throw new Error('accepted');
};
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('credentials that are not what they must be: exit 2, naming the field, never the content', () => {
  write('files/two-lines', `${SECRET}\nsecond-line\n`);
  write('files/control', `${SECRET}\u0007\n`);
  write('files/token-not-pem', `${SECRET}\n`);
  write('files/garbage.pem', `-----BEGIN CERTIFICATE-----\n${SECRET}\n-----END CERTIFICATE-----\n`);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a tokenFile of two lines', { tokenFile: '../files/two-lines' }, /tokenFile .*two-lines is not a token \(it has a line break\): a token is one line/],
    ['a tokenFile with a control character', { tokenFile: '../files/control' }, /tokenFile .*control is not a token \(it has a control character\)/],
    ['tokenFile: /proc/self/environ', { tokenFile: '/proc/self/environ' }, /tokenFile \/proc\/self\/environ is not a token/],
    ['an inline token with a line break', { token: `${SECRET}\nX-Injected: 1` }, /: token is not a token \(it has a line break\)/],
    [
      'client-key: /proc/self/environ',
      { 'client-certificate': pem.certFile, 'client-key': '/proc/self/environ' },
      /client-key \/proc\/self\/environ is not a PEM private key, not encrypted .*\(it is not PEM\)/,
    ],
    [
      'a client-certificate that is a token',
      { 'client-certificate': '../files/token-not-pem', 'client-key': pem.keyFile },
      /client-certificate .*token-not-pem is not a PEM certificate .*\(it is not PEM\)/,
    ],
    [
      'a client-certificate-data that is PEM armour around garbage',
      { 'client-certificate-data': Buffer.from(fs.readFileSync(path.join(dir, 'files/garbage.pem'))).toString('base64'), 'client-key': pem.keyFile },
      /client-certificate-data is not a PEM certificate .*\(it does not load\)/,
    ],
    [
      'a client-key-data that is a certificate',
      { 'client-certificate': pem.certFile, 'client-key-data': Buffer.from(pem.cert).toString('base64') },
      /client-key-data is not a PEM private key/,
    ],
  ];
  it.each(cases)('%s', (name, user, message) => {
    const e = refusal(kubeconfig(name.replace(/\W+/g, '-'), user));
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(message);
    expect(e.message).toMatch(/^user "u" of context "x" in /);
    expect(e.message).not.toContain(SECRET);
    expect(e.message).not.toContain('PATH=');
  });

  it('a certificate-authority that is /proc/self/environ', () => {
    const e = refusal(kubeconfig('ca-environ', { token: SECRET }, { server: 'https://127.0.0.1:1', 'certificate-authority': '/proc/self/environ' }));
    expect([e.exitCode, e.message]).toEqual([
      2,
      expect.stringMatching(/^cluster "c" of .*: certificate-authority \/proc\/self\/environ is not PEM certificates/),
    ]);
  });

  // Through the CLI as a user runs it: before, the header or the TLS decoder failed inside Node (exit 70).
  it.each([
    ['tokenFile of two lines', { tokenFile: '../files/two-lines' }],
    ['client-key: /proc/self/environ', { 'client-certificate': pem.certFile, 'client-key': '/proc/self/environ' }],
  ])('metalslice inventory with a %s: exit 2 and the field named, not 70', (name, user) => {
    const file = kubeconfig(`cli-${name.replace(/\W+/g, '-')}`, user);
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'metalslice'), 'inventory', '--kubeconfig', file], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: path.join(dir, 'no-home') },
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^metalslice inventory: user "u" of context "x" in .* is not (a token|a PEM private key)/);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('requests against a hostile API server', () => {
  const api = new FakeKubeApi();
  const elsewhere = new FakeKubeApi();
  let base = '';
  beforeAll(async () => {
    base = await api.start();
    elsewhere.redirectTo = '';
    api.redirectTo = (await elsewhere.start()).replace(/\/prefix$/, '');
  });
  afterAll(async () => {
    await api.stop();
    await elsewhere.stop();
  });
  const target = (extra: Partial<KubeTarget> = {}): KubeTarget => ({
    source: 'kc',
    context: 'x',
    server: base,
    insecureSkipTlsVerify: false,
    who: 'w',
    ...extra,
  });
  const client = (extra: Partial<KubeTarget> = {}, opts: KubeClientOptions = {}) =>
    new KubeClient(target(extra), undefined, { env: {}, warn: () => undefined, ...opts });

  it(`stops following continue tokens after ${MAX_LIST_PAGES} pages, naming the bound`, async () => {
    api.seen.length = 0;
    await expect(client().list('/endless')).rejects.toThrow(
      new KubeApiError(
        `${base} answered /endless with more than 1,000 pages (each with a continue token): metalslice reads at most 1,000 pages of a list; is server the API server?`,
      ),
    );
    expect(api.seen).toHaveLength(MAX_LIST_PAGES);
  }, 60_000);

  it(`stops at ${MAX_LIST_OBJECTS.toLocaleString('en-US')} objects, naming the bound`, async () => {
    api.seen.length = 0;
    await expect(client().list('/crowded')).rejects.toThrow(/answered \/crowded with more than 150,000 objects: metalslice reads at most 150,000/);
    expect(api.seen).toHaveLength(MAX_LIST_OBJECTS / 10_000 + 1);
  }, 60_000);

  it('does not follow a redirect, so the token never goes to another host', async () => {
    elsewhere.seen.length = 0;
    const e = (await client({ token: SECRET })
      .list('/redirect')
      .catch((x: unknown) => x)) as KubeApiError;
    expect(e.status).toBe(302);
    expect(elsewhere.seen).toEqual([]);
  });

  it('warns on stderr of a bearer token over plain http:// and of insecure-skip-tls-verify', async () => {
    const warnings: string[] = [];
    await client({ token: SECRET }, { warn: (m) => warnings.push(m) }).list('/nodes');
    await client({ insecureSkipTlsVerify: true }, { warn: (m) => warnings.push(m) }).list('/nodes');
    await client({}, { warn: (m) => warnings.push(m) }).list('/nodes');
    expect(warnings).toEqual([
      `context "x" in kc sends a bearer token over plain http:// to ${base}: anyone on the path can read it; use https://`,
      `context "x" in kc sets insecure-skip-tls-verify: the API server's certificate is not checked, so anyone on the path can pose as it; set certificate-authority instead`,
    ]);
    expect(warnings.join('\n')).not.toContain(SECRET);
  });
});

describe('proxies: HTTPS_PROXY, HTTP_PROXY, NO_PROXY and the cluster’s proxy-url are honoured', () => {
  const plain = new FakeKubeApi();
  const tls = new FakeKubeApi(pem);
  const proxy = new FakeProxy();
  let plainBase = '';
  let tlsBase = '';
  let proxyUrl = '';
  beforeAll(async () => {
    [plainBase, tlsBase, proxyUrl] = await Promise.all([plain.start(), tls.start(), proxy.start()]);
  });
  afterAll(async () => {
    await Promise.all([plain.stop(), tls.stop(), proxy.stop()]);
  });
  const list = (server: string, env: NodeJS.ProcessEnv, extra: Partial<KubeTarget> = {}) =>
    new KubeClient({ source: 'kc', server, insecureSkipTlsVerify: false, ca: Buffer.from(pem.cert), token: SECRET, who: 'w', ...extra }, undefined, {
      env,
      warn: () => undefined,
    }).list('/nodes');

  it('tunnels https through HTTPS_PROXY (CONNECT), the certificate still checked end to end', async () => {
    proxy.seen.length = 0;
    expect(await list(tlsBase, { HTTPS_PROXY: proxyUrl })).toEqual([{ n: 0 }, { n: 1 }]);
    const port = new URL(tlsBase).port;
    expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${port}`]);
    // Without the CA the tunnelled server is not trusted: the proxy does not stand in for the TLS check.
    await expect(list(tlsBase, { HTTPS_PROXY: proxyUrl }, { ca: undefined })).rejects.toThrow(/^cannot trust https:\/\/127\.0\.0\.1:\d+\/prefix/);
  });

  it('sends plain http through HTTP_PROXY (lower case too)', async () => {
    proxy.seen.length = 0;
    expect(await list(plainBase, { http_proxy: proxyUrl })).toEqual([{ n: 0 }, { n: 1 }]);
    expect(proxy.seen.map((s) => s.replace(/\?.*/, ''))).toEqual([`GET ${plainBase}/nodes`, `GET ${plainBase}/nodes`]);
  });

  it('goes around the proxy for a host in NO_PROXY, and through the proxy-url of the cluster whatever the environment says', async () => {
    proxy.seen.length = 0;
    expect(await list(tlsBase, { HTTPS_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' })).toHaveLength(2);
    expect(proxy.seen).toEqual([]);
    expect(await list(tlsBase, { HTTPS_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' }, { proxyUrl: `${proxyUrl}/` })).toHaveLength(2);
    expect(proxy.seen).toHaveLength(1);
  });

  it('refuses a proxy variable that is not an http(s) URL by name, without quoting it (exit 2)', async () => {
    for (const [value, message] of [
      [`socks5://u:${SECRET}@127.0.0.1:1080`, /^the environment: \$HTTPS_PROXY is a SOCKS proxy, which metalslice does not support/],
      [`not a url ${SECRET}`, /^the environment: \$HTTPS_PROXY is not a URL: write http:\/\/HOST:PORT$/],
    ] as const) {
      const e = (await list(tlsBase, { HTTPS_PROXY: value }).catch((x: unknown) => x)) as KubeconfigError;
      expect(e).toBeInstanceOf(KubeconfigError);
      expect([e.exitCode, e.message]).toEqual([2, expect.stringMatching(message)]);
      expect(e.message).not.toContain(SECRET);
    }
  });
});
