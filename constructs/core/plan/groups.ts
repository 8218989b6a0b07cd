/**
 * Planning, phase 5b: host groups. A spread pool confined to a group of G hosts (a required node affinity on
 * their names) under a hard topology spread (maxSkew 1, DoNotSchedule, nodeAffinityPolicy Honor: only the
 * group's hosts are domains) never has more than ceil(n / G) VMs on one host, whatever order its launcher
 * pods come in. The planner chooses a group per pool so that every host's worst case fits, and so that a
 * drain of any host of the group leaves each of its VMs a migration target the scheduler can take: a single
 * host is the degenerate group, used only when no group proves it (pinning, below).
 *
 * Which hosts: each pool first tries its own order of the fleet's hosts, a hash of its label and each host's name
 * (rendezvous hashing), so that a pool's group depends on its own size and on whether hosts fit, not on where
 * every other pool landed. A pool scaled by one then takes one more host of its own order (or none), and the
 * other pools keep theirs while their hosts still fit: one Node label changes, not a cascade through the fleet.
 * The hosts are packed fullest first instead only where that proves more: fewer pools without a group, or more
 * migrating pools with a whole drain (placement.ts `groupFleet`).
 *
 * All arithmetic is in placement's integer dimensions (millicores, bytes, units), host and pool indices.
 */
import { createHash } from 'crypto';

/** A spread pool as the group search sees it. */
export interface GroupPool {
  /** Its VMs. */
  readonly n: number;
  /** One VM's demand per dimension. */
  readonly size: readonly number[];
  /** Indices of its VMs in the fleet's item list. */
  readonly members: readonly number[];
  /** The plan may pin it (it does not ask for live migration). */
  readonly canPin: boolean;
  /** Its VMs live-migrate on a drain, so a drain must leave them a target. */
  readonly migrates: boolean;
}

/** The group a pool is confined to. */
export interface ChosenGroup {
  /** Host indices, in the order VMs are dealt to them. */
  readonly hosts: readonly number[];
  /** ceil(n / |hosts|): the most VMs of the pool any one host can get. */
  readonly perHost: number;
  /** In the worst case, how many hosts of the group can take a VM of a drained host (0: not proven). */
  readonly migrationTargets: number;
  /** A drain of any one host of the group leaves every one of its VMs, of every pool there, room in its group. */
  readonly wholeDrain: boolean;
}

/** One pool's worst case on one host. */
interface Share {
  readonly pool: number;
  readonly count: number;
}

/** The worst case per host: what the pools (and pinned VMs) confined there could put on it. */
export class GroupLedger {
  /** Worst-case demand per host and dimension. */
  readonly load: number[][];
  /** Per host, the pools that can put VMs there, and how many at most. */
  readonly shares: Share[][];
  /** Pool -> its group. */
  readonly groups = new Map<number, ChosenGroup>();
  /** Per host, whether it stays within its allocatable after drains of other hosts (undefined: not known yet). */
  private readonly drainOk: (boolean | undefined)[];

  /**
   * @param requireMigration a group is taken only when every migrating pool keeps a migration target; false:
   *   targets are recorded as found, and pools without one are reported (a drain may then wait for room).
   */
  constructor(
    readonly caps: readonly (readonly number[])[],
    readonly pools: ReadonlyMap<number, GroupPool>,
    readonly requireMigration = true,
  ) {
    this.load = caps.map((c) => c.map(() => 0));
    this.shares = caps.map(() => []);
    this.drainOk = caps.map(() => undefined);
  }

  /** A fixed demand on a host (a pinned VM, a VM already running). */
  addFixed(host: number, size: readonly number[]): void {
    size.forEach((v, d) => (this.load[host][d] += v));
    this.drainOk[host] = undefined;
  }

  /** Confines a pool to hosts: each may get perHost of its VMs. */
  confine(pool: number, hosts: readonly number[], perHost: number): void {
    const { size } = this.pools.get(pool)!;
    for (const h of hosts) {
      size.forEach((v, d) => (this.load[h][d] += perHost * v));
      this.shares[h].push({ pool, count: perHost });
      this.drainOk[h] = undefined;
    }
    this.groups.set(pool, { hosts, perHost, migrationTargets: 0, wholeDrain: false });
  }

