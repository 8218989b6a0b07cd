/**
 * What KubeVirt's absent parts would do, done here with admin API calls: virt-operator's install (the objects its
 * own code generates, through the `kubevirt-install` program), the status it writes on a KubeVirt CR once the
 * components run, and (verify --kubevirt) CDI's import of each DataVolume. Also owns which KubeVirt this is: the
 * version and namespace the install is generated for. Kept apart from starting the processes
 * (constructs/verify/kubevirt.ts), which calls these.
 */
import { execFileSync } from 'child_process';
import { ListWatch, WatchClient } from './list-watch';
import { ApiResponse, waitFor } from './processes';

/** The KubeVirt version whose virt-api and virt-controller run (the module scripts/kubevirt-oracle.sh builds). */
export const KUBEVIRT_VERSION = 'v1.9.0';
/** The namespace virt-api and virt-controller run in, as KubeVirt's own default install. */
export const KUBEVIRT_NAMESPACE = 'kubevirt';

/** One admin request to the API server (JSON body, parsed JSON response). */
export type AdminRequest = <T = unknown>(method: string, apiPath: string, body?: unknown, contentType?: string) => Promise<ApiResponse<T>>;

/** Admin requests and watches on the API server (what the CDI stand-in follows DataVolumes with). */
export type AdminClient = WatchClient & { readonly request: AdminRequest };

// --- what virt-operator installs -------------------------------------------------------------------------

/** One object of kubevirt-install's output. */
export interface InstallItem {
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
export async function createOrReplace(request: AdminRequest, item: InstallItem): Promise<void> {
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
export async function installCrds(request: AdminRequest, crds: readonly InstallItem[], timeoutMs: number): Promise<void> {
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
export function installItems(install: string, url: string, caFile: string): InstallItem[] {
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
export function startOperatorStandIn(request: AdminRequest): { stop(): Promise<void> } {
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

/** A claim to leave bound to a volume of its own, as CDI leaves a DataVolume's. */
export interface BoundClaim {
  /** The claim's namespace. */
  readonly namespace: string;
  /** The claim's name (a DataVolume's name). */
  readonly name: string;
  /** Its size. */
  readonly size: string;
  /** Its access modes. */
  readonly accessModes: readonly string[];
  /** The DataVolume that owns it (its controller), if there is one. */
  readonly ownerUid?: string;
  /** Also write both objects' status Bound (what a reader of status sees; kube-scheduler reads the claim's volume and annotation). */
  readonly statuses: boolean;
}

/**
 * A PersistentVolume and a PersistentVolumeClaim bound to each other (`pv.kubernetes.io/bind-completed`, the
 * claim's volumeName, the volume's claimRef): kube-scheduler then sees a bound claim on a volume with no node
 * affinity. A claim already there (409: populated before, or one a reset left) is kept.
 */
export async function createBoundClaim(request: AdminRequest, claim: BoundClaim): Promise<void> {
  const { name, namespace, size } = claim;
  const accessModes = [...claim.accessModes];
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
  const created = await request('POST', claimPath, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace,
      annotations: { 'pv.kubernetes.io/bind-completed': 'yes', 'cdi.kubevirt.io/storage.populatedFor': name },
      // As CDI owns a DataVolume's claim: its controller, and a foreground deletion of the DataVolume waits for it.
      ...(claim.ownerUid
        ? {
            ownerReferences: [
              { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', name, uid: claim.ownerUid, controller: true, blockOwnerDeletion: true },
            ],
          }
        : {}),
    },
    spec: { accessModes, resources: { requests: { storage: size } }, storageClassName: '', volumeName: pv, volumeMode: 'Filesystem' },
  });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(`creating PersistentVolumeClaim ${namespace}/${name}: HTTP ${created.status}: ${JSON.stringify(created.body)}`);
  if (!claim.statuses) return;
  const bound = { status: { phase: 'Bound', accessModes, capacity: { storage: size } } };
  await expectStatus('binding the PersistentVolumeClaim', request('PATCH', `${claimPath}/${name}/status`, bound, 'application/merge-patch+json'), [200]);
  await expectStatus(
    'binding the PersistentVolume',
    request('PATCH', `/api/v1/persistentvolumes/${pv}/status`, { status: { phase: 'Bound' } }, 'application/merge-patch+json'),
    [200],
  );
}

/**
 * What CDI would leave for one DataVolume once imported, with no importer run: a PersistentVolume and the
 * DataVolume's PersistentVolumeClaim bound to each other (both Bound), and the DataVolume Succeeded.
 */
async function populateDataVolume(request: AdminRequest, dv: DataVolumeState): Promise<void> {
  const { name, namespace } = dv.metadata;
  const claim = dv.spec?.storage ?? dv.spec?.pvc ?? {};
  await createBoundClaim(request, {
    namespace,
    name,
    size: claim.resources?.requests?.storage ?? '10Gi',
    accessModes: claim.accessModes ?? ['ReadWriteOnce'],
    ...(dv.metadata.uid ? { ownerUid: dv.metadata.uid } : {}),
    statuses: true,
  });
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

/** The DataVolumes the CDI stand-in follows (one list, then a watch), across namespaces. */
const DATA_VOLUMES = '/apis/cdi.kubevirt.io/v1beta1/datavolumes';

/**
 * Populates every DataVolume the watch has shown that is not yet Succeeded, 16 at a time, once each (by uid: a
 * replay that makes a DataVolume of the same name again gets it populated again); returns how many.
 */
async function populateDataVolumes(request: AdminRequest, dataVolumes: ListWatch<DataVolumeState>, populated: Set<string>): Promise<number> {
  const idOf = (dv: DataVolumeState): string => dv.metadata.uid ?? `${dv.metadata.namespace}/${dv.metadata.name}`;
  const todo = dataVolumes.current().filter((dv) => dv.status?.phase !== 'Succeeded' && !populated.has(idOf(dv)));
  for (let i = 0; i < todo.length; i += 16) {
    await Promise.all(todo.slice(i, i + 16).map(async (dv) => populateDataVolume(request, dv).then(() => populated.add(idOf(dv)))));
  }
  return todo.length;
}

/**
 * Follows DataVolumes with a list and a watch and populates each new one until stopped; the last error, if any, is
 * kept for the caller's report. A watch, not a list of every DataVolume every 500 ms: those lists grew with the
 * replay (up to 1,000 objects each at 1,000 VMs) and, with the replay's own counts, were about a tenth of the API
 * server's CPU (pprof, a `--kubevirt` replay of 1,000 VMs).
 */
export async function startCdiStandIn(client: AdminClient, timeoutMs: number): Promise<{ stop(): Promise<void>; lastError(): string | undefined }> {
  let started: ListWatch<DataVolumeState> | undefined;
  // Right after CDI's CRDs are Established the API server may still answer 429 "storage is (re)initializing".
  await waitFor('the CDI stand-in listing DataVolumes', timeoutMs, async () => {
    started = await ListWatch.start<DataVolumeState>(client, DATA_VOLUMES);
    return true;
  });
  const dataVolumes = started as ListWatch<DataVolumeState>;
  const populated = new Set<string>();
  const polling = pollUntilStopped(() => populateDataVolumes(client.request, dataVolumes, populated));
  return {
    async stop(): Promise<void> {
      await polling.stop();
      dataVolumes.stop();
    },
    lastError: () => {
      try {
        dataVolumes.current();
      } catch (e) {
        return (e as Error).message;
      }
      return polling.lastError();
    },
  };
}
