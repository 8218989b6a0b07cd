/**
 * The instances of the scale benchmark, generated deterministically (no randomness, no files):
 * a fleet of three hardware kinds and VMs of six shapes, sized so that everything fits by construction.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ClusterSpec, HostSpec, MetalsliceConfig, NodePoolSpec, QuotaSpec } from '../constructs/core/input/model';
import { buildVm, plainFleetKubevirt } from '../constructs/core/vm/vm';
import { Quantity } from '../constructs/core/base/quantity';
import {
  addResources,
  exceededResources,
  get,
  normalizeResources,
  parseResources,
  ResourceInput,
  ResourceVector,
  scaleResources,
  subtractResources,
} from '../constructs/core/base/resources';

export const RESERVED_PER_HOST: ResourceInput = { cpu: 2, memory: '8Gi', disk: '100Gi' };

export interface Shape {
  readonly name: string;
  readonly guest: ResourceInput;
}

export const SHAPES: readonly Shape[] = [
  { name: 's', guest: { cpu: 2, memory: '4Gi', disk: '40Gi' } },
  { name: 'm', guest: { cpu: 4, memory: '16Gi', disk: '80Gi' } },
  { name: 'l', guest: { cpu: 8, memory: '32Gi', disk: '100Gi' } },
  { name: 'xl', guest: { cpu: 16, memory: '64Gi', disk: '200Gi' } },
  { name: 'mem', guest: { cpu: 8, memory: '64Gi', disk: '100Gi' } },
  { name: 'hm', guest: { cpu: 16, memory: '128Gi', disk: '200Gi' } },
];

export interface HostKind {
  readonly name: string;
  readonly capacity: ResourceInput;
  /** Share of the fleet's hosts of this kind. */
  readonly share: number;
  /**
   * VMs per host of this kind (shape name -> count) that provably fit one host: the witness that makes
   * the 10,000-VM instance feasible. About 80% of the CPU, so the instance is realistic, not trivial.
   */
  readonly recipe: Readonly<Record<string, number>>;
}

export const HOST_KINDS: readonly HostKind[] = [
  { name: 'compute', capacity: { cpu: 64, memory: '512Gi', disk: '3840Gi' }, share: 0.5, recipe: { s: 4, m: 3, l: 2, xl: 1 } },
  { name: 'dense', capacity: { cpu: 128, memory: '1Ti', disk: '7680Gi' }, share: 0.3, recipe: { s: 3, m: 2, l: 3, xl: 4 } },
  { name: 'highmem', capacity: { cpu: 96, memory: '1536Gi', disk: '7680Gi' }, share: 0.2, recipe: { l: 1, mem: 3, hm: 3 } },
];

/** What one VM of the guest shape takes from its host, as the planner counts it. */
function footprintOf(guest: ResourceInput): ResourceVector {
  const vm = buildVm(normalizeResources(parseResources(guest, 'shape')), {}, 'dataVolume', plainFleetKubevirt(), { options: 'vm', shape: 'shape' }, []);
  if (!vm) throw new Error(`bench: shape ${JSON.stringify(guest)} is not a valid VM`);
  return normalizeResources(vm.hostDemand);
}

/** `count` hosts split over the hardware kinds by share, in kind order, named `<kind>-<nnnn>`. */
export function fleetHosts(count: number): { hosts: HostSpec[]; perKind: Map<HostKind, number> } {
  const hosts: HostSpec[] = [];
  const perKind = new Map<HostKind, number>();
  let left = count;
  HOST_KINDS.forEach((kind, i) => {
    const n = i === HOST_KINDS.length - 1 ? left : Math.round(count * kind.share);
    left -= n;
    perKind.set(kind, n);
    for (let j = 0; j < n; j++) {
      hosts.push({
        name: `${kind.name}-${String(j).padStart(4, '0')}`,
        labels: { 'metalslice.io/hardware': kind.name, zone: `z${j % 3}` },
        capacity: kind.capacity,
      });
    }
  });
  return { hosts, perKind };
}

/** Checks that every recipe fits its host kind (after the reservation), footprints included. */
export function checkRecipes(): void {
  const reserved = parseResources(RESERVED_PER_HOST, 'reserved');
  for (const kind of HOST_KINDS) {
    const allocatable = normalizeResources(subtractResources(parseResources(kind.capacity, kind.name), reserved));
    let used: ResourceVector = {};
    for (const [shape, n] of Object.entries(kind.recipe)) used = addResources(used, scaleResources(footprintOf(shapeNamed(shape).guest), n));
    // Only what the planner places these hosts by: they report no ephemeral storage, and kubelet's 110 pods are far off.
    const over = exceededResources(used, allocatable).filter((r) => r !== 'ephemeral-storage' && r !== 'pods');
    if (over.length > 0) throw new Error(`bench recipe for ${kind.name} does not fit one host: ${over.join(', ')}`);
  }
}

function shapeNamed(name: string): Shape {
  const shape = SHAPES.find((s) => s.name === name);
  if (!shape) throw new Error(`no shape ${name}`);
  return shape;
}

