/**
 * Planning, phase 6: the transition. A change a running node cannot take in place (its revision changes) is
 * rolled: `maxSurge` copies of the pool's new VM are made first, then old nodes are replaced, `maxSurge +
 * maxUnavailable` at a time, then the copies go. Pools roll one after another (a stack chains its rolls), so the
 * peak of a roll is the fleet at rest plus one pool's surge. This phase proves that peak: the surge fits the
 * quota's ResourceQuota beside its VMs and its migration room, and a host has room for each surge VM beside the
 * VMs the plan placed. When the surge a pool asks for does not fit, an explicit `rollout.maxSurge` is refused
 * with the peak named and the roll that fits proposed; the default surge falls back to that roll, with a warning.
 */
import { createHash } from 'crypto';
import { IssueCollector, PlanIssue } from '../base/errors';
import { Quantity } from '../base/quantity';
import {
  addResources,
  formatResources,
  get,
  isExtendedResource,
  normalizeResources,
  pickResources,
  type ResourceVector,
  scaleResources,
  subtractResources,
  sumResources,
} from '../base/resources';
import { amounts } from '../base/units';
import { DEFAULT_ROLLOUT, RolloutSpec } from '../input/disruption';
import { QuotaLedger } from '../quota/ledger';
import { groupBy, PlannedVm } from '../vm/vm';
import type { Accounting } from './accounting';
import type { Foundation } from './foundation';
import type { PlannedCluster, PlannedFleet, PoolRollout, ReportRollout } from './types';

/** A value with its object keys in order and quantities as their strings: what a revision hashes. */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Quantity) return value.toString();
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .filter((k) => object[k] !== undefined)
      .map((k) => [k, canonical(object[k])]),
  );
}

/**
 * The revision of a pool's nodes: a hash of everything a running node took when it was made and cannot take in
 * place (the VM's build, image and root disk, the labels and taints it joined with, the cluster it joined and the
 * Kubernetes version it runs). Not its name, index or host: scaling or moving a node is not a new revision.
 */
export function nodeRevision(vm: PlannedVm, cluster: PlannedCluster | undefined, fleet: PlannedFleet | undefined): string {
  const what = {
    build: { shape: vm.shape, options: vm.options, guest: vm.guest, rootDisk: vm.rootDisk, vmiRequests: vm.vmiRequests, eviction: vm.eviction.strategy },
    image: vm.image ?? null,
    imageSource: vm.imageSource ?? null,
    nodeType: vm.nodeType,
    labels: vm.labels,
    taints: vm.taints,
    hostSelector: fleet?.spec.hostSelector ?? null,
    cluster: cluster ? { endpoint: cluster.spec.endpoint, ca: cluster.spec.caCertificate, kubernetesVersion: cluster.kubernetesVersion } : null,
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(what)))
    .digest('hex')
    .slice(0, 16);
}

/** Room left on each host of a fleet beside the placed VMs, in the resources the host has (as placement counts them). */
function hostRoom(fleet: PlannedFleet, vms: readonly PlannedVm[]): Map<string, ResourceVector> {
  const used = new Map<string, ResourceVector[]>();
  for (const vm of vms) if (vm.host !== undefined && vm.concrete) (used.get(vm.host) ?? used.set(vm.host, []).get(vm.host)!).push(vm.hostDemand);
  return new Map(
    fleet.hosts.map((h) => {
      const taken = sumResources(used.get(h.name) ?? []);
      return [h.name, Object.fromEntries(Object.keys(h.allocatable).map((r) => [r, get(h.allocatable, r).sub(get(taken, r))]))];
    }),
  );
}

/**
 * Whether `demand` fits in a host's `room`: every resource the host has, and every extended resource (a GPU) the
 * demand asks for, which a host without it has none of. What a host does not list (pods, ephemeral storage) is not
 * counted, as placement does not.
 */
function fitsOnHost(demand: ResourceVector, room: ResourceVector): boolean {
  const names = new Set([...Object.keys(room), ...Object.keys(demand).filter((r) => isExtendedResource(r) && !get(demand, r).isZero())]);
  return [...names].every((r) => get(demand, r).cmp(get(room, r)) <= 0);
}

/**
 * Hosts for up to `want` surge copies of the pool's first VMs, one at a time: a pinned VM's copy on its own host
 * (the roll copies the VM, pin and all), a spread VM's on the first host of its group (or fleet) with room.
 */
