/**
 * `metalslice verify --kubevirt`: instead of building launcher pods itself, the replay applies what metalslice
 * renders (the fleet's KubeVirt CR and every VirtualMachine) to a control plane running KubeVirt's own virt-api
 * and virt-controller (constructs/verify/kubevirt.ts), and lets virt-controller make the launcher pods that
 * kube-scheduler binds.
 */
import { Plan } from '../core/plan';
import { PlannedVm } from '../core/vm/vm';
import { renderKubeVirt, renderVirtualMachine } from '../render/kubevirt';
import { ControlPlane, sleep } from './control-plane';
import { AdminRequest, BoundClaim, createBoundClaim, KUBEVIRT_NAMESPACE } from './kubevirt-stand-ins';
import { ListWatch, Watched } from './list-watch';
import { apiMessage, limiter } from './processes';
import { ReplayPod } from './replay';
import { classPodMaker, LauncherIdentity, launcherClassKey, LauncherPodDoc } from './kubevirt-classes';

/** The label virt-controller puts on a launcher pod: the name of its VM (and VMI). */
export const LAUNCHER_VM_LABEL = 'vm.kubevirt.io/name';

/** The VM a launcher pod runs, by KubeVirt's label. */
export function launcherPodVm(pod: { metadata: { labels?: Record<string, string> } }): string {
  return pod.metadata.labels?.[LAUNCHER_VM_LABEL] ?? '';
}

/** The user-data Secret a replayed VM names (never created: the scheduler does not read it). */
const USER_DATA_SECRET = 'metalslice-verify-userdata';

/** Retries a request on 429 and 5xx (the API server or a webhook busy), at most 8 times. */
async function retried(call: () => ReturnType<ControlPlane['request']>): ReturnType<ControlPlane['request']> {
  for (let attempt = 0; ; attempt++) {
    const res = await call().catch(() => undefined);
    if (res && res.status !== 429 && res.status < 500) return res;
    if (attempt >= 8) return res ?? { status: 0, body: { message: 'no answer from the API server' } };
    await sleep(200 * 2 ** Math.min(attempt, 4));
  }
}

/** The fleet's KubeVirt CR, in KubeVirt's own namespace (virt-config reads it there), once its stand-in status says Deployed. */
async function applyKubeVirt(cp: ControlPlane, plan: Pick<Plan, 'fleets' | 'vms'>): Promise<void> {
  const fleets = [...new Set(plan.vms.filter((vm) => vm.concrete).map((vm) => vm.fleet))];
  if (fleets.length > 1) {
    throw new Error(
      `verify --kubevirt runs one KubeVirt, configured by one fleet's KubeVirt CR; this plan's VMs are in ${fleets.length} fleets (${fleets.join(', ')}): verify them without --kubevirt, or one fleet per config`,
    );
  }
  const fleet = plan.fleets.find((f) => f.name === fleets[0]) ?? plan.fleets[0];
  if (!fleet) return;
  const cr = renderKubeVirt(fleet, plan.vms);
  const body = { ...cr, metadata: { ...cr.metadata, namespace: KUBEVIRT_NAMESPACE } };
  const url = `/apis/kubevirt.io/v1/namespaces/${KUBEVIRT_NAMESPACE}/kubevirts`;
  let created = await retried(() => cp.request('POST', url, body));
  // One left by an earlier replay keeps its status; only its spec is this plan's.
  if (created.status === 409)
    created = await retried(() => cp.request('PATCH', `${url}/kubevirt`, { spec: (cr as { spec?: unknown }).spec }, 'application/merge-patch+json'));
  if (created.status !== 201 && created.status !== 200) throw new Error(`applying the KubeVirt CR: HTTP ${created.status}: ${apiMessage(created.body)}`);
  for (const deadline = Date.now() + 30_000; ; await sleep(250)) {
    const kv = await cp.request<{ status?: { phase?: string } }>('GET', `${url}/kubevirt`);
    if (kv.body?.status?.phase === 'Deployed') break;
    if (Date.now() > deadline) throw new Error('the KubeVirt CR was not marked Deployed within 30 s');
  }
  // virt-api and virt-controller read the CR through informers: give them a moment to take its configuration.
  await sleep(2000);
}

