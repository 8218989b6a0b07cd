/**
 * The planner without CDK for Terraform (`metalslice/core`): read a config, plan it, read a tenant's
 * vcluster.yaml. Nothing here imports cdktf, so it runs in any Node.js program or CI step.
 */
export * from './model';
export { planModel, Plan, PlanReport, PlanOptions, ModelPaths, ReportFleet, ReportHostUsage, ReportQuota, ReportPool, ReportLauncher, ReportNode, ReportEnvironment } from './plan';
export { MetalsliceError, UnreadableInputError, PlanIssue } from './errors';
export { loadConfigFile, parseConfigText, validateConfigShape, CONFIG_SCHEMA, MAX_CONFIG_BYTES } from './config';
export { importVclusterAutoNodes, planVclusterAutoNodes, VclusterImportOptions, VclusterAutoNodesImport, SUPPORTED_VCLUSTER_VERSIONS, VCLUSTER_VERSION } from './vcluster';
export { Quantity } from './quantity';
export { KUBEVIRT_VERSION } from './kubevirt/launcher';
export type { ResourceInput, ResourceValue } from './resources';
export type { PlannedVm } from './vms';
export type { PlannedAutoPool, NodeEnvironmentRef, AutoNodesSourcePath, AutoNodesPlan, AutoNodesInput } from './auto-nodes';
export type { NodeProvider as PlannedNodeProvider } from './node-types';
export type { FleetHeadroom, CriticalLoss } from './plan-headroom';
export type { PoolPreview } from './preview';
export type { PlannedFleet, PlannedQuota, PlannedPool, PlannedCluster, PlannedHost, PlannedPrivatePool } from './plan';
export type { VmOrigin, VmEviction, VmBuild, FleetKubevirt, EvictionStrategy } from './vms';
export type { QuotaUsage, CandidateType, RejectedType, DynamicPoolPlan, PlannedAutoNode } from './auto-nodes';
export type { HostLossCheck, DomainLossCheck } from './plan-headroom';
export type { QuantityFormat } from './quantity';
export type { Requirement as ParsedRequirement } from './requirements';
export type { NodeType as PlannedNodeType } from './node-types';
export type { ResourceVector } from './resources';
export type { ImageSource } from './properties';
export type { LauncherVm, LauncherPod, LauncherContainer, VmDevice, KubevirtSettings, DeviceKind } from './kubevirt/launcher';
export type { PropertyOffer } from './requirements';
export type { PlannedNode } from './plan';
