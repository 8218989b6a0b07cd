/**
 * VM specs whose launcher pods are checked against KubeVirt's own code: each is built by the planner and
 * rendered by metalslice's renderers (VirtualMachine and KubeVirt CR), exactly as a deploy would write them.
 * test/oracles/kubevirt-launcher runs them through KubeVirt and writes test/golden/kubevirt-launcher.json.
 */
import { PlanIssue } from '../../constructs/core/base/errors';
import { KubevirtSettings } from '../../constructs/core/kubevirt/launcher';
import { PermittedHostDevice, VmOptions } from '../../constructs/core/input/model';
import { PlannedFleet } from '../../constructs/core/plan';
import { parseResources, ResourceInput } from '../../constructs/core/base/resources';
import { assembleVm, buildVm, FleetKubevirt, pinVm, PlannedVm, VmBuild } from '../../constructs/core/vm/vm';
import { renderKubeVirt, renderVirtualMachine } from '../../constructs/render/kubevirt';
import { KubeObject } from '../../constructs/render/labels';

export interface CaseSpec {
  readonly name: string;
  readonly shape: ResourceInput;
  readonly vm?: VmOptions;
  readonly rootDisk?: 'containerDisk' | 'dataVolume';
  readonly settings?: Partial<KubevirtSettings>;
  readonly permitted?: readonly PermittedHostDevice[];
  /** Pinned to this host by the plan (placement: planned). */
  readonly host?: string;
  /** The fleet's hostSelector. */
  readonly hostSelector?: Readonly<Record<string, string>>;
}

export const GPU: PermittedHostDevice = { resourceName: 'nvidia.com/gpu', pciVendorSelector: '10de:2236' };
export const NIC: PermittedHostDevice = { resourceName: 'intel.com/e810_vf', pciVendorSelector: '8086:1889' };

