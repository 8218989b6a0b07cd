/**
 * The planner's data: what planModel returns (Plan), what it writes (PlanReport) and the planned objects the
 * phases pass each other. A leaf: types only, so index.ts and the phase files (foundation, elastic-vms,
 * type-selection, auto-node-vms, accounting, placement, headroom) all read them here instead of importing each other.
 */
import type { NodeEnvironmentRef, PlannedAutoPool } from '../auto';
import type { PlanIssue } from '../base/errors';
import type { HostTaken } from '../hosts/offer';
import type { ClusterSpec, FleetSpec, MetalsliceConfig, NodePoolSpec, PrivateNodePoolSpec, QuotaSpec, Taint } from '../input/model';
import type { NodeProvider } from '../auto/node-types';
import type { PoolPreview } from '../auto/preview';
import type { ResourceVector } from '../base/resources';
import type { FleetKubevirt, PlannedVm } from '../vm/vm';

/** Where each entry of the model came from, for error paths: config paths or construct paths. */
export type ModelPaths = { readonly [K in keyof MetalsliceConfig]?: readonly string[] };

/** Options of planModel. */
export interface PlanOptions {
  /** Where each model entry was written (construct paths), for problems. @default - config paths (`nodePools[2]`) */
  readonly paths?: ModelPaths;
  /** A host label naming failure domains (rack, zone): N+1 headroom is also checked per domain. @default - hosts only */
  readonly failureDomain?: string;
}

/** A host of a fleet as planned. */
export interface PlannedHost {
  /** The host's name. */
  readonly name: string;
  /** Its labels. */
  readonly labels: Readonly<Record<string, string>>;
  /** What it has (the Node's capacity). */
  readonly capacity: ResourceVector;
  /** What the kubelet lets pods have (the Node's allocatable; capacity when not given). */
  readonly nodeAllocatable: ResourceVector;
  /** What is taken before any VM of the plan: virt-handler, pods already there, reservedPerHost. */
  readonly taken: HostTaken;
  /** What VMs can have: nodeAllocatable less everything taken. */
  readonly allocatable: ResourceVector;
  /** Its taints as the Node carries them (cordon and not-ready taints included). */
  readonly taints: readonly Taint[];
  /** Cordoned. */
  readonly unschedulable: boolean;
  /** Its Ready condition is True. */
  readonly ready: boolean;
  /** metalslice VMs of this model already running there: `namespace/name` -> what each launcher pod requests. */
  readonly running: ReadonlyMap<string, ResourceVector>;
  /** The host group label keys the last deploy gave it (HostSpec `hostGroups`): the groups placement keeps where they prove. @default - none */
  readonly hostGroups?: ReadonlySet<string>;
}

/** A host of a fleet on which no launcher pod can land, and why. */
export interface ExcludedHost {
  /** The host's name. */
  readonly name: string;
  /** Why (NotReady, cordoned, a taint launcher pods do not tolerate, ...). */
  readonly reason: string;
  /** The host as planned, for the replay: it is still a Node of the cluster. */
  readonly host: PlannedHost;
}

/** A fleet as planned: its hosts, capacity and KubeVirt settings. */
export interface PlannedFleet {
  /** The fleet's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The fleet as written. */
  readonly spec: FleetSpec;
  /** The hosts VMs can use. */
  readonly hosts: readonly PlannedHost[];
  /** The hosts no launcher pod can land on: they carry no VM and count for nothing. */
  readonly excludedHosts: readonly ExcludedHost[];
  /** What its usable hosts offer VMs (allocatable less what is taken, summed). */
  readonly capacity: ResourceVector;
  /** vCPUs per physical CPU. */
  readonly cpuAllocationRatio: number;
  /** What the fleet's KubeVirt CR says about VMs: settings and permitted devices. */
  readonly kubevirt: FleetKubevirt;
}

