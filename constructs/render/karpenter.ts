/**
 * A dynamic auto-node pool as the `karpenter.sh/v1` NodePool that vCluster's embedded Karpenter runs: the
 * matching node types become an instance-type `In` requirement (cheapest first), the pool's own
 * requirements follow, nodeLabels become template labels.
 */
import { PlannedAutoPool } from '../core/auto';
import { INSTANCE_TYPE_LABEL } from '../core/auto/node-types';
import { formatResources } from '../core/base/resources';
import { CLUSTER_LABEL, KubernetesObject, MANAGED_BY_LABELS, PROVIDER_LABEL } from './node-environment';

export interface KarpenterNodeClassRef {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
}

export interface KarpenterRenderOptions {
  /**
   * The NodePool's nodeClassRef (required by the CRD). Nodes are made by the node provider, not by a cloud
   * NodeClass, so the default names the provider: one class per provider, shared by every pool using it.
   * @default - {group: 'metalslice.io', kind: 'NodeProviderClass', name: <provider>}
   */
  readonly nodeClassRef?: KarpenterNodeClassRef;
}

export const DEFAULT_NODE_CLASS_GROUP = 'metalslice.io';
export const DEFAULT_NODE_CLASS_KIND = 'NodeProviderClass';

/** Label keys Karpenter refuses in requirements and template labels (its own domain, hostname). */
export function isRestrictedByKarpenter(key: string): boolean {
  if (key === 'kubernetes.io/hostname' || key === 'karpenter.sh/nodepool') return true;
  const domain = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
  return domain.endsWith('karpenter.sh') && key !== 'karpenter.sh/capacity-type';
}

/** Karpenter resource names: metalslice's `disk` is a node's ephemeral storage. */
function karpenterResourceName(name: string): string {
  return name === 'disk' ? 'ephemeral-storage' : name;
}

/** The dynamic pool's settings as planned. */
type DynamicSettings = NonNullable<PlannedAutoPool['dynamic']>;

/** The NodePool of a dynamic pool: requirements and labels on its template, disruption, limits and weight. */
export function renderKarpenterNodePool(pool: PlannedAutoPool, options: KarpenterRenderOptions = {}): KubernetesObject {
  const dynamic = pool.dynamic;
  if (pool.mode !== 'dynamic' || !dynamic) throw new Error(`pool ${pool.path} is not a dynamic pool`);
  if (pool.candidates.length === 0) throw new Error(`pool ${pool.path} has no matching node type: render only a plan without errors`);
  const labels = Object.fromEntries(Object.entries(pool.nodeLabels).filter(([k]) => !isRestrictedByKarpenter(k)));
  const limits = karpenterLimits(dynamic);
  const spec: Record<string, unknown> = {
    template: {
      ...(Object.keys(labels).length > 0 ? { metadata: { labels } } : {}),
      spec: karpenterTemplateSpec(pool, dynamic, options),
    },
    disruption: karpenterDisruption(dynamic),
  };
  if (Object.keys(limits).length > 0) spec.limits = limits;
  if (dynamic.weight !== undefined) spec.weight = dynamic.weight;
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: pool.name, labels: { ...MANAGED_BY_LABELS, [CLUSTER_LABEL]: pool.cluster, [PROVIDER_LABEL]: pool.provider } },
    spec,
  };
}

/** The instance types the pool may use (cheapest first), then the pool's own requirements Karpenter can read. */
function karpenterRequirements(pool: PlannedAutoPool): Record<string, unknown>[] {
  const resourceKeys = new Set(pool.candidates.flatMap((c) => Object.keys(c.resources)));
  const requirements: Record<string, unknown>[] = [{ key: INSTANCE_TYPE_LABEL, operator: 'In', values: pool.candidates.map((c) => c.name) }];
  for (const r of pool.requirements) {
    // instance-type is already narrowed to the candidates; resource-derived properties are not node labels.
    if (r.key === INSTANCE_TYPE_LABEL || resourceKeys.has(r.key) || isRestrictedByKarpenter(r.key)) continue;
    // metalslice's operators are vCluster's, and vCluster's are Karpenter's (NodeSelectorRequirement).
    requirements.push(
      r.operator === 'Exists' || r.operator === 'DoesNotExist'
        ? { key: r.key, operator: r.operator }
        : { key: r.key, operator: r.operator, values: [...r.values] },
    );
  }
  return requirements;
}

/** The NodeClaim template's spec: class, requirements, then the optional taints and lifetimes. */
function karpenterTemplateSpec(pool: PlannedAutoPool, dynamic: DynamicSettings, options: KarpenterRenderOptions): Record<string, unknown> {
  const templateSpec: Record<string, unknown> = {
    nodeClassRef: options.nodeClassRef ?? { group: DEFAULT_NODE_CLASS_GROUP, kind: DEFAULT_NODE_CLASS_KIND, name: pool.provider },
    requirements: karpenterRequirements(pool),
  };
  if (pool.taints.length > 0)
    templateSpec.taints = pool.taints.map((t) => (t.value !== undefined ? { key: t.key, value: t.value, effect: t.effect } : { key: t.key, effect: t.effect }));
  if (dynamic.expireAfter !== undefined) templateSpec.expireAfter = dynamic.expireAfter;
  if (dynamic.terminationGracePeriod !== undefined) templateSpec.terminationGracePeriod = dynamic.terminationGracePeriod;
  return templateSpec;
}

/** The NodePool's disruption: the policy (Karpenter's default when unset), consolidateAfter and budgets when given. */
function karpenterDisruption(dynamic: DynamicSettings): Record<string, unknown> {
  const disruption: Record<string, unknown> = { consolidationPolicy: dynamic.disruption?.consolidationPolicy ?? 'WhenEmptyOrUnderutilized' };
  if (dynamic.disruption?.consolidateAfter !== undefined) disruption.consolidateAfter = dynamic.disruption.consolidateAfter;
  if (dynamic.disruption?.budgets && dynamic.disruption.budgets.length > 0) {
    disruption.budgets = dynamic.disruption.budgets.map((b) => ({
      nodes: b.nodes,
      ...(b.reasons && b.reasons.length > 0 ? { reasons: [...b.reasons] } : {}),
      ...(b.schedule !== undefined ? { schedule: b.schedule } : {}),
      ...(b.duration !== undefined ? { duration: b.duration } : {}),
    }));
  }
  return disruption;
}

/** The NodePool's limits in Karpenter's resource names, with the node count as `nodes`. */
function karpenterLimits(dynamic: DynamicSettings): Record<string, string> {
  const limits: Record<string, string> = {};
  for (const [name, value] of Object.entries(formatResources(dynamic.limits))) limits[karpenterResourceName(name)] = value;
  if (dynamic.nodesLimit !== undefined) limits.nodes = String(dynamic.nodesLimit);
  return limits;
}
