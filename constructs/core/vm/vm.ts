/**
 * The one model of a VM. Every VM metalslice creates, or lets an autoscaler create, is one `PlannedVm`
 * in one list, whichever construct or config section declared it: elastic node pools, static auto-node
 * pools, and dynamic pools at their limits. Quota and fleet accounting, placement, reports and renderers
 * all read that list, so no check can forget a kind of VM.
 */
import type { ImageSource } from './properties';
import { childPath, PlanIssue } from '../base/errors';
import { computeCpu, DeviceKind, KubevirtSettings, LauncherPod, launcherPod, LauncherVm, VmDevice, vmiMemoryRequest } from '../kubevirt/launcher';
import { PermittedHostDevice, Taint, VmOptions } from '../input/model';
import { Quantity } from '../base/quantity';
import { get, isExtendedResource, resourceNames, ResourceVector, sumResources } from '../base/resources';
import { amount } from '../base/units';

/** Where a VM came from. */
export type VmOrigin = 'elastic' | 'static' | 'dynamic';

/** What KubeVirt does with a VM when its host is drained (a VMI's evictionStrategy). */
export type EvictionStrategy = 'LiveMigrate' | 'LiveMigrateIfPossible' | 'External' | 'None';

/**
 * The hosts a spread pool is confined to (a required node affinity on their names), under its hard topology
 * spread: no host of the group gets more than `perHost` of the pool's VMs.
 */
export interface HostGroup {
  /** The group's hosts, by name; undefined: every host of the fleet (no affinity is rendered). */
  readonly hosts?: readonly string[];
  /**
   * The Node label the pool's VMs select to stay in the group (`hostGroupLabel`), set with `hosts`: metalslice
   * writes it on the group's hosts, so the VMs carry one label, not a list of host names.
   */
  readonly label?: string;
  /** How many hosts the group has. */
  readonly size: number;
  /** ceil(count / size): the most VMs of the pool any host of the group can get. */
  readonly perHost: number;
  /** Hosts of the group certain, in the worst case, to take a VM of a drained host of the group (0: none proven). */
  readonly migrationTargets: number;
  /** In the worst case, a drain of any one host of the group leaves every one of its VMs room in its group. */
  readonly wholeDrain: boolean;
}

/** A VM's eviction strategy, and why. */
export interface VmEviction {
  /** The evictionStrategy written into the VM. */
  readonly strategy: EvictionStrategy;
  /** KubeVirt can live-migrate it (no pinned CPUs, no passed-through device). */
  readonly migratable: boolean;
  /** Why: set by the pool, or what stops KubeVirt from live-migrating it. */
  readonly reason: string;
}

/** What a fleet's KubeVirt CR says about VMs: settings that change launcher pods, and permitted devices. */
export interface FleetKubevirt {
  /** The KubeVirt CR's settings that change launcher pods (cpuAllocationRatio, memoryOvercommit, serial console log). */
  readonly settings: KubevirtSettings;
  /** Devices VMs may pass through. */
  readonly permittedHostDevices: readonly PermittedHostDevice[];
  /** Where the fleet is declared, for errors that point at its settings. */
  readonly path: string;
}

/** A VM as built from a shape and options, before it has a name or a pool. */
export interface VmBuild {
  /** The guest: cpu (vCPUs), memory, disk (root disk), devices. */
  readonly shape: ResourceVector;
  /** How the VM is built (dedicated CPUs, hugepages, IO threads, ...). */
  readonly options: VmOptions;
  /** The guest as KubeVirt's launcher rendering sees it (vCPUs, memory, devices, topology). */
  readonly guest: LauncherVm;
  /** The VM's virt-launcher pod: its requests and limits as KubeVirt renders them. */
  readonly launcher: LauncherPod;
  /** `containerDisk` (ephemeral) or `dataVolume` (a PVC of the shape's disk). */
  readonly rootDisk: 'containerDisk' | 'dataVolume';
  /** What the VM costs its quota: the launcher pod's requests, the root disk's PVC (requests.storage), one pod. */
  readonly quotaDemand: ResourceVector;
  /** What the VM takes from its host: the launcher pod's requests, its root disk, one pod. */
  readonly hostDemand: ResourceVector;
  /** What a host drain does to the VM, and why. */
  readonly eviction: VmEviction;
  /** spec.domain.resources.requests as metalslice writes them: what the plan counted, so KubeVirt cannot differ. */
  readonly vmiRequests: {
    /** The CPU request (none with dedicated CPUs: KubeVirt sets it). */
    readonly cpu?: Quantity;
    /** The memory request. */
    readonly memory: Quantity;
  };
}

