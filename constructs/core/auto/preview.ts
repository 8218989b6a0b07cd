/**
 * Previews of dynamic pools: for a given set of pods, which nodes the pool would create, at least cost,
 * from its matching node types (cost-minimal node mix, synchronous heuristic with a lower bound).
 */
import { CandidateType, DynamicPoolPlan } from '.';
import { childPath, MetalsliceError, PlanIssue } from '../base/errors';
import { DynamicPoolSpec } from '../input/model';
import { chooseNodeMixSync, NodeMixError } from './node-mix';
import { addResources, exceededResources, get, parseResources, ResourceVector, scaleResources } from '../base/resources';
import { amounts } from '../base/units';

/** Which nodes a dynamic pool would create for its preview pods, at least cost. */
export interface PoolPreview {
  /** Number of preview pods. */
  readonly pods: number;
  /** The nodes that hold them at least cost: how many of each type. */
  readonly nodes: {
    /** The node type. */
    nodeType: string;
    /** How many nodes of it. */
    count: number;
  }[];
  /** What those nodes cost, in the node types' cost units. */
  readonly cost: number;
  /** No mix of the matching types holds the pods for less (equal to cost when the mix is proven cheapest). */
  readonly lowerBound: number;
  /** One sentence for people: `40 pods of cpu 2, memory 4Gi ... would create 10 x virt.medium (cost 720, at least 700)`. */
  readonly summary: string;
}

// Placement dimensions: millicores and MiB keep the numbers small and exact enough for a preview.
const DIMENSIONS = ['cpu', 'memory'] as const;
const MIB = 1n << 20n;

function toSize(v: ResourceVector, roundUp: boolean): number[] {
  return DIMENSIONS.map((d) => {
    const q = get(v, d);
    if (d === 'cpu') return Number(q.ceilMillis());
    const bytes = q.ceilUnits();
    return Number(roundUp ? (bytes + MIB - 1n) / MIB : bytes / MIB);
  });
}

function describe(v: ResourceVector): string {
  return amounts(
    v,
    DIMENSIONS.filter((d) => !get(v, d).isZero()),
  );
}

/** The preview of one dynamic pool, or an issue when its pods cannot be served by its types. */
export function previewDynamicPool(
  spec: NonNullable<DynamicPoolSpec['preview']>,
  candidates: readonly CandidateType[],
  limits: DynamicPoolPlan | undefined,
  path: string,
): { preview?: PoolPreview; issues: PlanIssue[]; warnings: PlanIssue[] } {
  const at = childPath(path, 'preview');
  try {
    const pods = spec.pods.map((p, i) => ({ resources: parseResources(p.resources, `${at}.pods[${i}].resources`), count: p.count }));
    const overhead = parseResources(spec.nodeOverhead ?? { cpu: '100m', memory: '256Mi' }, `${at}.nodeOverhead`);
    const usable = candidates.map((c) => toSize(c.resources, false).map((v, k) => v - toSize(overhead, true)[k]));
    const misfits = pods.flatMap((p, i) => (usable.some((u) => toSize(p.resources, true).every((v, k) => v <= u[k])) ? [] : [i]));
    if (misfits.length > 0) {
      return {
        issues: misfits.map((i) => ({
          path: `${at}.pods[${i}]`,
          message: `a pod of ${describe(pods[i].resources)} fits none of the pool's node types (${candidates.map((c) => c.nodeType).join(', ')}) after the node overhead: shrink the pod or allow a bigger type`,
        })),
        warnings: [],
      };
    }
    const mix = chooseNodeMixSync(
      pods.map((p) => ({ size: toSize(p.resources, true), count: p.count })),
      candidates.map((c) => ({ name: c.nodeType, capacity: toSize(c.resources, false), cost: c.cost, overhead: toSize(overhead, true) })),
    );
    const podCount = pods.reduce((n, p) => n + p.count, 0);
    const demand = pods.map((p) => `${p.count} of ${describe(p.resources)}`).join(' and ');
    const nodes = mix.nodes.map((n) => ({ nodeType: n.type, count: n.count }));
    const created = nodes.map((n) => `${n.count} x ${n.nodeType}`).join(', ');
    const bound = Math.round(mix.lowerBound * 100) / 100;
    // The pool's limits cap what Karpenter may create; pods beyond them stay pending.
    const warnings: PlanIssue[] = [];
    const nodeCount = nodes.reduce((n, x) => n + x.count, 0);
    const total = nodes.reduce<ResourceVector>(
      (sum, n) => addResources(sum, scaleResources(candidates.find((c) => c.nodeType === n.nodeType)!.resources, n.count)),
      {},
    );
    const over = exceededResources(total, limits?.limits ?? {}).filter((r) => limits?.limits[r] !== undefined);
    if (limits?.nodesLimit !== undefined && nodeCount > limits.nodesLimit) over.unshift(`nodes (${nodeCount} > ${limits.nodesLimit})`);
    if (over.length > 0)
      warnings.push({
        path: at,
        message: `these pods need ${created}, beyond the pool's limits on ${over.join(', ')}: raise the limits or some pods stay pending`,
      });
    return {
      preview: {
        pods: podCount,
        nodes,
        cost: mix.cost,
        lowerBound: bound,
        summary: `${demand} would create ${created} (cost ${mix.cost}, no mix costs less than ${bound})`,
      },
      issues: [],
      warnings,
    };
  } catch (e) {
    if (e instanceof MetalsliceError) return { issues: [...e.issues], warnings: [] };
    if (e instanceof NodeMixError) return { issues: [{ path: at, message: `cannot preview: ${e.message}` }], warnings: [] };
    throw e;
  }
}
