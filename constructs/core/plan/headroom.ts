/**
 * Planning, phase 6: N+1 headroom. Can each fleet lose any one host (and, given a failure-domain label,
 * any one rack or zone) and still find a host for every VM? The placement engine answers (see
 * `strandedAfterLoss`): the VMs of the lost hosts are re-placed in the room the others have left. A fleet
 * with `requireHostFailureHeadroom` makes a loss that strands VMs an error.
 */
import { IssueCollector, PlanIssue } from '../base/errors';
import type { CriticalLoss, FleetHeadroom, PlannedFleet } from './types';
import { dimensionsOf, toDimensions } from './dimensions';
import { placeWithBudget } from '../packing';
import { PlannedVm } from '../vm/vm';

export type { CriticalLoss, DomainLossCheck, FleetHeadroom, HostLossCheck } from './types';

/** The fleet's failure domains: label value -> host indices, in host order; hosts without the label are left out. */
function domainsOf(fleet: PlannedFleet, label: string): Map<string, number[]> {
  const domains = new Map<string, number[]>();
  fleet.hosts.forEach((h, i) => {
    const value = h.labels[label];
    if (value === undefined) return;
    domains.set(value, [...(domains.get(value) ?? []), i]);
  });
  return domains;
}

function criticalLosses(fleet: PlannedFleet, vms: readonly PlannedVm[], named: readonly (readonly [string, readonly number[]])[]): CriticalLoss[] {
  const stranded = strandedAfterLoss(
    fleet,
    vms,
    named.map(([, hosts]) => hosts),
  );
  const vmsOn = new Map<string, number>();
  for (const vm of vms) if (vm.host !== undefined) vmsOn.set(vm.host, (vmsOn.get(vm.host) ?? 0) + 1);
  return named.flatMap(([name, hosts], i) =>
    stranded[i] === 0 ? [] : [{ name, hosts: hosts.length, vms: hosts.reduce((n, h) => n + (vmsOn.get(fleet.hosts[h].name) ?? 0), 0), stranded: stranded[i] }],
  );
}

function fleetHeadroom(fleet: PlannedFleet, vms: readonly PlannedVm[], failureDomain: string | undefined): FleetHeadroom {
  const own = vms.filter((vm) => vm.concrete && vm.fleet === fleet.name);
  const hostLosses = criticalLosses(
    fleet,
    own,
    fleet.hosts.map((h, i) => [h.name, [i]] as const),
  );
  const headroom: FleetHeadroom = {
    required: fleet.spec.requireHostFailureHeadroom ?? false,
    hosts: { ok: hostLosses.length === 0, checked: fleet.hosts.length, critical: hostLosses },
  };
  if (failureDomain === undefined) return headroom;
  const domains = domainsOf(fleet, failureDomain);
  const domainLosses = criticalLosses(fleet, own, [...domains.entries()]);
  const labelled = [...domains.values()].reduce((n, d) => n + d.length, 0);
  return {
    ...headroom,
    failureDomain: {
      label: failureDomain,
      ok: domainLosses.length === 0,
      checked: domains.size,
      unlabelled: fleet.hosts.length - labelled,
      critical: domainLosses,
    },
  };
}

function listLosses(kind: string, losses: readonly CriticalLoss[]): string {
  const shown = losses.slice(0, 5).map((l) => `${kind} "${l.name}" strands ${l.stranded} of its ${l.vms} VMs`);
  return losses.length > 5 ? `${shown.join('; ')}; and ${losses.length - 5} more` : shown.join('; ');
}

/** Errors for fleets that require headroom and lack it. */
function requireHeadroom(fleet: PlannedFleet, headroom: FleetHeadroom, issues: IssueCollector): void {
  if (!headroom.required) return;
  const at = `${fleet.path}.requireHostFailureHeadroom`;
  const fix = 'leave room on the other hosts for the VMs of any one (add a host, or lower pool counts or shapes), or drop requireHostFailureHeadroom';
  if (!headroom.hosts.ok)
    issues.add(at, `fleet "${fleet.name}" cannot lose any one host and re-place every VM: ${listLosses('losing host', headroom.hosts.critical)}; ${fix}`);
  const domain = headroom.failureDomain;
  if (domain && !domain.ok)
    issues.add(
      at,
      `fleet "${fleet.name}" cannot lose any one ${domain.label} and re-place every VM: ${listLosses(`losing ${domain.label}`, domain.critical)}; ${fix}`,
    );
}

