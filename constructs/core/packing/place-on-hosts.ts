/**
 * Placement onto a given fleet: heterogeneous hosts with fixed capacities (already net of what the
 * hosts reserve), and as many items (VMs) on them as possible. This is what proves that every node of
 * every pool has a host, so it tries hard: a greedy pass, then the ejection local search to repair
 * whatever the greedy pass left over, then (when asked) moves that spread each group across hosts.
 */
import { EjectionSearch } from './ejection-search';
import { checkSize, PackingInputError } from './problem';
import { Prng } from './prng';
import { HostCapacity, Placement, PlacementItem, PlaceOptions } from './types';

// Work budget of the repair search (candidate evaluations, well under a second), and how many pooled
// items it looks at per move on big fleets. Fixed numbers rather than a clock: synth must be repeatable.
const REPAIR_WORK = 3_000_000;
const REPAIR_POOL_SCAN = 8;
const REPAIR_STALL = 3_000;
const SEED = 0x686f7374; // "host"
const MAX_REBALANCE_ROUNDS = 10;

interface Fleet {
  readonly n: number;
  readonly d: number;
  readonly hosts: number;
  readonly size: Float64Array;
  readonly cap: Float64Array;
  /** Sizes as shares of the largest host in each dimension, to compare items across dimensions. */
  readonly norm: Float64Array;
  /** Dense group index of every item (items without a group get their own). */
  readonly group: Int32Array;
  readonly groups: number;
}

/** Places items on hosts; deterministic for a given input. */
export function placeOnHosts(hosts: readonly HostCapacity[], items: readonly PlacementItem[], options: PlaceOptions = {}): Placement {
  return placeWithBudget(hosts, items, options, REPAIR_WORK);
}

/** `placeOnHosts` with the repair search's work budget as a parameter (callers that try many fleets). */
export function placeWithBudget(hosts: readonly HostCapacity[], items: readonly PlacementItem[], options: PlaceOptions, repairWork: number): Placement {
  const fleet = toFleet(hosts, items);
  let hostOf: Int32Array;
  if (options.spreadGroups) {
    // Spreading is a preference, never a reason to leave more items out: the plain placement is tried too,
    // unless the spread one already placed every item.
    const spread = place(fleet, true, repairWork);
    const plain = placedCount(spread) === fleet.n ? undefined : place(fleet, false, repairWork);
    hostOf = plain === undefined || placedCount(spread) >= placedCount(plain) ? spread : plain;
    rebalance(fleet, hostOf);
  } else hostOf = place(fleet, false, repairWork);
  const unplaced: number[] = [];
  hostOf.forEach((h, i) => {
    if (h < 0) unplaced.push(i);
  });
  return { hostOf: Array.from(hostOf), unplaced };
}

function toFleet(hosts: readonly HostCapacity[], items: readonly PlacementItem[]): Fleet {
  const d = hosts.length > 0 ? hosts[0].capacity.length : items.length > 0 ? items[0].size.length : 0;
  hosts.forEach((h, j) => {
    if (h.capacity.length !== d) throw new PackingInputError(`host ${j} has ${h.capacity.length} capacities, expected ${d} like host 0`);
    h.capacity.forEach((c, k) => checkSize(c, `host ${j} capacity[${k}]`));
  });
  items.forEach((item, i) => {
    if (item.size.length !== d) throw new PackingInputError(`item ${i} has ${item.size.length} sizes, expected ${d} (one per host dimension)`);
    item.size.forEach((s, k) => checkSize(s, `item ${i} size[${k}]`));
  });
  const n = items.length;
  const size = new Float64Array(n * d);
  const norm = new Float64Array(n * d);
  const cap = new Float64Array(hosts.length * d);
  hosts.forEach((h, j) => cap.set(h.capacity, j * d));
  const scale = Array.from({ length: d }, (_, k) => Math.max(1, ...hosts.map((h) => h.capacity[k])));
  const groupIndex = new Map<number, number>();
  const group = new Int32Array(n);
  items.forEach((item, i) => {
    for (let k = 0; k < d; k++) {
      size[i * d + k] = item.size[k];
      norm[i * d + k] = item.size[k] / scale[k];
    }
    // Ungrouped items get a group of their own so that they never count against anyone's spread.
    const key = item.group ?? -1 - i;
    let g = groupIndex.get(key);
    if (g === undefined) {
      g = groupIndex.size;
      groupIndex.set(key, g);
    }
    group[i] = g;
  });
  return { n, d, hosts: hosts.length, size, cap, norm, group, groups: groupIndex.size };
}

function placedCount(hostOf: Int32Array): number {
  let c = 0;
  for (const h of hostOf) if (h >= 0) c++;
  return c;
}

