/**
 * The revision of a pool's nodes: what a running node took when it was made and cannot take in place. When it
 * changes, the deploy replaces every node of the pool (transition.ts proves the roll, cli/roll.ts runs it); the
 * plan writes it on each VM (render/kubevirt.ts) and in the report (`pools[].rollout.revision`).
 */
import { createHash } from 'crypto';
import { Quantity } from '../../base/quantity';
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
    cluster: cluster ? { endpoint: cluster.spec.endpoint, ca: cluster.spec.caCertificate, kubernetesVersion: cluster.kubernetesVersion } : null,
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(what)))
    .digest('hex')
    .slice(0, 16);
}

/** What a revision looks like: the first 16 hex digits of the hash `nodeRevision` takes. */
const REVISION = /^[0-9a-f]{16}$/;

/** What is wrong with a revision a command is given; undefined when it is one `nodeRevision` could write. */
export function revisionProblem(revision: string): string | undefined {
  return REVISION.test(revision) ? undefined : 'must be 16 lower-case hex digits, as the plan writes a revision';
}
