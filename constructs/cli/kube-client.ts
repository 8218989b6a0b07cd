/**
 * The Kubernetes API client of the subcommands that read a cluster (`inventory`, `verify --from-cluster`): a
 * kubeconfig found and merged as kubectl does, and paged list calls over node:https. It is ours, not a library:
 * metalslice makes three kinds of GET, and @kubernetes/client-node (0.22 pulls in the deprecated `request`; 1.x
 * and later are ES modules that neither Node 20 nor jest's CommonJS runtime on Node 22 can require, with some 70
 * packages behind them) would be most of the runtime dependency tree for them. The README says so.
 *
 * Where the kubeconfig comes from, in kubectl's order: --kubeconfig FILE (only that file); else $KUBECONFIG, a
 * list of files merged (the first file to name a cluster, user or context, or to set current-context, wins;
 * missing files are skipped); else ~/.kube/config; and when none of those names a context, the in-cluster
 * service account (KUBERNETES_SERVICE_HOST/PORT and /var/run/secrets/kubernetes.io/serviceaccount).
 *
 * What a user may be: a client certificate and key (files or base64 data), a bearer token or tokenFile, or an
 * exec credential plugin (client.authentication.k8s.io/v1 and v1beta1: EKS, GKE, AKS and OIDC logins use one).
 * A cluster: its server, certificate-authority(-data), tls-server-name and insecure-skip-tls-verify. Relative
 * paths are relative to the kubeconfig that names them, as kubectl resolves them.
 *
 * Every message names the kubeconfig, the context, the user or cluster, and the fix; none quotes a file's
 * contents, a token, a key or what the API server or a plugin wrote beyond a short escaped excerpt.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import { parseYamlText } from '../core/input/config';
import { MetalsliceError } from '../core/base/errors';
import { escapeControls, escapeText, excerptText } from '../core/base/excerpt';
import { readInputFile } from '../core/input/read-file';

/** The in-cluster service account's directory, as every pod has it mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Most bytes one API response may have: a page of 500 pods is a few MiB; 64 MiB is far above any page. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** How long one request may take, from connecting to the last byte. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Most bytes an exec credential plugin may write to stdout (an ExecCredential is a few KiB). */
export const MAX_PLUGIN_OUTPUT_BYTES = 1024 * 1024;
/** How long an exec credential plugin may run (a cloud CLI refreshing a token can take some seconds). */
export const PLUGIN_TIMEOUT_MS = 120_000;

const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;

/** A kubeconfig problem (exit 2 when no file could be read, else 1); the message names where and the fix. */
export class KubeconfigError extends Error {
  /** @param message what is wrong, where, and the fix @param exitCode 2: unreadable input; 1: anything else */
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'KubeconfigError';
  }
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

/** One exec credential plugin, as the kubeconfig's `users[].user.exec` gives it. */
interface ExecConfig {
  readonly apiVersion: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly installHint?: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode?: string;
}

/** How requests authenticate and trust the server: what a context resolves to. */
export interface KubeTarget {
  /** Where the settings came from, for messages: a file or list of files, or "the in-cluster service account". */
  readonly source: string;
  /** The context used (none for in-cluster). */
  readonly context?: string;
  /** The API server URL, without any user info. */
  readonly server: string;
  /** The CA bundle (PEM) the server's certificate must chain to; none: the system's roots. */
  readonly ca?: Buffer;
  /** Accept any server certificate (the kubeconfig's insecure-skip-tls-verify). */
  readonly insecureSkipTlsVerify: boolean;
  /** The name the server's certificate is checked against, when not the server's host. */
  readonly tlsServerName?: string;
  /** The client certificate (PEM), with `key`. */
  readonly cert?: Buffer;
  /** The client key (PEM), with `cert`. */
  readonly key?: Buffer;
  /** Sent as `Authorization: Bearer`. */
  readonly token?: string;
  /** Whose credentials: `user "NAME" of context "CTX" in SOURCE`. */
  readonly who: string;
  /** @internal the plugin to run before the first request */
  readonly exec?: ExecConfig;
  /** @internal the cluster's settings, for a plugin that asks for them */
  readonly clusterInfo?: Readonly<Record<string, unknown>>;
}

/** A named entry of a kubeconfig list, with the directory its relative paths are resolved from. */
interface Entry {
  readonly body: Readonly<Record<string, unknown>>;
  readonly dir: string;
  readonly file: string;
}

