/**
 * What changed between two plans, for the first lines of a review: nodes added, removed and moved per pool,
 * node type changes, quota limit and allocation deltas, fleet host and capacity changes, and the cost
 * delta. The previous plan is read as JSON (possibly written by an older metalslice), so every field it
 * might lack is optional here.
 */
import type { PlanReport } from '../plan/types';
import type { PlanIssue } from '../base/errors';
import { Quantity } from '../base/quantity';
import {
  addResources,
  exceededResources,
  formatResources,
  get,
  normalizeResources,
  pickResources,
  ResourceVector,
  scaleResources,
  subtractResources,
} from '../base/resources';
import { amounts, readable, readableDelta } from '../base/units';

/** One pool's node changes (only pools that changed are listed). */
export interface PoolChange {
  readonly pool: string;
  readonly before: number;
  readonly after: number;
  readonly added: number;
  readonly removed: number;
  readonly moved: number;
  /**
   * Nodes kept whose revision changed (shape, image, Kubernetes version, labels, ...): a running node cannot take
   * that in place, so the deploy replaces each, rolling as `roll` says.
   */
  readonly replaced: number;
  /**
   * Set when nodes are replaced: how the roll goes (surge first, then nodes out of service at once) and its peak.
   * The peak counts each node still on the old revision at its old footprint until it is replaced (a shrinking
   * reshape peaks above what the new plan alone says); `problem` says when that peak does not fit the quota or a
   * surge host, and `fits` the roll that does.
   */
  readonly roll?: {
    readonly maxSurge: number;
    readonly maxUnavailable: number;
    readonly surgeHosts: readonly string[];
    readonly peak: Record<string, string>;
    readonly problem?: string;
    readonly fits?: { readonly maxSurge: number; readonly maxUnavailable: number };
  };
  /** Set when the pool's shape changed: the resources that changed, before and after (exact quantities). */
  readonly shape?: { readonly before: Record<string, string>; readonly after: Record<string, string> };
  /** Set when the pool's node type changed. */
  readonly nodeType?: { readonly before: string; readonly after: string };
}

/** One pool's change of host group. */
export interface HostGroupChange {
  readonly pool: string;
  /** The pool's tenant cluster (auto-node pool names are unique per cluster only). */
  readonly cluster: string;
  /** The group's Node label (the new plan's; the old plan's when the pool is no longer confined). */
  readonly label?: string;
  /** Hosts that join the group: their Nodes get the label. */
  readonly joined: string[];
  /** Hosts that leave it: their Nodes lose the label; a VM of the pool already there stays until it restarts. */
  readonly left: string[];
  /**
   * `confined`: the pool was spread over the whole fleet and now selects the label (its VMs' nodeSelector gains
   * it); `released`: the reverse. Absent: the label stays, only hosts change.
   */
  readonly selector?: 'confined' | 'released';
}

/** Exact deltas (after - before) of the resources that changed. */
export type ResourceDelta = Record<string, string>;

export interface PlanChanges {
  /** `pool/node` keys of nodes only in the new plan. */
  readonly added: string[];
  readonly removed: string[];
  readonly moved: { node: string; from: string | null; to: string | null }[];
  /** `pool/node` keys of nodes in both plans whose pool's revision changed: the deploy replaces them. */
  readonly replaced: string[];
  readonly pools: PoolChange[];
  /** Nodes that stayed but changed node type. */
  readonly nodeTypes: { node: string; before: string; after: string }[];
  /**
   * Pools whose host group changed: the hosts whose Nodes gain the pool's group label (`joined`) and lose it
   * (`left`). A change of Node labels only: no VM is replaced or moved by it (optional: absent in a diff
   * written before groups were labels).
   */
  readonly regrouped?: HostGroupChange[];
  readonly quotas: { quota: string; status: 'added' | 'removed' | 'changed'; limits: ResourceDelta; allocated: ResourceDelta }[];
  readonly fleets: { fleet: string; status: 'added' | 'removed' | 'changed'; hosts: { before: number; after: number }; capacity: ResourceDelta }[];
  /** Total cost of the pools' nodes, in vCluster's cost units. */
  readonly cost: { before: number; after: number; delta: number };
  /** Whether the plan went from failing to fitting, or back. */
  readonly ok: { before: boolean; after: boolean };
}

