/**
 * A throwaway Kubernetes control plane on loopback for `metalslice verify`: etcd, kube-apiserver, the real
 * kube-scheduler and KWOK (fake kubelets for the Nodes the replay creates). Each component runs in its own
 * process group in a temp dir; stop() ends them all (TERM, then KILL) and removes the dir, and a process
 * exit hook kills whatever is still alive, so an aborted run leaves nothing behind.
 *
 * Authentication is one static bearer token in group system:masters, authorization AlwaysAllow: the
 * cluster lives only as long as the run and only listens on 127.0.0.1. kube-apiserver serves TLS with the
 * self-signed certificate it generates in its cert dir; clients skip verification on loopback.
 *
 * Binaries: from PATH, else from the env file `scripts/toolchain.sh --print-env` names, else from the
 * toolchain cache ($METALSLICE_TOOLCHAIN or ~/.cache/metalslice/toolchain); findToolchainBinaries finds the
 * toolchain's other binaries (kubectl, for bench:status) the same way.
 */
import { execFileSync } from 'child_process';
import { generateKeyPairSync, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import { frontProxyFlags } from './certificates';
import { RunningKubevirt, startKubevirt } from './kubevirt';
import {
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
  waitForServing,
  WatchEvent,
  WatchStream,
} from './processes';
import { KWOK_NODE_SELECTOR } from './replay';

export type { ApiResponse, WatchEvent, WatchStream } from './processes';
export { sleep } from './processes';

export const CONTROL_PLANE_BINARIES = ['etcd', 'kube-apiserver', 'kube-scheduler', 'kwok'] as const;
export type ControlPlaneBinary = (typeof CONTROL_PLANE_BINARIES)[number];

/** Options of startControlPlane. */
export interface ControlPlaneOptions {
  /** How long each component may take to become ready. @default 120000 */
  readonly startTimeoutMs?: number;
  /**
   * kube-scheduler's client QPS. Its own default, 50, throttles a replay: bench:verify measured 2.5x the time
   * at 1,000 VMs against these defaults. @default 5000
   */
  readonly schedulerQps?: number;
  /** kube-scheduler's client burst. @default - twice the QPS */
  readonly schedulerBurst?: number;
  /**
   * KubeSchedulerConfiguration's percentageOfNodesToScore: how many feasible Nodes the scheduler looks for
   * before scoring (never fewer than 100; 0: the scheduler's own adaptive share). Any value keeps the plan's proof
   * (it holds for every host the filters allow). @default 10
   */
  readonly percentageOfNodesToScore?: number;
  /**
   * KWOK's `--node-lease-duration-seconds`. Nothing in this control plane reads a node Lease (no node lifecycle
   * controller runs; KWOK keeps every Node Ready), so 0, no Leases, is the replay's setting. KWOK v0.7.0 then
   * picks its slow Node heartbeat (minutes apart); with any other value it renews a Lease per Node a quarter of
   * the duration apart and also patches every Node's status about every 20 s (its `kwok` command chooses the
   * heartbeat stage by `duration == 0`, the reverse of `kwokctl`). Measured on 1,000 idle Nodes over 60 s: at
   * KWOK's default, 40, 5,058 Lease writes and 2,808 Node status patches, 58 CPU seconds across etcd,
   * kube-apiserver and KWOK; at 0, no writes and under 2 CPU seconds. @default 0
   */
  readonly kwokNodeLeaseSeconds?: number;
  /**
   * Whether KWOK plays a kubelet's pod status: marks every bound pod Running and Ready (its default pod stages).
   * The replay reads only where a pod is bound, and kube-scheduler counts a bound pod on its Node whatever its
   * phase, so the replay's setting is false: KWOK then only ends the deletion of pods on its Nodes (a drain), and
   * each pod is written once less and never rendered through KWOK's status template. @default false
   */
  readonly kwokPodStatus?: boolean;
  /**
   * kube-apiserver's GOGC. Its live heap is large (320 MB with KubeVirt's CRDs installed, before the first VM)
   * and a replay allocates fast, so at Go's default, 100, background marking alone took about 15 % of its CPU in a
   * `--kubevirt` replay (pprof). A higher value trades memory for CPU; the heap stays under a soft limit of 6 GiB
   * (GOMEMLIMIT) whatever the value. @default 400
   */
  readonly apiserverGcPercent?: number;
  /** Keep the temp dir (logs) after stop(). @default $METALSLICE_VERIFY_KEEP is set */
  readonly keep?: boolean;
  /**
   * Also run KubeVirt itself (constructs/verify/kubevirt.ts): virt-api admits the VirtualMachines a replay
   * applies and virt-controller makes their launcher pods; CDI is stood in for. @default false
   */
  readonly kubevirt?: boolean;
}

/** A throwaway control plane on loopback: etcd, kube-apiserver, kube-scheduler and KWOK. */
export interface ControlPlane {
  /** `https://127.0.0.1:<port>` */
  readonly server: string;
  /** The temp dir holding certificates, data and logs. */
  readonly dir: string;
  /** An admin kubeconfig of the API server. */
  readonly kubeconfig: string;
  /** One request to the API server as admin (JSON body, parsed JSON response). */
  request<T = unknown>(method: string, apiPath: string, body?: unknown, contentType?: string): Promise<ApiResponse<T>>;
  /** A watch as admin (`apiPath` with `watch=1`): each event to `onEvent` as it comes. */
  watch<T = unknown>(apiPath: string, onEvent: (event: WatchEvent<T>) => void): WatchStream;
  /** The last lines of each component's log. */
  logTail(lines?: number): string;
  /** The component that has exited, if any. */
  dead(): string | undefined;
  /** CPU seconds each component (etcd, kube-apiserver, kube-scheduler, kwok, virt-api, virt-controller) has used so far, where /proc tells. */
  cpuSeconds(): Record<string, number>;
  /** KubeVirt, when started with `kubevirt: true`. */
  readonly kubevirt?: RunningKubevirt;
  /** Stops every component and removes the temp dir; idempotent, never throws. */
  stop(): Promise<void>;
}

// --- binaries ------------------------------------------------------------------------------------------

/** The repository root: the nearest ancestor with scripts/toolchain.sh (works from constructs/ and dist/). */
function repoRoot(): string | undefined {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'scripts', 'toolchain.sh'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** PATH as the toolchain's env.sh sets it, when the toolchain is complete. */
function toolchainPath(): string | undefined {
  const root = repoRoot();
  if (!root) return undefined;
  try {
    const envFile = execFileSync('bash', [path.join(root, 'scripts', 'toolchain.sh'), '--print-env'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n')
      .pop();
    if (!envFile) return undefined;
    return execFileSync('bash', ['-c', 'source "$1" >/dev/null 2>&1 && printf %s "$PATH"', '_', envFile], { encoding: 'utf8' });
  } catch {
    return undefined;
  }
}

/** bin directories of the toolchain cache, even when other tools of the toolchain are still building. */
function cacheBinDirs(): string[] {
  const cache =
    process.env.METALSLICE_TOOLCHAIN ??
    process.env.METALSLICE_TOOLCHAIN_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'metalslice', 'toolchain');
  const dirs: string[] = [];
  for (const tool of ['kubernetes', 'etcd']) {
    let versions: string[] = [];
    try {
      versions = fs.readdirSync(path.join(cache, tool)).sort().reverse();
    } catch {
      continue;
    }
    for (const v of versions) dirs.push(path.join(cache, tool, v, 'bin'));
  }
  return dirs;
}

/**
 * Finds toolchain binaries by name: on PATH, else on the PATH the toolchain's env.sh sets, else in the toolchain
 * cache's bin directories (each source asked only for what the ones before it did not have). Missing names are absent.
 */
export function findToolchainBinaries<N extends string>(names: readonly N[]): Partial<Record<N, string>> {
  const found: Partial<Record<N, string>> = {};
  const sources: (() => string | undefined)[] = [() => process.env.PATH, toolchainPath, () => cacheBinDirs().join(path.delimiter)];
  for (const source of sources) {
    const missing = names.filter((b) => found[b] === undefined);
    if (missing.length === 0) break;
    const p = source();
    for (const b of missing) {
      const at = onPath(b, p);
      if (at) found[b] = at;
    }
  }
  return found;
}

/** Finds etcd, kube-apiserver, kube-scheduler and kwok; throws with what is missing and how to get it. */
export function findBinaries(): Record<ControlPlaneBinary, string> {
  const found = findToolchainBinaries(CONTROL_PLANE_BINARIES);
  const missing = CONTROL_PLANE_BINARIES.filter((b) => found[b] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `metalslice verify needs ${missing.join(', ')}: run scripts/toolchain.sh (npm run setup), then source "$(bash scripts/toolchain.sh --print-env)"`,
    );
  }
  return found as Record<ControlPlaneBinary, string>;
}

// --- processes ---------------------------------------------------------------------------------------

function plainGet(url: string, insecureTls: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https:') ? https : http;
    const req = mod.get(url, { timeout: 5000, ...(insecureTls ? { rejectUnauthorized: false } : {}) } as https.RequestOptions, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

// --- the control plane -----------------------------------------------------------------------------------

/** kube-apiserver's soft memory limit (GOMEMLIMIT): the collector works harder near it, whatever GOGC says. */
const APISERVER_MEMORY_LIMIT = '6GiB';

/** What the start steps share: the temp dir, the processes so far, the admin request and how long to wait. */
interface Starting {
  readonly dir: string;
  readonly procs: Component[];
  readonly timeoutMs: number;
  readonly kubeconfig: string;
  readonly request: ControlPlane['request'];
  readonly dead: () => string | undefined;
}

/** Service-account keys (kube-apiserver requires them), the static admin token and an admin kubeconfig. */
function writeCredentials(dir: string, server: string, token: string): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  fs.writeFileSync(path.join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  fs.writeFileSync(path.join(dir, 'tokens.csv'), `${token},metalslice-verify,metalslice-verify,"system:masters"\n`, { mode: 0o600 });
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: verify\n  cluster:\n    server: ${server}\n    insecure-skip-tls-verify: true`,
      'users:',
      `- name: verify\n  user:\n    token: ${token}`,
      'contexts:',
      '- name: verify\n  context:\n    cluster: verify\n    user: verify',
      'current-context: verify',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return kubeconfig;
}

/**
 * The flags of a one-member etcd on loopback, data in `<dir>/etcd`, with no fsync (throwaway data) and a backend quota
 * of `quotaBytes`: verify's and the e2e clusters'.
 */
export function etcdFlags(name: string, dir: string, clientPort: number, peerPort: number, quotaBytes: number): string[] {
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  return [
    `--name=${name}`,
    `--data-dir=${path.join(dir, 'etcd')}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=${name}=${peerUrl}`,
    '--unsafe-no-fsync',
    '--log-level=warn',
    `--quota-backend-bytes=${quotaBytes}`,
  ];
}

/** etcd on loopback, no fsync (throwaway data); resolves when healthy. */
async function startEtcd(s: Starting, bin: string): Promise<string> {
  const [etcdPort, peerPort] = [await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const etcd = startComponent('etcd', bin, etcdFlags('verify', s.dir, etcdPort, peerPort, 4 * 1024 ** 3), s.dir);
  s.procs.push(etcd);
  await waitForServing('etcd', etcd, etcdPort, s.timeoutMs, async () => (await plainGet(`${etcdUrl}/health`, false)) === 200, s.dead);
  return etcdUrl;
}

/**
 * kube-apiserver. Admission: no ServiceAccount (no controller makes the default accounts here) and no
 * TaintNodesByCondition (no node lifecycle controller would lift its not-ready taint); Nodes stay taint-free.
 */
async function startApiserver(s: Starting, bin: string, etcdUrl: string, apiPort: number, extraFlags: readonly string[], gcPercent: number): Promise<void> {
  const apiserver = startComponent(
    'kube-apiserver',
    bin,
    [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(s.dir, 'certs')}`,
      `--token-auth-file=${path.join(s.dir, 'tokens.csv')}`,
      '--anonymous-auth=false',
      '--authorization-mode=AlwaysAllow',
      '--disable-admission-plugins=ServiceAccount,TaintNodesByCondition',
      `--service-account-key-file=${path.join(s.dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${path.join(s.dir, 'sa.key')}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--service-cluster-ip-range=10.96.0.0/16',
      '--enable-priority-and-fairness=false',
      '--max-requests-inflight=1000',
      '--max-mutating-requests-inflight=500',
      '--event-ttl=2h',
      ...extraFlags,
      '--profiling=false',
      '--v=1',
    ],
    s.dir,
    { ...process.env, GOGC: String(gcPercent), GOMEMLIMIT: APISERVER_MEMORY_LIMIT },
  );
  s.procs.push(apiserver);
  await waitForServing('kube-apiserver /readyz', apiserver, apiPort, s.timeoutMs, async () => (await s.request('GET', '/readyz')).status === 200, s.dead);
}

/** Where a component starts: its temp dir, the admin kubeconfig, and the list of running components it joins. */
export type ComponentHome = Pick<Starting, 'dir' | 'kubeconfig' | 'procs'>;

/**
 * kube-scheduler, unmodified profile; only its client rate and percentageOfNodesToScore are set. Returns its secure
 * port. The e2e harness starts its tenant's scheduler with this too.
 */
export async function startScheduler(s: ComponentHome, bin: string, opts: ControlPlaneOptions): Promise<Listening> {
  const port = await freePort();
  const qps = opts.schedulerQps ?? 5000;
  fs.writeFileSync(
    path.join(s.dir, 'scheduler.yaml'),
    [
      'apiVersion: kubescheduler.config.k8s.io/v1',
      'kind: KubeSchedulerConfiguration',
      'clientConnection:',
      `  kubeconfig: ${s.kubeconfig}`,
      `  qps: ${qps}`,
      `  burst: ${opts.schedulerBurst ?? qps * 2}`,
      `percentageOfNodesToScore: ${opts.percentageOfNodesToScore ?? 10}`,
      'leaderElection:',
      '  leaderElect: false',
      '',
    ].join('\n'),
  );
  const component = startComponent(
    'kube-scheduler',
    bin,
    [
      `--config=${path.join(s.dir, 'scheduler.yaml')}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${path.join(s.dir, 'scheduler-certs')}`,
      `--authentication-kubeconfig=${s.kubeconfig}`,
      `--authorization-kubeconfig=${s.kubeconfig}`,
      '--leader-elect=false',
      '--v=1',
    ],
    s.dir,
  );
  s.procs.push(component);
  return { component, port };
}

/**
 * The one pod stage KWOK plays when it does not play pod status: a pod on its Node that is being deleted
 * loses its finalizers and is deleted, as a kubelet ends a pod's deletion once its containers are gone.
 */
const KWOK_POD_DELETE_ONLY = [
  'apiVersion: kwok.x-k8s.io/v1alpha1',
  'kind: Stage',
  'metadata:',
  '  name: pod-deleted',
  'spec:',
  '  resourceRef: { apiGroup: v1, kind: Pod }',
  '  selector:',
  '    matchExpressions:',
  "      - { key: '.metadata.deletionTimestamp', operator: Exists }",
  '  next:',
  '    finalizers: { empty: true }',
  '    delete: true',
  '',
].join('\n');

/**
 * KWOK: fake kubelets for the replay's Nodes only; its default node stages (initialize, heartbeat), and either
 * its default pod stages (ready, complete, delete) or only the deletion (`kwokPodStatus`). Its config is a file
 * in the temp dir, and HOME is the temp dir, so no user kwok config is read. Returns its health port. The e2e
 * harness starts its tenant's kubelets with this too, on the Nodes of its own `nodeSelector`.
 */
export async function startKwok(s: ComponentHome, bin: string, opts: ControlPlaneOptions, nodeSelector: string = KWOK_NODE_SELECTOR): Promise<Listening> {
  const port = await freePort();
  const config = path.join(s.dir, 'kwok.yaml');
  fs.writeFileSync(config, opts.kwokPodStatus ? '' : KWOK_POD_DELETE_ONLY);
  const component = startComponent(
    'kwok',
    bin,
    [
      `--config=${config}`,
      `--kubeconfig=${s.kubeconfig}`,
      `--manage-nodes-with-label-selector=${nodeSelector}`,
      `--server-address=127.0.0.1:${port}`,
      '--node-ip=127.0.0.1',
      '--cidr=10.128.0.0/9',
      `--node-lease-duration-seconds=${opts.kwokNodeLeaseSeconds ?? 0}`,
    ],
    s.dir,
    { ...process.env, HOME: s.dir },
  );
  s.procs.push(component);
  return { component, port };
}

/** CPU seconds per component, one /proc read each. */
function componentCpu(procs: readonly Component[]): Record<string, number> {
  return Object.fromEntries(
    procs.flatMap((p) => {
      const seconds = cpuSeconds(p);
      return seconds !== undefined ? [[p.name, seconds]] : [];
    }),
  );
}

/** A started component and the port its readiness is asked on. */
export interface Listening {
  readonly component: Component;
  readonly port: number;
}

/**
 * Waits until kube-scheduler (its secure port) and KWOK (its health port) answer, each from its own process; fails at
 * once when `dead` names a component that exited (one that could not bind its port, say).
 */
export async function waitForSchedulerAndKwok(scheduler: Listening, kwok: Listening, timeoutMs: number, dead: () => string | undefined): Promise<void> {
  const schedulerReady = async () => (await plainGet(`https://127.0.0.1:${scheduler.port}/readyz`, true)) === 200;
  await waitForServing('kube-scheduler /readyz', scheduler.component, scheduler.port, timeoutMs, schedulerReady, dead);
  await waitForServing(
    'kwok /healthz',
    kwok.component,
    kwok.port,
    timeoutMs,
    async () => (await plainGet(`http://127.0.0.1:${kwok.port}/healthz`, false)) === 200,
    dead,
  );
}

/**
 * Starts etcd, kube-apiserver, kube-scheduler and KWOK (and with `kubevirt`, virt-api and virt-controller); resolves
 * once all are ready. Each port is picked free and bound a moment later: a start that fails because another process
 * took one in between starts again on new ports, three starts at most.
 */
export function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  return startOnFreePorts(() => startControlPlaneOnce(opts));
}

async function startControlPlaneOnce(opts: ControlPlaneOptions): Promise<ControlPlane> {
  const timeoutMs = opts.startTimeoutMs ?? 120_000;
  const keep = opts.keep ?? Boolean(process.env.METALSLICE_VERIFY_KEEP);
  const bins = findBinaries();
  // The API server's port before the temp dir, so nothing is left behind if picking it fails.
  const apiPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-verify-'));
  const procs: Component[] = [];
  let kubevirt: RunningKubevirt | undefined;
  let stopped = false;
  const dead = (): string | undefined => {
    const d = procs.find((p) => p.exited);
    return d ? `${d.name} exited (code ${d.child.exitCode}, signal ${d.child.signalCode}); log ${d.logFile}:\n${tail(d.logFile, 15)}` : undefined;
  };
  const logTail = (lines = 30): string => procs.map((p) => `----- ${p.name} (${p.logFile}) -----\n${tail(p.logFile, lines)}`).join('\n');
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false });
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await kubevirt?.stop().catch(() => undefined);
    for (const p of [...procs].reverse()) await stopComponent(p).catch(() => undefined);
    agent.destroy();
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  };
  const token = randomBytes(24).toString('hex');
  const server = `https://127.0.0.1:${apiPort}`;
  const request = <T = unknown>(method: string, apiPath: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse<T>> =>
    apiRequest<T>(server, agent, { Authorization: `Bearer ${token}` }, method, apiPath, body, contentType);
  const watch = <T = unknown>(apiPath: string, onEvent: (event: WatchEvent<T>) => void): WatchStream =>
    apiWatch<T>(server, agent, { Authorization: `Bearer ${token}` }, apiPath, onEvent);

  try {
    const kubeconfig = writeCredentials(dir, server, token);
    const s: Starting = { dir, procs, timeoutMs, kubeconfig, request, dead };
    const etcdUrl = await startEtcd(s, bins.etcd);
    await startApiserver(s, bins['kube-apiserver'], etcdUrl, apiPort, opts.kubevirt ? frontProxyFlags(dir) : [], opts.apiserverGcPercent ?? 400);
    const scheduler = await startScheduler(s, bins['kube-scheduler'], opts);
    const kwok = await startKwok(s, bins.kwok, opts);
    await waitForSchedulerAndKwok(scheduler, kwok, timeoutMs, dead);
    // AlwaysAllow: KubeVirt's components run with the admin kubeconfig.
    if (opts.kubevirt)
      kubevirt = await startKubevirt({ dir, request, watch, kubeconfigFor: () => kubeconfig, components: procs, dead, timeoutMs }, { cdi: true });
    return { server, dir, kubeconfig, request, watch, logTail, dead, stop, cpuSeconds: () => componentCpu(procs), kubevirt };
  } catch (e) {
    const message = `the verify control plane failed to start: ${(e as Error).message}\n${logTail()}`;
    await stop();
    throw new Error(message);
  }
}
