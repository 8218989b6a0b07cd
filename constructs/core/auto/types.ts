/**
 * The data of auto-node planning (static, dynamic and private pools): what planAutoNodes takes and returns, and
 * the context each pool is planned in. Types only, so the files that plan pools (index, pool-input,
 * type-match, taken, static-pools, dynamic-pools) share them without importing each other.
 */
import type { PlanIssue } from '../base/errors';
import type { AutoNodesSpec, DynamicPoolSpec, Labels, NodeProviderSpec, Taint } from '../input/model';
import type { NodeProvider, ProviderKind } from './node-types';
import type { Requirement } from './requirements';
import type { ResourceVector } from '../base/resources';
import type { FleetKubevirt, PlannedVm, VmBuild } from '../vm/vm';
import type { AutoNodesSourcePath } from '../input/source-positions';
import type { ImageSource } from '../vm/properties';

export type { AutoNodesSourcePath };

/** What auto-node planning needs from the rest of the plan: the catalogues, the entries, and the room left. */
export interface AutoNodesInput {
  /** The node providers and their catalogues. */
  readonly providers: readonly NodeProviderSpec[];
  /** The autoNodes entries to plan. */
  readonly autoNodes: readonly AutoNodesSpec[];
  /** Quota headroom left after the Elastic Node Pools. */
  readonly quotas: ReadonlyMap<
    string,
    {
      /** Room left in the quota. */
      readonly remaining: ResourceVector;
      /** The quota's fleet. */
      readonly fleet: string;
      /** The quota's limits: with them a refusal says what is left of what. @default - `remaining` */
      readonly limits?: ResourceVector;
      /** Where the quota was written: a refusal says to raise its limits there. @default - none */
      readonly path?: string;
    }
  >;
  /** The KubeVirt settings of each fleet: they size every VM of a kubevirt provider. */
  readonly fleets: ReadonlyMap<string, FleetKubevirt>;
  /** Names of the declared tenant clusters. */
  readonly clusters: ReadonlySet<string>;
  /** Where the entries were written, for error paths. @default - `nodeProviders[i]` */
  readonly providersPath?: string;
  /** Where each `autoNodes` entry and its pools were written. @default - `autoNodes[i]`, `autoNodes[i].static[j]`, ... */
  readonly sourcePaths?: readonly AutoNodesSourcePath[];
  /**
   * Fleets and quotas that are declared but broken (their own problems are reported where they are
   * written): references to them are not reported again. @default - none
   */
  readonly declared?: {
    /** Fleets declared, broken or not. */
    readonly fleets: ReadonlySet<string>;
    /** Quotas declared, broken or not. */
    readonly quotas: ReadonlySet<string>;
  };
}

/** One node of a static (or private) pool as planned. */
export interface PlannedAutoNode {
  /** `<cluster>-<pool>-<index>`: stable, so changing the quantity changes only the difference. */
  readonly name: string;
  /** `provider.type`. */
  readonly nodeType: string;
  /** metal3: the BareMetalHost the node is made from. */
  readonly host?: string;
  /** The type's resources: what the node offers. */
  readonly resources: ResourceVector;
  /** What the node costs its quota and host (kubevirt: the VM footprint incl. virt-launcher overhead). */
  readonly footprint: ResourceVector;
  /** Labels its kubelet registers with. */
  readonly labels: Readonly<Record<string, string>>;
}

/** A node type that matches a pool. */
export interface CandidateType {
  /** `provider.type`. */
  readonly nodeType: string;
  /** The bare type name (the node's instance-type label). */
  readonly name: string;
  /** Its cost per node. */
  readonly cost: number;
  /** What one node offers. */
  readonly resources: ResourceVector;
  /** What one node takes from its host and quota. */
  readonly footprint: ResourceVector;
  /** kubevirt: the VM a node of this type is, as the plan counts it (and renders it: the plan's VM list takes this one). */
  readonly vm?: VmBuild & {
    /** Where its DataVolume root disk is filled from (the claim's image properties). @default - none */
    readonly imageSource?: ImageSource;
  };
  /**
   * kubevirt: what building that VM found wrong in the claim's properties; the plan reports them for the type it
   * chose. @default - none
   */
  readonly vmIssues?: {
    /** Errors at the property's path: the VM is not built as written. */
    readonly problems: readonly PlanIssue[];
    /** Properties metalslice reads but does not carry into the VM. */
    readonly warnings: readonly PlanIssue[];
  };
}

/** A node type that lost, and why. */
export interface RejectedType {
  /** The type (`provider.type`). */
  readonly nodeType: string;
  /** Why it lost (a requirement, size, capacity, the quota, ...). */
  readonly reason: string;
}

