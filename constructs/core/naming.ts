/**
 * Every name metalslice derives, and every label key it sets: one small rule each, with its reason. Whatever
 * names a node, a VM, a namespace or a label asks here; derived-names.ts then checks that no two owners share a
 * derived name.
 */

/**
 * A node of an auto-node (static) pool, or of a private node pool: `<cluster>-<pool>-<i>`. The cluster comes
 * first because one provider cluster holds the nodes of many tenant clusters, and pool names are unique per
 * cluster only.
 */
export function autoNodeName(cluster: string, pool: string, index: number): string {
  return `${cluster}-${pool}-${index}`;
}
