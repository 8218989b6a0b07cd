/**
 * The fleet `metalslice status` reads, for bench:status: a plan as a converged deploy leaves it on a real API
 * server, made through the API with no KubeVirt process running. Per host: a Ready Node (the config's capacity as
 * its allocatable, virt-handler's labels and devices, the plan's host group labels) and its virt-handler pod. Per
 * planned VM: the VirtualMachine as the stack renders it, its root DataVolume imported, a Running
 * VirtualMachineInstance and virt-launcher pod on the planned host, and the tenant Node the VM joined as, Ready.
 * The tenant cluster is the same API server. KubeVirt's CRDs come from its own code (kubevirt-install), CDI's from
 * the stand-ins `verify --kubevirt` installs.
 */
import * as fs from 'fs';
import { Plan, PlannedHost, PlannedQuota } from '../constructs/core/plan';
import { MetalsliceConfig } from '../constructs/core/input/model';
import { PlannedVm } from '../constructs/core/vm/vm';
import { addResources, formatResources, get, normalizeResources, resourceNames, ResourceVector } from '../constructs/core/base/resources';
import { KUBEVIRT_APP_LABEL, VIRT_LAUNCHER_APP } from '../constructs/core/kubevirt/handler';
import { kubevirtNodeLabels } from '../constructs/core/kubevirt/launcher';
import { PLANNED_HOST_ANNOTATION, vmUserDataSecretName } from '../constructs/core/naming/derived';
import { elasticNodeLabels, KUBEVIRT_API_VERSION, renderVirtualMachine } from '../constructs/render/kubevirt';
import { hostGroupMembers, withHostGroupLabels } from '../constructs/render/host-groups';
import { KubeObject } from '../constructs/render/labels';
import { renderQuotaNamespace, renderResourceQuota, resourceQuotaHard } from '../constructs/render/quota';
import { ApiResponse, ControlPlane } from '../constructs/verify/control-plane';
import { findKubevirtBinaries } from '../constructs/verify/kubevirt';
import { cdiCrds, InstallItem, installCrds, installItems } from '../constructs/verify/kubevirt-stand-ins';
import { buildLauncherPod, hostBoundPods, KUBEVIRT_DEVICES, KUBEVIRT_DEVICES_PER_NODE, UNREPORTED_EPHEMERAL_STORAGE } from '../constructs/verify/replay';
import { apiMessage } from '../constructs/verify/processes';
import { spreadScaleConfig } from './verify-fixtures';

const MERGE_PATCH = 'application/merge-patch+json';
const CDI_API_VERSION = 'cdi.kubevirt.io/v1beta1';
/** The kubelet version the fleet's hosts report. */
const HOST_KUBELET_VERSION = 'v1.34.4';

/** The address and credentials of the one API server that is both the provider and the tenant cluster. */
export interface BenchServer {
  readonly server: string;
  /** PEM of the CA that signed the API server's serving certificate. */
  readonly caCertificate: string;
  /** An admin kubeconfig. */
  readonly kubeconfig: string;
}

/**
 * bench/verify-fixtures.ts's spread fleet (`hosts` hosts, 10 VMs per host in five fleet-wide pools) with its one
 * tenant cluster at the bench's API server, so the tenant Nodes are read from there too.
 */
export function statusConfig(hosts: number, at: BenchServer): MetalsliceConfig {
  const config = spreadScaleConfig(hosts, 1);
  const clusters = (config.clusters ?? []).map((c) => ({
    ...c,
    endpoint: at.server,
    caCertificate: at.caCertificate,
    kubeconfigPath: at.kubeconfig,
  }));
  return { ...config, clusters };
}

/** The CA of kube-apiserver's self-signed serving certificate: the last certificate of the bundle it writes in its cert dir. */
export function apiserverCa(certFile: string): string {
  const blocks = fs.readFileSync(certFile, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`no certificate in ${certFile}`);
  return `${blocks[blocks.length - 1]}\n`;
}

// --- requests ------------------------------------------------------------------------------------------

