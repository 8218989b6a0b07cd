/**
 * The roll as the running fleet meets it: `plan --previous` (and synth's report against the last synth's plan)
 * proves each replaced pool's roll again, with the nodes not yet replaced still at their old size. The new plan
 * proves each roll against the fleet at rest in the new shapes (transition.ts). While a pool rolls, every node of
 * it not yet replaced still runs at its old size on its old host, and so, counted here whatever the order pools
 * roll in (a bound, not the exact figure), do the replaced nodes of the quota's other pools; a migration still
 * needs room for the largest old VM. Where those are larger (a shrinking reshape), the quota and the surge hosts
 * hold more than the new plan alone says. The quota is charged what each VM takes from it (`rollout.each`), a
 * host what it takes from the host (`footprint`). Both proofs are roll-proof.ts's: this file only says what the
 * running fleet holds.
 */
import type { PlanIssue } from '../../base/errors';
import { Quantity } from '../../base/quantity';
import { addResources, formatResources, get, normalizeResources, pickResources, ResourceVector, scaleResources, subtractResources } from '../../base/resources';
import { poolSubject, QuotaLedger } from '../../quota/ledger';
import type { PlanReport } from '../types';
import { freeMatchingHost } from './host-rollout';
import { largestRoll, MAKE_ROOM_ON_HOSTS, RollRoom, rollBlocker, rollDoesNotFit, rollFix, rollPeak, SurgeHost } from './roll-proof';

type Pools = PlanReport['pools'];

/** A pool's roll against the running fleet, as `changes.pools[].roll` writes it. */
export interface RunningRoll {
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly surgeHosts: readonly string[];
  readonly peak: Record<string, string>;
  /** Why the roll does not fit, with the nodes not yet replaced at their old size. */
  readonly problem?: string;
  /** The largest roll that fits; absent when none does (or nothing was refused). */
  readonly fits?: { readonly maxSurge: number; readonly maxUnavailable: number };
}

export function vectorOf(r: Readonly<Record<string, string>> | undefined): ResourceVector {
  return Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, Quantity.parse(v)]));
}

/** How much bigger `old` is than `now`, in the resources where it is bigger: an old node's excess over its replacement. */
function larger(old: ResourceVector, now: ResourceVector): ResourceVector {
  return Object.fromEntries(
    Object.keys(old)
      .filter((r) => get(old, r).cmp(get(now, r)) > 0)
      .map((r) => [r, get(old, r).sub(get(now, r))]),
  );
}

/** What the old nodes of the replaced pools take beyond their replacements, from each quota and each host. */
interface RunningExcess {
  /** Per pool: what one old node takes from its quota beyond a new one (while the pool stays in that quota). */
  readonly quotaExcess: Map<string, ResourceVector>;
  /** Per quota: all its old nodes' excess, and the old, larger migration room's. */
  readonly quotaExtra: Map<string, ResourceVector>;
  /** Per `fleet/host`: what its old nodes take beyond what the new plan counts there. */
  readonly hostExtra: Map<string, ResourceVector>;
}

function runningExcess(before: PlanReport, after: PlanReport, replacedOf: ReadonlyMap<string, readonly string[]>): RunningExcess {
  const poolBefore = new Map((before.pools ?? []).map((p) => [p.name, p]));
  const quotaExcess = new Map<string, ResourceVector>();
  const quotaExtra = new Map<string, ResourceVector>();
  const hostExtra = new Map<string, ResourceVector>();
  const add = (m: Map<string, ResourceVector>, key: string, v: ResourceVector) => m.set(key, addResources(m.get(key) ?? {}, v));
  for (const n of after.pools) {
    const b = poolBefore.get(n.name);
    const nodes = replacedOf.get(n.name) ?? [];
    if (!b || nodes.length === 0) continue;
    if (n.quota !== undefined && b.quota === n.quota) {
      const excess = larger(vectorOf(b.rollout?.each ?? b.footprint), vectorOf(n.rollout?.each ?? n.footprint));
      quotaExcess.set(n.name, excess);
      add(quotaExtra, n.quota, scaleResources(excess, nodes.length));
    }
    // Hosts are named within their fleet; a pool without one (private nodes) takes whole machines, not room.
    if (b.fleet === undefined || b.fleet !== n.fleet) continue;
    const hostExcess = larger(vectorOf(b.footprint), vectorOf(n.footprint));
    for (const node of nodes) {
      const [from, to] = [b.nodes.find((x) => x.name === node)?.host, n.nodes.find((x) => x.name === node)?.host];
      // On the host it stays on, only its excess over the new node the plan counted; on a host it leaves, all of it.
      if (from) add(hostExtra, `${b.fleet}/${from}`, from === to ? hostExcess : vectorOf(b.footprint));
    }
  }
  // A live migration still needs room for the largest old VM until every node is replaced.
  for (const q of after.quotas) {
    const old = (before.quotas ?? []).find((x) => x.name === q.name);
    if (old && quotaExtra.has(q.name)) add(quotaExtra, q.name, larger(vectorOf(old.migrationHeadroom), vectorOf(q.migrationHeadroom)));
  }
  return { quotaExcess, quotaExtra, hostExtra };
}

