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
  /** The object's API group and version (`kubevirt.io/v1`). */
  readonly apiVersion: string;
  /** The object's kind (`VirtualMachine`). */
  readonly kind: string;
  /** Name, namespace, labels and annotations. */
  readonly metadata: KubeObjectMeta;
  /** spec, data, ...: the rest of the object. */
  readonly [key: string]: unknown;
}

/** The metadata metalslice writes on an object. */
export interface KubeObjectMeta {
  /** The object's name. */
  readonly name: string;
  /** Its namespace. @default - none (a cluster-scoped object) */
  readonly namespace?: string;
  /** Its labels. @default - none */
  readonly labels?: Record<string, string>;
  /** Its annotations. @default - none */
  readonly annotations?: Record<string, string>;
}