function surgeHosts(pool: readonly PlannedVm[], want: number, room: Map<string, ResourceVector>): string[] {
  const hosts: string[] = [];
  // A spread VM's copy keeps the pool's hard topology spread: kube-scheduler puts it on a host with the fewest VMs
  // of the pool, so those are the hosts tried first.
  const ofPool = new Map<string, number>();
  for (const vm of pool) if (vm.host !== undefined) ofPool.set(vm.host, (ofPool.get(vm.host) ?? 0) + 1);
  const fewestFirst = (names: readonly string[]) => [...names].sort((a, b) => (ofPool.get(a) ?? 0) - (ofPool.get(b) ?? 0));
  for (let k = 0; k < want && k < pool.length; k++) {
    const vm = pool[k];
    const allowed = vm.placement === 'planned' ? (vm.host !== undefined ? [vm.host] : []) : fewestFirst(vm.hostGroup?.hosts ?? [...room.keys()]);
    const home = allowed.find((h) => room.has(h) && fitsOnHost(vm.hostDemand, room.get(h)!));
    if (home === undefined) break;
    room.set(home, subtractResources(room.get(home)!, vm.hostDemand));
    ofPool.set(home, (ofPool.get(home) ?? 0) + 1);
    hosts.push(home);
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
  const rooms = new Map<string, Map<string, ResourceVector>>();
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
    const wanted = Math.min(asked.maxSurge, pool.length);
    // What the quota limits: the peak is said, and checked, in those.
    const limited = Object.keys(account.quota.limits);
    const atPeak = (surge: number): ResourceVector =>
      pickResources(
        normalizeResources(addResources(addResources(account.allocated, account.migrationHeadroom), scaleResources(first.quotaDemand, surge))),
        limited,
      );
    // The quota: what its VMs take and its migration room stay; what is left holds the surge.
    const ledger = new QuotaLedger(account.quota, addResources(account.allocated, account.migrationHeadroom));
    const maxVms = account.quota.spec.maxVirtualMachines;
    const byQuota = Math.min(ledger.fits(first.quotaDemand), maxVms === undefined ? Infinity : Math.max(0, maxVms - account.virtualMachines));
    // The hosts: each roll runs alone, so each starts from the fleet at rest.
    if (!rooms.has(fleet.name)) rooms.set(fleet.name, hostRoom(fleet, byFleet.get(fleet.name) ?? []));
    const hosts = surgeHosts(pool, Math.min(wanted, byQuota), new Map(rooms.get(fleet.name)));
    const surge = hosts.length;
    const peak = atPeak(wanted);
    let fallback: string | undefined;
    if (surge < wanted) {
      const blocker =
        byQuota < wanted
          ? `quota "${account.quota.name}" holds ${byQuota} of them beside its ${account.virtualMachines} VMs and its migration room (at the peak it would need ${amounts(peak, limited)} of ${amounts(account.quota.limits, limited)})`
          : `the hosts ${first.placement === 'planned' ? `its VMs are pinned to have` : 'of its group have'} room for ${surge} of them beside the placed VMs`;
      const raise = byQuota < wanted ? `raise the limits of quota "${account.quota.name}"` : 'make room on its hosts';
      const fits = surge > 0 ? `maxSurge: ${surge}` : `maxSurge: 0, maxUnavailable: ${Math.max(1, asked.maxUnavailable)}`;
      fallback = `a roll of ${first.origin === 'elastic' ? 'pool' : `${first.origin} pool`} "${first.pool}" makes ${wanted} surge VM(s) of ${amounts(first.quotaDemand, limited)} each before replacing a node, but ${blocker}`;
      if (spec?.maxSurge !== undefined) {
        issues.add(`${path}.maxSurge`, `${fallback}: set rollout to {${fits}}, or ${raise}`);
        continue;
      }
      warnings.push({
        path,
        message: `${fallback}; it rolls with {${fits}} instead, one node out of service at a time: set rollout to say so, or ${raise} to keep the pool's capacity during a roll`,
      });
    }
    out.set(poolPath, {
      revision: nodeRevision(first, foundation.clusters.get(first.cluster), fleet),
      maxSurge: surge,
      maxUnavailable: surge < wanted && surge === 0 ? Math.max(1, asked.maxUnavailable) : asked.maxUnavailable,
      surgeHosts: hosts,
      peak: atPeak(surge),
      each: pickResources(normalizeResources(first.quotaDemand), limited),
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
