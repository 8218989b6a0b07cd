/**
 * Planning, phase 1: the foundation every VM stands on. Names, fleets (host capacity less reservations,
 * KubeVirt settings), tenant clusters, and quotas, which must fit their fleet by sums.
 */
import { consumerProblem } from './tenancy';
import { X509Certificate } from 'crypto';
import { MAX_CPU_ALLOCATION_RATIO, MAX_LIVE_MIGRATIONS, MAX_MEMORY_OVERCOMMIT_PERCENT, MAX_PORT, wholeNumberProblem } from './limits';
import { describeValue } from './excerpt';
import { childPath, IssueCollector } from './errors';
import { KubevirtSettings } from './kubevirt/launcher';
import { ClusterSpec, FleetSpec, HostSpec, MetalsliceConfig } from './model';
import { dns1123LabelProblem, kubeletLabelProblem, labelKeyProblem, labelValueProblem } from './names';
import type { ModelPaths, PlannedCluster, PlannedFleet, PlannedHost, PlannedQuota } from './plan';
import { Quantity } from './quantity';
import { addResources, exceededResources, get, normalizeResources, parseResources, ResourceVector, subtractResources, sumResources } from './resources';

export const DEFAULT_KUBERNETES_VERSION = '1.33';
/** kubelet's default maxPods. */
export const DEFAULT_PODS_PER_HOST = 110;

export interface Foundation {
  readonly fleets: ReadonlyMap<string, PlannedFleet>;
  readonly clusters: ReadonlyMap<string, PlannedCluster>;
  readonly quotas: ReadonlyMap<string, PlannedQuota>;
  /** Every declared name per kind, valid or not: a reference to a declared but broken object is not reported twice. */
  readonly declared: { readonly fleets: ReadonlySet<string>; readonly quotas: ReadonlySet<string>; readonly clusters: ReadonlySet<string> };
}

export function pathOf(paths: ModelPaths | undefined, kind: keyof MetalsliceConfig, index: number): string {
  return paths?.[kind]?.[index] ?? `${kind}[${index}]`;
}

/** Checks that names are DNS-1123 labels and unique within their kind. */
export function checkNames<T extends { name: string }>(
  items: readonly T[],
  kind: keyof MetalsliceConfig,
  paths: ModelPaths | undefined,
  issues: IssueCollector,
  maxLength = 63,
): void {
  const index = new Map<string, number>();
  items.forEach((item, i) => {
    const at = pathOf(paths, kind, i);
    const problem = dns1123LabelProblem(item.name, maxLength);
    if (problem) issues.add(`${at}.name`, `"${item.name}" ${problem}`);
    const first = index.get(item.name);
    if (first !== undefined) issues.add(`${at}.name`, `"${item.name}" is already used by ${pathOf(paths, kind, first)}: names must be unique`);
    else index.set(item.name, i);
  });
}

/** Label syntax; `kubelet`: the labels a node joins with, which the kubelet must also accept. */
export function checkLabels(labels: Readonly<Record<string, string>> | undefined, at: string, issues: IssueCollector, kubelet = false): void {
  for (const [key, value] of Object.entries(labels ?? {})) {
    const keyProblem = labelKeyProblem(key) ?? (kubelet ? kubeletLabelProblem(key) : undefined);
    if (keyProblem) issues.add(childPath(at, key), `label key "${key}": ${keyProblem}`);
    const valueProblem = labelValueProblem(value);
    if (valueProblem) issues.add(childPath(at, key), `label value "${value}": ${valueProblem}`);
  }
}

export function unknownReference(kind: string, name: string, known: Iterable<string>): string {
  const list = [...known];
  return `no ${kind} named "${name}"; ${list.length > 0 ? `known: ${list.join(', ')}` : `declare one under ${kind}s`}`;
}

/** The KubeVirt CR settings of a fleet; a fractional cpuAllocationRatio is refused, as KubeVirt's CRD does. */
function kubevirtSettings(spec: FleetSpec, at: string, issues: IssueCollector): KubevirtSettings {
  const ratio = spec.cpuAllocationRatio ?? 1;
  if (ratio > MAX_CPU_ALLOCATION_RATIO) {
    issues.add(
      `${at}.cpuAllocationRatio`,
      `must be ${MAX_CPU_ALLOCATION_RATIO} or less (got ${describeValue(ratio)}): each vCPU would request under 10m of a core; KubeVirt's default is 10`,
    );
  } else if (!Number.isInteger(ratio) || ratio < 1) {
    issues.add(
      `${at}.cpuAllocationRatio`,
      `${ratio} is not a whole number of 1 or more: KubeVirt's cpuAllocationRatio is an integer (vCPUs per physical CPU); use ${Math.max(1, Math.round(ratio))}`,
    );
  }
  const overcommit = spec.memoryOvercommit ?? 100;
  const overcommitOk = Number.isInteger(overcommit) && overcommit >= 10 && overcommit <= MAX_MEMORY_OVERCOMMIT_PERCENT;
  if (!overcommitOk) {
    issues.add(
      `${at}.memoryOvercommit`,
      `${describeValue(overcommit)} is not a whole percentage from 10 to ${MAX_MEMORY_OVERCOMMIT_PERCENT} (KubeVirt's memoryOvercommit; 100 = no overcommit)`,
    );
  }
  return {
    cpuAllocationRatio: Number.isInteger(ratio) && ratio >= 1 && ratio <= MAX_CPU_ALLOCATION_RATIO ? ratio : 1,
    memoryOvercommit: overcommitOk ? overcommit : 100,
    serialConsoleLog: spec.serialConsoleLog ?? true,
  };
}

