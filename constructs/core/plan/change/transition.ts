/**
 * Planning, phase 6: the transition. A change a running node cannot take in place (its revision changes,
 * revision.ts) is rolled: `maxSurge` copies of the pool's new VM are made first, then old nodes are replaced,
 * `maxSurge + maxUnavailable` at a time, then the copies go. Pools roll one after another (a stack chains its
 * rolls), so the peak of a roll is the fleet at rest plus one pool's surge. This phase chooses the surge hosts and
 * asks the one proof (roll-proof.ts) whether that peak fits the quota's ResourceQuota beside its VMs and its
 * migration room, and each surge host beside the VMs the plan placed. When the surge a pool asks for does not fit,
 * an explicit `rollout.maxSurge` is refused with what overflows and the roll that fits proposed; the default surge
 * falls back to that roll, with a warning.
 */
import { IssueCollector, PlanIssue } from '../../base/errors';
import { addResources, formatResources, normalizeResources, pickResources, type ResourceVector, sumResources } from '../../base/resources';
import { DEFAULT_ROLLOUT, RolloutSpec } from '../../input/disruption';
import { poolSubject } from '../../quota/ledger';
import { groupBy, PlannedVm } from '../../vm/vm';
import type { Accounting } from '../accounting';
import type { Foundation } from '../foundation';
import type { PlannedFleet, PoolRollout, ReportRollout } from '../types';
import { nodeRevision } from './revision';
import { fitsOnHost, hostsShort, largestRoll, rollBlocker, rollDoesNotFit, rollFallback, rollFix, RollRoom, rollPeak, rollWith, SurgeHost } from './roll-proof';

/** What each host of a fleet holds: the placed VMs' demand on it (as placement counts them). */
function hostHolds(fleet: PlannedFleet, vms: readonly PlannedVm[]): Map<string, ResourceVector> {
  const used = new Map<string, ResourceVector[]>();
  for (const vm of vms) if (vm.host !== undefined && vm.concrete) (used.get(vm.host) ?? used.set(vm.host, []).get(vm.host)!).push(vm.hostDemand);
  return new Map(fleet.hosts.map((h) => [h.name, sumResources(used.get(h.name) ?? [])]));
}

/**
 * Hosts for up to `want` surge copies of the pool's first VMs, one at a time: a pinned VM's copy on its own host
 * (the roll copies the VM, pin and all), a spread VM's on the first host of its group (or fleet) with room.
 */
function surgeHosts(fleet: PlannedFleet, pool: readonly PlannedVm[], want: number, held: ReadonlyMap<string, ResourceVector>): SurgeHost[] {
  const holds = new Map(held);
  const allocatable = new Map(fleet.hosts.map((h) => [h.name, h.allocatable]));
  const hosts: SurgeHost[] = [];
  // A spread VM's copy keeps the pool's hard topology spread: kube-scheduler puts it on a host with the fewest VMs
  // of the pool, so those are the hosts tried first.
  const ofPool = new Map<string, number>();
  for (const vm of pool) if (vm.host !== undefined) ofPool.set(vm.host, (ofPool.get(vm.host) ?? 0) + 1);
  const fewestFirst = (names: readonly string[]) => [...names].sort((a, b) => (ofPool.get(a) ?? 0) - (ofPool.get(b) ?? 0));
  for (let k = 0; k < want && k < pool.length; k++) {
    const vm = pool[k];
    const allowed = vm.placement === 'planned' ? (vm.host !== undefined ? [vm.host] : []) : fewestFirst(vm.hostGroup?.hosts ?? [...allocatable.keys()]);
    const home = allowed.find((h) => allocatable.has(h) && fitsOnHost(vm.hostDemand, holds.get(h) ?? {}, allocatable.get(h)!));
    if (home === undefined) break;
    // The host as the proof weighs it: what it held before this pool's surge took any of it.
    hosts.push({ name: home, holds: held.get(home) ?? {}, allocatable: allocatable.get(home)! });
    holds.set(home, addResources(holds.get(home) ?? {}, vm.hostDemand));
    ofPool.set(home, (ofPool.get(home) ?? 0) + 1);
  }
  return hosts;
}

/** Where a pool's rollout is written and what it says. */
export interface RolloutInput {
  /** The config or construct path of the pool's `rollout` (`nodePools[2].rollout`). */
  readonly path: string;
  /** As written; undefined: the defaults. */
  readonly spec: RolloutSpec | undefined;
}

