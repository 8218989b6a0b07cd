export * from './capacity-plan';
export * from './fleet';
export * from './quota';
export * from './tenant-cluster';
export * from './node-pool';
export * from './node-provider';
export * from './auto-nodes';
export * from './node-profile';
export * from './vm-node';
export * from './private-node-pool';
export * from './from-config';
export * from './state-backend';
export * from './synth';
export * from './provider-versions';
export * from './kubectl';
export * from './core/model';
export { Quantity } from './core/quantity';
export {
  planModel,
  Plan,
  PlanReport,
  ReportFleet,
  ReportHostUsage,
  ReportQuota,
  ReportPool,
  ReportLauncher,
  ReportGroup,
  ReportNode,
  ReportEnvironment,
} from './core/plan';
export { MetalsliceError, PlanIssue } from './core/errors';
export { loadConfigFile, parseConfigText, CONFIG_SCHEMA } from './core/config';
export type * from './core/public-types';
export type { KubeObject, KubeObjectMeta } from './render/labels';
export type { HostGroup } from './core/vms';