/** A quota as planned. */
export interface PlannedQuota {
  /** The quota's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The quota as written. */
  readonly spec: QuotaSpec;
  /** Its fleet. */
  readonly fleet: string;
  /** The namespace of its VMs. */
  readonly namespace: string;
  /** Its limits, parsed. */
  readonly limits: ResourceVector;
  /** Live migrations the quota keeps room for. */
  readonly liveMigrations: number;
}

/** A tenant cluster as planned. */
export interface PlannedCluster {
  /** The cluster's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The cluster as written. */
  readonly spec: ClusterSpec;
  /** The Kubernetes minor version of its nodes. */
  readonly kubernetesVersion: string;
}

/** One node of an elastic pool as planned. */
export interface PlannedNode {
  /** VM / object name, unique in its namespace; stable when the pool scales. */
  readonly name: string;
  /** The host the planner found room on; undefined when it could not be placed. */
  readonly host?: string;
}

/** An elastic node pool as planned. */
export interface PlannedPool {
  /** Always `elastic`. */
  readonly kind: 'elastic';
  /** The pool's name. */
  readonly name: string;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** The pool as written. */
  readonly spec: NodePoolSpec;
  /** Its quota. */
  readonly quota: string;
  /** Its quota's fleet. */
  readonly fleet: string;
  /** The tenant cluster its nodes join. */
  readonly cluster: string;
  /** The namespace of its VMs. */
  readonly namespace: string;
  /** The node type label of its nodes. */
  readonly nodeType: string;
  /** The guest: what each VM is given. */
  readonly shape: ResourceVector;
  /** What each VM takes from its host: the launcher pod's requests, its disk, one pod. */
  readonly footprint: ResourceVector;
  /** Its nodes and their hosts. */
  readonly nodes: readonly PlannedNode[];
  /**
   * Its VMs as planned and placed, one per node and in node order: what each node's VirtualMachine is
   * rendered from, so a construct takes node i's VM by position instead of looking a name up.
   */
  readonly vms: readonly PlannedVm[];
}

/** An elastic pool as the VM list phase builds it: its VMs are handed to it once they are placed. */
export type UnplacedPool = Omit<PlannedPool, 'vms'>;

/** The plan as reported (`metalslice plan --json`, metalslice-plan.json): plain JSON, stable order. */
export interface PlanReport {
  /** Whether everything fits: no errors. */
  readonly ok: boolean;
  /** The KubeVirt release whose launcher pods the plan counts. */
  readonly kubevirtVersion: string;
  /** Problems, each at the path where it was written and with the fix; any error means nothing is deployed. */
  readonly errors: readonly PlanIssue[];
  /** Findings that do not stop the plan (ignored fields, pods that would stay pending, ...). */
  readonly warnings: readonly PlanIssue[];
  /** Each fleet's capacity and what the plan allocates from it. */
  readonly fleets: readonly ReportFleet[];
  /** Each quota's limits and what its pools allocate. */
  readonly quotas: readonly ReportQuota[];
  /** Every pool, with its nodes and, for auto-node pools, how the node type was chosen. */
  readonly pools: readonly ReportPool[];
  /** Node environments: one per (tenant cluster x provider) pair in use. */
  readonly environments?: readonly ReportEnvironment[];
  /** The tenant clusters, each with where its nodes get their node software. @default - none */
  readonly clusters?: readonly ReportCluster[];
}

/** A fleet in the plan report. Quantities are exact Kubernetes quantities by resource name. */
export interface ReportFleet {
  /** The fleet's name. */
  name: string;
  /** Number of hosts. */
  hosts: number;
  /** What the hosts offer VMs: capacity minus reservedPerHost, summed. */
  capacity: Record<string, string>;
  /** What the planned VMs' launcher pods take. */
  allocated: Record<string, string>;
  /** Capacity minus allocated. */
  free: Record<string, string>;
  /** The quotas' limits on this fleet, summed. */
  quotaLimits: Record<string, string>;
  /** The same four, readable (`9.45 Ti`, `1252 cores`): for people, never for arithmetic. */
  human: {
    /** Capacity, readable. */
    capacity: Record<string, string>;
    /** Allocated, readable. */
    allocated: Record<string, string>;
    /** Free, readable. */
    free: Record<string, string>;
    /** Quota limits, readable. */
    quotaLimits: Record<string, string>;
  };
  /** Per host, in the fleet's order: what it can give VMs, what the planned VMs take, and how many. */
  hostUsage: ReportHostUsage[];
  /** N+1: the hosts (and failure domains) whose loss strands VMs. @default - not checked (a fleet without hosts) */
  headroom?: FleetHeadroom;
}