/** Phase 6: how each pool with VMs rolls, proven against its quota and hosts; problems to `issues` and `warnings`. */
export function planRollouts(
  foundation: Foundation,
  vms: readonly PlannedVm[],
  accounting: Accounting,
  rolloutOf: (poolPath: string) => RolloutInput,
  issues: IssueCollector,
  warnings: PlanIssue[],
): Map<string, PoolRollout> {
  const out = new Map<string, PoolRollout>();
  const held = new Map<string, Map<string, ResourceVector>>();
  const byFleet = groupBy(vms, (vm) => vm.fleet);
  for (const [poolPath, pool] of groupBy(
    vms.filter((vm) => vm.concrete && !vm.madeByNodeTemplate),
    (vm) => vm.poolPath,
  )) {
    const first = pool[0];
    const fleet = foundation.fleets.get(first.fleet);
    const account = accounting.quotas.get(first.quota);
    // A pool the plan refuses (over its quota, or a VM without a host) has its own error; its roll is moot.
    if (!fleet || !account || accounting.overQuota.has(poolPath) || pool.some((vm) => vm.host === undefined)) continue;
    const { path, spec } = rolloutOf(poolPath);
    const asked = { maxSurge: spec?.maxSurge ?? DEFAULT_ROLLOUT.maxSurge, maxUnavailable: spec?.maxUnavailable ?? DEFAULT_ROLLOUT.maxUnavailable };
    const wanted = { ...asked, maxSurge: Math.min(asked.maxSurge, pool.length) };
    // The hosts: each roll runs alone, so each starts from the fleet at rest.
    if (!held.has(fleet.name)) held.set(fleet.name, hostHolds(fleet, byFleet.get(fleet.name) ?? []));
    const hosts = surgeHosts(fleet, pool, wanted.maxSurge, held.get(fleet.name)!);
    const subject = poolSubject(first.origin, first.pool);
    const maxVms = account.quota.spec.maxVirtualMachines;
    const room: RollRoom = {
      subject,
      quota: account.quota,
      // The quota: what its VMs take and its migration room stay; what is left holds the surge.
      holds: addResources(account.allocated, account.migrationHeadroom),
      each: first.quotaDemand,
      ...(maxVms !== undefined ? { vmsLeft: maxVms - account.virtualMachines } : {}),
      replaced: pool.length,
      maxUnavailable: wanted.maxUnavailable,
      surgeHosts: hosts,
      footprint: first.hostDemand,
      hostsShort: hostsShort(first.placement === 'planned', hosts.length),
    };
    const blocker = rollBlocker(room, wanted.maxSurge);
    const fits = blocker === undefined ? wanted : largestRoll(room, wanted);
    // No roll fits only when the quota's VMs and migration room already overflow it (accounting's error): the pool
    // still rolls one node out of service at a time, as said.
    const roll = fits ?? rollWith(0, wanted.maxUnavailable);
    let fallback: string | undefined;
    if (blocker !== undefined) {
      fallback = rollDoesNotFit(subject, pool.length, wanted, blocker.why);
      if (spec?.maxSurge !== undefined) {
        issues.add(`${path}.maxSurge`, `${fallback}; ${rollFix(blocker.makeRoom, fits)}`);
        continue;
      }
      warnings.push({ path, message: `${fallback}; ${rollFallback(roll, blocker.makeRoom)}` });
    }
    out.set(poolPath, {
      revision: nodeRevision(first, foundation.clusters.get(first.cluster), fleet),
      maxSurge: roll.maxSurge,
      maxUnavailable: roll.maxUnavailable,
      surgeHosts: hosts.slice(0, roll.maxSurge).map((h) => h.name),
      peak: rollPeak(room, roll.maxSurge),
      each: pickResources(normalizeResources(first.quotaDemand), Object.keys(account.quota.limits)),
      ...(fallback !== undefined ? { fallback } : {}),
    });
  }
  return out;
}

/** A rollout as the report writes it. */
export function reportRollout(r: PoolRollout): ReportRollout {
  return {
    revision: r.revision,
    maxSurge: r.maxSurge,
    maxUnavailable: r.maxUnavailable,
    surgeHosts: [...r.surgeHosts],
    peak: formatResources(r.peak),
    each: formatResources(r.each),
  };
}