type Pools = PlanReport['pools'];

function vectorOf(r: Readonly<Record<string, string>> | undefined): ResourceVector {
  return Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, Quantity.parse(v)]));
}

function delta(after: Readonly<Record<string, string>> | undefined, before: Readonly<Record<string, string>> | undefined): ResourceDelta {
  return formatResources(normalizeResources(subtractResources(vectorOf(after), vectorOf(before))));
}

function nodeIndex(pools: Pools): Map<string, { host: string | null; nodeType: string }> {
  return new Map(pools.flatMap((p) => p.nodes.map((n) => [`${p.name}/${n.name}`, { host: n.host ?? null, nodeType: n.nodeType ?? p.nodeType }] as const)));
}

/** A pool's cost; a plan from before pools carried `cost` counts them at 0 rather than guessing. */
function totalCost(pools: Pools): number {
  return Math.round(pools.reduce((t, p) => t + (typeof p.cost === 'number' ? p.cost : 0), 0) * 1000) / 1000;
}

/** The resources of two shapes that differ, each side as its plan wrote it; undefined when the shapes are equal. */
function shapeChange(before: Readonly<Record<string, string>> | undefined, after: Readonly<Record<string, string>> | undefined): PoolChange['shape'] {
  if (before === undefined || after === undefined) return undefined;
  const changed = Object.keys(delta(after, before)).sort();
  if (changed.length === 0) return undefined;
  const pick = (r: Readonly<Record<string, string>>) => Object.fromEntries(changed.map((k) => [k, r[k] ?? '0']));
  return { before: pick(before), after: pick(after) };
}

function poolChanges(
  before: Pools,
  after: Pools,
  added: string[],
  removed: string[],
  moved: PlanChanges['moved'],
  replaced: string[],
  rolls: ReadonlyMap<string, NonNullable<PoolChange['roll']>>,
): PoolChange[] {
  const names = [...new Set([...before.map((p) => p.name), ...after.map((p) => p.name)])];
  const countBy = (keys: readonly string[]) => {
    const out = new Map<string, number>();
    for (const k of keys) out.set(k.slice(0, k.indexOf('/')), (out.get(k.slice(0, k.indexOf('/'))) ?? 0) + 1);
    return out;
  };
  const a = countBy(added);
  const r = countBy(removed);
  const m = countBy(moved.map((x) => x.node));
  const s = countBy(replaced);
  return names.flatMap((pool) => {
    const b = before.filter((p) => p.name === pool);
    const n = after.filter((p) => p.name === pool);
    const typeBefore = b[0]?.nodeType;
    const typeAfter = n[0]?.nodeType;
    const shape = shapeChange(b[0]?.shape, n[0]?.shape);
    const change: PoolChange = {
      pool,
      before: b.reduce((t, p) => t + p.nodes.length, 0),
      after: n.reduce((t, p) => t + p.nodes.length, 0),
      added: a.get(pool) ?? 0,
      removed: r.get(pool) ?? 0,
      moved: m.get(pool) ?? 0,
      replaced: s.get(pool) ?? 0,
      ...((s.get(pool) ?? 0) > 0 && rolls.has(pool) ? { roll: rolls.get(pool)! } : {}),
      ...(shape ? { shape } : {}),
      ...(typeBefore !== undefined && typeAfter !== undefined && typeBefore !== typeAfter ? { nodeType: { before: typeBefore, after: typeAfter } } : {}),
    };
    return change.added + change.removed + change.moved + change.replaced > 0 || change.nodeType || change.shape ? [change] : [];
  });
}

function quotaChanges(before: PlanReport['quotas'], after: PlanReport['quotas']): PlanChanges['quotas'] {
  const names = [...new Set([...before.map((q) => q.name), ...after.map((q) => q.name)])];
  return names.flatMap((quota) => {
    const b = before.find((q) => q.name === quota);
    const n = after.find((q) => q.name === quota);
    const limits = delta(n?.limits, b?.limits);
    const allocated = delta(n?.allocated, b?.allocated);
    const status = !b ? 'added' : !n ? 'removed' : 'changed';
    return status !== 'changed' || Object.keys(limits).length + Object.keys(allocated).length > 0 ? [{ quota, status, limits, allocated }] : [];
  });
}