/** One host's use in the plan report. */
export interface ReportHostUsage {
  /** The host's name. */
  name: string;
  /** VMs the plan places on it. */
  vms: number;
  /** What it can give VMs (capacity minus reservedPerHost). */
  allocatable: Record<string, string>;
  /** What the planned VMs' launcher pods take on it. */
  used: Record<string, string>;
}

/** A quota in the plan report. */
export interface ReportQuota {
  /** The quota's name. */
  name: string;
  /** The fleet it is a slice of. */
  fleet: string;
  /** The organisation that owns it. */
  organization: string;
  /** The namespace of its VMs. */
  namespace: string;
  /** Its limits (the ResourceQuota's hard values). */
  limits: Record<string, string>;
  /** What its VMs' launcher pods request, as the ResourceQuota counts them. */
  allocated: Record<string, string>;
  /** Kept free for live migrations (a second launcher pod each). */
  migrationHeadroom: Record<string, string>;
  /** Number of its VMs. */
  virtualMachines: number;
  /** Limits and allocation, readable: for people, never for arithmetic. */
  human: {
    /** Limits, readable. */
    limits: Record<string, string>;
    /** Allocated, readable. */
    allocated: Record<string, string>;
  };
}

/** How a pool rolls, as the plan proved it. */
export interface PoolRollout {
  /** The revision of the pool's nodes: a change of it replaces every node (render/kubevirt.ts writes it on each VM). */
  readonly revision: string;
  /** Surge VMs (a pool of whole hosts: surge hosts) made before old nodes go (what fits: the pool's own value, or the fallback). */
  readonly maxSurge: number;
  /** Nodes out of service at once. */
  readonly maxUnavailable: number;
  /** The host each surge VM has room on, beside the placed VMs; a pool of whole hosts: the free matching hosts it claims. */
  readonly surgeHosts: readonly string[];
  /** What the quota holds at the peak of the roll: its VMs, its migration room and the surge; a pool of whole hosts: `{hosts: count + maxSurge}`. */
  readonly peak: ResourceVector;
  /** What each of the pool's VMs (a surge VM too) takes from its quota, in the resources the quota limits; a pool of whole hosts: `{hosts: 1}`. */
  readonly each: ResourceVector;
  /** Set when the pool's surge did not fit and the roll falls back: why. */
  readonly fallback?: string;
}

/** How a pool rolls, as the report writes it (core/plan/change/transition.ts). */
export interface ReportRollout {
  /** The revision of the pool's nodes: when it changes, every node is replaced. */
  revision: string;
  /** Surge VMs made before old nodes go. */
  maxSurge: number;
  /** Nodes out of service at once. */
  maxUnavailable: number;
  /** The host each surge VM has room on, beside the placed VMs. */
  surgeHosts: string[];
  /** What the quota holds at the peak of the roll: its VMs, its migration room and the surge. */
  peak: Record<string, string>;
  /**
   * What each of the pool's VMs takes from its quota, in the resources the quota limits: what a later plan's
   * `--previous` comparison counts an old node at. @default - not written (a plan of metalslice before 0.2.0)
   */
  each?: Record<string, string>;
}

