/**
 * Configs for `metalslice verify` tests and its benchmark, generated deterministically.
 */
import { MetalsliceConfig, NodePoolSpec } from '../constructs/core/input/model';
import { Plan } from '../constructs/core/plan';
import { PlannedVm } from '../constructs/core/vm/vm';
import { clusterSpecs, tenantCa } from './scale-fixtures';

const SHAPES = [
  { name: 's', guest: { cpu: 2, memory: 4, disk: 20 }, perHost: 4 },
  { name: 'm', guest: { cpu: 4, memory: 16, disk: 40 }, perHost: 3 },
  { name: 'l', guest: { cpu: 8, memory: 32, disk: 80 }, perHost: 2 },
  { name: 'xl', guest: { cpu: 16, memory: 64, disk: 100 }, perHost: 1 },
] as const;

/**
 * `hosts` hosts of 64 CPU / 512Gi and 10 VMs per host (4 s, 3 m, 2 l, 1 xl: 52 of 62 allocatable CPUs), in
 * one pool per shape and quota, so pools have mixed shapes and counts; every 7th pool is pinned to its
 * planned hosts. Each pool has fewer VMs than there are hosts, so the spread proof cannot hold (every pool
 * could put a VM on the same host) and the plan pins them all. `hosts` must be a multiple of `quotas`.
 */
export function scaleConfig(hosts: number, quotas: number, clusters = 5): MetalsliceConfig {
  const pools: NodePoolSpec[] = [];
  for (const shape of SHAPES) {
    for (let q = 0; q < quotas; q++) {
      const p = pools.length;
      pools.push({
        name: `p-${shape.name}-${q}`,
        quota: `q-${q}`,
        cluster: `tenant-${p % clusters}`,
        shape: { cpu: shape.guest.cpu, memory: `${shape.guest.memory}Gi`, disk: `${shape.guest.disk}Gi` },
        count: (hosts * shape.perHost) / quotas,
        placement: p % 7 === 0 ? 'planned' : 'spread',
      });
    }
  }
  // Each quota holds one pool of each shape; limits leave 15 % room above the guests (launcher overheads).
  const per = (r: 'cpu' | 'memory' | 'disk') => SHAPES.reduce((n, s) => n + (s.guest[r] * hosts * s.perHost) / quotas, 0);
  return {
    fleets: [
      {
        name: 'bench',
        reservedPerHost: { cpu: 2, memory: '8Gi', disk: '100Gi' },
        hosts: Array.from({ length: hosts }, (_, i) => ({
          name: `host-${String(i).padStart(4, '0')}`,
          labels: { zone: `z${i % 3}` },
          capacity: { cpu: 64, memory: '512Gi', disk: '3840Gi' },
        })),
      },
    ],
    quotas: Array.from({ length: quotas }, (_, q) => ({
      name: `q-${q}`,
      fleet: 'bench',
      organization: `org-${q % 5}`,
      limits: { cpu: Math.ceil(per('cpu') * 1.15), memory: `${Math.ceil(per('memory') * 1.15)}Gi`, disk: `${Math.ceil(per('disk') * 1.15)}Gi` },
    })),
    clusters: clusterSpecs(clusters, tenantCa()),
    nodePools: pools,
  };
}

/**
 * `hosts` hosts of 64 CPU / 512Gi and 10 VMs per host in five fleet-wide pools over two quotas, every count a
 * multiple of the host count, so every pool stays spread (kube-scheduler places every VM) and the plan's
 * spread proof holds: per host at most 5 s, 2 m, 2 l and 1 xl (50 of 62 allocatable CPUs).
 */
