/**
 * The one proof of a roll: whether a pool's roll fits its quota and its surge hosts at its peak, the largest roll
 * that does, and the words for both. The plan proves each roll at rest (`transition.ts`: every VM at its new
 * shape); `plan --previous` proves it again as the running fleet meets it (`running-roll.ts`: the nodes not yet
 * replaced still at their old size). Each builds a `RollRoom` and asks this file; neither weighs a quota or a
 * host on its own, so the two proofs agree wherever the running fleet is the plan at rest.
 *
 * A roll (cli/roll.ts) makes `maxSurge` surge VMs, then replaces old nodes `maxSurge + maxUnavailable` at a time.
 * Its peak is what the quota holds when it first creates: every surge VM beside the fleet, or with no surge, the
 * first nodes out of service started again on the new revision.
 */
import {
  addResources,
  get,
  isExtendedResource,
  normalizeResources,
  pickResources,
  type ResourceVector,
  scaleResources,
  subtractResources,
} from '../../base/resources';
import { amounts } from '../../base/units';
import { QuotaLedger, type QuotaLimits } from '../../quota/ledger';

/** A host a surge VM lands on: what it holds beside the surge, and what it has. */
export interface SurgeHost {
  readonly name: string;
  readonly holds: ResourceVector;
  readonly allocatable: ResourceVector;
}

/** Everything a roll is proven against: one pool's quota, and the hosts its surge VMs land on. */
export interface RollRoom {
  /** The pool as a refusal names it (`pool "web"`, `static pool "db"`): quota/ledger.ts `poolSubject`. */
  readonly subject: string;
  /** The quota the pool's VMs count against: its name, where it was written, its limits. @default - none: only hosts are weighed */
  readonly quota?: QuotaLimits;
  /** What the quota holds beside the surge: its VMs and migration room (and, while a roll runs, its old nodes' excess). */
  readonly holds: ResourceVector;
  /** What one surge VM takes from the quota. */
  readonly each: ResourceVector;
  /** VMs the quota may still hold (`maxVirtualMachines` less its VMs). @default - no count limit */
  readonly vmsLeft?: number;
  /** How many of the pool's nodes are replaced. */
  readonly replaced: number;
  /** Nodes out of service at once, as asked. */
  readonly maxUnavailable: number;
  /**
   * With no surge, what each of the first nodes out of service gives back to the quota when it starts again on
   * the new revision (an old node's excess over its replacement). @default - nothing (the fleet at rest)
   */
  readonly restartGives?: ResourceVector;
  /** The hosts the surge VMs take, in order (fewer than asked: the rest have no host). */
  readonly surgeHosts: readonly SurgeHost[];
  /** What one surge VM takes from its host. */
  readonly footprint: ResourceVector;
  /** Why the hosts hold no more surge VMs, when there are fewer than asked (`the hosts of its group have room for 1`). */
  readonly hostsShort?: string;
  /** The fix of a roll its surge hosts cannot hold (a pool of whole hosts: free a matching host). @default MAKE_ROOM_ON_HOSTS */
  readonly makeRoomOnHosts?: string;
  /** What the figures count beyond the plan at rest, said after an overflow (`the nodes not yet replaced still at their old size`). */
  readonly counting?: string;
}

/** A roll's two settings. */
export interface RollSettings {
  readonly maxSurge: number;
  readonly maxUnavailable: number;
}

/** The resources the quota limits: the peak is said, and checked, in those (without a quota, what it holds). */
function limited(room: RollRoom): string[] {
  return Object.keys(room.quota?.limits ?? room.holds);
}

/** The settings of a roll with `surge` surge VMs: with none, at least one node out of service. */
export function rollWith(surge: number, maxUnavailable: number): RollSettings {
  return { maxSurge: surge, maxUnavailable: surge > 0 ? maxUnavailable : Math.max(1, maxUnavailable) };
}

/** `{maxSurge: 1}`, `{maxSurge: 0, maxUnavailable: 1}`: a roll as the pool's `rollout` writes it. */
export function rolloutText(r: RollSettings): string {
  return r.maxSurge > 0 ? `{maxSurge: ${r.maxSurge}}` : `{maxSurge: 0, maxUnavailable: ${r.maxUnavailable}}`;
}

/** What the quota holds beside the surge VMs when a roll of `surge` first creates. */
function holdsAt(room: RollRoom, surge: number): ResourceVector {
  if (surge > 0 || room.restartGives === undefined) return room.holds;
  // With no surge, the first nodes out of service start again on the new revision before any other goes.
  const first = Math.min(room.replaced, Math.max(1, room.maxUnavailable));
  return subtractResources(room.holds, scaleResources(room.restartGives, first));
}

/** What the quota holds at the peak of a roll with `surge` surge VMs, in the resources it limits. */
export function rollPeak(room: RollRoom, surge: number): ResourceVector {
  return pickResources(normalizeResources(addResources(holdsAt(room, surge), scaleResources(room.each, surge))), limited(room));
}

/**
 * Whether `demand` fits a host's `allocatable`: every resource the host has, and every extended resource (a GPU)
 * the demand asks for, which a host without it has none of. What a host does not list (pods, ephemeral storage) is
 * not counted, as placement does not.
 */