  /** Undoes `confine`. */
  release(pool: number): void {
    const group = this.groups.get(pool)!;
    const { size } = this.pools.get(pool)!;
    for (const h of group.hosts) {
      size.forEach((v, d) => (this.load[h][d] -= group.perHost * v));
      this.shares[h] = this.shares[h].filter((s) => s.pool !== pool);
      this.drainOk[h] = undefined;
    }
    this.groups.delete(pool);
  }

  /** The host can take `count` more VMs of `size` on top of its worst case. */
  fits(host: number, size: readonly number[], count: number): boolean {
    const load = this.load[host];
    return this.caps[host].every((c, d) => load[d] + count * size[d] <= c);
  }

  /** Fullest share of any dimension, for best-fit and worst-fit host orders. */
  fill(host: number): number {
    return Math.max(0, ...this.caps[host].map((c, d) => (c > 0 ? this.load[host][d] / c : 0)));
  }

  /**
   * How many hosts of a pool's group are certain to take one more of its VMs after any host of the group is
   * drained, in the worst case (0: not proven). The drained host is cordoned, so the spread counts the other
   * hosts only; the migration target may go only to those holding the fewest VMs of the pool (the spread),
   * and kube-scheduler takes any of them that has room (its filters are all checked, so one is enough). With
   * lo = floor(n / G) and r = n mod G, the adversary chooses which hosts hold lo + 1 and which host drains:
   * a drained host with lo + 1 leaves the lo-hosts (G - r of them) as targets with lo VMs; one with lo leaves
   * the other lo-hosts, or, when it was the only one, the r hosts with lo + 1. A target host is blocked only
   * when its worst case plus the pool's VMs there and one more overflows; a host that overflows only with
   * some pool q's VMs on it needs one of q's n_q VMs, so at most n_q such hosts are blocked at once.
   */
  migrationTargets(pool: number): number {
    const group = this.groups.get(pool)!;
    const { n } = this.pools.get(pool)!;
    const g = group.hosts.length;
    if (g < 2) return 0;
    const lo = Math.floor(n / g);
    const r = n % g;
    const cases: { targets: number; onTarget: number }[] = r === 0 ? [{ targets: g - 1, onTarget: lo }] : [{ targets: g - r, onTarget: lo }];
    if (r > 0 && lo >= 1) cases.push(g - r >= 2 ? { targets: g - r - 1, onTarget: lo } : { targets: r, onTarget: lo + 1 });
    return Math.max(0, Math.min(...cases.map((c) => c.targets - this.blockedAtMost(pool, c.onTarget))));
  }

  /** At most how many hosts of the pool's group cannot take one more of its VMs when they hold `onTarget`. */
  private blockedAtMost(pool: number, onTarget: number): number {
    const group = this.groups.get(pool)!;
    const { size } = this.pools.get(pool)!;
    let unconditional = 0;
    const byNeeded = new Map<number, number>();
    for (const h of group.hosts) {
      const cap = this.caps[h];
      // Other pools' worst case here, with this pool at onTarget + 1.
      const base = this.load[h].map((v, d) => v - group.perHost * size[d] + (onTarget + 1) * size[d]);
      if (base.every((v, d) => v <= cap[d])) continue;
      let needed: number | undefined;
      for (const s of this.shares[h]) {
        if (s.pool === pool) continue;
        const q = this.pools.get(s.pool)!;
        const without = base.every((v, d) => v - s.count * q.size[d] <= cap[d]);
        if (without && (needed === undefined || q.n < this.pools.get(needed)!.n)) needed = s.pool;
      }
      if (needed === undefined) unconditional++;
      else byNeeded.set(needed, (byNeeded.get(needed) ?? 0) + 1);
    }
    let blocked = unconditional;
    for (const [q, hosts] of byNeeded) blocked += Math.min(hosts, this.pools.get(q)!.n);
    return blocked;
  }

  /**
   * Whether a drain of any one host of the pool's group leaves every VM there room in its group, in the worst
   * case, drain after drain. The drained host is cordoned, so each pool confined to it spreads over the rest
   * of its group, G - 1 hosts: kube-scheduler puts each moved VM on a host holding the fewest of its pool
   * (maxSkew 1), so no host ends with more than ceil(n / (G - 1)) of it. VMs do not move back when the host
   * returns, and hosts are drained one after another (a rolling update), so in time every pool on a host may
   * stand at that count at once. The proof holds when every host of the group stays within its allocatable
   * with each spread pool there at ceil(n / (G - 1)) (those that do not migrate are restarted elsewhere and
   * take room too); pinned VMs stay on their host. Each host's answer is kept until its load changes.
   */
  wholeDrain(pool: number): boolean {
    const group = this.groups.get(pool)!;
    return group.hosts.length >= 2 && group.hosts.every((h) => this.fitsAfterDrains(h));
  }

