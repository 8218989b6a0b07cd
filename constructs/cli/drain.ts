/**
 * `metalslice drain-node NODE [--kubeconfig FILE] [--context NAME] [--timeout 15m] [--keep-node]`: what a stack
 * runs before it deletes a node's VM or HostClaim. It cordons the tenant Node, evicts its pods through the Eviction
 * API (so PodDisruptionBudgets are asked, and a refusal is waited out), leaves DaemonSet and mirror pods as
 * `kubectl drain` does, never evicts a pod annotated `karpenter.sh/do-not-disrupt: "true"`, waits until the evicted
 * pods are gone, and then waits until no VolumeAttachment names the Node (Cluster API's `WaitingForVolumeDetach`:
 * a volume still attached when its machine goes is left for the storage system to clean up).
 *
 * A node ends in Cluster API's order: drained, volumes detached, machine gone, then its Node. So with `--keep-node`
 * (what a stack passes) the drained Node stays, cordoned and annotated as draining, and `metalslice remove-node`
 * deletes it once the VM or HostClaim is gone: a guest never runs on without its Node, and a deploy cut short
 * between the two leaves a drained Node that says what it is. Without it (a stack deployed by metalslice 0.2,
 * whose state has no later step) the Node is deleted here, as then.
 *
 * Exit 0: drained (and the Node deleted, without --keep-node), or never there. Exit 1: the drain or a volume's
 * detach ran out of time, or the API server refused; the message names the pods or the VolumeAttachments still
 * there and why, the Node is uncordoned again if the drain cordoned it (its VM stays, so it keeps serving), and
 * running the command again (the next deploy does) drains it again. Exit 2: bad options or kubeconfig.
 */
import { parse } from 'yaml';
import {
  DEFAULT_DRAIN_TIMEOUT,
  DEFAULT_POLL_INTERVAL_SECONDS,
  DO_NOT_DISRUPT_ANNOTATION,
  drainTimeoutProblem,
  drainTimeoutSeconds,
  pollIntervalProblem,
} from '../core/input/disruption';
import { caHashProblem } from '../core/input/join-token';
import { escapeText } from '../core/base/excerpt';
import { dns1123SubdomainProblem } from '../core/naming/kube-names';
import { DRAINING_ANNOTATION } from '../core/naming/derived';
import { KubeApiError, KubeClient, Response, shortReason } from './kube/client';
import { findTarget, KubeconfigError } from './kube/config';
import { caCertHash } from '../render/cloud-init';

export interface DrainOptions {
  /**
   * The tenant cluster's CA hash (`sha256:<hex>`, as a join pins it): the drain first checks that the kubeconfig
   * reaches that cluster (its kube-public/cluster-info CA), so a Node missing from another cluster is never taken
   * for a Node already drained. @default - no check
   */
  readonly clusterCaHash?: string;
  /** @default - as kubectl: $KUBECONFIG, then ~/.kube/config, then in-cluster */
  readonly kubeconfig?: string;
  /** @default - the kubeconfig's current context */
  readonly context?: string;
  /** @default "15m" */
  readonly timeout?: string;
  /** Seconds between two rounds of evictions. @default 2 */
  readonly interval?: number;
  /** Leave the drained Node for `remove-node`, which deletes it once its machine is gone. @default false */
  readonly keepNode?: boolean;
}

export interface DrainIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A pod as the drain reads it. */
interface WirePod {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly annotations?: Record<string, string>;
    readonly ownerReferences?: readonly { readonly kind?: string; readonly controller?: boolean }[];
    readonly deletionTimestamp?: string;
  };
  readonly status?: { readonly phase?: string };
}

/** A Node as the drain reads it. */
interface WireNode {
  readonly status?: { readonly conditions?: readonly { readonly type?: string; readonly status?: string }[] };
}

/** A pod the drain must see gone, and why it is still there after a round. */
interface Blocker {
  readonly pod: string;
  readonly why: string;
}

/**
 * Pods left on the Node: mirror pods (the kubelet's static pods) and DaemonSet pods, as `kubectl drain` leaves
 * them; and pods that have ended (`kubectl drain` deletes those; deleting the Node has the garbage collector do it).
 */
