/**
 * KubeVirt objects: the KubeVirt CR of a fleet, and one VirtualMachine per planned VM. Both read the plan's
 * VM list: the CR turns on what the fleet's VMs need, and each VM is written from its one PlannedVm value.
 */
import { PlannedFleet } from '../core/plan';
import { get } from '../core/base/resources';
import { PlannedVm } from '../core/vm/vm';
import {
  CLUSTER_LABEL,
  FLEET_LABEL,
  HOST_GROUP_LABEL_VALUE,
  KubeObject,
  MANAGED_BY,
  NODE_TYPE_LABEL,
  POOL_LABEL,
  QUOTA_LABEL,
  REVISION_ANNOTATION,
  VM_NAME_LABEL,
} from './labels';
import { INSTANCE_TYPE_LABEL } from '../core/naming/derived';

export const DEFAULT_IMAGE = 'quay.io/containerdisks/ubuntu:24.04';

/** The API version of KubeVirt's VirtualMachine and KubeVirt objects metalslice writes. */
export const KUBEVIRT_API_VERSION = 'kubevirt.io/v1';

/**
 * What KubeVirt's VM mutator (v1.9.0) writes into a new VM's template metadata: the PCI topology scheme, on every
 * amd64/arm64 VM with a q35/virt machine type (all of metalslice's). Written by metalslice too, so the object a
 * node template's kubernetes_manifest plans is the object KubeVirt stores (a schemaless block that gains a key
 * fails with "Provider produced inconsistent result"). KubeVirt v1.9.0 drops `creationTimestamp: null` there.
 */
export const KUBEVIRT_TEMPLATE_ANNOTATIONS: Readonly<Record<string, string>> = { 'kubevirt.io/pci-topology-version': 'v3' };

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
    metadata: { name: 'kubevirt', namespace: fleet.spec.namespace ?? 'kubevirt', labels: { ...MANAGED_BY, [FLEET_LABEL]: fleet.name } },
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
  /** The node's revision (the plan's rollout): written on the template, so each VMI says which revision it runs. @default - none */
  readonly revision?: string;
  /**
   * Whether the VM's fleet writes its host groups' labels on the hosts' Nodes (an `ElasticFleet` in the same plan).
   * When it does not (a fleet imported into a consumer stack, whose identity may not write Nodes), a grouped VM
   * keeps a required node affinity on its group's host names instead. @default true
   */
  readonly groupsLabelled?: boolean;
}

/** What one VM of a node type (or pool) is, before any claim names it: the fields the spec is rendered from. */
export type VmTypeInput = Pick<PlannedVm, 'guest' | 'options' | 'vmiRequests' | 'eviction' | 'rootDisk' | 'shape' | 'image' | 'imageSource'> & {
  /** Fleet host selector, repeated on the VM so it only lands on fleet hosts. @default - none */
  readonly hostSelector?: Readonly<Record<string, string>>;
};

/** The root disk's name in a claim-free spec; a claim prefixes it with the VM's name (as Cluster API's KubeVirt provider does). */
export const ROOT_DISK_NAME = 'root';

/** The domain's devices: disks, the pod network, and each passed-through device as a GPU or a host device. */
function renderDevices(vm: VmTypeInput): Record<string, unknown> {
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
    disks: [{ name: 'rootdisk', disk: { bus: 'virtio' } }],
    interfaces: [{ name: 'default', masquerade: {} }],
    ...(gpus.length > 0 ? { gpus } : {}),
    ...(hostDevices.length > 0 ? { hostDevices } : {}),
  };
}

