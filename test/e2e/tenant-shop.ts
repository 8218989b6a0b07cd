// A tenant's workloads on a node that is about to go, for the drain proofs on a cluster started with
// `workloads` (kube-scheduler, KWOK as the kubelet, the workload controllers): a Deployment's pod under a
// PodDisruptionBudget that allows no disruption, and a StatefulSet's pod, both on that node; then a second
// node they can move to. What happened is read from the API server's watch events, never from metalslice's output.
import type { KubeClient } from './harness';
import { TENANT_KWOK_NODE_LABEL, TENANT_KWOK_NODE_TAINT } from './harness';
import { waitFor, type WatchEvent, type WatchStream } from '../../constructs/verify/processes';
import type { KubeDoc, KubeList } from '../support/kube-docs';

/** A pod as the tests read it. */
export interface ShopPod extends KubeDoc {
  readonly spec: { readonly nodeName?: string };
  readonly status?: { readonly phase?: string; readonly conditions?: { readonly type: string; readonly status: string }[] };
}

/** One pod's life as the watch saw it: where it was bound and the resourceVersion of its deletion. */
export interface PodRecord {
  readonly name: string;
  nodeName?: string;
  deletedAt?: number;
}

/** Polls (verify's waitFor) until `probe` returns a value, else throws naming what never came (or, at once, why it never will: `gaveUp`). */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, gaveUp?: () => string | undefined): Promise<T> {
  let found: T | undefined;
  await waitFor(what, timeoutMs, async () => (found = await probe()) !== undefined, gaveUp);
  return found as T;
}

/** Waits until a drain has cordoned `node`, giving up at once when the deploy running it has ended (`gaveUp`). */
export function cordoned(api: KubeClient, node: string, timeoutMs: number, gaveUp: () => string | undefined): Promise<true> {
  return until(
    `Node ${node} cordoned`,
    timeoutMs,
    async () => ((await api.get<{ spec?: { unschedulable?: boolean } }>(`/api/v1/nodes/${node}`)).body.spec?.unschedulable === true ? true : undefined),
    gaveUp,
  );
}

/** A command still running, and what it said if it ended: for `until`'s `gaveUp`. */
export function watchEnd(running: Promise<{ code: number | null; stdout: string; stderr: string }>): () => string | undefined {
  let ended: string | undefined;
  void running.then((r) => (ended = `the command ended first (exit ${r.code}):\n${(r.stdout + r.stderr).slice(-3000)}`));
  return () => ended;
}

/**
 * A stand-in guest's join: Node `name` of `pool` made and marked Ready (as a kubelet registers), with one pod of the
 * shop bound to it (`app-on-<name>`, in `namespace`), which a drain must evict. False when the Node was there already.
 */
export async function standInJoin(api: KubeClient, name: string, pool: string, namespace: string): Promise<boolean> {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'metalslice.io/pool': pool } } };
  if ((await api.create('/api/v1/nodes', node)).status !== 201) return false;
  const ready = { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'joined' }] } };
  await api.request('PATCH', `/api/v1/nodes/${name}/status`, ready, 'application/merge-patch+json');
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `app-on-${name}`, namespace, labels: { app: 'shop' } },
    spec: { nodeName: name, terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'registry.invalid/c:1' }] },
  };
  await api.create(`/api/v1/namespaces/${namespace}/pods`, pod);
  return true;
}

/** Creates a Node KWOK keeps Ready, tainted so only the shop's pods land on it, and waits until it is Ready. */
export async function kwokNode(api: KubeClient, name: string): Promise<void> {
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [TENANT_KWOK_NODE_LABEL.key]: TENANT_KWOK_NODE_LABEL.value } },
    spec: { taints: [TENANT_KWOK_NODE_TAINT] },
  };
  const created = await api.create('/api/v1/nodes', node);
  if (created.status !== 201) throw new Error(`creating Node ${name}: HTTP ${created.status}`);
  await until(`Node ${name} Ready (KWOK)`, 60_000, async () => {
    const n = await api.get<{ status?: ShopPod['status'] }>(`/api/v1/nodes/${name}`);
    return n.body.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
  });
  // The API server's TaintNodesByCondition admission tainted the new Node not-ready; the node lifecycle controller
  // (not run here: KWOK renews no Lease) lifts that taint once the kubelet reports Ready, so the test does.
  const lifted = await api.request('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: [TENANT_KWOK_NODE_TAINT] } }, 'application/merge-patch+json');
  if (lifted.status !== 200) throw new Error(`lifting the not-ready taint of Node ${name}: HTTP ${lifted.status}`);
}

const ready = (p: ShopPod): boolean => p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The shop's pods now. */
export async function shopPods(api: KubeClient, namespace: string): Promise<ShopPod[]> {
  return (await api.get<KubeList<ShopPod>>(`/api/v1/namespaces/${namespace}/pods`)).body.items;
}

