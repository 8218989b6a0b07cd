/**
 * The planner without CDK for Terraform (`metalslice/core`): read a config, plan it, read a tenant's
 * vcluster.yaml. Nothing here imports cdktf, so it runs in any Node.js program or CI step.
 */
export * from './input/model';
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
  ReportCluster,
} from './plan';
export { MetalsliceError, UnreadableInputError, PlanIssue } from './base/errors';
export { loadConfigFile, parseConfigText, MAX_CONFIG_BYTES } from './input/config';
export { validateConfigShape, CONFIG_SCHEMA } from './input/config-schema';
export { importVclusterAutoNodes, VclusterImportOptions, VclusterAutoNodesImport, SUPPORTED_VCLUSTER_VERSIONS, VCLUSTER_VERSION } from './input/vcluster';
export { planVclusterAutoNodes } from './auto/vcluster';
export { Quantity } from './base/quantity';
export { KUBEVIRT_VERSION } from './kubevirt/launcher';
export type * from './public-types';
export type { AutoNodesSourcePath, AutoNodesPlan, AutoNodesInput } from './auto';
