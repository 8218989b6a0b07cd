/**
 * Every name metalslice derives and every label key it sets: one small rule each, with its reason. Whatever
 * names a node, a VM, a namespace or a label asks here; owners.ts then checks that no two owners end up
 * with the same derived name.
 */
import { createHash } from 'crypto';
import type { QuotaSpec } from '../input/model';

// ---- Label keys ----------------------------------------------------------------------------------------------

/** metalslice's own label keys live under this prefix. */
export const LABEL_PREFIX = 'metalslice.io';
/** On every VM, HostClaim and node of a pool: the pool's name (the inventory tells launcher pods apart by it). */
export const POOL_LABEL = `${LABEL_PREFIX}/pool`;
/** On a quota's objects and its VMs: the quota's name. */
export const QUOTA_LABEL = `${LABEL_PREFIX}/quota`;
/** On node objects and node environments: the tenant cluster they serve. */
export const CLUSTER_LABEL = `${LABEL_PREFIX}/cluster`;
/** On node objects and node environments: the node provider that makes them. */
export const PROVIDER_LABEL = `${LABEL_PREFIX}/provider`;
/**
 * On the VMs, HostClaims and nodes metalslice creates: the node type chosen for them (`provider.type`). Not the
 * vCluster property below: this one is metalslice's record of the choice, read back by selectors and reports.
 */
export const NODE_TYPE_LABEL = `${LABEL_PREFIX}/node-type`;
/** On a quota's namespace: the organisation that owns it. */
export const ORGANIZATION_LABEL = `${LABEL_PREFIX}/organization`;
/** On everything metalslice creates (the Kubernetes recommended label). */
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'metalslice' } as const;
/** The name of a quota's ResourceQuota in its namespace (one per namespace). */
export const RESOURCE_QUOTA_NAME = 'metalslice';
/** On a VM's pod template, so its launcher pod names the VM (KubeVirt's own key). */
export const VM_NAME_LABEL = 'kubevirt.io/vm';

/**
 * The annotation on a VM's template (so also on each VMI made from it) naming the revision of the node it makes
 * (core/plan/change/revision.ts): a VMI whose revision is not its VM's is a node to replace.
 */
export const REVISION_ANNOTATION = `${LABEL_PREFIX}/revision`;

/**
 * The same key as a label on a private node's HostClaim: the revision of the node it provisions. A label, so the
 * stack lists the claims not at its pool's revision (`!=`) when it plans, and leaves them as they are for the roll.
 */
export const REVISION_LABEL = REVISION_ANNOTATION;

/**
 * The prefix of host group labels: a pool the plan confines to a group of hosts selects the label
 * `group.metalslice.io/<cluster>.<pool>` (`hostGroupLabel`), which metalslice writes on those hosts' Nodes.
 */
export const HOST_GROUP_LABEL_PREFIX = `group.${LABEL_PREFIX}`;
/** The value of a host group label on the Nodes of the group's hosts. */
export const HOST_GROUP_LABEL_VALUE = 'true';

/** The label on a surge VM (and its Secret) a roll makes: the pool it stands in for. */
export const SURGE_LABEL = `${LABEL_PREFIX}/surge-of`;
/** On every Node `verify` replays the hosts as: a reset deletes by it. */
export const REPLAY_NODE_LABEL = `${LABEL_PREFIX}/replay`;
/** On the replayed Nodes KWOK manages (`kwok`): KWOK's node selector. */
export const KWOK_NODE_LABEL = `${LABEL_PREFIX}/verify`;
/** On a replayed launcher pod: the host the plan put its VM on, to compare with where kube-scheduler bound it. */
export const PLANNED_HOST_ANNOTATION = `${LABEL_PREFIX}/planned-host`;
/** On a fleet's KubeVirt CR: the fleet it configures. */
export const FLEET_LABEL = `${LABEL_PREFIX}/fleet`;
/** The annotation on a tenant Node that says metalslice cordoned it for a drain (a drain that gives up uncordons it). */
export const DRAINING_ANNOTATION = `${LABEL_PREFIX}/draining`;
/**
 * The annotation on a VM while a roll replaces it, from before its drain until its new Node is Ready:
 * `<revision>:stopping` until the roll has started it on a fresh disk, then `<revision>:started` (cli/roll.ts).
 */
export const REPLACING_ANNOTATION = `${LABEL_PREFIX}/replacing`;
/**
 * The label on a VM the roll has stopped (runStrategy Halted) until it starts it again on a fresh disk: the stack
 * reads it at plan time and applies such a VM as Halted, so a deploy resumed after a roll was cut short never starts
 * it on the disk the roll is replacing (parts/node-rollout.ts).
 */
