/**
 * Cost-minimal node mix: how many nodes of each type (from a catalogue with prices, per-node overhead
 * and optional limits) to run so that every pod has a place, at the lowest total cost.
 *
 * This is vector bin packing with bins of several sizes and prices. Small catalogues and demands are
 * solved exactly with the pattern formulation (one integer variable per type and "pattern", a maximal
 * set of pods one node can hold, covering the demand of every pod shape) on HiGHS; beyond that, and in
 * the synchronous variant, a heuristic builds mixes (single types, greedy by value per cost) and
 * improves the best one by removing, downgrading and merging nodes while the pods still fit.
 */
import highsLoader, { Highs } from 'highs';
import { packBinsSync } from '../packing';
import { placeWithBudget } from '../packing/place-on-hosts';
import { checkSize } from '../packing/problem';

/** Pods of one shape: `count` of them, each of `size` (integers per dimension, e.g. millicores, MiB). */
export interface PodDemand {
  readonly size: readonly number[];
  readonly count: number;
}

/** A node type of the catalogue. */
export interface NodeType {
  readonly name: string;
  /** Capacity of one node, same dimensions as the pod sizes. */
  readonly capacity: readonly number[];
  /** Price of one node (any unit, e.g. per hour). */
  readonly cost: number;
  /**
   * What every node of this type keeps for itself (kubelet, system daemons), taken off its capacity.
   * @default - nothing
   */
  readonly overhead?: readonly number[];
  /**
   * The most nodes of this type the mix may use.
   * @default - no limit
   */
  readonly max?: number;
}

export interface NodeMixOptions {
  /**
   * Time budget of the exact search in milliseconds.
   * @default 2000
   */
  readonly timeLimitMs?: number;
}

export interface NodeMixSyncOptions {
  /**
   * Number of candidate mixes the improvement phase may check (each check packs the pods).
   * @default 200
   */
  readonly iterations?: number;
}

/** One node of the mix and the pods it runs: `pods[j]` pods of demand entry j. */
export interface NodeAssignment {
  readonly type: string;
  readonly pods: number[];
}

export interface NodeMix {
  /** Node counts per type, in catalogue order; types not used are left out. */
  readonly nodes: { type: string; count: number }[];
  /** Total cost of the mix. */
  readonly cost: number;
  /** No mix costs less than this. */
  readonly lowerBound: number;
  /** True when the mix is proven cost-minimal. */
  readonly optimal: boolean;
  /** `milp` (pattern formulation on HiGHS) or `heuristic`. */
  readonly method: string;
  /** One entry per node: which pods it runs. */
  readonly assignment?: NodeAssignment[];
}

/** The demand cannot be met by the catalogue (a pod fits no node type, or the limits are too low). */
export class NodeMixError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeMixError';
  }
}

const DEFAULT_TIME_LIMIT_MS = 2000;
const DEFAULT_ITERATIONS = 200;
// The exact model is built only when the catalogue has at most this many maximal patterns in total.
const MAX_PATTERNS = 20_000;
// Repair work per feasibility check of a candidate mix: checks are many, so each is kept short.
const CHECK_REPAIR_WORK = 200_000;
// Upper bound on nodes in the heuristic's candidate mixes (a guard against degenerate input).
const MAX_NODES = 100_000;

interface Catalogue {
  readonly d: number;
  readonly types: readonly NodeType[];
  /** Capacity net of overhead, per type. */
  readonly usable: readonly (readonly number[])[];
  /** Max count per type (Infinity when unlimited). */
  readonly max: readonly number[];
  /** Demand entries with a positive count, and their index in the caller's list. */
  readonly groups: readonly { readonly size: readonly number[]; readonly count: number; readonly index: number }[];
  readonly demandLength: number;
}

/** A candidate: node count per type, and the pods of each node (per group). */
interface Mix {
  readonly counts: number[];
  readonly nodePods: { type: number; pods: number[] }[];
}

