/**
 * KubeVirt itself on a local control plane: KubeVirt v1.9.0's own virt-api (its admission webhooks) and
 * virt-controller (VM -> VMI -> virt-launcher pod), run as plain local processes against a kube-apiserver on
 * loopback, with no kubelet, virt-operator or virt-handler. Used by the e2e harness (every VirtualMachine a
 * test applies goes through KubeVirt's real admission) and by `metalslice verify --kubevirt`.
 *
 * What virt-operator would install comes from virt-operator's own code: the `kubevirt-install` program built
 * beside the binaries (scripts/kubevirt-oracle.sh) prints the 20 CRDs, the RBAC and ServiceAccounts of virt-api
 * and virt-controller, and virt-api's webhook configurations pointed at its loopback URL. What virt-operator
 * and virt-handler would do at run time is stood in for: the KubeVirt CR's status (`phase: Deployed`),
 * the `kubevirt-ca` ConfigMap, and (verify) the Node labels virt-handler sets.
 *
 * This file owns finding the binaries and starting the processes, in order. The certificates are made in
 * certificates.ts; the install, the CR's status and CDI's stand-in live in kubevirt-stand-ins.ts.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';
import { makeKubevirtCerts } from './certificates';
import {
  AdminClient,
  AdminRequest,
  cdiCrds,
  createOrReplace,
  installCrds,
  InstallItem,
  installItems,
  KUBEVIRT_NAMESPACE,
  KUBEVIRT_VERSION,
  startCdiStandIn,
  startOperatorStandIn,
} from './kubevirt-stand-ins';
import { Component, freePort, startComponent, waitFor, waitForServing } from './processes';

/** KubeVirt's ServiceAccounts for virt-api and virt-controller (their RBAC binds these). */
export const KUBEVIRT_SERVICE_ACCOUNTS = { virtApi: 'kubevirt-apiserver', virtController: 'kubevirt-controller' } as const;

/** The binaries of one build (scripts/kubevirt-oracle.sh): KubeVirt's virt-api and virt-controller and the install generator. */
export interface KubevirtBinaries {
  readonly virtApi: string;
  readonly virtController: string;
  readonly install: string;
}

