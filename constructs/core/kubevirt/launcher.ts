/**
 * What KubeVirt's virt-launcher pod requests for one VM, term by term, as KubeVirt renders it at the pinned
 * version. kube-scheduler places the pod and the ResourceQuota counts it, so these figures, not the guest's,
 * are what a VM costs its host and its quota.
 *
 * Each term names the upstream file it follows (paths in kubevirt.io/kubevirt at KUBEVIRT_VERSION). The
 * golden files in test/golden/kubevirt-launcher are produced by KubeVirt's own code (the oracle in
 * test/oracles/kubevirt-launcher) and the unit tests fail when a figure here differs from them.
 */
import { Quantity } from '../base/quantity';
import { addResources, ResourceVector, sumResources } from '../base/resources';

/** The KubeVirt release whose launcher rendering this file follows. Named here, and only here. */
export const KUBEVIRT_VERSION = 'v1.9.0';

const KI = 1024n;
const MI = 1024n * KI;
const GI = 1024n * MI;
const mebibytes = (n: bigint): Quantity => Quantity.fromBytes(n * MI);
/** KubeVirt writes some support-container sizes in decimal megabytes (`35M`, `40M`, `50M`). */
const megabytes = (n: bigint): Quantity => Quantity.fromNano(n * 1_000_000n * 1_000_000_000n, 'DecimalSI');

/** The cluster-wide settings of the KubeVirt CR that change a launcher pod. */
export interface KubevirtSettings {
  /** developerConfiguration.cpuAllocationRatio: vCPUs per requested physical CPU (an integer; KubeVirt's own default is 10). */
  readonly cpuAllocationRatio: number;
  /** developerConfiguration.memoryOvercommit: guest memory as a percentage of what the pod requests (100 = none). */
  readonly memoryOvercommit: number;
  /** The guest-console-log container (virtualMachineOptions.disableSerialConsoleLog unset = on). */
  readonly serialConsoleLog: boolean;
}

/** How a device is passed to the guest: as a GPU or as a host device. */
export type DeviceKind = 'gpu' | 'hostDevice';

/** A device plugin resource passed through to the guest. */
export interface VmDevice {
  /** The device plugin resource (`nvidia.com/gpu`). */
  readonly resourceName: string;
  /** GPU or host device. */
  readonly kind: DeviceKind;
  /** How many. */
  readonly count: number;
}

/** A VM as far as its launcher pod is concerned: the fields of spec.template.spec.domain that change the pod. */
export interface LauncherVm {
  /** domain.cpu.sockets */
  readonly sockets: number;
  /** domain.cpu.cores */
  readonly cores: number;
  /** domain.cpu.threads */
  readonly threads: number;
  /** domain.memory.guest */
  readonly guestMemory: Quantity;
  /** domain.cpu.dedicatedCpuPlacement */
  readonly dedicatedCpus: boolean;
  /** domain.cpu.isolateEmulatorThread (only with dedicated CPUs) */
  readonly isolateEmulatorThread: boolean;
  /** domain.memory.hugepages.pageSize */
  readonly hugepages?: '2Mi' | '1Gi';
  /** domain.ioThreadsPolicy supplementalPool with this many threads; undefined: the default (shared) policy. */
  readonly ioThreads?: number;
  /** domain.devices.logSerialConsole; undefined: the cluster's default. */
  readonly serialConsoleLog?: boolean;
  /** domain.devices.autoattachGraphicsDevice */
  readonly graphics: boolean;
  /** Devices passed through. */
  readonly devices: readonly VmDevice[];
  /** The root disk is a containerDisk (an extra container in the pod) rather than a DataVolume. */
  readonly containerDisk: boolean;
}

/** One container of the launcher pod, as the scheduler sums it. */
export interface LauncherContainer {
  /** The container's name (`compute`, `guest-console-log`, ...). */
  readonly name: string;
  /** `container`: runs beside the VM; `sidecar`: a restartable init container (counted like a container); `init`: runs before. */
  readonly kind: 'container' | 'sidecar' | 'init';
  /** What it requests. */
  readonly requests: ResourceVector;
}