export const ROLL_STOPPED_LABEL = `${LABEL_PREFIX}/stopped-by-roll`;
/**
 * vCluster's node-type property: every node type offers it (its name), so a pool selects a type by name, and a
 * node of an auto-node pool carries it. vCluster's key, so a vcluster.yaml written for vCluster selects alike.
 */
export const VCLUSTER_NODE_TYPE_LABEL = 'vcluster.com/node-type';
/** The well-known Kubernetes instance-type label: a node type's name, as Karpenter and the kubelet use it. */
export const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';

// ---- Derived names -------------------------------------------------------------------------------------------

/**
 * A node of an auto-node (static) pool, or of a private node pool: `<cluster>-<pool>-<i>`. The cluster comes
 * first because one provider cluster holds the nodes of many tenant clusters, and pool names are unique per
 * cluster only.
 */
export function autoNodeName(cluster: string, pool: string, index: number): string {
  return `${cluster}-${pool}-${index}`;
}

/**
 * One VM of a dynamic pool's worst case at its limits: `<cluster>-<pool>-limit-<i>`. It is never created (the
 * autoscaler names its own nodes): the plan places and reports it under this name.
 */
export function limitVmName(cluster: string, pool: string, index: number): string {
  return `${cluster}-${pool}-limit-${index}`;
}

/**
 * The label key of a pool's host group: `group.metalslice.io/<cluster>.<pool>` for an elastic pool (names unique in
 * the model), `group.metalslice.io/<cluster>.auto.<pool>` for an auto-node pool (names unique per cluster), so no
 * two pools share one (a pool name has no dot). Keyed by the pool, not by its hosts, so regrouping changes labels
 * on Nodes and never a VM's selector. A name part over 63 characters (a label key's limit) is shortened with a
 * stable hash suffix, as namespaces are.
 */
export function hostGroupLabel(cluster: string, pool: string, kind: 'elastic' | 'auto' = 'elastic'): string {
  const plain = kind === 'elastic' ? `${cluster}.${pool}` : `${cluster}.auto.${pool}`;
  return `${HOST_GROUP_LABEL_PREFIX}/${shortened(plain, 63, [kind, cluster, pool])}`;
}

/**
 * `plain` when it has at most `max` characters; else its start and a stable hash of `parts` (what it was made
 * of, kept apart so `a-b` + `c` and `a` + `b-c` differ), in `max` characters: `<start>-<8 hex digits>`. The start
 * loses a trailing `-` or `.`, so the name still ends in a letter or digit, as DNS labels and label names must.
 */
export function shortened(plain: string, max: number, parts: readonly string[]): string {
  if (plain.length <= max) return plain;
  const hash = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 8);
  return `${plain.slice(0, max - 9).replace(/[-.]+$/, '')}-${hash}`;
}

/** `<node>-cloudinit`: the Secret a node's VM takes its user data (cloud-config) from, a surge VM's too. */
export function vmUserDataSecretName(nodeName: string): string {
  return `${nodeName}-cloudinit`;
}

/**
 * `<node>-roll-hold`: the ConfigMap that says a roll released a private node's claim and has not yet deleted its old
 * Node (the stack makes such a claim again powered off). A ConfigMap: a list of it holds no secret.
 */
export function rollHoldName(nodeName: string): string {
  return `${nodeName}-roll-hold`;
}

/** `<node>-userdata`: the Secret a private node's HostClaim takes its cloud-config from. */
export function hostClaimUserDataSecretName(nodeName: string): string {
  return `${nodeName}-userdata`;
}

/**
 * Surge VM `k` of a pool's roll: `<pool>-<k>-surge`, ending in `-surge`, which no node of a pool does (they end in
 * their index); the pool part is cut so the whole stays a DNS label.
 */
export function surgeVmName(pool: string, k: number): string {
  const suffix = `-${k}-surge`;
  return `${pool.slice(0, 63 - suffix.length).replace(/-+$/, '')}${suffix}`;
}

/** A VM (and its node) of an elastic node pool: `<pool>-<i>`. Pool names are unique per quota namespace. */
export function poolVmName(pool: string, index: number): string {
  return `${pool}-${index}`;
}

/** The namespace of a quota's VMs: as written, else `<organization>-<name>`, so two organisations never share one. */
export function quotaNamespace(spec: Pick<QuotaSpec, 'namespace' | 'organization' | 'name'>): string {
  return spec.namespace ?? `${spec.organization}-${spec.name}`;
}

/**
 * The namespace of one (tenant cluster x node provider) pair's node objects: `<cluster>-<provider>`, or, when
 * that is longer than a DNS label allows, a shortened form with a stable hash suffix so two long pairs never
 * share a namespace.
 */
export function nodeEnvironmentNamespace(env: { readonly cluster: string; readonly provider: string }): string {
  return shortened(`${env.cluster}-${env.provider}`, 63, [env.cluster, env.provider]);
}
