/**
 * Planning, phase 1: the foundation every VM stands on. Names, fleets (host capacity less reservations,
 * KubeVirt settings), tenant clusters, and quotas, which must fit their fleet by sums.
 */
import { consumerProblem } from '../naming/tenancy';
import { X509Certificate } from 'crypto';
import { childPath, IssueCollector, PlanIssue } from '../base/errors';
import { BoundPods, hostTaken, nodeTaints, vmAllocatable, whyNoVms } from '../hosts/offer';
import { selectedByFleet } from '../hosts/membership';
import { virtHandlerRequests } from '../kubevirt/handler';
import { MAX_CPU_ALLOCATION_RATIO, MAX_LIVE_MIGRATIONS, MAX_MEMORY_OVERCOMMIT_PERCENT, MAX_PORT, wholeNumberProblem } from '../base/bounds';
import { describeValue, excerpt } from '../base/excerpt';
import { KubevirtSettings } from '../kubevirt/launcher';
import { ClusterSpec, FleetSpec, HostSpec, MetalsliceConfig } from '../input/model';
import { bootstrapProblems, kubernetesMinorOf } from '../input/bootstrap';
import { dns1123LabelProblem, kubeletLabelProblem, labelKeyProblem, labelValueProblem } from '../naming/kube-names';
import { quotaNamespace } from '../naming/derived';
import type { ExcludedHost, ModelPaths, PlannedCluster, PlannedFleet, PlannedHost, PlannedQuota } from './types';
import { Quantity } from '../base/quantity';
import { addResources, exceededResources, get, normalizeResources, parseResources, ResourceVector, subtractResources, sumResources } from '../base/resources';
import { amount } from '../base/units';

export const DEFAULT_KUBERNETES_VERSION = '1.33';
/** kubelet's default maxPods. */
export const DEFAULT_PODS_PER_HOST = 110;

export interface Foundation {
  readonly fleets: ReadonlyMap<string, PlannedFleet>;
  readonly clusters: ReadonlyMap<string, PlannedCluster>;
  readonly quotas: ReadonlyMap<string, PlannedQuota>;
  /** Every declared name per kind, valid or not: a reference to a declared but broken object is not reported twice. */
  readonly declared: { readonly fleets: ReadonlySet<string>; readonly quotas: ReadonlySet<string>; readonly clusters: ReadonlySet<string> };
  /** What planning the fleets found that does not stop the plan (hosts no VM can use, what was assumed). */
  readonly warnings: readonly PlanIssue[];
}

// The quota namespace rule is core/naming/derived.ts's; re-exported for the code that imports it from here.
export { quotaNamespace };

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
    if (problem) issues.add(`${at}.name`, `${excerpt(item.name)} ${problem}`);
    const first = index.get(item.name);
    if (first !== undefined) issues.add(`${at}.name`, `${excerpt(item.name)} is already used by ${pathOf(paths, kind, first)}: names must be unique`);
    else index.set(item.name, i);
  });
}

/** Label syntax; `kubelet`: the labels a node joins with, which the kubelet must also accept. */
export function checkLabels(labels: Readonly<Record<string, string>> | undefined, at: string, issues: IssueCollector, kubelet = false): void {
  for (const [key, value] of Object.entries(labels ?? {})) {
    const keyProblem = labelKeyProblem(key) ?? (kubelet ? kubeletLabelProblem(key) : undefined);
    if (keyProblem) issues.add(childPath(at, key), `label key ${excerpt(key)}: ${keyProblem}`);
    const valueProblem = labelValueProblem(value);
    if (valueProblem) issues.add(childPath(at, key), `label value ${excerpt(value)}: ${valueProblem}`);
  }
}