/** The launcher pod of one VM. */
export interface LauncherPod {
  /** Its containers, as KubeVirt renders them. */
  readonly containers: readonly LauncherContainer[];
  /** KubeVirt's memory overhead (what the compute container adds to the guest). */
  readonly memoryOverhead: Quantity;
  /** The pod's effective requests, as kube-scheduler and ResourceQuota count them. */
  readonly requests: ResourceVector;
}

export function vcpusOf(vm: Pick<LauncherVm, 'sockets' | 'cores' | 'threads'>): number {
  return vm.sockets * vm.cores * vm.threads;
}

/** The memory the VMI requests: the guest's, less what memory overcommit lets the pod leave out. */
export function vmiMemoryRequest(vm: Pick<LauncherVm, 'guestMemory'>, settings: Pick<KubevirtSettings, 'memoryOvercommit'>): Quantity {
  // pkg/virt-controller/services/renderresources.go WithMemoryRequests: guest * 100 / memoryOvercommit, in bytes.
  if (settings.memoryOvercommit === 100) return vm.guestMemory;
  return Quantity.fromBytes((vm.guestMemory.ceilUnits() * 100n) / BigInt(settings.memoryOvercommit));
}

// --- Memory overhead: pkg/hypervisor/kvm/hypervisorbackend.go GetMemoryOverhead -------------------------

/** Page tables: one byte per 512 of requested memory, counted from the request rounded up to kilobytes. */
export function pageTableOverhead(memoryRequest: Quantity): Quantity {
  const kilo = (memoryRequest.ceilUnits() + 999n) / 1000n;
  return Quantity.fromBytes((kilo * 1000n) / 512n);
}

/** virt-launcher-monitor 25Mi, virt-launcher 100Mi, virtlogd 25Mi, virtqemud 40Mi, qemu 30Mi. */
export function processOverhead(): Quantity {
  return mebibytes(25n + 100n + 25n + 40n + 30n);
}

/** 8Mi of CPU tables per vCPU. */
export function vcpuTableOverhead(vcpus: number): Quantity {
  return mebibytes(8n * BigInt(Math.max(1, vcpus)));
}

/** 8Mi for the IO thread, counted for every VM whatever its IO thread policy. */
export function ioThreadOverhead(): Quantity {
  return mebibytes(8n);
}

/** 32Mi of video RAM unless autoattachGraphicsDevice is false. */
export function videoOverhead(graphics: boolean): Quantity {
  return graphics ? mebibytes(32n) : Quantity.ZERO;
}

/** 1Gi when a device is passed through with VFIO: guest RAM is locked, plus the MMIO window. */
export function vfioOverhead(devices: readonly VmDevice[]): Quantity {
  return devices.some((d) => d.count > 0) ? Quantity.fromBytes(GI) : Quantity.ZERO;
}

/** 100Mi for dedicated CPUs (or guaranteed QoS). */
export function dedicatedCpuOverhead(dedicatedCpus: boolean): Quantity {
  return dedicatedCpus ? mebibytes(100n) : Quantity.ZERO;
}

export function memoryOverhead(vm: LauncherVm, settings: KubevirtSettings): Quantity {
  return [
    pageTableOverhead(vmiMemoryRequest(vm, settings)),
    processOverhead(),
    vcpuTableOverhead(vcpusOf(vm)),
    ioThreadOverhead(),
    videoOverhead(vm.graphics),
    vfioOverhead(vm.devices),
    dedicatedCpuOverhead(vm.dedicatedCpus),
  ].reduce((a, b) => a.add(b), Quantity.fromBytes(0));
}

// --- The compute container: pkg/virt-controller/services/renderresources.go --------------------------

