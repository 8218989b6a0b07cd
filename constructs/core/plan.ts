/**
 * The capacity planner: from the model (config or constructs) to a proof that every quota and pool fits,
 * down to the host each VM can land on. Pure: no cdktf, no I/O.
 *
 * Steps: check names and references; fleet capacity = per-host capacity - reservedPerHost; quotas must
 * fit their fleet by sums; pools must fit their quota by sums (VM footprints include KubeVirt overhead);
 * then every VM of every pool is placed on a host at once (vector bin packing), so a plan that fits by
 * sums but not by placement is caught.
 */
import { X509Certificate } from 'crypto';
import { AutoNodesSourcePath, NodeEnvironmentRef, planAutoNodes, PlannedAutoPool } from './auto-nodes';
import { childPath, IssueCollector, PlanIssue } from './errors';
import { AutoNodesSpec, ClusterSpec, FleetSpec, HostSpec, MetalsliceConfig, NodePoolSpec, PrivateNodePoolSpec, QuotaSpec } from './model';
import { NodeProvider, parseNodeProviders } from './node-types';
import { PoolPreview, previewDynamicPool } from './preview';
import { dns1123LabelProblem, labelKeyProblem, labelValueProblem } from './names';
import { vcpusOf, virtLauncherMemoryOverhead, vmFootprint } from './overhead';
import { placeOnHosts } from './packing';
import { Quantity } from './quantity';
import {
  addResources,
  exceededResources,
  formatResources,
  get,
  normalizeResources,
  parseResources,
  resourceNames,
  ResourceVector,
  scaleResources,
  subtractResources,
  sumResources,
} from './resources';

/** Where each entry of the model came from, for error paths: config paths or construct paths. */
export type ModelPaths = { readonly [K in keyof MetalsliceConfig]?: readonly string[] };

export interface PlanOptions {
  readonly paths?: ModelPaths;
}

export interface PlannedHost {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly capacity: ResourceVector;
  /** capacity - reservedPerHost */
  readonly allocatable: ResourceVector;
}

export interface PlannedFleet {
  readonly name: string;
  readonly path: string;
  readonly spec: FleetSpec;
  readonly hosts: readonly PlannedHost[];
  readonly capacity: ResourceVector;
  readonly cpuAllocationRatio: number;
}

export interface PlannedQuota {
  readonly name: string;
  readonly path: string;
  readonly spec: QuotaSpec;
  readonly fleet: string;
  readonly namespace: string;
  readonly limits: ResourceVector;
}

export interface PlannedCluster {
  readonly name: string;
  readonly path: string;
  readonly spec: ClusterSpec;
  readonly kubernetesVersion: string;
}

export interface PlannedNode {
  /** VM / object name, unique in its namespace; stable when the pool scales. */
  readonly name: string;
  /** The host the planner found room on; undefined when it could not be placed. */
  readonly host?: string;
}

export interface PlannedPool {
  readonly kind: 'elastic';
  readonly name: string;
  readonly path: string;
  readonly spec: NodePoolSpec;
  readonly quota: string;
  readonly fleet: string;
  readonly cluster: string;
  readonly namespace: string;
  readonly nodeType: string;
  /** The guest: what each VM is given. */
  readonly shape: ResourceVector;
  /** What each VM costs its host and quota (guest + virt-launcher overhead). */
  readonly footprint: ResourceVector;
  readonly nodes: readonly PlannedNode[];
}

/** The plan as reported (`metalslice plan --json`, metalslice-plan.json): plain JSON, stable order. */
export interface PlanReport {
  readonly ok: boolean;
  readonly errors: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
  readonly fleets: readonly {
    name: string;
    hosts: number;
    capacity: Record<string, string>;
    allocated: Record<string, string>;
    free: Record<string, string>;
    quotaLimits: Record<string, string>;
  }[];
  readonly quotas: readonly {
    name: string;
    fleet: string;
    organization: string;
    namespace: string;
    limits: Record<string, string>;
    allocated: Record<string, string>;
    virtualMachines: number;
  }[];
  readonly pools: readonly {
    name: string;
    kind: string;
    cluster: string;
    quota?: string;
    fleet?: string;
    nodeType: string;
    provider?: string;
    shape: Record<string, string>;
    footprint: Record<string, string>;
    nodes: { name: string; host: string | null; nodeType: string }[];
    /** Auto-node pools: the matching types, cheapest first (the Karpenter instance types). */
    candidates?: { nodeType: string; cost: number }[];
    /** Auto-node pools: every type that lost, and why. */
    rejected?: { nodeType: string; reason: string }[];
    /** Dynamic pools with `preview` pods: the nodes they would create, at least cost. */
    preview?: PoolPreview;
  }[];
  /** Node environments: one per (tenant cluster x provider) pair in use. */
  readonly environments?: readonly { cluster: string; provider: string }[];
}