/** Chooses a cost-minimal node mix; exact on small instances, heuristic beyond. */
export async function chooseNodeMix(demand: readonly PodDemand[], types: readonly NodeType[], options: NodeMixOptions = {}): Promise<NodeMix> {
  const cat = prepare(demand, types);
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const heuristic = heuristicMix(cat, DEFAULT_ITERATIONS);
  let best = heuristic;
  let lowerBound = fractionalBound(cat);
  let optimal = false;
  let method = 'heuristic';
  const patterns = enumeratePatterns(cat);
  if (patterns !== undefined && cat.groups.length > 0 && costOf(cat, best.counts) > lowerBound + tolerance(lowerBound)) {
    const highs = await loadHighs();
    const deadline = Date.now() + timeLimitMs;
    const relaxed = highs.solve(patternModel(cat, patterns, false), { output_flag: false, time_limit: timeLimitMs / 1000 });
    if (relaxed.Status === 'Optimal') lowerBound = Math.max(lowerBound, relaxed.ObjectiveValue);
    const remaining = Math.max(10, deadline - Date.now());
    const exact = highs.solve(patternModel(cat, patterns, true), { output_flag: false, time_limit: remaining / 1000, mip_rel_gap: 0, random_seed: 0 });
    // A run stopped by the time limit may still carry its incumbent; use it if it beats the heuristic.
    if (exact.Status === 'Optimal' || exact.Status === 'Time limit reached') {
      const counts = patterns.map((_, j) => {
        const column = exact.Columns[`z${j}`];
        return column !== undefined && 'Primal' in column ? Math.round(column.Primal) : 0;
      });
      const mix = mixFromPatterns(cat, patterns, counts);
      const incumbent = costOf(cat, best.counts);
      if (mix !== undefined && (exact.Status === 'Optimal' || costOf(cat, mix.counts) < incumbent - tolerance(incumbent))) {
        best = mix;
        method = 'milp';
        if (exact.Status === 'Optimal') {
          optimal = true;
          lowerBound = costOf(cat, mix.counts);
        }
      }
    }
  }
  return result(cat, best, lowerBound, optimal, method);
}

/** The synchronous heuristic (no solver): for synth-time previews. */
export function chooseNodeMixSync(demand: readonly PodDemand[], types: readonly NodeType[], options: NodeMixSyncOptions = {}): NodeMix {
  const cat = prepare(demand, types);
  const best = heuristicMix(cat, options.iterations ?? DEFAULT_ITERATIONS);
  return result(cat, best, fractionalBound(cat), false, 'heuristic');
}

function result(cat: Catalogue, mix: Mix, lowerBound: number, proven: boolean, method: string): NodeMix {
  // Twelve significant digits: enough for any price list, and no 6.590000000000001 in reports.
  const cost = Number(costOf(cat, mix.counts).toPrecision(12));
  const bound = Number(Math.min(lowerBound, cost).toPrecision(12));
  const nodes = cat.types.map((t, j) => ({ type: t.name, count: mix.counts[j] })).filter((n) => n.count > 0);
  const assignment = [...mix.nodePods]
    .sort((a, b) => a.type - b.type)
    .map((node) => {
      const pods = new Array<number>(cat.demandLength).fill(0);
      node.pods.forEach((c, g) => (pods[cat.groups[g].index] = c));
      return { type: cat.types[node.type].name, pods };
    });
  return { nodes, cost, lowerBound: bound, optimal: proven || cost <= bound + tolerance(cost), method, assignment };
}

let highsPromise: Promise<Highs> | undefined;
function loadHighs(): Promise<Highs> {
  highsPromise ??= highsLoader();
  return highsPromise;
}

const tolerance = (x: number): number => 1e-9 * Math.max(1, Math.abs(x));

function costOf(cat: Catalogue, counts: readonly number[]): number {
  return counts.reduce((sum, c, t) => sum + c * cat.types[t].cost, 0);
}