/** A pool in the plan report. */
export interface ReportPool {
  /** The pool's name. */
  name: string;
  /** `elastic`, `static`, `dynamic` or `private`. */
  kind: string;
  /** The tenant cluster its nodes join. */
  cluster: string;
  /** The quota its VMs count against. @default - none (metal3 pools) */
  quota?: string;
  /** The fleet its VMs run on. @default - none (metal3 pools) */
  fleet?: string;
  /** The node type of its nodes (the chosen one, for auto-node pools). */
  nodeType: string;
  /** Its node provider. @default - none (elastic pools) */
  provider?: string;
  /** One node's guest resources. */
  shape: Record<string, string>;
  /** What one node takes from its host (the launcher pod's requests, or the whole host). */
  footprint: Record<string, string>;
  /** Shape and footprint, readable: for people, never for arithmetic. */
  human: {
    /** Shape, readable. */
    shape: Record<string, string>;
    /** Footprint, readable. */
    footprint: Record<string, string>;
  };
  /** What the pool's nodes cost, in vCluster's cost units (its node types' cost; elastic pools at vCluster's default cost of their shape). */
  cost: number;
  /** KubeVirt pools: each VM's launcher pod, what a host drain does to it, and whether it is spread or pinned. @default - none (metal3 pools) */
  launcher?: ReportLauncher;
  /**
   * How a change its running nodes cannot take in place replaces them, as the plan proved it: the revision every
   * node carries, the surge made first and the hosts it has room on, nodes out of service at once, and what the
   * quota holds at the peak. @default - none (pools without VMs)
   */
  rollout?: ReportRollout;
  /** Its nodes and the host each lands on (null: a dynamic pool's node, placed when it is created). */
  nodes: ReportNode[];
  /** Auto-node pools: the matching types, cheapest first (the Karpenter instance types). @default - none */
  candidates?: {
    /** The type (`provider.type`). */
    nodeType: string;
    /** Its cost per node. */
    cost: number;
  }[];
  /** Auto-node pools: every type that lost, and why. @default - none */
  rejected?: {
    /** The type (`provider.type`). */
    nodeType: string;
    /** Why it lost. */
    reason: string;
  }[];
  /** Dynamic pools with `preview` pods: the nodes they would create, at least cost. @default - none */
  preview?: PoolPreview;
}

/** A KubeVirt pool's VMs as the launcher pod sees them. */
export interface ReportLauncher {
  /** What each VM's virt-launcher pod requests. */
  requests: Record<string, string>;
  /** KubeVirt's memory overhead on top of the guest's memory. */
  memoryOverhead: string;
  /** The VM's evictionStrategy. */
  eviction: string;
  /** Why that eviction strategy. */
  evictionReason: string;
  /** `spread` (kube-scheduler spreads the pool) or `planned` (each VM pinned to its planned host). */
  placement: 'spread' | 'planned';
  /** A spread pool's host group and its migration room. @default - none (pinned pools) */
  group?: ReportGroup;
}

/** The hosts a spread pool is confined to, and the room its VMs have to migrate in. */
export interface ReportGroup {
  /** The group's hosts; absent: every host of the fleet. */
  hosts?: string[];
  /** The Node label the pool's VMs select (metalslice writes it on the group's hosts); absent with `hosts`. */
  label?: string;
  /** How many hosts. */
  size: number;
  /** The most VMs of the pool any host of the group can get (ceil(count / size)). */
  perHost: number;
  /** Hosts of the group certain, in the worst case, to take a VM of a drained host (0: no migration target proven). */
  migrationTargets: number;
  /** In the worst case, a drain of any one host of the group leaves every one of its VMs room in its group. */
  wholeDrain: boolean;
}

/** A tenant cluster in the plan report. */
export interface ReportCluster {
  /** The cluster's name. */
  name: string;
  /** The Kubernetes minor version of its nodes. */
  kubernetesVersion: string;
  /** Where its nodes get containerd, kubelet and kubeadm (`preinstalled`, `mirror`, `internet`), or `unpinned`. */
  bootstrap: string;
  /** The pinned kubelet and kubeadm version. @default - none (unpinned) */
  kubernetes?: string;
  /** The pinned containerd version. @default - none (unpinned, or not checked) */
  containerd?: string;
  /** Where the node software comes from, readable. */
  nodeSoftware: string;
}

