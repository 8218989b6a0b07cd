// metalslice's own Kubernetes client: kubeconfig found and merged as kubectl does, credentials as files or
// data, exec credential plugins, and requests that are bounded and timed out. The real API server is in
// test/e2e/inventory.test.ts; here, files, plugins and a plain HTTP server on loopback.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as http from 'http';
import { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { KubeApiError, KubeClient, MAX_RESPONSE_BYTES } from '../../constructs/cli/kube/client';
import { findTarget, KubeconfigError, KubeEnv, loadKubeconfigFiles, resolveContext } from '../../constructs/cli/kube/config';
import { runExecPlugin } from '../../constructs/cli/kube/exec';
import { makePem } from '../support/fake-kube-api';

const SECRET = 'sEcReT-tOkEn-0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-client-'));
const write = (name: string, text: string): string => {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
};
// A real certificate and key (openssl), for what must load as PEM.
const pem = makePem();
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const env = (vars: NodeJS.ProcessEnv = {}, home = path.join(dir, 'no-home')): KubeEnv => ({ env: vars, home, serviceAccountDir: path.join(dir, 'no-sa') });
const config = (doc: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'v1', kind: 'Config', ...doc });
const thrown = (f: () => unknown): KubeconfigError => {
  try {
    f();
  } catch (e) {
    if (e instanceof KubeconfigError) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('where the kubeconfig comes from (kubectl order)', () => {
  const a = write(
    'a/config',
    config({
      clusters: [{ name: 'c', cluster: { server: 'https://a.example:6443', 'certificate-authority': 'ca.pem' } }],
      users: [{ name: 'u', user: { token: 'from-a' } }],
      contexts: [{ name: 'shared', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'shared',
    }),
  );
  const b = write(
    'b/config',
    config({
      clusters: [
        { name: 'c', cluster: { server: 'https://b.example:6443' } },
        { name: 'd', cluster: { server: 'https://d.example' } },
      ],
      users: [{ name: 'u', user: { token: 'from-b' } }],
      contexts: [
        { name: 'shared', context: { cluster: 'd', user: 'u' } },
        { name: 'only-b', context: { cluster: 'd', user: 'u' } },
      ],
      'current-context': 'only-b',
    }),
  );
  write('a/ca.pem', pem.cert);

  it('$KUBECONFIG: the first file to name a cluster, user, context or current-context wins; relative paths are the file’s', () => {
    const t = findTarget({}, env({ KUBECONFIG: [a, path.join(dir, 'missing'), b].join(path.delimiter) }));
    expect(t).toMatchObject({ context: 'shared', server: 'https://a.example:6443', token: 'from-a' });
    expect(t.ca?.toString()).toMatch(/BEGIN CERTIFICATE/);
    expect(findTarget({ context: 'only-b' }, env({ KUBECONFIG: [a, b].join(path.delimiter) }))).toMatchObject({ server: 'https://d.example', token: 'from-a' });
    // Reversed, b's entries win.
    expect(findTarget({}, env({ KUBECONFIG: [b, a].join(path.delimiter) }))).toMatchObject({ context: 'only-b', server: 'https://d.example', token: 'from-b' });
  });

  it('--kubeconfig is the only file read; without it and $KUBECONFIG, ~/.kube/config', () => {
    expect(findTarget({ kubeconfig: b }, env({ KUBECONFIG: a })).context).toBe('only-b');
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
    fs.copyFileSync(b, path.join(home, '.kube', 'config'));
    expect(findTarget({}, env({}, home)).context).toBe('only-b');
  });

  it('in-cluster when no kubeconfig names a context: the service account token and CA', () => {
    const sa = path.join(dir, 'sa');
    write('sa/token', `${SECRET}\n`);
    write('sa/ca.crt', pem.cert);
    const t = findTarget(
      {},
      { env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, home: path.join(dir, 'no-home'), serviceAccountDir: sa },
    );
    expect(t).toMatchObject({ server: 'https://[fd00::1]:443', token: SECRET });
    expect(t.ca?.toString()).toBe(pem.cert);
  });

  it('nothing at all: exit 2, naming where it looked and the fix', () => {
    const e = thrown(() => findTarget({}, env()));
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(`no cluster in ${path.join(dir, 'no-home', '.kube', 'config')} (no such file): pass --kubeconfig FILE or set KUBECONFIG`);
  });
});

describe('what a context resolves to', () => {
  const target = (user: Record<string, unknown>, cluster: Record<string, unknown> = { server: 'https://k.example' }) =>
    resolveContext(
      loadKubeconfigFiles(
        write(
          'ctx/config',
          config({
            clusters: [{ name: 'c', cluster }],
            users: [{ name: 'u', user }],
            contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
            'current-context': 'x',
          }),
        ),
        env(),
      )!,
    );

  it('client certificate and key as files or as base64 data; a token from tokenFile', () => {
    write('ctx/tls.crt', pem.cert);
    write('ctx/tls.key', pem.key);
    write('ctx/token', `${SECRET}\n`);
    const files = target({ 'client-certificate': 'tls.crt', 'client-key': 'tls.key' });
    expect([files.cert?.toString(), files.key?.toString()]).toEqual([pem.cert, pem.key]);
    const data = target(
      { 'client-certificate-data': b64(pem.cert), 'client-key-data': b64(pem.key) },
      {
        server: 'https://k.example',
        'certificate-authority-data': b64(pem.cert),
        'tls-server-name': 'api',
        'insecure-skip-tls-verify': true,
        'proxy-url': 'http://user:pw@proxy.example:3128',
      },
    );
    expect([data.cert?.toString(), data.key?.toString(), data.ca?.toString(), data.tlsServerName, data.insecureSkipTlsVerify, data.proxyUrl]).toEqual([
      pem.cert,
      pem.key,
      pem.cert,
      'api',
      true,
      'http://user:pw@proxy.example:3128/',
    ]);
    expect(target({ tokenFile: 'token' }).token).toBe(SECRET);
  });

  it('refuses what it cannot do, naming the user, context and file and the fix, never the secrets', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ 'client-certificate': 'tls.crt' }, /client certificate but no key: give both/],
      [
        { 'client-key': 'missing.key', token: SECRET },
        /client-key .*missing\.key: cannot read the credential file: no such file \(ENOENT\).*relative to .*ctx\/config/,
      ],
      [{ 'client-key-data': `${SECRET}!*`, 'client-certificate-data': b64(pem.cert) }, /client-key-data is not base64/],
      [
        { 'auth-provider': { name: 'gcp', config: { 'access-token': SECRET } } },
        /auth-provider, which kubectl removed in 1\.26: use its exec credential plugin/,
      ],
      [{ username: 'admin', password: SECRET }, /basic auth .* removed in 1\.19/],
      [
        { exec: { command: 'x', apiVersion: 'client.authentication.k8s.io/v1alpha1' } },
        /exec\.apiVersion "client\.authentication\.k8s\.io\/v1alpha1" is not supported: use client\.authentication\.k8s\.io\/v1 or/,
      ],
    ];
    for (const [user, message] of cases) {
      const e = thrown(() => target(user));
      expect(e.message).toMatch(message);
      expect(e.message).toMatch(/user "u" of context "x" in .*ctx\/config/);
      expect(e.message).not.toContain(SECRET);
    }
    expect(thrown(() => target({}, { server: 'https://k.example', 'proxy-url': `socks5://u:${SECRET}@proxy:1080` })).message).toMatch(
      /^cluster "c" of context "x" in .*: proxy-url is a SOCKS proxy, which metalslice does not support: use an HTTP proxy \(CONNECT\)/,
    );
    expect(thrown(() => target({}, { server: 'https://k.example', 'proxy-url': `socks5://u:${SECRET}@proxy:1080` })).message).not.toContain(SECRET);
    expect(thrown(() => target({}, { server: 'ftp://k' })).message).toMatch(/cluster "c" of context "x" .*: server is not an http\(s\) URL/);
  });

  it('a kubeconfig with a syntax error is named with its line, and its text is not quoted', () => {
    const file = write('bad/config', `apiVersion: v1\nusers:\n  - name: u\n    user: {token: "${SECRET}\n`);
    const e = thrown(() => findTarget({ kubeconfig: file }, env()));
    expect(e.message).toMatch(new RegExp(`cannot read kubeconfig ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: `));
    expect(e.message).not.toContain(SECRET);
  });

  it('names the contexts there are when --context or current-context is unknown', () => {
    const file = write(
      'two/config',
      config({
        clusters: [{ name: 'c', cluster: { server: 'https://k' } }],
        contexts: [
          { name: 'p', context: { cluster: 'c' } },
          { name: 'q', context: { cluster: 'c', user: 'nobody' } },
        ],
      }),
    );
    expect(thrown(() => findTarget({ kubeconfig: file }, env())).message).toBe(
      `no current-context in ${file}; pass --context NAME (contexts: p, q) or run kubectl config use-context NAME`,
    );
    expect(thrown(() => findTarget({ kubeconfig: file, context: 'r' }, env())).message).toBe(`no context "r" in ${file}; contexts: p, q`);
    expect(thrown(() => findTarget({ kubeconfig: file, context: 'q' }, env())).message).toMatch(/names user "nobody", which the kubeconfig does not have/);
    expect(findTarget({ kubeconfig: file, context: 'p' }, env()).token).toBeUndefined();
  });
});

