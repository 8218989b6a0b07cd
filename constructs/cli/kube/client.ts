/**
 * The Kubernetes API client of the subcommands that talk to a cluster (`inventory`, `verify --from-cluster`,
 * `drain-node`): JSON requests over node:http(s), bounded and timed out, and paged list calls bounded in pages and
 * objects, through an HTTP(S) proxy when the cluster's proxy-url or HTTPS_PROXY / HTTP_PROXY (less NO_PROXY) names
 * one (Node's own proxy support: the agent's proxyEnv). The kubeconfig it talks by is found and resolved in
 * config.ts; exec credential plugins run in exec.ts. It is ours, not a library: metalslice
 * makes a few kinds of request, and @kubernetes/client-node 2.0.1 (68 packages, 83 MB) reads no HTTPS_PROXY or
 * NO_PROXY, reads a response whole with no cap, and runs an exec plugin with no timeout and unbounded output: it
 * would need the same wrapping as this file and more. The README says so.
 *
 * Every message, here and in those two files, names the kubeconfig, the context, the user or cluster, and the
 * fix; none quotes a file's contents, a token, a key or what the API server or a plugin wrote beyond a short
 * escaped excerpt.
 */
import * as http from 'http';
import * as https from 'https';
import { escapeControls } from '../../core/base/excerpt';
import { checkProxyUrl, KubeconfigError, KubeTarget } from './config';
import { isRecord } from '../../core/base/records';
import { runExecPlugin } from './exec';

/** Most bytes one API response may have: a page of 500 pods is a few MiB; 64 MiB is far above any page. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** How long one request may take, from connecting to the last byte. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Most pages one list may take: 1,000 pages of 500 is far past a cluster of Kubernetes' tested size. */
export const MAX_LIST_PAGES = 1_000;
/** Most objects one list may hold: Kubernetes' tested cluster size is 5,000 Nodes and 150,000 pods. */
export const MAX_LIST_OBJECTS = 150_000;

/** The proxy variables requests honour, as curl and Node read them (lower case too). */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/** What the client reads of its surroundings, replaceable in tests. */
export interface KubeClientOptions {
  /** The environment the proxy variables come from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Where warnings go (a token over plain http, insecure-skip-tls-verify). @default standard error */
  readonly warn?: (message: string) => void;
}

/** A failed API call: the HTTP status (when there was a response) and what went wrong, with the fix. */
export class KubeApiError extends Error {
  /** @param message what went wrong and the fix @param status the HTTP status, if the server answered */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

/** One response: its status and its parsed JSON body (undefined when not JSON). */
export interface Response {
  readonly status: number;
  readonly body: unknown;
}

/** A client for one target: JSON GETs, bounded and timed out. */
export class KubeClient {
  private agent?: http.Agent;
  private headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'metalslice' };
  private ready?: Promise<void>;

  /** @param target where and as whom @param timeoutMs per request @param options environment and warnings */
  constructor(
    readonly target: KubeTarget,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
    private readonly options: KubeClientOptions = {},
  ) {}