function staysOnNode(pod: WirePod): boolean {
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return true;
  if ((pod.metadata?.ownerReferences ?? []).some((o) => o.controller === true && o.kind === 'DaemonSet')) return true;
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** The API server's own short reason for a refusal, escaped and capped. */
export function reasonOf(res: Response): string {
  const body = res.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? shortReason(body.message) : `HTTP ${res.status}`;
}

/**
 * On a Node whose kubelet is unreachable (Ready `Unknown`) no kubelet will confirm a pod's deletion: as Cluster
 * API's drain does, pods there are evicted with a grace period of 1 s (a pod already terminating is evicted again,
 * which shortens its grace), and a pod whose deletion time has passed by a second counts as gone. Deleting the
 * Node then lets the pod garbage collector remove it.
 */
export const UNREACHABLE_GRACE_SECONDS = 1;

/** Whether the Node's kubelet has stopped reporting (Ready is Unknown). */
function unreachable(node: WireNode): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'Unknown');
}

/** A refusal that waiting will not change (bad request, credentials, RBAC): the drain stops at once. */
function fatalEviction(res: Response, pod: string, client: KubeClient): KubeApiError {
  const fix = res.status === 403 ? `: ${client.target.who} needs create on pods/eviction (README "Changing a fleet")` : '';
  return new KubeApiError(`the eviction of ${escapeText(pod)} was refused: HTTP ${res.status}, ${reasonOf(res)}${fix}`, res.status);
}