describe('exec credential plugins', () => {
  // A plugin written in Node: echoes what kubectl would give it back as the token, so the test sees the input.
  const plugin = write(
    'plugins/cred.js',
    `#!${process.execPath}
const mode = process.argv[2];
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
const out = { apiVersion: process.env.ANSWER_VERSION || info.apiVersion, kind: 'ExecCredential', status: {} };
if (mode === 'token') out.status.token = JSON.stringify({ interactive: info.spec.interactive, cluster: info.spec.cluster, extra: process.env.EXTRA });
if (mode === 'cert') Object.assign(out.status, { clientCertificateData: require('fs').readFileSync(process.env.CERT_FILE, 'utf8'), clientKeyData: require('fs').readFileSync(process.env.KEY_FILE, 'utf8') });
if (mode === 'newline') out.status.token = 'abc\\ndef';
if (mode === 'orphan') {
  const kid = require('child_process').spawn('sleep', ['600'], { stdio: ['ignore', 'inherit', 'ignore'] });
  require('fs').writeFileSync(process.env.PID_FILE, String(kid.pid));
  process.exit(0);
}
if (mode === 'big') process.stdout.write('x'.repeat(2 * 1024 * 1024));
else if (mode === 'hang') setTimeout(() => {}, 60000);
else if (mode === 'fail') process.exitCode = 3;
else process.stdout.write(JSON.stringify(out));
`,
  );
  const kc = (exec: Record<string, unknown>) =>
    write(
      'plugins/config',
      config({
        clusters: [
          {
            name: 'c',
            cluster: {
              server: 'https://k.example',
              'certificate-authority-data': b64(pem.cert),
              extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'k' } }],
            },
          },
        ],
        users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', ...exec } } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
  const run = (exec: Record<string, unknown>, timeoutMs?: number) => {
    const t = findTarget({ kubeconfig: kc(exec) }, env());
    return runExecPlugin(t, t.exec!, timeoutMs);
  };

  it('runs a relative command from the kubeconfig’s directory with its args and env, and gives the cluster when asked', async () => {
    const got = await run({ command: './cred.js', args: ['token'], env: [{ name: 'EXTRA', value: 'e' }], provideClusterInfo: true });
    expect(JSON.parse(got.token!)).toEqual({
      interactive: false,
      cluster: { server: 'https://k.example', 'certificate-authority-data': b64(pem.cert), config: { audience: 'k' } },
      extra: 'e',
    });
    expect((JSON.parse((await run({ command: plugin, args: ['token'] })).token!) as { cluster?: unknown }).cluster).toBeUndefined();
  });

  it('takes a client certificate from v1beta1 as well', async () => {
    const got = await run({
      command: plugin,
      args: ['cert'],
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      env: [
        { name: 'CERT_FILE', value: pem.certFile },
        { name: 'KEY_FILE', value: pem.keyFile },
      ],
    });
    expect([got.cert?.toString(), got.key?.toString(), got.token]).toEqual([pem.cert, pem.key, undefined]);
  });

  it.each([
    [
      { command: 'no-such-plugin-xyz', installHint: 'install it with: brew install xyz' },
      /exec plugin no-such-plugin-xyz of user "u" .* was not found: install it with: brew install xyz/,
    ],
    [{ command: plugin, args: ['fail'] }, /failed \(exit 3\): see its message above, or log in again/],
    [{ command: plugin, args: ['big'] }, /wrote more than 1048576 bytes/],
    [{ command: plugin, args: ['none'] }, /gave neither status\.token nor a client certificate/],
    [
      { command: plugin, args: ['token'], env: [{ name: 'ANSWER_VERSION', value: 'client.authentication.k8s.io/v1beta1' }] },
      /answered in client\.authentication\.k8s\.io\/v1beta1, not the client\.authentication\.k8s\.io\/v1/,
    ],
    [{ command: plugin, interactiveMode: 'Always' }, /needs a terminal \(interactiveMode: Always\)/],
    [{ command: plugin, args: ['newline'] }, /status\.token is not a token \(it has a line break\): a token is one line of printable characters/],
  ])('refuses %j with the fix', async (exec, message) => {
    await expect(run(exec)).rejects.toThrow(message);
  });

  it('is stopped after its timeout', async () => {
    const started = Date.now();
    await expect(run({ command: plugin, args: ['hang'] }, 300)).rejects.toThrow(/did not finish in 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  // The plugin exits, a process it started keeps its stdout open: the timeout settles the call and kills that
  // process too (the plugin runs in a process group of its own). Before, the call waited for it (600 s here).
  it('settles at the timeout when a process the plugin left behind holds its stdout, and kills that process', async () => {
    const pidFile = path.join(dir, 'plugins', 'orphan.pid');
    await expect(run({ command: plugin, args: ['orphan'], env: [{ name: 'PID_FILE', value: pidFile }] }, 300)).rejects.toThrow(/did not finish in 0\.3 s/);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    // Gone, or a zombie waiting for init to reap it; the kill is sent before the call settles, so this loop is short.
    const alive = (): boolean => fs.existsSync(`/proc/${pid}/stat`) && !/^\d+ \([^)]*\) [ZX]/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    for (let i = 0; i < 1000 && alive(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(alive()).toBe(false);
  }, 20_000);
});

describe('requests', () => {
  let server: http.Server;
  let base: string;
  const seen: { url?: string; auth?: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      const url = new URL(req.url!, 'http://x');
      if (url.pathname.endsWith('/api/v1/nodes')) {
        const page = url.searchParams.get('continue');
        res.end(JSON.stringify({ items: [{ n: page ?? 'first' }], metadata: page ? {} : { continue: 'second' } }));
      } else if (url.pathname.endsWith('/forbidden')) {
        res.statusCode = 403;
        res.end(JSON.stringify({ kind: 'Status', message: `nodes is forbidden: User "${'x'.repeat(500)}" cannot list` }));
      } else if (url.pathname.endsWith('/huge')) {
        const chunk = Buffer.alloc(1024 * 1024, 32);
        let sent = 0;
        const more = (): void => {
          while (sent <= MAX_RESPONSE_BYTES && res.write(chunk)) sent += chunk.length;
          if (sent <= MAX_RESPONSE_BYTES) res.once('drain', more);
          else res.end();
        };
        more();
      } else if (url.pathname.endsWith('/slow')) {
        res.write('{');
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const client = (timeoutMs?: number) =>
    new KubeClient(
      { source: 'test', context: 'x', server: base, insecureSkipTlsVerify: false, token: SECRET, who: 'user "u" of context "x" in test' },
      timeoutMs,
    );

  it('lists page by page under the server’s path, with the bearer token', async () => {
    seen.length = 0;
    expect(await client().list('/api/v1/nodes', { fieldSelector: 'a!=' }, 1)).toEqual([{ n: 'first' }, { n: 'second' }]);
    expect(seen).toEqual([
      { url: '/prefix/api/v1/nodes?fieldSelector=a%21%3D&limit=1', auth: `Bearer ${SECRET}` },
      { url: '/prefix/api/v1/nodes?fieldSelector=a%21%3D&limit=1&continue=second', auth: `Bearer ${SECRET}` },
    ]);
  });

  it('a refusal: the status, the server’s reason cut short, and the fix; never the token', async () => {
    const e = (await client()
      .list('/forbidden')
      .catch((x: unknown) => x)) as KubeApiError;
    expect(e.status).toBe(403);
    expect(e.message).toMatch(
      /^HTTP 403 for \/forbidden: nodes is forbidden: User "x+…; user "u" of context "x" in test may not list \/forbidden: grant it list on nodes, pods and baremetalhosts/,
    );
    expect(e.message.length).toBeLessThan(400);
    expect(e.message).not.toContain(SECRET);
  });

  it('stops reading a response larger than the cap', async () => {
    await expect(client().list('/huge')).rejects.toThrow(/answered \/huge\?limit=500 with more than 64 MiB: the response was not read/);
  }, 30_000);

  it('gives up on a server that does not finish answering', async () => {
    await expect(client(300).list('/slow')).rejects.toThrow(/did not answer in 0\.3 s/);
  });

  it('says the server cannot be reached, naming it and the kubeconfig', async () => {
    const closed = new KubeClient({ source: 'kc.yaml', server: 'https://127.0.0.1:1', insecureSkipTlsVerify: false, who: 'w' });
    await expect(closed.list('/api/v1/nodes')).rejects.toThrow(
      'cannot reach https://127.0.0.1:1 (ECONNREFUSED): check the server of the context in kc.yaml and that the API server is up',
    );
  });
});