export interface Plan {
  readonly ok: boolean;
  readonly errors: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
  readonly fleets: readonly PlannedFleet[];
  readonly quotas: readonly PlannedQuota[];
  readonly clusters: readonly PlannedCluster[];
  readonly pools: readonly PlannedPool[];
  /** Static and dynamic auto-node pools, and private (metal3) node pools, as planned. */
  readonly autoPools: readonly PlannedAutoPool[];
  /** Private node pools, each with the auto pool that plans it. */
  readonly privatePools: readonly { readonly spec: PrivateNodePoolSpec; readonly path: string; readonly pool: PlannedAutoPool }[];
  readonly nodeProviders: readonly NodeProvider[];
  readonly environments: readonly NodeEnvironmentRef[];
  readonly report: PlanReport;
}

export const DEFAULT_KUBERNETES_VERSION = '1.33';

function pathOf(paths: ModelPaths | undefined, kind: keyof MetalsliceConfig, index: number): string {
  return paths?.[kind]?.[index] ?? `${kind}[${index}]`;
}

/** Checks that names are DNS-1123 labels and unique within their kind. */
function checkNames<T extends { name: string }>(items: readonly T[], kind: keyof MetalsliceConfig, paths: ModelPaths | undefined, issues: IssueCollector, maxLength = 63): Map<string, number> {
  const index = new Map<string, number>();
  items.forEach((item, i) => {
    const at = pathOf(paths, kind, i);
    const problem = dns1123LabelProblem(item.name, maxLength);
    if (problem) issues.add(`${at}.name`, `"${item.name}" ${problem}`);
    const first = index.get(item.name);
    if (first !== undefined) issues.add(`${at}.name`, `"${item.name}" is already used by ${pathOf(paths, kind, first)}: names must be unique`);
    else index.set(item.name, i);
  });
  return index;
}

function checkLabels(labels: Readonly<Record<string, string>> | undefined, at: string, issues: IssueCollector): void {
  for (const [key, value] of Object.entries(labels ?? {})) {
    const keyProblem = labelKeyProblem(key);
    if (keyProblem) issues.add(childPath(at, key), `label key "${key}": ${keyProblem}`);
    const valueProblem = labelValueProblem(value);
    if (valueProblem) issues.add(childPath(at, key), `label value "${value}": ${valueProblem}`);
  }
}

function unknownReference(kind: string, name: string, known: Iterable<string>): string {
  const list = [...known];
  return `no ${kind} named "${name}"; ${list.length > 0 ? `known: ${list.join(', ')}` : `declare one under ${kind}s`}`;
}

function planFleet(spec: FleetSpec, at: string, issues: IssueCollector): PlannedFleet | undefined {
  const reserved = issues.capture(() => parseResources(spec.reservedPerHost ?? {}, `${at}.reservedPerHost`)) ?? {};
  const hostSpecs: readonly HostSpec[] = spec.hosts ?? [];
  if (hostSpecs.length === 0) issues.add(`${at}.hosts`, 'a fleet needs at least one host: list hosts or point hostsFile at an inventory');
  const hostIndex = new Map<string, number>();
  const hosts: PlannedHost[] = [];
  hostSpecs.forEach((h, i) => {
    const hostAt = `${at}.hosts[${i}]`;
    const problem = dns1123LabelProblem(h.name, 253);
    if (problem && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(h.name)) issues.add(`${hostAt}.name`, `"${h.name}" is not a valid node name: use lower-case letters, digits, "-" and "."`);
    if (hostIndex.has(h.name)) issues.add(`${hostAt}.name`, `host "${h.name}" is listed twice (first at ${at}.hosts[${hostIndex.get(h.name)}])`);
    hostIndex.set(h.name, i);
    checkLabels(h.labels, `${hostAt}.labels`, issues);
    if (spec.hostSelector && !Object.entries(spec.hostSelector).every(([k, v]) => h.labels?.[k] === v)) return;
    const capacity = issues.capture(() => normalizeResources(parseResources(h.capacity, `${hostAt}.capacity`)));
    if (!capacity) return;
    for (const need of ['cpu', 'memory'] as const) {
      if (get(capacity, need).isZero()) issues.add(`${hostAt}.capacity.${need}`, `host "${h.name}" has no ${need}: give its capacity, e.g. cpu: 64, memory: 512Gi`);
    }
    const short = exceededResources(reserved, capacity);
    if (short.length > 0) {
      issues.add(`${at}.reservedPerHost`, `reserves more ${short.join(', ')} than host "${h.name}" has (${short.map((r) => `${get(capacity, r)}`).join(', ')}): lower the reservation or remove the host`);
      return;
    }
    hosts.push({ name: h.name, labels: h.labels ?? {}, capacity, allocatable: normalizeResources(subtractResources(capacity, reserved)) });
  });
  checkLabels(spec.hostSelector, `${at}.hostSelector`, issues);
  const ratio = spec.cpuAllocationRatio ?? 1;
  return { name: spec.name, path: at, spec, hosts, capacity: normalizeResources(sumResources(hosts.map((h) => h.allocatable))), cpuAllocationRatio: ratio };
}