/** One VM of the plan: built, named, counted against its quota and placed on a host. */
export interface PlannedVm extends VmBuild {
  /** VM object name, unique in its namespace and stable when its pool scales. */
  readonly name: string;
  /** Which kind of pool declared it. */
  readonly origin: VmOrigin;
  /**
   * false: a VM a dynamic pool may reach at its limits. Never rendered, placed or charged: its quota's room after
   * the concrete VMs must hold it (auto/dynamic-pools.ts, quota/ledger.ts).
   */
  readonly concrete: boolean;
  /** The pool's name. */
  readonly pool: string;
  /** Config or construct path of the pool; unique per pool. */
  readonly poolPath: string;
  /** The path a count problem points at (`.count`, `.quantity`, `.limits`). */
  readonly countPath: string;
  /** Its index in the pool (node names are `<pool>-<index>`). */
  readonly index: number;
  /** The tenant cluster it joins. */
  readonly cluster: string;
  /** The quota it counts against. */
  readonly quota: string;
  /** The fleet it runs on. */
  readonly fleet: string;
  /** The namespace of the VM object (its quota's). */
  readonly namespace: string;
  /** The node type label value. */
  readonly nodeType: string;
  /** The root disk image. @default - an Ubuntu 24.04 container disk */
  readonly image?: string;
  /** Where the DataVolume root disk's content comes from, when properties say (image-url, image-datasource). @default - `image` from a registry */
  readonly imageSource?: ImageSource;
  /** `spread` (kube-scheduler spreads its pool) or `planned` (pinned to `host`). */
  readonly placement: 'spread' | 'planned';
  /** The host the planner found room on; undefined before placement or when none had room. */
  readonly host?: string;
  /** A spread VM's host group: where kube-scheduler may put it. @default - set by placement */
  readonly hostGroup?: HostGroup;
  /** Node labels and taints the VM's kubelet registers with. */
  readonly labels: Readonly<Record<string, string>>;
  /** Taints its kubelet registers with. */
  readonly taints: readonly Taint[];
  /**
   * vCluster Platform makes it by running metalslice's kubevirt node template for a node claim: the plan counts
   * it, metalslice renders nothing for it, and it is never pinned (a claim names no host). @default false
   */
  readonly madeByNodeTemplate?: boolean;
}

/** How a device resource is passed through: as a GPU when its name says so, else as a host device. */
export function deviceKindOf(resourceName: string, options: VmOptions): DeviceKind {
  return options.deviceKinds?.[resourceName] ?? (/gpu/i.test(resourceName) ? 'gpu' : 'hostDevice');
}

function evictionOf(guest: LauncherVm, options: VmOptions): VmEviction {
  const blockers: string[] = [];
  if (guest.dedicatedCpus) blockers.push('its CPUs are pinned (dedicatedCpus)');
  const devices = guest.devices.filter((d) => d.count > 0).map((d) => d.resourceName);
  if (devices.length > 0) blockers.push(`it passes through ${devices.join(', ')}`);
  const migratable = blockers.length === 0;
  if (options.evictionStrategy !== undefined) {
    return {
      strategy: options.evictionStrategy,
      migratable,
      reason: `set by the pool${migratable ? '' : `; KubeVirt cannot live-migrate it: ${blockers.join(' and ')}`}`,
    };
  }
  if (migratable) return { strategy: 'LiveMigrate', migratable, reason: 'a host drain live-migrates it' };
  return { strategy: 'None', migratable, reason: `a host drain shuts it down: KubeVirt cannot live-migrate it, ${blockers.join(' and ')}` };
}

/** Why the planner may not pin the VM to a host, or undefined when it may. */
export function pinRefusal(vm: PlannedVm): string | undefined {
  if (vm.madeByNodeTemplate) return 'vCluster Platform makes them from a node template, whose claims name no host';
  if (asksForLiveMigration(vm.options)) return 'they ask for live migration';
  return undefined;
}

/** Eviction strategies that ask KubeVirt to live-migrate the VM. */
export function asksForLiveMigration(options: VmOptions): boolean {
  return options.evictionStrategy === 'LiveMigrate' || options.evictionStrategy === 'LiveMigrateIfPossible';
}

/** The eviction strategy of a VM pinned to one host: External when the pool chose it, else None (it cannot migrate). */
export function pinnedEvictionStrategy(options: VmOptions): 'External' | 'None' {
  return options.evictionStrategy === 'External' ? 'External' : 'None';
}

/**
 * The VM pinned to its planned host by a required node affinity. A live migration needs a second host,
 * which the affinity forbids, so a host drain shuts the VM down (evictionStrategy None unless the pool
 * chose External) and it starts again on the same host once the host is back. `why` says who pinned it.
 */
