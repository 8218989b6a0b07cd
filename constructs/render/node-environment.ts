/**
 * The node environment of one (tenant cluster x node provider) pair: a namespace on the provider cluster
 * that holds the pair's node objects that no quota holds (HostClaims and their Secrets; an auto node's VM lives
 * in its quota's namespace, where the ResourceQuota counts it), closed by a default-deny
 * NetworkPolicy so one tenant's nodes cannot reach another's. Plain Kubernetes objects, created once per
 * pair however many pools use it.
 */
import { NodeEnvironmentRef } from '../core/auto';
import { CLUSTER_LABEL, MANAGED_BY, nodeEnvironmentNamespace, PROVIDER_LABEL } from '../core/naming/derived';

/** A Kubernetes object as plain data; keys are written in a fixed order so output is byte-stable. */
export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly [field: string]: unknown;
}

/** The labels are core/naming/derived.ts's; re-exported for the renderers that import them from here. */
export const MANAGED_BY_LABELS: Readonly<Record<string, string>> = MANAGED_BY;
export { CLUSTER_LABEL, nodeEnvironmentNamespace, PROVIDER_LABEL };

export type { NodeEnvironmentRef };

export function renderNodeEnvironment(env: NodeEnvironmentRef): [KubernetesObject, KubernetesObject] {
  const name = nodeEnvironmentNamespace(env);
  const labels = { ...MANAGED_BY_LABELS, [CLUSTER_LABEL]: env.cluster, [PROVIDER_LABEL]: env.provider };
  const namespace: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels },
  };
  // An empty pod selector with both policy types and no rules denies all ingress and egress in the namespace.
  const networkPolicy: KubernetesObject = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'default-deny', namespace: name, labels },
    spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
  };
  return [namespace, networkPolicy];
}

/** Every environment of a plan, in the plan's (sorted) order. */
export function renderNodeEnvironments(envs: readonly NodeEnvironmentRef[]): KubernetesObject[] {
  return envs.flatMap((env) => renderNodeEnvironment(env));
}