/** Greedy placement (largest items first, best fit, optionally fewest of the same group first), then repair. */
function place(fleet: Fleet, spread: boolean, repairWork: number): Int32Array {
  const { n, d, hosts, size, cap, norm, group } = fleet;
  const load = new Float64Array(hosts * d);
  const sameGroup = groupCounter(hosts, fleet.groups);
  const capScale = cap.map((c) => Math.max(1, c));
  const hostOf = new Int32Array(n).fill(-1);
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) weight[i] += norm[i * d + k];
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => weight[b] - weight[a] || a - b);
  for (const i of order) {
    let chosen = -1;
    let bestCount = Infinity;
    let bestSlack = Infinity;
    for (let h = 0; h < hosts; h++) {
      let ok = true;
      let slack = 0;
      for (let k = 0; k < d; k++) {
        const room = cap[h * d + k] - load[h * d + k] - size[i * d + k];
        if (room < 0) {
          ok = false;
          break;
        }
        slack += room / capScale[h * d + k];
      }
      if (!ok) continue;
      const count = spread ? sameGroup.get(h, group[i]) : 0;
      if (count < bestCount || (count === bestCount && slack < bestSlack)) {
        chosen = h;
        bestCount = count;
        bestSlack = slack;
      }
    }
    if (chosen < 0) continue;
    hostOf[i] = chosen;
    for (let k = 0; k < d; k++) load[chosen * d + k] += size[i * d + k];
    sameGroup.add(chosen, group[i]);
  }
  if (placedCount(hostOf) === n || hosts === 0) return hostOf;
  return repairWork > 0 ? repair(fleet, hostOf, weight, repairWork) : hostOf;
}

/** Items per (host, group): a dense table when it is small enough (the usual case), else a map. */
function groupCounter(hosts: number, groups: number): { get(h: number, g: number): number; add(h: number, g: number): void } {
  if (hosts * groups <= 1 << 22) {
    const table = new Int32Array(hosts * groups);
    return { get: (h, g) => table[h * groups + g], add: (h, g) => void table[h * groups + g]++ };
  }
  const map = new Map<number, number>();
  return { get: (h, g) => map.get(h * groups + g) ?? 0, add: (h, g) => void map.set(h * groups + g, (map.get(h * groups + g) ?? 0) + 1) };
}

/** Local search that makes room for the unplaced items by moving placed ones (see EjectionSearch). */
function repair(fleet: Fleet, hostOf: Int32Array, weight: Float64Array, repairWork: number): Int32Array {
  const { n, d, hosts, size, cap } = fleet;
  // Items that fit no empty host can never be placed; keeping them out of the pool keeps the search honest.
  const placeable: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let h = 0; h < hosts; h++) {
      let ok = true;
      for (let k = 0; k < d; k++) if (size[i * d + k] > cap[h * d + k]) ok = false;
      if (ok) {
        placeable.push(i);
        break;
      }
    }
  }
  const most = placeableBound(fleet, placeable);
  if (placedCount(hostOf) >= most) return hostOf;
  const sub = new Float64Array(placeable.length * d);
  placeable.forEach((i, j) => sub.set(size.subarray(i * d, i * d + d), j * d));
  const initial = placeable.map((i) => hostOf[i]);
  const base = Float64Array.from(placeable, (i) => weight[i] + 1e-6);
  const search = new EjectionSearch({ n: placeable.length, d, size: sub }, cap, hosts, base, new Prng(SEED ^ n), initial, REPAIR_POOL_SCAN);
  search.run({ work: repairWork, stall: REPAIR_STALL, timeUp: () => false, poolTarget: placeable.length - most });
  const out = Int32Array.from(hostOf);
  placeable.forEach((i, j) => (out[i] = search.bestBinOf[j]));
  return out;
}

/**
 * How many of the placeable items could be placed at most: in each dimension, the smallest items first
 * until the fleet's total capacity is used up. The repair stops once it places that many.
 */
function placeableBound(fleet: Fleet, placeable: readonly number[]): number {
  const { d, hosts, size, cap } = fleet;
  let most = placeable.length;
  for (let k = 0; k < d; k++) {
    let room = 0;
    for (let h = 0; h < hosts; h++) room += cap[h * d + k];
    const sizes = placeable.map((i) => size[i * d + k]).sort((a, b) => a - b);
    let count = 0;
    for (const s of sizes) {
      if (s > room) break;
      room -= s;
      count++;
    }
    most = Math.min(most, count);
  }
  return most;
}

/**
 * Moves items, one at a time, to hosts with room where their group has fewer members, until no such
 * move lowers the largest concentration any more. Only placed items move, so nothing gets unplaced.
 */
function rebalance(fleet: Fleet, hostOf: Int32Array): void {
  const { n, d, hosts, size, cap, group, groups } = fleet;
  const load = new Float64Array(hosts * d);
  const count = new Int32Array(hosts * groups);
  for (let i = 0; i < n; i++) {
    const h = hostOf[i];
    if (h < 0) continue;
    for (let k = 0; k < d; k++) load[h * d + k] += size[i * d + k];
    count[h * groups + group[i]]++;
  }
  // Each accepted move lowers the sum of squared group counts, so this terminates; the cap bounds the
  // time on huge fleets, where a few rounds already do nearly all the good.
  for (let round = 0; round < MAX_REBALANCE_ROUNDS; round++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      const from = hostOf[i];
      if (from < 0) continue;
      const g = group[i];
      // Moving helps only if some host has at least two fewer of the group than this one.
      if (count[from * groups + g] < 2) continue;
      let target = -1;
      let targetCount = count[from * groups + g] - 1;
      for (let h = 0; h < hosts; h++) {
        if (h === from || count[h * groups + g] >= targetCount) continue;
        let ok = true;
        for (let k = 0; k < d; k++) if (load[h * d + k] + size[i * d + k] > cap[h * d + k]) ok = false;
        if (ok) {
          target = h;
          targetCount = count[h * groups + g];
        }
      }
      if (target < 0) continue;
      for (let k = 0; k < d; k++) {
        load[from * d + k] -= size[i * d + k];
        load[target * d + k] += size[i * d + k];
      }
      count[from * groups + g]--;
      count[target * groups + g]++;
      hostOf[i] = target;
      moved = true;
    }
    if (!moved) break;
  }
}