/** How `verify --kubevirt` has launcher pods made. */
export interface KubevirtApplyOptions {
  /** VMs in flight at once. */
  readonly concurrency: number;
  /**
   * Apply every VM and let virt-controller render every launcher pod, instead of one VM per class (the rest made
   * from its class's pod). @default false
   */
  readonly everyVm?: boolean;
  /** How long virt-controller may make no class's pod before the classes without one count as pod-less. */
  readonly quietMs: number;
  /** Upper bound on waiting for the classes' pods. */
  readonly timeoutMs: number;
  /** Progress lines. */
  readonly log: (line: string) => void;
}

/** What applying the VMs did: the VMs that will have no launcher pod (and why), and how many classes virt-controller rendered. */
export interface KubevirtApplied {
  /** VMs refused by KubeVirt's admission, or whose class's representative got no launcher pod, by `namespace/name`. */
  readonly noPod: Map<string, string>;
  /** VMs virt-controller rendered a launcher pod for (every VM with `everyVm`, else one per class). */
  readonly rendered: number;
}

/** One VM to apply: its key, the object metalslice renders, and what makes its launcher pod its own. */
interface VmToApply {
  readonly key: string;
  readonly object: unknown;
  readonly identity: LauncherIdentity;
}

/** The VMs in the replay's order, rendered as `verify --kubevirt` applies them. */
function vmsToApply(plan: Pick<Plan, 'fleets' | 'vms'>, extraVms: readonly PlannedVm[], ordered: readonly ReplayPod[]): VmToApply[] {
  const selectorOf = new Map(plan.fleets.map((f) => [f.name, f.spec.hostSelector]));
  const vms = new Map([...plan.vms, ...extraVms].map((vm) => [`${vm.namespace}/${vm.name}`, vm]));
  return ordered.map((pod) => {
    const key = `${pod.namespace}/${pod.vm}`;
    const vm = vms.get(key);
    if (!vm) throw new Error(`no planned VM ${key}`);
    const host = vm.placement === 'planned' ? vm.host : undefined;
    return {
      key,
      object: renderVirtualMachine(vm, { userDataSecret: USER_DATA_SECRET, hostSelector: selectorOf.get(vm.fleet) }),
      identity: { name: vm.name, namespace: vm.namespace, ...(host !== undefined ? { host } : {}) },
    };
  });
}

/** A rendered VM's DataVolume templates, as the parts of them CDI's claims are made of. */
interface RenderedDataVolumes {
  readonly spec?: {
    readonly dataVolumeTemplates?: readonly {
      readonly metadata: { readonly name: string };
      readonly spec?: {
        readonly storage?: { readonly accessModes?: readonly string[]; readonly resources?: { readonly requests?: { readonly storage?: string } } };
      };
    }[];
  };
}

/**
 * The claims of a VM whose pod is made from its class's: what the CDI stand-in leaves for each of its DataVolumes
 * (no DataVolume is made), without the status writes kube-scheduler does not read.
 */
function rootDiskClaims(vm: VmToApply): BoundClaim[] {
  return ((vm.object as RenderedDataVolumes).spec?.dataVolumeTemplates ?? []).map((t) => ({
    namespace: vm.identity.namespace,
    name: t.metadata.name,
    size: t.spec?.storage?.resources?.requests?.storage ?? '10Gi',
    accessModes: t.spec?.storage?.accessModes ?? ['ReadWriteOnce'],
    statuses: false,
  }));
}

/** The launcher pods virt-controller has made so far, by `namespace/vm`. */
async function launcherPodsByVm(cp: ControlPlane): Promise<Map<string, LauncherPodDoc>> {
  const res = await retried(() => cp.request('GET', `/api/v1/pods?labelSelector=${encodeURIComponent('kubevirt.io=virt-launcher')}`));
  const items = (res.body as { items?: LauncherPodDoc[] } | undefined)?.items ?? [];
  return new Map(items.map((p) => [`${p.metadata.namespace ?? ''}/${launcherPodVm(p)}`, p]));
}

/** Waits until each representative has its launcher pod, or virt-controller made none for `quietMs`, or time is up. */
async function waitForClassPods(cp: ControlPlane, keys: readonly string[], opts: KubevirtApplyOptions): Promise<Map<string, LauncherPodDoc>> {
  const deadline = Date.now() + opts.timeoutMs;
  let seen = -1;
  let lastChange = Date.now();
  for (;;) {
    const pods = await launcherPodsByVm(cp);
    const made = keys.filter((k) => pods.has(k)).length;
    if (made !== seen) [seen, lastChange] = [made, Date.now()];
    if (made === keys.length || Date.now() - lastChange > opts.quietMs || Date.now() > deadline) return pods;
    const dead = cp.dead();
    if (dead) throw new Error(`a control plane component died: ${dead}`);
    await sleep(250);
  }
}

