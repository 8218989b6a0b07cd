/**
 * The replay of a plan on a real control plane, as plain objects: one Node per fleet host (what the host's
 * kubelet and virt-handler would report) and one launcher Pod per concrete VM (what virt-controller would
 * create for the VirtualMachine metalslice deploys), and the order in which the pods are created. Pure: no
 * I/O; `verify.ts` sends these objects to kube-apiserver and lets the real kube-scheduler place them.
 */
import { Plan, PlannedHost } from '../core/plan';
import { ContainerResources, NodeObject, nodeIsReady, PodObject } from '../core/hosts/inventory';
import { KUBEVIRT_APP_LABEL, VIRT_HANDLER_APP } from '../core/kubevirt/handler';
import { Taint } from '../core/input/model';
import { Quantity } from '../core/base/quantity';
import { ClusterSnapshot } from '../core/hosts/snapshot';
import { addResources, get, isExtendedResource, normalizeResources, resourceNames, ResourceVector, subtractResources } from '../core/base/resources';
import { PlannedVm } from '../core/vm/vm';
import { KWOK_NODE_LABEL, PLANNED_HOST_ANNOTATION, REPLAY_NODE_LABEL, vmUserDataSecretName } from '../core/naming/derived';

export { KWOK_NODE_LABEL, REPLAY_NODE_LABEL };
import { renderVirtualMachine } from '../render/kubevirt';
import { kubevirtNodeLabels, launcherScheduling, LauncherScheduling, SCHEDULABLE_NODE_LABEL, VmiSchedulingFields } from '../core/kubevirt/launcher';
import { KubeObject, KubeObjectMeta } from '../render/labels';
import { hostGroupMembers, withHostGroupLabels } from '../render/host-groups';

/** The value of KWOK_NODE_LABEL (core/naming/derived.ts) on the replayed Nodes KWOK manages, and its selector. */
export const KWOK_NODE_LABEL_VALUE = 'kwok';
export const KWOK_NODE_SELECTOR = `${KWOK_NODE_LABEL}=${KWOK_NODE_LABEL_VALUE}`;

/** The devices virt-handler's device plugins advertise on every KubeVirt node, and how many of each. */
export const KUBEVIRT_DEVICES = ['devices.kubevirt.io/kvm', 'devices.kubevirt.io/tun', 'devices.kubevirt.io/vhost-net'] as const;
export const KUBEVIRT_DEVICES_PER_NODE = 1000;

/** Ephemeral storage of a Node whose host does not report any: the planner does not count it then, so neither does the replay. */
export const UNREPORTED_EPHEMERAL_STORAGE = '1Pi';

/** The order launcher pods are created in: as deployed (pools as listed, VMs by index), or a seeded shuffle. */
export type ReplayOrder = 'deploy' | 'shuffled';

export interface ReplayPod {
  /** The VM the pod launches. */
  readonly vm: string;
  readonly pool: string;
  readonly poolPath: string;
  readonly fleet: string;
  readonly namespace: string;
  /** The host the planner chose (where the VM is pinned when its placement is `planned`). */
  readonly plannedHost?: string;
  readonly placement: 'spread' | 'planned';
  /** The VM's index within its pool. */
  readonly index: number;
  /** The Pod object to create. */
  readonly object: LauncherPodObject;
}

/** A Node as the replay creates it: a KWOK node mirroring one host, or, for a NotReady host, a Node no kubelet keeps alive. */
export interface ReplayNodeObject extends KubeObject {
  readonly kind: 'Node';
  readonly metadata: KubeObjectMeta & { readonly name: string; readonly labels: Record<string, string> };
  /** Taints and cordon, as the kubelet and the node lifecycle controller show them. */
  readonly spec: { readonly taints?: readonly Taint[]; readonly unschedulable?: boolean };
  readonly status: {
    readonly capacity: Record<string, string>;
    readonly allocatable: Record<string, string>;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
  };
}

