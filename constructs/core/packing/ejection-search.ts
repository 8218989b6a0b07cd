/**
 * Local search over partial packings into a fixed set of bins: the heart of the improvement phase.
 *
 * The state is a packing of some items into the bins plus a pool of unplaced items. A move takes an
 * unplaced item and puts it into a bin, ejecting up to three of the bin's items into the pool to make
 * room; it picks the move that lowers the pool's total penalty weight most. Two devices keep it from
 * cycling: an ejected item may not go back to the bin it left for a few moves (tabu), and every move
 * raises the penalty weight of the items still in the pool, so items that are hard to place are
 * eventually placed at the expense of easier ones. Every few moves a deeper move is tried first: put
 * a pooled item into two bins by repacking them from scratch (exhaustively, with a node cap), which
 * finds rearrangements that chains of single ejections miss on tightly filled bins. The search has
 * succeeded when the pool is empty. This is the scheme that works well for graph colouring with
 * partial solutions (tabu search with conflict weighting), transposed to packing.
 */
import { Prng } from './prng';

/** Sizes of the items to place: `size[i * d + k]`. */
export interface SearchItems {
  readonly n: number;
  readonly d: number;
  readonly size: Float64Array;
}

/** How long the search may run; `work` counts evaluated candidate moves, `deadline` is a safety net. */
export interface SearchBudget {
  /** Maximum number of candidate move evaluations. */
  readonly work: number;
  /** Stop after this many moves without reducing the best pool (measured by base weight). */
  readonly stall: number;
  /** Returns true when the wall clock is up; consulted only every few hundred moves. */
  readonly timeUp: () => boolean;
  /** Stop as soon as the pool is this small (known to be the best possible); default 0. */
  readonly poolTarget?: number;
}

const MAX_EJECT_TRIPLES_MEMBERS = 14;
const MAX_REPACK_ITEMS = 24;
const MAX_REPACK_NODES = 4000;
// Pooled items and pairs of bins one repack attempt considers at most.
const MAX_REPACK_POOL = 4;
const MAX_REPACK_PAIRS = 2000;
// Every this many moves, try the two-bin repack before an ordinary move.
const REPACK_EVERY = 3;

export class EjectionSearch {
  /** The bin of every item, -1 while it is in the pool. */
  readonly binOf: Int32Array;
  /** Candidate move evaluations so far, the search's measure of time. */
  work = 0;
  /** The assignment with the fewest pooled items seen so far, and that number. */
  readonly bestBinOf: Int32Array;
  bestPoolSize: number;
  private readonly load: Float64Array;
  private readonly members: number[][];
  private readonly pool: number[] = [];
  private readonly weight: Float64Array;
  private readonly tabuUntil: Int32Array;
  private iteration = 0;
  // The best move found while scanning: its item, bin and ejected items (-1 when unused).
  private moveItem = -1;
  private moveBin = -1;
  private readonly moveEject = [-1, -1, -1];
  private moveDelta = Infinity;
  private ties = 0;
  private readonly needDim: Int32Array;
  private readonly needAmt: Float64Array;
  // Scratch space of the two-bin repack.
  private readonly repackSet = new Int32Array(MAX_REPACK_ITEMS);
  private readonly repackSide = new Uint8Array(MAX_REPACK_ITEMS + 1);
  private readonly repackRest: Float64Array;
  private readonly repackRoom: Float64Array;

  constructor(
    private readonly items: SearchItems,
    private readonly binCap: Float64Array,
    private readonly bins: number,
    private readonly base: Float64Array,
    private readonly rng: Prng,
    initial: ArrayLike<number>,
    // Pooled items considered per move; a sample keeps moves cheap when the pool is large.
    private readonly poolScan = Infinity,
  ) {
    const { n, d, size } = items;
    this.binOf = Int32Array.from(initial);
    this.load = new Float64Array(bins * d);
    this.members = Array.from({ length: bins }, () => []);
    this.weight = Float64Array.from(base);
    this.tabuUntil = new Int32Array(n * bins);
    this.needDim = new Int32Array(d);
    this.needAmt = new Float64Array(d);
    this.repackRest = new Float64Array((MAX_REPACK_ITEMS + 1) * d);
    this.repackRoom = new Float64Array(2 * d);
    for (let i = 0; i < n; i++) {
      const b = this.binOf[i];
      if (b < 0) {
        this.pool.push(i);
        continue;
      }
      this.members[b].push(i);
      for (let k = 0; k < d; k++) this.load[b * d + k] += size[i * d + k];
    }
    this.bestBinOf = Int32Array.from(this.binOf);
    this.bestPoolSize = this.pool.length;
  }