export function spreadScaleConfig(hosts: number, clusters = 2): MetalsliceConfig {
  const shape = (name: (typeof SHAPES)[number]['name']) => {
    const g = SHAPES.find((s) => s.name === name)!.guest;
    return { cpu: g.cpu, memory: `${g.memory}Gi`, disk: `${g.disk}Gi` };
  };
  const pools: NodePoolSpec[] = [
    { name: 'web', quota: 'q-0', cluster: 'tenant-0', shape: shape('s'), count: 4 * hosts },
    { name: 'api', quota: 'q-0', cluster: 'tenant-0', shape: shape('m'), count: 2 * hosts },
    { name: 'batch', quota: 'q-1', cluster: `tenant-${1 % clusters}`, shape: shape('l'), count: 2 * hosts },
    { name: 'db', quota: 'q-1', cluster: `tenant-${1 % clusters}`, shape: shape('xl'), count: hosts },
    { name: 'edge', quota: 'q-1', cluster: `tenant-${1 % clusters}`, shape: shape('s'), count: hosts },
  ];
  return {
    fleets: [
      {
        name: 'bench',
        reservedPerHost: { cpu: 2, memory: '8Gi', disk: '100Gi' },
        hosts: Array.from({ length: hosts }, (_, i) => ({
          name: `host-${String(i).padStart(4, '0')}`,
          labels: { zone: `z${i % 3}` },
          capacity: { cpu: 64, memory: '512Gi', disk: '3840Gi' },
        })),
      },
    ],
    quotas: [
      { name: 'q-0', fleet: 'bench', organization: 'org-0', limits: { cpu: 17 * hosts, memory: `${56 * hosts}Gi`, disk: `${170 * hosts}Gi` } },
      { name: 'q-1', fleet: 'bench', organization: 'org-1', limits: { cpu: 35 * hosts, memory: `${140 * hosts}Gi`, disk: `${290 * hosts}Gi` } },
    ],
    clusters: clusterSpecs(clusters, tenantCa()),
    nodePools: pools,
  };
}

/**
 * The large-last case that stays spread: 6 hosts of 15 allocatable CPUs, 30 small VMs (1 vCPU) listed before
 * 6 large ones (8 vCPUs). Any order: at most 5 small and 1 large per host (13 vCPUs).
 */
export function mixedSpreadKeptConfig(): MetalsliceConfig {
  return {
    fleets: [
      {
        name: 'six',
        reservedPerHost: { cpu: '990m', memory: '7867Mi', disk: '100Gi' }, // with virt-handler's 10m and 325Mi, a round 1 or 2 CPUs and 8Gi per host
        hosts: Array.from({ length: 6 }, (_, i) => ({ name: `six-${i}`, labels: {}, capacity: { cpu: 16, memory: '128Gi', disk: '2Ti' } })),
      },
    ],
    quotas: [{ name: 'sq', fleet: 'six', organization: 'acme', limits: { cpu: 90, memory: '720Gi', disk: '11Ti' }, liveMigrations: 0 }],
    clusters: clusterSpecs(1, tenantCa()),
    nodePools: [
      { name: 'small', quota: 'sq', cluster: 'tenant-0', shape: { cpu: 1, memory: '2Gi', disk: '20Gi' }, count: 30 },
      { name: 'large', quota: 'sq', cluster: 'tenant-0', shape: { cpu: 8, memory: '32Gi', disk: '50Gi' }, count: 6 },
    ],
  };
}

/** A small fleet and one spread pool that exactly fills it by CPU: 2 hosts of 16 allocatable CPUs, 4 VMs of 7 vCPUs. */
export function fullFleetConfig(): MetalsliceConfig {
  return {
    fleets: [
      {
        name: 'tight',
        reservedPerHost: { cpu: '1990m', memory: '7867Mi', disk: '100Gi' }, // with virt-handler's 10m and 325Mi, a round 1 or 2 CPUs and 8Gi per host
        hosts: [0, 1].map((i) => ({ name: `tight-${i}`, labels: { zone: `z${i}` }, capacity: { cpu: 18, memory: '136Gi', disk: '2Ti' } })),
      },
    ],
    quotas: [{ name: 'tq', fleet: 'tight', organization: 'acme', limits: { cpu: 32, memory: '256Gi', disk: '3Ti' }, liveMigrations: 0 }],
    clusters: clusterSpecs(1, tenantCa()),
    nodePools: [{ name: 'fill', quota: 'tq', cluster: 'tenant-0', shape: { cpu: 7, memory: '16Gi', disk: '50Gi' }, count: 4 }],
  };
}