/** One node of a pool in the plan report. */
export interface ReportNode {
  /** The node's (and its VM's or HostClaim's) name. */
  name: string;
  /** The host it lands on; null for a dynamic pool's nodes. */
  host: string | null;
  /** Its node type. */
  nodeType: string;
}

/** A node environment in the plan report: the namespace of one (tenant cluster x provider) pair. */
export interface ReportEnvironment {
  /** The tenant cluster. */
  cluster: string;
  /** The node provider. */
  provider: string;
}

/** A private (metal3) node pool as planned. */
export interface PlannedPrivatePool {
  /** The pool as written. */
  readonly spec: PrivateNodePoolSpec;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** Its hosts, as the node type selection claimed them. */
  readonly pool: PlannedAutoPool;
}

/** The full result of planning a model: the report, and the planned objects the constructs render from. */
export interface Plan {
  /** Whether everything fits: no errors. */
  readonly ok: boolean;
  /** Problems, each at its path and with the fix. */
  readonly errors: readonly PlanIssue[];
  /** Findings that do not stop the plan. */
  readonly warnings: readonly PlanIssue[];
  /** The fleets, with their hosts and capacity. */
  readonly fleets: readonly PlannedFleet[];
  /** The quotas, with their limits and allocation. */
  readonly quotas: readonly PlannedQuota[];
  /** The tenant clusters. */
  readonly clusters: readonly PlannedCluster[];
  /** The elastic node pools. */
  readonly pools: readonly PlannedPool[];
  /** Every VM the plan counts, whichever pool declared it: the one list every check and renderer reads. */
  readonly vms: readonly PlannedVm[];
  /** Static and dynamic auto-node pools, and private (metal3) node pools, as planned. */
  readonly autoPools: readonly PlannedAutoPool[];
  /** Private node pools, each with the auto pool that plans it. */
  readonly privatePools: readonly PlannedPrivatePool[];
  /** The node providers and their parsed catalogues. */
  readonly nodeProviders: readonly NodeProvider[];
  /** One node environment per (tenant cluster x provider) pair in use. */
  readonly environments: readonly NodeEnvironmentRef[];
  /**
   * How each pool with VMs rolls (core/plan/change/transition.ts), and each pool of whole hosts with nodes
   * (core/plan/change/host-rollout.ts, keyed by its planned pool's path, `privatePools[i].pool.path`), by pool path.
   */
  readonly rollouts: ReadonlyMap<string, PoolRollout>;
  /** The plan as written to metalslice-plan.json and printed by `metalslice plan`. */
  readonly report: PlanReport;
}

/** One host (or failure domain) whose loss leaves VMs without a host. */
export interface CriticalLoss {
  /** The host, or the label value of the failure domain. */
  readonly name: string;
  /** Hosts lost with it (1 for a host). */
  readonly hosts: number;
  /** VMs that were on it. */
  readonly vms: number;
  /** Of those, how many the other hosts have no room for. */
  readonly stranded: number;
}

/** The N+1 verdict of one fleet, as the report holds it. */
export interface FleetHeadroom {
  /** Set by the fleet's requireHostFailureHeadroom: a critical loss is an error rather than a finding. */
  readonly required: boolean;
  /** Losing any one host. */
  readonly hosts: HostLossCheck;
  /** Losing any one failure domain (given the plan's failure-domain label). @default - not checked */
  readonly failureDomain?: DomainLossCheck;
}

/** Whether a fleet survives losing any one host. */
export interface HostLossCheck {
  /** No loss strands a VM. */
  readonly ok: boolean;
  /** Hosts checked. */
  readonly checked: number;
  /** The hosts whose loss strands VMs, and how many. */
  readonly critical: readonly CriticalLoss[];
}

/** Whether a fleet survives losing any one failure domain (a rack or zone). */
export interface DomainLossCheck extends HostLossCheck {
  /** The host label that names the domains. */
  readonly label: string;
  /** Hosts without the label (never lost together with others). */
  readonly unlabelled: number;
}