  get poolSize(): number {
    return this.pool.length;
  }

  /** Runs until the pool is empty or at its target (returns true) or the budget is spent (returns false). */
  run(budget: SearchBudget): boolean {
    let bestPool = this.poolBase();
    let sinceBest = 0;
    const target = budget.poolTarget ?? 0;
    while (this.pool.length > target) {
      if (this.work >= budget.work || sinceBest >= budget.stall) return false;
      if ((this.iteration & 255) === 255 && budget.timeUp()) return false;
      this.step();
      if (this.pool.length < this.bestPoolSize) {
        this.bestPoolSize = this.pool.length;
        this.bestBinOf.set(this.binOf);
      }
      const now = this.poolBase();
      if (now < bestPool - 1e-12) {
        bestPool = now;
        sinceBest = 0;
      } else {
        sinceBest++;
      }
    }
    return true;
  }

  /** Sum of base weights of the pool: the weight-independent measure of progress. */
  private poolBase(): number {
    let s = 0;
    for (const i of this.pool) s += this.base[i];
    return s;
  }

  private step(): void {
    this.iteration++;
    if (this.iteration % REPACK_EVERY === 0 && this.repackPairs()) return;
    this.moveItem = -1;
    this.moveDelta = Infinity;
    this.ties = 0;
    const pool = this.pool;
    if (pool.length <= this.poolScan) {
      for (const u of pool) for (let b = 0; b < this.bins; b++) this.scan(u, b);
    } else {
      const from = this.rng.below(pool.length);
      for (let j = 0; j < this.poolScan; j++) {
        const u = pool[(from + j) % pool.length];
        for (let b = 0; b < this.bins; b++) this.scan(u, b);
      }
    }
    this.work += pool.length;
    if (this.moveItem < 0) this.kick();
    else this.apply(this.moveItem, this.moveBin, this.moveEject);
    for (const u of this.pool) this.weight[u] += this.base[u];
  }

  /**
   * A deeper move, tried every few steps: insert a pooled item by repacking two bins from scratch with
   * their items plus it (exhaustive search with a node cap). Ejection chains reach only some of these.
   */
  private repackPairs(): boolean {
    const bins = this.bins;
    if (bins < 2) return false;
    // The heaviest few pooled items; all pairs of bins, or a sample of them on big fleets.
    const pool = [...this.pool].sort((x, y) => this.weight[y] - this.weight[x] || x - y).slice(0, MAX_REPACK_POOL);
    const shift = this.rng.below(bins);
    const allPairs = (bins * (bins - 1)) / 2 <= MAX_REPACK_PAIRS;
    for (const u of pool) {
      if (allPairs) {
        for (let i = 0; i < bins; i++) {
          for (let j = i + 1; j < bins; j++) if (this.repackPair(u, (i + shift) % bins, (j + shift) % bins)) return true;
        }
      } else {
        for (let s = 0; s < MAX_REPACK_PAIRS; s++) {
          const a = this.rng.below(bins);
          if (this.repackPair(u, a, (a + 1 + this.rng.below(bins - 1)) % bins)) return true;
        }
      }
    }
    return false;
  }

  /** Repacks bins a and b with their items plus pooled item u, if that is possible. */
  private repackPair(u: number, a: number, b: number): boolean {
    const { d, size } = this.items;
    const set = this.repackSet;
    const ma = this.members[a];
    const mb = this.members[b];
    const count = ma.length + mb.length + 1;
    if (count > MAX_REPACK_ITEMS) return false;
    this.work++;
    for (let k = 0; k < d; k++) {
      if (this.load[a * d + k] + this.load[b * d + k] + size[u * d + k] > this.binCap[a * d + k] + this.binCap[b * d + k]) return false;
    }
    // The set, largest first (insertion sort: a dozen items at most).
    let len = 0;
    for (let from = 0; from < count; from++) {
      const item = from < ma.length ? ma[from] : from < ma.length + mb.length ? mb[from - ma.length] : u;
      let at = len++;
      while (at > 0 && this.base[set[at - 1]] < this.base[item]) {
        set[at] = set[at - 1];
        at--;
      }
      set[at] = item;
    }
    this.work += count;
    if (!this.twoBinPacking(count, a, b)) return false;
    removeValue(this.pool, u);
    ma.length = 0;
    mb.length = 0;
    this.load.fill(0, a * d, a * d + d);
    this.load.fill(0, b * d, b * d + d);
    for (let at = 0; at < count; at++) {
      const item = set[at];
      const to = this.repackSide[at] === 0 ? a : b;
      this.members[to].push(item);
      this.binOf[item] = to;
      for (let k = 0; k < d; k++) this.load[to * d + k] += size[item * d + k];
    }
    return true;
  }

