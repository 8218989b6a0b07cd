/**
 * The objects of an Elastic Quota: a namespace for the organisation's VMs, a ResourceQuota that makes
 * the API server hold the plan's line, and RBAC so the consumer can manage VMs there and nowhere else.
 */
import { PlannedQuota } from '../core/plan';
import { formatResources, normalizeResources } from '../core/base/resources';
import { KubeObject, MANAGED_BY, ORGANIZATION_LABEL, QUOTA_LABEL } from './labels';
import { RESOURCE_QUOTA_NAME } from '../core/naming/derived';

function quotaLabels(quota: PlannedQuota): Record<string, string> {
  return { ...MANAGED_BY, [ORGANIZATION_LABEL]: quota.spec.organization, [QUOTA_LABEL]: quota.name };
}

export function renderQuotaNamespace(quota: PlannedQuota): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: quota.namespace, labels: quotaLabels(quota) } };
}

/** The ResourceQuota key a resource counts under: requests.storage for disk, requests.<name> for the rest (devices too). */
export function resourceQuotaKey(name: string): string {
  return name === 'disk' ? 'requests.storage' : `requests.${name}`;
}

/** The ResourceQuota key of a quota's VM count. */
export const VM_COUNT_QUOTA_KEY = 'count/virtualmachines.kubevirt.io';

/** ResourceQuota `hard`: requests.cpu/memory, requests.storage for disk, requests.<ext> for devices, VM count. */
export function resourceQuotaHard(quota: PlannedQuota): Record<string, string> {
  const limits = formatResources(normalizeResources(quota.limits));
  const hard: Record<string, string> = {};
  for (const [name, value] of Object.entries(limits)) hard[resourceQuotaKey(name)] = value;
  if (quota.spec.maxVirtualMachines !== undefined) hard[VM_COUNT_QUOTA_KEY] = String(quota.spec.maxVirtualMachines);
  return Object.fromEntries(Object.entries(hard).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function renderResourceQuota(quota: PlannedQuota): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: RESOURCE_QUOTA_NAME, namespace: quota.namespace, labels: quotaLabels(quota) },
    spec: { hard: resourceQuotaHard(quota) },
  };
}

/** What a consumer may do in its quota namespace: manage VMs, their cloud-init Secrets and disks. */
export function renderConsumerRole(quota: PlannedQuota): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'metalslice-consumer', namespace: quota.namespace, labels: quotaLabels(quota) },
    rules: [
      {
        apiGroups: ['kubevirt.io'],
        resources: ['virtualmachines', 'virtualmachineinstances'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
      {
        apiGroups: ['subresources.kubevirt.io'],
        resources: ['virtualmachines/start', 'virtualmachines/stop', 'virtualmachines/restart', 'virtualmachineinstances/console'],
        verbs: ['get', 'update'],
      },
      { apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
      // A roll deletes a node's old root disk by its claim too (one CDI collected the DataVolume of).
      { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'delete'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] },
      { apiGroups: [''], resources: ['resourcequotas'], verbs: ['get', 'list', 'watch'] },
    ],
  };
}

/** `group:NAME` is a group, anything else a user; the default is a group named after the organisation. */
export function consumerSubjects(quota: PlannedQuota): { kind: 'User' | 'Group'; name: string; apiGroup: string }[] {
  const consumers = quota.spec.consumers ?? [`group:${quota.spec.organization}`];
  return consumers.map((c) =>
    c.startsWith('group:')
      ? { kind: 'Group' as const, name: c.slice('group:'.length), apiGroup: 'rbac.authorization.k8s.io' }
      : { kind: 'User' as const, name: c, apiGroup: 'rbac.authorization.k8s.io' },
  );
}

export function renderConsumerRoleBinding(quota: PlannedQuota): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'metalslice-consumer', namespace: quota.namespace, labels: quotaLabels(quota) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'metalslice-consumer' },
    subjects: consumerSubjects(quota),
  };
}