  /** The most VMs of a pool one host of its group can hold after drains: ceil(n / (G - 1)), or perHost for G < 2. */
  private afterDrains(pool: number): number {
    const group = this.groups.get(pool)!;
    const g = group.hosts.length;
    return g < 2 ? group.perHost : Math.max(group.perHost, Math.ceil(this.pools.get(pool)!.n / (g - 1)));
  }

  /** The host stays within its allocatable with every pool confined there at its count after drains (cached). */
  private fitsAfterDrains(host: number): boolean {
    const known = this.drainOk[host];
    if (known !== undefined) return known;
    const load = [...this.load[host]];
    for (const s of this.shares[host]) {
      const more = this.afterDrains(s.pool) - s.count;
      if (more > 0) this.pools.get(s.pool)!.size.forEach((v, d) => (load[d] += more * v));
    }
    const ok = load.every((v, d) => v <= this.caps[host][d]);
    this.drainOk[host] = ok;
    return ok;
  }

  /**
   * Records each grouped pool's migration targets and whole-drain proof; false when, with migration
   * required, a pool that migrates has no target, or (with `keepWholeDrain`) loses a whole-drain proof it had.
   */
  proveMigrations(pools: Iterable<number>, keepWholeDrain = false): boolean {
    let ok = true;
    for (const p of pools) {
      const group = this.groups.get(p);
      if (!group) continue;
      const targets = this.migrationTargets(p);
      const wholeDrain = this.wholeDrain(p);
      this.groups.set(p, { ...group, migrationTargets: targets, wholeDrain });
      const required = this.pools.get(p)!.migrates && this.requireMigration;
      if (required && (targets < 1 || (keepWholeDrain && group.wholeDrain && !wholeDrain))) ok = false;
    }
    return ok;
  }

  /** The grouped pools that share a host with these hosts. */
  neighbours(hosts: readonly number[]): Set<number> {
    const out = new Set<number>();
    for (const h of hosts) for (const s of this.shares[h]) out.add(s.pool);
    return out;
  }
}

/** Candidate group sizes for n VMs over H hosts: k per host for growing k, the tightest G and one spare host. */
export function groupSizes(n: number, hostCount: number, limit = 48): number[] {
  const sizes: number[] = [];
  for (let k = Math.max(1, Math.ceil(n / hostCount)); sizes.length < limit; k++) {
    const tight = Math.ceil(n / k);
    for (const g of [tight + 1, tight]) if (g >= 2 && g <= hostCount && !sizes.includes(g)) sizes.push(g);
    if (tight <= 1) break;
  }
  return sizes;
}

/** What a group must keep: the pool's own whole-drain proof, and the neighbours' whole-drain proofs. */
interface GroupDemand {
  readonly wholeDrain: boolean;
  readonly keepNeighbours: boolean;
}

/**
 * Confines one pool to a group that keeps every host's worst case within its allocatable and every
 * migrating pool it shares hosts with (itself included) a migration target. In order of preference: the
 * first group that proves the pool's whole drain and keeps its neighbours' (migrating pools only), the first
 * that keeps the neighbours' whole drains, then the one that leaves the most migrating pools a whole drain.
 * With `own` (the pool's stable host order) hosts are tried in that order only; without it, fullest first
 * (leaving empty hosts to larger VMs), then emptiest first. With `previous` (the pool's group at the last deploy,
 * host indices ascending), that group is tried first among the groups of its size (groupCandidates).
 * Returns false (ledger unchanged) when no group does.
 */