/** Every VM into its launcher pod class, in the replay's order: the first VM of a class stands for it. */
function launcherClasses(vms: readonly VmToApply[]): Map<string, VmToApply[]> {
  const classes = new Map<string, VmToApply[]>();
  for (const vm of vms) {
    const key = launcherClassKey(vm.object, vm.identity);
    const members = classes.get(key);
    if (members) members.push(vm);
    else classes.set(key, [vm]);
  }
  return classes;
}

/** The answer of KubeVirt's admission to one VM: undefined when admitted, else why not. */
async function admit(cp: ControlPlane, vm: VmToApply, dryRun: boolean): Promise<string | undefined> {
  const url = `/apis/kubevirt.io/v1/namespaces/${vm.identity.namespace}/virtualmachines${dryRun ? '?dryRun=All' : ''}`;
  const res = await retried(() => cp.request('POST', url, vm.object));
  return res.status === 201 || res.status === 409 ? undefined : `refused by KubeVirt: HTTP ${res.status}: ${apiMessage(res.body)}`;
}

/** Creates a class-made launcher pod, after its root disks' claims. */
async function createClassPod(cp: ControlPlane, vm: VmToApply, pod: LauncherPodDoc): Promise<void> {
  const request: AdminRequest = (method, apiPath, body, contentType) => cp.request(method, apiPath, body, contentType);
  for (const claim of rootDiskClaims(vm)) await createBoundClaim(request, claim);
  const res = await retried(() => cp.request('POST', `/api/v1/namespaces/${vm.identity.namespace}/pods`, pod));
  if (res.status !== 201) throw new Error(`creating the launcher pod of ${vm.key}: HTTP ${res.status}: ${apiMessage(res.body)}`);
}

/**
 * Applies the fleet's KubeVirt CR and the VMs as metalslice renders them, in the replay's order. One VM per
 * launcher pod class is applied, and virt-controller makes its VMI and launcher pod; every other VM goes through
 * KubeVirt's admission (virt-api's webhooks) by a dry-run create, and its launcher pod is made from its class's
 * (kubevirt-classes.ts). The admissions run while virt-controller renders the classes' pods, and each pod is
 * created as soon as both are done. With `everyVm`, every VM is applied and virt-controller makes every pod.
 */
export async function applyVirtualMachines(
  cp: ControlPlane,
  plan: Pick<Plan, 'fleets' | 'vms'>,
  extraVms: readonly PlannedVm[],
  ordered: readonly ReplayPod[],
  opts: KubevirtApplyOptions,
): Promise<KubevirtApplied> {
  await applyKubeVirt(cp, plan);
  const vms = vmsToApply(plan, extraVms, ordered);
  const noPod = new Map<string, string>();
  const admission = limiter(opts.concurrency);
  if (opts.everyVm) {
    opts.log(`applying ${vms.length} VirtualMachines through KubeVirt's virt-api; virt-controller makes every launcher pod`);
    await Promise.all(vms.map(async (vm) => admission(() => admit(cp, vm, false)).then((refusal) => refusal && noPod.set(vm.key, refusal))));
    return { noPod, rendered: vms.length - noPod.size };
  }
  const classes = launcherClasses(vms);
  const representatives = [...classes.values()].map((members) => members[0]);
  opts.log(
    `applying ${representatives.length} VirtualMachines, one per launcher pod class, for virt-controller to render their launcher pods; admitting the other ${vms.length - representatives.length} through KubeVirt's virt-api (dry run)`,
  );
  await Promise.all(representatives.map(async (rep) => admission(() => admit(cp, rep, false)).then((refusal) => refusal && noPod.set(rep.key, refusal))));
  const waitingFor = representatives.filter((r) => !noPod.has(r.key)).map((r) => r.key);
  const classPods = waitForClassPods(cp, waitingFor, opts).then((pods) => {
    const makers = new Map<string, (vm: LauncherIdentity) => LauncherPodDoc>();
    for (const rep of representatives) {
      const pod = pods.get(rep.key);
      if (pod) makers.set(rep.key, classPodMaker(pod, rep.identity));
    }
    return makers;
  });
  const others = [...classes.values()].flatMap(([rep, ...members]) => members.map((vm) => ({ vm, rep })));
  const admitted = new Map(others.map(({ vm }) => [vm.key, admission(() => admit(cp, vm, true))]));
  const creation = limiter(opts.concurrency * 2);
  await Promise.all(
    others.map(async ({ vm, rep }) => {
      const refusal = await admitted.get(vm.key);
      if (refusal) return void noPod.set(vm.key, refusal);
      const make = (await classPods).get(rep.key);
      if (!make) return void noPod.set(vm.key, `virt-controller made no launcher pod for ${rep.key}, the VM of its class whose pod the others' are made from`);
      await creation(() => createClassPod(cp, vm, make(vm.identity)));
    }),
  );
  return { noPod, rendered: waitingFor.length };
}