function overOnHost(demand: ResourceVector, allocatable: ResourceVector): string[] {
  const names = new Set([...Object.keys(allocatable), ...Object.keys(demand).filter((r) => isExtendedResource(r) && !get(demand, r).isZero())]);
  return [...names].filter((r) => get(demand, r).cmp(get(allocatable, r)) > 0);
}

/** Whether one surge VM of `footprint` fits beside what a host holds. */
export function fitsOnHost(footprint: ResourceVector, holds: ResourceVector, allocatable: ResourceVector): boolean {
  return overOnHost(addResources(holds, footprint), allocatable).length === 0;
}

/** The fix of a roll its surge hosts cannot hold. */
export const MAKE_ROOM_ON_HOSTS = 'make room on its hosts';

/** Why the hosts do not take `surge` surge VMs, or undefined. */
function hostBlocker(room: RollRoom, surge: number): RollBlocker | undefined {
  const why = hostShortfall(room, surge);
  return why !== undefined ? { why, makeRoom: room.makeRoomOnHosts ?? MAKE_ROOM_ON_HOSTS } : undefined;
}

/** What the first `surge` surge hosts cannot hold (or that there are not that many), in words; undefined when they hold it. */
function hostShortfall(room: RollRoom, surge: number): string | undefined {
  if (surge > room.surgeHosts.length) return room.hostsShort ?? `the hosts have room for ${room.surgeHosts.length} surge VM(s) of ${room.subject}`;
  const count = new Map<string, { host: SurgeHost; n: number }>();
  for (const h of room.surgeHosts.slice(0, surge)) count.set(h.name, { host: h, n: (count.get(h.name)?.n ?? 0) + 1 });
  for (const { host, n } of count.values()) {
    const demand = addResources(host.holds, scaleResources(room.footprint, n));
    const over = overOnHost(demand, host.allocatable);
    if (over.length > 0) return `host ${host.name} would hold ${amounts(demand, over)} of ${amounts(host.allocatable, over)} with ${n} surge VM(s)`;
  }
  return undefined;
}

/** Why a roll does not fit, and what makes room for it. */
export interface RollBlocker {
  /** What overflows, and by how much. */
  readonly why: string;
  /** The fix besides a smaller roll: the quota's raise (QuotaLedger.raise), its VM count, or room on the hosts. */
  readonly makeRoom: string;
}

/** Why the quota does not take `surge` surge VMs, in the quota ledger's one wording, or undefined. */
function quotaBlocker(room: RollRoom, surge: number): RollBlocker | undefined {
  if (room.quota === undefined) return undefined;
  if (room.vmsLeft !== undefined && surge > room.vmsLeft)
    return {
      why: `quota "${room.quota.name}" holds ${Math.max(0, room.vmsLeft)} more VM(s) (maxVirtualMachines)`,
      makeRoom: room.quota.path !== undefined ? `raise ${room.quota.path}.maxVirtualMachines` : `raise the maxVirtualMachines of quota "${room.quota.name}"`,
    };
  const ledger = new QuotaLedger(room.quota, holdsAt(room, surge));
  const overflow = ledger.overflow();
  const why =
    ledger.shortfall({ subject: `the surge of ${room.subject}`, count: surge, each: room.each, field: 'rollout.maxSurge' }) ??
    (overflow !== undefined ? `${overflow} at the roll's peak` : undefined);
  return why !== undefined ? { why, makeRoom: ledger.raise() } : undefined;
}

/** Why a roll with `surge` surge VMs does not fit (its quota first, then its hosts), or undefined when it does. */
export function rollBlocker(room: RollRoom, surge: number): RollBlocker | undefined {
  const blocker = quotaBlocker(room, surge) ?? hostBlocker(room, surge);
  return blocker !== undefined && room.counting !== undefined ? { ...blocker, why: `${blocker.why}, ${room.counting}` } : blocker;
}

/** The roll that fits: the asked one, or the largest surge below it that fits, or undefined when none does. */
export function largestRoll(room: RollRoom, asked: RollSettings): RollSettings | undefined {
  for (let surge = asked.maxSurge; surge >= 0; surge--) if (rollBlocker(room, surge) === undefined) return rollWith(surge, asked.maxUnavailable);
  return undefined;
}

/** `a roll of pool "web" (6 node(s)) with {maxSurge: 2} does not fit: <why>`: the one sentence of a roll refused. */
export function rollDoesNotFit(subject: string, replaced: number, asked: RollSettings, why: string): string {
  return `a roll of ${subject} (${replaced} node(s)) with ${rolloutText(asked)} does not fit: ${why}`;
}

/** Why a pool's surge hosts hold fewer surge VMs than asked, as the plan at rest chose them. */
export function hostsShort(pinned: boolean, found: number): string {
  return `the hosts ${pinned ? 'its VMs are pinned to have' : 'of its group have'} room for ${found} surge VM(s) beside the placed VMs`;
}

/** The warning's tail when the default surge does not fit and the pool rolls with the roll that does. */
export function rollFallback(fits: RollSettings, makeRoom: string): string {
  return `it rolls with ${rolloutText(fits)} instead: set rollout to say so, or ${makeRoom} to keep the pool's capacity during a roll`;
}

/** The fix of a roll that does not fit: the roll that does, or making room first. */
export function rollFix(makeRoom: string, fits: RollSettings | undefined): string {
  return fits !== undefined ? `set rollout to ${rolloutText(fits)}, or ${makeRoom}` : `no roll fits: ${makeRoom} before this change, or make it in two steps`;
}