/** Evicts one pod; returns why it is still there, or throws when waiting cannot help. */
async function evict(client: KubeClient, namespace: string, name: string, kubeletGone: boolean): Promise<string> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/eviction`;
  const body = {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace },
    ...(kubeletGone ? { deleteOptions: { gracePeriodSeconds: UNREACHABLE_GRACE_SECONDS } } : {}),
  };
  const res = await client.send('POST', path, body);
  if (res.status >= 200 && res.status < 300) return 'evicted, still terminating';
  if (res.status === 404) return 'gone from the API server';
  if (res.status === 429) return `its PodDisruptionBudget allows no disruption now (${reasonOf(res)})`;
  if (res.status >= 500) return `the API server could not evict it now (${reasonOf(res)})`;
  throw fatalEviction(res, `${namespace}/${name}`, client);
}

/** One round: evicts every pod that may go; returns the pods still on the node and why. */
async function evictRound(client: KubeClient, node: string, kubeletGone: boolean): Promise<Blocker[]> {
  const pods = await client.list<WirePod>('/api/v1/pods', { fieldSelector: `spec.nodeName=${node}` });
  const blockers: Blocker[] = [];
  for (const pod of pods) {
    if (staysOnNode(pod)) continue;
    const { name = '', namespace = '' } = pod.metadata ?? {};
    const id = `${namespace}/${name}`;
    const deleting = pod.metadata?.deletionTimestamp;
    if (deleting !== undefined && !kubeletGone) {
      blockers.push({ pod: id, why: 'evicted, still terminating' });
      continue;
    }
    if (deleting !== undefined && Date.now() - Date.parse(deleting) > UNREACHABLE_GRACE_SECONDS * 1000) continue;
    if (deleting === undefined && pod.metadata?.annotations?.[DO_NOT_DISRUPT_ANNOTATION] === 'true') {
      blockers.push({ pod: id, why: `annotated ${DO_NOT_DISRUPT_ANNOTATION}: "true" (remove the annotation or the pod)` });
      continue;
    }
    blockers.push({ pod: id, why: await evict(client, namespace, name, kubeletGone) });
  }
  return blockers;
}

/** A write the drain needs; throws with the status and the fix when it is refused. */
async function mustWrite(client: KubeClient, method: 'PATCH' | 'DELETE', path: string, what: string, body?: unknown): Promise<void> {
  const res = await client.send(method, path, body, 'application/merge-patch+json');
  if ((res.status >= 200 && res.status < 300) || res.status === 404) return;
  const fix = res.status === 403 ? `: ${client.target.who} needs ${method === 'PATCH' ? 'patch' : 'delete'} on nodes (README "Changing a fleet")` : '';
  throw new KubeApiError(`cannot ${what}: HTTP ${res.status}, ${reasonOf(res)}${fix}`, res.status);
}

/** Whether an error is one the next round may not meet (no answer, a server error, throttling). */
function passing(e: unknown): e is KubeApiError {
  return e instanceof KubeApiError && (e.status === undefined || e.status >= 500 || e.status === 429);
}

const sleep = (seconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** One round as blockers: the API server not answering is one more reason to wait, not to stop. */
async function round(client: KubeClient, node: string, nodePath: string): Promise<Blocker[]> {
  try {
    const now = await client.get(nodePath);
    if (now.status >= 500) return [{ pod: `Node ${node}`, why: `the API server could not read it now (${reasonOf(now)})` }];
    return await evictRound(client, node, now.status === 200 && unreachable(now.body as WireNode));
  } catch (e) {
    if (!passing(e)) throw e;
    return [{ pod: `Node ${node}`, why: `the API server did not answer (${e.message})` }];
  }
}

/** A VolumeAttachment as the drain reads it. */
interface WireAttachment {
  readonly metadata?: { readonly name?: string };
  readonly spec?: { readonly attacher?: string; readonly nodeName?: string; readonly source?: { readonly persistentVolumeName?: string } };
  readonly status?: { readonly attached?: boolean; readonly detachError?: { readonly message?: string } };
}

/** Where the drain lists VolumeAttachments (cluster-scoped; no field selector on the node, so all are listed). */
const VOLUME_ATTACHMENTS = '/apis/storage.k8s.io/v1/volumeattachments';

/**
 * The node's VolumeAttachments, each as a blocker naming the volume, its attacher and the storage system's own
 * reason (its detach error) when it gave one. A 403 is fatal, with the fix.
 */
async function attachedVolumes(client: KubeClient, node: string): Promise<Blocker[]> {
  let all: WireAttachment[];
  try {
    all = await client.list<WireAttachment>(VOLUME_ATTACHMENTS);
  } catch (e) {
    if (e instanceof KubeApiError && e.status === 403)
      throw new KubeApiError(
        `cannot list VolumeAttachments: ${e.message}: ${client.target.who} needs list on volumeattachments.storage.k8s.io (README "Changing a fleet")`,
        403,
      );
    throw e;
  }
  return all
    .filter((va) => va.spec?.nodeName === node)
    .map((va) => {
      const volume = va.spec?.source?.persistentVolumeName ?? 'an inline volume';
      const error = va.status?.detachError?.message;
      return {
        pod: `VolumeAttachment ${va.metadata?.name ?? ''}`,
        why: `volume ${volume} (attacher ${va.spec?.attacher ?? 'unknown'}) still attached${error === undefined ? '' : `: detach error: ${error}`}`,
      };
    });
}

/**
 * Whether the kubeconfig reaches the cluster whose CA hash the stack pinned: kube-public/cluster-info, which every
 * cluster a node joins by bootstrap token publishes (readable without credentials), holds its CA. Throws with the fix
 * when it is another cluster, or when the cluster says nothing to tell.
 */
export async function checkCluster(client: KubeClient, expected: string): Promise<void> {
  const res = await client.get('/api/v1/namespaces/kube-public/configmaps/cluster-info');
  const where = `${client.target.server} (${client.target.source})`;
  if (res.status >= 500 || res.status === 429) throw new KubeApiError(`cannot read kube-public/cluster-info from ${where}: HTTP ${res.status}`, res.status);
  const text = (res.body as { data?: { kubeconfig?: unknown } } | undefined)?.data?.kubeconfig;
  let ca: string | undefined;
  try {
    const doc = typeof text === 'string' ? (parse(text) as { clusters?: { cluster?: Record<string, unknown> }[] }) : undefined;
    const data = doc?.clusters?.[0]?.cluster?.['certificate-authority-data'];
    ca = typeof data === 'string' ? Buffer.from(data, 'base64').toString('utf8') : undefined;
  } catch {
    ca = undefined;
  }
  let found: string | undefined;
  try {
    found = ca === undefined ? undefined : caCertHash(ca);
  } catch {
    found = undefined;
  }
  if (found === undefined)
    throw new KubeApiError(
      `${where} publishes no CA in kube-public/cluster-info (HTTP ${res.status}), so it cannot be told apart from another cluster: point the tenant cluster's kubeconfigPath/kubeconfigContext at it, or set METALSLICE_DRAIN=skip to delete without a drain`,
      res.status,
    );
  if (found !== expected)
    throw new KubeApiError(
      `${where} is not the tenant cluster the node joined (its CA hash is ${found}, the node's is ${expected}): set the tenant cluster's kubeconfigPath/kubeconfigContext (or KUBE_CONFIG_PATH/KUBE_CTX) to that cluster`,
    );
}