/** The domain: topology, memory and requests exactly as the plan counted them, and the options that change the launcher pod. */
function renderDomain(vm: VmTypeInput): Record<string, unknown> {
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
function rootDiskSource(vm: VmTypeInput, image: string): Record<string, unknown> {
  const from = vm.imageSource;
  if (from && 'dataSource' in from)
    return { sourceRef: { kind: 'DataSource', name: from.dataSource.name, ...(from.dataSource.namespace ? { namespace: from.dataSource.namespace } : {}) } };
  if (from && 'http' in from) return { source: { http: { url: from.http } } };
  const url = from && 'registry' in from ? from.registry : image;
  return { source: { registry: { url: url.includes('://') ? url : `docker://${url}` } } };
}

/** A VirtualMachine's spec with no claim in it: no name, labels, placement or user data. */
export interface VmSpec {
  readonly runStrategy: 'Always';
  readonly dataVolumeTemplates?: readonly { readonly metadata: { readonly name: string }; readonly spec: Record<string, unknown> }[];
  readonly template: { readonly spec: VmTemplateSpec };
}

/** A claim-free VMI template spec. */
export interface VmTemplateSpec {
  readonly domain: Record<string, unknown>;
  readonly evictionStrategy: string;
  readonly networks: readonly Record<string, unknown>[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly terminationGracePeriodSeconds: number;
  readonly volumes: readonly Record<string, unknown>[];
}

/**
 * The one renderer of a VM: the spec every road writes for this VM (an elastic or static pool's VM, the
 * Cluster API template's VM, the node template's per-type data), from the values the plan counted. What a
 * claim brings (the name, the user data, labels, a host pin or spread) is added by `claimVirtualMachine`
 * or, for Cluster API, by its KubeVirt provider, which adds exactly those fields the same way.
 */
export function renderVmSpec(vm: VmTypeInput): VmSpec {
  const image = vm.image ?? DEFAULT_IMAGE;
  const dataVolume = vm.rootDisk === 'dataVolume';
  const selector = vm.hostSelector && Object.keys(vm.hostSelector).length > 0 ? { nodeSelector: { ...vm.hostSelector } } : {};
  return {
    runStrategy: 'Always',
    ...(dataVolume
      ? {
          dataVolumeTemplates: [
            {
              metadata: { name: ROOT_DISK_NAME },
              spec: { ...rootDiskSource(vm, image), storage: { resources: { requests: { storage: get(vm.shape, 'disk').toString() } } } },
            },
          ],
        }
      : {}),
    template: {
      spec: {
        domain: renderDomain(vm),
        // Pinned CPUs and passed-through devices cannot live-migrate: the plan says which, and why.
        evictionStrategy: vm.eviction.strategy,
        networks: [{ name: 'default', pod: {} }],
        ...selector,
        terminationGracePeriodSeconds: 180,
        volumes: [dataVolume ? { name: 'rootdisk', dataVolume: { name: ROOT_DISK_NAME } } : { name: 'rootdisk', containerDisk: { image } }],
      },
    },
  };
}

/**
 * Where a claimed VM goes: pinned to a host, or spread with a hard constraint over its pool's host group: its
 * label (`group`), or its host names (`hosts`, a fleet that does not label its hosts); the whole fleet when both
 * are absent.
 */
export type VmPlacement =
  { readonly host: string } | { readonly spread: Readonly<Record<string, string>>; readonly group?: string; readonly hosts?: readonly string[] };

/** What a claim brings to a VM: its name and namespace, labels, user data and placement. */
export interface VmClaim {
  /** The VM's (and node's) name. */
  readonly name: string;
  /** The VM's namespace (its quota's). */
  readonly namespace: string;
  /** The VirtualMachine's labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** The launcher pod's labels. */
  readonly podLabels: Readonly<Record<string, string>>;
  /** The Secret with the node's cloud-init user data (key `userdata`). */
  readonly userDataSecret: string;
  /** A host pin or a spread. */
  readonly placement: VmPlacement;
}

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** A required node affinity: one of these hosts. */
function requiredHosts(hosts: readonly string[]): Record<string, unknown> {
  const term = { matchExpressions: [{ key: HOSTNAME_LABEL, operator: 'In', values: [...hosts] }] };
  return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } };
}

/**
 * Where kube-scheduler may put the VM: pinned to its planned host (a required node affinity), or spread
 * under a hard topology spread over its host group (its group's label in the nodeSelector, which metalslice
 * writes on the group's hosts' Nodes; none when the group is the whole fleet). A label, not the hosts' names:
 * the list of a group of 800 hosts made each launcher pod 11 KB instead of 1.4 KB, in every write and watch
 * event, and kube-scheduler matched it name by name against every Node (a fleet that does not label its hosts
 * still gets the list). The spread bounds every host at ceil(n / group size) VMs of the pool whatever order
 * the pods come in, which is what the plan's proof counts on (core/plan/groups.ts). Only hosts whose taints
 * the pod tolerates are counted as places to spread over (nodeTaintsPolicy Honor), so a cordoned, drained host
 * is not one.
 */
export function renderPlacement(placement: VmPlacement): Record<string, unknown> {
  if ('host' in placement) return { affinity: requiredHosts([placement.host]) };
  return {
    ...(placement.hosts ? { affinity: requiredHosts(placement.hosts) } : {}),
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: HOSTNAME_LABEL,
        whenUnsatisfiable: 'DoNotSchedule',
        nodeTaintsPolicy: 'Honor',
        labelSelector: { matchLabels: { ...placement.spread } },
      },
    ],
  };
}

/** The fleet's host selector, and the group label of a VM confined to a host group: both select its host. */
function nodeSelectorOf(fleet: Readonly<Record<string, string>> | undefined, placement: VmPlacement): Record<string, unknown> {
  const group = 'group' in placement && placement.group !== undefined ? { [placement.group]: HOST_GROUP_LABEL_VALUE } : {};
  const selector = { ...fleet, ...group };
  return Object.keys(selector).length > 0 ? { nodeSelector: selector } : {};
}

/** The claim's name on a claim-free DataVolume reference (`root` becomes `<vm>-root`). */
function claimDataVolume(name: string, claim: VmClaim): string {
  return `${claim.name}-${name}`;
}