/** The repository root: the nearest ancestor with scripts/kubevirt-oracle.sh (works from constructs/ and dist/). */
function repoRoot(): string | undefined {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'scripts', 'kubevirt-oracle.sh'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Finds virt-api, virt-controller and kubevirt-install: beside the oracle scripts/kubevirt-oracle.sh built, or in $METALSLICE_KUBEVIRT_BIN. */
export function findKubevirtBinaries(): KubevirtBinaries {
  let dir = process.env.METALSLICE_KUBEVIRT_BIN;
  const root = repoRoot();
  if (!dir && root) {
    try {
      const oracle = execFileSync('bash', [path.join(root, 'scripts', 'kubevirt-oracle.sh'), '--print-path'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
      dir = path.dirname(oracle);
    } catch {
      dir = undefined;
    }
  }
  const bins = dir
    ? { virtApi: path.join(dir, 'virt-api'), virtController: path.join(dir, 'virt-controller'), install: path.join(dir, 'kubevirt-install') }
    : undefined;
  if (!bins || !Object.values(bins).every((b) => fs.existsSync(b))) {
    throw new Error(
      `KubeVirt ${KUBEVIRT_VERSION}'s virt-api and virt-controller are not built: run scripts/toolchain.sh (or scripts/kubevirt-oracle.sh), or set METALSLICE_KUBEVIRT_BIN to the directory holding virt-api, virt-controller and kubevirt-install`,
    );
  }
  return bins;
}

// --- the processes ---------------------------------------------------------------------------------------

/** What startKubevirt needs from the control plane it joins. */
export interface KubevirtHost {
  /** The control plane's temp dir: certificates and logs go under it. */
  readonly dir: string;
  /** One request to the API server as admin. */
  readonly request: AdminRequest;
  /** A watch as admin; the CDI stand-in follows DataVolumes with it. @default - none (no `cdi`) */
  readonly watch?: AdminClient['watch'];
  /** A kubeconfig that authenticates as the ServiceAccount `system:serviceaccount:kubevirt:<name>` (or as an admin where RBAC is off). */
  kubeconfigFor(serviceAccount: string): string;
  /** Where started components are recorded, so the control plane stops them (in reverse order) with the rest. */
  readonly components: Component[];
  /** The component that has exited early, if any (fails a wait at once). */
  dead(): string | undefined;
  /** How long each step may take. */
  readonly timeoutMs: number;
}

/** KubeVirt running on a control plane. */
export interface RunningKubevirt {
  /** virt-api's webhook server, `https://127.0.0.1:<port>`. */
  readonly virtApiUrl: string;
  /** The names of the CRDs virt-operator's code generated and this installed. */
  readonly crds: readonly string[];
  /** Stops the stand-ins (KubeVirt CR status, CDI); the processes stop with the control plane's components. */
  stop(): Promise<void>;
}

/** GET over TLS without verification (loopback probes of virt-api and virt-controller); status and body. */
function probe(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { timeout: 5000, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** Creates a namespace unless it exists. */
async function ensureNamespace(request: AdminRequest, name: string): Promise<void> {
  const res = await request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (res.status !== 201 && res.status !== 409) throw new Error(`creating namespace ${name}: HTTP ${res.status}: ${JSON.stringify(res.body)}`);
}

/** The objects virt-api and virt-controller expect before they start: namespace, CRDs, RBAC, the CA ConfigMap. */
async function installPrerequisites(host: KubevirtHost, items: readonly InstallItem[], caFile: string): Promise<void> {
  await ensureNamespace(host.request, KUBEVIRT_NAMESPACE);
  await installCrds(
    host.request,
    items.filter((i) => i.kind === 'CustomResourceDefinition'),
    host.timeoutMs,
  );
  for (const item of items) if (!/^(CustomResourceDefinition|\w+WebhookConfiguration)$/.test(item.kind)) await createOrReplace(host.request, item);
  const ca = await host.request('POST', `/api/v1/namespaces/${KUBEVIRT_NAMESPACE}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kubevirt-ca' },
    data: { 'ca-bundle': fs.readFileSync(caFile, 'utf8') },
  });
  if (ca.status !== 201 && ca.status !== 409) throw new Error(`creating the kubevirt-ca ConfigMap: HTTP ${ca.status}`);
}

/** Starts virt-api and waits until its health endpoint answers. */
async function startVirtApi(host: KubevirtHost, bin: string, certs: string, port: number): Promise<void> {
  const consolePort = await freePort();
  const virtApi = startComponent(
    'virt-api',
    bin,
    [
      `--kubeconfig=${host.kubeconfigFor(KUBEVIRT_SERVICE_ACCOUNTS.virtApi)}`,
      '--listen=127.0.0.1',
      `--port=${port}`,
      `--console-server-port=${consolePort}`,
      `--tls-cert-file=${path.join(certs, 'virt-api.crt')}`,
      `--tls-key-file=${path.join(certs, 'virt-api.key')}`,
      `--handler-cert-file=${path.join(certs, 'virt-handler-client.crt')}`,
      `--handler-key-file=${path.join(certs, 'virt-handler-client.key')}`,
    ],
    host.dir,
  );
  host.components.push(virtApi);
  await waitForServing(
    'virt-api healthz',
    virtApi,
    port,
    host.timeoutMs,
    async () => (await probe(`https://127.0.0.1:${port}/apis/subresources.kubevirt.io/v1/healthz`).catch(() => ({ status: 0 }))).status === 200,
    () => host.dead(),
  );
}

/**
 * virt-controller's VM controller workers (its `--vm-controller-threads`; KubeVirt's default is 3). Each worker
 * takes one VM at a time through a reconcile of API writes in turn (its annotation, finalizer, DataVolume,
 * revision, VMI and about four status updates), so at 3 a replay went no faster than 3 VMs per API round trip
 * times nine, while the API server had CPU to spare. More workers only overlap the waits; each VM is still
 * reconciled by one worker at a time, as KubeVirt's work queue guarantees.
 */
const VM_CONTROLLER_THREADS = 16;

/**
 * virt-controller's leadership lease. It is the only candidate, so the lease's length only says how long it may
 * go without renewing before it gives up: KubeVirt's 10 s renew deadline ends the process ("leaderelection lost"),
 * which a Deployment would restart but nothing here does. An API server that crashes and restarts, or is slow under
 * a 10,000-VM replay, can take longer than 10 s on a loaded machine; these outlast that.
 */
const VIRT_CONTROLLER_LEASE = { duration: '120s', renewDeadline: '90s', retryPeriod: '2s' } as const;

/** Starts virt-controller and waits until it leads (its controllers run only then). */
async function startVirtController(host: KubevirtHost, bin: string, certs: string): Promise<void> {
  const port = await freePort();
  const controller = startComponent(
    'virt-controller',
    bin,
    [
      `--kubeconfig=${host.kubeconfigFor(KUBEVIRT_SERVICE_ACCOUNTS.virtController)}`,
      '--listen=127.0.0.1',
      `--port=${port}`,
      `--prom-cert-file=${path.join(certs, 'virt-controller.crt')}`,
      `--prom-key-file=${path.join(certs, 'virt-controller.key')}`,
      `--launcher-image=quay.io/kubevirt/virt-launcher:${KUBEVIRT_VERSION}`,
      `--exporter-image=quay.io/kubevirt/virt-exportserver:${KUBEVIRT_VERSION}`,
      `--vm-controller-threads=${VM_CONTROLLER_THREADS}`,
      `--leader-elect-lease-duration=${VIRT_CONTROLLER_LEASE.duration}`,
      `--leader-elect-renew-deadline=${VIRT_CONTROLLER_LEASE.renewDeadline}`,
      `--leader-elect-retry-period=${VIRT_CONTROLLER_LEASE.retryPeriod}`,
    ],
    host.dir,
  );
  host.components.push(controller);
  await waitForServing(
    'virt-controller leadership',
    controller,
    port,
    host.timeoutMs,
    async () => {
      const res = await probe(`https://127.0.0.1:${port}/leader`).catch(() => ({ status: 0, body: '' }));
      return res.status === 200 && (JSON.parse(res.body) as { apiserver?: { leader?: string } }).apiserver?.leader === 'true';
    },
    () => host.dead(),
  );
}

/** Installs the webhooks and waits until the API server calls them: a dry-run VM comes back defaulted. */
async function installWebhooks(host: KubevirtHost, items: readonly InstallItem[]): Promise<void> {
  for (const item of items) if (/WebhookConfiguration$/.test(item.kind)) await createOrReplace(host.request, item);
  await waitFor('virt-api admission', host.timeoutMs, async () => {
    const res = await host.request<{ spec?: { template?: { spec?: { architecture?: string } } } }>(
      'POST',
      `/apis/kubevirt.io/v1/namespaces/${KUBEVIRT_NAMESPACE}/virtualmachines?dryRun=All`,
      {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachine',
        metadata: { name: 'admission-probe' },
        spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {}, memory: { guest: '64Mi' } } } } },
      },
    );
    return res.status === 201 && Boolean(res.body?.spec?.template?.spec?.architecture);
  });
}

/** Options of startKubevirt. */
export interface KubevirtOptions {
  /**
   * Stand in for CDI: its CRDs (so virt-controller runs its DataVolume integration) and a loop that leaves each
   * DataVolume as an import would (a bound claim, Succeeded). VMs with `dataVolumeTemplates` get no VMI without it.
   * @default false
   */
  readonly cdi?: boolean;
  /** The binaries. @default findKubevirtBinaries() */
  readonly binaries?: KubevirtBinaries;
}

/**
 * Installs what virt-operator would (CRDs, RBAC, `kubevirt-ca`), starts virt-api, registers its webhooks by
 * URL, starts virt-controller and waits until it leads; KubeVirt CRs are marked Deployed as they appear. The
 * API server must have been started with frontProxyFlags.
 */
export async function startKubevirt(host: KubevirtHost, opts: KubevirtOptions = {}): Promise<RunningKubevirt> {
  const bins = opts.binaries ?? findKubevirtBinaries();
  const certs = makeKubevirtCerts(host.dir);
  const caFile = path.join(certs, 'ca.crt');
  const port = await freePort();
  const virtApiUrl = `https://127.0.0.1:${port}`;
  const items = installItems(bins.install, virtApiUrl, caFile);
  await installPrerequisites(host, items, caFile);
  // CDI's CRDs before virt-controller: it decides at start whether DataVolumes are served.
  if (opts.cdi) await installCrds(host.request, cdiCrds() as unknown as InstallItem[], host.timeoutMs);
  if (opts.cdi && !host.watch) throw new Error("the CDI stand-in follows DataVolumes with a watch: startKubevirt's host needs one");
  const standIns: { stop(): Promise<void> }[] = [startOperatorStandIn(host.request)];
  const stop = async (): Promise<void> => {
    for (const s of standIns) await s.stop();
  };
  try {
    if (opts.cdi && host.watch) standIns.push(await startCdiStandIn({ request: host.request, watch: host.watch }, host.timeoutMs));
    await startVirtApi(host, bins.virtApi, certs, port);
    await installWebhooks(host, items);
    await startVirtController(host, bins.virtController, certs);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    virtApiUrl,
    crds: items.filter((i) => i.kind === 'CustomResourceDefinition').map((i) => i.metadata.name),
    stop,
  };
}