/** A dynamic pool's limits and autoscaler settings as planned. */
export interface DynamicPoolPlan {
  /** Karpenter, or Cluster API with cluster-autoscaler. */
  readonly autoscaler: 'karpenter' | 'cluster-api';
  /** Karpenter limits without `nodes`. */
  readonly limits: ResourceVector;
  /** Karpenter's `nodes` limit. @default - none */
  readonly nodesLimit?: number;
  /** cluster-api: min / max size of the MachineDeployment. */
  readonly minNodes: number;
  /** cluster-api: most machines. @default - from the limits */
  readonly maxNodes?: number;
  /** Most the pool can cost its quota with limits reached, and the type that drives it. */
  readonly worstCase?: {
    /** The type that costs the quota most at the limits. */
    readonly nodeType: string;
    /** How many nodes of it the limits allow. */
    readonly nodes: number;
    /** What one such node takes. */
    readonly footprint: ResourceVector;
  };
  /** Karpenter's disruption settings. @default - Karpenter's */
  readonly disruption?: DynamicPoolSpec['disruption'];
  /** Karpenter's expireAfter. @default - Karpenter's */
  readonly expireAfter?: string;
  /** Karpenter's terminationGracePeriod. @default - none */
  readonly terminationGracePeriod?: string;
  /** Karpenter's NodePool weight. @default - none */
  readonly weight?: number;
}

/** An auto-node (or private) pool as planned: the chosen node type, its nodes, and every type that lost. */
export interface PlannedAutoPool {
  /** Config path of the pool (`autoNodes[0].static[1]`). */
  readonly path: string;
  /** The tenant cluster its nodes join. */
  readonly cluster: string;
  /** Its node provider. */
  readonly provider: string;
  /** The provider's kind: `kubevirt`, `metal3` or `terraform`. */
  readonly providerKind: ProviderKind;
  /** The quota its VMs count against. @default - none (metal3 and terraform pools) */
  readonly quota?: string;
  /** The pool's name. */
  readonly name: string;
  /** `static`: a fixed number of nodes; `dynamic`: an autoscaler adds nodes up to its limits. */
  readonly mode: 'static' | 'dynamic';
  /** The chosen type (`provider.type`): static pools, and cluster-api dynamic pools (one machine template). */
  readonly nodeType?: string;
  /** Nodes of a static pool; 0 for a dynamic one. */
  readonly quantity: number;
  /** The static pool's nodes. */
  readonly nodes: readonly PlannedAutoNode[];
  /** Types that match (requirements, GPU rule, size), cheapest first, ties by name. */
  readonly candidates: readonly CandidateType[];
  /** Every type that lost, and why. */
  readonly rejected: readonly RejectedType[];
  /** The pool's requirements, parsed. */
  readonly requirements: readonly Requirement[];
  /** Taints its nodes register with (the pool's over its profile's). */
  readonly taints: readonly Taint[];
  /** Labels its nodes register with (the pool's over its profile's). */
  readonly nodeLabels: Readonly<Record<string, string>>;
  /** A dynamic pool's limits and autoscaler settings. @default - none (static pools) */
  readonly dynamic?: DynamicPoolPlan;
  /**
   * The VMs the plan counts for it, in node order: a static kubevirt pool's, one per node; a dynamic pool's
   * at its limits (not concrete); those a metalslice node template makes. Set once the plan is assembled.
   * @default - none (pools of whole hosts, and pools whose nodes are no VMs)
   */
  readonly vms?: readonly PlannedVm[];
}

/** What static auto-node pools take from a quota. */
export interface QuotaUsage {
  /** The quota's name. */
  readonly name: string;
  /** Taken by static auto-node pools. */
  readonly consumed: ResourceVector;
  /** Left after them. */
  readonly remaining: ResourceVector;
}

/** A (tenant cluster x provider) pair whose node objects share a namespace and a default-deny policy. */
export interface NodeEnvironmentRef {
  /** The tenant cluster. */
  readonly cluster: string;
  /** The node provider. */
  readonly provider: string;
}

/** The result of planning autoNodes entries on their own (see planVclusterAutoNodes). */
export interface AutoNodesPlan {
  /** Whether every pool found its node types: no issues. */
  readonly ok: boolean;
  /** The planned pools. */
  readonly pools: readonly PlannedAutoPool[];
  /** What the static pools take from each quota. */
  readonly quotas: readonly QuotaUsage[];
  /** One per (tenant cluster x provider) pair with pools, sorted by cluster then provider. */
  readonly environments: readonly NodeEnvironmentRef[];
  /** Problems, each at its path and with the fix. */
  readonly issues: readonly PlanIssue[];
  /** Findings that do not stop the plan. */
  readonly warnings: readonly PlanIssue[];
}

// Karpenter's duration grammar (karpenter.sh/v1 NodePool CRD).
/** Where a pool is planned: its autoNodes entry, cluster, provider, quota and fleet. */
export interface PoolContext {
  readonly path: string;
  readonly cluster: string;
  readonly provider: NodeProvider;
  readonly quota?: string;
  /** kubevirt: the fleet the VMs run on. */
  readonly fleet?: FleetKubevirt;
  /**
   * Where the entry's nodes take their properties from, as written: its provider's spec (its own properties and
   * each type's) and the entry's; `propertyLevels` reads them in vCluster's precedence. kubevirt: a
   * root-disk-size among them sizes the VM.
   */
  readonly properties?: {
    readonly provider?: NodeProviderSpec;
    readonly providerPath: string;
    readonly claim?: Labels;
  };
  /** The provider's catalogue has a problem of its own: a pool finding no type is its consequence. */
  readonly catalogueBroken?: boolean;
}

/** What static and dynamic pools write alike, checked: requirements, taints and node labels. */
export interface ParsedPoolCommon {
  readonly requirements: Requirement[];
  readonly taints: readonly Taint[];
  readonly nodeLabels: Record<string, string>;
}