function planCluster(spec: ClusterSpec, at: string, issues: IssueCollector): PlannedCluster {
  if (!/^https:\/\/[^/\s:]+(:\d{1,5})?\/?$/.test(spec.endpoint)) {
    issues.add(`${at}.endpoint`, `"${spec.endpoint}" is not an API server URL: write https://HOST:PORT, e.g. https://10.0.0.10:6443`);
  }
  try {
    const cert = new X509Certificate(spec.caCertificate);
    if (!cert.ca) issues.add(`${at}.caCertificate`, 'is not a CA certificate (basicConstraints CA:FALSE): give the cluster CA, /etc/kubernetes/pki/ca.crt');
  } catch {
    issues.add(`${at}.caCertificate`, 'is not a PEM certificate: paste the tenant cluster CA (/etc/kubernetes/pki/ca.crt), starting with -----BEGIN CERTIFICATE-----');
  }
  return { name: spec.name, path: at, spec, kubernetesVersion: spec.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION };
}

/** The vector dimensions placement works in, as safe integers: millicores, bytes, units. */
function toDimensions(v: ResourceVector, names: readonly string[], roundUp: boolean): number[] {
  return names.map((name) => {
    const q = get(v, name);
    const whole = name === 'cpu' ? q.ceilMillis() : q.ceilUnits();
    // Capacities round down, demands round up: the rounding never makes a host look bigger than it is.
    const exact = name === 'cpu' ? q.nano % 1_000_000n === 0n : q.nano % 1_000_000_000n === 0n;
    const value = roundUp || exact ? whole : whole - 1n;
    return Number(value);
  });
}

function describeShape(v: ResourceVector): string {
  return Object.entries(formatResources(v))
    .map(([k, q]) => `${k}: ${q}`)
    .join(', ');
}