export function chooseGroup(ledger: GroupLedger, pool: number, own?: readonly number[], previous?: readonly number[]): boolean {
  const demands: GroupDemand[] = [
    ...(ledger.requireMigration && ledger.pools.get(pool)!.migrates ? [{ wholeDrain: true, keepNeighbours: true }] : []),
    { wholeDrain: false, keepNeighbours: true },
  ];
  for (const demand of demands) for (const c of groupCandidates(ledger, pool, own, previous)) if (tryGroup(ledger, pool, c, demand)) return true;
  let best: GroupCandidate | undefined;
  let bestDrains = -1;
  for (const c of groupCandidates(ledger, pool, own, previous)) {
    if (!tryGroup(ledger, pool, c, { wholeDrain: false, keepNeighbours: false })) continue;
    const drains = [...ledger.groups].filter(([p, group]) => group.wholeDrain && ledger.pools.get(p)!.migrates).length;
    if (drains > bestDrains) [best, bestDrains] = [c, drains];
    unconfine(ledger, pool, c.hosts);
  }
  return best !== undefined && tryGroup(ledger, pool, best, { wholeDrain: false, keepNeighbours: false });
}

/**
 * Confines each pool, in `order`, to the group the last deploy gave it (`previousOf`, host indices ascending) where
 * that is a size the search would try for its VMs and those hosts still take its worst case, before any pool
 * searches: a pool that did not change keeps its hosts even where a grown pool's search would have taken one of
 * them first. Then lets go of every migrating pool kept without a whole-drain proof (a grown pool on its old hosts
 * at more VMs each, or a pool a neighbour crowds), except those in `stay` (VMs already running there): it searches
 * again, around the pools kept. Returns the pools kept.
 */
export function keepPreviousGroups(
  ledger: GroupLedger,
  order: readonly number[],
  previousOf: (pool: number) => readonly number[] | undefined,
  stay: ReadonlySet<number> = new Set(),
): Set<number> {
  const kept = new Set<number>();
  for (const p of order) {
    const hosts = previousOf(p);
    const { n, size } = ledger.pools.get(p)!;
    if (!hosts || !groupSizes(n, ledger.caps.length).includes(hosts.length)) continue;
    const perHost = Math.ceil(n / hosts.length);
    if (!hosts.every((h) => ledger.fits(h, size, perHost))) continue;
    ledger.confine(p, hosts, perHost);
    kept.add(p);
  }
  ledger.proveMigrations(kept);
  for (const p of order) {
    const group = ledger.groups.get(p);
    if (!kept.has(p) || stay.has(p) || !group || !ledger.pools.get(p)!.migrates || group.wholeDrain) continue;
    unconfine(ledger, p, group.hosts);
    kept.delete(p);
  }
  return kept;
}

/**
 * How many host group labels change on Nodes from `before` to `now`, pool by pool (host names; undefined: the pool
 * labels no host). 0 when no pool had a group before: a first deploy has nothing to keep.
 */
export function labelChanges(pools: readonly { readonly before?: readonly string[]; readonly now?: readonly string[] }[]): number {
  if (pools.every((p) => p.before === undefined)) return 0;
  let changes = 0;
  for (const { before, now } of pools) {
    const was = new Set(before ?? []);
    for (const h of now ?? []) if (!was.delete(h)) changes++;
    changes += was.size;
  }
  return changes;
}

/** A group a pool could be confined to. */
interface GroupCandidate {
  readonly hosts: readonly number[];
  readonly perHost: number;
}

/**
 * The groups to try, in order: for each group size, the group the last deploy gave the pool (`previous`, host
 * indices ascending) when it has that size and its hosts fit, then the first hosts that fit in the pool's own
 * order, or (none given) the fullest hosts that fit, then the emptiest. Lazily: the first that serves ends the
 * search. Trying a candidate and undoing it leaves every host's fill as it was, so the two host orders are sorted
 * once.
 *
 * Why the previous group goes first within its size and nowhere else: from the same input the search finds it
 * again (every candidate tried before it fails as it failed then), so planning again with the labels a deploy
 * wrote moves nothing; a pool of the same size keeps its group even where another pool's growth changed which
 * hosts come first in the search; and a grown pool still tries the larger sizes first (a spare host in its group
 * keeps its whole drain, which keeping its old hosts at more VMs each would take from its neighbours).
 */