  /**
   * Splits the first `n` items of `repackSet` between bins a and b within capacity, writing the sides
   * (0 = a, 1 = b) to `repackSide`; false when there is no split or the node cap is hit.
   */
  // Over 60 lines: a hot loop of the packing search, kept in one piece for speed and to follow its algorithm's steps.
  private twoBinPacking(n: number, a: number, b: number): boolean {
    const { d, size } = this.items;
    const set = this.repackSet;
    const side = this.repackSide;
    const cap = this.binCap;
    // room[s * d + k]: what bin s (0 = a, 1 = b) has left; rest[j * d + k]: total of set[j..] in k.
    const room = this.repackRoom;
    const rest = this.repackRest;
    for (let k = 0; k < d; k++) {
      room[k] = cap[a * d + k];
      room[d + k] = cap[b * d + k];
      rest[n * d + k] = 0;
    }
    for (let j = n - 1; j >= 0; j--) for (let k = 0; k < d; k++) rest[j * d + k] = rest[(j + 1) * d + k] + size[set[j] * d + k];
    let sameCaps = true;
    for (let k = 0; k < d; k++) if (room[k] !== room[d + k]) sameCaps = false;
    // Iterative depth-first search: side[j] is the side item j is on, or the one to try next when backtracking.
    let nodes = 0;
    let j = 0;
    side[0] = 0;
    for (;;) {
      if (j === n) break;
      if (++nodes > MAX_REPACK_NODES) {
        this.work += nodes * d;
        return false;
      }
      let placed = false;
      // Prune when the rest cannot fit the room left in both bins together.
      let hopeless = false;
      for (let k = 0; k < d; k++) if (rest[j * d + k] > room[k] + room[d + k]) hopeless = true;
      if (!hopeless) {
        const item = set[j] * d;
        // With equal bins, putting the first item in b would only mirror the packings with it in a.
        const last = j === 0 && sameCaps ? 0 : 1;
        for (let s = side[j]; s <= last; s++) {
          let ok = true;
          for (let k = 0; k < d; k++) if (size[item + k] > room[s * d + k]) ok = false;
          if (!ok) continue;
          for (let k = 0; k < d; k++) room[s * d + k] -= size[item + k];
          side[j] = s;
          placed = true;
          break;
        }
      }
      if (placed) {
        j++;
        if (j < n) side[j] = 0;
        continue;
      }
      // Backtrack to the latest item that can still switch sides.
      for (;;) {
        j--;
        if (j < 0) {
          this.work += nodes * d;
          return false;
        }
        const item = set[j] * d;
        const s = side[j];
        for (let k = 0; k < d; k++) room[s * d + k] += size[item + k];
        if (s === 0) {
          side[j] = 1;
          break;
        }
      }
    }
    this.work += nodes * d;
    return true;
  }

