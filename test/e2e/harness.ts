// A real control plane for end-to-end tests: etcd, kube-apiserver (TLS, RBAC, ResourceQuota admission) and
// a kube-controller-manager running only the controllers a tenant slice depends on (namespace deletion,
// quota usage, garbage collection, service accounts, PodDisruptionBudget status, claim protection), all on loopback, in a temp dir, torn down by stop().
// Binaries come from scripts/toolchain.sh (source its env.sh, or let scripts/test-e2e.sh do it).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import {
  apiMessage,
  apiRequest,
  ApiResponse,
  apiWatch,
  Component,
  cpuSeconds,
  freePort,
  onPath,
  startComponent,
  startOnFreePorts,
  stopComponent,
  tail,
  waitFor,
  waitForServing,
  WatchEvent,
  WatchStream,
} from '../../constructs/verify/processes';
import { findTarget } from '../../constructs/cli/kube/config';
import { CLIENT_EXTENSIONS, frontProxyFlags, makeCa, makeKeyAndCsr, makeLeaf, openssl, subject } from '../../constructs/verify/certificates';
import { etcdFlags, startKwok, startScheduler, waitForSchedulerAndKwok } from '../../constructs/verify/control-plane';
import { startKubevirt } from '../../constructs/verify/kubevirt';
import { KUBEVIRT_NAMESPACE } from '../../constructs/verify/kubevirt-stand-ins';
import type { ApiResourceList, ConfigMapDoc, CrdDoc, CsrDoc, NodeDoc, ResourceQuotaDoc, Status } from '../support/kube-docs';

/** The repository root (this file lives in test/e2e/). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The CRDs installed into every test cluster: `$METALSLICE_CRD_DIR`, else `shared/crds` beside the repository. */
export function defaultCrdDir(): string {
  return process.env.METALSLICE_CRD_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'crds');
}

/** The tenant identity tests use by default: a user in the tenants group with no rights until bound. */
export const DEFAULT_TENANT = { user: 'tenant-acme', groups: ['metalslice:tenants'] } as const;

export interface StartClusterOptions {
  /** Directory of CRD YAML files to install; `null` installs none. @default defaultCrdDir() */
  readonly crdDir?: string | null;
  /** Run kube-controller-manager (namespace deletion, quota status, GC). @default true */
  readonly controllerManager?: boolean;
  /**
   * Run KubeVirt itself (constructs/verify/kubevirt.ts): its 20 CRDs, RBAC and webhooks as virt-operator's code
   * generates them, and KubeVirt's own virt-api (every VirtualMachine goes through its real admission) and
   * virt-controller (VMs become VMIs and virt-launcher pods), as local processes. Implies kubevirtNamespace.
   * @default false
   */
  readonly kubevirt?: boolean;
  /** With kubevirt: stand in for CDI too (its CRDs, and each DataVolume left as an import leaves it), so VMs with a DataVolume root get a VMI. @default false */
  readonly cdi?: boolean;
  /** Create the `kubevirt` namespace, as installing the KubeVirt operator leaves it: where a fleet's KubeVirt CR goes. @default false */
  readonly kubevirtNamespace?: boolean;
  /** How long to wait for each component to become ready. @default 120000 */
  readonly startTimeoutMs?: number;
  /**
   * Run a tenant's workloads too: kube-controller-manager's deployment, replicaset and statefulset controllers,
   * kube-scheduler, and KWOK as the kubelet of every Node labelled `TENANT_KWOK_NODE_LABEL` (it keeps the Node
   * Ready, marks the pods bound to it Running and Ready, and ends their deletion as a kubelet does). Needs
   * kube-controller-manager. @default false
   */
  readonly workloads?: boolean;
  /**
   * Make the control plane one that nodes can join, as `kubeadm init` leaves it (see makeJoinable): bootstrap
   * token authentication, anonymous reads of cluster-info, Node authorization and NodeRestriction, the bootstrap
   * signer, token cleaner and CSR approving/signing controllers, and kubeadm's own `init phase bootstrap-token`
   * and `init phase upload-config` run against it. Needs kubeadm on PATH. @default false
   */
  readonly joinable?: boolean;
  /**
   * Keep kube-apiserver's audit log (JSON lines, every request at Metadata level: who, which verb, which
   * object, the answer's code) in TestCluster.auditLog, to judge a command by what the API server recorded.
   * With `requestBodies`, writes to those resources are kept at Request level (their bodies too: what a write set).
   * @default false
   */
  readonly audit?: boolean | { readonly requestBodies: readonly { readonly group: string; readonly resources: readonly string[] }[] };
  /**
   * More subjectAltNames for the API server's serving certificate, in openssl's form (`IP:10.0.2.100`,
   * `DNS:api.example`): the addresses a client that is not on this machine dials (a VM through a port forward).
   * @default none
   */
  readonly extraServingSans?: readonly string[];
  /**
   * With joinable: the API server URL kube-public/cluster-info publishes (kubeadm's own phase writes the one
   * it was run against, https://127.0.0.1:<port>). `kubeadm join` bootstraps the kubelet against this URL, so
   * a node that reaches the API server at another address (a VM) needs it to be that address.
   * @default the loopback URL
   */
  readonly clusterInfoServer?: string;
  /**
   * With joinable: the cgroupDriver of the KubeletConfiguration kubeadm uploads (kube-system/kubelet-config),
   * which every joining kubelet starts from. `cgroupfs` for a kubelet on this machine (no systemd here);
   * `systemd`, kubeadm's own default, for a node that boots systemd (a VM).
   * @default 'cgroupfs'
   */
  readonly kubeletCgroupDriver?: 'cgroupfs' | 'systemd';
}

/** The label (key=value) of the Nodes KWOK plays the kubelet of, in a cluster started with `workloads`. */
export const TENANT_KWOK_NODE_LABEL = { key: 'metalslice.io/e2e-kwok', value: 'true' } as const;