export const CASE_SPECS: readonly CaseSpec[] = [
  { name: 'plain-2-4gi', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' } },
  { name: 'plain-2-4gi-containerdisk', shape: { cpu: 2, memory: '4Gi' }, rootDisk: 'containerDisk' },
  { name: 'small-1-1gi', shape: { cpu: 1, memory: '1Gi', disk: '20Gi' } },
  { name: 'medium-8-32gi', shape: { cpu: 8, memory: '32Gi', disk: '100Gi' } },
  { name: 'large-16-128gi', shape: { cpu: 16, memory: '128Gi', disk: '200Gi' } },
  { name: 'huge-64-512gi', shape: { cpu: 64, memory: '512Gi', disk: '1Ti' } },
  { name: 'odd-3-3000mi', shape: { cpu: 3, memory: '3000Mi', disk: '30Gi' } },
  { name: 'decimal-memory-4g', shape: { cpu: 2, memory: '4G', disk: '30Gi' } },
  { name: 'topology-2s-2t-8', shape: { cpu: 8, memory: '16Gi', disk: '50Gi' }, vm: { sockets: 2, threads: 2 } },
  { name: 'dedicated-4-16gi', shape: { cpu: 4, memory: '16Gi', disk: '50Gi' }, vm: { dedicatedCpus: true } },
  { name: 'dedicated-isolated-4-16gi', shape: { cpu: 4, memory: '16Gi', disk: '50Gi' }, vm: { dedicatedCpus: true, isolateEmulatorThread: true } },
  { name: 'dedicated-containerdisk-2-8gi', shape: { cpu: 2, memory: '8Gi' }, vm: { dedicatedCpus: true }, rootDisk: 'containerDisk' },
  { name: 'hugepages-2mi-4-16gi', shape: { cpu: 4, memory: '16Gi', disk: '50Gi' }, vm: { hugepages: '2Mi' } },
  { name: 'hugepages-1gi-8-32gi', shape: { cpu: 8, memory: '32Gi', disk: '50Gi' }, vm: { hugepages: '1Gi' } },
  {
    name: 'nfv-dedicated-isolated-hugepages',
    shape: { cpu: 8, memory: '32Gi', disk: '50Gi' },
    vm: { dedicatedCpus: true, isolateEmulatorThread: true, hugepages: '1Gi' },
  },
  { name: 'iothreads-2-4-16gi', shape: { cpu: 4, memory: '16Gi', disk: '50Gi' }, vm: { ioThreads: 2 } },
  { name: 'iothreads-2-dedicated', shape: { cpu: 4, memory: '16Gi', disk: '50Gi' }, vm: { ioThreads: 2, dedicatedCpus: true } },
  { name: 'console-log-off-vm', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' }, vm: { serialConsoleLog: false } },
  { name: 'console-log-off-fleet', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' }, settings: { serialConsoleLog: false } },
  {
    name: 'console-log-on-vm-off-fleet',
    shape: { cpu: 2, memory: '4Gi', disk: '40Gi' },
    vm: { serialConsoleLog: true },
    settings: { serialConsoleLog: false },
  },
  { name: 'no-graphics', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' }, vm: { graphics: false } },
  { name: 'ratio-4', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' }, settings: { cpuAllocationRatio: 4 } },
  { name: 'ratio-3-odd', shape: { cpu: 1, memory: '2Gi', disk: '40Gi' }, settings: { cpuAllocationRatio: 3 } },
  { name: 'ratio-10-iothreads', shape: { cpu: 4, memory: '8Gi', disk: '40Gi' }, vm: { ioThreads: 2 }, settings: { cpuAllocationRatio: 10 } },
  { name: 'ratio-4-dedicated-not-divided', shape: { cpu: 4, memory: '8Gi', disk: '40Gi' }, vm: { dedicatedCpus: true }, settings: { cpuAllocationRatio: 4 } },
  { name: 'memory-overcommit-150', shape: { cpu: 4, memory: '16Gi', disk: '40Gi' }, settings: { memoryOvercommit: 150 } },
  { name: 'gpu-permitted', shape: { cpu: 8, memory: '64Gi', disk: '100Gi', 'nvidia.com/gpu': 1 }, permitted: [GPU] },
  { name: 'two-gpus-dedicated', shape: { cpu: 16, memory: '128Gi', disk: '100Gi', 'nvidia.com/gpu': 2 }, vm: { dedicatedCpus: true }, permitted: [GPU] },
  { name: 'host-devices-nic', shape: { cpu: 4, memory: '16Gi', disk: '40Gi', 'intel.com/e810_vf': 2 }, permitted: [NIC] },
  { name: 'pinned-to-host', shape: { cpu: 4, memory: '8Gi', disk: '40Gi' }, host: 'metal-07' },
  { name: 'pinned-host-selector', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' }, host: 'metal-07', hostSelector: { 'metalslice.io/fleet': 'f' } },
  {
    name: 'spread-host-selector',
    shape: { cpu: 2, memory: '4Gi', disk: '40Gi' },
    hostSelector: { 'metalslice.io/fleet': 'f', 'node-role.kubernetes.io/virt': '' },
  },
  { name: 'gpu-not-permitted', shape: { cpu: 8, memory: '64Gi', disk: '100Gi', 'nvidia.com/gpu': 1 }, permitted: [NIC] },
];

export interface GoldenCase {
  readonly name: string;
  /** What metalslice deploys: the KubeVirt CR of the fleet and the VirtualMachine. */
  readonly input: { readonly kubevirt: KubeObject; readonly vm: KubeObject };
  /** metalslice's own figures, or its refusal. */
  readonly planned: VmBuild | { readonly refused: readonly PlanIssue[] };
}

function fleetOf(spec: CaseSpec, permitted: readonly PermittedHostDevice[]): FleetKubevirt {
  return {
    settings: { cpuAllocationRatio: 1, memoryOvercommit: 100, serialConsoleLog: true, ...spec.settings },
    permittedHostDevices: permitted,
    path: 'fleets[0]',
  };
}

/** Builds one case as the planner and the renderers would. */
export function buildCase(spec: CaseSpec): GoldenCase {
  const shape = parseResources(spec.shape, 'shape');
  const rootDisk = spec.rootDisk ?? 'dataVolume';
  const fleet = fleetOf(spec, spec.permitted ?? []);
  const issues: PlanIssue[] = [];
  const planned = buildVm(shape, spec.vm ?? {}, rootDisk, fleet, { options: 'vm', shape: 'shape' }, issues);
  // A VM the plan refuses is still rendered (as if permitted, and unchecked) so KubeVirt can say whether it refuses it too.
  const renderable = planned ?? assembleVm(shape, spec.vm ?? {}, rootDisk, fleetOf(spec, [GPU, NIC]));
  const unpinned: PlannedVm = {
    ...renderable,
    name: spec.name,
    origin: 'elastic',
    concrete: true,
    pool: spec.name,
    poolPath: 'nodePools[0]',
    countPath: 'nodePools[0].count',
    index: 0,
    cluster: 'prod',
    quota: 'q',
    fleet: 'f',
    namespace: 'acme-q',
    nodeType: spec.name,
    placement: 'spread',
    labels: {},
    taints: [],
  };
  const vm = spec.host !== undefined ? { ...pinVm(unpinned, 'placement: planned'), host: spec.host } : unpinned;
  const plannedFleet = {
    name: 'f',
    path: 'fleets[0]',
    spec: { name: 'f' },
    hosts: [],
    excludedHosts: [],
    capacity: {},
    cpuAllocationRatio: fleet.settings.cpuAllocationRatio,
    kubevirt: fleet,
  } as PlannedFleet;
  return {
    name: spec.name,
    input: {
      kubevirt: renderKubeVirt(plannedFleet, [vm]),
      vm: renderVirtualMachine(vm, { userDataSecret: `${spec.name}-cloudinit`, hostSelector: spec.hostSelector }),
    },
    planned: planned ?? { refused: issues },
  };
}

/** Builds every case as the planner and the renderers would. */
export function goldenCases(): GoldenCase[] {
  return CASE_SPECS.map(buildCase);
}