/** Sends one request; throws with what was being done unless the API server answers one of `statuses`. */
async function send<T = KubeObject>(
  cp: ControlPlane,
  what: string,
  method: string,
  apiPath: string,
  body: unknown,
  statuses: readonly number[] = [201],
  contentType?: string,
): Promise<T> {
  const res: ApiResponse<T> = await cp.request<T>(method, apiPath, body, contentType);
  if (!statuses.includes(res.status)) throw new Error(`${what}: HTTP ${res.status}: ${apiMessage(res.body)}`);
  return res.body;
}

/** Runs `work` on every item, `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** An object's status, written where its kind keeps it: the status subresource when it has one, else the object. */
async function writeStatus(cp: ControlPlane, what: string, objectPath: string, subresource: boolean, status: unknown): Promise<void> {
  await send(cp, `writing the status of ${what}`, 'PATCH', subresource ? `${objectPath}/status` : objectPath, { status }, [200], MERGE_PATCH);
}

function uidOf(o: KubeObject): string {
  const uid = (o.metadata as { uid?: string }).uid;
  if (!uid) throw new Error(`the API server returned ${o.kind} ${o.metadata.name} without a uid`);
  return uid;
}

function ownerReference(owner: KubeObject): Record<string, unknown> {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: uidOf(owner), controller: true, blockOwnerDeletion: true };
}

// --- CRDs ----------------------------------------------------------------------------------------------

/** Resources (plural) whose CRD has a status subresource: status writes go there, else to the object. */
export type StatusSubresources = ReadonlySet<string>;

/** KubeVirt's CRDs as virt-operator's code generates them, and CDI's; returns which resources have a status subresource. */
export async function installKubevirtCrds(cp: ControlPlane, timeoutMs = 120_000): Promise<StatusSubresources> {
  // kubevirt-install also prints webhooks for a virt-api at the URL; only its CRDs are installed, so any URL and CA do.
  const crds = installItems(findKubevirtBinaries().install, 'https://127.0.0.1:1', `${cp.dir}/certs/apiserver.crt`).filter(
    (i) => i.kind === 'CustomResourceDefinition',
  );
  const all = [...crds, ...(cdiCrds() as unknown as InstallItem[])];
  await installCrds((method, apiPath, body, contentType) => cp.request(method, apiPath, body, contentType), all, timeoutMs);
  const withStatus = new Set<string>();
  for (const crd of all) {
    const versions = (crd.spec?.versions ?? []) as { storage?: boolean; subresources?: { status?: unknown } }[];
    if (versions.some((v) => v.storage && v.subresources?.status !== undefined)) withStatus.add(crd.spec?.names?.plural ?? '');
  }
  return withStatus;
}

// --- the provider's hosts -------------------------------------------------------------------------------

/** A resource list as a Node shows it: no `disk` (VM root disks are storage), virt-handler's devices, ephemeral storage. */
function nodeResources(v: ResourceVector): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of resourceNames(v)) if (name !== 'disk') out[name] = v[name].toString();
  out['ephemeral-storage'] ??= UNREPORTED_EPHEMERAL_STORAGE;
  for (const d of KUBEVIRT_DEVICES) out[d] = String(KUBEVIRT_DEVICES_PER_NODE);
  return out;
}

function readyStatus(capacity: Record<string, string>, allocatable: Record<string, string>, kubeletVersion: string): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    capacity,
    allocatable,
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: now, lastTransitionTime: now }],
    nodeInfo: { kubeletVersion, operatingSystem: 'linux', architecture: 'amd64' },
  };
}

/** A host's Node as its kubelet and virt-handler leave it: Ready, its capacity allocatable, with the plan's group labels. */
export function hostNode(host: PlannedHost, groups: ReadonlyMap<string, ReadonlySet<string>>): KubeObject {
  const labels = { ...host.labels, 'kubernetes.io/hostname': host.name, 'kubernetes.io/os': 'linux', ...kubevirtNodeLabels() };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: host.name, labels: withHostGroupLabels(host.name, labels, groups) },
    spec: {},
    status: readyStatus(nodeResources(host.capacity), nodeResources(host.nodeAllocatable), HOST_KUBELET_VERSION),
  };
}

