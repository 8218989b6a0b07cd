/**
 * What a tenant may be given on the provider cluster: the one owner of two rules. A tenant namespace (a
 * quota's, or a node environment's) never takes a namespace metalslice does not own: Kubernetes' own
 * (`kube-*`, `default`) or the platform's (KubeVirt, Metal3, CDI, Cluster API). And a quota's consumers are
 * bound to a Role that reads the Secrets holding the nodes' bootstrap tokens, so a `system:` user or group
 * (anonymous, unauthenticated, every authenticated user, service accounts) is refused unless the quota says
 * `allowSystemConsumers: true`, which the plan then reports as a warning.
 */
import { describeValue } from '../base/excerpt';
import { DEFAULT_STATE_NAMESPACE } from './state-keys';

/** Namespaces of the platform metalslice plans on: KubeVirt, CDI, Metal3 and Cluster API keep their state there, and metalslice its stacks' Terraform state. */
const PLATFORM_NAMESPACES = new Set([
  'default',
  DEFAULT_STATE_NAMESPACE,
  'kubevirt',
  'cdi',
  'metal3',
  'baremetal-operator-system',
  'capi-system',
  'capk-system',
  'capi-kubeadm-bootstrap-system',
  'capi-kubeadm-control-plane-system',
  'cert-manager',
  'karpenter',
]);

/** Why a tenant may not have `namespace`, or undefined when it may. */
export function reservedNamespaceProblem(namespace: string): string | undefined {
  if (namespace === 'kube' || namespace.startsWith('kube-') || namespace.startsWith('openshift'))
    return `namespace ${describeValue(namespace)} belongs to Kubernetes itself, not to a tenant: set namespace to one of the organization's own`;
  if (PLATFORM_NAMESPACES.has(namespace))
    return `namespace ${describeValue(namespace)} belongs to the platform (${[...PLATFORM_NAMESPACES].join(', ')}), not to a tenant: set namespace to one of the organization's own`;
  return undefined;
}

/** Whether a consumer (`NAME` a user, `group:NAME` a group) names a Kubernetes system user or group. */
export function isSystemConsumer(consumer: string): boolean {
  const name = consumer.startsWith('group:') ? consumer.slice('group:'.length) : consumer;
  return name.startsWith('system:');
}

/** Why a quota may not grant `consumer`, or undefined when it may. */
export function consumerProblem(consumer: string, allowSystemConsumers: boolean): string | undefined {
  if (allowSystemConsumers || !isSystemConsumer(consumer)) return undefined;
  return `${describeValue(consumer)} is a Kubernetes system user or group (anonymous, unauthenticated, every authenticated user or service accounts): it would read the nodes' bootstrap tokens; name the tenant's own users or groups, or set allowSystemConsumers: true if this is meant`;
}

/** The warning a quota that grants system users or groups carries in every report, or undefined. */
export function systemConsumersWarning(consumers: readonly string[] | undefined, allowSystemConsumers: boolean | undefined): string | undefined {
  const system = (consumers ?? []).filter(isSystemConsumer);
  if (!allowSystemConsumers || system.length === 0) return undefined;
  return `grants ${system.map((c) => describeValue(c)).join(', ')} the quota's Role, which reads the nodes' bootstrap tokens (allowSystemConsumers: true)`;
}
