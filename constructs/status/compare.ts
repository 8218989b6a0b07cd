/**
 * The running fleet against the plan: every pool counted as Cluster API counts a MachineDeployment's machines,
 * every node, quota and fleet host compared, and every difference named as a problem with its evidence and
 * what to do. Pure: it reads only what the clusters returned (Observed) and what the plan says (Expected).
 */
import { escapeControls, excerptText } from '../core/base/excerpt';
import { CONFIG_API_VERSION } from '../core/input/config-schema';
import { CLUSTER_LABEL, MANAGED_BY, POOL_LABEL, RESOURCE_QUOTA_NAME, SURGE_LABEL } from '../core/naming/derived';
import type { Expected, ExpectedPool } from './expected';
import { DEPLOY_AGAIN, hostNodeStatus, Lookup, newestLaunchers, resumeRoll, vmNodeStatus } from './nodes';
import { fleetHosts } from './hosts';
import { arr, byKey, deleting, keyOf, labelOf, nameOf, namespaceOf, quantity, rec, str, strings } from './objects';
import type { FleetHostsStatus, FleetStatus, Observed, ObservedObject, PoolStatus, ProviderView, QuotaStatus, StatusProblem } from './types';

/** Every reason a problem may have, so a metric of each is written even when none is seen. */
export const PROBLEM_REASONS = [
  'ClusterUnreadable',
  'MachineMissing',
  'InstanceMissing',
  'RevisionNotApplied',
  'RestartRequired',
  'Replacing',
  'HeldByRoll',
  'Drifted',
  'LauncherPending',
  'DiskNotReady',
  'WaitingForNode',
  'NodeNotJoined',
  'NodeNotReady',
  'NodeCordoned',
  'Draining',
  'SurgeLeftBehind',
  'Orphan',
  'QuotaMissing',
  'QuotaUseDiffers',
  'HostMissing',
  'HostNotReady',
  'HostCordoned',
  'NoHostFailureHeadroom',
] as const;

/** What status compares with. */
export interface CompareOptions {
  /** Seconds a started node may take to be Ready before it is said never to have joined. */
  readonly joinTimeoutSeconds: number;
}

function lookupOf(view: ProviderView, observed: Observed, options: CompareOptions): Lookup {
  const tenants = new Map<string, Map<string, ObservedObject>>();
  for (const [cluster, reading] of observed.tenants) if (reading.ok) tenants.set(cluster, new Map(reading.view.map((n) => [nameOf(n), n])));
  return {
    at: observed.at,
    joinTimeoutSeconds: options.joinTimeoutSeconds,
    vms: byKey(view.vms),
    vmis: byKey(view.vmis),
    launchers: newestLaunchers(view.launchers),
    hostClaims: view.hostClaims ? byKey(view.hostClaims) : undefined,
    holds: view.holds ? byKey(view.holds) : undefined,
    dataVolumes: view.dataVolumes ? byKey(view.dataVolumes) : undefined,
    tenantNodes: (cluster) => tenants.get(cluster),
  };
}

function poolStatus(pool: ExpectedPool, look: Lookup, view: ProviderView, problems: StatusProblem[]): PoolStatus {
  const nodes = pool.nodes.map((node) => {
    const judged = pool.machine === 'HostClaim' ? hostNodeStatus(pool, node, look) : vmNodeStatus(pool, node, look);
    problems.push(...judged.problems);
    return judged.status;
  });
  const listed = pool.kind === 'dynamic' ? (pool.machine === 'HostClaim' ? (view.hostClaims ?? []) : view.vms) : [];
  const own = listed.filter((o) => namespaceOf(o) === pool.namespace && labelOf(o, POOL_LABEL) === pool.name && !deleting(o));
  const is = (type: string) => (n: (typeof nodes)[number]) => n.conditions.some((c) => c.type === type && c.status === 'True');
  const existing = pool.kind === 'dynamic' ? own.length : nodes.filter((n) => n.machine !== 'Missing' && !is('Deleting')(n)).length;
  return {
    name: pool.name,
    cluster: pool.cluster,
    kind: pool.kind,
    namespace: pool.namespace,
    ...(pool.revision !== undefined ? { revision: pool.revision } : {}),
    desired: pool.kind === 'dynamic' ? null : pool.nodes.length,
    existing,
    ready: nodes.filter(is('Ready')).length,
    upToDate: nodes.filter(is('UpToDate')).length,
    available: nodes.filter(is('Available')).length,
    nodes,
  };
}