/**
 * Cordons, evicts until nothing but what stays is left, waits until no volume is attached to the node, then (unless
 * `keepNode`) deletes the Node: 0 when drained, 1 when the time ran out (said on `io`). Throws KubeApiError when the
 * API server refuses what waiting cannot change.
 */
export async function drainNode(client: KubeClient, node: string, timeoutSeconds: number, interval: number, io: DrainIo, keepNode = false): Promise<number> {
  const nodePath = `/api/v1/nodes/${encodeURIComponent(node)}`;
  const found = await client.get(nodePath);
  if (found.status === 404) {
    io.stdout(`drain-node: Node ${node} is not in the cluster: nothing to drain\n`);
    return 0;
  }
  if (found.status < 200 || found.status > 299) throw new KubeApiError(`cannot read Node ${node}: HTTP ${found.status}, ${reasonOf(found)}`, found.status);
  const before = found.body as { metadata?: { annotations?: Record<string, string> }; spec?: { unschedulable?: boolean } };
  // Whether the identity may see the node's volumes, asked before anything is written (a 403 says the fix).
  await attachedVolumes(client, node);
  // Cordoned by someone else before: theirs to undo. Cordoned by an earlier drain of ours: ours.
  const ours = before.spec?.unschedulable !== true || before.metadata?.annotations?.[DRAINING_ANNOTATION] !== undefined;
  const mark = ours ? { metadata: { annotations: { [DRAINING_ANNOTATION]: 'true' } } } : {};
  await mustWrite(client, 'PATCH', nodePath, `cordon Node ${node}`, { ...mark, spec: { unschedulable: true } });
  io.stdout(`drain-node: Node ${node} cordoned\n`);
  const deadline = Date.now() + timeoutSeconds * 1000;
  let said = '';
  // First the pods, then (once none is left) the volumes their storage system detaches from the node.
  let stage: 'pods' | 'volumes' = 'pods';
  for (;;) {
    let blockers: Blocker[];
    try {
      blockers = stage === 'pods' ? await round(client, node, nodePath) : await volumeRound(client, node);
    } catch (e) {
      // A refusal waiting cannot change (RBAC, a bad request): the node keeps serving, as after a timeout.
      if (ours) await uncordon(client, nodePath);
      throw e;
    }
    if (blockers.length === 0 && stage === 'pods') {
      stage = 'volumes';
      continue;
    }
    if (blockers.length === 0) break;
    const still = blockers.map((b) => `  ${escapeText(b.pod)}: ${b.why}`).join('\n');
    const what = stage === 'pods' ? `${blockers.length} pod(s) of` : `${blockers.length} volume(s) to detach from`;
    if (still !== said) io.stdout(`drain-node: waiting on ${what} ${node}:\n${still}\n`);
    said = still;
    if (Date.now() >= deadline) {
      // The VM stays, so the node keeps serving: uncordoned again if the cordon was the drain's.
      const back = ours ? await uncordon(client, nodePath) : false;
      const fix =
        stage === 'pods'
          ? "Let these pods go (raise the budget, move or delete them), or raise the pool's drainTimeout, then deploy again: the drain starts over.\n"
          : "Each volume's storage system has not detached it from the node: see the VolumeAttachment's status (kubectl describe volumeattachment NAME) and its CSI driver's logs, or raise the pool's drainTimeout, then deploy again. Nothing was deleted.\n";
      io.stderr(
        `drain-node: Node ${node} was not drained in ${timeoutSeconds} s; its VM is not deleted${back ? ' and it is uncordoned again' : ''}. Still there:\n${still}\n` +
          fix,
      );
      return 1;
    }
    await sleep(Math.min(interval, Math.max(0, (deadline - Date.now()) / 1000)));
  }
  if (keepNode) {
    io.stdout(`drain-node: Node ${node} drained, no volume attached; it stays (cordoned) until its machine is gone\n`);
    return 0;
  }
  await mustWrite(client, 'DELETE', nodePath, `delete Node ${node}`);
  io.stdout(`drain-node: Node ${node} drained and deleted\n`);
  return 0;
}

/** The volumes still attached, as blockers: the API server not answering is one more reason to wait. */
async function volumeRound(client: KubeClient, node: string): Promise<Blocker[]> {
  try {
    return await attachedVolumes(client, node);
  } catch (e) {
    if (!passing(e)) throw e;
    return [{ pod: `VolumeAttachments of ${node}`, why: `the API server did not answer (${e.message})` }];
  }
}

