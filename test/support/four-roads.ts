/**
 * One node type taken down every road a VM reaches the cluster by: an elastic node pool of the same shape and
 * options, a static auto-node pool, a Cluster API dynamic pool (the KubevirtMachineTemplate's VM) and the
 * kubevirt node template's data. The fleet overcommits memory and CPU, and the types use every `vm` option,
 * so a road that drops an option or re-derives a request shows up as a difference.
 */
import { MetalsliceConfig, NodeTypeSpec } from '../../constructs/core/input/model';
import { Plan, planModel } from '../../constructs/core/plan';
import { renderClusterApiPool } from '../../constructs/render/cluster-api';
import { renderVirtualMachine } from '../../constructs/render/kubevirt';
import { PlannedVm } from '../../constructs/core/vm/vm';
import { nodeTemplateVars } from '../../constructs/render/node-template';
import { cluster, fleet, hosts, quota } from './models';

/** The node types under test: every `vm` option, on a fleet with memoryOvercommit 150 and cpuAllocationRatio 4. */
export const ROAD_TYPES: readonly NodeTypeSpec[] = [
  {
    name: 'nfv',
    resources: { cpu: 4, memory: '12Gi' },
    vm: { dedicatedCpus: true, isolateEmulatorThread: true, hugepages: '1Gi', graphics: false, serialConsoleLog: false, threads: 2 },
  },
  { name: 'io', resources: { cpu: 6, memory: '12Gi', disk: '40Gi' }, vm: { ioThreads: 2, graphics: false, sockets: 2, serialConsoleLog: true } },
  { name: 'gpu', resources: { cpu: 8, memory: '24Gi', disk: '60Gi', 'nvidia.com/gpu': 1 }, vm: { hugepages: '2Mi', evictionStrategy: 'External' } },
  { name: 'plain', resources: { cpu: 2, memory: '3000Mi' } },
];

const FLEET = 'fra1';
const IMAGE = 'quay.io/containerdisks/ubuntu:24.04';
const ROOT_DISK = '40Gi';
const HOST_SELECTOR = { 'metalslice.io/fleet': FLEET };

/** A config with the types on a kubevirt provider, each taken by an elastic pool, a static pool and a Cluster API pool. */
export function roadsModel(): MetalsliceConfig {
  const typeSelector = (name: string) => [{ property: 'vcluster.com/node-type', value: name }];
  return {
    clusters: [cluster()],
    fleets: [
      fleet(FLEET, hosts(4, { cpu: 96, memory: '768Gi', disk: '4Ti', 'nvidia.com/gpu': 4, 'hugepages-1Gi': '128Gi', 'hugepages-2Mi': '128Gi' }), {
        memoryOvercommit: 150,
        cpuAllocationRatio: 4,
        hostSelector: HOST_SELECTOR,
        permittedHostDevices: [{ resourceName: 'nvidia.com/gpu', pciVendorSelector: '10de:2236' }],
      }),
    ],
    quotas: [quota('team-a', FLEET, { cpu: 300, memory: '1Ti', disk: '2Ti', 'nvidia.com/gpu': 4, 'hugepages-1Gi': '100Gi', 'hugepages-2Mi': '100Gi' })],
    nodePools: ROAD_TYPES.map((t) => ({
      name: `elastic-${t.name}`,
      quota: 'team-a',
      cluster: 'prod',
      // The root disk every road gets from the provider's properties: a DataVolume of the image.
      shape: { ...t.resources!, disk: ROOT_DISK },
      image: IMAGE,
      count: 1,
      ...(t.vm ? { vm: t.vm } : {}),
    })),
    nodeProviders: [
      {
        name: 'virt',
        kind: 'kubevirt',
        fleet: FLEET,
        nodeTypes: ROAD_TYPES,
      },
    ],
    autoNodes: [
      {
        cluster: 'prod',
        provider: 'virt',
        quota: 'team-a',
        // vCluster's KubeVirt properties: every node a DataVolume root disk of this image (Cluster API too,
        // whose provider otherwise boots its own kubeadm image from a container disk).
        properties: { 'kubevirt.vcluster.com/root-disk-size': ROOT_DISK, 'kubevirt.vcluster.com/image-url': `docker://${IMAGE}` },
        static: ROAD_TYPES.map((t) => ({ name: `static-${t.name}`, quantity: 1, requirements: typeSelector(t.name) })),
        dynamic: ROAD_TYPES.map((t) => ({
          name: `capi-${t.name}`,
          autoscaler: 'cluster-api' as const,
          requirements: typeSelector(t.name),
          limits: { nodes: 1 },
        })),
      },
    ],
  };
}