function planFleet(spec: FleetSpec, at: string, issues: IssueCollector): PlannedFleet {
  const reserved = issues.capture(() => parseResources(spec.reservedPerHost ?? {}, `${at}.reservedPerHost`)) ?? {};
  const hostSpecs: readonly HostSpec[] = spec.hosts ?? [];
  if (hostSpecs.length === 0) issues.add(`${at}.hosts`, 'a fleet needs at least one host: list hosts or point hostsFile at an inventory');
  const podsPerHost = spec.podsPerHost ?? DEFAULT_PODS_PER_HOST;
  const hostIndex = new Map<string, number>();
  const hosts: PlannedHost[] = [];
  hostSpecs.forEach((h, i) => {
    const hostAt = `${at}.hosts[${i}]`;
    const problem = dns1123LabelProblem(h.name, 253);
    if (problem && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(h.name))
      issues.add(`${hostAt}.name`, `"${h.name}" is not a valid node name: use lower-case letters, digits, "-" and "."`);
    if (hostIndex.has(h.name)) issues.add(`${hostAt}.name`, `host "${h.name}" is listed twice (first at ${at}.hosts[${hostIndex.get(h.name)}])`);
    hostIndex.set(h.name, i);
    checkLabels(h.labels, `${hostAt}.labels`, issues);
    if (spec.hostSelector && !Object.entries(spec.hostSelector).every(([k, v]) => h.labels?.[k] === v)) return;
    const parsed = issues.capture(() => normalizeResources(parseResources(h.capacity, `${hostAt}.capacity`)));
    if (!parsed) return;
    // kubelet admits at most maxPods pods, listed or not.
    const capacity = parsed.pods ? parsed : { ...parsed, pods: Quantity.fromUnits(podsPerHost) };
    for (const need of ['cpu', 'memory'] as const) {
      if (get(capacity, need).isZero())
        issues.add(`${hostAt}.capacity.${need}`, `host "${h.name}" has no ${need}: give its capacity, e.g. cpu: 64, memory: 512Gi`);
    }
    const short = exceededResources(reserved, capacity);
    if (short.length > 0) {
      issues.add(
        `${at}.reservedPerHost`,
        `reserves more ${short.join(', ')} than host "${h.name}" has (${short.map((r) => `${get(capacity, r)}`).join(', ')}): lower the reservation or remove the host`,
      );
      return;
    }
    hosts.push({ name: h.name, labels: h.labels ?? {}, capacity, allocatable: normalizeResources(subtractResources(capacity, reserved)) });
  });
  checkLabels(spec.hostSelector, `${at}.hostSelector`, issues);
  const settings = kubevirtSettings(spec, at, issues);
  return {
    name: spec.name,
    path: at,
    spec,
    hosts,
    capacity: normalizeResources(sumResources(hosts.map((h) => h.allocatable))),
    cpuAllocationRatio: settings.cpuAllocationRatio,
    kubevirt: { settings, permittedHostDevices: spec.permittedHostDevices ?? [], path: at },
  };
}

function planCluster(spec: ClusterSpec, at: string, issues: IssueCollector): PlannedCluster {
  const endpoint = /^https:\/\/[^/\s:]+(:(\d{1,5}))?\/?$/.exec(spec.endpoint);
  if (!endpoint) {
    issues.add(`${at}.endpoint`, `${describeValue(spec.endpoint)} is not an API server URL: write https://HOST:PORT, e.g. https://10.0.0.10:6443`);
  } else if (endpoint[2] !== undefined && (Number(endpoint[2]) < 1 || Number(endpoint[2]) > MAX_PORT)) {
    issues.add(`${at}.endpoint`, `port ${endpoint[2]} is not a TCP port (1 to ${MAX_PORT}): write https://HOST:PORT, e.g. https://10.0.0.10:6443`);
  }
  try {
    const cert = new X509Certificate(spec.caCertificate);
    if (!cert.ca) issues.add(`${at}.caCertificate`, 'is not a CA certificate (basicConstraints CA:FALSE): give the cluster CA, /etc/kubernetes/pki/ca.crt');
  } catch {
    issues.add(
      `${at}.caCertificate`,
      'is not a PEM certificate: paste the tenant cluster CA (/etc/kubernetes/pki/ca.crt), starting with -----BEGIN CERTIFICATE-----',
    );
  }
  return { name: spec.name, path: at, spec, kubernetesVersion: spec.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION };
}