/**
 * The fleet for host groups: 6 hosts of 64 allocatable CPUs, pools of 4 x 16, 3 x 24 and 2 x 40 vCPUs
 * (56 % of the fleet). A fleet-wide spread cannot be proven, pinning costs live migration: the plan groups them.
 */
export function migrationFleetConfig(): MetalsliceConfig {
  const shape = (cpu: number) => ({ cpu, memory: `${cpu * 2}Gi`, disk: '50Gi' });
  return {
    fleets: [
      {
        name: 'mig',
        // With virt-handler's 10m and 325Mi: 64 CPUs and 256Gi per host for VMs.
        reservedPerHost: { cpu: '990m', memory: '7867Mi', disk: '100Gi' },
        hosts: Array.from({ length: 6 }, (_, i) => ({ name: `mig-${i}`, capacity: { cpu: 65, memory: '264Gi', disk: '2Ti' } })),
      },
    ],
    quotas: [{ name: 'mq', fleet: 'mig', organization: 'acme', limits: { cpu: 300, memory: '1Ti', disk: '4Ti' } }],
    clusters: clusterSpecs(1, tenantCa()),
    nodePools: [
      { name: 'p16', quota: 'mq', cluster: 'tenant-0', shape: shape(16), count: 4 },
      { name: 'p24', quota: 'mq', cluster: 'tenant-0', shape: shape(24), count: 3 },
      { name: 'p40', quota: 'mq', cluster: 'tenant-0', shape: shape(40), count: 2 },
    ],
  };
}

/** The same pools on seven such hosts: room enough that every pool proves a whole drain (any host, all its VMs). */
export function drainFleetConfig(): MetalsliceConfig {
  const config = migrationFleetConfig();
  const [fleet] = config.fleets!;
  const hosts = [...fleet.hosts!, { ...fleet.hosts![0], name: 'mig-6' }];
  return { ...config, fleets: [{ ...fleet, hosts }] };
}

/** One more VM of a pool beyond the plan: the next index, no host (the planner never placed it). */
export function extraVmOf(plan: Pick<Plan, 'vms'>, pool: string): PlannedVm {
  const vms = plan.vms.filter((vm) => vm.pool === pool && vm.concrete);
  const last = vms[vms.length - 1];
  if (!last) throw new Error(`no VMs in pool ${pool}`);
  const index = Math.max(...vms.map((vm) => vm.index)) + 1;
  const { host: _host, ...rest } = last;
  void _host;
  return { ...rest, name: `${pool}-extra-${index}`, index };
}

/**
 * Spread pools of mixed sizes where the plan fits only by packing: 4 hosts of 33 allocatable CPUs; 16 small
 * VMs (2 vCPUs) and 6 large ones (16 vCPUs). The planner puts two large VMs on two hosts and one large plus
 * eight small on the others; the small pool is listed first, so in deploy order the large VMs come last.
 * Spread as declared, kube-scheduler left 2 of the 6 large VMs pending; the spread proof now pins both pools.
 */
export function mixedSpreadConfig(): MetalsliceConfig {
  const pools: NodePoolSpec[] = [
    { name: 'small', quota: 'mq', cluster: 'tenant-0', shape: { cpu: 2, memory: '4Gi', disk: '20Gi' }, count: 16 },
    { name: 'large', quota: 'mq', cluster: 'tenant-0', shape: { cpu: 16, memory: '32Gi', disk: '100Gi' }, count: 6 },
  ];
  return {
    fleets: [
      {
        name: 'mixed',
        reservedPerHost: { cpu: '990m', memory: '7867Mi', disk: '100Gi' }, // with virt-handler's 10m and 325Mi, a round 1 or 2 CPUs and 8Gi per host
        hosts: [0, 1, 2, 3].map((i) => ({ name: `mixed-${i}`, labels: {}, capacity: { cpu: 34, memory: '264Gi', disk: '2Ti' } })),
      },
    ],
    quotas: [{ name: 'mq', fleet: 'mixed', organization: 'acme', limits: { cpu: 132, memory: '1Ti', disk: '7Ti' }, liveMigrations: 0 }],
    clusters: clusterSpecs(1, tenantCa()),
    nodePools: pools,
  };
}
