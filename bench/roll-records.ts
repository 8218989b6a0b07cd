/**
 * What bench:roll reads from the API server's records of a roll: the watch events of the pool's VirtualMachines and
 * tenant Nodes, each with its resourceVersion (one etcd: one order for every kind). From them, the most VMs that
 * existed at once, and each replaced node's interval from its stop (its VM set Halted) to its Node Ready again, and
 * the most of those intervals open at once: the nodes in flight.
 */

/** One watch event as the bench keeps it. */
export interface RollRecord {
  readonly kind: 'VirtualMachine' | 'Node';
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly name: string;
  /** The object's resourceVersion: the API server's order. */
  readonly rv: number;
  /** When the bench received the event (ms since the epoch). */
  readonly at: number;
  /** A VM's runStrategy is Halted. */
  readonly halted?: boolean;
  /** A Node's Ready condition is True. */
  readonly ready?: boolean;
  /** A Node is cordoned (spec.unschedulable). */
  readonly cordoned?: boolean;
}

/** A closed interval of resourceVersions (or any ordered measure). */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/**
 * The most intervals that hold one point at once (closed intervals: one that ends where another starts overlaps it).
 * A sweep over the ends, a start before an end at the same point.
 */
export function maxInFlight(intervals: readonly Interval[]): number {
  const points = intervals.flatMap((i) => [
    { at: i.start, delta: 1 },
    { at: i.end, delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || b.delta - a.delta);
  let open = 0;
  let most = 0;
  for (const p of points) {
    open += p.delta;
    most = Math.max(most, open);
  }
  return most;
}

/**
 * How many VMs existed just before `fromRv` and the most that existed at once from then on, by replaying the VM
 * events in the API server's order: a VM exists from its ADDED event to its DELETED event.
 */
export function peakPresent(records: readonly RollRecord[], fromRv: number): { before: number; peak: number } {
  const live = new Set<string>();
  let before = -1;
  let peak = 0;
  for (const r of records.filter((x) => x.kind === 'VirtualMachine').sort((a, b) => a.rv - b.rv)) {
    if (r.rv > fromRv && before < 0) {
      before = live.size;
      peak = before;
    }
    if (r.type === 'DELETED') live.delete(r.name);
    else live.add(r.name);
    if (before >= 0) peak = Math.max(peak, live.size);
  }
  if (before < 0) return { before: live.size, peak: live.size };
  return { before, peak };
}

/**
 * A replaced node, from the records: its Node cordoned (its drain began), its VM set Halted, then its Node Ready
 * again, in resourceVersions and in time.
 */
export interface Replacement {
  readonly name: string;
  /** When its drain began: its Node cordoned (the first event of the last cordoned run before the stop; the stop's time when none). */
  readonly cordonAt: number;
  readonly stopRv: number;
  readonly readyRv: number;
  readonly stopAt: number;
  readonly readyAt: number;
}

/**
 * Each of `names` replaced after `fromRv`: its first VM event with runStrategy Halted, the first of its Node's last
 * run of cordoned events before that, and the first event of its Node Ready after it. A node with no stop or not Ready again is
 * left out.
 */
export function replacements(records: readonly RollRecord[], names: readonly string[], fromRv: number): Replacement[] {
  const sorted = records.filter((r) => r.rv > fromRv).sort((a, b) => a.rv - b.rv);
  const out: Replacement[] = [];
  for (const name of names) {
    const stop = sorted.find((r) => r.kind === 'VirtualMachine' && r.name === name && r.halted === true);
    if (stop === undefined) continue;
    const ready = sorted.find((r) => r.kind === 'Node' && r.name === name && r.rv > stop.rv && r.ready === true && r.type !== 'DELETED');
    if (ready === undefined) continue;
    // The start of the Node's last run of cordoned events before the stop: a cordoned Node is modified again.
    let cordonAt: number | undefined;
    for (const r of sorted.filter((x) => x.kind === 'Node' && x.name === name && x.rv < stop.rv))
      cordonAt = r.cordoned !== true || r.type === 'DELETED' ? undefined : (cordonAt ?? r.at);
    out.push({ name, cordonAt: cordonAt ?? stop.at, stopRv: stop.rv, readyRv: ready.rv, stopAt: stop.at, readyAt: ready.at });
  }
  return out;
}

/** A roll's three phases, in seconds: its surge made and joined, its nodes replaced, its surge drained and deleted. */
export interface Phases {
  /** From the first surge VM made to the first node stopped. */
  readonly surgeSeconds: number;
  /** From the first node stopped to the last one Ready again. */
  readonly replaceSeconds: number;
  /** From the last node Ready again to the last surge VM gone. */
  readonly endSeconds: number;
}

/** A roll's phases from its records after `fromRv`: a VM not of `names` is a surge. NaN for a phase not seen. */
export function phases(records: readonly RollRecord[], names: readonly string[], fromRv: number): Phases {
  const pool = new Set(names);
  const vms = records.filter((r) => r.kind === 'VirtualMachine' && r.rv > fromRv).sort((a, b) => a.rv - b.rv);
  const surgeMade = vms.find((r) => r.type === 'ADDED' && !pool.has(r.name))?.at ?? NaN;
  const surgeGone = vms.filter((r) => r.type === 'DELETED' && !pool.has(r.name)).pop()?.at ?? NaN;
  const replaced = replacements(records, names, fromRv);
  const firstStop = replaced.length === 0 ? NaN : Math.min(...replaced.map((x) => x.stopAt));
  const lastReady = replaced.length === 0 ? NaN : Math.max(...replaced.map((x) => x.readyAt));
  return { surgeSeconds: (firstStop - surgeMade) / 1000, replaceSeconds: (lastReady - firstStop) / 1000, endSeconds: (surgeGone - lastReady) / 1000 };
}

/** The median of some numbers (NaN for none). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