/** VMs and HostClaims in the plan's namespaces (or made by metalslice) that no pool declares: surge VMs a roll left, and orphans. */
function strayProblems(expected: Expected, view: ProviderView): StatusProblem[] {
  const planned = new Set(expected.pools.flatMap((p) => p.nodes.map((n) => `${p.namespace}/${n.name}`)));
  const counted = new Set(expected.pools.filter((p) => p.kind === 'dynamic').map((p) => `${p.namespace}/${p.name}`));
  const clusters = new Set(expected.pools.map((p) => p.cluster));
  // In a namespace of this plan, or made by metalslice for a cluster of this plan (another stack's are its own).
  const ours = (o: ObservedObject) =>
    expected.namespaces.has(namespaceOf(o)) ||
    (labelOf(o, 'app.kubernetes.io/managed-by') === MANAGED_BY['app.kubernetes.io/managed-by'] && clusters.has(labelOf(o, CLUSTER_LABEL) ?? ''));
  // A VM a controller owns (Cluster API's KubevirtMachine, an autoscaler's) is that controller's to end.
  const owned = (o: ObservedObject) => arr(o.metadata?.ownerReferences).some((r) => rec(r)?.controller === true);
  const out: StatusProblem[] = [];
  for (const [kind, objects] of [
    ['VirtualMachine', view.vms],
    ['HostClaim', view.hostClaims ?? []],
  ] as const) {
    for (const o of objects) {
      if (!ours(o) || planned.has(keyOf(o)) || deleting(o) || owned(o)) continue;
      const pool = labelOf(o, POOL_LABEL);
      if (pool !== undefined && counted.has(`${namespaceOf(o)}/${pool}`)) continue;
      const object = { kind, name: nameOf(o), namespace: namespaceOf(o), cluster: 'provider' };
      const surgeOf = labelOf(o, SURGE_LABEL);
      const since = str(o.metadata?.creationTimestamp);
      out.push(
        surgeOf !== undefined
          ? {
              reason: 'SurgeLeftBehind',
              object,
              since,
              message: `a surge VM of pool ${excerptText(surgeOf)} that a roll made and did not delete: the roll was cut short`,
              remedy: resumeRoll('roll-nodes', 'the roll resumes and deletes it once the pool is replaced'),
            }
          : {
              reason: 'Orphan',
              object,
              since,
              message: `no pool of the plan declares this ${kind}${pool !== undefined ? ` (its pool label says ${excerptText(pool)})` : ''}: it holds quota and host room the plan does not count`,
              remedy: `kubectl delete ${kind === 'VirtualMachine' ? 'vm' : 'hostclaim'} ${escapeControls(nameOf(o))} -n ${escapeControls(namespaceOf(o))}, after draining its Node if it joined a cluster`,
            },
      );
    }
  }
  return out;
}