/** A pod's status once its kubelet runs it: Running, Ready, each container started. */
function runningPodStatus(pod: KubeObject): Record<string, unknown> {
  const now = new Date().toISOString();
  const containers = ((pod.spec as { containers?: { name: string; image: string }[] } | undefined)?.containers ?? []).map((c) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: now } },
  }));
  return {
    phase: 'Running',
    hostIP: '127.0.0.1',
    startTime: now,
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({ type, status: 'True', lastTransitionTime: now })),
    containerStatuses: containers,
  };
}

/** Creates a pod, then marks it Running as its kubelet would. */
async function createRunningPod(cp: ControlPlane, pod: KubeObject): Promise<KubeObject> {
  const ns = pod.metadata.namespace ?? 'default';
  const what = `pod ${ns}/${pod.metadata.name}`;
  const created = await send(cp, `creating ${what}`, 'POST', `/api/v1/namespaces/${ns}/pods`, pod);
  await writeStatus(cp, what, `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`, true, runningPodStatus(pod));
  return created;
}

async function createNode(cp: ControlPlane, node: KubeObject): Promise<void> {
  // A Node keeps the status it is created with (a kubelet registers it so).
  await send(cp, `creating node ${node.metadata.name}`, 'POST', '/api/v1/nodes', node);
}

// --- the VMs --------------------------------------------------------------------------------------------

/** What each VM's objects are made with: the pools' rollout revisions, the fleets' host selectors, the CRDs' status subresources. */
interface VmContext {
  readonly revisionOf: ReadonlyMap<string, string | undefined>;
  readonly hostSelectorOf: ReadonlyMap<string, Readonly<Record<string, string>> | undefined>;
  readonly kubeletVersionOf: ReadonlyMap<string, string>;
  readonly statusSubresources: StatusSubresources;
}

interface RenderedVm extends KubeObject {
  readonly spec: {
    readonly dataVolumeTemplates?: readonly { metadata: { name: string }; spec: unknown }[];
    readonly template: { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: unknown };
  };
}

function vmStatus(): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    created: true,
    ready: true,
    printableStatus: 'Running',
    desiredGeneration: 1,
    observedGeneration: 1,
    conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: now }],
  };
}

/** The VMI virt-controller makes from a VM: the template's labels (and its host's) and annotations, the template's spec. */
function vmiOf(vm: RenderedVm, host: string): KubeObject {
  const template = vm.spec.template;
  return {
    apiVersion: KUBEVIRT_API_VERSION,
    kind: 'VirtualMachineInstance',
    metadata: {
      name: vm.metadata.name,
      namespace: vm.metadata.namespace,
      labels: { ...template.metadata.labels, 'kubevirt.io/nodeName': host },
      annotations: { ...template.metadata.annotations },
      ownerReferences: [ownerReference(vm)],
    } as KubeObject['metadata'],
    spec: template.spec,
  };
}

function vmiStatus(host: string, launcherPod: KubeObject): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    phase: 'Running',
    nodeName: host,
    activePods: { [uidOf(launcherPod)]: host },
    conditions: [
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      { type: 'LiveMigratable', status: 'True', lastProbeTime: null, lastTransitionTime: now },
    ],
    qosClass: 'Burstable',
  };
}

/** The launcher pod virt-controller makes for a VMI, bound to its host. */
function launcherPodOf(vm: PlannedVm, vmi: KubeObject, host: string, hostSelector: Readonly<Record<string, string>> | undefined): KubeObject {
  const pod = buildLauncherPod(vm, hostSelector);
  const annotations: Record<string, string> = { ...pod.metadata.annotations };
  delete annotations[PLANNED_HOST_ANNOTATION];
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      labels: { ...pod.metadata.labels, [KUBEVIRT_APP_LABEL]: VIRT_LAUNCHER_APP, 'kubevirt.io/created-by': uidOf(vmi) },
      annotations,
      ownerReferences: [ownerReference(vmi)],
    } as KubeObject['metadata'],
    spec: { ...pod.spec, nodeName: host },
  };
}