/** Waits until the pods of `app` are Running and Ready, one each, on `node`; returns them. */
export async function readyOn(api: KubeClient, namespace: string, app: string, node: string, timeoutMs = 120_000): Promise<ShopPod> {
  return until(`a pod of ${namespace}/${app} Running and Ready on ${node}`, timeoutMs, async () => {
    const pods = (await shopPods(api, namespace)).filter((p) => p.metadata.labels?.app === app && p.metadata.deletionTimestamp === undefined);
    return pods.length === 1 && pods[0].spec.nodeName === node && ready(pods[0]) ? pods[0] : undefined;
  });
}

/**
 * Opens the shop on `node` (which must be the only Node its pods may use): namespace, Deployment `cart` (one
 * replica, rolling with maxUnavailable 0) under PDB `cart` with maxUnavailable 0, and StatefulSet `db` (one
 * replica); returns once both pods run there and the disruption controller has counted the budget.
 */
export async function openShop(api: KubeClient, namespace: string, node: string): Promise<{ cart: ShopPod; db: ShopPod }> {
  const podSpec = {
    nodeSelector: { [TENANT_KWOK_NODE_LABEL.key]: TENANT_KWOK_NODE_LABEL.value },
    tolerations: [{ key: TENANT_KWOK_NODE_TAINT.key, operator: 'Equal', value: TENANT_KWOK_NODE_TAINT.value, effect: TENANT_KWOK_NODE_TAINT.effect }],
    terminationGracePeriodSeconds: 5,
    containers: [{ name: 'c', image: 'registry.invalid/shop:1' }],
  };
  const objects: [string, unknown][] = [
    ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }],
    [
      `/apis/apps/v1/namespaces/${namespace}/deployments`,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'cart' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'cart' } },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
          template: { metadata: { labels: { app: 'cart' } }, spec: podSpec },
        },
      },
    ],
    [
      `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`,
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'cart' },
        spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'cart' } } },
      },
    ],
    [
      `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db' },
        spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: podSpec } },
      },
    ],
  ];
  for (const [collection, body] of objects) {
    const res = await api.create(collection, body);
    if (res.status !== 201) throw new Error(`creating ${collection}: HTTP ${res.status}: ${JSON.stringify(res.body)}`);
  }
  const [cart, db] = [await readyOn(api, namespace, 'cart', node), await readyOn(api, namespace, 'db', node)];
  // The budget counted: one healthy pod, no disruption allowed.
  await until(`PodDisruptionBudget ${namespace}/cart counted`, 60_000, async () => {
    const pdb = (
      await api.get<{ status?: { currentHealthy?: number; disruptionsAllowed?: number } }>(`/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets/cart`)
    ).body;
    return pdb.status?.currentHealthy === 1 && pdb.status.disruptionsAllowed === 0 ? true : undefined;
  });
  return { cart, db };
}

/** Raises the budget to allow one disruption. */
export async function raiseBudget(api: KubeClient, namespace: string): Promise<void> {
  const res = await api.request(
    'PATCH',
    `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets/cart`,
    { spec: { maxUnavailable: 1 } },
    'application/merge-patch+json',
  );
  if (res.status !== 200) throw new Error(`raising the budget: HTTP ${res.status}`);
}

/**
 * Closes the shop: deletes its namespace and waits until it is gone (KWOK ends its pods' deletion while it still
 * plays their node's kubelet; no pod garbage collector runs here), then deletes the `nodes` it ran on.
 */
export async function closeShop(api: KubeClient, namespace: string, nodes: readonly string[]): Promise<void> {
  await api.delete(`/api/v1/namespaces/${namespace}`);
  await until(`namespace ${namespace} deleted`, 120_000, async () => ((await api.get(`/api/v1/namespaces/${namespace}`)).status === 404 ? true : undefined));
  for (const node of nodes) await api.delete(`/api/v1/nodes/${node}`);
}

/** Watches the shop's pods, by UID: where each was bound, and when (resourceVersion) it was deleted. */
export function recordPods(api: KubeClient, namespace: string): { readonly pods: Map<string, PodRecord>; readonly watch: WatchStream } {
  const pods = new Map<string, PodRecord>();
  const watch = api.watch<ShopPod>(`/api/v1/namespaces/${namespace}/pods?watch=1`, (e: WatchEvent<ShopPod>) => {
    const uid = e.object.metadata.uid ?? '';
    const record = pods.get(uid) ?? { name: e.object.metadata.name };
    record.nodeName = e.object.spec.nodeName ?? record.nodeName;
    if (e.type === 'DELETED') record.deletedAt = Number(e.object.metadata.resourceVersion);
    pods.set(uid, record);
  });
  return { pods, watch };
}
