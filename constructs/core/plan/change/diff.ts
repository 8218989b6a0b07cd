/**
 * What changed between two plans, the decision a deploy carries out: nodes added, removed, moved and replaced
 * (a pool's revision changed, revision.ts) per pool, each replaced pool's roll as the running fleet meets it
 * (running-roll.ts), host groups, node types, quota and fleet deltas, and the cost delta. The report words it
 * (report/changes.ts). The previous plan is read as JSON (possibly written by an older metalslice), so every field
 * it might lack is optional here.
 */
import type { PlanReport } from '../types';
import { formatResources, normalizeResources, subtractResources } from '../../base/resources';
import { RunningRoll, runningRolls, vectorOf } from './running-roll';

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
  readonly roll?: RunningRoll;
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
  rolls: ReadonlyMap<string, RunningRoll>,
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
    pools: poolChanges(beforePools, after.pools, added, removed, moved, replaced, runningRolls(before, after, replaced)),
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