/** The taint of KWOK's Nodes: only pods that tolerate it (a test's tenant workloads) land there, no launcher pod. */
export const TENANT_KWOK_NODE_TAINT = { key: 'metalslice.io/e2e-tenant', value: 'true', effect: 'NoSchedule' } as const;

/** What a joinable control plane (StartClusterOptions.joinable) was made with. */
export interface JoinableControlPlane {
  /** `kubeadm version -o short` of the kubeadm that set it up; nodes join with the same binary. */
  readonly kubeadmVersion: string;
  /** The kubeadm configuration given to the init phases (InitConfiguration, ClusterConfiguration, KubeletConfiguration). */
  readonly kubeadmConfigFile: string;
  /** `host:port` of the API server, as a JoinConfiguration's discovery.bootstrapToken.apiServerEndpoint. */
  readonly apiServerEndpoint: string;
}

export type { ApiResponse } from '../../constructs/verify/processes';

/** A minimal Kubernetes REST client over plain HTTPS with a kubeconfig's client certificate. */
export interface KubeClient {
  request<T = unknown>(method: string, apiPath: string, body?: unknown, contentType?: string): Promise<ApiResponse<T>>;
  get<T = unknown>(apiPath: string): Promise<ApiResponse<T>>;
  create<T = unknown>(collectionPath: string, body: unknown): Promise<ApiResponse<T>>;
  delete<T = unknown>(apiPath: string): Promise<ApiResponse<T>>;
  /** A watch (`apiPath` with `watch=1`): each event to `onEvent` as the API server sends it. */
  watch<T = unknown>(apiPath: string, onEvent: (event: WatchEvent<T>) => void): WatchStream;
}

export interface TestCluster {
  /** `https://127.0.0.1:<port>` */
  readonly server: string;
  /** PEM file of the cluster CA (signs the serving and all client certificates). */
  readonly caFile: string;
  /** Kubeconfig of the provider admin (client cert, O=system:masters). */
  readonly adminKubeconfig: string;
  /** The temp directory holding certs, kubeconfigs, data and logs; removed by stop(). */
  readonly dir: string;
  /** Names of the CRDs installed at start (`virtualmachines.kubevirt.io`, ...). */
  readonly crds: readonly string[];
  /** Set when started with `joinable: true`. */
  readonly joinable?: JoinableControlPlane;
  /** The audit log (JSON lines), when started with `audit: true`. */
  readonly auditLog?: string;
  /** Kubeconfig of a client-cert user (CN=user, O=each group); made once per user and group set. */
  tenantKubeconfig(user?: string, groups?: readonly string[]): string;
  /** A plain-HTTPS client authenticated by a kubeconfig of this cluster. @default the admin kubeconfig */
  client(kubeconfigPath?: string): KubeClient;
  /** Installs the CRDs of a directory, waits until Established and served; returns their names. Quota
   * counting and garbage collection of CRDs installed after start begin within about 30 s. */
  installCrds(dir: string): Promise<string[]>;
  /** Waits until the quota controller has filled in `status.used` for every resource in `spec.hard`: until
   * then ResourceQuota admission rejects creates with "status unknown for quota". */
  waitForQuotaStatus(namespace: string, name: string, timeoutMs?: number): Promise<void>;
  /** Waits until API discovery lists `plural` in `group/version` (e.g. kubevirt.io, v1, virtualmachines). */
  waitForResource(group: string, version: string, plural: string, timeoutMs?: number): Promise<void>;
  /** The last lines of each component's log. */
  logTail(lines?: number): string;
  /** Kills kube-apiserver (no grace, as a crash), waits `downMs`, starts it again on the same etcd. */
  crashApiserver(downMs?: number): Promise<void>;
  /** CPU seconds (user + system) the running kube-apiserver has used so far, from /proc; throws if none runs. */
  apiserverCpuSeconds(): number;
  /** Stops every process (process groups, TERM then KILL) and removes the temp dir; idempotent. */
  stop(): Promise<void>;
}

/** The result of a command run to completion. */
export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion, capturing its output (never throws on a non-zero exit). */
export function run(
  command: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + (signal ? `\n[killed by ${signal}]` : ''),
      });
    });
  });
}