function prepare(demand: readonly PodDemand[], types: readonly NodeType[]): Catalogue {
  const d = demand.length > 0 ? demand[0].size.length : types.length > 0 ? types[0].capacity.length : 0;
  const names = new Set<string>();
  const usable = types.map((t, j) => {
    if (names.has(t.name)) throw new NodeMixError(`node type ${j} repeats the name "${t.name}": names must be unique`);
    names.add(t.name);
    if (t.capacity.length !== d) throw new NodeMixError(`node type "${t.name}" has ${t.capacity.length} capacities, expected ${d} like the pod sizes`);
    if (!Number.isFinite(t.cost) || t.cost < 0) throw new NodeMixError(`node type "${t.name}" has cost ${t.cost}: use a finite non-negative price`);
    if (t.max !== undefined && (!Number.isSafeInteger(t.max) || t.max < 0))
      throw new NodeMixError(`node type "${t.name}" has max ${t.max}: use a non-negative whole number`);
    const overhead = t.overhead ?? new Array<number>(d).fill(0);
    if (overhead.length !== d) throw new NodeMixError(`node type "${t.name}" has ${overhead.length} overheads, expected ${d}`);
    return t.capacity.map((c, k) => {
      checkSize(c, `node type "${t.name}" capacity[${k}]`);
      checkSize(overhead[k], `node type "${t.name}" overhead[${k}]`);
      if (overhead[k] > c) throw new NodeMixError(`node type "${t.name}" has overhead ${overhead[k]} above its capacity ${c} in dimension ${k}`);
      return c - overhead[k];
    });
  });
  const max = types.map((t) => t.max ?? Infinity);
  const groups: { size: readonly number[]; count: number; index: number }[] = [];
  demand.forEach((pod, index) => {
    if (pod.size.length !== d) throw new NodeMixError(`demand ${index} has ${pod.size.length} sizes, expected ${d}`);
    pod.size.forEach((s, k) => checkSize(s, `demand ${index} size[${k}]`));
    checkSize(pod.count, `demand ${index} count`);
    if (pod.count === 0) return;
    if (!usable.some((u, t) => max[t] > 0 && fitsIn(pod.size, u))) {
      throw new NodeMixError(`demand ${index} (${pod.size.join(' x ')}) fits no node type after overhead: add a bigger type or shrink the pods`);
    }
    groups.push({ size: pod.size, count: pod.count, index });
  });
  return { d, types, usable, max, groups, demandLength: demand.length };
}

function fitsIn(size: readonly number[], room: readonly number[]): boolean {
  return size.every((s, k) => s <= room[k]);
}

/**
 * A lower bound from one dimension at a time: covering that dimension's total demand with fractional
 * nodes, cheapest per unit first (within the limits), costs at least this much.
 */
function fractionalBound(cat: Catalogue): number {
  let best = 0;
  for (let k = 0; k < cat.d; k++) {
    let need = cat.groups.reduce((sum, g) => sum + g.size[k] * g.count, 0);
    if (need === 0) continue;
    const order = cat.types.map((_, t) => t).filter((t) => cat.usable[t][k] > 0 && cat.max[t] > 0);
    order.sort((a, b) => cat.types[a].cost / cat.usable[a][k] - cat.types[b].cost / cat.usable[b][k] || a - b);
    let cost = 0;
    for (const t of order) {
      const nodes = Math.min(cat.max[t], need / cat.usable[t][k]);
      cost += nodes * cat.types[t].cost;
      need -= nodes * cat.usable[t][k];
      if (need <= 1e-9) break;
    }
    if (need > 1e-9) throw new NodeMixError(`the demand needs more of dimension ${k} than all node types within their max can offer`);
    best = Math.max(best, cost);
  }
  return best;
}

// ---- exact: the pattern formulation ----

interface Pattern {
  readonly type: number;
  /** Pods per group on one node. */
  readonly pods: readonly number[];
}