export function pinVm(vm: PlannedVm, why: string): PlannedVm {
  if (vm.placement === 'planned' && !vm.eviction.migratable) return vm;
  const strategy = pinnedEvictionStrategy(vm.options);
  return {
    ...vm,
    placement: 'planned',
    eviction: {
      strategy,
      migratable: false,
      reason: `${strategy === 'External' ? 'set by the pool; ' : 'a host drain shuts it down: '}it is pinned to its planned host (${why}), so it cannot live-migrate`,
    },
  };
}

/** Where a VM's settings are written, for errors: its `vm` options and its shape (resources). */
export interface VmPaths {
  /** The `vm` options (sockets, threads, dedicatedCpus, hugepages, ...). */
  readonly options: string;
  /** The shape: cpu, memory, disk and devices. */
  readonly shape: string;
}

/** The vCPU topology: ours (the vCPUs split into sockets x threads) and KubeVirt's (at most 2 threads with dedicated CPUs). */
function topologyIssues(vcpus: number, options: VmOptions, at: VmPaths): PlanIssue[] {
  const sockets = options.sockets ?? 1;
  const threads = options.threads ?? 1;
  const issues: PlanIssue[] = [];
  if (vcpus % (sockets * threads) !== 0) {
    issues.push({
      path: childPath(at.options, 'sockets'),
      message: `${vcpus} vCPUs do not divide into ${sockets} socket(s) x ${threads} thread(s): choose sockets and threads whose product divides the vCPU count`,
    });
  }
  // virt-api's VMI create admitter (validateThreadCountOnDedicatedCPUPlacement).
  if (options.dedicatedCpus && threads > 2) {
    issues.push({
      path: childPath(at.options, 'threads'),
      message: `KubeVirt refuses ${threads} threads per core with dedicatedCpus (at most 2): use threads 1 or 2, or drop dedicatedCpus`,
    });
  }
  // virt-api's VMI create admitter (validateCPUIsolatorThread).
  if (options.isolateEmulatorThread && !options.dedicatedCpus) {
    issues.push({
      path: childPath(at.options, 'isolateEmulatorThread'),
      message: 'isolateEmulatorThread needs dedicatedCpus: true (KubeVirt refuses it otherwise)',
    });
  }
  return issues;
}

/**
 * Hugepages: KubeVirt's admitter (validateHugepagesMemoryRequests) checks the memory *request* metalslice
 * writes, which is the guest less what the fleet's memoryOvercommit leaves out: it must be at least one page
 * and a whole number of pages.
 */
function hugepagesIssues(memory: Quantity, options: VmOptions, fleet: FleetKubevirt, at: VmPaths): PlanIssue[] {
  if (options.hugepages === undefined) return [];
  const page = Quantity.parse(options.hugepages);
  const overcommit = fleet.settings.memoryOvercommit;
  const request = vmiMemoryRequest({ guestMemory: memory }, fleet.settings);
  if (request.nano % page.nano === 0n && request.cmp(page) >= 0) return [];
  if (overcommit === 100) {
    return [
      {
        path: childPath(at.shape, 'memory'),
        message: `memory ${amount('memory', memory)} is not a whole number of ${options.hugepages} hugepages: round it to a multiple of ${options.hugepages}`,
      },
    ];
  }
  return [
    {
      path: childPath(at.shape, 'memory'),
      message: `KubeVirt refuses it: with the fleet's memoryOvercommit ${overcommit} (${fleet.path}.memoryOvercommit) the VM requests ${amount('memory', request)} of its ${amount('memory', memory)}, not a whole number of ${options.hugepages} hugepages; choose a memory size whose request is a multiple of ${options.hugepages}, or drop hugepages on an overcommitted fleet`,
    },
  ];
}

/** The shape's extended resources as passed-through devices. */
function devicesOf(shape: ResourceVector, options: VmOptions): VmDevice[] {
  return resourceNames(shape)
    .filter((r) => isExtendedResource(r) && !shape[r].isZero())
    .map((resourceName) => ({ resourceName, kind: deviceKindOf(resourceName, options), count: Number(shape[resourceName].ceilUnits()) }));
}

/** Devices the fleet's KubeVirt CR does not permit (virt-controller refuses to render the launcher pod). */
function deviceIssues(devices: readonly VmDevice[], fleet: FleetKubevirt, at: VmPaths): PlanIssue[] {
  return devices
    .filter((d) => !fleet.permittedHostDevices.some((p) => p.resourceName === d.resourceName))
    .map((d) => ({
      path: childPath(at.shape, d.resourceName),
      message: `KubeVirt refuses ${d.kind === 'gpu' ? 'GPU' : 'host device'} ${d.resourceName}: it is not in the fleet's permittedHostDevices; add {resourceName: ${d.resourceName}, pciVendorSelector: "VVVV:PPPP"} to ${fleet.path}.permittedHostDevices`,
    }));
}

