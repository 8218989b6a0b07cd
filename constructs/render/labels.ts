/** The labels metalslice puts on what it creates: owned by core/naming/derived.ts, re-exported for the renderers. */
export {
  LABEL_PREFIX,
  POOL_LABEL,
  QUOTA_LABEL,
  CLUSTER_LABEL,
  NODE_TYPE_LABEL,
  ORGANIZATION_LABEL,
  MANAGED_BY,
  VM_NAME_LABEL,
  REVISION_ANNOTATION,
  SURGE_LABEL,
  HOST_GROUP_LABEL_VALUE,
  FLEET_LABEL,
} from '../core/naming/derived';

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
