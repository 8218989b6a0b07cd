/**
 * The revision of a pool's nodes: what a running node took when it was made and cannot take in place. When it
 * changes, the deploy replaces every node of the pool (transition.ts proves the roll, cli/roll.ts runs it); the
 * plan writes it on each VM (render/kubevirt.ts) and in the report (`pools[].rollout.revision`).
 */
import { createHash } from 'crypto';
import { Quantity } from '../../base/quantity';
import type { PlannedAutoNode } from '../../auto';
import type { LabelSelector, PrivateNodePoolSpec } from '../../input/model';
import { bootstrapPins } from '../../input/bootstrap';
import { CLUSTER_LABEL, NODE_TYPE_LABEL, POOL_LABEL } from '../../naming/derived';
import type { PlannedVm } from '../../vm/vm';
import type { PlannedCluster, PlannedFleet } from '../types';

/** A value with its object keys in order and quantities as their strings: what a revision hashes. */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Quantity) return value.toString();
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .filter((k) => object[k] !== undefined)
      .map((k) => [k, canonical(object[k])]),
  );
}

/**
 * The revision of a pool's nodes: a hash of everything a running node took when it was made and cannot take in
 * place (the VM's build, image and root disk, the labels and taints it joined with, the cluster it joined and the
 * Kubernetes version it runs). Not its name, index or host: scaling or moving a node is not a new revision.
 */
export function nodeRevision(vm: PlannedVm, cluster: PlannedCluster | undefined, fleet: PlannedFleet | undefined): string {
  const what = {
    build: { shape: vm.shape, options: vm.options, guest: vm.guest, rootDisk: vm.rootDisk, vmiRequests: vm.vmiRequests, eviction: vm.eviction.strategy },
    image: vm.image ?? null,
    imageSource: vm.imageSource ?? null,
    nodeType: vm.nodeType,
    labels: vm.labels,
    taints: vm.taints,
    hostSelector: fleet?.spec.hostSelector ?? null,
    cluster: clusterOf(cluster),
  };
  return hashOf(what);
}

/**
 * What of a node's cluster a node took when it joined: the cluster, its Kubernetes version, and its node
 * software's pins (none for a cluster without a bootstrap, so such a pool keeps the revision it had before there
 * were any).
 */
function clusterOf(cluster: PlannedCluster | undefined): object | null {
  if (!cluster) return null;
  const bootstrap = cluster.spec.bootstrap ? bootstrapPins(cluster.spec.bootstrap) : undefined;
  return { endpoint: cluster.spec.endpoint, ca: cluster.spec.caCertificate, kubernetesVersion: cluster.kubernetesVersion, bootstrap };
}

/** The first 16 hex digits of the sha256 of a value's canonical JSON: what every revision is. */
function hashOf(what: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(what)))
    .digest('hex')
    .slice(0, 16);
}

/**
 * The revision of a pool of whole bare-metal hosts (a private node pool, or a static pool on a metal3 provider):
 * a hash of everything a host took when Metal3 provisioned it and it joined, and cannot take in place: the image
 * written to its disk, the node type and the hostSelector its HostClaim matched, the labels and taints its kubelet
 * joined with (as parts/host-nodes.ts renders them: the planned node's labels with the pool, cluster and node type
 * labels over them, and the pool's taints) and the cluster it joined at its Kubernetes version. Not the count, a
 * node's index or host, whether it is powered on, its drain timeout or failure domain: those change no node.
 */
export function hostPoolRevision(
  spec: PrivateNodePoolSpec,
  node: Pick<PlannedAutoNode, 'labels'> | undefined,
  hostSelector: LabelSelector | undefined,
  cluster: PlannedCluster | undefined,
): string {
  const { url, checksum, checksumType, format } = spec.image;
  const what = {
    host: true,
    image: { url, checksum, checksumType, format },
    nodeType: spec.nodeType,
    hostSelector: hostSelector ?? null,
    labels: { ...node?.labels, [POOL_LABEL]: spec.name, [CLUSTER_LABEL]: spec.cluster, [NODE_TYPE_LABEL]: spec.nodeType },
    taints: spec.taints ?? [],
    cluster: clusterOf(cluster),
  };
  return hashOf(what);
}

/** What a revision looks like: the first 16 hex digits of the hash `nodeRevision` takes. */
const REVISION = /^[0-9a-f]{16}$/;

/** What is wrong with a revision a command is given; undefined when it is one `nodeRevision` could write. */
export function revisionProblem(revision: string): string | undefined {
  return REVISION.test(revision) ? undefined : 'must be 16 lower-case hex digits, as the plan writes a revision';
}
