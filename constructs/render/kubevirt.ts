/**
 * KubeVirt objects: the KubeVirt CR of a fleet, and one VirtualMachine per planned VM. Both read the plan's
 * VM list: the CR turns on what the fleet's VMs need, and each VM is written from its one PlannedVm value.
 */
import { PlannedFleet } from '../core/plan';
import { get } from '../core/resources';
import { PlannedVm } from '../core/vms';
import { CLUSTER_LABEL, KubeObject, MANAGED_BY, NODE_TYPE_LABEL, POOL_LABEL, QUOTA_LABEL, VM_NAME_LABEL } from './labels';

export const DEFAULT_IMAGE = 'quay.io/containerdisks/ubuntu:24.04';

/** The API version of KubeVirt's VirtualMachine and KubeVirt objects metalslice writes. */
export const KUBEVIRT_API_VERSION = 'kubevirt.io/v1';

/** KubeVirt's feature gate for passing host devices (and device-plugin GPUs) through. */
const HOST_DEVICES_GATE = 'HostDevices';

/**
 * The KubeVirt CR: its configuration and where virt-handler runs (the fleet's hosts). The feature gate and
 * permitted devices are turned on exactly when the fleet's VMs pass devices through.
 */
export function renderKubeVirt(fleet: PlannedFleet, vms: readonly PlannedVm[] = []): KubeObject {
  const { settings, permittedHostDevices } = fleet.kubevirt;
  const selector = fleet.spec.hostSelector;
  const usesDevices = vms.some((vm) => vm.fleet === fleet.name && vm.guest.devices.length > 0);
  const configuration: Record<string, unknown> = {
    developerConfiguration: {
      // KubeVirt divides vCPUs by this ratio for VMs that do not state a CPU request; metalslice states it.
      cpuAllocationRatio: settings.cpuAllocationRatio,
      featureGates: usesDevices ? [HOST_DEVICES_GATE] : [],
      ...(settings.memoryOvercommit !== 100 ? { memoryOvercommit: settings.memoryOvercommit } : {}),
    },
    vmRolloutStrategy: 'Stage',
  };
  if (!settings.serialConsoleLog) configuration.virtualMachineOptions = { disableSerialConsoleLog: {} };
  // Always written, even empty: KubeVirt checks a VM's devices against this list only when it is set, and the
  // plan refuses exactly what is not on it.
  configuration.permittedHostDevices = {
    pciHostDevices: permittedHostDevices.map((d) => ({
      pciVendorSelector: d.pciVendorSelector,
      resourceName: d.resourceName,
      externalResourceProvider: d.externalResourceProvider ?? true,
    })),
  };
  return {
    apiVersion: KUBEVIRT_API_VERSION,
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: fleet.spec.namespace ?? 'kubevirt', labels: { ...MANAGED_BY, 'metalslice.io/fleet': fleet.name } },
    spec: {
      certificateRotateStrategy: {},
      configuration,
      customizeComponents: {},
      imagePullPolicy: 'IfNotPresent',
      workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate'] },
      ...(selector && Object.keys(selector).length > 0 ? { workloads: { nodePlacement: { nodeSelector: { ...selector } } } } : {}),
    },
  };
}

export interface VirtualMachineOptions {
  /** Name of the Secret holding the node's cloud-init user data (key `userdata`). */
  readonly userDataSecret: string;
  /** Fleet host selector, repeated on the VM so it only lands on fleet hosts. */
  readonly hostSelector?: Readonly<Record<string, string>>;
}

/** The domain's devices: disks, the pod network, and each passed-through device as a GPU or a host device. */
function renderDevices(vm: PlannedVm): Record<string, unknown> {
  const gpus: { name: string; deviceName: string }[] = [];
  const hostDevices: { name: string; deviceName: string }[] = [];
  for (const d of vm.guest.devices) {
    for (let i = 0; i < d.count; i++) {
      if (d.kind === 'gpu') gpus.push({ name: `gpu${gpus.length}`, deviceName: d.resourceName });
      else hostDevices.push({ name: `hostdev${hostDevices.length}`, deviceName: d.resourceName });
    }
  }
  return {
    ...(vm.guest.graphics ? {} : { autoattachGraphicsDevice: false }),
    ...(vm.guest.serialConsoleLog !== undefined ? { logSerialConsole: vm.guest.serialConsoleLog } : {}),
    disks: [
      { name: 'rootdisk', disk: { bus: 'virtio' } },
      { name: 'cloudinit', disk: { bus: 'virtio' } },
    ],
    interfaces: [{ name: 'default', masquerade: {} }],
    ...(gpus.length > 0 ? { gpus } : {}),
    ...(hostDevices.length > 0 ? { hostDevices } : {}),
  };
}