/** A pod already bound to a Node before the launcher pods come: virt-handler, what already runs there. */
export interface BoundPodObject extends KubeObject {
  readonly kind: 'Pod';
  readonly metadata: KubeObjectMeta & { readonly name: string; readonly namespace: string };
  readonly spec: { readonly nodeName: string; readonly containers: readonly Record<string, unknown>[]; readonly [field: string]: unknown };
}

/** A launcher pod as the replay creates it. */
export interface LauncherPodObject extends KubeObject {
  readonly kind: 'Pod';
  readonly metadata: KubeObjectMeta & { readonly name: string; readonly namespace: string; readonly labels: Record<string, string> };
  readonly spec: LauncherScheduling & {
    readonly schedulerName: string;
    readonly terminationGracePeriodSeconds: number;
    readonly containers: readonly {
      readonly name: string;
      readonly image: string;
      readonly resources: { readonly requests: Record<string, string>; readonly limits: Record<string, string> };
    }[];
    readonly [field: string]: unknown;
  };
}

/** The parts of a rendered VirtualMachine the replay reads. */
interface RenderedVmTemplate {
  readonly spec: {
    readonly template: {
      readonly metadata?: { readonly labels?: Record<string, string> };
      readonly spec: VmiSchedulingFields & { readonly terminationGracePeriodSeconds?: number };
    };
  };
}

export interface Replay {
  readonly nodes: readonly ReplayNodeObject[];
  /** Pods bound before the launcher pods: virt-handler and the pods already running on each host. */
  readonly boundPods: readonly BoundPodObject[];
  readonly namespaces: readonly string[];
  /** Pods in plan order: pools as the plan lists its VMs, VMs by index within a pool. */
  readonly pods: readonly ReplayPod[];
}

/**
 * Resource names a Node or Pod may carry: every name the planner accounts (STANDARD_RESOURCES and extended
 * ones) except `disk`, the VM's root-disk PVC, which is storage, not a node resource.
 */
function isKubernetesResource(name: string): boolean {
  return name !== 'disk';
}

function isHugepages(name: string): boolean {
  return name.startsWith('hugepages-');
}

function quantities(v: ResourceVector, keep: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of resourceNames(v)) if (keep(name) && !v[name].isZero()) out[name] = v[name].toString();
  return out;
}

/** Resource names as a Node lists them: the planner's `disk` (VM root disks, PVCs) is storage, not a Node resource. */
function asNodeResources(v: ResourceVector): Record<string, string> {
  return quantities(v, isKubernetesResource);
}

/** KubeVirt's devices on a Node's resource list, and ephemeral storage where the host reports none. */
function withKubevirtDevices(resources: Record<string, string>): Record<string, string> {
  const out = { ...resources };
  if (out['ephemeral-storage'] === undefined) out['ephemeral-storage'] = UNREPORTED_EPHEMERAL_STORAGE;
  for (const d of KUBEVIRT_DEVICES) out[d] ??= String(KUBEVIRT_DEVICES_PER_NODE);
  return out;
}

/**
 * A Node's allocatable in the replay: the kubelet's allocatable less the fleet's reservedPerHost (a
 * provider's policy no Node shows), with one pod slot fewer for each pod already there beyond the one pod
 * that stands for them all.
 */
export function nodeResources(host: PlannedHost): Record<string, string> {
  const extraPods = Math.max(0, Number(get(host.taken.existing, 'pods').ceilUnits()) - 1);
  const allocatable = normalizeResources(subtractResources(host.nodeAllocatable, addResources(host.taken.reserved, { pods: Quantity.fromUnits(extraPods) })));
  return withKubevirtDevices(asNodeResources(allocatable));
}

/** The labels of a replayed Node: KWOK keeps it Ready unless the host is NotReady, when no kubelet answers for it. */
function replayLabels(ready: boolean): Record<string, string> {
  return { [REPLAY_NODE_LABEL]: 'true', ...(ready ? { [KWOK_NODE_LABEL]: KWOK_NODE_LABEL_VALUE } : {}) };
}