/** One replaced pool's roll room: the new plan's peak less its surge, plus what the old nodes still hold. */
function runningRoom(p: Pools[number], quota: PlanReport['quotas'][number] | undefined, replaced: number, after: PlanReport, running: RunningExcess): RollRoom {
  const r = p.rollout!;
  const limits = quota ? vectorOf(quota.limits) : undefined;
  const limited = Object.keys(limits ?? r.peak);
  const each = pickResources(vectorOf(r.each ?? p.footprint), limited);
  const atRest = subtractResources(pickResources(vectorOf(r.peak), limited), scaleResources(each, r.maxSurge));
  const fleet = after.fleets.find((f) => f.name === p.fleet);
  const surgeHosts = r.surgeHosts.map((name): SurgeHost => {
    const h = fleet?.hostUsage?.find((x) => x.name === name);
    // A host the report does not describe (an older plan) is not weighed: only what it is known to hold counts.
    return h
      ? { name, holds: addResources(vectorOf(h.used), running.hostExtra.get(`${p.fleet}/${name}`) ?? {}), allocatable: vectorOf(h.allocatable) }
      : { name, holds: {}, allocatable: {} };
  });
  return {
    subject: subjectOf(p, p.name),
    ...(quota && limits ? { quota: { name: quota.name, limits } } : {}),
    holds: addResources(atRest, pickResources(running.quotaExtra.get(p.quota ?? '') ?? {}, limited)),
    each,
    replaced,
    maxUnavailable: r.maxUnavailable,
    restartGives: pickResources(running.quotaExcess.get(p.name) ?? {}, limited),
    surgeHosts,
    // A pool of whole hosts takes each surge host whole: no room on it is weighed, only that it is free.
    footprint: isPrivate(p) ? {} : vectorOf(p.footprint),
    ...(isPrivate(p)
      ? { hostsShort: `the plan names ${r.surgeHosts.length} free matching host(s) for its surge`, makeRoomOnHosts: freeMatchingHost(p.nodeType) }
      : {}),
    counting: 'the nodes not yet replaced still at their old size',
  };
}

/**
 * What makes room for each refused roll (the blocker's fix: its quota's raise, or room on its hosts), kept beside the
 * roll rather than in it: `changes` is JSON whose schema is published, and the fix is said by `rollProblems`.
 */
const makeRoomOf = new WeakMap<RunningRoll, string>();

/** One replaced pool's roll, its peak with the old nodes running. */
function rollOf(p: Pools[number], replaced: number, after: PlanReport, running: RunningExcess): RunningRoll {
  const r = p.rollout!;
  const settings = { maxSurge: r.maxSurge, maxUnavailable: r.maxUnavailable, surgeHosts: r.surgeHosts };
  const room = runningRoom(
    p,
    after.quotas.find((q) => q.name === p.quota),
    replaced,
    after,
    running,
  );
  const blocker = rollBlocker(room, r.maxSurge);
  const fits = blocker !== undefined ? largestRoll(room, r) : undefined;
  const roll: RunningRoll = {
    ...settings,
    peak: formatResources(normalizeResources(rollPeak(room, r.maxSurge))),
    ...(blocker !== undefined ? { problem: blocker.why } : {}),
    ...(fits !== undefined ? { fits } : {}),
  };
  if (blocker !== undefined) makeRoomOf.set(roll, blocker.makeRoom);
  return roll;
}

/** The rolls of the replaced pools (`pool/node` keys), with their peaks as the running fleet meets them. */
export function runningRolls(before: PlanReport, after: PlanReport, replaced: readonly string[]): Map<string, RunningRoll> {
  const replacedOf = new Map<string, string[]>();
  for (const key of replaced) {
    const pool = key.slice(0, key.indexOf('/'));
    (replacedOf.get(pool) ?? replacedOf.set(pool, []).get(pool)!).push(key.slice(key.indexOf('/') + 1));
  }
  const running = runningExcess(before, after, replacedOf);
  const out = new Map<string, RunningRoll>();
  for (const p of after.pools) {
    const count = replacedOf.get(p.name)?.length ?? 0;
    if (p.rollout && count > 0) out.set(p.name, rollOf(p, count, after, running));
  }
  return out;
}

/**
 * The problems of the rolls a diff found: a roll whose peak, with the old nodes at their old size until each is
 * replaced, does not fit. Each names the report's pool, what overflows and the roll that fits, in the words the
 * plan at rest uses.
 */
export function rollProblems(changes: { readonly pools: readonly { pool: string; replaced: number; roll?: RunningRoll }[] }, after: PlanReport): PlanIssue[] {
  return changes.pools.flatMap((p) => {
    const roll = p.roll;
    if (roll?.problem === undefined) return [];
    const pool = after.pools.find((x) => x.name === p.pool);
    const onHosts = pool !== undefined && isPrivate(pool) ? freeMatchingHost(pool.nodeType) : MAKE_ROOM_ON_HOSTS;
    const raise = pool?.quota !== undefined ? `${new QuotaLedger({ name: pool.quota, limits: {} }).raise()} or ${onHosts}` : onHosts;
    return [
      {
        path: `pools["${p.pool}"].rollout`,
        message: `${rollDoesNotFit(subjectOf(pool, p.pool), p.replaced, roll, roll.problem)}; ${rollFix(raise, roll.fits)}`,
      },
    ];
  });
}

/** A report pool as a refusal names it. */
function subjectOf(pool: Pools[number] | undefined, name: string): string {
  return poolSubject(pool?.kind === 'static' || pool?.kind === 'dynamic' || pool?.kind === 'private' ? pool.kind : 'elastic', name);
}

/** Whether a report pool is one of whole bare-metal hosts (a private node pool, or a static pool on a metal3 provider). */
function isPrivate(pool: Pools[number]): boolean {
  return pool.kind === 'private';
}
