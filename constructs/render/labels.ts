/** The labels metalslice puts on what it creates, so pools, quotas and node types can be selected. */
export const LABEL_PREFIX = 'metalslice.io';
export const POOL_LABEL = `${LABEL_PREFIX}/pool`;
export const QUOTA_LABEL = `${LABEL_PREFIX}/quota`;
export const CLUSTER_LABEL = `${LABEL_PREFIX}/cluster`;
export const NODE_TYPE_LABEL = `${LABEL_PREFIX}/node-type`;
export const ORGANIZATION_LABEL = `${LABEL_PREFIX}/organization`;
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'metalslice' } as const;

/** A plain Kubernetes object: what renderers return and validators check. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Record<string, string>; readonly annotations?: Record<string, string> };
  readonly [key: string]: unknown;
}