/** The Node a VM joins its tenant cluster as, with the labels and taints ElasticNodePool's join gives it. */
function tenantNode(vm: PlannedVm, kubeletVersion: string): KubeObject {
  const labels = {
    ...elasticNodeLabels(vm),
    'kubernetes.io/hostname': vm.name,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
  };
  const resources = { cpu: vm.shape.cpu.toString(), memory: vm.shape.memory.toString(), pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: vm.name, labels },
    spec: { providerID: `kubevirt://${vm.name}`, ...(vm.taints.length > 0 ? { taints: vm.taints } : {}) },
    status: readyStatus(resources, resources, kubeletVersion),
  };
}

/** One VM's objects, in the order KubeVirt and the kubelet make them: VM, DataVolume, VMI, launcher pod, then the tenant Node. */
async function createVm(cp: ControlPlane, vm: PlannedVm, ctx: VmContext): Promise<void> {
  const host = vm.host;
  if (host === undefined) throw new Error(`VM ${vm.namespace}/${vm.name} has no planned host: the plan did not place it`);
  const rendered = renderVirtualMachine(vm, {
    userDataSecret: vmUserDataSecretName(vm.name),
    hostSelector: ctx.hostSelectorOf.get(vm.fleet),
    revision: ctx.revisionOf.get(vm.poolPath),
  }) as RenderedVm;
  const kubevirt = `/apis/kubevirt.io/v1/namespaces/${vm.namespace}`;
  const what = `VirtualMachine ${vm.namespace}/${vm.name}`;
  const created = await send<RenderedVm>(cp, `creating ${what}`, 'POST', `${kubevirt}/virtualmachines`, rendered);
  await writeStatus(cp, what, `${kubevirt}/virtualmachines/${vm.name}`, ctx.statusSubresources.has('virtualmachines'), vmStatus());
  for (const template of rendered.spec.dataVolumeTemplates ?? []) {
    const dvs = `/apis/cdi.kubevirt.io/v1beta1/namespaces/${vm.namespace}/datavolumes`;
    const dv = {
      apiVersion: CDI_API_VERSION,
      kind: 'DataVolume',
      metadata: { name: template.metadata.name, ownerReferences: [ownerReference(created)] },
      spec: template.spec,
    };
    await send(cp, `creating DataVolume ${vm.namespace}/${dv.metadata.name}`, 'POST', dvs, dv);
    await writeStatus(cp, `DataVolume ${dv.metadata.name}`, `${dvs}/${dv.metadata.name}`, ctx.statusSubresources.has('datavolumes'), {
      phase: 'Succeeded',
      progress: '100.0%',
      conditions: [{ type: 'Ready', status: 'True' }],
    });
  }
  const vmi = await send(cp, `creating the VMI of ${what}`, 'POST', `${kubevirt}/virtualmachineinstances`, vmiOf(created, host));
  const pod = await createRunningPod(cp, launcherPodOf(vm, vmi, host, ctx.hostSelectorOf.get(vm.fleet)));
  const vmiPath = `${kubevirt}/virtualmachineinstances/${vm.name}`;
  await writeStatus(cp, `the VMI of ${what}`, vmiPath, ctx.statusSubresources.has('virtualmachineinstances'), vmiStatus(host, pod));
  await createNode(cp, tenantNode(vm, ctx.kubeletVersionOf.get(vm.cluster) ?? 'v1.33.0'));
}

// --- the quotas -----------------------------------------------------------------------------------------

/**
 * What the quota controller counts in a quota's namespace once its VMs run: the launcher pods' requests, the root
 * disks' claims as requests.storage, the VMs; only the keys the ResourceQuota limits.
 */
function quotaUsed(quota: PlannedQuota, vms: readonly PlannedVm[]): Record<string, string> {
  const mine = vms.filter((vm) => vm.quota === quota.name);
  const requests = formatResources(normalizeResources(mine.reduce<ResourceVector>((sum, vm) => addResources(sum, vm.launcher.requests), {})));
  const disks = formatResources(normalizeResources(mine.reduce<ResourceVector>((sum, vm) => addResources(sum, { storage: get(vm.shape, 'disk') }), {})));
  const counted: Record<string, string> = { 'count/virtualmachines.kubevirt.io': String(mine.length), 'requests.storage': disks.storage ?? '0' };
  for (const [name, value] of Object.entries(requests)) counted[`requests.${name}`] = value;
  const used: Record<string, string> = {};
  for (const key of Object.keys(resourceQuotaHard(quota))) used[key] = counted[key] ?? '0';
  return used;
}

