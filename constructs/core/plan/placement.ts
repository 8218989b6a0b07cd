/**
 * Planning, phase 5: placement. Every concrete VM of the list gets a host of its fleet, all at once
 * (vector bin packing over what kube-scheduler checks: cpu, memory, pods, devices, hugepages, disk, and
 * ephemeral storage where the hosts report it), so a plan that fits by sums but not by hosts is caught.
 */
import { IssueCollector, PlanIssue } from '../base/errors';
import { KubevirtSettings, launcherPod } from '../kubevirt/launcher';
import type { PlannedFleet } from './types';
import { Accounting } from './accounting';
import { placeOnHosts } from '../packing';
import { Quantity } from '../base/quantity';
import { fitsWithin, get, normalizeResources, ResourceVector, subtractResources, sumResources } from '../base/resources';
import { groupBy, HostGroup, pinRefusal, PlannedVm } from '../vm/vm';
import { chooseGroup, dealToGroup, GroupLedger, GroupPool, holdsRunning, keepPreviousGroups, labelChanges, stableHostOrder } from './groups';
import { dimensionsOf, fromDimension, VmItem, toDimensions } from './dimensions';
import { SpreadOverflow, SpreadProof } from './spread-proof';
import { amount, amounts } from '../base/units';
import { hostGroupLabel } from '../naming/derived';

export interface Placement {
  /** VM key (`namespace/name`) -> host. */
  readonly hostOf: ReadonlyMap<string, string>;
  /** Per fleet, per host: what is left. */
  readonly free: ReadonlyMap<string, readonly ResourceVector[]>;
  /** Spread pools the plan pins to its hosts (their VMs render a required node affinity), with why. */
  readonly pinnedPools: ReadonlyMap<string, string>;
  /** Spread pools and the host group each is confined to (the whole fleet: no `hosts`). */
  readonly groups: ReadonlyMap<string, HostGroup>;
}

export function vmKey(vm: Pick<PlannedVm, 'namespace' | 'name'>): string {
  return `${vm.namespace}/${vm.name}`;
}

/** A shape as messages name it; `down` for a bound (the largest that fits): rounded down, never above it. */
export function describeShape(v: ResourceVector, down = false): string {
  return amounts(v, undefined, ': ', down);
}