/** Fails the test with the step's output (its last 4000 characters) when a command did not exit 0. */
export function expectOk(step: string, r: CommandResult): void {
  if (r.code !== 0) throw new Error(`${step} exited ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
}

/** A copy of modules/ and node-templates/ (templates refer to ../../modules), so `tofu init` never writes into the repo. */
export function copyTerraformTree(dest: string): string {
  for (const dir of ['modules', 'node-templates']) {
    fs.cpSync(path.join(REPO_ROOT, dir), path.join(dest, dir), {
      recursive: true,
      filter: (src) => !/\.terraform(\.lock\.hcl)?$/.test(src) && !src.endsWith('.tfstate'),
    });
  }
  return dest;
}

/**
 * The environment examples/config-app.ts reads (the stacks a config file makes), with the test API server as the
 * provider cluster (KUBE_CONFIG_PATH), synthesized into `outdir`, state in a local file; `extra` adds the config
 * (METALSLICE_CONFIG) and the rest.
 */
export function configAppEnv(cluster: Pick<TestCluster, 'adminKubeconfig'>, outdir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, CHECKPOINT_DISABLE: '1', METALSLICE_STATE: 'local', CDKTF_OUTDIR: outdir, KUBE_CONFIG_PATH: cluster.adminKubeconfig, ...extra };
}

/**
 * The environment the example stacks (examples/app.ts) read, with the test API server as both the provider
 * cluster and the tenant cluster (bootstrap tokens land in its kube-system); `extra` adds or overrides. State
 * stays in a local file (`METALSLICE_STATE=local`): shared state has its own test (state-backend.test.ts).
 */
export function exampleStackEnv(cluster: Pick<TestCluster, 'adminKubeconfig' | 'server' | 'caFile'>, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    METALSLICE_STATE: 'local',
    METALSLICE_PROVIDER_KUBECONFIG: cluster.adminKubeconfig,
    METALSLICE_TENANT_KUBECONFIG: cluster.adminKubeconfig,
    METALSLICE_TENANT_ENDPOINT: cluster.server,
    METALSLICE_TENANT_CA_FILE: cluster.caFile,
    ...extra,
  };
}

/** Synthesizes the example app (examples/app.ts, run with tsx as its cdktf.json would) in `cwd` with `env`. */
export async function synthExampleApp(cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const r = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'app.ts')], {
    cwd,
    env,
    timeoutMs: 120_000,
  });
  expectOk('synth', r);
}

/**
 * Synthesizes the config app (examples/app.ts's twin for a YAML or JSON config, examples/config-app.ts, run with tsx)
 * in `cwd` with `env` (METALSLICE_CONFIG, METALSLICE_LAYOUT and the rest).
 */
export async function synthConfigApp(cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<void> {
  const r = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], {
    cwd,
    env,
    timeoutMs,
  });
  expectOk('synth', r);
}

/** Runs `tofu` (the toolchain's OpenTofu, with its offline provider mirror) in a working directory. */
export function tofu(cwd: string, args: readonly string[], timeoutMs = 300_000): Promise<CommandResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_INPUT: '0' };
  delete env.TF_PLUGIN_CACHE_DIR;
  return run(binary('tofu'), args, { cwd, env, timeoutMs });
}

/** Finds a toolchain binary on PATH, with a hint to run the toolchain script when it is missing. */
export function binary(name: string): string {
  const found = onPath(name);
  if (found) return found;
  throw new Error(`${name} not found on PATH: run scripts/test-e2e.sh, or source "$(scripts/toolchain.sh)" first`);
}

// ---------------------------------------------------------------------------------------------------------
// Certificates (constructs/verify/certificates.ts): one CA, `ca.crt`, signs the serving certificate and every
// client certificate.

function makeClientCert(dir: string, name: string, user: string, groups: readonly string[]): void {
  makeLeaf(dir, 'ca', name, subject(user, groups), CLIENT_EXTENSIONS);
}

function writeKubeconfig(file: string, server: string, caFile: string, certFile: string, keyFile: string, user: string): void {
  const q = JSON.stringify; // JSON strings are valid YAML scalars
  fs.writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: e2e`,
      `  cluster: {server: ${q(server)}, certificate-authority: ${q(caFile)}}`,
      'users:',
      `- name: ${q(user)}`,
      `  user: {client-certificate: ${q(certFile)}, client-key: ${q(keyFile)}}`,
      'contexts:',
      `- name: e2e`,
      `  context: {cluster: e2e, user: ${q(user)}}`,
      'current-context: e2e',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
}

// ---------------------------------------------------------------------------------------------------------
// A plain HTTPS client: enough to read, create and delete, and to see a 403 or a quota rejection as data.

interface KubeconfigCreds {
  server: string;
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** Sent as `Authorization: Bearer` (a bootstrap token) instead of a client certificate. */
  bearerToken?: string;
}

/** The server, CA and client certificate of a kubeconfig's current context, read by metalslice's own loader. */
function readKubeconfig(file: string): KubeconfigCreds {
  const t = findTarget({ kubeconfig: file });
  if (!t.ca || !t.cert || !t.key) throw new Error(`${file}: expected a CA and a client certificate`);
  return { server: t.server, ca: t.ca, cert: t.cert, key: t.key };
}

function makeClient(creds: KubeconfigCreds): KubeClient {
  const agent = new https.Agent({ ca: creds.ca, cert: creds.cert, key: creds.key, keepAlive: false });
  const headers: Record<string, string> = creds.bearerToken !== undefined ? { Authorization: `Bearer ${creds.bearerToken}` } : {};
  const request = <T = unknown>(method: string, apiPath: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse<T>> =>
    apiRequest<T>(creds.server, agent, headers, method, apiPath, body, contentType, 30_000);
  return {
    request,
    get: <T = unknown>(p: string) => request<T>('GET', p),
    create: <T = unknown>(p: string, b: unknown) => request<T>('POST', p, b),
    delete: <T = unknown>(p: string) => request<T>('DELETE', p),
    watch: <T = unknown>(p: string, onEvent: (event: WatchEvent<T>) => void) => apiWatch<T>(creds.server, agent, headers, p, onEvent),
  };
}

// ---------------------------------------------------------------------------------------------------------

/** Reads every CustomResourceDefinition document from the .yaml/.yml/.json files of a directory. */
export function readCrds(dir: string): CrdDoc[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort();
  const crds: CrdDoc[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${f}: ${doc.errors[0].message}`);
      const obj = doc.toJS({ maxAliasCount: -1 }) as Partial<CrdDoc> | null;
      if (obj?.kind === 'CustomResourceDefinition') crds.push(obj as CrdDoc);
    }
  }
  if (crds.length === 0) throw new Error(`no CustomResourceDefinition found in ${dir}`);
  return crds;
}

/**
 * Starts etcd, kube-apiserver and (by default) kube-controller-manager, and installs the CRDs. A start that fails
 * because a port was taken is tried again, twice at most, on new ports: ports are picked free and bound a moment
 * later, and two e2e files start their control planes at once.
 */
export function startCluster(opts: StartClusterOptions = {}): Promise<TestCluster> {
  return startOnFreePorts(
    () => startClusterOnce(opts),
    3,
    (attempt) => console.log(`test cluster: a port was taken while it started (attempt ${attempt}); starting again on new ports`),
  );
}

async function startClusterOnce(opts: StartClusterOptions): Promise<TestCluster> {
  const timeoutMs = opts.startTimeoutMs ?? 120_000;
  const crdDir = opts.crdDir === undefined ? defaultCrdDir() : opts.crdDir;
  const joinable = opts.joinable === true;
  if (joinable && opts.controllerManager === false)
    throw new Error('startCluster: a joinable control plane needs kube-controller-manager (its bootstrap signer signs cluster-info)');
  const workloads = opts.workloads === true;
  if (workloads && opts.controllerManager === false)
    throw new Error('startCluster: workloads need kube-controller-manager (Deployments, ReplicaSets, StatefulSets, budgets)');
  const bins = {
    etcd: binary('etcd'),
    apiserver: binary('kube-apiserver'),
    kcm: opts.controllerManager === false ? undefined : binary('kube-controller-manager'),
    scheduler: workloads ? binary('kube-scheduler') : undefined,
    kwok: workloads ? binary('kwok') : undefined,
  };
  const kubeadm = joinable ? binary('kubeadm') : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-e2e-'));
  const components: Component[] = [];
  const beforeStop: (() => Promise<void>)[] = [];
  let stopped = false;
  const logTail = (lines = 40): string => components.map((c) => `----- ${c.name} (${c.logFile}) -----\n${tail(c.logFile, lines)}`).join('\n');
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const f of beforeStop) await f().catch(() => undefined);
    // Reverse order: controllers, then the API server, then its storage.
    for (const c of [...components].reverse()) await stopComponent(c);
    if (!process.env.METALSLICE_E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  };
  const diedEarly = (): string | undefined => {
    const dead = components.find((c) => c.exited);
    return dead ? `${dead.name} exited (code ${dead.child.exitCode}, signal ${dead.child.signalCode})` : undefined;
  };

  try {
    // Certificates and keys.
    makeCa(dir, 'ca', 'metalslice-e2e-ca');
    makeLeaf(
      dir,
      'ca',
      'apiserver',
      subject('kube-apiserver'),
      [
        'keyUsage = critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage = serverAuth',
        `subjectAltName = ${['IP:127.0.0.1', 'DNS:localhost', 'DNS:kubernetes', 'DNS:kubernetes.default', 'DNS:kubernetes.default.svc', ...(opts.extraServingSans ?? [])].join(',')}`,
      ].join('\n'),
    );
    makeClientCert(dir, 'admin', 'metalslice-admin', ['system:masters']);
    openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key']);
    openssl(dir, ['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);

    const [etcdClientPort, etcdPeerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    const server = `https://127.0.0.1:${apiPort}`;
    const caFile = path.join(dir, 'ca.crt');
    const adminKubeconfig = path.join(dir, 'admin.kubeconfig');
    writeKubeconfig(adminKubeconfig, server, caFile, path.join(dir, 'admin.crt'), path.join(dir, 'admin.key'), 'metalslice-admin');
    const admin = makeClient(readKubeconfig(adminKubeconfig));

    // etcd: loopback only, no fsync (a throwaway data dir).
    const etcdUrl = `http://127.0.0.1:${etcdClientPort}`;
    const etcd = startComponent('etcd', bins.etcd, etcdFlags('e2e', dir, etcdClientPort, etcdPeerPort, 2 * 1024 ** 3), dir);
    components.push(etcd);
    // Our etcd's, not another cluster's that took the port between its pick and our etcd's bind.
    await waitForServing(
      'etcd health',
      etcd,
      etcdClientPort,
      timeoutMs,
      async () => {
        const res = await fetch(`${etcdUrl}/health`);
        return res.ok && ((await res.json()) as { health?: string }).health === 'true';
      },
      diedEarly,
    );

    // virt-api reads the request-header CA the API server publishes; it only exists with these flags.
    const kubevirtFlags = opts.kubevirt ? frontProxyFlags(dir) : [];
    const auditLog = opts.audit ? path.join(dir, 'audit.log') : undefined;
    if (auditLog)
      fs.writeFileSync(
        path.join(dir, 'audit-policy.yaml'),
        stringify({
          apiVersion: 'audit.k8s.io/v1',
          kind: 'Policy',
          omitStages: ['RequestReceived'],
          rules: [
            ...(typeof opts.audit === 'object'
              ? [
                  {
                    level: 'Request',
                    verbs: ['create', 'update', 'patch'],
                    resources: opts.audit.requestBodies.map((r) => ({ group: r.group, resources: [...r.resources] })),
                  },
                ]
              : []),
            { level: 'Metadata' },
          ],
        }),
      );
    const auditFlags = auditLog
      ? [`--audit-policy-file=${path.join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${auditLog}`, '--audit-log-format=json', '--audit-log-mode=blocking']
      : [];
    const startApiserver = () =>
      startComponent(
        'kube-apiserver',
        bins.apiserver,
        [
          `--etcd-servers=${etcdUrl}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--secure-port=${apiPort}`,
          `--cert-dir=${dir}`,
          `--tls-cert-file=${path.join(dir, 'apiserver.crt')}`,
          `--tls-private-key-file=${path.join(dir, 'apiserver.key')}`,
          `--client-ca-file=${caFile}`,
          ...(joinable
            ? JOINABLE_APISERVER_FLAGS
            : [
                '--anonymous-auth=false',
                '--authorization-mode=RBAC',
                '--enable-admission-plugins=NamespaceLifecycle,LimitRanger,ServiceAccount,ResourceQuota',
              ]),
          `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
          `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
          '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
          '--service-cluster-ip-range=10.96.0.0/16',
          '--enable-priority-and-fairness=false',
          ...kubevirtFlags,
          ...auditFlags,
          '--profiling=false',
          '--v=1',
        ],
        dir,
      );
    // A refused connection throws: waitFor keeps polling and names the last error if it times out.
    const readyz = async (): Promise<boolean> => (await admin.get('/readyz')).status === 200;
    const apiserver = startApiserver();
    components.push(apiserver);
    await waitForServing('kube-apiserver /readyz', apiserver, apiPort, timeoutMs, readyz, diedEarly);
    // A fault: kill the API server (SIGKILL, as a crash) and, after `downMs`, start it again on the same etcd.
    const crashApiserver = async (downMs = 2_000): Promise<void> => {
      const i = components.findIndex((c) => c.name === 'kube-apiserver' && !c.exited);
      if (i < 0) throw new Error('kube-apiserver is not running');
      await stopComponent(components[i], 0);
      await new Promise((r) => setTimeout(r, downMs));
      components[i] = startApiserver();
      await waitForServing('kube-apiserver /readyz after restart', components[i], apiPort, timeoutMs, readyz, diedEarly);
    };

    // CRDs before the controller manager: its quota and garbage collector monitors start from discovery
    // and only pick up resources added later at their next 30 s resync.
    const crds = crdDir ? await installCrds(admin, crdDir, timeoutMs) : [];

    if (bins.kcm) {
      components.push(
        startComponent(
          'kube-controller-manager',
          bins.kcm,
          [
            `--kubeconfig=${adminKubeconfig}`,
            `--controllers=namespace-controller,resourcequota-controller,garbage-collector-controller,serviceaccount-controller,serviceaccount-token-controller,clusterrole-aggregation-controller,root-ca-certificate-publisher-controller,disruption-controller,persistentvolumeclaim-protection-controller${workloads ? `,${WORKLOAD_CONTROLLERS.join(',')}` : ''}${joinable ? `,${JOINABLE_CONTROLLERS.join(',')}` : ''}`,
            ...(joinable ? [`--cluster-signing-cert-file=${caFile}`, `--cluster-signing-key-file=${path.join(dir, 'ca.key')}`] : []),
            `--service-account-private-key-file=${path.join(dir, 'sa.key')}`,
            `--root-ca-file=${caFile}`,
            '--leader-elect=false',
            '--secure-port=0',
            '--resource-quota-sync-period=10s',
            '--v=1',
          ],
          dir,
        ),
      );
      // The service account controller creating "default" in the default namespace shows the controllers are running.
      await waitFor(
        'kube-controller-manager',
        timeoutMs,
        async () => (await admin.get('/api/v1/namespaces/default/serviceaccounts/default')).status === 200,
        diedEarly,
      );
    }

    // kube-scheduler and KWOK as verify runs them, KWOK playing the pods' status too (Running and Ready).
    if (bins.scheduler && bins.kwok) {
      const home = { dir, kubeconfig: adminKubeconfig, procs: components };
      const scheduler = await startScheduler(home, bins.scheduler, {});
      const kwok = await startKwok(home, bins.kwok, { kwokPodStatus: true }, `${TENANT_KWOK_NODE_LABEL.key}=${TENANT_KWOK_NODE_LABEL.value}`);
      // Ready before the tests run, so one that could not bind its port starts the cluster again (startCluster).
      await waitForSchedulerAndKwok(scheduler, kwok, timeoutMs, diedEarly);
    }

    const joinableControlPlane = kubeadm
      ? await makeJoinable({
          kubeadm,
          dir,
          adminKubeconfig,
          apiPort,
          admin,
          timeoutMs,
          clusterInfoServer: opts.clusterInfoServer,
          cgroupDriver: opts.kubeletCgroupDriver ?? 'cgroupfs',
        })
      : undefined;
    // kube-public/cluster-info with the cluster's CA, as every control plane a node joins by bootstrap token
    // publishes it (kubeadm's phase writes it on a joinable one): a node's drain checks it reaches that cluster.
    if (!kubeadm) {
      const kubeconfig = stringify({ clusters: [{ cluster: { 'certificate-authority-data': fs.readFileSync(caFile).toString('base64'), server }, name: '' }] });
      const created = await admin.request('POST', '/api/v1/namespaces/kube-public/configmaps', { metadata: { name: 'cluster-info' }, data: { kubeconfig } });
      if (created.status !== 201) throw new Error(`cannot publish kube-public/cluster-info: HTTP ${created.status}`);
    }

    const tenantCache = new Map<string, string>();
    let tenantSeq = 0;
    const allCrds = [...crds];
    const cluster: TestCluster = {
      server,
      caFile,
      adminKubeconfig,
      dir,
      crds: allCrds,
      joinable: joinableControlPlane,
      ...(auditLog ? { auditLog } : {}),
      tenantKubeconfig(user = DEFAULT_TENANT.user, groups = DEFAULT_TENANT.groups): string {
        const key = JSON.stringify([user, [...groups]]);
        const cached = tenantCache.get(key);
        if (cached) return cached;
        const name = `tenant-${tenantSeq++}`;
        makeClientCert(dir, name, user, groups);
        const file = path.join(dir, `${name}.kubeconfig`);
        writeKubeconfig(file, server, caFile, path.join(dir, `${name}.crt`), path.join(dir, `${name}.key`), user);
        tenantCache.set(key, file);
        return file;
      },
      client: (kubeconfigPath = adminKubeconfig) => (kubeconfigPath === adminKubeconfig ? admin : makeClient(readKubeconfig(kubeconfigPath))),
      installCrds: (crdDirectory) => installCrds(admin, crdDirectory, timeoutMs),
      waitForResource: (group, version, plural, ms = timeoutMs) => waitForResource(admin, group, version, plural, ms),
      waitForQuotaStatus: (namespace, name, ms = 60_000) =>
        waitFor(`ResourceQuota ${namespace}/${name} status`, ms, async () => {
          const q = (await admin.get<ResourceQuotaDoc | undefined>(`/api/v1/namespaces/${namespace}/resourcequotas/${name}`)).body;
          const used = q?.status?.used ?? {};
          return q?.spec?.hard !== undefined && Object.keys(q.spec.hard).every((k) => k in used);
        }),
      logTail,
      crashApiserver,
      apiserverCpuSeconds: () => {
        const running = components.find((c) => c.name === 'kube-apiserver' && !c.exited);
        const seconds = running && cpuSeconds(running);
        if (seconds === undefined) throw new Error(`the kube-apiserver of ${dir} is not running`);
        return seconds;
      },
      stop,
    };
    if (opts.kubevirt) {
      const kubevirt = await startKubevirt(
        {
          dir,
          request: (method, apiPath, body, contentType) => admin.request(method, apiPath, body, contentType),
          watch: (apiPath, onEvent) => admin.watch(apiPath, onEvent),
          kubeconfigFor: (serviceAccount) =>
            cluster.tenantKubeconfig(`system:serviceaccount:${KUBEVIRT_NAMESPACE}:${serviceAccount}`, [
              'system:serviceaccounts',
              `system:serviceaccounts:${KUBEVIRT_NAMESPACE}`,
            ]),
          components,
          dead: diedEarly,
          timeoutMs,
        },
        { cdi: opts.cdi === true },
      );
      beforeStop.push(() => kubevirt.stop());
      for (const name of kubevirt.crds) if (!allCrds.includes(name)) allCrds.push(name);
    } else if (opts.kubevirtNamespace) {
      const created = await admin.create('/api/v1/namespaces', { metadata: { name: 'kubevirt' } });
      if (created.status !== 201) throw new Error(`creating the kubevirt namespace: HTTP ${created.status}: ${apiMessage(created.body)}`);
    }
    return cluster;
  } catch (e) {
    const message = `test cluster failed to start: ${(e as Error).message}\n${logTail()}`;
    await stop().catch(() => undefined);
    throw new Error(message);
  }
}

/** The controllers a tenant's workloads need, beyond those every test cluster runs. */
const WORKLOAD_CONTROLLERS = ['deployment-controller', 'replicaset-controller', 'statefulset-controller'] as const;

async function installCrds(admin: KubeClient, dir: string, timeoutMs: number): Promise<string[]> {
  const crds = readCrds(dir);
  for (const crd of crds) {
    const res = await admin.create<Status | undefined>('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (res.status !== 201 && res.status !== 409) {
      throw new Error(`creating CRD ${crd.metadata.name}: HTTP ${res.status}: ${apiMessage(res.body)}`);
    }
  }
  for (const crd of crds) {
    const name = crd.metadata.name;
    await waitFor(`CRD ${name} Established`, timeoutMs, async () => {
      const res = await admin.get<CrdDoc | undefined>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      const conditions = res.body?.status?.conditions ?? [];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True');
    });
  }
  for (const crd of crds) {
    for (const v of crd.spec.versions) {
      if (v.served) await waitForResource(admin, crd.spec.group, v.name, crd.spec.names.plural, timeoutMs);
    }
  }
  return crds.map((c) => c.metadata.name);
}

async function waitForResource(admin: KubeClient, group: string, version: string, plural: string, timeoutMs: number): Promise<void> {
  const gv = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  await waitFor(`discovery of ${plural} in ${group}/${version}`, timeoutMs, async () => {
    const res = await admin.get<ApiResourceList | undefined>(gv);
    return res.status === 200 && (res.body?.resources ?? []).some((r) => r.name === plural);
  });
}

// ---------------------------------------------------------------------------------------------------------
// A joinable control plane: what `kubeadm init` leaves behind for `kubeadm join`, on the e2e API server. The
// flags and controllers are those kubeadm's static Pod manifests give kube-apiserver and kube-controller-manager;
// the ConfigMaps and RBAC are made by kubeadm itself, its init phases run against the running API server.

/** kube-apiserver flags kubeadm sets that a join depends on. */
const JOINABLE_APISERVER_FLAGS = [
  // Discovery reads kube-public/cluster-info before it trusts the server, so anonymously; RBAC gives anonymous
  // only that ConfigMap (kubeadm's bootstrap-signer-clusterinfo Role) and the public /version, /healthz.
  '--anonymous-auth=true',
  '--enable-bootstrap-token-auth=true',
  '--authorization-mode=Node,RBAC',
  '--enable-admission-plugins=NamespaceLifecycle,LimitRanger,ServiceAccount,ResourceQuota,NodeRestriction',
];

/** The controllers kubeadm turns on beyond the defaults, and the CSR controllers a TLS bootstrap needs. */
const JOINABLE_CONTROLLERS = [
  'bootstrap-signer-controller',
  'token-cleaner-controller',
  'certificatesigningrequest-approving-controller',
  'certificatesigningrequest-signing-controller',
  'certificatesigningrequest-cleaner-controller',
];

/** The kubeadm configuration the init phases read (multi-document YAML). */
function kubeadmInitConfiguration(kubernetesVersion: string, apiPort: number, cgroupDriver: 'cgroupfs' | 'systemd'): string {
  const docs = [
    {
      apiVersion: 'kubeadm.k8s.io/v1beta4',
      kind: 'InitConfiguration',
      // kubeadm init always makes one token; so does this control plane (its secret is never printed).
      bootstrapTokens: [
        {
          description: "the e2e control plane's own token, as kubeadm init makes one",
          ttl: '1h',
          groups: ['system:bootstrappers:kubeadm:default-node-token'],
          usages: ['signing', 'authentication'],
        },
      ],
      // No advertiseAddress: kubeadm refuses a loopback one, and only the endpoint below is ever dialled.
      localAPIEndpoint: { bindPort: apiPort },
      nodeRegistration: { name: 'e2e-control-plane', criSocket: 'unix:///run/containerd/containerd.sock' },
    },
    {
      apiVersion: 'kubeadm.k8s.io/v1beta4',
      kind: 'ClusterConfiguration',
      clusterName: 'metalslice-e2e',
      kubernetesVersion,
      controlPlaneEndpoint: `127.0.0.1:${apiPort}`,
      networking: { serviceSubnet: '10.96.0.0/16', dnsDomain: 'cluster.local' },
    },
    {
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      // The e2e machine has no systemd (PID 1 is not an init system), so a kubelet there can only use cgroupfs;
      // a VM that boots systemd uses kubeadm's default, systemd (StartClusterOptions.kubeletCgroupDriver).
      cgroupDriver,
    },
  ];
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

/**
 * Makes a running control plane joinable the way `kubeadm init` does: `kubeadm init phase upload-config all`
 * (kubeadm-config and kubelet-config ConfigMaps in kube-system, and the Roles that let bootstrap tokens and
 * nodes read them) and `kubeadm init phase bootstrap-token` (cluster-info in kube-public, readable
 * anonymously; RBAC that lets bootstrap tokens post CSRs and get Nodes; auto-approval of node client CSRs and
 * their renewals; kubeadm's own token). Returns once the bootstrap signer has signed cluster-info.
 */
async function makeJoinable(p: {
  kubeadm: string;
  dir: string;
  adminKubeconfig: string;
  apiPort: number;
  admin: KubeClient;
  timeoutMs: number;
  clusterInfoServer?: string;
  cgroupDriver: 'cgroupfs' | 'systemd';
}): Promise<JoinableControlPlane> {
  const version = await run(p.kubeadm, ['version', '-o', 'short']);
  expectOk('kubeadm version', version);
  const kubeadmVersion = version.stdout.trim();
  const kubeadmConfigFile = path.join(p.dir, 'kubeadm-init.yaml');
  fs.writeFileSync(kubeadmConfigFile, kubeadmInitConfiguration(kubeadmVersion, p.apiPort, p.cgroupDriver));
  for (const phase of [
    ['upload-config', 'all'],
    ['bootstrap-token', '--skip-token-print'],
  ]) {
    const r = await run(p.kubeadm, ['init', 'phase', ...phase, `--config=${kubeadmConfigFile}`, `--kubeconfig=${p.adminKubeconfig}`], {
      timeoutMs: p.timeoutMs,
    });
    fs.writeFileSync(path.join(p.dir, `kubeadm-init-phase-${phase[0]}.log`), r.stdout + r.stderr);
    if (r.code !== 0) throw new Error(`kubeadm init phase ${phase.join(' ')} exited ${r.code}: ${r.stderr.slice(-3000)}`);
  }
  await waitFor('cluster-info signed by the bootstrap signer', p.timeoutMs, async () => {
    const cm = (await p.admin.get<ConfigMapDoc | undefined>('/api/v1/namespaces/kube-public/configmaps/cluster-info')).body;
    return Object.keys(cm?.data ?? {}).some((k) => k.startsWith('jws-kubeconfig-'));
  });
  if (p.clusterInfoServer !== undefined) await publishClusterInfoServer(p.admin, p.clusterInfoServer, p.timeoutMs);
  return { kubeadmVersion, kubeadmConfigFile, apiServerEndpoint: `127.0.0.1:${p.apiPort}` };
}

/**
 * Rewrites the server of kube-public/cluster-info (the URL a joining node bootstraps against) and waits until
 * the bootstrap signer has signed the new content: every jws-kubeconfig-* signature changed.
 */
async function publishClusterInfoServer(admin: KubeClient, server: string, timeoutMs: number): Promise<void> {
  const cmPath = '/api/v1/namespaces/kube-public/configmaps/cluster-info';
  const cm = (await admin.get<ConfigMapDoc>(cmPath)).body;
  const data = cm.data ?? {};
  const kubeconfig = parseAllDocuments(data.kubeconfig ?? '')[0]?.toJS() as { clusters?: { cluster: { server?: string } }[] } | undefined;
  if (!kubeconfig?.clusters?.length) throw new Error('kube-public/cluster-info has no kubeconfig with a cluster');
  for (const c of kubeconfig.clusters) c.cluster.server = server;
  const before = Object.fromEntries(Object.entries(data).filter(([k]) => k.startsWith('jws-kubeconfig-')));
  const patched = await admin.request('PATCH', cmPath, { data: { kubeconfig: stringify(kubeconfig) } }, 'application/merge-patch+json');
  if (patched.status !== 200) throw new Error(`cannot set cluster-info's server to ${server}: HTTP ${patched.status}`);
  await waitFor(`cluster-info signed again with server ${server}`, timeoutMs, async () => {
    const now = (await admin.get<ConfigMapDoc | undefined>(cmPath)).body?.data ?? {};
    return Object.keys(before).every((k) => now[k] !== undefined && now[k] !== before[k]);
  });
}

/** A client of a cluster that authenticates with a bootstrap token (`<id>.<secret>`), as a joining node does. */
export function bootstrapTokenClient(cluster: TestCluster, token: string): KubeClient {
  return makeClient({ server: cluster.server, ca: fs.readFileSync(cluster.caFile), bearerToken: token });
}

// ---------------------------------------------------------------------------------------------------------
// A real worker node on this machine: containerd and runc (Debian's), `kubeadm join` and the kubelet, in a
// private mount namespace (test/e2e/kubeadm-node.sh). Fixed ports (kubelet 10248, 10250): one node at a time.

/** Where Debian puts runc, conntrack, iptables; not always on a test runner's PATH. */
const NODE_PATH = [process.env.PATH ?? '', '/usr/local/sbin', '/usr/sbin', '/sbin'].filter(Boolean).join(path.delimiter);

/**
 * Why a real kubelet cannot run here, or undefined when it can. Runs scripts/node-runtime.sh first, which
 * installs containerd, runc and the tools kubeadm's preflight looks for from Debian's packages when missing.
 */
export async function realKubeletUnavailable(): Promise<string | undefined> {
  if (process.platform !== 'linux') return `a kubelet runs on Linux only (this is ${process.platform})`;
  const uid = process.getuid?.();
  if (uid !== 0) return `kubeadm join and the kubelet need root (this test runs as uid ${uid})`;
  const runtime = await run('bash', [path.join(REPO_ROOT, 'scripts', 'node-runtime.sh')], { timeoutMs: 600_000 });
  if (runtime.code !== 0) return `scripts/node-runtime.sh could not install containerd and runc (exit ${runtime.code}): ${runtime.stderr.trim().slice(-800)}`;
  const env = { ...process.env, PATH: NODE_PATH };
  for (const name of ['unshare', 'containerd', 'runc', 'kubeadm', 'kubelet']) {
    if ((await run('sh', ['-c', `command -v ${name}`], { env })).code !== 0) return `${name} is not on PATH (${NODE_PATH})`;
  }
  const namespace = await run('unshare', ['--mount', '--propagation', 'private', 'true'], { env });
  if (namespace.code !== 0) return `cannot make a private mount namespace (unshare --mount exited ${namespace.code}): ${namespace.stderr.trim()}`;
  return undefined;
}

export interface KubeadmNode {
  /** The node's directory: its logs, and the bind-mounted /etc/kubernetes, /var/lib/kubelet, ... under fs/. */
  readonly dir: string;
  /** `kubeadm join`'s exit code. */
  readonly joinExitCode: number;
  /** `kubeadm join`'s output. */
  readonly joinOutput: string;
  /** The last lines of the kubelet's and containerd's logs. */
  logTail(lines?: number): string;
  /** Stops the kubelet and containerd, removes the mount points and kubelet cgroups the node created; idempotent. */
  stop(): Promise<void>;
}

/** The `kubepods*` cgroups under /sys/fs/cgroup (cgroup v2) or under each v1 controller. */
function kubeletCgroups(): Set<string> {
  const root = '/sys/fs/cgroup';
  const found = new Set<string>();
  const dirs = (dir: string): string[] => {
    try {
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(dir, e.name));
    } catch {
      return [];
    }
  };
  for (const dir of [root, ...dirs(root)]) for (const d of dirs(dir)) if (path.basename(d).startsWith('kubepods')) found.add(d);
  return found;
}

/** Removes a cgroup and its children, deepest first (a cgroup directory goes with rmdir, control files and all). */
function removeCgroup(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeCgroup(path.join(dir, e.name));
  fs.rmdirSync(dir);
}

/**
 * Joins this machine as a worker node with a JoinConfiguration file: `kubeadm join --config FILE` for real, with
 * containerd as its runtime and the kubelet started from the files kubeadm writes. Resolves when `kubeadm join`
 * has ended (it waits for the kubelet's TLS bootstrap); the kubelet keeps running until stop().
 */
export async function startKubeadmNode(
  joinConfigFile: string,
  opts: { ignorePreflightErrors?: readonly string[]; timeoutMs?: number } = {},
): Promise<KubeadmNode> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-node-'));
  const cgroupsBefore = kubeletCgroups();
  const flags = opts.ignorePreflightErrors?.length ? [`--ignore-preflight-errors=${opts.ignorePreflightErrors.join(',')}`] : [];
  const component = startComponent(
    'kubeadm-node',
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'env',
      `PATH=${NODE_PATH}`,
      'bash',
      path.join(__dirname, 'kubeadm-node.sh'),
      dir,
      path.resolve(joinConfigFile),
      ...flags,
    ],
    dir,
  );
  const read = (name: string): string => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), 'utf8') : '');
  let stopped = false;
  const node: KubeadmNode = {
    dir,
    joinExitCode: -1,
    joinOutput: '',
    logTail: (lines = 40) =>
      ['kubeadm-join', 'kubelet', 'containerd']
        .map((n) => `----- ${n} (${path.join(dir, `${n}.log`)}) -----\n${tail(path.join(dir, `${n}.log`), lines)}`)
        .join('\n'),
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await stopComponent(component);
      for (const d of read('created-dirs').split('\n').filter(Boolean).reverse()) {
        try {
          fs.rmdirSync(d); // only if empty: the node's files were in its bind mounts
        } catch {
          // not empty or already gone: leave it
        }
      }
      for (const cg of kubeletCgroups()) if (!cgroupsBefore.has(cg)) removeCgroup(cg);
      if (!process.env.METALSLICE_E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(
      'kubeadm join to end',
      opts.timeoutMs ?? 300_000,
      () => read('join-exit-code') !== '',
      () => (component.exited && read('join-exit-code') === '' ? `the node exited early:\n${tail(component.logFile, 20)}` : undefined),
    );
  } catch (e) {
    const message = `${(e as Error).message}\n${node.logTail()}`;
    await node.stop();
    throw new Error(message);
  }
  return { ...node, joinExitCode: Number(read('join-exit-code').trim()), joinOutput: read('kubeadm-join.log') };
}