/**
 * CPU: dedicated CPUs are whole cores (vCPUs + supplemental IO threads + the emulator thread when isolated),
 * never divided by the allocation ratio (WithCPUPinning); shared CPUs are (vCPUs + IO threads) / ratio
 * (WithoutDedicatedCPU), which metalslice writes into the VMI's requests so the plan does not depend on it.
 */
export function computeCpu(vm: LauncherVm, settings: KubevirtSettings): Quantity {
  const threads = BigInt(vcpusOf(vm) + (vm.ioThreads ?? 0));
  if (vm.dedicatedCpus) return Quantity.fromUnits(threads + (vm.isolateEmulatorThread ? 1n : 0n));
  return sharedCpuRequest(threads, settings.cpuAllocationRatio);
}

/** (vCPUs + IO threads) / ratio, rounded up to a millicore (what a quantity of `%g` cores parses to). */
export function sharedCpuRequest(threads: bigint, ratio: number): Quantity {
  const r = BigInt(ratio);
  return Quantity.fromMillis((threads * 1000n + r - 1n) / r);
}

/**
 * Memory: the VMI's request plus the overhead (WithMemoryOverhead). With hugepages (WithHugePages) the
 * pages hold the smaller of the request and the guest, and the container's memory is the overhead plus
 * whatever of the request the pages do not hold (a request above the guest: memoryOvercommit under 100).
 */
export function computeMemory(vm: LauncherVm, settings: KubevirtSettings, overhead: Quantity): Quantity {
  const request = vmiMemoryRequest(vm, settings);
  if (vm.hugepages === undefined) return request.add(overhead);
  return request.sub(hugepagesRequest(vm, settings)).add(overhead);
}

/** What a hugepages VM requests as `hugepages-<size>`: the smaller of its memory request and its guest (WithHugePages). */
export function hugepagesRequest(vm: LauncherVm, settings: KubevirtSettings): Quantity {
  const request = vmiMemoryRequest(vm, settings);
  return request.cmp(vm.guestMemory) < 0 ? request : vm.guestMemory;
}

/** 50M of ephemeral storage for the launcher's own files (WithEphemeralStorageRequest). */
export function computeEphemeralStorage(): Quantity {
  return megabytes(50n);
}

// --- Support containers -------------------------------------------------------------------------------

/**
 * guest-console-log, a native sidecar that tails the serial console (serialconsolelog.go): 5m / 35M, or
 * its limits 15m / 60M as requests when CPUs are dedicated.
 */
export function serialConsoleLogContainer(vm: LauncherVm, settings: KubevirtSettings): LauncherContainer | undefined {
  if (!(vm.serialConsoleLog ?? settings.serialConsoleLog)) return undefined;
  const requests = vm.dedicatedCpus ? { cpu: Quantity.fromMillis(15), memory: megabytes(60n) } : { cpu: Quantity.fromMillis(5), memory: megabytes(35n) };
  return { name: 'guest-console-log', kind: 'sidecar', requests };
}

/**
 * A containerDisk root disk: KubeVirt copies its helper binary with an init container (template.go,
 * initContainerResourceRequirementsForVMI: 10m / 1M, or 10m / 40M with dedicated CPUs). Init containers run
 * before the VM, so they never raise the pod's requests; the goldens confirm the pod costs what a
 * DataVolume VM's does.
 */
export function containerDiskContainers(vm: LauncherVm): LauncherContainer[] {
  if (!vm.containerDisk) return [];
  return [
    { name: 'container-disk-binary', kind: 'init', requests: { cpu: Quantity.fromMillis(10), memory: vm.dedicatedCpus ? megabytes(40n) : megabytes(1n) } },
  ];
}

/** Each passed-through device is one unit of its device plugin resource (WithGPUsDevicePlugins, WithHostDevicesDevicePlugins). */
export function deviceRequests(vm: LauncherVm): Record<string, Quantity> {
  const out: Record<string, Quantity> = {};
  for (const d of vm.devices) out[d.resourceName] = (out[d.resourceName] ?? Quantity.ZERO).add(Quantity.fromUnits(d.count));
  return out;
}