/** The biggest plain guest (whole vCPUs, memory in Mi) whose launcher pod still fits in what is free on one host. */
export function largestGuest(free: readonly ResourceVector[], settings: KubevirtSettings): ResourceVector | undefined {
  let best: ResourceVector | undefined;
  let bestScore = -1;
  for (const f of free) {
    let vcpus = Math.floor((Number(get(f, 'cpu').ceilMillis()) * settings.cpuAllocationRatio) / 1000);
    let guestMi = Number(get(f, 'memory').ceilUnits() >> 20n);
    const fits = (cpus: number, mi: number): boolean => {
      const pod = launcherPod(
        {
          sockets: 1,
          cores: cpus,
          threads: 1,
          guestMemory: Quantity.fromBytes(BigInt(mi) << 20n),
          dedicatedCpus: false,
          isolateEmulatorThread: false,
          graphics: true,
          devices: [],
          containerDisk: false,
        },
        settings,
      );
      return fitsWithin({ cpu: pod.requests.cpu, memory: pod.requests.memory }, f);
    };
    while (vcpus >= 1 && !fits(vcpus, 1)) vcpus--;
    if (vcpus < 1) continue;
    // The overhead grows with memory (page tables): step down from the free memory to the first that fits.
    let lo = 0;
    let hi = guestMi;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(vcpus, mid)) lo = mid;
      else hi = mid - 1;
    }
    guestMi = lo;
    if (guestMi < 1) continue;
    const guest = normalizeResources({ ...f, cpu: Quantity.fromUnits(vcpus), memory: Quantity.fromBytes(BigInt(guestMi) << 20n) });
    delete (guest as Record<string, Quantity>).pods;
    delete (guest as Record<string, Quantity>)['ephemeral-storage'];
    const score = vcpus * 1e6 + guestMi / 1024;
    if (score > bestScore) {
      best = guest;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Places VMs so that pinned nodes (placement: planned) keep their host when pools scale: they go first,
 * one by one in (pool, index) order, each to the host with the fewest nodes of its pool that has room,
 * so a node's host depends only on the nodes before it. The other VMs are then packed around them by the
 * placement engine. Only if that leaves VMs without a host is everything re-packed together.
 */
function placeStably(hostCaps: number[][], items: readonly VmItem[]): { hostOf: number[]; unplaced: number[] } {
  const free = hostCaps.map((c) => [...c]);
  const hostOf = items.map(() => -1);
  const perGroup = new Map<number, Int32Array>();
  // A VM already running stays on its host: kube-scheduler never moves a bound pod.
  // (One that no longer fits its host as the plan counts it is placed like a new one.)
  items.forEach((item, k) => {
    if (item.fixed === undefined || !item.size.every((v, d) => v <= free[item.fixed!][d])) return;
    hostOf[k] = item.fixed;
    item.size.forEach((v, d) => (free[item.fixed!][d] -= v));
  });
  items.forEach((item, k) => {
    if (!item.pinned || hostOf[k] >= 0) return;
    let counts = perGroup.get(item.group);
    if (!counts) {
      counts = new Int32Array(free.length);
      perGroup.set(item.group, counts);
    }
    let best = -1;
    let bestCount = Infinity;
    for (let h = 0; h < free.length && bestCount > 0; h++) {
      const f = free[h];
      let fits = true;
      for (let d = 0; d < item.size.length; d++) {
        if (!(item.size[d] <= f[d])) {
          fits = false;
          break;
        }
      }
      // The first host with the fewest nodes of the group wins; none can beat an empty one.
      if (fits && counts[h] < bestCount) {
        best = h;
        bestCount = counts[h];
      }
    }
    if (best < 0) return;
    hostOf[k] = best;
    item.size.forEach((v, d) => (free[best][d] -= v));
    counts[best] = bestCount + 1;
  });
  const rest = items.map((item, k) => ({ item, k })).filter(({ k }) => hostOf[k] < 0);
  const packed = placeOnHosts(
    free.map((capacity) => ({ capacity })),
    rest.map(({ item }) => ({ size: item.size, group: item.group })),
    { spreadGroups: true },
  );
  packed.hostOf.forEach((h, i) => (hostOf[rest[i].k] = h));
  const unplaced = hostOf.flatMap((h, k) => (h < 0 ? [k] : []));
  if (unplaced.length === 0) return { hostOf, unplaced };
  if (items.some((item) => item.fixed !== undefined)) return { hostOf, unplaced };
  const together = placeOnHosts(
    hostCaps.map((capacity) => ({ capacity })),
    items.map((item) => ({ size: item.size, group: item.group })),
    { spreadGroups: true },
  );
  return together.unplaced.length < unplaced.length ? together : { hostOf, unplaced };
}

function unplacedMessage(pool: readonly PlannedVm[], n: number, fleet: PlannedFleet, largest: ResourceVector | undefined): string {
  const vm = pool[0];
  const fix = vm.origin === 'elastic' ? 'use a smaller shape, fewer nodes, or add hosts' : 'choose a smaller type, fewer nodes, or add hosts';
  return (
    `${n} of ${pool.length} nodes of pool "${vm.pool}" (${describeShape(vm.shape)} each; the launcher pod requests ${amounts(vm.launcher.requests, ['cpu', 'memory'])}) cannot be placed on fleet "${fleet.name}": ` +
    'the quotas fit by sums, but the free capacity is split across hosts. ' +
    (largest ? `The largest node that still fits on one host is ${describeShape(largest, true)}; ` : 'No host has room for any node; ') +
    fix
  );
}

interface PlacedFleet {
  readonly hostOf: readonly number[];
  readonly unplaced: readonly number[];
  /** Spread pools the plan pins, with the overflow that made it. */
  readonly pinned: ReadonlyMap<string, SpreadOverflow>;
  /** Spread pools pinned because no host group proves them. */
  readonly ungrouped?: readonly string[];
  /** Spread pools and their groups (pool group index -> group), all hosts when not confined. */
  readonly groups: ReadonlyMap<string, HostGroup>;
  /** Set when the spread pools cannot be proven and none may be pinned. */
  readonly unproven?: { readonly pools: readonly string[]; readonly overflow: SpreadOverflow };
}

/** A fleet's VMs as placement sees them: items, pools by group index, and the pools' paths. */
interface FleetItems {
  readonly hostCaps: number[][];
  readonly base: readonly VmItem[];
  readonly pools: ReadonlyMap<number, GroupPool>;
  readonly pathOfGroup: readonly string[];
  /** Each pool's host group label (`hostGroupLabel`): its identity in the fleet, whichever input declared it. */
  readonly labelOfGroup: readonly string[];
  /** Each pool's own host order, once it is asked for (`ownOrder`). */
  readonly ownOrders: Map<number, readonly number[]>;
  /** Each pool's group at the last deploy (host indices ascending: the hosts carrying its label), if any. */
  readonly previousOfGroup: readonly (readonly number[] | undefined)[];
}

/** The host group label of a VM's pool (`hostGroupLabel`): the key its Nodes carry, and the pool's identity in a fleet. */
export function poolGroupLabel(vm: PlannedVm): string {
  return hostGroupLabel(vm.cluster, vm.pool, vm.origin === 'elastic' ? 'elastic' : 'auto');
}

function fleetItems(fleet: PlannedFleet, own: readonly PlannedVm[], dims: readonly string[]): FleetItems {
  const hostCaps = fleet.hosts.map((h) => toDimensions(h.allocatable, dims, false));
  const groups = new Map<string, number>();
  const labelOfGroup: string[] = [];
  const runningOn = new Map<string, number>();
  fleet.hosts.forEach((h, i) => h.running.forEach((_, key) => runningOn.set(key, i)));
  const base: VmItem[] = own.map((vm) => {
    if (!groups.has(vm.poolPath)) {
      groups.set(vm.poolPath, groups.size);
      labelOfGroup.push(poolGroupLabel(vm));
    }
    const fixed = runningOn.get(vmKey(vm));
    return {
      size: toDimensions(vm.hostDemand, dims, true),
      group: groups.get(vm.poolPath)!,
      pinned: vm.placement === 'planned',
      ...(fixed !== undefined ? { fixed } : {}),
    };
  });
  const pools = new Map<number, { n: number; size: readonly number[]; members: number[]; canPin: boolean; migrates: boolean }>();
  base.forEach((item, k) => {
    const vm = own[k];
    const pool = pools.get(item.group) ?? {
      n: 0,
      size: item.size,
      members: [],
      canPin: pinRefusal(vm) === undefined,
      migrates: vm.eviction.migratable && (vm.eviction.strategy === 'LiveMigrate' || vm.eviction.strategy === 'LiveMigrateIfPossible'),
    };
    pool.n++;
    pool.members.push(k);
    pools.set(item.group, pool);
  });
  const labelled = new Map<string, number[]>(labelOfGroup.map((label) => [label, []]));
  fleet.hosts.forEach((h, i) => h.hostGroups?.forEach((label) => labelled.get(label)?.push(i)));
  const previousOfGroup = labelOfGroup.map((label) => (labelled.get(label)!.length > 0 ? labelled.get(label) : undefined));
  return { hostCaps, base, pools, pathOfGroup: [...groups.keys()], labelOfGroup, ownOrders: new Map(), previousOfGroup };
}

/**
 * One fleet. First every spread pool over the whole fleet (the spread proof, and a migration target for
 * every pool that migrates); then host groups (groups.ts), pinning only pools no group proves; and
 * last, if groups leave VMs without a host, the whole-fleet spread with pools pinned until the proof holds.
 */
function placeFleet(fleet: PlannedFleet, own: readonly PlannedVm[], dims: readonly string[]): PlacedFleet {
  const items = fleetItems(fleet, own, dims);
  const whole = placeWholeFleet(fleet, items, dims, false);
  const proven = whole.pinned.size === 0 && !whole.unproven;
  const wholeDrained = wholeDrains(whole.groups, items);
  if (whole.unplaced.length > 0 || (proven && whole.migrating && wholeDrained === migratingPools(items))) return whole;
  // Migration room is kept wherever a grouping proves it, a whole drain's where it can be; where none does,
  // a proven spread still beats a pin.
  const grouped = groupFleet(fleet, items, true);
  if (grouped && !(proven && whole.migrating && wholeDrained >= wholeDrains(grouped.groups, items))) return grouped;
  if (proven) return whole;
  return groupFleet(fleet, items, false) ?? placeWholeFleet(fleet, items, dims, true);
}

/** How many spread pools of the fleet live-migrate. */
function migratingPools(items: FleetItems): number {
  return [...items.pools.values()].filter((p) => p.migrates).length;
}

/** How many migrating pools have a whole-drain proof in these groups. */
function wholeDrains(groups: ReadonlyMap<string, HostGroup>, items: FleetItems): number {
  const migrating = new Set([...items.pools].filter(([, p]) => p.migrates).map(([g]) => items.pathOfGroup[g]));
  return [...groups].filter(([path, group]) => migrating.has(path) && group.wholeDrain).length;
}

/** The whole fleet as each spread pool's group, in placement's names and with its migration targets. */
function wholeFleetGroups(
  fleet: PlannedFleet,
  items: FleetItems,
  hostOf: readonly number[],
  spread: readonly number[],
): { groups: Map<string, HostGroup>; migrating: boolean } {
  const ledger = new GroupLedger(items.hostCaps, items.pools, false);
  const all = fleet.hosts.map((_, h) => h);
  const isSpread = new Set(spread);
  items.base.forEach((item, k) => {
    if (!isSpread.has(item.group) && hostOf[k] >= 0) ledger.addFixed(hostOf[k], item.size);
  });
  for (const g of spread) ledger.confine(g, all, Math.ceil(items.pools.get(g)!.n / all.length));
  ledger.proveMigrations(spread);
  const migrating = spread.every((g) => !items.pools.get(g)!.migrates || ledger.groups.get(g)!.migrationTargets > 0);
  const groups = new Map<string, HostGroup>();
  for (const g of spread) {
    const { perHost, migrationTargets, wholeDrain } = ledger.groups.get(g)!;
    groups.set(items.pathOfGroup[g], { size: all.length, perHost, migrationTargets, wholeDrain });
  }
  return { groups, migrating };
}

/**
 * Every spread pool over the whole fleet: a packing that proves the VMs fit, then the spread proof. With
 * `pin`, while the proof fails, spread pools are pinned to their packed hosts, those whose even spread holds
 * the most room they may never use first (ceil(n/H)*H - n VMs, weighted by the VM's largest share of a
 * host), until the proof would hold; the fleet is then placed again with them pinned stably (like placement:
 * planned) and checked again. Pools that ask for live migration are never pinned. Pinning every pool always
 * passes the proof, so this ends.
 */
function placeWholeFleet(fleet: PlannedFleet, fleetItems: FleetItems, dims: readonly string[], pin: boolean): PlacedFleet & { migrating: boolean } {
  const { hostCaps, base, pools, pathOfGroup } = fleetItems;
  const mean = dims.map((_, d) => Math.max(1, hostCaps.reduce((t, c) => t + c[d], 0) / Math.max(1, hostCaps.length)));
  const waste = (group: number): number => {
    const { n, size } = pools.get(group)!;
    return (Math.ceil(n / hostCaps.length) * hostCaps.length - n + 1) * Math.max(...size.map((v, d) => v / mean[d]));
  };
  const pinned = new Map<string, SpreadOverflow>();
  for (;;) {
    const items = base.map((item) => ({ ...item, pinned: item.pinned || pinned.has(pathOfGroup[item.group]) }));
    const result = placeStably(hostCaps, items);
    const spread = [...pools.keys()].filter((g) => !items[pools.get(g)!.members[0]].pinned);
    const done = (unproven?: PlacedFleet['unproven']): PlacedFleet & { migrating: boolean } => {
      const { groups, migrating } =
        result.unplaced.length > 0 || unproven ? { groups: new Map(), migrating: false } : wholeFleetGroups(fleet, fleetItems, result.hostOf, spread);
      return { ...result, pinned, groups, migrating, ...(unproven ? { unproven } : {}) };
    };
    if (result.unplaced.length > 0) return done();
    const proof = new SpreadProof(hostCaps, items, result.hostOf, pools);
    const over = proof.overflow();
    if (!over) return done();
    const overflow: SpreadOverflow = {
      host: fleet.hosts[over.host].name,
      resource: dims[over.dim],
      worstCase: fromDimension(dims[over.dim], over.worst),
      allocatable: get(fleet.hosts[over.host].allocatable, dims[over.dim]),
    };
    const candidates = pin ? spread.filter((g) => pools.get(g)!.canPin).sort((a, b) => waste(b) - waste(a) || a - b) : [];
    if (candidates.length === 0) return done({ pools: spread.map((g) => pathOfGroup[g]), overflow });
    for (const group of candidates) {
      pinned.set(pathOfGroup[group], overflow);
      proof.pin(group);
      if (!proof.overflow()) break;
    }
  }
}

/** A pool's own order of the fleet's hosts (groups.ts `stableHostOrder`), hashed once per plan of the fleet. */
function ownOrder(fleet: PlannedFleet, items: FleetItems, group: number): readonly number[] {
  const order =
    items.ownOrders.get(group) ??
    stableHostOrder(
      items.labelOfGroup[group],
      fleet.hosts.map((h) => h.name),
    );
  items.ownOrders.set(group, order);
  return order;
}

/**
 * Host groups, each pool's from its own host order first (groups.ts: scaling one pool moves no other pool's
 * group while their hosts fit), and with the last deploy's groups (HostSpec `hostGroups`) also each pool kept in
 * its own where that proves; packed, fullest hosts first, only when that proves more. Between two groupings:
 * fewer pools without a group, then more migrating pools with a whole drain, then fewer Node labels changed.
 * Stability gives way to a proof, never the reverse.
 */
function groupFleet(fleet: PlannedFleet, items: FleetItems, requireMigration: boolean): PlacedFleet | undefined {
  const ungrouped = (p: PlacedFleet) => (p.ungrouped ?? []).length;
  const before = items.previousOfGroup.map((hosts) => hosts?.map((h) => fleet.hosts[h].name));
  // How many Node labels a placement changes from the last deploy's groups (groups.ts `labelChanges`).
  const relabelled = (p: PlacedFleet) => labelChanges(items.pathOfGroup.map((path, g) => ({ before: before[g], now: p.groups.get(path)?.hosts })));
  const better = (a: PlacedFleet | undefined, b: PlacedFleet | undefined): PlacedFleet | undefined => {
    if (!a || !b) return a ?? b;
    const order = ungrouped(b) - ungrouped(a) || wholeDrains(a.groups, items) - wholeDrains(b.groups, items) || relabelled(b) - relabelled(a);
    return order < 0 ? b : a;
  };
  let best = placeInGroups(fleet, items, requireMigration, 'stable');
  if (items.previousOfGroup.some((p) => p !== undefined)) best = better(best, placeInGroups(fleet, items, requireMigration, 'kept'));
  if (best && ungrouped(best) === 0 && wholeDrains(best.groups, items) === migratingPools(items) && relabelled(best) === 0) return best;
  return better(best, placeInGroups(fleet, items, requireMigration, 'packed'));
}

/** How placeInGroups searches: own host orders; the same after the last deploy's groups (`keepPreviousGroups`); packed. */
type GroupSearch = 'stable' | 'kept' | 'packed';

/**
 * Host groups: VMs pinned by their pools first (as placeStably places them), then each spread pool, largest
 * VMs first, confined to the first group that keeps every host's worst case in its allocatable and every
 * migrating pool a migration target (groups.ts; but for `packed`, in the pool's own host order); pools no group
 * proves are pinned into the room the groups leave. Undefined when that does not place every VM, when a pool
 * no group proves asks for live migration, or when spread VMs already run outside a group the last deploy gave.
 */
function placeInGroups(fleet: PlannedFleet, fleetItems: FleetItems, requireMigration: boolean, search: GroupSearch): PlacedFleet | undefined {
  const stable = search !== 'packed';
  const { hostCaps, base, pools, pathOfGroup } = fleetItems;
  const spread = [...pools.keys()].filter((g) => !base[pools.get(g)!.members[0]].pinned);
  // Spread VMs already running may lie outside any group: only their pool's kept group (where they run) holds them.
  const runningOn = (k: number) => base[k].fixed;
  const running = new Set(spread.filter((g) => pools.get(g)!.members.some((k) => runningOn(k) !== undefined)));
  if (running.size > 0 && search !== 'kept') return undefined;
  const hostOf = base.map(() => -1);
  const ledger = new GroupLedger(hostCaps, pools, requireMigration);
  if (
    !pinInto(
      hostCaps,
      base,
      base.flatMap((item, k) => (item.pinned ? [k] : [])),
      hostOf,
      ledger,
    )
  )
    return undefined;
  const mean = hostCaps[0].map((_, d) => Math.max(1, hostCaps.reduce((t, c) => t + c[d], 0) / hostCaps.length));
  const share = (g: number): number => Math.max(...pools.get(g)!.size.map((v, d) => v / mean[d]));
  const order = [...spread].sort((a, b) => share(b) - share(a) || a - b);
  const kept = search === 'kept' ? keepPreviousGroups(ledger, order, (g) => fleetItems.previousOfGroup[g], running) : new Set<number>();
  if ([...running].some((g) => !kept.has(g) || !holdsRunning(ledger.groups.get(g)!, pools.get(g)!.members, runningOn))) return undefined;
  const ungrouped = order.filter(
    (g) => !kept.has(g) && !chooseGroup(ledger, g, stable ? ownOrder(fleet, fleetItems, g) : undefined, fleetItems.previousOfGroup[g]),
  );
  // With migration room required, a pool no group takes is left to the search without it, never pinned.
  if (ungrouped.some((g) => requireMigration || !pools.get(g)!.canPin)) return undefined;
  const room = hostCaps.map((c, h) => c.map((v, d) => Math.max(0, v - ledger.load[h][d])));
  if (
    !pinInto(
      room,
      base,
      ungrouped.flatMap((g) => pools.get(g)!.members),
      hostOf,
      ledger,
    )
  )
    return undefined;
  if (!ledger.proveMigrations(ledger.groups.keys())) return undefined;
  const groups = new Map<string, HostGroup>();
  for (const [g, chosen] of ledger.groups) {
    // In the pool's own order, a pool grown by one whose group took one more host keeps every VM's planned host
    // (one VM per host): `plan --previous` shows the node added, not its pool's VMs moved.
    const inGroup = new Set(chosen.hosts);
    const dealt = stable ? ownOrder(fleet, fleetItems, g).filter((h) => inGroup.has(h)) : chosen.hosts;
    dealToGroup({ ...chosen, hosts: dealt }, pools.get(g)!.members, hostOf, runningOn);
    const whole = chosen.hosts.length === fleet.hosts.length;
    groups.set(pathOfGroup[g], {
      ...(whole ? {} : { hosts: chosen.hosts.map((h) => fleet.hosts[h].name) }),
      size: chosen.hosts.length,
      perHost: chosen.perHost,
      migrationTargets: chosen.migrationTargets,
      wholeDrain: chosen.wholeDrain,
    });
  }
  return { hostOf, unplaced: [], pinned: new Map(), ungrouped: ungrouped.map((g) => pathOfGroup[g]), groups };
}

/** Pins VMs one by one into `room` (as placeStably does) and charges them to the ledger; false if any is left over. */
function pinInto(room: number[][], base: readonly VmItem[], members: readonly number[], hostOf: number[], ledger: GroupLedger): boolean {
  if (members.length === 0) return true;
  const placed = placeStably(
    room,
    members.map((k) => ({ ...base[k], pinned: true })),
  );
  if (placed.unplaced.length > 0) return false;
  members.forEach((k, i) => {
    hostOf[k] = placed.hostOf[i];
    ledger.addFixed(hostOf[k], base[k].size);
  });
  return true;
}

/** A dimension's integer value back as a quantity (millicores for cpu, units otherwise), formatted as the report formats it. */
function spreadPinMessage(fleet: PlannedFleet, pools: readonly PlannedVm[][], o: SpreadOverflow): string {
  const names = pools.map((p) => `"${p[0].pool}" (${p.length})`);
  const shown = names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ');
  return (
    `${pools.length === 1 ? 'pool' : `${pools.length} pools`} ${shown} pinned to planned hosts: spread over the ${fleet.hosts.length} hosts of fleet "${fleet.name}", ` +
    `kube-scheduler could put up to ceil(count / ${fleet.hosts.length}) VMs of every pool on one host, and host "${o.host}" could then be asked for ${amount(o.resource, o.worstCase)} of ${o.resource} with ${amount(o.resource, o.allocatable)} allocatable. ` +
    'Pinned VMs cannot live-migrate (a drain shuts them down until their host is back); to keep a pool spread, make its count a multiple of the host count, use fewer larger pools, or add hosts'
  );
}

function poolList(pools: readonly PlannedVm[][]): string {
  const names = pools.map((p) => `"${p[0].pool}" (${p.length})`);
  return names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ');
}

function ungroupedPinMessage(fleet: PlannedFleet, pools: readonly PlannedVm[][]): string {
  return (
    `${pools.length === 1 ? 'pool' : `${pools.length} pools`} ${poolList(pools)} pinned to planned hosts: no group of the ${fleet.hosts.length} hosts of fleet "${fleet.name}" ` +
    'keeps the worst case kube-scheduler could put on every host within its allocatable. ' +
    'Pinned VMs cannot live-migrate (a drain shuts them down until their host is back); to keep a pool migrating, use fewer larger pools or smaller shapes, or add hosts'
  );
}

/**
 * Spread pools whose VMs migrate but whose group proves no migration target (a drain may leave them pending),
 * or a target for the first VM off a drained host but not room for all of them.
 */
function unprovenMigrationWarnings(groups: ReadonlyMap<string, HostGroup>, byPool: ReadonlyMap<string, PlannedVm[]>): PlanIssue[] {
  const out: PlanIssue[] = [];
  for (const [poolPath, group] of groups) {
    const vm = byPool.get(poolPath)?.[0];
    if (!vm || group.wholeDrain || !vm.eviction.migratable || vm.eviction.strategy === 'None' || vm.eviction.strategy === 'External') continue;
    out.push({
      path: vm.countPath,
      message:
        group.migrationTargets > 0
          ? `pool "${vm.pool}": a drained host's first VM has a migration target in its group of ${group.size}, but not every VM of the host is certain to (the worst case kube-scheduler could leave on the other hosts, with the drained host's VMs spread over them, does not fit), so a drain may leave some migrations pending until room frees; lower the count, use a smaller shape, or add hosts`
          : `pool "${vm.pool}": no host of its group of ${group.size} is certain to have room for one of its VMs after a drain (the worst case kube-scheduler could leave there plus one VM does not fit), so a drain may leave its migrations pending; lower the count, use a smaller shape, or add hosts`,
    });
  }
  return out;
}

/** Phase 5: a host for every concrete VM, fleet by fleet; pools over their quota are left out. */
// Over 60 lines: the placement phase's steps in order; kept compact for the 10k-VM work on this file.
export function placeVms(
  fleets: ReadonlyMap<string, PlannedFleet>,
  vms: readonly PlannedVm[],
  accounting: Accounting,
  issues: IssueCollector,
  warnings: PlanIssue[],
): Placement {
  const hostOf = new Map<string, string>();
  const freeByFleet = new Map<string, ResourceVector[]>();
  const pinnedPools = new Map<string, string>();
  const groups = new Map<string, HostGroup>();
  for (const fleet of fleets.values()) {
    if (fleet.hosts.length === 0) continue;
    const own = vms.filter((vm) => vm.concrete && vm.fleet === fleet.name && !accounting.overQuota.has(vm.poolPath));
    const dims = dimensionsOf(fleet, own);
    const result = placeFleet(fleet, own, dims);
    const onHost: ResourceVector[][] = fleet.hosts.map(() => []);
    result.hostOf.forEach((h, k) => {
      if (h < 0) return;
      hostOf.set(vmKey(own[k]), fleet.hosts[h].name);
      onHost[h].push(own[k].hostDemand);
    });
    const used = onHost.map((demands) => sumResources(demands));
    const free = fleet.hosts.map((host, h) => normalizeResources(subtractResources(host.allocatable, used[h])));
    freeByFleet.set(fleet.name, free);
    const byPool = groupBy(own, (vm) => vm.poolPath);
    const unplaced = new Map<string, number>();
    for (const k of result.unplaced) unplaced.set(own[k].poolPath, (unplaced.get(own[k].poolPath) ?? 0) + 1);
    if (unplaced.size > 0) {
      const largest = largestGuest(free, fleet.kubevirt.settings);
      for (const [poolPath, n] of unplaced) {
        const pool = byPool.get(poolPath)!;
        issues.add(pool[0].countPath, unplacedMessage(pool, n, fleet, largest));
      }
    }
    result.groups.forEach((group, poolPath) => groups.set(poolPath, group));
    if (result.ungrouped && result.ungrouped.length > 0) {
      for (const poolPath of result.ungrouped) pinnedPools.set(poolPath, 'no group of hosts proves its spread and migration room');
      warnings.push({
        path: fleet.path,
        message: ungroupedPinMessage(
          fleet,
          result.ungrouped.map((p) => byPool.get(p)!),
        ),
      });
    }
    warnings.push(...unprovenMigrationWarnings(result.groups, byPool));
    if (result.pinned.size > 0) {
      for (const [poolPath, overflow] of result.pinned) pinnedPools.set(poolPath, `kube-scheduler's spreading could overfill host ${overflow.host}`);
      const first = [...result.pinned.values()][0];
      warnings.push({
        path: fleet.path,
        message: spreadPinMessage(
          fleet,
          [...result.pinned.keys()].map((p) => byPool.get(p)!),
          first,
        ),
      });
    }
    if (result.unproven) {
      const o = result.unproven.overflow;
      const pools = result.unproven.pools.map((p) => byPool.get(p)![0]);
      const why = [...new Set(pools.map((vm) => pinRefusal(vm)).filter((r) => r !== undefined))].join(', and ');
      issues.add(
        pools[0].countPath,
        `kube-scheduler could leave VMs of fleet "${fleet.name}" pending: spreading pools ${pools.map((vm) => `"${vm.pool}"`).join(', ')} evenly over ${fleet.hosts.length} hosts could ask host "${o.host}" for ${amount(o.resource, o.worstCase)} of ${o.resource} with ${amount(o.resource, o.allocatable)} allocatable, ` +
          `and ${why}, so they cannot be pinned: set placement: planned with evictionStrategy None or External, or make counts multiples of the host count, or add hosts`,
      );
    }
    checkMigrationTargets(fleet, free, own, dims, accounting, hostOf, warnings);
  }
  return { hostOf, free: freeByFleet, pinnedPools, groups };
}

/** A live migration needs a host, other than the VM's own, with room for a second launcher pod. */
function checkMigrationTargets(
  fleet: PlannedFleet,
  free: readonly ResourceVector[],
  vms: readonly PlannedVm[],
  dims: readonly string[],
  accounting: Accounting,
  hostOf: ReadonlyMap<string, string>,
  warnings: PlanIssue[],
): void {
  for (const account of accounting.quotas.values()) {
    const vm = account.largestMigratable;
    if (!vm || vm.fleet !== fleet.name || account.quota.liveMigrations === 0 || !vms.includes(vm)) continue;
    const home = hostOf.get(vmKey(vm));
    const demand = Object.fromEntries(dims.map((d) => [d, get(vm.hostDemand, d)]));
    const target = fleet.hosts.findIndex((h, i) => h.name !== home && fitsWithin(demand, free[i]));
    if (target < 0) {
      warnings.push({
        path: `${account.quota.path}.liveMigrations`,
        message: `no host of fleet "${fleet.name}" has room for a second launcher pod of ${vm.name} (${amounts(vm.launcher.requests, ['cpu', 'memory'])}): draining its host cannot live-migrate it; add a host or leave room`,
      });
    }
  }
}
