/**
 * Planning, phase 6, for pools of whole bare-metal hosts (private node pools, and static pools on metal3
 * providers): how each rolls when its revision changes (revision.ts `hostPoolRevision`). A node of such a pool is a
 * BareMetalHost its HostClaim holds, so a surge node is one more host: `maxSurge` free matching hosts of the pool's
 * node type are claimed first, then old nodes are replaced `maxSurge + maxUnavailable` at a time, then the surge
 * hosts are let go. The peak is counted in whole hosts the pool holds. The proof is roll-proof.ts's, as for VM pools
 * (transition.ts): a room with no quota, holding the pool's hosts, whose surge hosts are the free ones.
 */
import { IssueCollector, PlanIssue } from '../../base/errors';
import { Quantity } from '../../base/quantity';
import type { ResourceVector } from '../../base/resources';
import type { PlannedAutoPool } from '../../auto';
import type { NodeProvider } from '../../auto/node-types';
import { DEFAULT_ROLLOUT } from '../../input/disruption';
import type { LabelSelector } from '../../input/model';
import { poolSubject } from '../../quota/ledger';
import type { PlannedCluster, PlannedPrivatePool, PoolRollout } from '../types';
import { hostPoolRevision } from './revision';
import { largestRoll, rollBlocker, rollDoesNotFit, rollFallback, rollFix, RollRoom, rollPeak, rollWith } from './roll-proof';
import type { RolloutInput } from './transition';

/** The resource a pool of whole hosts is counted in: one per host it holds. */
export const HOSTS_RESOURCE = 'hosts';

/** `{hosts: n}`: what a pool of `n` whole hosts holds. */
function hosts(n: number): ResourceVector {
  return { [HOSTS_RESOURCE]: Quantity.parse(String(n)) };
}

/** The fix of a roll of whole hosts that lacks surge hosts: another host of its node type no pool claims. */
export function freeMatchingHost(nodeType: string): string {
  return `free a matching host of node type ${nodeType} (a BareMetalHost its hostSelector matches that no pool claims)`;
}

/** At most this many free hosts are named in a sentence; the rest are counted. */
const NAMED_HOSTS = 5;

/** Why a pool of whole hosts has fewer surge hosts than asked: the free matching hosts of its node type, named. */
function freeHostsShort(nodeType: string, free: readonly string[]): string {
  const named = free.slice(0, NAMED_HOSTS).join(', ') + (free.length > NAMED_HOSTS ? ` and ${free.length - NAMED_HOSTS} more` : '');
  return `node type ${nodeType} has ${free.length} free matching host(s)${free.length > 0 ? ` (${named})` : ''} beside the hosts the planned pools claim`;
}

/**
 * The free matching hosts of each node type (`provider.type` id): its usable hosts less every host any planned
 * pool of its provider took, in the type's order. Computed once every pool is planned.
 */
export function freeHostsByType(providers: readonly NodeProvider[], pools: readonly PlannedAutoPool[]): Map<string, string[]> {
  const taken = new Set(pools.flatMap((p) => p.nodes.flatMap((n) => (n.host !== undefined ? [`${p.provider}/${n.host}`] : []))));
  return new Map(
    providers.flatMap((provider) => provider.types.map((t) => [t.id, (t.hosts ?? []).filter((h) => !taken.has(`${provider.name}/${h}`))] as const)),
  );
}

/** What planning the rolls of pools of whole hosts reads of the plan. */
export interface HostRolloutContext {
  /** The pools of whole hosts, both roads. */
  readonly privatePools: readonly PlannedPrivatePool[];
  /** Every planned auto-node pool (their nodes' hosts are taken). */
  readonly autoPools: readonly PlannedAutoPool[];
  /** The node providers, parsed: each metal3 type's usable hosts. */
  readonly providers: readonly NodeProvider[];
  /** The hostSelector of a provider's node type (its bare name), as its HostClaims are rendered with it. */
  readonly hostSelectorOf: (provider: string, nodeType: string) => LabelSelector | undefined;
  readonly clusters: ReadonlyMap<string, PlannedCluster>;
  /** Where a pool's rollout is written and what it says. */
  readonly rolloutOf: (pool: PlannedPrivatePool) => RolloutInput;
}

/** Phase 6 for pools of whole hosts: how each with nodes rolls, keyed by its planned pool's path. */
export function planHostRollouts(ctx: HostRolloutContext, issues: IssueCollector, warnings: PlanIssue[]): Map<string, PoolRollout> {
  const out = new Map<string, PoolRollout>();
  const freeOf = freeHostsByType(ctx.providers, ctx.autoPools);
  for (const p of ctx.privatePools) {
    const { spec, pool } = p;
    const count = pool.nodes.length;
    // A pool the plan refuses (no type, a node without a host) has its own error; its roll is moot.
    if (count === 0 || pool.nodeType === undefined || pool.nodes.some((n) => n.host === undefined)) continue;
    const nodeType = pool.nodeType;
    const free = freeOf.get(nodeType) ?? [];
    const { path, spec: rollout } = ctx.rolloutOf(p);
    const asked = { maxSurge: rollout?.maxSurge ?? DEFAULT_ROLLOUT.maxSurge, maxUnavailable: rollout?.maxUnavailable ?? DEFAULT_ROLLOUT.maxUnavailable };
    const wanted = { ...asked, maxSurge: Math.min(asked.maxSurge, count) };
    const subject = poolSubject('private', pool.name);
    const room: RollRoom = {
      subject,
      // No quota: the pool holds its hosts, and each surge node is one more.
      holds: hosts(count),
      each: hosts(1),
      replaced: count,
      maxUnavailable: wanted.maxUnavailable,
      // Each roll runs alone (a stack rolls pools one after another): each may name the same free host.
      surgeHosts: free.slice(0, wanted.maxSurge).map((name) => ({ name, holds: {}, allocatable: {} })),
      footprint: {},
      hostsShort: freeHostsShort(nodeType, free),
      makeRoomOnHosts: freeMatchingHost(nodeType),
    };
    const blocker = rollBlocker(room, wanted.maxSurge);
    const fits = blocker === undefined ? wanted : largestRoll(room, wanted);
    const roll = fits ?? rollWith(0, wanted.maxUnavailable);
    let fallback: string | undefined;
    if (blocker !== undefined) {
      fallback = rollDoesNotFit(subject, count, wanted, blocker.why);
      if (rollout?.maxSurge !== undefined) {
        issues.add(`${path}.maxSurge`, `${fallback}; ${rollFix(blocker.makeRoom, fits)}`);
        continue;
      }
      warnings.push({ path, message: `${fallback}; ${rollFallback(roll, blocker.makeRoom)}` });
    }
    out.set(pool.path, {
      revision: hostPoolRevision(spec, pool.nodes[0], ctx.hostSelectorOf(pool.provider, spec.nodeType), ctx.clusters.get(spec.cluster)),
      maxSurge: roll.maxSurge,
      maxUnavailable: roll.maxUnavailable,
      surgeHosts: room.surgeHosts.slice(0, roll.maxSurge).map((h) => h.name),
      peak: rollPeak(room, roll.maxSurge),
      each: hosts(1),
      ...(fallback !== undefined ? { fallback } : {}),
    });
  }
  return out;
}

/** Whether a report's peak is counted in whole hosts (a pool of whole hosts) rather than in its quota's resources. */
export function peakInHosts(peak: Readonly<Record<string, string>>): boolean {
  return Object.keys(peak).length === 1 && peak[HOSTS_RESOURCE] !== undefined;
}