/** The kubeconfig as loaded: the merged maps, the current context and where each came from. */
export interface LoadedKubeconfig {
  readonly source: string;
  readonly clusters: ReadonlyMap<string, Entry>;
  readonly users: ReadonlyMap<string, Entry>;
  readonly contexts: ReadonlyMap<string, Entry>;
  readonly currentContext?: string;
}

/** The environment the loader reads: process.env and the home directory, replaceable in tests. */
export interface KubeEnv {
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly serviceAccountDir: string;
}

const DEFAULT_ENV = (): KubeEnv => ({ env: process.env, home: os.homedir(), serviceAccountDir: SERVICE_ACCOUNT_DIR });

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** One kubeconfig file as data, or a KubeconfigError that names it (never quoting it). */
function readKubeconfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readInputFile(file, 'kubeconfig');
  } catch (e) {
    if (e instanceof MetalsliceError) throw new KubeconfigError(`cannot read kubeconfig ${escapeText(file)}: ${e.issues.map((i) => i.message).join('; ')}`, 2);
    throw e;
  }
  let data: unknown;
  try {
    data = parseYamlText(text, escapeText(file));
  } catch (e) {
    if (e instanceof MetalsliceError) throw new KubeconfigError(`cannot read kubeconfig ${e.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    throw e;
  }
  if (data === null || data === undefined) return {};
  if (!isMap(data))
    throw new KubeconfigError(`kubeconfig ${escapeText(file)} is not a map: write a kubeconfig (kind: Config), as kubectl config view shows one`);
  return data;
}

/** Adds a file's named list entries to `into`, keeping the first of each name (kubectl's merge). */
function mergeList(into: Map<string, Entry>, data: Record<string, unknown>, key: 'clusters' | 'users' | 'contexts', field: string, file: string): void {
  const list = data[key];
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) throw new KubeconfigError(`kubeconfig ${escapeText(file)}: ${key} is not a list: write ${key}: [{name: ..., ${field}: {...}}]`);
  list.forEach((item, i) => {
    const name = isMap(item) ? str(item.name) : undefined;
    if (!isMap(item) || name === undefined)
      throw new KubeconfigError(`kubeconfig ${escapeText(file)}: ${key}[${i}] has no name: give each entry a name and a ${field} map`);
    const body = item[field] ?? {};
    if (!isMap(body)) throw new KubeconfigError(`kubeconfig ${escapeText(file)}: ${key}[${i}] (${escapeText(name)}).${field} is not a map`);
    if (!into.has(name)) into.set(name, { body, dir: path.dirname(path.resolve(file)), file });
  });
}

/** Merges kubeconfig files in order (the first to set a name or the current context wins). */
function mergeFiles(files: readonly string[], source: string): LoadedKubeconfig {
  const clusters = new Map<string, Entry>();
  const users = new Map<string, Entry>();
  const contexts = new Map<string, Entry>();
  let currentContext: string | undefined;
  for (const file of files) {
    const data = readKubeconfigFile(file);
    mergeList(clusters, data, 'clusters', 'cluster', file);
    mergeList(users, data, 'users', 'user', file);
    mergeList(contexts, data, 'contexts', 'context', file);
    currentContext ??= str(data['current-context']);
  }
  return { source, clusters, users, contexts, currentContext };
}

/**
 * The kubeconfig kubectl would use: `explicit` only, else $KUBECONFIG's files merged, else ~/.kube/config. Null
 * when none exists (the caller may then try the in-cluster service account).
 */
export function loadKubeconfigFiles(explicit: string | undefined, kenv: KubeEnv = DEFAULT_ENV()): LoadedKubeconfig | null {
  if (explicit !== undefined) return mergeFiles([explicit], escapeText(explicit));
  const list = kenv.env.KUBECONFIG;
  if (list !== undefined && list !== '') {
    const files = [...new Set(list.split(path.delimiter).filter((f) => f !== ''))];
    const present = files.filter((f) => fs.existsSync(f));
    return present.length === 0 ? null : mergeFiles(present, `$KUBECONFIG (${escapeText(list)})`);
  }
  const home = path.join(kenv.home, '.kube', 'config');
  return fs.existsSync(home) ? mergeFiles([home], escapeText(home)) : null;
}

/** A credential the kubeconfig names as a file (relative to the kubeconfig) or as base64 data. */
function credential(entry: Entry, fileKey: string, dataKey: string, what: string, where: string): Buffer | undefined {
  const data = entry.body[dataKey];
  if (data !== undefined && data !== null && data !== '') {
    if (typeof data !== 'string' || !/^[A-Za-z0-9+/=\s_-]+$/.test(data))
      throw new KubeconfigError(`${where}: ${dataKey} is not base64: write the PEM ${what} base64-encoded (base64 -w0 FILE), or name the file in ${fileKey}`);
    return Buffer.from(data, 'base64');
  }
  const file = str(entry.body[fileKey]);
  if (file === undefined) return undefined;
  const full = path.resolve(entry.dir, file);
  try {
    return Buffer.from(readInputFile(full, 'credential'), 'utf8');
  } catch (e) {
    if (e instanceof MetalsliceError)
      throw new KubeconfigError(
        `${where}: ${fileKey} ${escapeText(full)}: ${e.issues.map((i) => i.message).join('; ')} (a relative path is relative to ${escapeText(entry.file)})`,
      );
    throw e;
  }
}

function execConfig(entry: Entry, where: string): ExecConfig {
  const exec = entry.body.exec;
  if (!isMap(exec)) throw new KubeconfigError(`${where}: exec is not a map: give exec.command and exec.apiVersion`);
  const apiVersion = str(exec.apiVersion);
  if (apiVersion === undefined || !(EXEC_API_VERSIONS as readonly string[]).includes(apiVersion))
    throw new KubeconfigError(
      `${where}: exec.apiVersion ${apiVersion === undefined ? 'is missing' : `"${excerptText(apiVersion, 60)}" is not supported`}: use ${EXEC_API_VERSIONS.join(' or ')} (v1alpha1 was removed from kubectl too)`,
    );
  let command = str(exec.command);
  if (command === undefined) throw new KubeconfigError(`${where}: exec.command is missing: name the credential plugin to run`);
  // As kubectl: a command with a path separator is relative to the kubeconfig's directory; a bare name is on $PATH.
  if (command.includes('/') && !path.isAbsolute(command)) command = path.resolve(entry.dir, command);
  const args = exec.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) throw new KubeconfigError(`${where}: exec.args is not a list of strings`);
  const env = exec.env ?? [];
  if (!Array.isArray(env) || env.some((e) => !isMap(e) || typeof e.name !== 'string' || typeof e.value !== 'string'))
    throw new KubeconfigError(`${where}: exec.env is not a list of {name, value} strings`);
  return {
    apiVersion,
    command,
    args: args as string[],
    env: env as { name: string; value: string }[],
    installHint: str(exec.installHint),
    provideClusterInfo: exec.provideClusterInfo === true,
    interactiveMode: str(exec.interactiveMode),
  };
}

/** The cluster's `client.authentication.k8s.io/exec` extension, which kubectl hands a plugin as spec.cluster.config. */
function execExtension(extensions: unknown): unknown {
  if (!Array.isArray(extensions)) return undefined;
  const found: unknown = extensions.find((e) => isMap(e) && e.name === 'client.authentication.k8s.io/exec');
  return isMap(found) ? found.extension : undefined;
}

/** A server URL without user info, for messages and requests. */
function serverUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new KubeconfigError(`${where}: server is not a URL: write https://HOST:PORT`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new KubeconfigError(`${where}: server is not an http(s) URL: write https://HOST:PORT`);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/$/, '');
}

/** Resolves a context (default: the current one) to a server and credentials; throws a KubeconfigError naming the fix. */
export function resolveContext(kc: LoadedKubeconfig, contextName?: string): KubeTarget {
  const { name, at, cluster, clusterName, user, userName } = findContext(kc, contextName);
  const cWhere = `cluster "${escapeText(clusterName)}" of ${at}`;
  const uWhere = `user "${escapeText(userName ?? '')}" of ${at}`;
  const target = clusterTarget(cluster, cWhere);
  return {
    source: kc.source,
    context: name,
    ...target,
    ...userCredentials(user, uWhere),
    who: userName === undefined ? `${at} (no user)` : uWhere,
    clusterInfo: {
      server: target.server,
      ...(target.tlsServerName ? { 'tls-server-name': target.tlsServerName } : {}),
      ...(target.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(target.ca ? { 'certificate-authority-data': target.ca.toString('base64') } : {}),
      ...(execExtension(cluster.body.extensions) !== undefined ? { config: execExtension(cluster.body.extensions) } : {}),
    },
  };
}

/** The context (default: the current one) and the cluster and user it names, each checked to exist. */
function findContext(
  kc: LoadedKubeconfig,
  contextName: string | undefined,
): { name: string; at: string; cluster: Entry; clusterName: string; user: Entry | undefined; userName: string | undefined } {
  const names = [...kc.contexts.keys()];
  const known = names.length === 0 ? 'none' : names.map(escapeText).join(', ');
  const name = contextName ?? kc.currentContext;
  if (name === undefined)
    throw new KubeconfigError(
      `no current-context in ${kc.source}; pass --context NAME (contexts: ${known}) or run kubectl config use-context NAME`,
      names.length === 0 ? 2 : 1,
    );
  const ctx = kc.contexts.get(name);
  if (ctx === undefined) throw new KubeconfigError(`no context "${escapeText(name)}" in ${kc.source}; contexts: ${known}`);
  const clusterName = str(ctx.body.cluster);
  const userName = str(ctx.body.user);
  const at = `context "${escapeText(name)}" in ${kc.source}`;
  if (clusterName === undefined) throw new KubeconfigError(`${at} names no cluster: set contexts[].context.cluster`);
  const cluster = kc.clusters.get(clusterName);
  if (cluster === undefined)
    throw new KubeconfigError(`${at} names cluster "${escapeText(clusterName)}", which the kubeconfig does not have: add it or fix the name`);
  const user = userName === undefined ? undefined : kc.users.get(userName);
  if (userName !== undefined && user === undefined)
    throw new KubeconfigError(`${at} names user "${escapeText(userName)}", which the kubeconfig does not have: add it or fix the name`);
  return { name, at, cluster, clusterName, user, userName };
}

/** Where a cluster entry's API server is and how its certificate is checked. */
function clusterTarget(cluster: Entry, cWhere: string): Pick<KubeTarget, 'server' | 'ca' | 'insecureSkipTlsVerify' | 'tlsServerName'> {
  const rawServer = str(cluster.body.server);
  if (rawServer === undefined) throw new KubeconfigError(`${cWhere} has no server: set clusters[].cluster.server to https://HOST:PORT`);
  const server = serverUrl(rawServer, cWhere);
  if (str(cluster.body['proxy-url']) !== undefined)
    throw new KubeconfigError(
      `${cWhere} sets proxy-url, which metalslice does not support: reach the API server directly, or write the inventory with kubectl (see the README)`,
    );
  return {
    server,
    insecureSkipTlsVerify: cluster.body['insecure-skip-tls-verify'] === true,
    ca: credential(cluster, 'certificate-authority', 'certificate-authority-data', 'CA certificate', cWhere),
    tlsServerName: str(cluster.body['tls-server-name']),
  };
}

/** A user entry's credentials: a client certificate and key, a token (or token file), or an exec plugin. */
function userCredentials(user: Entry | undefined, uWhere: string): Pick<KubeTarget, 'cert' | 'key' | 'token' | 'exec'> {
  const u = user?.body ?? {};
  if (isMap(u['auth-provider']))
    throw new KubeconfigError(
      `${uWhere} uses an auth-provider, which kubectl removed in 1.26: use its exec credential plugin instead (gke-gcloud-auth-plugin, kubelogin, or your OIDC provider's)`,
    );
  if (str(u.username) !== undefined || str(u.password) !== undefined)
    throw new KubeconfigError(
      `${uWhere} uses basic auth (username/password), which Kubernetes removed in 1.19: use a client certificate, a token or an exec plugin`,
    );
  const cert = user && credential(user, 'client-certificate', 'client-certificate-data', 'client certificate', uWhere);
  const key = user && credential(user, 'client-key', 'client-key-data', 'client key', uWhere);
  if ((cert === undefined) !== (key === undefined))
    throw new KubeconfigError(
      `${uWhere} has a client ${cert ? 'certificate but no key' : 'key but no certificate'}: give both (client-certificate and client-key, or their -data forms)`,
    );
  let token = str(u.token);
  const tokenFile = str(u.tokenFile);
  if (token === undefined && tokenFile !== undefined && user) {
    const buf = credential({ ...user, body: { tokenFile } }, 'tokenFile', 'tokenFile-data', 'token', uWhere);
    token = buf?.toString('utf8').trim();
  }
  const exec = u.exec !== undefined && user ? execConfig(user, uWhere) : undefined;
  return { cert, key, token, exec };
}

/** The in-cluster service account as kubectl (rest.InClusterConfig) finds it, or null when not in a pod. */
export function inClusterTarget(kenv: KubeEnv = DEFAULT_ENV()): KubeTarget | null {
  const host = kenv.env.KUBERNETES_SERVICE_HOST;
  const port = kenv.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return null;
  const source = `the in-cluster service account (${escapeText(kenv.serviceAccountDir)})`;
  const dir: Entry = { body: { tokenFile: 'token', 'certificate-authority': 'ca.crt' }, dir: kenv.serviceAccountDir, file: kenv.serviceAccountDir };
  const token = credential(dir, 'tokenFile', 'token-data', 'token', source)?.toString('utf8').trim();
  const ca = credential(dir, 'certificate-authority', 'ca-data', 'CA certificate', source);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { source, server: `https://${hostPart}:${port}`, ca, insecureSkipTlsVerify: false, token, who: source };
}

/**
 * The target kubectl would talk to: --kubeconfig, $KUBECONFIG, ~/.kube/config, then in-cluster; `context`
 * picks a context (default: current-context). Throws a KubeconfigError naming the fix.
 */
export function findTarget(opts: { readonly kubeconfig?: string; readonly context?: string }, kenv: KubeEnv = DEFAULT_ENV()): KubeTarget {
  const kc = loadKubeconfigFiles(opts.kubeconfig, kenv);
  if (kc !== null && (kc.contexts.size > 0 || opts.kubeconfig !== undefined)) return resolveContext(kc, opts.context);
  const inCluster = opts.context === undefined ? inClusterTarget(kenv) : null;
  if (inCluster !== null) return inCluster;
  const where = kc?.source ?? (kenv.env.KUBECONFIG ? `$KUBECONFIG (${escapeText(kenv.env.KUBECONFIG)})` : escapeText(path.join(kenv.home, '.kube', 'config')));
  throw new KubeconfigError(`no cluster in ${where}${kc === null ? ' (no such file)' : ''}: pass --kubeconfig FILE or set KUBECONFIG`, 2);
}

/** The credentials an exec plugin gives. */
interface ExecResult {
  readonly token?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/** Runs an exec credential plugin as kubectl does (KUBERNETES_EXEC_INFO, no stdin) and reads its ExecCredential. */
export function runExecPlugin(target: KubeTarget, exec: ExecConfig, timeoutMs = PLUGIN_TIMEOUT_MS): Promise<ExecResult> {
  const name = escapeText(exec.command);
  const where = `exec plugin ${name} of ${target.who}`;
  if (exec.interactiveMode === 'Always')
    return Promise.reject(new KubeconfigError(`${where} needs a terminal (interactiveMode: Always): log in with it first, or use a non-interactive mode`));
  const info = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(exec.provideClusterInfo && target.clusterInfo ? { cluster: target.clusterInfo } : {}) },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const e of exec.env) env[e.name] = e.value;
  return new Promise((resolve, reject) => {
    const hint = exec.installHint ? `: ${excerptText(exec.installHint, 300)}` : ': install it or put it on PATH';
    // stderr is the plugin's own (a login prompt or notice), passed through as kubectl does.
    const child = spawn(exec.command, exec.args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let failed: KubeconfigError | undefined;
    const fail = (e: KubeconfigError): void => {
      failed ??= e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => fail(new KubeconfigError(`${where} did not finish in ${timeoutMs / 1000} s: check that it can run without a terminal`)),
      timeoutMs,
    );
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_PLUGIN_OUTPUT_BYTES)
        fail(new KubeconfigError(`${where} wrote more than ${MAX_PLUGIN_OUTPUT_BYTES} bytes: it must write one ExecCredential`));
      else chunks.push(d);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new KubeconfigError(e.code === 'ENOENT' ? `${where} was not found${hint}` : `${where} could not start (${e.code ?? 'error'})${hint}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failed) return reject(failed);
      if (code !== 0)
        return reject(new KubeconfigError(`${where} failed (${signal ? `signal ${signal}` : `exit ${code}`}): see its message above, or log in again`));
      try {
        resolve(parseExecCredential(Buffer.concat(chunks).toString('utf8'), exec.apiVersion, where));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

function parseExecCredential(text: string, apiVersion: string, where: string): ExecResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new KubeconfigError(`${where} did not write an ExecCredential as JSON on stdout: check the plugin and its arguments`);
  }
  if (!isMap(data) || data.kind !== 'ExecCredential')
    throw new KubeconfigError(`${where} wrote JSON that is not an ExecCredential: check the plugin and its arguments`);
  if (data.apiVersion !== apiVersion)
    throw new KubeconfigError(
      `${where} answered in ${excerptText(String(data.apiVersion), 60)}, not the ${apiVersion} the kubeconfig asks for: set exec.apiVersion to what it writes`,
    );
  const status = data.status;
  if (!isMap(status)) throw new KubeconfigError(`${where} wrote an ExecCredential without status: it must give status.token or a client certificate`);
  const token = str(status.token);
  const cert = str(status.clientCertificateData);
  const key = str(status.clientKeyData);
  if ((cert === undefined) !== (key === undefined))
    throw new KubeconfigError(`${where} gave a client ${cert ? 'certificate without its key' : 'key without its certificate'}: it must give both`);
  if (token === undefined && cert === undefined) throw new KubeconfigError(`${where} gave neither status.token nor a client certificate: log in with it again`);
  return { token, ...(cert && key ? { cert: Buffer.from(cert, 'utf8'), key: Buffer.from(key, 'utf8') } : {}) };
}

/** One response: its status and its parsed JSON body (undefined when not JSON). */
interface Response {
  readonly status: number;
  readonly body: unknown;
}

/** A client for one target: JSON GETs, bounded and timed out. */
export class KubeClient {
  private agent?: http.Agent;
  private headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'metalslice' };
  private ready?: Promise<void>;

  /** @param target where and as whom @param timeoutMs per request */
  constructor(
    readonly target: KubeTarget,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
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
      if (this.target.server.startsWith('https:'))
        this.agent = new https.Agent({
          ca: this.target.ca,
          cert,
          key,
          rejectUnauthorized: !this.target.insecureSkipTlsVerify,
          servername: this.target.tlsServerName,
          keepAlive: true,
          maxSockets: 1,
        });
    })();
    return this.ready;
  }

  /** GET `apiPath` (with its query); resolves to the status and JSON body, rejects on a transport failure. */
  async get(apiPath: string): Promise<Response> {
    await this.prepare();
    const url = new URL(this.target.server);
    const full = new URL(url.pathname.replace(/\/$/, '') + apiPath, url);
    const mod = full.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = mod.request(full, { method: 'GET', agent: this.agent, headers: this.headers, timeout: this.timeoutMs }, (res) => {
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
      req.end();
    });
  }

  /**
   * Every item of a list (`/api/v1/nodes`), page by page (`limit`, `continue`); `query` adds selectors. Throws a
   * KubeApiError with the status and the fix when the server refuses.
   */
  async list<T>(apiPath: string, query: Readonly<Record<string, string>> = {}, pageSize = 500): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    do {
      const q = new URLSearchParams({ ...query, limit: String(pageSize), ...(token ? { continue: token } : {}) });
      const res = await this.get(`${apiPath}?${q.toString()}`);
      if (res.status < 200 || res.status > 299) throw new KubeApiError(statusMessage(res, apiPath, this.target), res.status);
      const body = res.body as { items?: unknown; metadata?: { continue?: unknown } } | undefined;
      if (!isMap(body) || !Array.isArray(body.items))
        throw new KubeApiError(`${this.target.server} answered ${apiPath} with something that is not a list: is server the API server?`);
      items.push(...(body.items as T[]));
      token = typeof body.metadata?.continue === 'string' && body.metadata.continue !== '' ? body.metadata.continue : undefined;
    } while (token);
    return items;
  }
}

/** Why a request never got an answer, and what to check. */
function transportMessage(e: NodeJS.ErrnoException, target: KubeTarget): string {
  const code = e.code ?? 'error';
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME/.test(code))
    return `cannot trust ${target.server} (${code}): set certificate-authority(-data) of the cluster in ${target.source} to the CA that signed it`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT')
    return `cannot reach ${target.server} (${code}): check the server of the context in ${target.source} and that the API server is up`;
  return `cannot talk to ${target.server} (${code}): check the server and credentials in ${target.source}`;
}

/** The first line of what the server said, its first 200 characters, controls escaped (quotes kept: it is prose). */
function shortReason(message: string): string {
  const chars = Array.from(message.split('\n')[0].slice(0, 400));
  return escapeControls(chars.slice(0, 200).join('')) + (chars.length > 200 ? '…' : '');
}

/** A non-2xx answer: the server's own short reason (escaped, capped) and the fix. */
function statusMessage(res: Response, apiPath: string, target: KubeTarget): string {
  const reason = isMap(res.body) && typeof res.body.message === 'string' ? `: ${shortReason(res.body.message)}` : '';
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