/** An admitted VM's state when virt-controller made no launcher pod for it: the VM's printable status and last condition. */
interface VmState {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly status?: { readonly printableStatus?: string; readonly conditions?: readonly { type: string; status: string; reason?: string; message?: string }[] };
}

/** The admitted VMs that have no launcher pod, by `namespace/name`, with what KubeVirt says of each. */
export async function vmsWithoutLauncherPod(
  cp: ControlPlane,
  ordered: readonly ReplayPod[],
  refused: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const withPod = await launcherPodsByVm(cp);
  const missing = ordered.map((p) => `${p.namespace}/${p.vm}`).filter((key) => !withPod.has(key) && !refused.has(key));
  if (missing.length === 0) return new Map();
  const list = await cp.request<{ items?: VmState[] }>('GET', '/apis/kubevirt.io/v1/virtualmachines');
  const state = new Map((list.body?.items ?? []).map((vm) => [`${vm.metadata.namespace ?? ''}/${vm.metadata.name}`, vm]));
  return new Map(
    missing.map((key) => {
      const s = state.get(key)?.status;
      const failing = (s?.conditions ?? []).find((c) => c.status === 'False' && c.message) ?? (s?.conditions ?? []).find((c) => c.message);
      const detail = [s?.printableStatus, failing ? `${failing.type}: ${failing.message}` : undefined].filter(Boolean).join('; ');
      return [key, `virt-controller made no launcher pod${detail ? ` (${detail})` : ''}`];
    }),
  );
}

/** The KubeVirt and CDI objects a `--kubevirt` replay leaves, namespaced ones by collection, in deletion order. */
const KUBEVIRT_LEFTOVERS = [
  '/apis/kubevirt.io/v1/virtualmachines',
  '/apis/kubevirt.io/v1/virtualmachineinstances',
  '/apis/cdi.kubevirt.io/v1beta1/datavolumes',
  '/api/v1/persistentvolumeclaims',
] as const;

/** Lists a collection across namespaces: `namespace/name` of each object, whether it has finalizers and whether it is being deleted. */
async function listAll(cp: ControlPlane, collection: string): Promise<{ namespace: string; name: string; finalizers: boolean; deleting: boolean }[]> {
  const res = await cp.request<{ items?: { metadata: { name: string; namespace?: string; finalizers?: string[]; deletionTimestamp?: string } }[] }>(
    'GET',
    collection,
  );
  return (res.body?.items ?? []).map((o) => ({
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name,
    finalizers: (o.metadata.finalizers ?? []).length > 0,
    deleting: o.metadata.deletionTimestamp !== undefined,
  }));
}

/** The namespaced path of a collection (`/apis/g/v/kind` -> `/apis/g/v/namespaces/ns/kind`). */
function inNamespace(collection: string, namespace: string): string {
  const i = collection.lastIndexOf('/');
  return `${collection.slice(0, i)}/namespaces/${namespace}${collection.slice(i)}`;
}

/**
 * Deletes what a `--kubevirt` replay made (VMs first, so virt-controller makes no pod again; then VMIs, DataVolumes,
 * claims and volumes; the KubeVirt CR stays, the next replay rewrites its spec), and waits until the VMs and VMIs are gone; finalizers nobody here would
 * remove (virt-handler's) are cleared after 20 s.
 */