/** The claim-free spec with a claim's fields: names, labels, the cloud-init disk and the placement. */
export function claimVirtualMachine(spec: VmSpec, claim: VmClaim): KubeObject {
  const { domain, evictionStrategy, networks, nodeSelector, terminationGracePeriodSeconds, volumes } = spec.template.spec;
  const devices = domain.devices as { disks: readonly Record<string, unknown>[] };
  const claimedVolumes = volumes.map((v) =>
    'dataVolume' in v ? { ...v, dataVolume: { name: claimDataVolume((v.dataVolume as { name: string }).name, claim) } } : v,
  );
  return {
    apiVersion: KUBEVIRT_API_VERSION,
    kind: 'VirtualMachine',
    metadata: { name: claim.name, namespace: claim.namespace, labels: { ...claim.labels } },
    spec: {
      runStrategy: spec.runStrategy,
      ...(spec.dataVolumeTemplates
        ? {
            dataVolumeTemplates: spec.dataVolumeTemplates.map((t) => ({
              metadata: { name: claimDataVolume(t.metadata.name, claim) },
              spec: t.spec,
            })),
          }
        : {}),
      template: {
        // KubeVirt's VM mutator adds its PCI topology annotation to this schemaless metadata block; writing it
        // ourselves keeps kubernetes_manifest's planned and applied objects the same shape (otherwise: "Provider
        // produced inconsistent result", terraform-provider-kubernetes #2688/#2747).
        metadata: { labels: { ...claim.podLabels }, annotations: { ...KUBEVIRT_TEMPLATE_ANNOTATIONS } },
        spec: {
          domain: { ...domain, devices: { ...devices, disks: [...devices.disks, { name: 'cloudinit', disk: { bus: 'virtio' } }] } },
          evictionStrategy,
          networks,
          ...nodeSelectorOf(nodeSelector, claim.placement),
          ...renderPlacement(claim.placement),
          terminationGracePeriodSeconds,
          volumes: [...claimedVolumes, { name: 'cloudinit', cloudInitNoCloud: { secretRef: { name: claim.userDataSecret } } }],
        },
      },
    },
  };
}

/** A group as the VM selects it: its label, or (a fleet that does not label its hosts) its hosts' names. */
function groupPlacement(group: PlannedVm['hostGroup'], labelled: boolean): { group: string } | { hosts: readonly string[] } | Record<string, never> {
  if (group?.hosts === undefined) return {};
  return labelled && group.label !== undefined ? { group: group.label } : { hosts: group.hosts };
}

/** What the plan's VM brings as a claim: its name, labels, user data and where the plan put it. */
export function plannedClaim(vm: PlannedVm, userDataSecret: string, groupsLabelled = true): VmClaim {
  const spreadLabels = { [POOL_LABEL]: vm.pool, [CLUSTER_LABEL]: vm.cluster };
  return {
    name: vm.name,
    namespace: vm.namespace,
    labels: { ...MANAGED_BY, [POOL_LABEL]: vm.pool, [QUOTA_LABEL]: vm.quota, [CLUSTER_LABEL]: vm.cluster, [NODE_TYPE_LABEL]: vm.nodeType },
    podLabels: { [POOL_LABEL]: vm.pool, [QUOTA_LABEL]: vm.quota, [CLUSTER_LABEL]: vm.cluster, [VM_NAME_LABEL]: vm.name },
    userDataSecret,
    placement:
      vm.placement === 'planned' && vm.host !== undefined ? { host: vm.host } : { spread: spreadLabels, ...groupPlacement(vm.hostGroup, groupsLabelled) },
  };
}

/**
 * The labels an Elastic Node Pool's node joins its tenant cluster with: the pool's node labels, then its pool, quota,
 * cluster and node type (also as the well-known instance type).
 */
export function elasticNodeLabels(vm: PlannedVm): Record<string, string> {
  return {
    ...vm.labels,
    [POOL_LABEL]: vm.pool,
    [QUOTA_LABEL]: vm.quota,
    [CLUSTER_LABEL]: vm.cluster,
    [NODE_TYPE_LABEL]: vm.nodeType,
    [INSTANCE_TYPE_LABEL]: vm.nodeType,
  };
}

/** One node: the VM the plan counted, whose cloud-init joins the tenant cluster. */
export function renderVirtualMachine(vm: PlannedVm, options: VirtualMachineOptions): KubeObject {
  const claim = plannedClaim(vm, options.userDataSecret, options.groupsLabelled ?? true);
  const object = claimVirtualMachine(renderVmSpec({ ...vm, hostSelector: options.hostSelector }), claim);
  if (options.revision === undefined) return object;
  const template = (object.spec as { template: { metadata: { annotations: Record<string, string> } } }).template;
  template.metadata.annotations = { ...template.metadata.annotations, [REVISION_ANNOTATION]: options.revision };
  return object;
}