/** One Node per host, labelled as the host is plus hostname, the labels virt-handler sets (schedulable, amd64, q35, cpumanager), with its taints, cordon and readiness. */
export function buildNode(host: PlannedHost): ReplayNodeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: host.name,
      labels: {
        ...('type' in host.labels ? {} : { type: 'kwok' }),
        ...host.labels,
        'kubernetes.io/hostname': host.name,
        'kubernetes.io/os': host.labels['kubernetes.io/os'] ?? 'linux',
        ...kubevirtNodeLabels(),
        ...(host.labels[SCHEDULABLE_NODE_LABEL] === 'false' ? { [SCHEDULABLE_NODE_LABEL]: 'false' } : {}),
        ...replayLabels(host.ready),
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { ...(host.taints.length > 0 ? { taints: host.taints } : {}), ...(host.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: withKubevirtDevices(asNodeResources(host.capacity)),
      allocatable: nodeResources(host),
      ...(host.ready ? {} : { conditions: [{ type: 'Ready', status: 'False' }] }),
    },
  };
}

/** A replayed Node with the plan's host group labels on it, as the deploy writes them (render/host-groups.ts). */
function labelled(node: ReplayNodeObject, groups: ReadonlyMap<string, ReadonlySet<string>>): ReplayNodeObject {
  if (groups.size === 0) return node;
  return { ...node, metadata: { ...node.metadata, labels: withHostGroupLabels(node.metadata.name, node.metadata.labels, groups) } };
}

/** The namespace of the pods that stand for what already runs on a host. */
export const EXISTING_PODS_NAMESPACE = 'metalslice-replay';

function boundPod(name: string, namespace: string, node: string, labels: Record<string, string>, requests: Record<string, string>): BoundPodObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: {
      nodeName: node,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      containers: [{ name: 'c', image: 'registry.k8s.io/pause:replay', resources: { requests } }],
    },
  };
}

/** virt-handler on each host that needs one, and one pod holding what already runs there. */
export function hostBoundPods(host: PlannedHost, kubevirtNamespace: string): BoundPodObject[] {
  const out: BoundPodObject[] = [];
  const noPods = (v: ResourceVector): Record<string, string> => {
    const r = asNodeResources(v);
    delete r.pods;
    return r;
  };
  if (Object.keys(host.taken.virtHandler).length > 0)
    out.push(boundPod(`virt-handler-${host.name}`, kubevirtNamespace, host.name, { [KUBEVIRT_APP_LABEL]: VIRT_HANDLER_APP }, noPods(host.taken.virtHandler)));
  if (!get(host.taken.existing, 'pods').isZero())
    out.push(boundPod(`existing-${host.name}`, EXISTING_PODS_NAMESPACE, host.name, {}, noPods(host.taken.existing)));
  return out;
}

// KubeVirt names launcher pods `virt-launcher-<vmi>-<5 random characters>` from the apiserver's
// generateName alphabet; the replay derives the suffix from the VM's namespace and name instead.
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** `virt-launcher-<vm>-xxxxx`, the same for the same namespace and VM every time. */
export function launcherPodName(namespace: string, vm: string): string {
  let h = fnv1a(`${namespace}/${vm}`);
  let suffix = '';
  for (let i = 0; i < 5; i++) {
    suffix += SUFFIX_ALPHABET[h % SUFFIX_ALPHABET.length];
    h = (Math.floor(h / SUFFIX_ALPHABET.length) ^ fnv1a(`${suffix}${i}`)) >>> 0;
  }
  return `virt-launcher-${vm}-${suffix}`;
}

