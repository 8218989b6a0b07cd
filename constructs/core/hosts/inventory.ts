/**
 * The host inventory `metalslice inventory` writes: Kubernetes Nodes and Metal3 BareMetalHosts of a
 * provider cluster turned into the `{hosts: [...]}` file that fleets and metal3 node providers read with
 * `hostsFile:`. Pure: the objects come in as plain JSON. Only names, labels, capacity and state are kept;
 * nothing from a BMC, credential or user data reference is ever copied.
 */
import { InventoryFile } from '../input/config';
import { KUBEVIRT_APP_LABEL, VIRT_HANDLER_APP, VIRT_LAUNCHER_APP } from '../kubevirt/handler';
import { HostPods, HostSpec, RunningVm, Taint } from '../input/model';
import { HOST_GROUP_LABEL_PREFIX, HOST_GROUP_LABEL_VALUE, POOL_LABEL, VM_NAME_LABEL } from '../naming/derived';
import { HOST_GROUP_KEY_PATTERN } from '../input/host-group-key';
import { Quantity } from '../base/quantity';
import { isExtendedResource, parseResources } from '../base/resources';

/** A Node condition, as far as the inventory reads it. */
export interface NodeCondition {
  /** `Ready`, `MemoryPressure`, ... */
  readonly type: string;
  /** `True`, `False` or `Unknown`. */
  readonly status: string;
}

/** The parts of a core/v1 Node the inventory reads. */
export interface NodeObject {
  /** The Node's name and labels. */
  readonly metadata: {
    /** The Node's name. */
    readonly name: string;
    /** Its labels. @default - none */
    readonly labels?: Readonly<Record<string, string>>;
  };
  /** Taints and cordon. @default - none */
  readonly spec?: {
    /** The Node's taints. @default - none */
    readonly taints?: readonly Taint[];
    /** Cordoned. @default false */
    readonly unschedulable?: boolean;
  };
  /** What the kubelet reports. @default - nothing reported */
  readonly status?: {
    /** What the machine has. @default - none */
    readonly capacity?: Readonly<Record<string, string>>;
    /** What pods may have. @default - none */
    readonly allocatable?: Readonly<Record<string, string>>;
    /** The Node's conditions. @default - none */
    readonly conditions?: readonly NodeCondition[];
  };
}

/** The parts of a metal3.io/v1alpha1 BareMetalHost the inventory reads. */
export interface BareMetalHostObject {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: {
    readonly consumerRef?: { readonly kind?: string; readonly name?: string; readonly namespace?: string };
  };
  readonly status?: {
    readonly errorMessage?: string;
    readonly errorType?: string;
    readonly provisioning?: { readonly state?: string };
    readonly hardware?: {
      readonly cpu?: { readonly count?: number };
      readonly ramMebibytes?: number;
      readonly storage?: readonly { readonly sizeBytes?: number }[];
    };
  };
}

/** The state written for a BareMetalHost the operator has not reported on yet: never handed out. */
export const UNKNOWN_HOST_STATE = 'unknown';

// Node resources that are not capacity a VM or a node type can be given.
const IGNORED_NODE_RESOURCES = /^(pods|hugepages-.*|attachable-volumes-.*)$/;

function sortedLabels(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(labels ?? {}).sort()) out[key] = labels![key];
  return out;
}

/**
 * A Node's labels as a host's: without the host group labels metalslice wrote from an earlier plan
 * (`group.metalslice.io/...`). They are the plan's output, not its input: read back, a fleet's hostSelector or a
 * node type's requirements could come to depend on the grouping they produced.
 */
function hostLabels(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const group = `${HOST_GROUP_LABEL_PREFIX}/`;
  return sortedLabels(Object.fromEntries(Object.entries(labels ?? {}).filter(([key]) => !key.startsWith(group))));
}

const HOST_GROUP_KEY = new RegExp(HOST_GROUP_KEY_PATTERN);

/**
 * The host groups a Node is in (`group.metalslice.io/...` keys at HOST_GROUP_LABEL_VALUE, as the last deploy wrote
 * them), sorted: HostSpec `hostGroups`, which the plan keeps where they still prove. A key at another value is no
 * group of metalslice's (the VMs select the value), and a key the config's schema would refuse is left out too:
 * an inventory must load.
 */
