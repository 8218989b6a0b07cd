/**
 * The types the public API refers to (plans, planned objects, launcher pods, resources), in one list that both
 * entry points (`metalslice` and `metalslice/core`) re-export.
 */
export type { ResourceInput, ResourceValue, ResourceVector } from './base/resources';
export type { PlannedVm, VmOrigin, VmEviction, VmBuild, FleetKubevirt, EvictionStrategy } from './vm/vm';
export type { PlannedAutoPool, NodeEnvironmentRef, QuotaUsage, CandidateType, RejectedType, DynamicPoolPlan, PlannedAutoNode } from './auto';
export type { NodeProvider as PlannedNodeProvider, NodeType as PlannedNodeType } from './auto/node-types';
export type { FleetHeadroom, CriticalLoss, HostLossCheck, DomainLossCheck } from './plan/headroom';
export type { PoolPreview } from './auto/preview';
export type {
  PlannedFleet,
  PlannedQuota,
  PlannedPool,
  PlannedCluster,
  PlannedHost,
  PlannedPrivatePool,
  PlannedNode,
  ExcludedHost,
  PoolRollout,
  ReportRollout,
} from './plan/types';
export type { RolloutSpec } from './input/disruption';
export type { HostTaken, Toleration } from './hosts/offer';
export type { ClusterSnapshot } from './hosts/snapshot';
export type { NodeObject, NodeCondition, PodObject, ContainerResources } from './hosts/inventory';
export type { QuantityFormat } from './base/quantity';
export type { Requirement as ParsedRequirement, PropertyOffer } from './auto/requirements';
export type { ImageSource } from './vm/properties';
export type { LauncherVm, LauncherPod, LauncherContainer, VmDevice, KubevirtSettings, DeviceKind } from './kubevirt/launcher';