/**
 * The launcher pod of a VM: the scheduling fields of the VirtualMachine metalslice renders for it (KubeVirt
 * copies nodeSelector, affinity, tolerations and topologySpreadConstraints from the VMI), the labels
 * virt-controller sets, and one container requesting the pod's effective requests as KubeVirt renders them,
 * with KubeVirt's device limits (kvm, tun, vhost-net) and, as Kubernetes requires, limits equal to requests
 * for extended resources and hugepages.
 */
export function buildLauncherPod(vm: PlannedVm, hostSelector: Readonly<Record<string, string>> | undefined): LauncherPodObject {
  const rendered = renderVirtualMachine(vm, { userDataSecret: vmUserDataSecretName(vm.name), hostSelector }) as unknown as RenderedVmTemplate;
  const template = rendered.spec.template;
  const spec = template.spec;
  const scheduling = launcherScheduling(spec);
  const requests = quantities(vm.launcher.requests, isKubernetesResource);
  const limits: Record<string, string> = {};
  for (const [name, q] of Object.entries(requests)) if (isHugepages(name) || isExtendedResource(name)) limits[name] = q;
  for (const d of KUBEVIRT_DEVICES) limits[d] = '1';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: launcherPodName(vm.namespace, vm.name),
      namespace: vm.namespace,
      labels: {
        ...(template.metadata?.labels ?? {}),
        'kubevirt.io': 'virt-launcher',
        'vm.kubevirt.io/name': vm.name,
      },
      annotations: { 'kubevirt.io/domain': vm.name, [PLANNED_HOST_ANNOTATION]: vm.host ?? '' },
    },
    spec: {
      schedulerName: 'default-scheduler',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 30,
      ...scheduling,
      containers: [
        {
          name: 'compute',
          image: 'quay.io/kubevirt/virt-launcher:replay',
          resources: { requests, limits },
        },
      ],
    },
  };
}

function launcherPods(plan: Pick<Plan, 'fleets' | 'vms'>, extraVms: readonly PlannedVm[]): ReplayPod[] {
  const selectorOf = new Map(plan.fleets.map((f) => [f.name, f.spec.hostSelector]));
  const vms = [...plan.vms, ...extraVms].filter((vm) => vm.concrete);
  return vms.map((vm): ReplayPod => ({
    vm: vm.name,
    pool: vm.pool,
    poolPath: vm.poolPath,
    fleet: vm.fleet,
    namespace: vm.namespace,
    ...(vm.host !== undefined ? { plannedHost: vm.host } : {}),
    placement: vm.placement,
    index: vm.index,
    object: buildLauncherPod(vm, selectorOf.get(vm.fleet)),
  }));
}

function namespacesOf(pods: readonly { readonly metadata: { readonly namespace?: string } }[]): string[] {
  return [...new Set(pods.map((p) => p.metadata.namespace ?? 'default'))];
}

/** The Nodes, bound pods, namespaces and launcher Pods of a plan, on the plan's own host model: concrete VMs only. */
export function buildReplay(plan: Pick<Plan, 'fleets' | 'vms'>, extraVms: readonly PlannedVm[] = []): Replay {
  const seen = new Set<string>();
  const groups = hostGroupMembers(plan.vms);
  const nodes: ReplayNodeObject[] = [];
  const boundPods: BoundPodObject[] = [];
  for (const fleet of plan.fleets) {
    for (const host of [...fleet.hosts, ...fleet.excludedHosts.map((e) => e.host)]) {
      if (seen.has(host.name)) continue;
      seen.add(host.name);
      nodes.push(labelled(buildNode(host), groups));
      boundPods.push(...hostBoundPods(host, fleet.spec.namespace ?? 'kubevirt'));
    }
  }
  const pods = launcherPods(plan, extraVms);
  return { nodes, boundPods, namespaces: namespacesOf([...boundPods, ...pods.map((p) => p.object)]), pods };
}