/**
 * The example's throwaway tenant CA (public; the key was never kept), from the repository this bench runs in
 * (bench/ or dist/bench/): the nearest ancestor with examples/. It looked for package.json before and, with none
 * above, looped at the root for ever.
 */
export function tenantCa(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'examples', 'team-a-prod-ca.crt');
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    if (path.dirname(dir) === dir)
      throw new Error(`examples/team-a-prod-ca.crt is in no directory above ${__dirname}: run the bench from the metalslice repository`);
  }
}

export function clusterSpecs(count: number, ca: string): ClusterSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tenant-${i}`,
    endpoint: `https://10.0.${i}.10:6443`,
    caCertificate: ca,
    kubernetesVersion: '1.33',
    bootstrap: { mode: 'preinstalled', kubernetes: '1.33.7' },
  }));
}

/** Rounds a quota's demand up to whole CPUs and GiB, the way someone writing limits would. */
function limitsFor(demand: ResourceVector): ResourceInput {
  const gib = (name: string) => `${(get(demand, name).ceilUnits() + (1n << 30n) - 1n) >> 30n}Gi`;
  return { cpu: Number(get(demand, 'cpu').ceilUnits()), memory: gib('memory'), disk: gib('disk') };
}

/** Quotas sized to exactly hold their pools (rounded up): pools[i] draws from quota i % quotas. */
/** Each resource at the larger of the two. */
function maxResources(a: ResourceVector, b: ResourceVector): ResourceVector {
  const out: Record<string, Quantity> = { ...a };
  for (const [k, v] of Object.entries(b)) if (!out[k] || out[k].cmp(v) < 0) out[k] = v;
  return out;
}

export function quotasFor(pools: readonly Omit<NodePoolSpec, 'quota'>[], quotaCount: number, fleet: string): { quotas: QuotaSpec[]; quotaOf: string[] } {
  const demand: ResourceVector[] = Array.from({ length: quotaCount }, () => ({}));
  // Room for one live migration (the quota's default): a second launcher pod of its largest VM.
  const migration: ResourceVector[] = Array.from({ length: quotaCount }, () => ({}));
  const quotaOf = pools.map((pool, i) => {
    const q = i % quotaCount;
    const one = footprintOf(pool.shape);
    demand[q] = addResources(demand[q], scaleResources(one, pool.count));
    migration[q] = maxResources(migration[q], one);
    return `q-${q}`;
  });
  const quotas = demand.map((d, q) => ({
    name: `q-${q}`,
    fleet,
    organization: `org-${q % 20}`,
    limits: limitsFor(normalizeResources(addResources(d, migration[q]))),
  }));
  return { quotas, quotaOf };
}

/**
 * Case 1: 10,000 VMs (six shapes) in pools of 10 to 90 VMs over 50 quotas and 10 tenant clusters, on
 * 1,000 hosts of three kinds. The VM counts per shape are what the host recipes hold, so the instance
 * is feasible by construction (every host filled by its recipe is a placement of all VMs).
 */
export function planInstance(hostCount = 1000, quotaCount = 50, clusterCount = 10): { model: MetalsliceConfig; vms: number } {
  checkRecipes();
  const { hosts, perKind } = fleetHosts(hostCount);
  const perShape = new Map<string, number>();
  for (const [kind, n] of perKind) for (const [shape, k] of Object.entries(kind.recipe)) perShape.set(shape, (perShape.get(shape) ?? 0) + k * n);
  const pools: Omit<NodePoolSpec, 'quota'>[] = [];
  let p = 0;
  for (const shape of SHAPES) {
    let left = perShape.get(shape.name) ?? 0;
    while (left > 0) {
      const count = Math.min(left, 10 + ((p * 37) % 81));
      left -= count;
      pools.push({
        name: `p-${shape.name}-${p}`,
        cluster: `tenant-${p % clusterCount}`,
        shape: shape.guest,
        count,
        // Some pools pin their VMs to the planned hosts, the rest let kube-scheduler spread them.
        placement: p % 7 === 0 ? 'planned' : 'spread',
      });
      p++;
    }
  }
  const { quotas, quotaOf } = quotasFor(pools, quotaCount, 'bench');
  const vms = pools.reduce((n, pool) => n + pool.count, 0);
  return {
    model: {
      fleets: [{ name: 'bench', reservedPerHost: RESERVED_PER_HOST, hosts }],
      quotas,
      clusters: clusterSpecs(clusterCount, tenantCa()),
      nodePools: pools.map((pool, i) => ({ ...pool, quota: quotaOf[i] })),
    },
    vms,
  };
}

/** Case 2's pools: `pools` pools of `perPool` nodes, shapes in turn; well within the fleet. */
export function synthPools(pools: number, perPool: number, clusterCount: number): Omit<NodePoolSpec, 'quota'>[] {
  return Array.from({ length: pools }, (_, p) => ({
    name: `pool-${p}`,
    cluster: `tenant-${p % clusterCount}`,
    shape: SHAPES[p % SHAPES.length].guest,
    count: perPool,
    placement: p % 7 === 0 ? ('planned' as const) : ('spread' as const),
  }));
}