function fleetChanges(before: PlanReport['fleets'], after: PlanReport['fleets']): PlanChanges['fleets'] {
  const names = [...new Set([...before.map((f) => f.name), ...after.map((f) => f.name)])];
  return names.flatMap((fleet) => {
    const b = before.find((f) => f.name === fleet);
    const n = after.find((f) => f.name === fleet);
    const capacity = delta(n?.capacity, b?.capacity);
    const hosts = { before: b?.hosts ?? 0, after: n?.hosts ?? 0 };
    const status = !b ? 'added' : !n ? 'removed' : 'changed';
    return status !== 'changed' || hosts.before !== hosts.after || Object.keys(capacity).length > 0 ? [{ fleet, status, hosts, capacity }] : [];
  });
}

/**
 * The pools whose host group changed. A pool counts when it is spread in both plans (a pool that becomes
 * pinned, or comes or goes, shows under its nodes); a group absent means the whole fleet.
 */
function groupChanges(before: Pools, after: Pools): HostGroupChange[] {
  const spreadGroup = (p: Pools[number] | undefined) =>
    p?.launcher?.placement === 'spread' ? { hosts: p.launcher.group?.hosts, label: p.launcher.group?.label } : undefined;
  // Auto-node pool names are unique per cluster only: a pool is its cluster and name.
  const key = (p: Pools[number]) => `${p.cluster}\u0000${p.name}`;
  const old = new Map(before.map((p) => [key(p), spreadGroup(p)]));
  return after.flatMap((p): HostGroupChange[] => {
    const [b, n] = [old.get(key(p)), spreadGroup(p)];
    if (b === undefined || n === undefined || (b.hosts === undefined && n.hosts === undefined)) return [];
    const [was, is] = [new Set(b.hosts ?? []), new Set(n.hosts ?? [])];
    // A side without hosts (the whole fleet) is an empty set: every host of the other side joins or leaves.
    const joined = [...is].filter((h) => !was.has(h)).sort();
    const left = [...was].filter((h) => !is.has(h)).sort();
    if (joined.length + left.length === 0) return [];
    const label = n.label ?? b.label;
    const selector = b.hosts === undefined ? 'confined' : n.hosts === undefined ? 'released' : undefined;
    return [{ pool: p.name, cluster: p.cluster, ...(label !== undefined ? { label } : {}), joined, left, ...(selector ? { selector } : {}) }];
  });
}

/** How much bigger `old` is than `now`, in the resources where it is bigger: an old node's excess over its replacement. */
function larger(old: ResourceVector, now: ResourceVector): ResourceVector {
  return Object.fromEntries(
    Object.keys(old)
      .filter((r) => get(old, r).cmp(get(now, r)) > 0)
      .map((r) => [r, get(old, r).sub(get(now, r))]),
  );
}