/** All maximal patterns of every type (no further pod of any shape fits), or undefined if too many. */
function enumeratePatterns(cat: Catalogue): Pattern[] | undefined {
  const patterns: Pattern[] = [];
  const G = cat.groups.length;
  for (let t = 0; t < cat.types.length; t++) {
    if (cat.max[t] === 0) continue;
    const room = [...cat.usable[t]];
    const pods = new Array<number>(G).fill(0);
    const canAdd = (g: number): boolean => pods[g] < cat.groups[g].count && fitsIn(cat.groups[g].size, room);
    const visit = (g: number): boolean => {
      if (g === G) {
        if (pods.every((c) => c === 0)) return true;
        for (let h = 0; h < G; h++) if (canAdd(h)) return true; // not maximal
        patterns.push({ type: t, pods: [...pods] });
        return patterns.length <= MAX_PATTERNS;
      }
      const size = cat.groups[g].size;
      let most = cat.groups[g].count;
      for (let k = 0; k < cat.d; k++) if (size[k] > 0) most = Math.min(most, Math.floor(room[k] / size[k]));
      for (let c = most; c >= 0; c--) {
        pods[g] = c;
        for (let k = 0; k < cat.d; k++) room[k] -= c * size[k];
        const ok = visit(g + 1);
        for (let k = 0; k < cat.d; k++) room[k] += c * size[k];
        if (!ok) return false;
      }
      pods[g] = 0;
      return true;
    };
    if (!visit(0)) return undefined;
  }
  return patterns;
}

/** The pattern model in CPLEX LP format: z_j nodes use pattern j; cover every group; respect the limits. */
function patternModel(cat: Catalogue, patterns: readonly Pattern[], integer: boolean): string {
  const lines = ['Minimize', ` cost: ${patterns.map((p, j) => `${cat.types[p.type].cost} z${j}`).join(' + ')}`, 'Subject To'];
  cat.groups.forEach((g, gi) => {
    const terms = patterns.map((p, j) => (p.pods[gi] > 0 ? `${p.pods[gi]} z${j}` : '')).filter((s) => s !== '');
    lines.push(` demand${gi}: ${terms.join(' + ')} >= ${g.count}`);
  });
  cat.types.forEach((_, t) => {
    if (!Number.isFinite(cat.max[t])) return;
    const terms = patterns.map((p, j) => (p.type === t ? `z${j}` : '')).filter((s) => s !== '');
    if (terms.length > 0) lines.push(` max${t}: ${terms.join(' + ')} <= ${cat.max[t]}`);
  });
  if (integer) {
    lines.push('General');
    for (let j = 0; j < patterns.length; j += 20)
      lines.push(
        ` ${patterns
          .slice(j, j + 20)
          .map((_, i) => `z${j + i}`)
          .join(' ')}`,
      );
  }
  lines.push('End');
  return lines.join('\n');
}

/** Nodes from pattern counts, with pods beyond the demand taken off again; undefined if it does not cover. */
function mixFromPatterns(cat: Catalogue, patterns: readonly Pattern[], counts: readonly number[]): Mix | undefined {
  const nodePods: { type: number; pods: number[] }[] = [];
  patterns.forEach((p, j) => {
    for (let c = 0; c < counts[j]; c++) nodePods.push({ type: p.type, pods: [...p.pods] });
  });
  const surplus = cat.groups.map((g, gi) => nodePods.reduce((s, n) => s + n.pods[gi], 0) - g.count);
  if (surplus.some((s) => s < 0)) return undefined;
  for (let i = nodePods.length - 1; i >= 0; i--) {
    surplus.forEach((s, gi) => {
      const take = Math.min(s, nodePods[i].pods[gi]);
      nodePods[i].pods[gi] -= take;
      surplus[gi] -= take;
    });
  }
  const kept = nodePods.filter((n) => n.pods.some((c) => c > 0));
  const mixCounts = cat.types.map((_, t) => kept.filter((n) => n.type === t).length);
  return { counts: mixCounts, nodePods: kept };
}

// ---- heuristic ----