function quotaStatus(expected: Expected, view: ProviderView, problems: StatusProblem[]): QuotaStatus[] {
  const byNs = new Map(view.quotas.filter((q) => nameOf(q) === RESOURCE_QUOTA_NAME).map((q) => [namespaceOf(q), q]));
  return expected.quotas.map((q) => {
    const rq = byNs.get(q.namespace);
    const object = { kind: 'ResourceQuota', name: RESOURCE_QUOTA_NAME, namespace: q.namespace, cluster: 'provider' };
    const hard = strings(rec(rq?.spec)?.hard);
    const used = strings(rec(rq?.status)?.used);
    if (!rq) {
      problems.push({ reason: 'QuotaMissing', object, message: `quota ${q.name} has no ResourceQuota`, remedy: `${DEPLOY_AGAIN}: the stack creates it` });
    } else {
      for (const [key, value] of Object.entries(q.hard)) {
        if (!sameQuantity(value, hard[key]))
          problems.push({
            reason: 'Drifted',
            object,
            message: `spec.hard[${JSON.stringify(key)}] was changed outside the stack`,
            evidence: `the cluster holds ${excerptText(hard[key] ?? 'absent')}; the stack writes ${value}`,
            remedy: `${DEPLOY_AGAIN}: the stack takes the limit back; change the quota's limits in the config instead`,
          });
      }
      // An autoscaler's nodes count against the quota too, in a number the plan bounds but does not fix.
      const dynamic = expected.pools.some((p) => p.kind === 'dynamic' && p.namespace === q.namespace);
      const differs = dynamic ? [] : Object.entries(q.use).filter(([key, value]) => key in used && !sameQuantity(value, used[key]));
      if (differs.length > 0)
        problems.push({
          reason: 'QuotaUseDiffers',
          object,
          message: `quota ${q.name} counts another use than the plan: ${differs.map(([k, v]) => `${k} used ${excerptText(used[k])}, planned ${v}`).join('; ')}`,
          remedy:
            'look for VMs or pods the plan does not count (orphans, surge VMs above) or planned VMs not running; the quota controller also lags a few seconds behind a change',
        });
    }
    return { name: q.name, namespace: q.namespace, planned: { ...q.hard }, plannedUse: { ...q.use }, hard, used };
  });
}

/** Two quantities by value (`1024Mi` is `1Gi`); anything that is not one, as written. */
function sameQuantity(a: string | undefined, b: string | undefined): boolean {
  const [qa, qb] = [quantity(a), quantity(b)];
  return qa && qb ? qa.eq(qb) : a === b;
}

function summaryOf(pools: readonly PoolStatus[], problems: number): FleetStatus['summary'] {
  const sum = (f: (p: PoolStatus) => number) => pools.reduce((s, p) => s + f(p), 0);
  return {
    desired: sum((p) => p.desired ?? 0),
    existing: sum((p) => p.existing),
    ready: sum((p) => p.ready),
    upToDate: sum((p) => p.upToDate),
    available: sum((p) => p.available),
    problems,
  };
}

/** The running fleet against the plan. */
export function compareFleet(expected: Expected, observed: Observed, options: CompareOptions): FleetStatus {
  const problems: StatusProblem[] = [];
  const clusters: FleetStatus['clusters'] = [
    { name: 'provider', role: 'provider', read: observed.provider.ok, ...(observed.provider.ok ? {} : { error: observed.provider.error }) },
  ];
  for (const [name, reading] of [...observed.tenants].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    clusters.push({ name, role: 'tenant', read: reading.ok, ...(reading.ok ? {} : { error: reading.error }) });
  }
  for (const c of clusters.filter((x) => !x.read))
    problems.push({
      reason: 'ClusterUnreadable',
      object: { kind: 'Cluster', name: c.name, cluster: c.name },
      message: `the ${c.role === 'provider' ? 'provider cluster' : `tenant cluster ${c.name}`} could not be read: ${c.error ?? ''}`,
      remedy:
        "check the kubeconfig and context status uses for it (--kubeconfig, or the cluster's kubeconfigPath and kubeconfigContext) and that its API server is up",
    });
  let pools: PoolStatus[] = [];
  let quotas: QuotaStatus[] = [];
  let fleets: FleetHostsStatus[] = [];
  if (observed.provider.ok) {
    const view = observed.provider.view;
    const look = lookupOf(view, observed, options);
    pools = expected.pools.map((p) => poolStatus(p, look, view, problems));
    problems.push(...strayProblems(expected, view));
    quotas = quotaStatus(expected, view, problems);
    fleets = expected.fleets.map((f) => fleetHosts(f, view, problems));
  }
  return {
    apiVersion: CONFIG_API_VERSION,
    kind: 'FleetStatus',
    observedAt: observed.at.toISOString(),
    converged: problems.length === 0,
    clusters,
    summary: summaryOf(pools, problems.length),
    pools,
    quotas,
    fleets,
    problems,
  };
}