/** A snapshot Node as the replay creates it: the live Node's labels, taints, cordon, resources and readiness. */
export function nodeFromSnapshot(node: NodeObject): ReplayNodeObject {
  const labels = { ...(node.metadata.labels ?? {}) };
  // A host virt-handler has not labelled yet is taken to be one it will label when KubeVirt runs there.
  const kubevirt = labels[SCHEDULABLE_NODE_LABEL] === undefined ? kubevirtNodeLabels() : {};
  const ready = nodeIsReady(node);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: node.metadata.name,
      labels: { ...kubevirt, ...labels, ...replayLabels(ready) },
      annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
    },
    spec: { ...(node.spec?.taints?.length ? { taints: node.spec.taints } : {}), ...(node.spec?.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: withKubevirtDevices({ ...(node.status?.capacity ?? node.status?.allocatable ?? {}) }),
      allocatable: withKubevirtDevices({ ...(node.status?.allocatable ?? node.status?.capacity ?? {}) }),
      ...(ready ? {} : { conditions: (node.status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status })) }),
    },
  };
}

/** A snapshot pod, bound where it runs, with what it requests and the scheduling fields other pods read. */
export function podFromSnapshot(pod: PodObject): BoundPodObject {
  const spec = pod.spec ?? {};
  const container = (c: ContainerResources, i: number): Record<string, unknown> => ({
    name: c.name ?? `c${i}`,
    image: 'registry.k8s.io/pause:replay',
    resources: { ...(c.resources?.requests ? { requests: c.resources.requests } : {}), ...(c.resources?.limits ? { limits: c.resources.limits } : {}) },
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default', labels: { ...(pod.metadata.labels ?? {}) } },
    spec: {
      nodeName: spec.nodeName ?? '',
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      containers: (spec.containers ?? []).map(container),
      ...(spec.initContainers?.length ? { initContainers: spec.initContainers.map(container) } : {}),
      ...(spec.overhead ? { overhead: spec.overhead } : {}),
      ...(spec.tolerations ? { tolerations: spec.tolerations } : {}),
      ...(spec.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
      ...(spec.affinity ? { affinity: spec.affinity } : {}),
      ...(spec.topologySpreadConstraints ? { topologySpreadConstraints: spec.topologySpreadConstraints } : {}),
    },
  };
}

/** The replay of a plan on a snapshot of the live cluster: its Nodes and pods as they are, then the plan's launcher pods. */
export function buildSnapshotReplay(plan: Pick<Plan, 'fleets' | 'vms'>, snapshot: ClusterSnapshot, extraVms: readonly PlannedVm[] = []): Replay {
  const groups = hostGroupMembers(plan.vms);
  const nodes = snapshot.nodes.map((node) => labelled(nodeFromSnapshot(node), groups));
  const boundPods = snapshot.pods.map(podFromSnapshot);
  const pods = launcherPods(plan, extraVms);
  return { nodes, boundPods, namespaces: namespacesOf([...boundPods, ...pods.map((p) => p.object)]), pods };
}

/** mulberry32: a small, well-spread 32-bit PRNG; the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with a seeded generator: a permutation of a copy of `items`, the same for the same seed. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The creation order. `deploy`: pools in the order the plan lists them, each pool's VMs by index (what a
 * Terraform apply of the plan approximates). `shuffled`: a seeded Fisher–Yates shuffle of that order.
 */
export function creationOrder(pods: readonly ReplayPod[], order: ReplayOrder, seed = 1): ReplayPod[] {
  const poolRank = new Map<string, number>();
  for (const p of pods) if (!poolRank.has(p.poolPath)) poolRank.set(p.poolPath, poolRank.size);
  const position = new Map(pods.map((p, i) => [p, i]));
  const deploy = [...pods].sort((a, b) => poolRank.get(a.poolPath)! - poolRank.get(b.poolPath)! || a.index - b.index || position.get(a)! - position.get(b)!);
  return order === 'deploy' ? deploy : seededShuffle(deploy, seed);
}