export function unknownReference(kind: string, name: string, known: Iterable<string>): string {
  const list = [...known];
  return `no ${kind} named ${excerpt(name)}; ${list.length > 0 ? `known: ${list.join(', ')}` : `declare one under ${kind}s`}`;
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

/** What planning a fleet's hosts needs to know beyond the host itself. */
interface HostContext {
  readonly fleet: string;
  readonly at: string;
  readonly reserved: ResourceVector;
  readonly podsPerHost: number;
  /** Namespaces this model's quotas own: VMs running there are the plan's to count (or to remove). */
  readonly ownNamespaces: ReadonlySet<string>;
}

/** Capacity and allocatable of a host as its Node reports them; allocatable defaults to capacity. */
function hostResources(
  h: HostSpec,
  hostAt: string,
  ctx: HostContext,
  issues: IssueCollector,
): { capacity: ResourceVector; allocatable: ResourceVector } | undefined {
  const parsed = issues.capture(() => normalizeResources(parseResources(h.capacity, `${hostAt}.capacity`)));
  const given = h.allocatable === undefined ? undefined : issues.capture(() => normalizeResources(parseResources(h.allocatable!, `${hostAt}.allocatable`)));
  if (!parsed || (h.allocatable !== undefined && !given)) return undefined;
  // kubelet admits at most maxPods pods, listed or not.
  const capacity = parsed.pods ? parsed : { ...parsed, pods: Quantity.fromUnits(ctx.podsPerHost) };
  const allocatable = given ? (given.pods ? given : { ...given, pods: get(capacity, 'pods') }) : capacity;
  for (const need of ['cpu', 'memory'] as const) {
    if (get(capacity, need).isZero())
      issues.add(`${hostAt}.capacity.${need}`, `host "${h.name}" has no ${need}: give its capacity, e.g. cpu: 64, memory: 512Gi`);
  }
  const above = exceededResources(allocatable, capacity);
  if (above.length > 0) {
    issues.add(
      `${hostAt}.allocatable`,
      `host "${h.name}" has more ${above.join(', ')} allocatable than capacity: a kubelet's allocatable is capacity less what it keeps back; give the Node's status.allocatable`,
    );
    return undefined;
  }
  return { capacity, allocatable };
}

/** The pods bound to a host before the plan: others' pods, and metalslice VMs this model does not own. */
function boundPods(h: HostSpec, hostAt: string, ctx: HostContext, issues: IssueCollector): { existing?: BoundPods; running: Map<string, ResourceVector> } {
  const running = new Map<string, ResourceVector>();
  if (!h.pods) return { running };
  const requests = issues.capture(() => normalizeResources(parseResources(h.pods!.requests, `${hostAt}.pods.requests`))) ?? {};
  let count = h.pods.count;
  const others: ResourceVector[] = [requests];
  (h.pods.virtualMachines ?? []).forEach((vm, k) => {
    const vmRequests = issues.capture(() => normalizeResources(parseResources(vm.requests, `${hostAt}.pods.virtualMachines[${k}].requests`))) ?? {};
    if (ctx.ownNamespaces.has(vm.name.split('/')[0])) running.set(vm.name, vmRequests);
    else {
      others.push(vmRequests);
      count++;
    }
  });
  return { existing: { count, requests: normalizeResources(sumResources(others)) }, running };
}

/** One host as planned, or undefined when its resources are unreadable (the problem is collected). */
function planHost(h: HostSpec, i: number, ctx: HostContext, issues: IssueCollector): PlannedHost | undefined {
  const hostAt = `${ctx.at}.hosts[${i}]`;
  const resources = hostResources(h, hostAt, ctx, issues);
  if (!resources) return undefined;
  const short = exceededResources(ctx.reserved, resources.allocatable);
  if (short.length > 0) {
    issues.add(
      `${ctx.at}.reservedPerHost`,
      `reserves more ${short.join(', ')} than host "${h.name}" has allocatable (${short.map((r) => amount(r, get(resources.allocatable, r))).join(', ')}): lower the reservation or remove the host`,
    );
    return undefined;
  }
  const { existing, running } = boundPods(h, hostAt, ctx, issues);
  const taken = hostTaken(existing, h.pods?.virtHandler === true, ctx.reserved);
  return {
    name: h.name,
    labels: h.labels ?? {},
    capacity: resources.capacity,
    nodeAllocatable: resources.allocatable,
    taken,
    allocatable: vmAllocatable(resources.allocatable, taken),
    taints: nodeTaints(h),
    unschedulable: h.unschedulable === true,
    ready: h.ready !== false,
    running,
    hostGroups: new Set(h.hostGroups ?? []),
  };
}

/** Names are node names, listed once. */
function checkHostName(h: HostSpec, hostAt: string, first: number | undefined, at: string, issues: IssueCollector): void {
  const problem = dns1123LabelProblem(h.name, 253);
  if (problem && !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(h.name))
    issues.add(`${hostAt}.name`, `${excerpt(h.name)} is not a valid node name: use lower-case letters, digits, "-" and "."`);
  if (first !== undefined) issues.add(`${hostAt}.name`, `host ${excerpt(h.name)} is listed twice (first at ${at}.hosts[${first}])`);
}

/** One warning per fleet naming the hosts no VM can use, and why. */
function excludedWarning(fleet: string, at: string, excluded: readonly ExcludedHost[]): PlanIssue {
  const shown = excluded.slice(0, 10).map((e) => `"${e.name}" (${e.reason})`);
  const more = excluded.length > 10 ? ` and ${excluded.length - 10} more` : '';
  return {
    path: `${at}.hosts`,
    message: `${excluded.length === 1 ? '1 host' : `${excluded.length} hosts`} of fleet "${fleet}" can take no VM and count for nothing: ${shown.join('; ')}${more}. Uncordon, fix or untaint them and plan again to use them`,
  };
}

/** A fleet of declared hosts with no allocatable and no reservation: the plan says what it took them to offer. */
function assumedAllocatableWarning(spec: FleetSpec, at: string, hosts: readonly HostSpec[]): PlanIssue | undefined {
  if (spec.reservedPerHost !== undefined) return undefined;
  const bare = hosts.filter((h) => h.allocatable === undefined);
  if (bare.length === 0) return undefined;
  const handler = normalizeResources(virtHandlerRequests());
  return {
    path: `${at}.hosts`,
    message: `${bare.length} of ${hosts.length} hosts of fleet "${spec.name}" give no allocatable and the fleet has no reservedPerHost: the plan assumed each offers its whole capacity (less virt-handler's ${amount('cpu', handler.cpu)} CPU and ${amount('memory', handler.memory)} memory), but a kubelet keeps at least its eviction threshold (memory 100 Mi) back; give each host's allocatable (metalslice inventory writes it from the Nodes) or set reservedPerHost`,
  };
}

function planFleet(spec: FleetSpec, at: string, ownNamespaces: ReadonlySet<string>, issues: IssueCollector, warnings: PlanIssue[]): PlannedFleet {
  const reserved = issues.capture(() => parseResources(spec.reservedPerHost ?? {}, `${at}.reservedPerHost`)) ?? {};
  const hostSpecs: readonly HostSpec[] = spec.hosts ?? [];
  if (hostSpecs.length === 0) issues.add(`${at}.hosts`, 'a fleet needs at least one host: list hosts or point hostsFile at an inventory');
  const ctx: HostContext = { fleet: spec.name, at, reserved, podsPerHost: spec.podsPerHost ?? DEFAULT_PODS_PER_HOST, ownNamespaces };
  const hostIndex = new Map<string, number>();
  const hosts: PlannedHost[] = [];
  const excludedHosts: ExcludedHost[] = [];
  const selected: HostSpec[] = [];
  hostSpecs.forEach((h, i) => {
    const hostAt = `${at}.hosts[${i}]`;
    checkHostName(h, hostAt, hostIndex.get(h.name), at, issues);
    hostIndex.set(h.name, i);
    checkLabels(h.labels, `${hostAt}.labels`, issues);
    if (!selectedByFleet(h, spec.hostSelector)) return;
    selected.push(h);
    const host = planHost(h, i, ctx, issues);
    if (!host) return;
    const reason = whyNoVms(h);
    if (reason !== undefined) excludedHosts.push({ name: h.name, reason, host });
    else hosts.push(host);
  });
  checkLabels(spec.hostSelector, `${at}.hostSelector`, issues);
  if (excludedHosts.length > 0) warnings.push(excludedWarning(spec.name, at, excludedHosts));
  if (hosts.length === 0 && excludedHosts.length > 0)
    issues.add(
      `${at}.hosts`,
      `none of the hosts of fleet "${spec.name}" can take a VM (see the warning at ${at}.hosts): uncordon, fix or untaint at least one`,
    );
  const assumed = assumedAllocatableWarning(spec, at, selected);
  if (assumed) warnings.push(assumed);
  const settings = kubevirtSettings(spec, at, issues);
  return {
    name: spec.name,
    path: at,
    spec,
    hosts,
    excludedHosts,
    capacity: normalizeResources(sumResources(hosts.map((h) => h.allocatable))),
    cpuAllocationRatio: settings.cpuAllocationRatio,
    kubevirt: { settings, permittedHostDevices: spec.permittedHostDevices ?? [], path: at },
  };
}

function planCluster(spec: ClusterSpec, at: string, issues: IssueCollector, warnings: PlanIssue[]): PlannedCluster {
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
  if (spec.bootstrap === undefined) {
    const version = spec.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
    warnings.push({
      path: `${at}.bootstrap`,
      message: `is not set: every node of "${spec.name}" installs the newest kubelet and kubeadm ${version}.x from pkgs.k8s.io and containerd from its distribution at each boot, over the internet, so two nodes of one pool can run different builds; pin them with a bootstrap: its mode (preinstalled, mirror or internet) and the exact kubernetes version, e.g. {mode: preinstalled, kubernetes: "${version}.0"} (README "Node software")`,
    });
    return { name: spec.name, path: at, spec, kubernetesVersion: version };
  }
  for (const issue of bootstrapProblems(spec.bootstrap, `${at}.bootstrap`, spec.kubernetesVersion)) issues.add(issue.path, issue.message);
  const pinned = kubernetesMinorOf(spec.bootstrap.kubernetes);
  return { name: spec.name, path: at, spec, kubernetesVersion: spec.kubernetesVersion ?? pinned ?? DEFAULT_KUBERNETES_VERSION };
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
    if (orgProblem) issues.add(`${at}.organization`, `${excerpt(spec.organization)} ${orgProblem}`);
    if (!fleetNames.has(spec.fleet)) issues.add(`${at}.fleet`, unknownReference('fleet', spec.fleet, fleets.keys()));
    const limits = issues.capture(() => normalizeResources(parseResources(spec.limits, `${at}.limits`, 'fleet')));
    if (limits) {
      for (const need of ['cpu', 'memory'] as const) {
        if (!(need in spec.limits)) issues.add(`${at}.limits.${need}`, `missing required limit "${need}": a quota must bound cpu and memory`);
      }
    }
    const namespace = quotaNamespace(spec);
    const nsProblem = dns1123LabelProblem(namespace);
    if (nsProblem && (spec.namespace !== undefined || (!orgProblem && !dns1123LabelProblem(spec.name))))
      issues.add(`${at}.namespace`, `namespace ${excerpt(namespace)} ${nsProblem}; set namespace explicitly`);
    // Two owners of one namespace, and namespaces no tenant may take, are found with every other derived name (naming/owners.ts).
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
          `quotas on fleet "${fleet.name}" add up to ${amount(r, get(running, r))} of ${r} with this one, but the fleet has ${amount(r, get(fleet.capacity, r))} allocatable for VMs (its usable hosts' allocatable less virt-handler, the pods already there and reservedPerHost); lower this quota to at most ${room.isNegative() ? '0' : amount(r, room, true)} or add hosts to the fleet`,
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
  const warnings: PlanIssue[] = [];
  const ownNamespaces = new Set((model.quotas ?? []).map(quotaNamespace));
  fleetSpecs.forEach((spec, i) => {
    const fleet = planFleet(spec, pathOf(paths, 'fleets', i), ownNamespaces, issues, warnings);
    if (!fleets.has(spec.name)) fleets.set(spec.name, fleet);
  });
  const clusters = new Map<string, PlannedCluster>();
  clusterSpecs.forEach((spec, i) => {
    if (!clusters.has(spec.name)) clusters.set(spec.name, planCluster(spec, pathOf(paths, 'clusters', i), issues, warnings));
  });
  const declared = {
    fleets: new Set(fleetSpecs.map((f) => f.name)),
    quotas: new Set((model.quotas ?? []).map((q) => q.name)),
    clusters: new Set(clusterSpecs.map((c) => c.name)),
  };
  const quotas = planQuotas(model, paths, declared.fleets, fleets, issues);
  checkQuotasFitFleets(fleets, quotas, issues);
  return { fleets, clusters, quotas, declared, warnings };
}