/** The best of several constructions, then improvement by removing, downgrading and merging nodes. */
function heuristicMix(cat: Catalogue, iterations: number): Mix {
  if (cat.groups.length === 0) return { counts: cat.types.map(() => 0), nodePods: [] };
  const candidates: Mix[] = [];
  cat.types.forEach((_, t) => {
    const single = singleTypeMix(cat, t);
    if (single !== undefined) candidates.push(single);
  });
  for (const valuation of ['sum', 'max'] as const) {
    const greedy = greedyMix(cat, valuation);
    if (greedy !== undefined) candidates.push(greedy);
  }
  if (candidates.length === 0) throw new NodeMixError('found no mix of node types within their max counts that holds every pod');
  let best = candidates[0];
  for (const c of candidates) if (costOf(cat, c.counts) < costOf(cat, best.counts) - tolerance(costOf(cat, best.counts))) best = c;
  return improve(cat, best, iterations);
}

function podItems(cat: Catalogue): { size: readonly number[]; group: number }[] {
  const items: { size: readonly number[]; group: number }[] = [];
  cat.groups.forEach((g, gi) => {
    for (let c = 0; c < g.count; c++) items.push({ size: g.size, group: gi });
  });
  return items;
}

/** Every pod on nodes of type t only (identical bins: the packing engine). */
function singleTypeMix(cat: Catalogue, t: number): Mix | undefined {
  if (!cat.groups.every((g) => fitsIn(g.size, cat.usable[t]))) return undefined;
  const items = podItems(cat);
  const packing = packBinsSync({ capacity: cat.usable[t], items: items.map((i) => i.size) }, { iterations: 200_000 });
  if (packing.bins > cat.max[t]) return undefined;
  const nodePods = Array.from({ length: packing.bins }, () => ({ type: t, pods: new Array<number>(cat.groups.length).fill(0) }));
  packing.binOf.forEach((b, i) => nodePods[b].pods[items[i].group]++);
  const counts = cat.types.map((_, j) => (j === t ? packing.bins : 0));
  return { counts, nodePods };
}

/**
 * Opens one node at a time, of the type that holds the most pod value per cost when filled greedily
 * with the remaining pods. A pod's value prices each dimension at the cheapest per-unit cost there.
 */
function greedyMix(cat: Catalogue, valuation: 'sum' | 'max'): Mix | undefined {
  const G = cat.groups.length;
  const price = Array.from({ length: cat.d }, (_, k) => {
    let p = Infinity;
    cat.types.forEach((t, j) => {
      if (cat.usable[j][k] > 0) p = Math.min(p, t.cost / cat.usable[j][k]);
    });
    return Number.isFinite(p) ? p : 0;
  });
  const value = cat.groups.map((g) => {
    const parts = g.size.map((s, k) => s * price[k]);
    // A tiny share of the size keeps zero-cost catalogues from valuing every pod at zero.
    const size = g.size.reduce((a, s, k) => a + s / Math.max(1, ...cat.usable.map((u) => u[k])), 0) * 1e-9;
    return (valuation === 'sum' ? parts.reduce((a, b) => a + b, 0) : Math.max(0, ...parts)) + size;
  });
  const order = cat.groups.map((_, g) => g).sort((a, b) => value[b] - value[a] || a - b);
  const left = cat.groups.map((g) => g.count);
  const counts = cat.types.map(() => 0);
  const nodePods: { type: number; pods: number[] }[] = [];
  const fill = (t: number): number[] => {
    const room = [...cat.usable[t]];
    const pods = new Array<number>(G).fill(0);
    for (const g of order) {
      const size = cat.groups[g].size;
      let most = left[g];
      for (let k = 0; k < cat.d; k++) if (size[k] > 0) most = Math.min(most, Math.floor(room[k] / size[k]));
      pods[g] = most;
      for (let k = 0; k < cat.d; k++) room[k] -= most * size[k];
    }
    return pods;
  };
  while (left.some((c) => c > 0)) {
    if (nodePods.length >= MAX_NODES) return undefined;
    let bestType = -1;
    let bestScore = -Infinity;
    let bestPods: number[] = [];
    cat.types.forEach((type, t) => {
      if (counts[t] >= cat.max[t]) return;
      const pods = fill(t);
      const held = pods.reduce((a, c, g) => a + c * value[g], 0);
      if (held <= 0) return;
      const score = type.cost > 0 ? held / type.cost : Infinity;
      if (score > bestScore) {
        bestScore = score;
        bestType = t;
        bestPods = pods;
      }
    });
    if (bestType < 0) return undefined;
    counts[bestType]++;
    nodePods.push({ type: bestType, pods: bestPods });
    bestPods.forEach((c, g) => (left[g] -= c));
  }
  return { counts, nodePods };
}