function hostGroupsOf(labels: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(labels ?? {})
    .filter(([key, value]) => value === HOST_GROUP_LABEL_VALUE && HOST_GROUP_KEY.test(key))
    .map(([key]) => key)
    .sort();
}

/** cpu, memory, disk first, then extended resources by name: the order every inventory is written in. */
function orderedCapacity(capacity: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['cpu', 'memory', 'disk']) if (capacity[key] !== undefined) out[key] = capacity[key];
  for (const key of Object.keys(capacity).filter(isExtendedResource).sort()) out[key] = capacity[key];
  return out;
}

/** Canonical quantity text (`1048576Ki` -> `1Gi`), so the file does not change when a kubelet rounds differently. */
function canonical(name: string, value: string): string {
  const parsed = parseResources({ [name]: value }, name)[name];
  return parsed.toString();
}

/** A Node's resource list as a host's: ephemeral-storage is the disk; pods, hugepages and unqualified names are left out. */
function hostResources(source: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (IGNORED_NODE_RESOURCES.test(key)) continue;
    const name = key === 'ephemeral-storage' ? 'disk' : key;
    // Extended resources must be qualified (`nvidia.com/gpu`); a bare unknown name is not a resource metalslice plans.
    if (isExtendedResource(name) && !name.includes('/')) continue;
    const text = canonical(name, value);
    if (isExtendedResource(name) && text === '0') continue;
    out[name] = text;
  }
  return orderedCapacity(out);
}

/** Whether a Node's Ready condition is True; a Node that never reported one is not ready. */
export function nodeIsReady(node: NodeObject): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * A Node as a host, as kube-scheduler sees it: what the machine has (`status.capacity`, else
 * `allocatable`), what the kubelet lets pods have (`status.allocatable`), taints, cordon and readiness.
 * The pod count a Node allows is kept with allocatable.
 */
export function hostFromNode(node: NodeObject): HostSpec {
  const capacity = hostResources(node.status?.capacity ?? node.status?.allocatable ?? {});
  const allocatableSource = node.status?.allocatable;
  const allocatable = allocatableSource ? hostResources(allocatableSource) : undefined;
  const pods = allocatableSource?.pods ?? node.status?.capacity?.pods;
  const taints = (node.spec?.taints ?? []).map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
  const hostGroups = hostGroupsOf(node.metadata.labels);
  return {
    name: node.metadata.name,
    labels: hostLabels(node.metadata.labels),
    ...(hostGroups.length > 0 ? { hostGroups } : {}),
    capacity: pods !== undefined ? { ...capacity, pods: canonical('pods', pods) } : capacity,
    ...(allocatable ? { allocatable: pods !== undefined ? { ...allocatable, pods: canonical('pods', pods) } : allocatable } : {}),
    ...(taints.length > 0 ? { taints } : {}),
    ...(node.spec?.unschedulable === true ? { unschedulable: true } : {}),
    ...(node.status?.conditions !== undefined && !nodeIsReady(node) ? { ready: false } : {}),
  };
}