/** Each type's VM spec as three of the roads write it (the fourth, HCL, is evaluated by OpenTofu from `templateVars`). */
export interface RoadSpecs {
  readonly type: string;
  readonly elastic: Record<string, unknown>;
  readonly static: Record<string, unknown>;
  readonly clusterApi: Record<string, unknown>;
}

/** The plan of roadsModel(); throws when it does not plan (the test config must). */
export function roadsPlan(): Plan {
  const plan = planModel(roadsModel());
  if (!plan.ok) throw new Error(`the four-roads config does not plan: ${JSON.stringify(plan.errors)}`);
  return plan;
}

/** The VirtualMachines the constructs' roads write for each type (elastic, static) and the Cluster API template's VM. */
export function roadSpecs(plan: Plan): RoadSpecs[] {
  return ROAD_TYPES.map((t) => {
    const vmOf = (pool: string) => plan.vms.find((v) => v.pool === pool || v.pool === `prod-${pool}`)!;
    // The user data Secret as every road names it: `<node>-cloudinit`.
    const render = (vm: PlannedVm) => renderVirtualMachine(vm, { userDataSecret: `${vm.name}-cloudinit`, hostSelector: HOST_SELECTOR });
    const elastic = render(vmOf(`elastic-${t.name}`));
    const staticVm = render(vmOf(`static-${t.name}`));
    const capiPool = plan.autoPools.find((p) => p.name === `capi-${t.name}`)!;
    const capi = renderClusterApiPool(capiPool, {
      namespace: 'acme-team-a',
      vm: plan.vms.find((v) => v.poolPath === capiPool.path),
      hostSelector: HOST_SELECTOR,
    });
    const template = capi.machineTemplate.spec as { template: { spec: { virtualMachineTemplate: { spec: Record<string, unknown> } } } };
    return { type: t.name, elastic, static: staticVm, clusterApi: template.template.spec.virtualMachineTemplate.spec };
  });
}

/** The kubevirt node template's variables for the provider of roadsModel(). */
export function templateVars(plan: Plan): unknown {
  const vars = nodeTemplateVars(plan, roadsModel(), 'virt');
  if (!vars.ok) throw new Error(JSON.stringify(vars.errors));
  return vars.vars;
}

interface VmLike {
  spec: {
    dataVolumeTemplates?: { metadata: { name: string } }[];
    template: { metadata?: unknown; spec: { domain: { devices: { disks: { name: string }[] } }; volumes: Record<string, unknown>[]; [k: string]: unknown } };
    [k: string]: unknown;
  };
}

/**
 * A VirtualMachine's spec without what a claim brings: the object's metadata, the launcher's labels, the
 * cloud-init disk and volume (ours `cloudinit`; Cluster API's provider adds `cloudinitvolume`), the claim's
 * name before DataVolume names, the host pin or spread, and the eviction a pin forces. What is left is what
 * the node type and the fleet decide, and must be the same on every road.
 */
export function claimFree(vm: unknown, claimName?: string): unknown {
  const copy = structuredClone(vm) as VmLike | VmLike['spec'];
  const spec = 'spec' in copy && 'template' in (copy as VmLike).spec ? (copy as VmLike).spec : (copy as VmLike['spec']);
  const unprefix = (name: string) => (claimName && name.startsWith(`${claimName}-`) ? name.slice(claimName.length + 1) : name);
  for (const t of spec.dataVolumeTemplates ?? []) t.metadata = { name: unprefix(t.metadata.name) };
  delete spec.template.metadata;
  const t = spec.template.spec;
  t.domain.devices.disks = t.domain.devices.disks.filter((d) => !d.name.startsWith('cloudinit'));
  t.volumes = t.volumes
    .filter((v) => !String(v.name).startsWith('cloudinit'))
    .map((v) => ('dataVolume' in v ? { ...v, dataVolume: { name: unprefix((v.dataVolume as { name: string }).name) } } : v));
  delete t.affinity;
  delete t.topologySpreadConstraints;
  return spec;
}