  /** Runs the exec plugin (once) and builds the TLS agent. */
  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      let { cert, key, token } = this.target;
      if (this.target.exec) {
        const got = await runExecPlugin(this.target, this.target.exec);
        token = got.token ?? token;
        if (got.cert) ({ cert, key } = got);
      }
      if (token !== undefined) this.headers.Authorization = `Bearer ${token}`;
      this.warnings(token !== undefined);
      const proxyEnv = proxySettings(this.target, this.options.env ?? process.env);
      const common = { keepAlive: true, maxSockets: 1, ...(proxyEnv ? { proxyEnv } : {}) };
      this.agent = this.target.server.startsWith('https:')
        ? new https.Agent({
            ...common,
            ca: this.target.ca,
            cert,
            key,
            rejectUnauthorized: !this.target.insecureSkipTlsVerify,
            servername: this.target.tlsServerName,
          })
        : new http.Agent(common);
    })();
    return this.ready;
  }

  /** What a careful client says before it goes on: credentials that anyone on the path can read or replay. */
  private warnings(bearer: boolean): void {
    const warn = this.options.warn ?? ((m: string) => process.stderr.write(`metalslice: warning: ${m}\n`));
    const where = this.target.context === undefined ? this.target.source : `context "${escapeControls(this.target.context)}" in ${this.target.source}`;
    if (bearer && this.target.server.startsWith('http:'))
      warn(`${where} sends a bearer token over plain http:// to ${this.target.server}: anyone on the path can read it; use https://`);
    if (this.target.insecureSkipTlsVerify)
      warn(
        `${where} sets insecure-skip-tls-verify: the API server's certificate is not checked, so anyone on the path can pose as it; set certificate-authority instead`,
      );
  }

  /** GET `apiPath` (with its query); resolves to the status and JSON body, rejects on a transport failure. */
  get(apiPath: string): Promise<Response> {
    return this.send('GET', apiPath);
  }

  /**
   * One request: `method` on `apiPath` with a JSON `body` (sent as `contentType`); resolves to the status and JSON
   * body whatever the status, rejects on a transport failure. The writes of `drain-node` (cordon, eviction, delete).
   */
  async send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', apiPath: string, body?: unknown, contentType = 'application/json'): Promise<Response> {
    await this.prepare();
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    const headers = payload ? { ...this.headers, 'Content-Type': contentType, 'Content-Length': String(payload.length) } : this.headers;
    const url = new URL(this.target.server);
    const full = new URL(url.pathname.replace(/\/$/, '') + apiPath, url);
    const mod = full.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = mod.request(full, { method, agent: this.agent, headers, timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (d: Buffer) => {
          size += d.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(
              new KubeApiError(`${this.target.server} answered ${apiPath} with more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB: the response was not read`),
            );
            return;
          }
          chunks.push(d);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on('error', reject);
      });
      // Not the socket's idle time but the whole request, so a server that trickles bytes is also cut off.
      const timer = setTimeout(() => req.destroy(new KubeApiError(`${this.target.server} did not answer in ${this.timeoutMs / 1000} s`)), this.timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('timeout', () => req.destroy(new KubeApiError(`${this.target.server} did not answer in ${this.timeoutMs / 1000} s`)));
      req.on('error', (e: NodeJS.ErrnoException) => reject(e instanceof KubeApiError ? e : new KubeApiError(transportMessage(e, this.target))));
      req.end(payload);
    });
  }

  /**
   * Every item of a list (`/api/v1/nodes`), page by page (`limit`, `continue`); `query` adds selectors. Throws a
   * KubeApiError with the status and the fix when the server refuses.
   */
  async list<T>(apiPath: string, query: Readonly<Record<string, string>> = {}, pageSize = 500): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      if (++pages > MAX_LIST_PAGES)
        throw new KubeApiError(
          `${this.target.server} answered ${apiPath} with more than ${MAX_LIST_PAGES.toLocaleString('en-US')} pages (each with a continue token): metalslice reads at most ${MAX_LIST_PAGES.toLocaleString('en-US')} pages of a list; is server the API server?`,
        );
      const q = new URLSearchParams({ ...query, limit: String(pageSize), ...(token ? { continue: token } : {}) });
      const res = await this.get(`${apiPath}?${q.toString()}`);
      if (res.status < 200 || res.status > 299) throw new KubeApiError(statusMessage(res, apiPath, this.target), res.status);
      const body = res.body as { items?: unknown; metadata?: { continue?: unknown } } | undefined;
      if (!isRecord(body) || !Array.isArray(body.items))
        throw new KubeApiError(`${this.target.server} answered ${apiPath} with something that is not a list: is server the API server?`);
      if (items.length + body.items.length > MAX_LIST_OBJECTS)
        throw new KubeApiError(
          `${this.target.server} answered ${apiPath} with more than ${MAX_LIST_OBJECTS.toLocaleString('en-US')} objects: metalslice reads at most ${MAX_LIST_OBJECTS.toLocaleString('en-US')} (Kubernetes' tested cluster size); list a smaller cluster, or one namespace`,
        );
      items.push(...(body.items as T[]));
      token = typeof body.metadata?.continue === 'string' && body.metadata.continue !== '' ? body.metadata.continue : undefined;
    } while (token);
    return items;
  }
}