/**
 * Does what a kubelet does to join, with plain API calls, for machines that cannot run one: as the bootstrap
 * token (group system:bootstrappers), posts a CSR for `system:node:<name>` in `system:nodes`; waits until the
 * CSR approver approves it and the signer issues the certificate; then, as that node, creates its Node object
 * with the labels and taints it would register with. Returns the CSR and the Node as the API server stored them.
 */
export async function emulateKubeletJoin(
  cluster: TestCluster,
  p: {
    token: string;
    nodeName: string;
    labels: Record<string, string>;
    taints: readonly { key: string; value?: string; effect: string }[];
    timeoutMs?: number;
  },
): Promise<{ csr: CsrDoc; node: ApiResponse<NodeDoc> }> {
  const dir = fs.mkdtempSync(path.join(cluster.dir, 'emulated-kubelet-'));
  makeKeyAndCsr(dir, 'node', subject(`system:node:${p.nodeName}`, ['system:nodes']));
  const bootstrap = bootstrapTokenClient(cluster, p.token);
  const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
  const created = await bootstrap.create<CsrDoc & Status>(csrs, {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { generateName: 'node-csr-' },
    // The signer and usages a kubelet asks for with an EC key.
    spec: {
      request: fs.readFileSync(path.join(dir, 'node.csr')).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
    },
  });
  if (created.status !== 201) throw new Error(`posting the node's CSR as the bootstrap token: HTTP ${created.status}: ${apiMessage(created.body)}`);
  const name = created.body.metadata.name;
  let csr: CsrDoc | undefined;
  let certificate = '';
  await waitFor(`CSR ${name} approved and issued`, p.timeoutMs ?? 60_000, async () => {
    csr = (await bootstrap.get<CsrDoc | undefined>(`${csrs}/${name}`)).body;
    certificate = csr?.status?.certificate ?? '';
    return certificate.length > 0;
  });
  if (csr === undefined) throw new Error(`CSR ${name}: not found after it was issued`);
  const asNode = makeClient({
    server: cluster.server,
    ca: fs.readFileSync(cluster.caFile),
    cert: Buffer.from(certificate, 'base64'),
    key: fs.readFileSync(path.join(dir, 'node.key')),
  });
  const node = await asNode.create<NodeDoc>('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: p.nodeName, labels: p.labels },
    spec: { taints: p.taints },
  });
  return { csr, node };
}
