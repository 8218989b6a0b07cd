/**
 * The vocabulary of the placement engine: a vector bin packing instance, its result and the knobs.
 */

/** Identical bins and the items to pack into them; sizes are non-negative safe integers, one per dimension. */
export interface PackingInstance {
  /** The capacity of every bin, one entry per dimension (cpu, memory, disk, ...). */
  readonly capacity: readonly number[];
  /** The size of every item, same dimensions as `capacity`. */
  readonly items: readonly (readonly number[])[];
}

export interface PackOptions {
  /**
   * Wall-clock budget in milliseconds. The search counts work rather than watching the clock, so a run
   * gives the same answer every time; the clock is only a safety net.
   * @default 2000
   */
  readonly timeLimitMs?: number;
  /**
   * Whether to run the MILP solver (HiGHS) when the heuristics have not matched the lower bound: `auto`
   * when its assignment model is small (items x bins up to 3000), `always`, or `never`.
   * @default 'auto'
   */
  readonly exact?: 'auto' | 'never' | 'always';
}

export interface SyncPackOptions {
  /**
   * Work budget of the improvement phase, in candidate moves the local search evaluates (about 20 to 40
   * per microsecond). No clock is read, so the result depends only on the input and this number.
   * @default 1000000
   */
  readonly iterations?: number;
}

export interface PackResult {
  /** Number of bins used. */
  readonly bins: number;
  /** The 0-based bin of every item, in input order; bins are numbered 0..bins-1 without gaps. */
  readonly binOf: number[];
  /** A proven lower bound on the optimal number of bins. */
  readonly lowerBound: number;
  /** True when `bins` is proven optimal (it meets the lower bound, or the MILP proved it). */
  readonly optimal: boolean;
  /** Which part of the engine found the packing, e.g. `ffd-l2`, `dot-product`, `local-search`, `milp`. */
  readonly method: string;
}

/** A host (a bin of its own size) for `placeOnHosts`; capacity is already net of reservations. */
export interface HostCapacity {
  readonly capacity: readonly number[];
}

/** An item for `placeOnHosts`; items with the same `group` (a node pool) are spread when asked to. */
export interface PlacementItem {
  readonly size: readonly number[];
  readonly group?: number;
}

export interface PlaceOptions {
  /**
   * Prefer, among hosts that fit, the one holding the fewest items of the same group, as long as that
   * never leaves an item unplaced that packing without spreading would place.
   * @default false
   */
  readonly spreadGroups?: boolean;
}

export interface Placement {
  /** The host of every item, in input order; -1 when the item could not be placed. */
  readonly hostOf: number[];
  /** The indices of the items that could not be placed, ascending. */
  readonly unplaced: number[];
}