/**
 * Builds a VM from its guest shape and options for a fleet, checking the rules KubeVirt enforces. Returns
 * undefined (with issues) when KubeVirt would refuse it.
 */
export function buildVm(
  shape: ResourceVector,
  options: VmOptions,
  rootDisk: 'containerDisk' | 'dataVolume',
  fleet: FleetKubevirt,
  at: VmPaths,
  issues: PlanIssue[],
): VmBuild | undefined {
  const before = issues.length;
  const vcpus = Number(get(shape, 'cpu').ceilUnits());
  const memory = get(shape, 'memory');
  issues.push(...topologyIssues(vcpus, options, at), ...hugepagesIssues(memory, options, fleet, at), ...deviceIssues(devicesOf(shape, options), fleet, at));
  if (issues.length > before) return undefined;
  return assembleVm(shape, options, rootDisk, fleet);
}

/**
 * The VM of a shape and options on a fleet with nothing checked: what metalslice would render and charge.
 * `buildVm` is this after KubeVirt's rules; tests use it alone to ask KubeVirt about combinations the plan
 * refuses. The vCPUs must divide into sockets x threads.
 */
export function assembleVm(shape: ResourceVector, options: VmOptions, rootDisk: 'containerDisk' | 'dataVolume', fleet: FleetKubevirt): VmBuild {
  const vcpus = Number(get(shape, 'cpu').ceilUnits());
  const sockets = options.sockets ?? 1;
  const threads = options.threads ?? 1;
  const devices = devicesOf(shape, options);
  const guest: LauncherVm = {
    sockets,
    cores: vcpus / (sockets * threads),
    threads,
    guestMemory: get(shape, 'memory'),
    dedicatedCpus: options.dedicatedCpus ?? false,
    isolateEmulatorThread: options.isolateEmulatorThread ?? false,
    ...(options.hugepages !== undefined ? { hugepages: options.hugepages } : {}),
    ...(options.ioThreads !== undefined ? { ioThreads: options.ioThreads } : {}),
    ...(options.serialConsoleLog !== undefined ? { serialConsoleLog: options.serialConsoleLog } : {}),
    graphics: options.graphics ?? true,
    devices,
    containerDisk: rootDisk === 'containerDisk',
  };
  const launcher = launcherPod(guest, fleet.settings);
  const one = Quantity.fromUnits(1);
  const disk = get(shape, 'disk');
  const quotaDemand: Record<string, Quantity> = { ...launcher.requests, pods: one };
  if (rootDisk === 'dataVolume' && !disk.isZero()) quotaDemand.disk = disk;
  const hostDemand: Record<string, Quantity> = { ...launcher.requests, pods: one };
  if (!disk.isZero()) hostDemand.disk = disk;
  // Dedicated CPUs are whole cores KubeVirt derives from the topology; a shared VM's CPU request is written out.
  const vmiRequests = { ...(guest.dedicatedCpus ? {} : { cpu: computeCpu(guest, fleet.settings) }), memory: vmiMemoryRequest(guest, fleet.settings) };
  return { shape, options, guest, launcher, rootDisk, quotaDemand, hostDemand, eviction: evictionOf(guest, options), vmiRequests };
}

/** VMs by a key (pool path, quota, ...), in list order within each group. */
export function groupBy<K>(vms: readonly PlannedVm[], key: (vm: PlannedVm) => K): Map<K, PlannedVm[]> {
  const groups = new Map<K, PlannedVm[]>();
  for (const vm of vms) {
    const k = key(vm);
    const list = groups.get(k);
    if (list) list.push(vm);
    else groups.set(k, [vm]);
  }
  return groups;
}

/** What the concrete VMs demand, summed per key (their fleet, their quota), keys in the order first met. */
export function concreteDemandBy(
  vms: readonly PlannedVm[],
  key: (vm: PlannedVm) => string,
  demand: (vm: PlannedVm) => ResourceVector,
): Map<string, ResourceVector> {
  const byKey = groupBy(
    vms.filter((vm) => vm.concrete),
    key,
  );
  return new Map([...byKey].map(([k, own]) => [k, sumResources(own.map(demand))]));
}

/** A fleet's KubeVirt view with KubeVirt's plain settings as metalslice renders them (ratio 1, no overcommit, console log on). */
export function plainFleetKubevirt(
  settings: Partial<KubevirtSettings> = {},
  permittedHostDevices: readonly PermittedHostDevice[] = [],
  path = 'fleets[0]',
): FleetKubevirt {
  return { settings: { cpuAllocationRatio: 1, memoryOvercommit: 100, serialConsoleLog: true, ...settings }, permittedHostDevices, path };
}
