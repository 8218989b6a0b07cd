/**
 * KubeVirt itself on a local control plane: KubeVirt v1.9.0's own virt-api (its admission webhooks) and
 * virt-controller (VM -> VMI -> virt-launcher pod), run as plain local processes against a kube-apiserver on
 * loopback, with no kubelet, virt-operator or virt-handler. Used by the e2e harness (every VirtualMachine a
 * test applies goes through KubeVirt's real admission) and by `metalslice verify --kubevirt`.
 *
 * What virt-operator would install comes from virt-operator's own code: the `kubevirt-install` program built
 * beside the binaries (scripts/kubevirt-oracle.sh) prints the 20 CRDs, the RBAC and ServiceAccounts of virt-api
 * and virt-controller, and virt-api's webhook configurations pointed at its loopback URL. What virt-operator
 * and virt-handler would do at run time is stood in for here: the KubeVirt CR's status (`phase: Deployed`),
 * the `kubevirt-ca` ConfigMap, and (verify) the Node labels virt-handler sets.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import * as path from 'path';
import { ApiResponse, Component, freePort, startComponent, waitFor } from './processes';

/** The KubeVirt version whose virt-api and virt-controller run (the module scripts/kubevirt-oracle.sh builds). */
export const KUBEVIRT_VERSION = 'v1.9.0';
/** The namespace virt-api and virt-controller run in, as KubeVirt's own default install. */
export const KUBEVIRT_NAMESPACE = 'kubevirt';
/** KubeVirt's ServiceAccounts for virt-api and virt-controller (their RBAC binds these). */
export const KUBEVIRT_SERVICE_ACCOUNTS = { virtApi: 'kubevirt-apiserver', virtController: 'kubevirt-controller' } as const;

/** One admin request to the API server (JSON body, parsed JSON response). */
export type AdminRequest = <T = unknown>(method: string, apiPath: string, body?: unknown, contentType?: string) => Promise<ApiResponse<T>>;

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

// --- certificates (openssl) -------------------------------------------------------------------------------

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A self-signed CA `<name>.crt`/`<name>.key` in `dir`. */
function makeCa(dir: string, name: string, cn: string): void {
  const ext = `${name}-ca.ext`;
  fs.writeFileSync(
    path.join(dir, ext),
    '[req]\ndistinguished_name = dn\n[dn]\n[v3]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign,digitalSignature\nsubjectKeyIdentifier = hash\n',
  );
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    ...EC_KEY,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${cn}`,
    '-extensions',
    'v3',
    '-config',
    ext,
  ]);
}

/** A certificate `<name>.crt`/`<name>.key` signed by the CA `<ca>.crt`, with the given extension lines. */
function makeLeaf(dir: string, ca: string, name: string, cn: string, extensions: string): void {
  const ext = `${name}.ext`;
  fs.writeFileSync(path.join(dir, ext), `[req]\ndistinguished_name = dn\n[dn]\n[v3]\nbasicConstraints = critical,CA:FALSE\n${extensions}\n`);
  openssl(dir, ['req', '-new', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`, '-config', ext]);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-out',
    `${name}.crt`,
    '-extfile',
    ext,
    '-extensions',
    'v3',
  ]);
}

const SERVING = 'keyUsage = critical,digitalSignature,keyEncipherment\nextendedKeyUsage = serverAuth\nsubjectAltName = IP:127.0.0.1,DNS:localhost';
const CLIENT = 'keyUsage = critical,digitalSignature,keyEncipherment\nextendedKeyUsage = clientAuth';

/**
 * The front-proxy (request header) client CA and the API server's proxy client certificate, and the
 * kube-apiserver flags naming them: virt-api reads that CA from the `extension-apiserver-authentication`
 * ConfigMap the API server publishes, and does not start without it. Call before starting kube-apiserver.
 */
