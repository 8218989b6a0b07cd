/**
 * `metalslice status`: what it reads (Observed, the clusters' objects, as loosely typed as a hostile API server
 * may send them) and what it prints (FleetStatus, the running fleet against the plan). Types only.
 * schema/metalslice-status.schema.json describes FleetStatus; a unit test holds the two together.
 */

import type { ConfigApiVersion } from '../core/input/model';

/** The object metadata status reads. */
export interface ObservedMeta {
  readonly name?: unknown;
  readonly namespace?: unknown;
  readonly uid?: unknown;
  readonly creationTimestamp?: unknown;
  readonly deletionTimestamp?: unknown;
  readonly labels?: unknown;
  readonly annotations?: unknown;
  readonly ownerReferences?: unknown;
}

/** Any object as a list returned it: nothing in it is trusted to have the type it should. */
export interface ObservedObject {
  readonly metadata?: ObservedMeta;
  readonly spec?: unknown;
  readonly status?: unknown;
}

/** What the provider cluster holds, one list per kind (undefined: the kind is not served there). */
export interface ProviderView {
  /** VirtualMachines, every namespace. */
  readonly vms: readonly ObservedObject[];
  /** VirtualMachineInstances, every namespace. */
  readonly vmis: readonly ObservedObject[];
  /** virt-launcher pods (`kubevirt.io=virt-launcher`), every namespace. */
  readonly launchers: readonly ObservedObject[];
  /** CDI DataVolumes; undefined when CDI is not installed. */
  readonly dataVolumes?: readonly ObservedObject[];
  /** Metal3 HostClaims; undefined when the kind is not served. */
  readonly hostClaims?: readonly ObservedObject[];
  /**
   * The holds of rolls cut short: ConfigMaps `<node>-roll-hold` labelled `metalslice.io/stopped-by-roll=true`
   * (cli/roll-hosts.ts), every namespace; undefined when the reader may not list ConfigMaps.
   */
  readonly holds?: readonly ObservedObject[];
  /** ResourceQuotas metalslice made (`app.kubernetes.io/managed-by=metalslice`). */
  readonly quotas: readonly ObservedObject[];
  /** The cluster's Nodes: the fleets' hosts. */
  readonly nodes: readonly ObservedObject[];
}

/** A cluster read, or why it could not be. */
export type Reading<T> = { readonly ok: true; readonly view: T } | { readonly ok: false; readonly error: string };

/** Everything status read, at one time. */
export interface Observed {
  /** When the reading began. */
  readonly at: Date;
  /** The provider cluster. */
  readonly provider: Reading<ProviderView>;
  /** Each tenant cluster's Nodes, by the metalslice cluster name. */
  readonly tenants: ReadonlyMap<string, Reading<readonly ObservedObject[]>>;
}

/** A condition in Cluster API's v1beta2 vocabulary. */
export interface StatusCondition {
  /** `Ready`, `UpToDate`, `Available`, `Deleting`. */
  type: 'Ready' | 'UpToDate' | 'Available' | 'Deleting';
  /** `True`, `False` or `Unknown` (the cluster it depends on could not be read). */
  status: 'True' | 'False' | 'Unknown';
  /** Why, in one CamelCase word: the reason of the problem that sets it. */
  reason: string;
}

/** The object a problem is about. */
export interface ProblemObject {
  /** Its kind: VirtualMachine, Pod, Node, ResourceQuota, HostClaim, Cluster, Fleet. */
  kind: string;
  /** Its name. */
  name: string;
  /** Its namespace. @default - cluster-scoped */
  namespace?: string;
  /** The cluster that holds it: `provider`, or the tenant cluster's name. */
  cluster: string;
}

/** One thing that is not as the plan says, with its evidence and what to do. */
export interface StatusProblem {
  /** What is wrong, in one CamelCase word (`LauncherPending`, `Drifted`, `Orphan`, ...). */
  reason: string;
  /** The object. */
  object: ProblemObject;
  /** Since when, as the cluster recorded it (RFC 3339). @default - not recorded */
  since?: string;
  /** What is wrong, in a sentence. */
  message: string;
  /** What the cluster recorded: the scheduler's message, KubeVirt's condition, the field and its value. @default - none */
  evidence?: string;
  /** What to do. */
  remedy: string;
}

/** A node's tenant Node as the tenant cluster has it. */
export interface TenantNodeStatus {
  /** The Node exists. */
  joined: boolean;
  /** Its Ready condition is True. */
  ready: boolean;
  /** Cordoned. */
  cordoned: boolean;
  /** metalslice cordoned it for a drain. */
  draining: boolean;
  /** The kubelet's version. @default - not joined */
  kubeletVersion?: string;
}