function consumerOf(host: BareMetalHostObject): string | undefined {
  const ref = host.spec?.consumerRef;
  if (!ref?.name) return undefined;
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

/** A BareMetalHost as a host: inspected hardware (CPU count, RAM, total disk), provisioning state, consumer, error. */
export function hostFromBareMetalHost(host: BareMetalHostObject): HostSpec {
  const hardware = host.status?.hardware;
  const capacity: Record<string, string> = {};
  if (hardware?.cpu?.count !== undefined) capacity.cpu = String(hardware.cpu.count);
  if (hardware?.ramMebibytes !== undefined) capacity.memory = Quantity.fromBytes(BigInt(hardware.ramMebibytes) * 1024n * 1024n).toString();
  const disks = (hardware?.storage ?? []).map((d) => BigInt(d.sizeBytes ?? 0));
  if (disks.length > 0) capacity.disk = Quantity.fromBytes(disks.reduce((a, b) => a + b, 0n)).toString();
  const state = host.status?.provisioning?.state;
  const consumer = consumerOf(host);
  const errorMessage = host.status?.errorMessage;
  return {
    name: host.metadata.name,
    labels: sortedLabels(host.metadata.labels),
    capacity: orderedCapacity(capacity),
    // An empty or missing state means the operator has not registered the host yet: not usable.
    state: state === undefined || state === '' ? UNKNOWN_HOST_STATE : state,
    ...(consumer !== undefined ? { consumer } : {}),
    ...(errorMessage ? { errorMessage } : {}),
  };
}

/** A container's resources, as far as scheduling reads them. */
export interface ContainerResources {
  /** The container's name. @default - none */
  readonly name?: string;
  /** Its requests and limits. @default - none */
  readonly resources?: {
    /** What it requests. @default - none */
    readonly requests?: Readonly<Record<string, string>>;
    /** Its limits (a limit without a request is the request). @default - none */
    readonly limits?: Readonly<Record<string, string>>;
  };
  /** `Always` on an init container makes it a sidecar, which runs beside the containers. @default - a plain init container */
  readonly restartPolicy?: string;
}

/** The parts of a core/v1 Pod the inventory and the snapshot read: where it is bound, and what it requests. */
export interface PodObject {
  /** Name, namespace and labels. */
  readonly metadata: {
    /** The pod's name. */
    readonly name: string;
    /** Its namespace. @default "default" */
    readonly namespace?: string;
    /** Its labels. @default - none */
    readonly labels?: Readonly<Record<string, string>>;
  };
  /** Where it is bound, what it requests, and the fields other pods' scheduling reads. @default - none */
  readonly spec?: {
    /** The Node it is bound to. @default - not bound */
    readonly nodeName?: string;
    /** Its containers. @default - none */
    readonly containers?: readonly ContainerResources[];
    /** Its init containers and sidecars. @default - none */
    readonly initContainers?: readonly ContainerResources[];
    /** The runtime class's overhead. @default - none */
    readonly overhead?: Readonly<Record<string, string>>;
    /** Pod-level resources. @default - none */
    readonly resources?: {
      /** Pod-level requests. @default - none */
      readonly requests?: Readonly<Record<string, string>>;
    };
    /** Its tolerations. @default - none */
    readonly tolerations?: readonly Readonly<Record<string, unknown>>[];
    /** Its node selector. @default - none */
    readonly nodeSelector?: Readonly<Record<string, string>>;
    /** Its affinity (other pods' anti-affinity reads it). @default - none */
    readonly affinity?: Readonly<Record<string, unknown>>;
    /** Its topology spread constraints. @default - none */
    readonly topologySpreadConstraints?: readonly Readonly<Record<string, unknown>>[];
  };
  /** Its phase. @default - not reported */
  readonly status?: {
    /** `Pending`, `Running`, `Succeeded`, `Failed`. @default - not reported */
    readonly phase?: string;
  };
}

function addInto(total: Map<string, Quantity>, list: Readonly<Record<string, string>> | undefined): void {
  for (const [name, value] of Object.entries(list ?? {})) total.set(name, (total.get(name) ?? Quantity.ZERO).add(Quantity.parse(value)));
}

function maxInto(total: Map<string, Quantity>, other: ReadonlyMap<string, Quantity>): void {
  for (const [name, q] of other) if (!q.lte(total.get(name) ?? Quantity.ZERO)) total.set(name, q);
}

/** A container's requests, with the API server's defaulting: a limit without a request is the request. */
function containerRequests(c: ContainerResources): Record<string, string> {
  return { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) };
}

/**
 * What a pod requests as kube-scheduler counts it (k8s.io/component-helpers/resource PodRequests): the
 * containers and sidecars summed, at least the largest init container (with the sidecars started before
 * it), plus the pod overhead; pod-level cpu and memory requests win where set.
 */
export function podRequests(pod: PodObject): ReadonlyMap<string, Quantity> {
  const total = new Map<string, Quantity>();
  for (const c of pod.spec?.containers ?? []) addInto(total, containerRequests(c));
  const sidecars = new Map<string, Quantity>();
  const inits = new Map<string, Quantity>();
  for (const c of pod.spec?.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      addInto(total, containerRequests(c));
      addInto(sidecars, containerRequests(c));
      maxInto(inits, sidecars);
      continue;
    }
    const step = new Map(sidecars);
    addInto(step, containerRequests(c));
    maxInto(inits, step);
  }
  maxInto(total, inits);
  for (const name of ['cpu', 'memory']) {
    const podLevel = pod.spec?.resources?.requests?.[name];
    if (podLevel !== undefined) total.set(name, Quantity.parse(podLevel));
  }
  addInto(total, pod.spec?.overhead);
  return total;
}