export function frontProxyFlags(dir: string): string[] {
  const d = path.join(dir, 'front-proxy');
  fs.mkdirSync(d, { recursive: true });
  makeCa(d, 'front-proxy-ca', 'metalslice-front-proxy-ca');
  makeLeaf(d, 'front-proxy-ca', 'front-proxy-client', 'front-proxy-client', CLIENT);
  return [
    `--requestheader-client-ca-file=${path.join(d, 'front-proxy-ca.crt')}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-username-headers=X-Remote-User',
    `--proxy-client-cert-file=${path.join(d, 'front-proxy-client.crt')}`,
    `--proxy-client-key-file=${path.join(d, 'front-proxy-client.key')}`,
  ];
}

/** virt-api's serving certificate, its (unused) virt-handler client certificate, and virt-controller's serving one, under one CA. */
function makeKubevirtCerts(dir: string): string {
  const d = path.join(dir, 'kubevirt-certs');
  fs.mkdirSync(d, { recursive: true });
  makeCa(d, 'ca', 'metalslice-kubevirt-ca');
  makeLeaf(d, 'ca', 'virt-api', 'virt-api', SERVING);
  makeLeaf(d, 'ca', 'virt-handler-client', 'virt-handler-client', CLIENT);
  makeLeaf(d, 'ca', 'virt-controller', 'virt-controller', SERVING);
  return d;
}

// --- what virt-operator installs -------------------------------------------------------------------------

/** One object of kubevirt-install's output. */
interface InstallItem {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: { group?: string; names?: { plural?: string }; versions?: { name: string; served?: boolean }[] };
}

/** The REST collection of an installed kind. */
const COLLECTIONS: Record<string, (ns: string) => string> = {
  CustomResourceDefinition: () => '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  ClusterRole: () => '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  ClusterRoleBinding: () => '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  Role: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`,
  RoleBinding: (ns) => `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
  ServiceAccount: (ns) => `/api/v1/namespaces/${ns}/serviceaccounts`,
  MutatingWebhookConfiguration: () => '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: () => '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
};

/** Creates an object, or replaces the one of the same name (a CRD installed from another copy, say). */
async function createOrReplace(request: AdminRequest, item: InstallItem): Promise<void> {
  const collectionOf = COLLECTIONS[item.kind];
  if (!collectionOf) throw new Error(`kubevirt-install printed a ${item.kind}, which this installer does not know`);
  const collection = collectionOf(item.metadata.namespace ?? KUBEVIRT_NAMESPACE);
  const created = await request('POST', collection, item);
  if (created.status === 201) return;
  if (created.status === 409) {
    const url = `${collection}/${item.metadata.name}`;
    const current = await request<{ metadata?: { resourceVersion?: string } }>('GET', url);
    const replaced = await request('PUT', url, { ...item, metadata: { ...item.metadata, resourceVersion: current.body?.metadata?.resourceVersion } });
    if (replaced.status === 200) return;
    throw new Error(`replacing ${item.kind} ${item.metadata.name}: HTTP ${replaced.status}: ${JSON.stringify(replaced.body)}`);
  }
  throw new Error(`creating ${item.kind} ${item.metadata.name}: HTTP ${created.status}: ${JSON.stringify(created.body)}`);
}

/** Installs the CRDs and waits until each is Established and its served versions are discoverable. */
async function installCrds(request: AdminRequest, crds: readonly InstallItem[], timeoutMs: number): Promise<void> {
  for (const crd of crds) await createOrReplace(request, crd);
  for (const crd of crds) {
    await waitFor(`CRD ${crd.metadata.name} Established`, timeoutMs, async () => {
      const res = await request<{ status?: { conditions?: { type: string; status: string }[] } }>(
        'GET',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
      );
      return (res.body?.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
    });
    for (const v of crd.spec?.versions ?? []) {
      if (!v.served) continue;
      await waitFor(`discovery of ${crd.metadata.name} ${v.name}`, timeoutMs, async () => {
        const res = await request<{ resources?: { name: string }[] }>('GET', `/apis/${crd.spec?.group}/${v.name}`);
        return res.status === 200 && (res.body?.resources ?? []).some((r) => r.name === crd.spec?.names?.plural);
      });
    }
  }
}

/** Runs kubevirt-install for a virt-api at `url` whose serving certificate `caFile` signed. */
function installItems(install: string, url: string, caFile: string): InstallItem[] {
  const out = execFileSync(install, ['-namespace', KUBEVIRT_NAMESPACE, '-url', url, '-ca-bundle', caFile], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return (JSON.parse(out) as { items: InstallItem[] }).items;
}

// --- virt-operator's run-time part, stood in for ---------------------------------------------------------

/** The status virt-operator writes on a KubeVirt CR it has deployed; virt-config reads a CR's configuration only once it has a phase. */
function deployedStatus(): Record<string, unknown> {
  return {
    phase: 'Deployed',
    // virt-config takes the default architecture from here, not from the spec; without it a VMI has none and is refused.
    defaultArchitecture: 'amd64',
    conditions: [{ type: 'Available', status: 'True', reason: 'AllComponentsReady', message: 'All components are ready.' }],
    observedKubeVirtVersion: KUBEVIRT_VERSION,
    targetKubeVirtVersion: KUBEVIRT_VERSION,
    observedKubeVirtRegistry: 'quay.io/kubevirt',
    targetKubeVirtRegistry: 'quay.io/kubevirt',
  };
}

/** Marks every KubeVirt CR without a phase as Deployed, as virt-operator would once the components run; returns how many it marked. */
async function markKubevirtDeployed(request: AdminRequest): Promise<number> {
  const list = await request<{ items?: { metadata: { name: string; namespace: string }; status?: { phase?: string } }[] }>(
    'GET',
    '/apis/kubevirt.io/v1/kubevirts',
  );
  let marked = 0;
  for (const kv of list.body?.items ?? []) {
    if (kv.status?.phase) continue;
    const url = `/apis/kubevirt.io/v1/namespaces/${kv.metadata.namespace}/kubevirts/${kv.metadata.name}/status`;
    const res = await request('PATCH', url, { status: deployedStatus() }, 'application/merge-patch+json');
    if (res.status === 200) marked++;
  }
  return marked;
}

/** Polls for KubeVirt CRs to mark Deployed until stopped (a CR the test applies later gets its status within ~0.5 s). */
function startOperatorStandIn(request: AdminRequest): { stop(): Promise<void> } {
  return pollUntilStopped(() => markKubevirtDeployed(request));
}

/**
 * Runs `step` now and again 500 ms after each run ends, until stopped (stop waits for a run in progress).
 * A run that fails is kept as the last error, cleared by the next that succeeds.
 */
function pollUntilStopped(step: () => Promise<unknown>): { stop(): Promise<void>; lastError(): string | undefined } {
  let stopped = false;
  let error: string | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = (): void => {
    if (stopped) return;
    running = step()
      .then(() => (error = undefined))
      .catch((e: Error) => (error = e.message))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, 500);
      });
  };
  let timer = setTimeout(tick, 0);
  return {
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    lastError: () => error,
  };
}

// --- the processes ---------------------------------------------------------------------------------------

/** What startKubevirt needs from the control plane it joins. */
export interface KubevirtHost {
  /** The control plane's temp dir: certificates and logs go under it. */
  readonly dir: string;
  /** One request to the API server as admin. */
  readonly request: AdminRequest;
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
  host.components.push(
    startComponent(
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
    ),
  );
  await waitFor(
    'virt-api healthz',
    host.timeoutMs,
    async () => (await probe(`https://127.0.0.1:${port}/apis/subresources.kubevirt.io/v1/healthz`).catch(() => ({ status: 0 }))).status === 200,
    () => host.dead(),
  );
}