  /** Considers inserting u into b with every ejection set of up to three items. */
  // Over 60 lines: a hot loop of the packing search, kept in one piece for speed and to follow its algorithm's steps.
  private scan(u: number, b: number): void {
    const { d, size } = this.items;
    const cap = this.binCap;
    const load = this.load;
    const wu = this.weight[u];
    const at = b * d;
    // The dimensions where u does not fit and how much room must be freed there.
    const needDim = this.needDim;
    const needAmt = this.needAmt;
    let over = 0;
    for (let k = 0; k < d; k++) {
      const excess = load[at + k] + size[u * d + k] - cap[at + k];
      if (excess > 0) {
        needDim[over] = k;
        needAmt[over] = excess;
        over++;
      }
    }
    this.work++;
    if (over === 0) {
      this.offer(u, b, -1, -1, -1, -wu);
      return;
    }
    if (this.tabuUntil[u * this.bins + b] > this.iteration) return;
    const m = this.members[b];
    const len = m.length;
    const w = this.weight;
    for (let x = 0; x < len; x++) {
      const ex = m[x];
      const cx = w[ex] - wu;
      if (cx > this.moveDelta) continue;
      this.work++;
      let ok = true;
      for (let j = 0; j < over; j++) {
        if (size[ex * d + needDim[j]] < needAmt[j]) {
          ok = false;
          break;
        }
      }
      if (ok) {
        this.offer(u, b, ex, -1, -1, cx);
        continue;
      }
      for (let y = x + 1; y < len; y++) {
        const ey = m[y];
        const cy = cx + w[ey];
        if (cy > this.moveDelta) continue;
        this.work++;
        ok = true;
        for (let j = 0; j < over; j++) {
          const k = needDim[j];
          if (size[ex * d + k] + size[ey * d + k] < needAmt[j]) {
            ok = false;
            break;
          }
        }
        if (ok) {
          this.offer(u, b, ex, ey, -1, cy);
          continue;
        }
        if (len > MAX_EJECT_TRIPLES_MEMBERS) continue;
        for (let z = y + 1; z < len; z++) {
          const ez = m[z];
          const cz = cy + w[ez];
          if (cz > this.moveDelta) continue;
          this.work++;
          ok = true;
          for (let j = 0; j < over; j++) {
            const k = needDim[j];
            if (size[ex * d + k] + size[ey * d + k] + size[ez * d + k] < needAmt[j]) {
              ok = false;
              break;
            }
          }
          if (ok) this.offer(u, b, ex, ey, ez, cz);
        }
      }
    }
  }

  private offer(u: number, b: number, e1: number, e2: number, e3: number, delta: number): void {
    if (delta < this.moveDelta - 1e-12) {
      this.moveDelta = delta;
      this.ties = 1;
    } else if (delta <= this.moveDelta + 1e-12) {
      // Reservoir sampling: each of the tied moves is kept with equal probability.
      this.ties++;
      if (this.rng.below(this.ties) !== 0) return;
    } else {
      return;
    }
    this.moveItem = u;
    this.moveBin = b;
    this.moveEject[0] = e1;
    this.moveEject[1] = e2;
    this.moveEject[2] = e3;
  }

  /** Puts u into b after moving `eject` to the pool (tabu for returning to b for a while). */
  private apply(u: number, b: number, eject: readonly number[]): void {
    const { d, size } = this.items;
    const tenure = 3 + this.rng.below(8) + this.pool.length;
    for (const e of eject) {
      if (e < 0) continue;
      removeValue(this.members[b], e);
      for (let k = 0; k < d; k++) this.load[b * d + k] -= size[e * d + k];
      this.binOf[e] = -1;
      this.pool.push(e);
      this.tabuUntil[e * this.bins + b] = this.iteration + tenure;
    }
    removeValue(this.pool, u);
    this.members[b].push(u);
    for (let k = 0; k < d; k++) this.load[b * d + k] += size[u * d + k];
    this.binOf[u] = b;
  }

  /**
   * No move was possible (every bin would need more than three ejections, or all were tabu): put a
   * random pooled item into a random bin it fits alone, ejecting the bin's items largest first.
   */
  private kick(): void {
    const { d, size } = this.items;
    const u = this.pool[this.rng.below(this.pool.length)];
    const candidates: number[] = [];
    for (let b = 0; b < this.bins; b++) {
      let ok = true;
      for (let k = 0; k < d; k++) if (size[u * d + k] > this.binCap[b * d + k]) ok = false;
      if (ok) candidates.push(b);
    }
    if (candidates.length === 0) return;
    const b = candidates[this.rng.below(candidates.length)];
    const order = [...this.members[b]].sort((x, y) => this.base[y] - this.base[x] || x - y);
    const eject: number[] = [];
    const over = (): boolean => {
      for (let k = 0; k < d; k++) {
        let l = this.load[b * d + k] + size[u * d + k];
        for (const e of eject) l -= size[e * d + k];
        if (l > this.binCap[b * d + k]) return true;
      }
      return false;
    };
    for (const e of order) {
      if (!over()) break;
      eject.push(e);
    }
    this.apply(u, b, eject);
  }
}

function removeValue(list: number[], value: number): void {
  const at = list.indexOf(value);
  list[at] = list[list.length - 1];
  list.pop();
}