export function computeContainer(vm: LauncherVm, settings: KubevirtSettings, overhead: Quantity): LauncherContainer {
  const requests: Record<string, Quantity> = {
    cpu: computeCpu(vm, settings),
    memory: computeMemory(vm, settings, overhead),
    'ephemeral-storage': computeEphemeralStorage(),
    ...deviceRequests(vm),
  };
  if (vm.hugepages !== undefined) requests[`hugepages-${vm.hugepages}`] = hugepagesRequest(vm, settings);
  return { name: 'compute', kind: 'container', requests };
}

// --- The pod -------------------------------------------------------------------------------------------

/**
 * The pod's effective requests as kube-scheduler computes them (k8s.io/component-helpers/resource
 * PodRequests): containers and sidecars add up; an init container counts only if it, with the sidecars
 * started before it, asks for more.
 */
export function podRequests(containers: readonly LauncherContainer[]): ResourceVector {
  const total: Record<string, Quantity> = { ...sumResources(containers.filter((c) => c.kind !== 'init').map((c) => c.requests)) };
  let sidecarsSoFar: ResourceVector = {};
  for (const c of containers) {
    if (c.kind === 'sidecar') sidecarsSoFar = addResources(sidecarsSoFar, c.requests);
    if (c.kind !== 'init') continue;
    const during = addResources(sidecarsSoFar, c.requests);
    for (const [k, v] of Object.entries(during)) if (!total[k] || total[k].cmp(v) < 0) total[k] = v;
  }
  return total;
}

/** The launcher pod KubeVirt renders for the VM, with its effective requests. */
export function launcherPod(vm: LauncherVm, settings: KubevirtSettings): LauncherPod {
  const overhead = memoryOverhead(vm, settings);
  const diskContainers = containerDiskContainers(vm);
  const sidecar = serialConsoleLogContainer(vm, settings);
  // Order as KubeVirt writes them: init containers (the sidecar first), then the compute container.
  const containers: LauncherContainer[] = [
    ...(sidecar ? [sidecar] : []),
    ...diskContainers.filter((c) => c.kind === 'init'),
    computeContainer(vm, settings, overhead),
    ...diskContainers.filter((c) => c.kind !== 'init'),
  ];
  return { containers, memoryOverhead: overhead, requests: podRequests(containers) };
}

// --- where the launcher pod may run -------------------------------------------------------------------

/** Node labels virt-handler sets on a host that can run VMs, and that launcher pods select. */
export const SCHEDULABLE_NODE_LABEL = 'kubevirt.io/schedulable';
/** virt-handler's node labeller: a host that supports the q35 machine type (the amd64 default). */
export const Q35_MACHINE_TYPE_LABEL = 'machine-type.node.kubevirt.io/q35';
/** virt-handler: a host whose kubelet runs the static CPU manager (needed by dedicated CPUs). */
export const CPU_MANAGER_LABEL = 'kubevirt.io/cpumanager';
/** The node labeller marks hosts whose host-model CPU is obsolete; host-model VMs must avoid them. */
export const OBSOLETE_HOST_MODEL_LABEL = 'node-labeller.kubevirt.io/obsolete-host-model';

/** The labels virt-handler would set on a host, for a VM metalslice renders (amd64, q35, CPU manager). */
export function kubevirtNodeLabels(): Record<string, string> {
  return { [SCHEDULABLE_NODE_LABEL]: 'true', 'kubernetes.io/arch': 'amd64', [Q35_MACHINE_TYPE_LABEL]: 'true', [CPU_MANAGER_LABEL]: 'true' };
}

/** A node selector term of a required node affinity (Kubernetes NodeSelectorTerm). */
export interface NodeSelectorTerm {
  /** Expressions over node labels, all of which must hold. @default - none */
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
  /** Expressions over node fields. @default - none */
  readonly matchFields?: readonly unknown[];
}

