/**
 * A snapshot of a provider cluster as kube-scheduler sees it, for `metalslice verify --snapshot`: its Nodes
 * (labels, taints, cordon, capacity, allocatable, conditions) and its bound pods (labels, what they request,
 * and the scheduling fields other pods' placement reads). Everything else is left out: no Secret is read,
 * and no container command, argument, environment, image or volume is copied, so a snapshot can be
 * committed or attached to a pull request. Pure: objects come in as plain JSON.
 */
import { MetalsliceError, UnreadableInputError } from '../base/errors';
import { MAX_SNAPSHOT_NODES } from '../base/bounds';
import { isRecord } from '../base/records';
import { ContainerResources, NodeObject, PodObject, podIsTerminal } from './inventory';

/** The snapshot's kind and version. */
export const SNAPSHOT_API_VERSION = 'metalslice.io/v1alpha1';
export const SNAPSHOT_KIND = 'ClusterSnapshot';

/** What `metalslice inventory --snapshot` writes. */
export interface ClusterSnapshot {
  /** `metalslice.io/v1alpha1`. */
  readonly apiVersion: typeof SNAPSHOT_API_VERSION;
  /** `ClusterSnapshot`. */
  readonly kind: typeof SNAPSHOT_KIND;
  /** The Nodes, sorted by name. */
  readonly nodes: readonly NodeObject[];
  /** The pods bound to a Node and not Succeeded or Failed, sorted by namespace and name. */
  readonly pods: readonly PodObject[];
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function strippedNode(node: NodeObject): NodeObject {
  const conditions = (node.status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status }));
  return {
    metadata: { name: node.metadata.name, labels: { ...(node.metadata.labels ?? {}) } },
    spec: {
      ...(node.spec?.taints && node.spec.taints.length > 0
        ? { taints: node.spec.taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })) }
        : {}),
      ...(node.spec?.unschedulable ? { unschedulable: true } : {}),
    },
    status: { capacity: { ...(node.status?.capacity ?? {}) }, allocatable: { ...(node.status?.allocatable ?? {}) }, conditions },
  };
}

function strippedContainer(c: ContainerResources, i: number): ContainerResources {
  return {
    name: c.name ?? `c${i}`,
    resources: { requests: { ...(c.resources?.requests ?? {}) }, limits: { ...(c.resources?.limits ?? {}) } },
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
  };
}

function strippedPod(pod: PodObject): PodObject {
  const spec = pod.spec ?? {};
  return {
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default', labels: { ...(pod.metadata.labels ?? {}) } },
    spec: {
      nodeName: spec.nodeName,
      containers: (spec.containers ?? []).map(strippedContainer),
      ...(spec.initContainers && spec.initContainers.length > 0 ? { initContainers: spec.initContainers.map(strippedContainer) } : {}),
      ...(spec.overhead ? { overhead: { ...spec.overhead } } : {}),
      ...(spec.resources?.requests ? { resources: { requests: { ...spec.resources.requests } } } : {}),
      ...(spec.tolerations ? { tolerations: spec.tolerations } : {}),
      ...(spec.nodeSelector ? { nodeSelector: { ...spec.nodeSelector } } : {}),
      ...(spec.affinity ? { affinity: spec.affinity } : {}),
      ...(spec.topologySpreadConstraints ? { topologySpreadConstraints: spec.topologySpreadConstraints } : {}),
    },
  };
}

/** The snapshot of a cluster's Nodes and the pods bound to them. */
export function buildSnapshot(nodes: readonly NodeObject[], pods: readonly PodObject[]): ClusterSnapshot {
  return {
    apiVersion: SNAPSHOT_API_VERSION,
    kind: SNAPSHOT_KIND,
    nodes: nodes.map(strippedNode).sort((a, b) => byName(a.metadata.name, b.metadata.name)),
    pods: pods
      .filter((p) => p.spec?.nodeName && !podIsTerminal(p))
      .map(strippedPod)
      .sort((a, b) => byName(`${a.metadata.namespace}/${a.metadata.name}`, `${b.metadata.namespace}/${b.metadata.name}`)),
  };
}

/** Checks a parsed snapshot file's shape; `source` names it in the error. */
export function checkSnapshot(data: unknown, source: string): ClusterSnapshot {
  const problem = (message: string): never => {
    throw new MetalsliceError([{ path: source, message: `${message}: write it with \`metalslice inventory --snapshot FILE\`` }]);
  };
  if (!isRecord(data) || data.kind !== SNAPSHOT_KIND || data.apiVersion !== SNAPSHOT_API_VERSION)
    problem(`is not a ${SNAPSHOT_KIND} (${SNAPSHOT_API_VERSION})`);
  const snapshot = data as Record<string, unknown>;
  if (!Array.isArray(snapshot.nodes) || !Array.isArray(snapshot.pods)) problem('has no nodes or pods list');
  const nodes = snapshot.nodes as unknown[];
  const pods = snapshot.pods as unknown[];
  // Before a Node is looked at: the replay makes a KWOK node of each.
  if (nodes.length > MAX_SNAPSHOT_NODES)
    throw new UnreadableInputError([
      {
        path: source,
        message: `has ${nodes.length.toLocaleString('en-US')} nodes, more than the ${MAX_SNAPSHOT_NODES.toLocaleString('en-US')} hosts of one provider cluster metalslice replays: take the snapshot of one provider cluster`,
      },
    ]);
  nodes.forEach((n, i) => {
    if (!isRecord(n) || !isRecord(n.metadata) || typeof n.metadata.name !== 'string') problem(`nodes[${i}] has no metadata.name`);
  });
  pods.forEach((p, i) => {
    if (!isRecord(p) || !isRecord(p.metadata) || typeof p.metadata.name !== 'string' || !isRecord(p.spec) || typeof p.spec.nodeName !== 'string')
      problem(`pods[${i}] has no metadata.name or spec.nodeName`);
  });
  return data as ClusterSnapshot;
}