function planQuotas(
  model: MetalsliceConfig,
  paths: ModelPaths | undefined,
  fleetNames: ReadonlySet<string>,
  fleets: ReadonlyMap<string, PlannedFleet>,
  issues: IssueCollector,
): Map<string, PlannedQuota> {
  const quotas = new Map<string, PlannedQuota>();
  (model.quotas ?? []).forEach((spec, i) => {
    const at = pathOf(paths, 'quotas', i);
    const orgProblem = dns1123LabelProblem(spec.organization);
    if (orgProblem) issues.add(`${at}.organization`, `"${spec.organization}" ${orgProblem}`);
    if (!fleetNames.has(spec.fleet)) issues.add(`${at}.fleet`, unknownReference('fleet', spec.fleet, fleets.keys()));
    const limits = issues.capture(() => normalizeResources(parseResources(spec.limits, `${at}.limits`, 'fleet')));
    if (limits) {
      for (const need of ['cpu', 'memory'] as const) {
        if (!(need in spec.limits)) issues.add(`${at}.limits.${need}`, `missing required limit "${need}": a quota must bound cpu and memory`);
      }
    }
    const namespace = spec.namespace ?? `${spec.organization}-${spec.name}`;
    const nsProblem = dns1123LabelProblem(namespace);
    if (nsProblem && (spec.namespace !== undefined || (!orgProblem && !dns1123LabelProblem(spec.name))))
      issues.add(`${at}.namespace`, `namespace "${namespace}" ${nsProblem}; set namespace explicitly`);
    // Two owners of one namespace, and namespaces no tenant may take, are found with every other derived name (derived-names.ts).
    (spec.consumers ?? []).forEach((c, k) => {
      const problem = consumerProblem(c, spec.allowSystemConsumers === true);
      if (problem !== undefined) issues.add(`${at}.consumers[${k}]`, problem);
    });
    const liveMigrations = spec.liveMigrations ?? 1;
    const migrationsProblem = wholeNumberProblem(liveMigrations, MAX_LIVE_MIGRATIONS, 'migrations');
    if (migrationsProblem !== undefined) issues.add(`${at}.liveMigrations`, migrationsProblem);
    if (limits && !quotas.has(spec.name)) {
      quotas.set(spec.name, {
        name: spec.name,
        path: at,
        spec,
        fleet: spec.fleet,
        namespace,
        limits,
        liveMigrations: migrationsProblem === undefined ? liveMigrations : 1,
      });
    }
  });
  return quotas;
}

/** The quotas of each fleet must fit the fleet by sums. */
function checkQuotasFitFleets(fleets: ReadonlyMap<string, PlannedFleet>, quotas: ReadonlyMap<string, PlannedQuota>, issues: IssueCollector): void {
  for (const fleet of fleets.values()) {
    // A fleet without hosts is already an error at its root; every quota on it would follow.
    if (fleet.hosts.length === 0) continue;
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
}

/** Phase 1: names, fleets, clusters and quotas. */
export function planFoundation(model: MetalsliceConfig, paths: ModelPaths | undefined, issues: IssueCollector): Foundation {
  const fleetSpecs = model.fleets ?? [];
  const clusterSpecs = model.clusters ?? [];
  checkNames(fleetSpecs, 'fleets', paths, issues);
  checkNames(model.quotas ?? [], 'quotas', paths, issues);
  checkNames(clusterSpecs, 'clusters', paths, issues);
  // A VM is named `<pool>-<index>`: leave room for the index within 63 characters.
  checkNames(model.nodePools ?? [], 'nodePools', paths, issues, 56);

  const fleets = new Map<string, PlannedFleet>();
  fleetSpecs.forEach((spec, i) => {
    const fleet = planFleet(spec, pathOf(paths, 'fleets', i), issues);
    if (!fleets.has(spec.name)) fleets.set(spec.name, fleet);
  });
  const clusters = new Map<string, PlannedCluster>();
  clusterSpecs.forEach((spec, i) => {
    if (!clusters.has(spec.name)) clusters.set(spec.name, planCluster(spec, pathOf(paths, 'clusters', i), issues));
  });
  const declared = {
    fleets: new Set(fleetSpecs.map((f) => f.name)),
    quotas: new Set((model.quotas ?? []).map((q) => q.name)),
    clusters: new Set(clusterSpecs.map((c) => c.name)),
  };
  const quotas = planQuotas(model, paths, declared.fleets, fleets, issues);
  checkQuotasFitFleets(fleets, quotas, issues);
  return { fleets, clusters, quotas, declared };
}