/** A pod or VMI affinity, as far as the launcher's scheduling changes it. */
export interface SchedulingAffinity {
  /** Node affinity: required terms, and anything else copied as it is. */
  readonly nodeAffinity?: {
    /** The terms one of which a node must match. */
    readonly requiredDuringSchedulingIgnoredDuringExecution?: { readonly nodeSelectorTerms?: readonly NodeSelectorTerm[] };
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

/** The fields of a VMI spec that decide its launcher pod's scheduling. */
export interface VmiSchedulingFields {
  /** The VMI's node selector. @default - none */
  readonly nodeSelector?: Readonly<Record<string, string>>;
  /** The domain, for dedicated CPU placement. */
  readonly domain?: { readonly cpu?: { readonly dedicatedCpuPlacement?: boolean } };
  /** The VMI's affinity. @default - none */
  readonly affinity?: SchedulingAffinity;
  /** The VMI's tolerations, copied. @default - none */
  readonly tolerations?: readonly Readonly<Record<string, unknown>>[];
  /** The VMI's topology spread constraints, copied. @default - none */
  readonly topologySpreadConstraints?: readonly Readonly<Record<string, unknown>>[];
}

/** The scheduling fields of a launcher pod. */
export interface LauncherScheduling {
  /** KubeVirt's node selector over the VMI's. */
  readonly nodeSelector: Record<string, string>;
  /** The VMI's affinity with KubeVirt's host-model rule in every required term. */
  readonly affinity?: SchedulingAffinity;
  /** The VMI's tolerations. @default - none */
  readonly tolerations?: readonly Readonly<Record<string, unknown>>[];
  /** The VMI's topology spread constraints. @default - none */
  readonly topologySpreadConstraints?: readonly Readonly<Record<string, unknown>>[];
}

/**
 * What virt-controller puts in a launcher pod's scheduling fields for a VMI spec metalslice renders
 * (pkg/virt-controller/services/nodeselectorrenderer.go and template.go at KUBEVIRT_VERSION): the VMI's
 * nodeSelector over KubeVirt's own (schedulable, architecture amd64, machine type q35, cpumanager for
 * dedicated CPUs); the VMI's affinity with "not on an obsolete host-model host" added to every required
 * node-affinity term (metalslice never sets a CPU model, so the VM is host-model); tolerations and topology
 * spread copied. The unit tests hold this to the pods KubeVirt's own code renders for the golden cases.
 */
export function launcherScheduling(vmiSpec: VmiSchedulingFields): LauncherScheduling {
  const nodeSelector: Record<string, string> = { [SCHEDULABLE_NODE_LABEL]: 'true', 'kubernetes.io/arch': 'amd64' };
  Object.assign(nodeSelector, vmiSpec.nodeSelector ?? {});
  if (vmiSpec.domain?.cpu?.dedicatedCpuPlacement) nodeSelector[CPU_MANAGER_LABEL] = 'true';
  nodeSelector[Q35_MACHINE_TYPE_LABEL] = 'true';
  const reject = { key: OBSOLETE_HOST_MODEL_LABEL, operator: 'DoesNotExist' };
  const given: SchedulingAffinity = vmiSpec.affinity ?? {};
  const required = given.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const nodeAffinity = required
    ? {
        ...given.nodeAffinity,
        requiredDuringSchedulingIgnoredDuringExecution: {
          ...required,
          nodeSelectorTerms: (required.nodeSelectorTerms ?? []).map((t) => ({ ...t, matchExpressions: [...(t.matchExpressions ?? []), reject] })),
        },
      }
    : { ...(given.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [reject] }] } };
  const affinity: SchedulingAffinity = structuredClone({ ...given, nodeAffinity });
  return {
    nodeSelector,
    affinity,
    ...(vmiSpec.tolerations ? { tolerations: vmiSpec.tolerations } : {}),
    ...(vmiSpec.topologySpreadConstraints ? { topologySpreadConstraints: vmiSpec.topologySpreadConstraints } : {}),
  };
}