/**
 * Deletes the Node of a machine that is gone (the last step of a node's end); a Node already gone is fine. Throws
 * KubeApiError when the API server refuses.
 */
export async function removeNode(client: KubeClient, node: string, io: DrainIo): Promise<void> {
  await mustWrite(client, 'DELETE', `/api/v1/nodes/${encodeURIComponent(node)}`, `delete Node ${node}`);
  io.stdout(`remove-node: Node ${node} deleted (its machine is gone)\n`);
}

/** Undoes the drain's cordon; false when the API server would not (the next deploy drains again anyway). */
async function uncordon(client: KubeClient, nodePath: string): Promise<boolean> {
  try {
    const res = await client.send(
      'PATCH',
      nodePath,
      { metadata: { annotations: { [DRAINING_ANNOTATION]: null } }, spec: { unschedulable: false } },
      'application/merge-patch+json',
    );
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

/**
 * A command on one tenant Node: refuses a bad Node name, a bad `--cluster-ca-hash` or the command's own `problem`
 * (exit 2) before it talks to any cluster, finds the cluster, checks it is the one the node joined, and runs `act`;
 * a refusal or an unreachable API server is said with `afterFailure` (exit 1), bad credentials exit 2.
 */
async function onTenantNode(
  command: string,
  node: string,
  opts: RemoveNodeOptions,
  io: DrainIo,
  problem: string | undefined,
  act: (client: KubeClient) => Promise<number>,
  afterFailure = '',
): Promise<number> {
  const nameProblem = dns1123SubdomainProblem(node);
  const caHash = opts.clusterCaHash === undefined ? undefined : caHashProblem(opts.clusterCaHash);
  const usage = nameProblem !== undefined ? `the Node name ${nameProblem}` : (problem ?? (caHash !== undefined ? `--cluster-ca-hash ${caHash}` : undefined));
  if (usage !== undefined) {
    io.stderr(`metalslice ${command}: ${usage}\n`);
    return 2;
  }
  let client: KubeClient;
  try {
    client = new KubeClient(findTarget({ kubeconfig: opts.kubeconfig, context: opts.context }));
  } catch (e) {
    if (!(e instanceof KubeconfigError)) throw e;
    io.stderr(`metalslice ${command}: ${e.message}\n`);
    return 2;
  }
  try {
    if (opts.clusterCaHash !== undefined) await checkCluster(client, opts.clusterCaHash);
    return await act(client);
  } catch (e) {
    if (!(e instanceof KubeApiError) && !(e instanceof KubeconfigError)) throw e;
    io.stderr(`metalslice ${command}: ${e.message}\n${afterFailure}`);
    // Credentials that are not what they must be (found when the first request is made) are a usage error.
    return e instanceof KubeconfigError ? 2 : 1;
  }
}

/** The command `drain-node`: checks the options, finds the cluster, drains. */
export async function runDrainNode(node: string, opts: DrainOptions, io: DrainIo): Promise<number> {
  const timeout = opts.timeout ?? DEFAULT_DRAIN_TIMEOUT;
  const interval = opts.interval ?? DEFAULT_POLL_INTERVAL_SECONDS;
  const timeoutProblem = drainTimeoutProblem(timeout);
  const intervalProblem = pollIntervalProblem(interval);
  const problem = timeoutProblem !== undefined ? `--timeout ${timeoutProblem}` : intervalProblem !== undefined ? `--interval ${intervalProblem}` : undefined;
  return onTenantNode('drain-node', node, opts, io, problem, (client) =>
    drainNode(client, node, drainTimeoutSeconds(timeout) ?? 0, interval, io, opts.keepNode === true),
  );
}

/** Options of `remove-node`: how to reach the tenant cluster. */
export type RemoveNodeOptions = Pick<DrainOptions, 'clusterCaHash' | 'kubeconfig' | 'context'>;

/** The command `remove-node`: checks the options, finds the cluster, deletes the Node of a machine that is gone. */
export async function runRemoveNode(node: string, opts: RemoveNodeOptions, io: DrainIo): Promise<number> {
  return onTenantNode(
    'remove-node',
    node,
    opts,
    io,
    undefined,
    async (client) => {
      await removeNode(client, node, io);
      return 0;
    },
    'Its machine is gone; deploy again to delete the Node.\n',
  );
}