/** Packs all pods onto the nodes of `counts`; the mix with its assignment, or undefined if some pod is left. */
function check(cat: Catalogue, counts: readonly number[], repairWork: number): Mix | undefined {
  if (counts.some((c, t) => c > cat.max[t] || c < 0)) return undefined;
  const hosts: { capacity: readonly number[] }[] = [];
  const hostType: number[] = [];
  counts.forEach((c, t) => {
    for (let j = 0; j < c; j++) {
      hosts.push({ capacity: cat.usable[t] });
      hostType.push(t);
    }
  });
  // Quick necessary condition before packing: the totals must fit.
  for (let k = 0; k < cat.d; k++) {
    const need = cat.groups.reduce((a, g) => a + g.size[k] * g.count, 0);
    const have = hosts.reduce((a, h) => a + h.capacity[k], 0);
    if (need > have) return undefined;
  }
  const items = podItems(cat);
  const placement = placeWithBudget(hosts, items, {}, repairWork);
  if (placement.unplaced.length > 0) return undefined;
  const nodePods = hosts.map((_, h) => ({ type: hostType[h], pods: new Array<number>(cat.groups.length).fill(0) }));
  placement.hostOf.forEach((h, i) => nodePods[h].pods[items[i].group]++);
  return { counts: [...counts], nodePods: nodePods.filter((n) => n.pods.some((c) => c > 0)) };
}

/**
 * Descent over node counts: drop a node; swap a node for a cheaper type; merge two nodes into one that
 * costs less than both; split a node into two that cost less together. Each step takes the cheapest
 * candidate whose pods still pack (checked by packing them).
 */
function improve(cat: Catalogue, start: Mix, iterations: number): Mix {
  let best = start;
  let checks = 0;
  const T = cat.types.length;
  const cost = (counts: readonly number[]): number => costOf(cat, counts);
  for (;;) {
    const current = best.counts;
    const here = cost(current);
    const moves: number[][] = [];
    for (let a = 0; a < T; a++) {
      if (current[a] === 0) continue;
      const drop = [...current];
      drop[a]--;
      moves.push(drop);
      for (let b = 0; b < T; b++) {
        if (b === a) continue;
        const swap = [...drop];
        swap[b]++;
        moves.push(swap);
        for (let c = a; c < T; c++) {
          if (drop[c] === 0) continue;
          const merge = [...drop];
          merge[c]--;
          merge[b]++;
          moves.push(merge);
        }
        for (let c = b; c < T; c++) {
          if (c === a) continue;
          const split = [...swap];
          split[c]++;
          moves.push(split);
        }
      }
    }
    // Cheapest candidates first, so the first feasible one is the best improvement on offer.
    const better = moves
      .map((counts) => ({ counts, cost: cost(counts) }))
      .filter((m) => m.cost < here - tolerance(here))
      .sort((x, y) => x.cost - y.cost || compareCounts(x.counts, y.counts));
    let improved = false;
    for (const m of better) {
      if (checks >= iterations) return best;
      checks++;
      const mix = check(cat, m.counts, CHECK_REPAIR_WORK);
      if (mix !== undefined) {
        best = mix;
        improved = true;
        break;
      }
    }
    if (!improved) return best;
  }
}

function compareCounts(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
