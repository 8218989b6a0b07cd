// A stand-in of a hostile or broken Kubernetes API server, and an HTTP proxy, for metalslice's own client
// (constructs/cli/kube/client.ts): lists that never end, a slow server, a huge answer, a redirect to another host,
// over plain HTTP or TLS; and a proxy that forwards plain requests and tunnels CONNECT, counting what it saw.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

/** A self-signed certificate for 127.0.0.1 and its key (openssl), for TLS servers and PEM checks. */
export interface TestPem {
  readonly cert: string;
  readonly key: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Makes a certificate and key in a directory of their own. */
export function makePem(): TestPem {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-pki-'));
  const certFile = path.join(dir, 'tls.crt');
  const keyFile = path.join(dir, 'tls.key');
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1'];
  const r = spawnSync('openssl', [...args, '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl: ${r.stderr}`);
  return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8'), certFile, keyFile };
}

/** One request the fake saw. */
export interface Seen {
  readonly url: string;
  readonly auth?: string;
}

/**
 * The fake API server's routes, under any prefix: `/endless` (every page has a continue token), `/crowded`
 * (pages of 10,000 objects, each with a continue token), `/nodes` (two pages), `/redirect` (302 to `redirectTo`),
 * `/slow` (one byte, then nothing), anything else 404.
 */
function route(req: http.IncomingMessage, res: http.ServerResponse, redirectTo: () => string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const page = Number(url.searchParams.get('continue') ?? 0);
  const json = (body: unknown): void => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  };
  if (url.pathname.endsWith('/endless')) json({ items: [{ page }], metadata: { continue: String(page + 1) } });
  else if (url.pathname.endsWith('/crowded')) json({ items: Array.from({ length: 10_000 }, () => ({})), metadata: { continue: String(page + 1) } });
  else if (url.pathname.endsWith('/nodes')) json({ items: [{ n: page }], metadata: page ? {} : { continue: '1' } });
  else if (url.pathname.endsWith('/redirect')) {
    res.statusCode = 302;
    res.setHeader('Location', `${redirectTo()}/api/v1/nodes`);
    res.end();
  } else if (url.pathname.endsWith('/slow')) res.write('{');
  else {
    res.statusCode = 404;
    json({});
  }
}

/** A fake API server over HTTP, or over TLS with `pem`. */
export class FakeKubeApi {
  readonly seen: Seen[] = [];
  /** Where /redirect sends the client. */
  redirectTo = 'http://127.0.0.1:9';
  private readonly server: http.Server;

  constructor(pem?: TestPem) {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      this.seen.push({ url: req.url ?? '', auth: req.headers.authorization });
      route(req, res, () => this.redirectTo);
    };
    this.server = pem ? https.createServer({ cert: pem.cert, key: pem.key }, handler) : http.createServer(handler);
  }

  /** Listens on loopback; resolves to the base URL (with a path prefix, as an API server behind a gateway has). */
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const scheme = this.server instanceof https.Server ? 'https' : 'http';
    return `${scheme}://127.0.0.1:${(this.server.address() as net.AddressInfo).port}/prefix`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** An HTTP proxy: forwards plain requests (absolute-form URLs) and tunnels CONNECT; `seen` is what it was asked. */
export class FakeProxy {
  readonly seen: string[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor() {
    this.server = http.createServer((req, res) => {
      this.seen.push(`${req.method} ${req.url}`);
      const upstream = http.request(req.url ?? '', { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    this.server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      this.seen.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** A kubeconfig file (in a new temporary directory) whose one context reaches `server` with no credentials. */
export function kubeconfigForServer(server: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kubeconfig-')), 'kubeconfig');
  const lines = ['apiVersion: v1', 'kind: Config', 'current-context: t', 'contexts: [{name: t, context: {cluster: t, user: t}}]'];
  fs.writeFileSync(file, [...lines, `clusters: [{name: t, cluster: {server: "${server}"}}]`, 'users: [{name: t, user: {}}]', ''].join('\n'));
  return file;
}

/** A command's standard output and error, kept: `io` to pass, `out` to read. */
export function ioSink(): { out: { stdout: string; stderr: string }; io: { stdout: (t: string) => void; stderr: (t: string) => void } } {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t) } };
}
