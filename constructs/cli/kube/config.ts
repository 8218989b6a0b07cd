/**
 * The kubeconfig side of metalslice's Kubernetes client (client.ts): finding, reading and merging the
 * kubeconfig as kubectl does, checking each cluster and user, and resolving a context (or the in-cluster service
 * account) to a KubeTarget, a server and credentials. It reads files and makes no request.
 *
 * Where the kubeconfig comes from, in kubectl's order: --kubeconfig FILE (only that file); else $KUBECONFIG, a
 * list of files merged (the first file to name a cluster, user or context, or to set current-context, wins;
 * missing files are skipped); else ~/.kube/config; and when none of those names a context, the in-cluster
 * service account (KUBERNETES_SERVICE_HOST/PORT and /var/run/secrets/kubernetes.io/serviceaccount).
 *
 * What a user may be: a client certificate and key (files or base64 data), a bearer token or tokenFile, or an
 * exec credential plugin (client.authentication.k8s.io/v1 and v1beta1: EKS, GKE, AKS and OIDC logins use one;
 * exec.ts runs it). A cluster: its server, certificate-authority(-data), tls-server-name,
 * insecure-skip-tls-verify and proxy-url (http or https). Relative paths are relative to the kubeconfig that names
 * them, as kubectl resolves them. Every credential is checked for what it must be before it is used (a token one
 * line of printable characters, a certificate or key a PEM that loads), never quoted.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseYamlText } from '../../core/input/config';
import { MetalsliceError } from '../../core/base/errors';
import { escapeText, excerptText } from '../../core/base/excerpt';
import { readInputFile } from '../../core/input/read-file';
import { isRecord } from '../../core/base/records';

/** The in-cluster service account's directory, as every pod has it mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

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

/** One exec credential plugin, as the kubeconfig's `users[].user.exec` gives it. */
export interface ExecConfig {
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
  /** The cluster's proxy-url (http or https): requests go through it, whatever HTTPS_PROXY says. */
  readonly proxyUrl?: string;
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

/** A non-empty string, else undefined; exported because the plugin file reads its JSON so too. */
export function str(v: unknown): string | undefined {
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
  if (!isRecord(data))
    throw new KubeconfigError(`kubeconfig ${escapeText(file)} is not a map: write a kubeconfig (kind: Config), as kubectl config view shows one`);
  return data;
}

/** Adds a file's named list entries to `into`, keeping the first of each name (kubectl's merge). */
function mergeList(into: Map<string, Entry>, data: Record<string, unknown>, key: 'clusters' | 'users' | 'contexts', field: string, file: string): void {
  const list = data[key];
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) throw new KubeconfigError(`kubeconfig ${escapeText(file)}: ${key} is not a list: write ${key}: [{name: ..., ${field}: {...}}]`);
  list.forEach((item, i) => {
    const name = isRecord(item) ? str(item.name) : undefined;
    if (!isRecord(item) || name === undefined)
      throw new KubeconfigError(`kubeconfig ${escapeText(file)}: ${key}[${i}] has no name: give each entry a name and a ${field} map`);
    const body = item[field] ?? {};
    if (!isRecord(body)) throw new KubeconfigError(`kubeconfig ${escapeText(file)}: ${key}[${i}] (${escapeText(name)}).${field} is not a map`);
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

/** What a credential must be: a bearer token, a CA bundle, a client certificate or a client key. */
export type CredentialKind = 'token' | 'ca' | 'cert' | 'key';

const CREDENTIAL_WANTED: Readonly<Record<CredentialKind, string>> = {
  token: 'one line of printable characters',
  ca: 'PEM certificates (-----BEGIN CERTIFICATE-----)',
  cert: 'a PEM certificate (-----BEGIN CERTIFICATE-----)',
  key: 'a PEM private key, not encrypted (-----BEGIN PRIVATE KEY-----)',
};

/** Why a token is not one line of printable ASCII, said without quoting it; undefined when it is one. */
function tokenFault(token: string): string | undefined {
  if (token === '') return 'it is empty';
  if (/[\r\n]/.test(token)) return 'it has a line break';
  if (/[\x00-\x1f\x7f]/.test(token)) return 'it has a control character';
  if (/[^\x21-\x7e]/.test(token)) return 'it has a space or a non-ASCII character';
  return undefined;
}

/** Why a PEM certificate, bundle or key does not load, said without quoting it; undefined when it loads. */
function pemFault(buf: Buffer, kind: 'ca' | 'cert' | 'key'): string | undefined {
  const text = buf.toString('latin1');
  try {
    if (kind === 'key') {
      if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) return 'it is not PEM';
      crypto.createPrivateKey({ key: buf, format: 'pem' });
    } else {
      if (!text.includes('-----BEGIN CERTIFICATE-----')) return 'it is not PEM';
      new crypto.X509Certificate(buf);
    }
    return undefined;
  } catch {
    return 'it does not load';
  }
}

/** The token with surrounding whitespace trimmed (as client-go does), or a KubeconfigError (exit 2) naming `field`. */
export function checkToken(raw: string, field: string, where: string): string {
  const token = raw.trim();
  const fault = tokenFault(token);
  if (fault !== undefined) throw new KubeconfigError(`${where}: ${field} is not a token (${fault}): a token is ${CREDENTIAL_WANTED.token}`, 2);
  return token;
}

/** A certificate, bundle or key, checked to load; a KubeconfigError (exit 2) naming `field` when it does not. */
export function checkPem(buf: Buffer, kind: 'ca' | 'cert' | 'key', field: string, where: string): Buffer {
  const fault = pemFault(buf, kind);
  if (fault !== undefined) throw new KubeconfigError(`${where}: ${field} is not ${CREDENTIAL_WANTED[kind]} (${fault})`, 2);
  return buf;
}

/** A credential the kubeconfig names as a file (relative to the kubeconfig) or as base64 data, checked for its kind. */
function credential(entry: Entry, fileKey: string, dataKey: string, kind: CredentialKind, where: string): Buffer | undefined {
  const data = entry.body[dataKey];
  if (data !== undefined && data !== null && data !== '') {
    if (typeof data !== 'string' || !/^[A-Za-z0-9+/=\s_-]+$/.test(data))
      throw new KubeconfigError(
        `${where}: ${dataKey} is not base64: write the ${CREDENTIAL_WANTED[kind]} base64-encoded (base64 -w0 FILE), or name the file in ${fileKey}`,
      );
    return checked(Buffer.from(data, 'base64'), kind, dataKey, where);
  }
  const file = str(entry.body[fileKey]);
  if (file === undefined) return undefined;
  const full = path.resolve(entry.dir, file);
  let buf: Buffer;
  try {
    buf = Buffer.from(readInputFile(full, 'credential'), 'utf8');
  } catch (e) {
    if (e instanceof MetalsliceError)
      throw new KubeconfigError(
        `${where}: ${fileKey} ${escapeText(full)}: ${e.issues.map((i) => i.message).join('; ')} (a relative path is relative to ${escapeText(entry.file)})`,
      );
    throw e;
  }
  return checked(buf, kind, `${fileKey} ${escapeText(full)}`, where);
}

function checked(buf: Buffer, kind: CredentialKind, field: string, where: string): Buffer {
  return kind === 'token' ? Buffer.from(checkToken(buf.toString('utf8'), field, where), 'utf8') : checkPem(buf, kind, field, where);
}

function execConfig(entry: Entry, where: string): ExecConfig {
  const exec = entry.body.exec;
  if (!isRecord(exec)) throw new KubeconfigError(`${where}: exec is not a map: give exec.command and exec.apiVersion`);
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
  if (!Array.isArray(env) || env.some((e) => !isRecord(e) || typeof e.name !== 'string' || typeof e.value !== 'string'))
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
  const found: unknown = extensions.find((e) => isRecord(e) && e.name === 'client.authentication.k8s.io/exec');
  return isRecord(found) ? found.extension : undefined;
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

/**
 * A proxy URL (the cluster's proxy-url, or HTTPS_PROXY and the like): http:// or https://, requests tunnelled with
 * CONNECT. SOCKS, which kubectl also takes, is refused by name. The value is never quoted: it may hold a password.
 */
export function checkProxyUrl(raw: unknown, field: string, where: string): string {
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) throw new KubeconfigError(`${where}: ${field} is not a URL: write http://HOST:PORT`, 2);
  if (url.protocol.startsWith('socks'))
    throw new KubeconfigError(
      `${where}: ${field} is a SOCKS proxy, which metalslice does not support: use an HTTP proxy (CONNECT), or write the inventory with kubectl`,
      2,
    );
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new KubeconfigError(`${where}: ${field} is not an http(s) URL: write http://HOST:PORT`, 2);
  return url.toString();
}

/** Where a cluster entry's API server is and how its certificate is checked. */
function clusterTarget(cluster: Entry, cWhere: string): Pick<KubeTarget, 'server' | 'ca' | 'insecureSkipTlsVerify' | 'tlsServerName' | 'proxyUrl'> {
  const rawServer = str(cluster.body.server);
  if (rawServer === undefined) throw new KubeconfigError(`${cWhere} has no server: set clusters[].cluster.server to https://HOST:PORT`);
  const server = serverUrl(rawServer, cWhere);
  const proxy = cluster.body['proxy-url'];
  return {
    server,
    insecureSkipTlsVerify: cluster.body['insecure-skip-tls-verify'] === true,
    ca: credential(cluster, 'certificate-authority', 'certificate-authority-data', 'ca', cWhere),
    tlsServerName: str(cluster.body['tls-server-name']),
    ...(proxy === undefined || proxy === null || proxy === '' ? {} : { proxyUrl: checkProxyUrl(proxy, 'proxy-url', cWhere) }),
  };
}

/** A user entry's credentials: a client certificate and key, a token (or token file), or an exec plugin. */
function userCredentials(user: Entry | undefined, uWhere: string): Pick<KubeTarget, 'cert' | 'key' | 'token' | 'exec'> {
  const u = user?.body ?? {};
  if (isRecord(u['auth-provider']))
    throw new KubeconfigError(
      `${uWhere} uses an auth-provider, which kubectl removed in 1.26: use its exec credential plugin instead (gke-gcloud-auth-plugin, kubelogin, or your OIDC provider's)`,
    );
  if (str(u.username) !== undefined || str(u.password) !== undefined)
    throw new KubeconfigError(
      `${uWhere} uses basic auth (username/password), which Kubernetes removed in 1.19: use a client certificate, a token or an exec plugin`,
    );
  const cert = user && credential(user, 'client-certificate', 'client-certificate-data', 'cert', uWhere);
  const key = user && credential(user, 'client-key', 'client-key-data', 'key', uWhere);
  if ((cert === undefined) !== (key === undefined))
    throw new KubeconfigError(
      `${uWhere} has a client ${cert ? 'certificate but no key' : 'key but no certificate'}: give both (client-certificate and client-key, or their -data forms)`,
    );
  const inline = str(u.token);
  let token = inline === undefined ? undefined : checkToken(inline, 'token', uWhere);
  const tokenFile = str(u.tokenFile);
  if (token === undefined && tokenFile !== undefined && user) {
    const buf = credential({ ...user, body: { tokenFile } }, 'tokenFile', 'tokenFile-data', 'token', uWhere);
    token = buf?.toString('utf8');
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
  const token = credential(dir, 'tokenFile', 'token-data', 'token', source)?.toString('utf8');
  const ca = credential(dir, 'certificate-authority', 'ca-data', 'ca', source);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { source, server: `https://${hostPart}:${port}`, ca, insecureSkipTlsVerify: false, token, who: source };
}

/**
 * The target kubectl would talk to: --kubeconfig, $KUBECONFIG, ~/.kube/config, then in-cluster; `context`
 * picks a context (default: current-context). Throws a KubeconfigError naming the fix. A --kubeconfig path is read as
 * the kubernetes provider reads a stack's `config_path`: a leading `~/` is the home directory, so a path a stack
 * hands a drain or a roll means what it meant to Terraform.
 */
export function findTarget(opts: { readonly kubeconfig?: string; readonly context?: string }, kenv: KubeEnv = DEFAULT_ENV()): KubeTarget {
  const file = opts.kubeconfig?.startsWith('~/') ? path.join(kenv.home, opts.kubeconfig.slice(2)) : opts.kubeconfig;
  const kc = loadKubeconfigFiles(file, kenv);
  if (kc !== null && (kc.contexts.size > 0 || opts.kubeconfig !== undefined)) return resolveContext(kc, opts.context);
  const inCluster = opts.context === undefined ? inClusterTarget(kenv) : null;
  if (inCluster !== null) return inCluster;
  const where = kc?.source ?? (kenv.env.KUBECONFIG ? `$KUBECONFIG (${escapeText(kenv.env.KUBECONFIG)})` : escapeText(path.join(kenv.home, '.kube', 'config')));
  throw new KubeconfigError(`no cluster in ${where}${kc === null ? ' (no such file)' : ''}: pass --kubeconfig FILE or set KUBECONFIG`, 2);
}