export async function resetKubevirt(cp: ControlPlane): Promise<void> {
  await deleteLeftovers(cp);
  await cp.request('DELETE', '/api/v1/persistentvolumes').catch(() => undefined);
  const started = Date.now();
  for (;;) {
    const left = [...(await listAll(cp, KUBEVIRT_LEFTOVERS[0])), ...(await listAll(cp, KUBEVIRT_LEFTOVERS[1])).map((o) => ({ ...o, vmi: true }))];
    if (left.length === 0) return;
    if (Date.now() - started > 300_000) throw new Error(`resetting KubeVirt: ${left.length} VMs or VMIs are still there after 300 s`);
    if (left.some((o) => !o.deleting)) await deleteLeftovers(cp);
    if (Date.now() - started > 20_000) {
      for (const o of left.filter((x) => x.finalizers)) {
        const collection = 'vmi' in o ? KUBEVIRT_LEFTOVERS[1] : KUBEVIRT_LEFTOVERS[0];
        await cp.request('PATCH', `${inNamespace(collection, o.namespace)}/${o.name}`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
      }
    }
    await sleep(1000);
  }
}

/**
 * Removes the claims and volumes a `--kubevirt` replay left, once no pod uses them: their protection finalizers
 * (`kubernetes.io/pvc-protection`, `kubernetes.io/pv-protection`) are kube-controller-manager's to remove, and none
 * runs here, so a claim deleted by the reset would stay "being deleted" and the next replay's pod of that name
 * could not use it. Waits until both are gone.
 */
export async function releaseClaims(cp: ControlPlane): Promise<void> {
  const claims = KUBEVIRT_LEFTOVERS[3];
  const started = Date.now();
  for (;;) {
    const left = [...(await listAll(cp, claims)).map((o) => ({ ...o, claim: true })), ...(await listAll(cp, '/api/v1/persistentvolumes'))];
    if (left.length === 0) return;
    if (Date.now() - started > 120_000) throw new Error(`resetting KubeVirt: ${left.length} claims or volumes are still there after 120 s`);
    await cp.request('DELETE', '/api/v1/persistentvolumes').catch(() => undefined);
    for (const ns of new Set(left.filter((o) => 'claim' in o && !o.deleting).map((o) => o.namespace))) {
      await cp.request('DELETE', inNamespace(claims, ns)).catch(() => undefined);
    }
    for (const o of left.filter((x) => x.finalizers)) {
      const at = 'claim' in o ? `${inNamespace(claims, o.namespace)}/${o.name}` : `/api/v1/persistentvolumes/${o.name}`;
      await cp.request('PATCH', at, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    }
    await sleep(250);
  }
}

/**
 * Deletes each leftover collection in every namespace that still has objects not being deleted. A namespace of a
 * thousand VMs can take the API server longer than one request's minute; when the request times out the API
 * server stops deleting where it was, so the reset asks again for what is left.
 */
async function deleteLeftovers(cp: ControlPlane): Promise<void> {
  for (const collection of KUBEVIRT_LEFTOVERS) {
    const namespaces = new Set((await listAll(cp, collection)).filter((o) => !o.deleting).map((o) => o.namespace));
    for (const ns of namespaces) await cp.request('DELETE', inNamespace(collection, ns)).catch(() => undefined);
  }
}

/** virt-controller's progress short of launcher pods: how many DataVolumes and VMIs there are, each followed by a list and a watch. */
export interface KubevirtProgress {
  /** `DataVolumes/VMIs` as last seen. */
  current(): string;
  /** Ends the watches. */
  stop(): void;
}

/**
 * Follows virt-controller's progress short of launcher pods: DataVolumes and VMIs made. It creates every VM's
 * DataVolume before the first VMI of a large replay, so a wait that watched only pods would stop early. Watched,
 * not counted by two lists four times a second (1,600 lists in one 1,000-VM replay, each waiting its turn on a busy
 * API server).
 */
export async function followKubevirtProgress(cp: ControlPlane): Promise<KubevirtProgress> {
  const dataVolumes = await ListWatch.start<Watched>(cp, '/apis/cdi.kubevirt.io/v1beta1/datavolumes');
  const vmis = await ListWatch.start<Watched>(cp, '/apis/kubevirt.io/v1/virtualmachineinstances').catch((e: Error) => {
    dataVolumes.stop();
    throw e;
  });
  return {
    current: () => `${dataVolumes.current().length}/${vmis.current().length}`,
    stop: () => {
      dataVolumes.stop();
      vmis.stop();
    },
  };
}