/** Phase 6: the N+1 headroom of every fleet with hosts. */
export function planHeadroom(
  fleets: ReadonlyMap<string, PlannedFleet>,
  vms: readonly PlannedVm[],
  failureDomain: string | undefined,
  issues: IssueCollector,
  warnings: PlanIssue[] = [],
): Map<string, FleetHeadroom> {
  const out = new Map<string, FleetHeadroom>();
  for (const fleet of fleets.values()) {
    if (fleet.hosts.length === 0) continue;
    const headroom = fleetHeadroom(fleet, vms, failureDomain);
    // A failure-domain label no host carries checks nothing: say so rather than report "any one of 0".
    if (headroom.failureDomain && headroom.failureDomain.checked === 0)
      warnings.push({
        path: `${fleet.path}.hosts`,
        message: `no host of fleet "${fleet.name}" has the failure-domain label "${failureDomain}", so no ${failureDomain} was checked: label the hosts, or name a label they carry`,
      });
    requireHeadroom(fleet, headroom, issues);
    out.set(fleet.name, headroom);
  }
  return out;
}

// The repair search's budget per lost host: a fleet of 1,000 hosts is tried 1,000 times.
const LOSS_REPAIR_WORK = 50_000;

/**
 * N+1: for each set of lost hosts, how many of the fleet's placed VMs the placement engine cannot re-place
 * on the hosts that are left. The VMs on surviving hosts stay where they are (a host failure moves nothing
 * else); the displaced ones are packed into the room the survivors have left (whether they fit, not how they
 * spread: kube-scheduler places their new launcher pods within that room), as the plan places every VM.
 */
function strandedAfterLoss(fleet: PlannedFleet, vms: readonly PlannedVm[], lostSets: readonly (readonly number[])[]): number[] {
  const hostIndex = new Map(fleet.hosts.map((h, i) => [h.name, i]));
  const placed = vms.filter((vm) => vm.host !== undefined && hostIndex.has(vm.host));
  const dims = dimensionsOf(fleet, placed);
  const free = fleet.hosts.map((h) => toDimensions(h.allocatable, dims, false));
  const groups = new Map<string, number>();
  const items = placed.map((vm) => {
    if (!groups.has(vm.poolPath)) groups.set(vm.poolPath, groups.size);
    const item = { size: toDimensions(vm.hostDemand, dims, true), group: groups.get(vm.poolPath)!, host: hostIndex.get(vm.host!)! };
    item.size.forEach((v, d) => (free[item.host][d] -= v));
    return item;
  });
  const byHost = new Map<number, (typeof items)[number][]>();
  for (const item of items) {
    const on = byHost.get(item.host);
    if (on) on.push(item);
    else byHost.set(item.host, [item]);
  }
  // A host without room for the smallest VM in some dimension is never a home: first fit skips it up front.
  const smallest = dims.map((_, d) => Math.min(...items.map((item) => item.size[d])));
  const roomy = free.flatMap((f, h) => (f.every((v, d) => v >= smallest[d]) ? [h] : []));
  return lostSets.map((lost) => {
    const gone = new Set(lost);
    const displaced = lost.flatMap((h) => byHost.get(h) ?? []);
    if (displaced.length === 0) return 0;
    // A first fit that re-places every displaced VM is already the answer; only a miss needs the engine.
    if (firstFitAll(free, roomy, gone, displaced)) return 0;
    const survivors = free.filter((_, h) => !gone.has(h)).map((f) => ({ capacity: f.map((v) => Math.max(0, v)) }));
    return placeWithBudget(survivors, displaced, {}, LOSS_REPAIR_WORK).unplaced.length;
  });
}

/**
 * Whether the displaced items, largest first, each fit on some surviving host with what earlier ones took:
 * a placement found this way proves the fleet survives the loss, without building a packing problem per
 * lost host (a 1,000-host fleet asks 1,000 times). `hosts` are the ones worth trying, in the order tried;
 * `free` is left as it was.
 */
function firstFitAll(
  free: readonly number[][],
  hosts: readonly number[],
  gone: ReadonlySet<number>,
  displaced: readonly { readonly size: readonly number[] }[],
): boolean {
  const taken = new Map<number, number[]>();
  const total = (size: readonly number[]): number => size.reduce((x, y) => x + y, 0);
  const order = [...displaced].sort((a, b) => total(b.size) - total(a.size));
  const fits = (size: readonly number[], h: number): boolean => {
    const used = taken.get(h);
    for (let d = 0; d < size.length; d++) if (size[d] > free[h][d] - (used?.[d] ?? 0)) return false;
    return true;
  };
  for (const item of order) {
    const home = hosts.find((h) => !gone.has(h) && fits(item.size, h));
    if (home === undefined) return false;
    const used = taken.get(home) ?? item.size.map(() => 0);
    item.size.forEach((v, d) => (used[d] += v));
    taken.set(home, used);
  }
  return true;
}