/**
 * The proxy settings for Node's agent (its proxyEnv): the cluster's proxy-url, which wins as in kubectl, else the
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY variables; undefined when no proxy applies. Each URL is checked (http or
 * https; SOCKS refused by name), and a Node without built-in proxy support refuses rather than go around it.
 */
function proxySettings(target: KubeTarget, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | undefined {
  let settings: NodeJS.ProcessEnv;
  if (target.proxyUrl !== undefined) settings = { HTTPS_PROXY: target.proxyUrl, HTTP_PROXY: target.proxyUrl };
  else {
    settings = {};
    for (const name of PROXY_VARIABLES) {
      const value = env[name];
      if (value !== undefined && value !== '') settings[name] = checkProxyUrl(value, `$${name}`, 'the environment');
    }
    if (Object.keys(settings).length === 0) return undefined;
    for (const name of ['NO_PROXY', 'no_proxy']) if (env[name]) settings[name] = env[name];
  }
  if (!nodeHasProxySupport())
    throw new KubeconfigError(
      `${target.proxyUrl !== undefined ? `proxy-url of the cluster in ${target.source}` : 'HTTPS_PROXY or HTTP_PROXY'} names a proxy, and Node ${process.versions.node} cannot use one (its http.Agent has no proxyEnv): run metalslice on Node 22.21 or later`,
      2,
    );
  return settings;
}

/** Whether this Node's http.Agent takes proxyEnv (22.21 and 24.5 on): an agent given one keeps its parsed config. */
function nodeHasProxySupport(): boolean {
  const probe = new http.Agent({ proxyEnv: { HTTP_PROXY: 'http://127.0.0.1:9' } } as http.AgentOptions);
  return Object.getOwnPropertySymbols(probe).some((sym) => sym.description === 'kProxyConfig');
}

/** Why a request never got an answer, and what to check. */
function transportMessage(e: NodeJS.ErrnoException, target: KubeTarget): string {
  const code = e.code ?? 'error';
  if (code.startsWith('ERR_PROXY'))
    return `cannot reach ${target.server} through the proxy (${code}): check the proxy (the cluster's proxy-url in ${target.source}, or HTTPS_PROXY and NO_PROXY)`;
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME/.test(code))
    return `cannot trust ${target.server} (${code}): set certificate-authority(-data) of the cluster in ${target.source} to the CA that signed it`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT')
    return `cannot reach ${target.server} (${code}): check the server of the context in ${target.source} and that the API server is up`;
  return `cannot talk to ${target.server} (${code}): check the server and credentials in ${target.source}`;
}

/** The first line of what the server said, its first 200 characters, controls escaped (quotes kept: it is prose). */
export function shortReason(message: string): string {
  const chars = Array.from(message.split('\n')[0].slice(0, 400));
  return escapeControls(chars.slice(0, 200).join('')) + (chars.length > 200 ? '…' : '');
}

/** A non-2xx answer: the server's own short reason (escaped, capped) and the fix. */
function statusMessage(res: Response, apiPath: string, target: KubeTarget): string {
  const reason = isRecord(res.body) && typeof res.body.message === 'string' ? `: ${shortReason(res.body.message)}` : '';
  const fix =
    res.status === 401
      ? `the credentials of ${target.who} were refused: renew them (log in again, or a fresh token or certificate)`
      : res.status === 403
        ? `${target.who} may not list ${apiPath}: grant it list on nodes, pods and baremetalhosts (a ClusterRole), or use another context`
        : res.status === 410
          ? 'the list changed too much while it was read in pages: run the command again'
          : `check the server and the context in ${target.source}`;
  return `HTTP ${res.status} for ${apiPath}${reason}; ${fix}`;
}
