/**
 * The planner without CDK for Terraform (`metalslice/core`): read a config, plan it, read a tenant's
 * vcluster.yaml. Nothing here imports cdktf, so it runs in any Node.js program or CI step.
 */
export * from './model';
export {
  planModel,
  Plan,
  PlanReport,
  PlanOptions,
  ModelPaths,
  ReportFleet,
  ReportHostUsage,
  ReportQuota,
  ReportPool,
  ReportLauncher,
  ReportGroup,
  ReportNode,
  ReportEnvironment,
} from './plan';
export { MetalsliceError, UnreadableInputError, PlanIssue } from './errors';
export { loadConfigFile, parseConfigText, validateConfigShape, CONFIG_SCHEMA, MAX_CONFIG_BYTES } from './config';
export {
  importVclusterAutoNodes,
  planVclusterAutoNodes,
  VclusterImportOptions,
  VclusterAutoNodesImport,
  SUPPORTED_VCLUSTER_VERSIONS,
  VCLUSTER_VERSION,
} from './vcluster';
export { Quantity } from './quantity';
export { KUBEVIRT_VERSION } from './kubevirt/launcher';
export type * from './public-types';
export type { AutoNodesSourcePath, AutoNodesPlan, AutoNodesInput } from './auto-nodes';