/** The resources of `demand` over `room`, among those `room` names (a host lists no ephemeral storage, say). */
function over(demand: ResourceVector, room: ResourceVector): string[] {
  return exceededResources(pickResources(demand, Object.keys(room)), room);
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

/** One replaced pool's roll, its peak with the old nodes running (see rollsOf). */
function rollOf(p: Pools[number], replacedCount: number, after: PlanReport, running: RunningExcess): NonNullable<PoolChange['roll']> {
  const r = p.rollout!;
  const quota = after.quotas.find((q) => q.name === p.quota);
  const limited = quota ? Object.keys(quota.limits) : Object.keys(r.peak);
  const each = pickResources(vectorOf(r.each ?? p.footprint), limited);
  const extra = pickResources(running.quotaExtra.get(p.quota ?? '') ?? {}, limited);
  const peakAt = (surge: number): ResourceVector => {
    const atRest = addResources(vectorOf(r.peak), scaleResources(each, surge - r.maxSurge));
    // With no surge, the first nodes out of service are started again on the new revision before any other goes.
    const first = surge === 0 ? Math.min(replacedCount, Math.max(1, r.maxUnavailable)) : 0;
    return addResources(atRest, subtractResources(extra, pickResources(scaleResources(running.quotaExcess.get(p.name) ?? {}, first), limited)));
  };
  const fleet = after.fleets.find((f) => f.name === p.fleet);
  const blocked = (surge: number): string | undefined => {
    if (quota) {
      const exceeded = over(peakAt(surge), vectorOf(quota.limits));
      if (exceeded.length > 0)
        return `quota "${quota.name}" would hold ${amounts(peakAt(surge), exceeded)} of ${amounts(vectorOf(quota.limits), exceeded)} at the peak, the nodes not yet replaced still at their old size`;
    }
    const onHost = new Map<string, number>();
    for (const h of r.surgeHosts.slice(0, surge)) onHost.set(h, (onHost.get(h) ?? 0) + 1);
    for (const [name, count] of onHost) {
      const h = fleet?.hostUsage?.find((x) => x.name === name);
      if (!h) continue;
      const demand = addResources(
        addResources(vectorOf(h.used), running.hostExtra.get(`${p.fleet}/${name}`) ?? {}),
        scaleResources(vectorOf(p.footprint), count),
      );
      const exceeded = over(demand, vectorOf(h.allocatable));
      if (exceeded.length > 0)
        return `host ${name} would hold ${amounts(demand, exceeded)} of ${amounts(vectorOf(h.allocatable), exceeded)} with the surge, its nodes not yet replaced still at their old size`;
    }
    return undefined;
  };
  const problem = blocked(r.maxSurge);
  let fits: { maxSurge: number; maxUnavailable: number } | undefined;
  if (problem !== undefined) {
    let surge = r.maxSurge - 1;
    while (surge >= 0 && blocked(surge) !== undefined) surge--;
    // No surge at all still overflows: the quota's limits were cut below the fleet that runs; no roll fits.
    if (surge >= 0) fits = surge > 0 ? { maxSurge: surge, maxUnavailable: r.maxUnavailable } : { maxSurge: 0, maxUnavailable: Math.max(1, r.maxUnavailable) };
  }
  return {
    maxSurge: r.maxSurge,
    maxUnavailable: r.maxUnavailable,
    surgeHosts: r.surgeHosts,
    peak: formatResources(normalizeResources(peakAt(r.maxSurge))),
    ...(problem !== undefined ? { problem } : {}),
    ...(fits !== undefined ? { fits } : {}),
  };
}

/**
 * The rolls of the replaced pools, with their peaks as the running fleet meets them. The new plan proves each roll
 * against the fleet at rest in the new shapes. While a pool rolls, every node of it not yet replaced still runs at
 * its old size on its old host, and so, counted here whatever the order pools roll in (a bound, not the exact
 * figure), do the replaced nodes of the quota's other pools; a migration still needs room for the largest old VM.
 * Where those are larger (a shrinking reshape), the quota and the surge hosts hold more than the new plan alone
 * says. The quota is charged what each VM takes from it (`rollout.each`), a host what it takes from the host
 * (`footprint`). The peak is what the quota holds when the roll first creates: the surge beside every old node,
 * or with no surge, the first nodes out of service started again on the new revision. When the asked roll does
 * not fit, the largest surge that does is proposed.
 */
function rollsOf(before: PlanReport, after: PlanReport, replaced: readonly string[]): Map<string, NonNullable<PoolChange['roll']>> {
  const replacedOf = new Map<string, string[]>();
  for (const key of replaced) {
    const pool = key.slice(0, key.indexOf('/'));
    (replacedOf.get(pool) ?? replacedOf.set(pool, []).get(pool)!).push(key.slice(key.indexOf('/') + 1));
  }
  const running = runningExcess(before, after, replacedOf);
  const out = new Map<string, NonNullable<PoolChange['roll']>>();
  for (const p of after.pools) {
    const count = replacedOf.get(p.name)?.length ?? 0;
    if (p.rollout && count > 0) out.set(p.name, rollOf(p, count, after, running));
  }
  return out;
}

/**
 * The problems of the rolls `changes` found: a roll whose peak, with the old nodes at their old size until each is
 * replaced, does not fit. Each names the report's pool, what overflows and the roll that fits.
 */
export function rollProblems(changes: PlanChanges): PlanIssue[] {
  return changes.pools.flatMap((p) => {
    const roll = p.roll;
    if (roll?.problem === undefined) return [];
    const fix = roll.fits
      ? `set the pool's rollout to {maxSurge: ${roll.fits.maxSurge}, maxUnavailable: ${roll.fits.maxUnavailable}} for this change, or make room`
      : 'no roll fits: raise the limits (or make room on the hosts) before this change, or make it in two steps';
    return [
      {
        path: `pools["${p.pool}"].rollout`,
        message: `replacing ${p.replaced} node(s) with {maxSurge: ${roll.maxSurge}} does not fit: ${roll.problem}; ${fix}`,
      },
    ];
  });
}

export function diffPlans(before: PlanReport, after: PlanReport): PlanChanges {
  const beforePools = before.pools ?? [];
  const a = nodeIndex(beforePools);
  const b = nodeIndex(after.pools);
  const added = [...b.keys()].filter((k) => !a.has(k)).sort();
  const removed = [...a.keys()].filter((k) => !b.has(k)).sort();
  const kept = [...b.keys()].filter((k) => a.has(k)).sort();
  const moved = kept.filter((k) => a.get(k)!.host !== b.get(k)!.host).map((k) => ({ node: k, from: a.get(k)!.host, to: b.get(k)!.host }));
  // A pool's nodes are replaced when its revision changed; a plan from before revisions were written says only its
  // shape, and a changed shape is a new revision whatever else is.
  const poolBefore = new Map(beforePools.map((p) => [p.name, p]));
  const revised = (p: Pools[number]): boolean => {
    const b = poolBefore.get(p.name);
    if (!b) return false;
    if (b.rollout?.revision !== undefined && p.rollout?.revision !== undefined) return b.rollout.revision !== p.rollout.revision;
    return shapeChange(b.shape, p.shape) !== undefined;
  };
  const revisedPools = new Set(after.pools.filter(revised).map((p) => p.name));
  const replaced = kept.filter((k) => revisedPools.has(k.slice(0, k.indexOf('/'))));
  const costBefore = totalCost(beforePools);
  const costAfter = totalCost(after.pools);
  return {
    added,
    removed,
    moved,
    replaced,
    pools: poolChanges(beforePools, after.pools, added, removed, moved, replaced, rollsOf(before, after, replaced)),
    nodeTypes: kept.filter((k) => a.get(k)!.nodeType !== b.get(k)!.nodeType).map((k) => ({ node: k, before: a.get(k)!.nodeType, after: b.get(k)!.nodeType })),
    regrouped: groupChanges(beforePools, after.pools),
    quotas: quotaChanges(before.quotas ?? [], after.quotas),
    fleets: fleetChanges(before.fleets ?? [], after.fleets),
    cost: { before: costBefore, after: costAfter, delta: Math.round((costAfter - costBefore) * 1000) / 1000 },
    ok: { before: before.ok, after: after.ok },
  };
}

/** Whether anything a reviewer would look at changed. */
export function hasChanges(c: PlanChanges): boolean {
  const regrouped = c.regrouped?.length ?? 0;
  return c.pools.length + c.nodeTypes.length + regrouped + c.quotas.length + c.fleets.length > 0 || c.cost.delta !== 0 || c.ok.before !== c.ok.after;
}

function deltaText(d: ResourceDelta): string {
  return Object.entries(d)
    .map(([name, q]) => `${name} ${readableDelta(name, Quantity.parse(q))}`)
    .join(', ');
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

/** `surge 1 on bm-c07, then 1 at a time; quota peak cpu 100 cores, memory 525 Gi`. */
function rollText(r: NonNullable<PoolChange['roll']>): string {
  const surge = r.maxSurge > 0 ? `surge ${r.maxSurge}${r.surgeHosts.length > 0 ? ` on ${r.surgeHosts.join(', ')}` : ''}` : 'no surge';
  const peak = Object.entries(r.peak)
    .filter(([name]) => name === 'cpu' || name === 'memory')
    .map(([name, q]) => `${name} ${readable(name, Quantity.parse(q))}`)
    .join(', ');
  return `${surge}, ${r.maxSurge + r.maxUnavailable} at a time${r.maxUnavailable > 0 ? `, ${r.maxUnavailable} out of service` : ''}; quota peak ${peak}`;
}

function poolLine(p: PoolChange): string {
  const parts = [`${p.before} → ${p.after} nodes`];
  if (p.added > 0) parts.push(`${p.added} added`);
  if (p.removed > 0) parts.push(`${p.removed} removed`);
  if (p.moved > 0) parts.push(`${p.moved} moved to another host`);
  if (p.shape) {
    const what = Object.keys(p.shape.after)
      .map((k) => `${k} ${p.shape!.before[k]} → ${p.shape!.after[k]}`)
      .join(', ');
    parts.push(`shape ${what}`);
  }
  if (p.replaced > 0) parts.push(`${p.replaced} replaced${p.roll ? ` (${rollText(p.roll)})` : ''}`);
  if (p.roll?.problem !== undefined)
    parts.push(
      `the roll does not fit: ${p.roll.problem}; ${p.roll.fits ? `{maxSurge: ${p.roll.fits.maxSurge}, maxUnavailable: ${p.roll.fits.maxUnavailable}} does` : 'no roll does'}`,
    );
  if (p.nodeType) parts.push(`node type ${p.nodeType.before} → ${p.nodeType.after}`);
  return `pool ${p.pool}: ${parts.join(', ')}`;
}

/** `pool web: host group (label group.metalslice.io/shop.web) bm-07 joins, bm-03 leaves; Node labels only, ...`. */
function groupLine(g: HostGroupChange): string {
  const hosts = (list: readonly string[], verb: string) => (list.length === 0 ? [] : [`${list.join(', ')} ${list.length === 1 ? `${verb}s` : verb}`]);
  const what = [...hosts(g.joined, 'join'), ...hosts(g.left, 'leave')].join(', ');
  const label = g.label !== undefined ? ` (label ${g.label})` : '';
  const selector =
    g.selector === 'confined'
      ? "; its VMs' nodeSelector gains the label, which KubeVirt stages (RestartRequired) until each VM next starts"
      : g.selector === 'released'
        ? "; its VMs' nodeSelector drops the label, which KubeVirt stages (RestartRequired) until each VM next starts"
        : '';
  return `pool ${g.pool}: host group${label} ${what}: Node labels only, no VM is moved (one already on a host that leaves stays there until it restarts)${selector}`;
}

/** The change in short lines, most important first; plain text (each format adds its own marks). */
export function summarizeChanges(c: PlanChanges): string[] {
  if (!hasChanges(c)) return ['No changes since the previous plan.'];
  const lines: string[] = [];
  if (c.ok.before !== c.ok.after) lines.push(c.ok.after ? 'The previous plan failed; this one fits.' : 'The previous plan fitted; this one does not.');
  const replaced = c.replaced ?? [];
  lines.push(
    `nodes: ${c.added.length} added, ${c.removed.length} removed, ${replaced.length} replaced, ${c.moved.length} moved${c.nodeTypes.length > 0 ? `, ${c.nodeTypes.length} changed node type` : ''}`,
  );
  lines.push(...c.pools.map(poolLine));
  if (replaced.length > 0)
    lines.push(
      `${replaced.length} running node(s) cannot take the change in place: the deploy replaces each (surge nodes join first, then each old node is drained and restarted on the new revision), pool after pool (README "Changing a fleet")`,
    );
  lines.push(...(c.regrouped ?? []).map(groupLine));
  for (const q of c.quotas) {
    if (q.status !== 'changed') lines.push(`quota ${q.quota} ${q.status}`);
    if (Object.keys(q.limits).length > 0) lines.push(`quota ${q.quota} limits: ${deltaText(q.limits)}`);
    if (Object.keys(q.allocated).length > 0) lines.push(`quota ${q.quota} allocated: ${deltaText(q.allocated)}`);
  }
  for (const f of c.fleets) {
    const hosts = f.hosts.before !== f.hosts.after ? `hosts ${f.hosts.before} → ${f.hosts.after} (${signed(f.hosts.after - f.hosts.before)})` : '';
    const capacity = Object.keys(f.capacity).length > 0 ? `capacity ${deltaText(f.capacity)}` : '';
    lines.push(`fleet ${f.fleet}${f.status !== 'changed' ? ` ${f.status}` : ''}: ${[hosts, capacity].filter(Boolean).join('; ')}`);
  }
  if (c.cost.delta !== 0) lines.push(`cost: ${c.cost.before} → ${c.cost.after} (${signed(c.cost.delta)}, vCluster cost units)`);
  return lines;
}