/** The biggest guest that still fits on one host, given what is free there: memory less the VM overhead. */
function largestGuest(free: readonly ResourceVector[]): ResourceVector | undefined {
  let best: ResourceVector | undefined;
  let bestScore = -1;
  for (const f of free) {
    const cpu = get(f, 'cpu');
    const vcpus = cpu.ceilUnits() * 1_000_000_000n === cpu.nano ? Number(cpu.ceilUnits()) : Number(cpu.ceilUnits()) - 1;
    if (vcpus < 1) continue;
    const overhead = virtLauncherMemoryOverhead(get(f, 'memory'), { vcpus });
    const memory = get(f, 'memory').sub(overhead);
    if (memory.isNegative() || memory.isZero()) continue;
    const guest = normalizeResources({ ...f, cpu: Quantity.fromUnits(vcpus), memory: Quantity.fromBytes(memory.ceilUnits() & ~((1n << 20n) - 1n)) });
    const score = vcpus * 1e6 + get(guest, 'memory').toGiB();
    if (score > bestScore) {
      best = guest;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Places VMs so that pinned nodes (placement: planned) keep their host when pools scale: they go first,
 * one by one in (pool, index) order, each to the host with the fewest nodes of its pool that has room,
 * so a node's host depends only on the nodes before it. The other VMs are then packed around them by the
 * placement engine. Only if that leaves VMs without a host is everything re-packed together.
 */
function placeStably(hostCaps: number[][], items: readonly { size: number[]; group: number; pinned: boolean }[]): { hostOf: number[]; unplaced: number[] } {
  const free = hostCaps.map((c) => [...c]);
  const hostOf = items.map(() => -1);
  // Nodes of each group per host, indexed by host: pinned pools are placed one VM at a time over every host.
  const perGroup = new Map<number, Int32Array>();
  items.forEach((item, k) => {
    if (!item.pinned) return;
    let counts = perGroup.get(item.group);
    if (!counts) {
      counts = new Int32Array(free.length);
      perGroup.set(item.group, counts);
    }
    let best = -1;
    let bestCount = Infinity;
    for (let h = 0; h < free.length && bestCount > 0; h++) {
      const f = free[h];
      let fits = true;
      for (let d = 0; d < item.size.length; d++) {
        if (!(item.size[d] <= f[d])) {
          fits = false;
          break;
        }
      }
      // The first host with the fewest nodes of the group wins; none can beat an empty one.
      if (fits && counts[h] < bestCount) {
        best = h;
        bestCount = counts[h];
      }
    }
    if (best < 0) return;
    hostOf[k] = best;
    item.size.forEach((v, d) => (free[best][d] -= v));
    counts[best] = bestCount + 1;
  });
  const rest = items.map((item, k) => ({ item, k })).filter(({ k }) => hostOf[k] < 0);
  const packed = placeOnHosts(
    free.map((capacity) => ({ capacity })),
    rest.map(({ item }) => ({ size: item.size, group: item.group })),
    { spreadGroups: true },
  );
  packed.hostOf.forEach((h, i) => (hostOf[rest[i].k] = h));
  const unplaced = hostOf.flatMap((h, k) => (h < 0 ? [k] : []));
  if (unplaced.length === 0) return { hostOf, unplaced };
  const together = placeOnHosts(
    hostCaps.map((capacity) => ({ capacity })),
    items.map((item) => ({ size: item.size, group: item.group })),
    { spreadGroups: true },
  );
  return together.unplaced.length < unplaced.length ? together : { hostOf, unplaced };
}

/** Plans the whole model; never throws for bad input: problems are in `errors`. */
export function planModel(model: MetalsliceConfig, options: PlanOptions = {}): Plan {
  const paths = options.paths;
  const issues = new IssueCollector();
  const warnings: PlanIssue[] = [];

  const fleetSpecs = model.fleets ?? [];
  const quotaSpecs = model.quotas ?? [];
  const clusterSpecs = model.clusters ?? [];
  const poolSpecs = model.nodePools ?? [];

  checkNames(fleetSpecs, 'fleets', paths, issues);
  checkNames(quotaSpecs, 'quotas', paths, issues);
  checkNames(clusterSpecs, 'clusters', paths, issues);
  // A VM is named `<pool>-<index>`: leave room for the index within 63 characters.
  checkNames(poolSpecs, 'nodePools', paths, issues, 56);

  const fleets = new Map<string, PlannedFleet>();
  fleetSpecs.forEach((spec, i) => {
    const fleet = planFleet(spec, pathOf(paths, 'fleets', i), issues);
    if (fleet && !fleets.has(spec.name)) fleets.set(spec.name, fleet);
  });

  const clusters = new Map<string, PlannedCluster>();
  clusterSpecs.forEach((spec, i) => {
    if (!clusters.has(spec.name)) clusters.set(spec.name, planCluster(spec, pathOf(paths, 'clusters', i), issues));
  });

  // Quotas: parse limits, then check that the quotas of each fleet fit the fleet by sums.
  const quotas = new Map<string, PlannedQuota>();
  const namespaces = new Map<string, string>();
  quotaSpecs.forEach((spec, i) => {
    const at = pathOf(paths, 'quotas', i);
    const orgProblem = dns1123LabelProblem(spec.organization);
    if (orgProblem) issues.add(`${at}.organization`, `"${spec.organization}" ${orgProblem}`);
    if (!fleets.has(spec.fleet) && !fleetSpecs.some((f) => f.name === spec.fleet)) issues.add(`${at}.fleet`, unknownReference('fleet', spec.fleet, fleets.keys()));
    const limits = issues.capture(() => normalizeResources(parseResources(spec.limits, `${at}.limits`)));
    if (limits) {
      for (const need of ['cpu', 'memory'] as const) {
        if (!(need in spec.limits)) issues.add(`${at}.limits.${need}`, `missing required limit "${need}": a quota must bound cpu and memory`);
      }
    }
    const namespace = spec.namespace ?? `${spec.organization}-${spec.name}`;
    const nsProblem = dns1123LabelProblem(namespace);
    if (nsProblem && (spec.namespace !== undefined || (!orgProblem && !dns1123LabelProblem(spec.name)))) issues.add(`${at}.namespace`, `namespace "${namespace}" ${nsProblem}; set namespace explicitly`);
    const owner = namespaces.get(namespace);
    if (owner !== undefined) issues.add(`${at}.namespace`, `namespace "${namespace}" is already used by quota "${owner}": give this quota its own namespace`);
    namespaces.set(namespace, spec.name);
    if (limits && !quotas.has(spec.name)) quotas.set(spec.name, { name: spec.name, path: at, spec, fleet: spec.fleet, namespace, limits });
  });

  for (const fleet of fleets.values()) {
    let running: ResourceVector = {};
    for (const quota of quotas.values()) {
      if (quota.fleet !== fleet.name) continue;
      running = normalizeResources(addResources(running, quota.limits));
      for (const r of exceededResources(running, fleet.capacity)) {
        if (!(r in quota.spec.limits)) continue;
        const others = subtractResources(running, quota.limits);
        const room = get(fleet.capacity, r).sub(get(others, r));
        issues.add(
          childPath(`${quota.path}.limits`, r),
          `quotas on fleet "${fleet.name}" add up to ${get(running, r)} of ${r} with this one, but the fleet has ${get(fleet.capacity, r)} allocatable (after reservedPerHost); lower this quota to at most ${room.isNegative() ? '0' : room} or add hosts to the fleet`,
        );
      }
    }
  }

  // Elastic node pools: shape, count, references, and the quota they draw from.
  const pools: PlannedPool[] = [];
  poolSpecs.forEach((spec, i) => {
    const at = pathOf(paths, 'nodePools', i);
    const quota = quotas.get(spec.quota);
    if (!quota && !quotaSpecs.some((q) => q.name === spec.quota)) issues.add(`${at}.quota`, unknownReference('quota', spec.quota, quotas.keys()));
    if (!clusters.has(spec.cluster) && !clusterSpecs.some((c) => c.name === spec.cluster)) issues.add(`${at}.cluster`, unknownReference('cluster', spec.cluster, clusters.keys()));
    if (!Number.isInteger(spec.count) || spec.count < 0) issues.add(`${at}.count`, `must be a whole number of nodes, 0 or more (got ${spec.count})`);
    checkLabels(spec.labels, `${at}.labels`, issues);
    if (spec.nodeType !== undefined) {
      const problem = labelValueProblem(spec.nodeType);
      if (problem) issues.add(`${at}.nodeType`, `"${spec.nodeType}": ${problem}`);
    }
    const shape = issues.capture(() => normalizeResources(parseResources(spec.shape, `${at}.shape`)));
    if (!shape) return;
    const cpu = get(shape, 'cpu');
    if (cpu.isZero() || cpu.nano % 1_000_000_000n !== 0n) {
      issues.add(`${at}.shape.cpu`, `a VM gets whole vCPUs: got ${cpu}; use ${Math.max(1, vcpusOf(cpu))}`);
      return;
    }
    if (get(shape, 'memory').cmp(Quantity.parse('256Mi')) < 0) {
      issues.add(`${at}.shape.memory`, `a node needs at least 256Mi of memory to boot (got ${get(shape, 'memory')}); kubelet wants 2Gi or more`);
      return;
    }
    if ((spec.rootDisk ?? 'dataVolume') === 'dataVolume' && get(shape, 'disk').isZero()) {
      issues.add(`${at}.shape.disk`, 'a dataVolume root disk needs a size: add disk (e.g. 40Gi), or set rootDisk: containerDisk');
      return;
    }
    if (!quota) return;
    const fleet = fleets.get(quota.fleet);
    const footprint = normalizeResources(vmFootprint(shape, { cpuAllocationRatio: fleet?.cpuAllocationRatio ?? 1 }));
    const count = Number.isInteger(spec.count) && spec.count >= 0 ? spec.count : 0;
    pools.push({
      kind: 'elastic',
      name: spec.name,
      path: at,
      spec,
      quota: quota.name,
      fleet: quota.fleet,
      cluster: spec.cluster,
      namespace: quota.namespace,
      nodeType: spec.nodeType ?? spec.name,
      shape,
      footprint,
      nodes: Array.from({ length: count }, (_, n) => ({ name: `${spec.name}-${n}` })),
    });
  });

  // What a pool takes from its quota: the footprint per VM; disk only for DataVolumes (requests.storage).
  const quotaDemand = (pool: PlannedPool): ResourceVector => {
    const perVm = { ...pool.footprint };
    if ((pool.spec.rootDisk ?? 'dataVolume') === 'containerDisk') delete perVm.disk;
    return scaleResources(perVm, pool.nodes.length);
  };

  const quotaUse = new Map<string, ResourceVector>();
  const overQuota = new Set<PlannedPool>();
  for (const pool of pools) {
    const quota = quotas.get(pool.quota)!;
    const before = quotaUse.get(quota.name) ?? {};
    const demand = quotaDemand(pool);
    const after = addResources(before, demand);
    quotaUse.set(quota.name, after);
    const over = exceededResources(after, quota.limits).filter((r) => r in quota.limits);
    if (over.length === 0) continue;
    overQuota.add(pool);
    const perVm = scaleResources(demand, 1);
    const fitCount = Math.max(
      0,
      Math.min(
        ...over.map((r) => {
          const room = get(quota.limits, r).sub(get(before, r));
          const each = get(perVm, r).nano / BigInt(Math.max(1, pool.nodes.length));
          return each === 0n || room.isNegative() ? 0 : Number(room.nano / each);
        }),
      ),
    );
    const left = (r: string) => {
      const room = get(quota.limits, r).sub(get(before, r));
      return room.isNegative() ? Quantity.ZERO : room;
    };
    const detail = over.map((r) => `${r}: needs ${get(demand, r)} (${pool.nodes.length} x ${get(pool.footprint, r)} incl. VM overhead), ${left(r)} left of ${get(quota.limits, r)}`).join('; ');
    issues.add(`${pool.path}.count`, `pool "${pool.name}" does not fit quota "${quota.name}" (${detail}): lower count to ${fitCount} or raise ${quota.path}.limits`);
  }
  for (const quota of quotas.values()) {
    const max = quota.spec.maxVirtualMachines;
    if (max === undefined) continue;
    const vms = pools.filter((p) => p.quota === quota.name).reduce((n, p) => n + p.nodes.length, 0);
    if (vms > max) issues.add(`${quota.path}.maxVirtualMachines`, `quota "${quota.name}" allows ${max} VMs but its pools ask for ${vms}: raise maxVirtualMachines or lower the pools' counts`);
  }

  // Auto nodes (vCluster-style static/dynamic pools) and private node pools draw on what the elastic
  // pools left of each quota. A private pool is a static pool of one metal3 node type.
  const privateSpecs = model.privateNodePools ?? [];
  checkNames(privateSpecs, 'privateNodePools', paths, issues, 50);
  const autoSpecs: AutoNodesSpec[] = [...(model.autoNodes ?? [])];
  const sourcePaths: AutoNodesSourcePath[] = autoSpecs.map((entry, i) => {
    const at = pathOf(paths, 'autoNodes', i);
    return entry.source ?? { entry: at, static: (entry.static ?? []).map((_, j) => `${at}.static[${j}]`), dynamic: (entry.dynamic ?? []).map((_, j) => `${at}.dynamic[${j}]`) };
  });
  const providerSpecs = model.nodeProviders ?? [];
  const catalogue = parseNodeProviders(providerSpecs);
  privateSpecs.forEach((spec, i) => {
    const at = pathOf(paths, 'privateNodePools', i);
    const provider = providerSpecs.find((p) => p.name === spec.provider);
    if (provider && provider.kind !== 'metal3') {
      issues.add(`${at}.provider`, `provider "${spec.provider}" is of kind ${provider.kind}; private node pools claim whole bare-metal hosts from a metal3 provider`);
      return;
    }
    // A private pool names its type, so it asks for whatever devices (GPUs) that type's hosts carry.
    const type = catalogue.providers.find((p) => p.name === spec.provider)?.types.find((t) => t.name === spec.nodeType);
    const devices = (type?.extendedResources ?? []).map((r) => ({ property: r, operator: 'Exists' as const }));
    autoSpecs.push({
      cluster: spec.cluster,
      provider: spec.provider,
      static: [{ name: spec.name, quantity: spec.count, requirements: [{ property: 'vcluster.com/node-type', value: spec.nodeType }, ...devices], taints: spec.taints, nodeLabels: spec.labels }],
    });
    sourcePaths.push({ entry: at, static: [at] });
  });
  const quotaRemaining = new Map([...quotas.values()].map((q) => [q.name, { remaining: normalizeResources(subtractResources(q.limits, quotaUse.get(q.name) ?? {})), fleet: q.fleet }]));
  const auto = planAutoNodes({
    providers: providerSpecs,
    autoNodes: autoSpecs,
    quotas: quotaRemaining,
    fleets: new Map([...fleets.values()].map((f) => [f.name, { cpuAllocationRatio: f.cpuAllocationRatio }])),
    clusters: new Set(clusterSpecs.map((c) => c.name)),
    providersPath: paths?.nodeProviders ? undefined : 'nodeProviders',
    sourcePaths,
  });
  for (const issue of auto.issues) issues.add(issue.path, issue.message);
  warnings.push(...auto.warnings);
  for (const provider of providerSpecs) {
    if (provider.kind === 'kubevirt' && provider.fleet !== undefined && !fleets.has(provider.fleet) && !fleetSpecs.some((f) => f.name === provider.fleet)) {
      issues.add(`${pathOf(paths, 'nodeProviders', providerSpecs.indexOf(provider))}.fleet`, unknownReference('fleet', provider.fleet, fleets.keys()));
    }
  }
  // Dynamic pools with preview pods: the cheapest node mix for them, from the pool's matching types.
  const previews = new Map<PlannedAutoPool, PoolPreview>();
  for (const pool of auto.pools) {
    if (pool.mode !== 'dynamic' || pool.candidates.length === 0) continue;
    const spec = autoSpecs.find((a) => a.cluster === pool.cluster && a.provider === pool.provider)?.dynamic?.find((d) => d.name === pool.name);
    if (!spec?.preview) continue;
    const { preview, issues: previewIssues, warnings: previewWarnings } = previewDynamicPool(spec.preview, pool.candidates, pool.dynamic, pool.path);
    for (const issue of previewIssues) issues.add(issue.path, issue.message);
    warnings.push(...previewWarnings);
    if (preview) previews.set(pool, preview);
  }
  const privateNames = new Set(privateSpecs.map((p) => p.name));
  const autoPools = auto.pools;
  const privatePools = privateSpecs.flatMap((spec, i) => {
    const pool = autoPools.find((p) => p.name === spec.name && p.cluster === spec.cluster && p.provider === spec.provider && p.mode === 'static');
    return pool ? [{ spec, path: pathOf(paths, 'privateNodePools', i), pool }] : [];
  });
  // Static kubevirt auto nodes are VMs on the provider's fleet: placed with the elastic pools below.
  const kubevirtFleetOf = new Map(providerSpecs.filter((p) => p.kind === 'kubevirt' && p.fleet).map((p) => [p.name, p.fleet!]));
  const autoVms = autoPools.filter((p) => p.mode === 'static' && p.providerKind === 'kubevirt' && kubevirtFleetOf.has(p.provider));

  // Placement: every VM of every pool on a host of its fleet, all at once.
  const placed = new Map<string, string>();
  const autoPlaced = new Map<string, string>();
  for (const fleet of fleets.values()) {
    // Pools already over their quota would only add noise here: they are reported above.
    const fleetPools = pools.filter((p) => p.fleet === fleet.name && !overQuota.has(p));
    if (fleet.hosts.length === 0) continue;
    const fleetAutoPools = autoVms.filter((p) => kubevirtFleetOf.get(p.provider) === fleet.name);
    const dims = resourceNames(
      ...fleet.hosts.map((h) => h.allocatable),
      ...fleetPools.map((p) => p.footprint),
      ...fleetAutoPools.flatMap((p) => p.nodes.map((n) => n.footprint)),
    );
    const hostCaps = fleet.hosts.map((h) => toDimensions(h.allocatable, dims, false));
    const items: { size: number[]; group: number; pinned: boolean }[] = [];
    const owners: { pool: PlannedPool; node: PlannedNode }[] = [];
    fleetPools.forEach((pool, g) => {
      const size = toDimensions(pool.footprint, dims, true);
      for (const node of pool.nodes) {
        items.push({ size, group: g, pinned: pool.spec.placement === 'planned' });
        owners.push({ pool, node });
      }
    });
    // Static kubevirt auto nodes come after the elastic VMs, each pool a spread group of its own.
    const autoOwners: { pool: PlannedAutoPool; node: string; footprint: ResourceVector }[] = [];
    fleetAutoPools.forEach((pool, g) => {
      for (const node of pool.nodes) {
        items.push({ size: toDimensions(node.footprint, dims, true), group: fleetPools.length + g, pinned: false });
        autoOwners.push({ pool, node: node.name, footprint: node.footprint });
      }
    });
    const result = placeStably(hostCaps, items);
    const used = fleet.hosts.map(() => ({}) as ResourceVector);
    result.hostOf.forEach((h, k) => {
      if (h < 0) return;
      if (k >= owners.length) {
        const auto = autoOwners[k - owners.length];
        autoPlaced.set(`${auto.pool.path}/${auto.node}`, fleet.hosts[h].name);
        used[h] = addResources(used[h], auto.footprint);
        return;
      }
      placed.set(`${owners[k].pool.name}/${owners[k].node.name}`, fleet.hosts[h].name);
      used[h] = addResources(used[h], owners[k].pool.footprint);
    });
    const free = fleet.hosts.map((host, h) => normalizeResources(subtractResources(host.allocatable, used[h])));
    // What still fits on one host: the same for every pool that could not be placed.
    const largest = largestGuest(free);
    const unplacedByPool = new Map<PlannedPool, number>();
    const unplacedAuto = new Map<PlannedAutoPool, number>();
    for (const k of result.unplaced) {
      if (k >= owners.length) {
        const auto = autoOwners[k - owners.length];
        unplacedAuto.set(auto.pool, (unplacedAuto.get(auto.pool) ?? 0) + 1);
      } else unplacedByPool.set(owners[k].pool, (unplacedByPool.get(owners[k].pool) ?? 0) + 1);
    }
    for (const [pool, n] of unplacedAuto) {
      issues.add(
        `${pool.path}.quantity`,
        `${n} of ${pool.nodes.length} nodes of pool "${pool.name}" (type ${pool.nodeType}) cannot be placed on fleet "${fleet.name}": the free capacity is split across hosts. ` +
          (largest ? `The largest node that still fits on one host is ${describeShape(largest)}; ` : 'No host has room for any node; ') +
          'choose a smaller type, fewer nodes, or add hosts',
      );
    }
    for (const [pool, n] of unplacedByPool) {
      issues.add(
        `${pool.path}.count`,
        `${n} of ${pool.nodes.length} nodes of pool "${pool.name}" (${describeShape(pool.shape)} each, ${get(pool.footprint, 'memory')} memory with VM overhead) cannot be placed on fleet "${fleet.name}": ` +
          `the quotas fit by sums, but the free capacity is split across hosts. ` +
          (largest ? `The largest node that still fits on one host is ${describeShape(largest)}; ` : 'No host has room for any node; ') +
          'use a smaller shape, fewer nodes, or add hosts',
      );
    }
  }

  const finalPools: PlannedPool[] = pools.map((pool) => ({
    ...pool,
    nodes: pool.nodes.map((node) => ({ name: node.name, host: placed.get(`${pool.name}/${node.name}`) })),
  }));

  const report: PlanReport = {
    ok: issues.ok,
    errors: issues.issues,
    warnings,
    fleets: [...fleets.values()].map((fleet) => {
      const allocated = sumResources(pools.filter((p) => p.fleet === fleet.name).map((p) => scaleResources(p.footprint, p.nodes.length)));
      return {
        name: fleet.name,
        hosts: fleet.hosts.length,
        capacity: formatResources(fleet.capacity),
        allocated: formatResources(normalizeResources(allocated)),
        free: formatResources(normalizeResources(subtractResources(fleet.capacity, allocated))),
        quotaLimits: formatResources(normalizeResources(sumResources([...quotas.values()].filter((q) => q.fleet === fleet.name).map((q) => q.limits)))),
      };
    }),
    quotas: [...quotas.values()].map((quota) => ({
      name: quota.name,
      fleet: quota.fleet,
      organization: quota.spec.organization,
      namespace: quota.namespace,
      limits: formatResources(quota.limits),
      allocated: formatResources(normalizeResources(quotaUse.get(quota.name) ?? {})),
      virtualMachines: pools.filter((p) => p.quota === quota.name).reduce((n, p) => n + p.nodes.length, 0),
    })),
    pools: finalPools.map((pool): PlanReport['pools'][number] => ({
      name: pool.name,
      kind: pool.kind,
      cluster: pool.cluster,
      quota: pool.quota,
      fleet: pool.fleet,
      nodeType: pool.nodeType,
      shape: formatResources(pool.shape),
      footprint: formatResources(pool.footprint),
      nodes: pool.nodes.map((n) => ({ name: n.name, host: n.host ?? null, nodeType: pool.nodeType })),
    })).concat(
      autoPools.map((pool): PlanReport['pools'][number] => ({
        name: pool.name,
        kind: privateNames.has(pool.name) && pool.providerKind === 'metal3' && privatePools.some((p) => p.pool === pool) ? 'private' : pool.mode,
        cluster: pool.cluster,
        quota: pool.quota,
        fleet: kubevirtFleetOf.get(pool.provider),
        provider: pool.provider,
        nodeType: pool.nodeType ?? (pool.candidates.length > 0 ? pool.candidates[0].nodeType : ''),
        shape: formatResources(pool.nodes[0]?.resources ?? pool.candidates[0]?.resources ?? {}),
        footprint: formatResources(pool.nodes[0]?.footprint ?? pool.candidates[0]?.footprint ?? {}),
        nodes: pool.nodes.map((n) => ({ name: n.name, host: n.host ?? autoPlaced.get(`${pool.path}/${n.name}`) ?? null, nodeType: n.nodeType })),
        candidates: pool.candidates.map((c) => ({ nodeType: c.nodeType, cost: c.cost })),
        rejected: pool.rejected.map((r) => ({ nodeType: r.nodeType, reason: r.reason })),
        ...(previews.has(pool) ? { preview: previews.get(pool) } : {}),
      })),
    ),
    environments: auto.environments.map((e) => ({ cluster: e.cluster, provider: e.provider })),
  };

  return {
    ok: issues.ok,
    errors: issues.issues,
    warnings,
    fleets: [...fleets.values()],
    quotas: [...quotas.values()],
    clusters: [...clusters.values()],
    pools: finalPools,
    autoPools: autoPools.map((pool) =>
      pool.providerKind === 'kubevirt' ? { ...pool, nodes: pool.nodes.map((n) => ({ ...n, host: autoPlaced.get(`${pool.path}/${n.name}`) })) } : pool,
    ),
    privatePools,
    nodeProviders: catalogue.providers,
    environments: auto.environments,
    report,
  };
}
