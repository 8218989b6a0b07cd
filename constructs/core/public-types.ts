/**
 * The types the public API refers to (plans, planned objects, launcher pods, resources), in one list that both
 * entry points (`metalslice` and `metalslice/core`) re-export.
 */
export type { ResourceInput, ResourceValue, ResourceVector } from './resources';
export type { PlannedVm, VmOrigin, VmEviction, VmBuild, FleetKubevirt, EvictionStrategy } from './vms';
export type { PlannedAutoPool, NodeEnvironmentRef, QuotaUsage, CandidateType, RejectedType, DynamicPoolPlan, PlannedAutoNode } from './auto-nodes';
export type { NodeProvider as PlannedNodeProvider, NodeType as PlannedNodeType } from './node-types';
export type { FleetHeadroom, CriticalLoss, HostLossCheck, DomainLossCheck } from './plan-headroom';
export type { PoolPreview } from './preview';
export type { PlannedFleet, PlannedQuota, PlannedPool, PlannedCluster, PlannedHost, PlannedPrivatePool, PlannedNode, ExcludedHost } from './plan-types';
export type { HostTaken, Toleration } from './host-offer';
export type { ClusterSnapshot } from './snapshot';
export type { NodeObject, NodeCondition, PodObject, ContainerResources } from './inventory';
export type { QuantityFormat } from './quantity';
export type { Requirement as ParsedRequirement, PropertyOffer } from './requirements';
export type { ImageSource } from './properties';
export type { LauncherVm, LauncherPod, LauncherContainer, VmDevice, KubevirtSettings, DeviceKind } from './kubevirt/launcher';