/** Starts virt-controller and waits until it leads (its controllers run only then). */
async function startVirtController(host: KubevirtHost, bin: string, certs: string): Promise<void> {
  const port = await freePort();
  host.components.push(
    startComponent(
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
      ],
      host.dir,
    ),
  );
  await waitFor(
    'virt-controller leadership',
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
  const standIns = [startOperatorStandIn(host.request), ...(opts.cdi ? [startCdiStandIn(host.request)] : [])];
  const stop = async (): Promise<void> => {
    for (const s of standIns) await s.stop();
  };
  try {
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

// --- CDI, stood in for (verify --kubevirt) ---------------------------------------------------------------

/** The CDI kinds virt-controller watches once it sees CDI's DataVolume CRD: name, plural, scope. */
const CDI_KINDS: readonly (readonly [string, string, 'Namespaced' | 'Cluster'])[] = [
  ['DataVolume', 'datavolumes', 'Namespaced'],
  ['DataSource', 'datasources', 'Namespaced'],
  ['StorageProfile', 'storageprofiles', 'Cluster'],
  ['CDI', 'cdis', 'Cluster'],
  ['CDIConfig', 'cdiconfigs', 'Cluster'],
];

/** Schemaless stand-ins for CDI's CRDs (cdi.kubevirt.io/v1beta1), enough for virt-controller to run its DataVolume integration. */
export function cdiCrds(): Record<string, unknown>[] {
  return CDI_KINDS.map(([kind, plural, scope]) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.cdi.kubevirt.io` },
    spec: {
      group: 'cdi.kubevirt.io',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      scope,
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  }));
}

/** A DataVolume as the CDI stand-in reads it. */
interface DataVolumeState {
  metadata: { name: string; namespace: string; uid?: string };
  spec?: {
    storage?: { accessModes?: string[]; resources?: { requests?: { storage?: string } } };
    pvc?: { accessModes?: string[]; resources?: { requests?: { storage?: string } } };
  };
  status?: { phase?: string };
}

/** Status writes that may race with nothing: accept success and "already there". */
async function expectStatus(what: string, res: Promise<ApiResponse>, accept: readonly number[]): Promise<void> {
  const r = await res;
  if (!accept.includes(r.status)) throw new Error(`${what}: HTTP ${r.status}: ${JSON.stringify(r.body)}`);
}

/**
 * What CDI would leave for one DataVolume once imported, with no importer run: a PersistentVolume and the
 * DataVolume's PersistentVolumeClaim bound to each other (`pv.kubernetes.io/bind-completed`, both Bound), and the
 * DataVolume Succeeded. kube-scheduler then sees a bound claim on a volume with no node affinity.
 */
async function populateDataVolume(request: AdminRequest, dv: DataVolumeState): Promise<void> {
  const { name, namespace } = dv.metadata;
  const claim = dv.spec?.storage ?? dv.spec?.pvc ?? {};
  const size = claim.resources?.requests?.storage ?? '10Gi';
  const accessModes = claim.accessModes ?? ['ReadWriteOnce'];
  const pv = `cdi-${namespace}-${name}`.slice(0, 253);
  await expectStatus(
    `creating PersistentVolume ${pv}`,
    request('POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: pv, annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' } },
      spec: {
        capacity: { storage: size },
        accessModes,
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: '',
        hostPath: { path: `/var/lib/metalslice-verify/${pv}` },
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace, name },
      },
    }),
    [201, 409],
  );
  const claimPath = `/api/v1/namespaces/${namespace}/persistentvolumeclaims`;
  await expectStatus(
    `creating PersistentVolumeClaim ${namespace}/${name}`,
    request('POST', claimPath, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name,
        namespace,
        annotations: { 'pv.kubernetes.io/bind-completed': 'yes', 'cdi.kubevirt.io/storage.populatedFor': name },
        ...(dv.metadata.uid ? { ownerReferences: [{ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', name, uid: dv.metadata.uid }] } : {}),
      },
      spec: { accessModes, resources: { requests: { storage: size } }, storageClassName: '', volumeName: pv, volumeMode: 'Filesystem' },
    }),
    [201, 409],
  );
  const bound = { status: { phase: 'Bound', accessModes, capacity: { storage: size } } };
  await expectStatus('binding the PersistentVolumeClaim', request('PATCH', `${claimPath}/${name}/status`, bound, 'application/merge-patch+json'), [200]);
  await expectStatus(
    'binding the PersistentVolume',
    request('PATCH', `/api/v1/persistentvolumes/${pv}/status`, { status: { phase: 'Bound' } }, 'application/merge-patch+json'),
    [200],
  );
  const succeeded = {
    status: {
      phase: 'Succeeded',
      progress: '100.0%',
      claimName: name,
      conditions: [
        { type: 'Bound', status: 'True', reason: 'Bound' },
        { type: 'Ready', status: 'True' },
        { type: 'Running', status: 'False', reason: 'Completed' },
      ],
    },
  };
  await expectStatus(
    `marking DataVolume ${namespace}/${name} Succeeded`,
    request('PATCH', `/apis/cdi.kubevirt.io/v1beta1/namespaces/${namespace}/datavolumes/${name}/status`, succeeded, 'application/merge-patch+json'),
    [200],
  );
}

/** Populates every DataVolume not yet Succeeded, 16 at a time; returns how many. */
async function populateDataVolumes(request: AdminRequest): Promise<number> {
  const list = await request<{ items?: DataVolumeState[] }>('GET', '/apis/cdi.kubevirt.io/v1beta1/datavolumes');
  const todo = (list.body?.items ?? []).filter((dv) => dv.status?.phase !== 'Succeeded');
  for (let i = 0; i < todo.length; i += 16) await Promise.all(todo.slice(i, i + 16).map((dv) => populateDataVolume(request, dv)));
  return todo.length;
}

/** Polls for DataVolumes to populate until stopped; the last error, if any, is kept for the caller's report. */
export function startCdiStandIn(request: AdminRequest): { stop(): Promise<void>; lastError(): string | undefined } {
  return pollUntilStopped(() => populateDataVolumes(request));
}