function* groupCandidates(
  ledger: GroupLedger,
  pool: number,
  own: readonly number[] | undefined,
  previous: readonly number[] | undefined,
): Generator<GroupCandidate> {
  const { n, size } = ledger.pools.get(pool)!;
  const hosts = ledger.caps.map((_, h) => h);
  const orders = own ? [own] : packedOrders(ledger, hosts);
  for (const g of groupSizes(n, hosts.length)) {
    const perHost = Math.ceil(n / g);
    const kept = previous?.length === g && previous.every((h) => ledger.fits(h, size, perHost)) ? previous : undefined;
    if (kept) yield { hosts: kept, perHost };
    for (const order of orders) {
      const chosen: number[] = [];
      for (let i = 0; i < order.length && chosen.length < g; i++) if (ledger.fits(order[i], size, perHost)) chosen.push(order[i]);
      if (chosen.length < g) break;
      chosen.sort((a, b) => a - b);
      if (!kept || chosen.some((h, i) => h !== kept[i])) yield { hosts: chosen, perHost };
    }
  }
}

/** The fleet's hosts fullest first, then emptiest first (ties by index). */
function packedOrders(ledger: GroupLedger, hosts: readonly number[]): number[][] {
  const fill = hosts.map((h) => ledger.fill(h));
  return [[...hosts].sort((a, b) => fill[b] - fill[a] || a - b), [...hosts].sort((a, b) => fill[a] - fill[b] || a - b)];
}

/**
 * A pool's own order of the fleet's hosts (indices into `hosts`): by the SHA-256 of the pool's identity (its
 * group label, the same from a config file and from constructs) and the host's name, ties by index. A host
 * added to or removed from the fleet moves no other host in it.
 */
export function stableHostOrder(pool: string, hosts: readonly string[]): number[] {
  const rank = hosts.map((host) => createHash('sha256').update(`${pool}\u0000${host}`).digest('hex'));
  return hosts.map((_, h) => h).sort((a, b) => (rank[a] < rank[b] ? -1 : rank[a] > rank[b] ? 1 : a - b));
}

/** Confines the pool to the candidate if that meets the demand; otherwise leaves the ledger as it was. */
function tryGroup(ledger: GroupLedger, pool: number, c: GroupCandidate, demand: GroupDemand): boolean {
  ledger.confine(pool, c.hosts, c.perHost);
  const kept = ledger.proveMigrations(ledger.neighbours(c.hosts), demand.keepNeighbours);
  if (kept && (!demand.wholeDrain || ledger.groups.get(pool)!.wholeDrain)) return true;
  unconfine(ledger, pool, c.hosts);
  return false;
}

function unconfine(ledger: GroupLedger, pool: number, hosts: readonly number[]): void {
  ledger.release(pool);
  // Neighbours' recorded proofs were computed with this pool in place: recompute them without it.
  ledger.proveMigrations(ledger.neighbours(hosts));
}

/**
 * Deals a grouped pool's VMs to its hosts in turn: no host gets more than perHost (ceil(n / G)), as the spread
 * allows. A VM already running (`runningOn`) stays on its host, which the caller has checked is in the group
 * within perHost; the others fill the hosts with room, in turn.
 */
export function dealToGroup(group: ChosenGroup, members: readonly number[], hostOf: number[], runningOn?: (member: number) => number | undefined): void {
  const held = new Map<number, number>();
  const free = members.filter((k) => {
    const h = runningOn?.(k);
    if (h === undefined) return true;
    hostOf[k] = h;
    held.set(h, (held.get(h) ?? 0) + 1);
    return false;
  });
  if (held.size === 0) {
    members.forEach((k, i) => (hostOf[k] = group.hosts[i % group.hosts.length]));
    return;
  }
  let next = 0;
  for (const k of free) {
    for (let tried = 0; tried < group.hosts.length && (held.get(group.hosts[next % group.hosts.length]) ?? 0) >= group.perHost; tried++) next++;
    const h = group.hosts[next++ % group.hosts.length];
    hostOf[k] = h;
    held.set(h, (held.get(h) ?? 0) + 1);
  }
}

/** Whether every running VM of the pool (`runningOn`) is on a host of its group, and no host holds more than perHost. */
export function holdsRunning(group: ChosenGroup, members: readonly number[], runningOn: (member: number) => number | undefined): boolean {
  const inGroup = new Set(group.hosts);
  const held = new Map<number, number>();
  for (const k of members) {
    const h = runningOn(k);
    if (h === undefined) continue;
    held.set(h, (held.get(h) ?? 0) + 1);
    if (!inGroup.has(h) || held.get(h)! > group.perHost) return false;
  }
  return true;
}
