/**
 * The labels metalslice puts on what it creates, so pools, quotas, node types and VMs can be selected: one
 * owner, asked by the renderers and by the inventory, which tells metalslice's launcher pods apart by them.
 */
export const LABEL_PREFIX = 'metalslice.io';
export const POOL_LABEL = `${LABEL_PREFIX}/pool`;
export const QUOTA_LABEL = `${LABEL_PREFIX}/quota`;
export const CLUSTER_LABEL = `${LABEL_PREFIX}/cluster`;
export const NODE_TYPE_LABEL = `${LABEL_PREFIX}/node-type`;
export const ORGANIZATION_LABEL = `${LABEL_PREFIX}/organization`;
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'metalslice' } as const;
/** On a VM's pod template, so its launcher pod names the VM. */
export const VM_NAME_LABEL = 'kubevirt.io/vm';