/** The domain: topology, memory and requests exactly as the plan counted them, and the options that change the launcher pod. */
function renderDomain(vm: PlannedVm): Record<string, unknown> {
  const g = vm.guest;
  return {
    cpu: {
      cores: g.cores,
      sockets: g.sockets,
      threads: g.threads,
      ...(g.dedicatedCpus ? { dedicatedCpuPlacement: true } : {}),
      ...(g.isolateEmulatorThread ? { isolateEmulatorThread: true } : {}),
    },
    memory: { guest: g.guestMemory.toString(), ...(g.hugepages !== undefined ? { hugepages: { pageSize: g.hugepages } } : {}) },
    ...(g.ioThreads !== undefined ? { ioThreadsPolicy: 'supplementalPool', ioThreads: { supplementalPoolThreadCount: g.ioThreads } } : {}),
    // The plan counted exactly these requests; kube-scheduler and ResourceQuota hold the same line.
    resources: { requests: { ...(vm.vmiRequests.cpu ? { cpu: vm.vmiRequests.cpu.toString() } : {}), memory: vm.vmiRequests.memory.toString() } },
    devices: renderDevices(vm),
  };
}

/** The root DataVolume's source: what the properties name (registry, http, a CDI DataSource), else the image. */
function rootDiskSource(vm: PlannedVm, image: string): Record<string, unknown> {
  const from = vm.imageSource;
  if (from && 'dataSource' in from)
    return { sourceRef: { kind: 'DataSource', name: from.dataSource.name, ...(from.dataSource.namespace ? { namespace: from.dataSource.namespace } : {}) } };
  if (from && 'http' in from) return { source: { http: { url: from.http } } };
  const url = from && 'registry' in from ? from.registry : image;
  return { source: { registry: { url: url.includes('://') ? url : `docker://${url}` } } };
}

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

function requiredHosts(hosts: readonly string[]): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME_LABEL, operator: 'In', values: [...hosts] }] }],
      },
    },
  };
}

/**
 * Where kube-scheduler may put the VM: pinned to its planned host (a required node affinity), or spread
 * under a hard topology spread over its host group (a required node affinity on the group's hosts; none
 * when the group is the whole fleet). The spread bounds every host at ceil(n / group size) VMs of the pool
 * whatever order the pods come in, which is what the plan's proof counts on (core/plan-groups.ts). Only
 * hosts the pod's affinity allows and whose taints it tolerates are counted as places to spread over
 * (nodeAffinityPolicy and nodeTaintsPolicy Honor), so a cordoned, drained host is not one.
 */
export function renderPlacement(vm: PlannedVm): Record<string, unknown> {
  if (vm.placement === 'planned' && vm.host !== undefined) return { affinity: requiredHosts([vm.host]) };
  const hosts = vm.hostGroup?.hosts;
  return {
    ...(hosts ? { affinity: requiredHosts(hosts) } : {}),
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: HOSTNAME_LABEL,
        whenUnsatisfiable: 'DoNotSchedule',
        nodeTaintsPolicy: 'Honor',
        labelSelector: { matchLabels: { [POOL_LABEL]: vm.pool, [CLUSTER_LABEL]: vm.cluster } },
      },
    ],
  };
}

/** One node: the VM the plan counted, whose cloud-init joins the tenant cluster. */
export function renderVirtualMachine(vm: PlannedVm, options: VirtualMachineOptions): KubeObject {
  const nodeName = vm.name;
  const image = vm.image ?? DEFAULT_IMAGE;
  const labels = { ...MANAGED_BY, [POOL_LABEL]: vm.pool, [QUOTA_LABEL]: vm.quota, [CLUSTER_LABEL]: vm.cluster, [NODE_TYPE_LABEL]: vm.nodeType };
  const rootVolume =
    vm.rootDisk === 'dataVolume' ? { name: 'rootdisk', dataVolume: { name: `${nodeName}-root` } } : { name: 'rootdisk', containerDisk: { image } };
  const podLabels = { [POOL_LABEL]: vm.pool, [QUOTA_LABEL]: vm.quota, [CLUSTER_LABEL]: vm.cluster, [VM_NAME_LABEL]: nodeName };
  return {
    apiVersion: KUBEVIRT_API_VERSION,
    kind: 'VirtualMachine',
    metadata: { name: nodeName, namespace: vm.namespace, labels },
    spec: {
      runStrategy: 'Always',
      ...(vm.rootDisk === 'dataVolume'
        ? {
            dataVolumeTemplates: [
              {
                metadata: { name: `${nodeName}-root`, creationTimestamp: null },
                spec: {
                  ...rootDiskSource(vm, image),
                  storage: { resources: { requests: { storage: get(vm.shape, 'disk').toString() } } },
                },
              },
            ],
          }
        : {}),
      template: {
        // KubeVirt's mutating webhook adds `creationTimestamp: null` to these schemaless metadata blocks;
        // writing it ourselves keeps kubernetes_manifest's planned and applied objects the same shape
        // (otherwise: "Provider produced inconsistent result", terraform-provider-kubernetes #2688/#2747).
        metadata: { labels: podLabels, creationTimestamp: null },
        spec: {
          domain: renderDomain(vm),
          // Pinned CPUs and passed-through devices cannot live-migrate: the plan says which, and why.
          evictionStrategy: vm.eviction.strategy,
          networks: [{ name: 'default', pod: {} }],
          ...(options.hostSelector && Object.keys(options.hostSelector).length > 0 ? { nodeSelector: { ...options.hostSelector } } : {}),
          ...renderPlacement(vm),
          terminationGracePeriodSeconds: 180,
          volumes: [rootVolume, { name: 'cloudinit', cloudInitNoCloud: { secretRef: { name: options.userDataSecret } } }],
        },
      },
    },
  };
}