/** A pod is counted until it is Succeeded or Failed, as kube-scheduler counts it. */
export function podIsTerminal(pod: PodObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** A launcher pod of a VM metalslice rendered: KubeVirt's launcher label and metalslice's pool label. */
function metalsliceVmOf(pod: PodObject): string | undefined {
  const labels = pod.metadata.labels ?? {};
  if (labels[KUBEVIRT_APP_LABEL] !== VIRT_LAUNCHER_APP || labels[POOL_LABEL] === undefined) return undefined;
  const vm = labels[VM_NAME_LABEL];
  return vm === undefined ? undefined : `${pod.metadata.namespace ?? 'default'}/${vm}`;
}

/** Requests summed as a host's resource list (ephemeral-storage as disk), zeros dropped. */
function requestsAsResources(totals: Iterable<ReadonlyMap<string, Quantity>>): Record<string, string> {
  const sum = new Map<string, Quantity>();
  for (const t of totals) for (const [name, q] of t) sum.set(name, (sum.get(name) ?? Quantity.ZERO).add(q));
  const plain: Record<string, string> = {};
  // Byte quantities in binary units (`4Gi`, not `4294967296`), as a kubelet writes them.
  for (const [name, q] of sum)
    if (!q.isZero()) plain[name] = (name === 'memory' || name === 'ephemeral-storage' ? Quantity.fromNano(q.nano, 'BinarySI') : q).toString();
  return hostResources(plain);
}

/** The pods bound to one host, as the inventory writes them. */
export function hostPodsOf(pods: readonly PodObject[]): HostPods | undefined {
  const live = pods.filter((p) => !podIsTerminal(p));
  if (live.length === 0) return undefined;
  const others: ReadonlyMap<string, Quantity>[] = [];
  const virtualMachines: RunningVm[] = [];
  for (const pod of live) {
    const vm = metalsliceVmOf(pod);
    if (vm !== undefined) virtualMachines.push({ name: vm, requests: requestsAsResources([podRequests(pod)]) });
    else others.push(podRequests(pod));
  }
  virtualMachines.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    count: others.length,
    requests: requestsAsResources(others),
    ...(live.some((p) => p.metadata.labels?.[KUBEVIRT_APP_LABEL] === VIRT_HANDLER_APP) ? { virtHandler: true } : {}),
    ...(virtualMachines.length > 0 ? { virtualMachines } : {}),
  };
}

/**
 * The inventory of a provider cluster. A BareMetalHost that is also a Node (a host provisioned into the
 * provider cluster itself) is one entry: the Node's capacity, allocatable, labels, taints and readiness
 * (what the kubelet sees), the host's state, consumer and error. Each Node's bound pods are summed into its
 * `pods`. Sorted by name, so the same cluster always gives the same file.
 */
export function buildInventory(nodes: readonly NodeObject[], bareMetalHosts: readonly BareMetalHostObject[], pods: readonly PodObject[] = []): InventoryFile {
  const byName = new Map<string, HostSpec>();
  for (const bmh of bareMetalHosts) byName.set(bmh.metadata.name, hostFromBareMetalHost(bmh));
  const podsOn = new Map<string, PodObject[]>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (node) podsOn.set(node, [...(podsOn.get(node) ?? []), pod]);
  }
  for (const node of nodes) {
    const bound = hostPodsOf(podsOn.get(node.metadata.name) ?? []);
    const fromNode = { ...hostFromNode(node), ...(bound ? { pods: bound } : {}) };
    const fromBmh = byName.get(fromNode.name);
    if (!fromBmh) {
      byName.set(fromNode.name, fromNode);
      continue;
    }
    const { state, consumer, errorMessage } = fromBmh;
    byName.set(fromNode.name, {
      ...fromNode,
      labels: sortedLabels({ ...fromBmh.labels, ...fromNode.labels }),
      ...(state !== undefined ? { state } : {}),
      ...(consumer !== undefined ? { consumer } : {}),
      ...(errorMessage !== undefined ? { errorMessage } : {}),
    });
  }
  const hosts = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { hosts };
}