/** Each quota's ResourceQuota as the stack writes it, with the status the quota controller gives it. */
async function createQuotas(cp: ControlPlane, plan: Plan, vms: readonly PlannedVm[]): Promise<void> {
  for (const quota of plan.quotas) {
    const object = renderResourceQuota(quota);
    const collection = `/api/v1/namespaces/${quota.namespace}/resourcequotas`;
    await send(cp, `creating the ResourceQuota of ${quota.name}`, 'POST', collection, object);
    await writeStatus(cp, `the ResourceQuota of ${quota.name}`, `${collection}/${object.metadata.name}`, true, {
      hard: resourceQuotaHard(quota),
      used: quotaUsed(quota, vms),
    });
  }
}

/** How many objects of each kind a fleet was made of. */
export interface FleetCounts {
  readonly hostNodes: number;
  readonly hostPods: number;
  readonly vms: number;
}

/**
 * Makes the plan's fleet on the API server, `concurrency` requests in flight (hosts first, then one VM's chain of
 * requests per worker). Every concrete VM must have a planned host.
 */
export async function createFleet(
  cp: ControlPlane,
  plan: Plan,
  statusSubresources: StatusSubresources,
  concurrency: number,
  log: (line: string) => void,
): Promise<FleetCounts> {
  const vms = plan.pools.flatMap((p) => p.vms).filter((vm) => vm.concrete);
  const hosts = plan.fleets.flatMap((f) => [...f.hosts, ...f.excludedHosts.map((e) => e.host)]);
  const hostPods = plan.fleets.flatMap((f) => f.hosts.flatMap((h) => hostBoundPods(h, f.spec.namespace ?? 'kubevirt')));
  const namespaces = [
    ...plan.quotas.map(renderQuotaNamespace),
    ...[...new Set(hostPods.map((p) => p.metadata.namespace))].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
  ];
  for (const ns of namespaces) await send(cp, `creating namespace ${ns.metadata.name}`, 'POST', '/api/v1/namespaces', ns, [201, 409]);
  const groups = hostGroupMembers(plan.vms);
  log(`creating ${hosts.length} host Nodes and ${hostPods.length} pods on them`);
  await inPool(hosts, concurrency, (h) => createNode(cp, hostNode(h, groups)));
  await inPool(hostPods, concurrency, async (p) => void (await createRunningPod(cp, p)));
  const ctx: VmContext = {
    revisionOf: new Map(plan.pools.map((p) => [p.path, plan.rollouts.get(p.path)?.revision])),
    hostSelectorOf: new Map(plan.fleets.map((f) => [f.name, f.spec.hostSelector])),
    kubeletVersionOf: new Map(plan.clusters.map((c) => [c.name, `v${c.kubernetesVersion}.0`])),
    statusSubresources,
  };
  log(`creating ${vms.length} VMs, each with its DataVolume, VMI, launcher pod and tenant Node`);
  let done = 0;
  await inPool(vms, concurrency, async (vm) => {
    await createVm(cp, vm, ctx);
    if (++done % 1000 === 0) log(`  ${done} / ${vms.length} VMs`);
  });
  // Last: ResourceQuota admission would otherwise charge every pod created after it on top of its status.
  await createQuotas(cp, plan, vms);
  return { hostNodes: hosts.length, hostPods: hostPods.length, vms: vms.length };
}

/** How many objects a collection holds (one list call of one item, its remainingItemCount). */
export async function countOf(cp: ControlPlane, collection: string): Promise<number> {
  const list = await send<{ items?: unknown[]; metadata?: { remainingItemCount?: number } }>(
    cp,
    `listing ${collection}`,
    'GET',
    `${collection}?limit=1`,
    undefined,
    [200],
  );
  return (list.items?.length ?? 0) + (list.metadata?.remainingItemCount ?? 0);
}