/** One planned node against what runs. */
export interface NodeStatus {
  /** The node's name (its VM's or HostClaim's). */
  name: string;
  /** The namespace of its VM or HostClaim. */
  namespace: string;
  /** The VM's printable status (`Running`, `Stopped`, `ErrorUnschedulable`), `Claimed` for a HostClaim, `Missing`. */
  machine: string;
  /** The VMI's phase. @default - no VMI */
  instance?: string;
  /** The host the plan put it on; null when the scheduler picks one. */
  plannedHost: string | null;
  /** The host it runs on (the VMI's node, else its launcher pod's). @default - none */
  host?: string;
  /** The revision its VM's template carries. @default - no VM */
  revision?: string;
  /** The revision its running instance was made from. @default - no VMI */
  runningRevision?: string;
  /** A roll is replacing it (the VM's replacing mark). */
  replacing: boolean;
  /** Its tenant Node. @default - the tenant cluster could not be read */
  tenantNode?: TenantNodeStatus;
  /** When its VM (or HostClaim) was made (RFC 3339). @default - missing */
  created?: string;
  /** Ready, UpToDate, Available (and Deleting while it goes). */
  conditions: StatusCondition[];
}

/** A pool, counted as Cluster API counts a MachineDeployment's machines. */
export interface PoolStatus {
  /** The pool's name. */
  name: string;
  /** The tenant cluster its nodes join. */
  cluster: string;
  /** `elastic`, `static`, `dynamic` or `private`. */
  kind: string;
  /** The namespace of its VMs or HostClaims. */
  namespace: string;
  /** The revision every node should run. @default - none (private pools) */
  revision?: string;
  /** Nodes the plan declares; null for a dynamic pool (its autoscaler decides). */
  desired: number | null;
  /** Its VMs or HostClaims that exist and are not being deleted. */
  existing: number;
  /** Nodes whose tenant Node is Ready. */
  ready: number;
  /** Nodes at the plan's revision, VM and instance, with no field changed by hand. */
  upToDate: number;
  /** Nodes Ready, up to date and not cordoned. */
  available: number;
  /** Its nodes, in the plan's order. */
  nodes: NodeStatus[];
}

/** A quota's ResourceQuota: hard and used as the API server has them, against the plan. */
export interface QuotaStatus {
  /** The quota's name. */
  name: string;
  /** Its namespace. */
  namespace: string;
  /** By ResourceQuota key (`requests.cpu`): what the plan writes as hard. */
  planned: Record<string, string>;
  /** What the plan counts as used when every planned VM runs. */
  plannedUse: Record<string, string>;
  /** The ResourceQuota's spec.hard. */
  hard: Record<string, string>;
  /** The ResourceQuota's status.used. */
  used: Record<string, string>;
}

/** A fleet's hosts as the provider cluster has them, against the inventory. */
export interface FleetHostsStatus {
  /** The fleet's name. */
  name: string;
  /** Hosts in the inventory. */
  inventory: number;
  /** Of those, Nodes the cluster has. */
  seen: number;
  /** Of those, Ready and not cordoned. */
  usable: number;
  /** Inventory hosts with no Node. */
  missing: string[];
  /** Hosts NotReady. */
  notReady: string[];
  /** Hosts cordoned. */
  cordoned: string[];
  /** The fleet as it runs now can lose any one usable host: every VM of it finds room on the others. */
  canLoseAnyHost: boolean;
  /** The hosts whose loss would strand VMs now, and how many. */
  critical: { host: string; vms: number; stranded: number }[];
}

/** A cluster status read. */
export interface ClusterReading {
  /** `provider`, or the tenant cluster's name. */
  name: string;
  /** `provider` or `tenant`. */
  role: 'provider' | 'tenant';
  /** It was read. */
  read: boolean;
  /** Why not, and the fix. @default - read */
  error?: string;
}

/** `metalslice status -o json` (schema/metalslice-status.schema.json). */
export interface FleetStatus {
  /** The config's apiVersion, `metalslice.io/v1alpha1`. */
  apiVersion: ConfigApiVersion;
  /** `FleetStatus`. */
  kind: 'FleetStatus';
  /** When the clusters were read (RFC 3339). */
  observedAt: string;
  /** Every cluster was read and nothing differs from the plan. */
  converged: boolean;
  /** Each cluster status read, and whether it could. */
  clusters: ClusterReading[];
  /** Counts over every pool with planned nodes, and the problems. */
  summary: { desired: number; existing: number; ready: number; upToDate: number; available: number; problems: number };
  /** Each pool. */
  pools: PoolStatus[];
  /** Each quota. */
  quotas: QuotaStatus[];
  /** Each fleet's hosts. */
  fleets: FleetHostsStatus[];
  /** Everything that is not as the plan says. */
  problems: StatusProblem[];
}
