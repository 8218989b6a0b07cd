/**
 * Planning, phase 4: accounting. Every quota and fleet is charged from the one VM list: what each VM's
 * launcher pod requests (as KubeVirt renders it), its root disk, and room for live migrations, which hold
 * a second launcher pod while they run.
 */
import { IssueCollector } from '../base/errors';
import type { PlannedQuota } from './types';
import { Foundation } from './foundation';
import { poolSubject, QuotaLedger } from '../quota/ledger';
import { get, normalizeResources, ResourceVector, scaleResources, sumResources } from '../base/resources';
import { concreteDemandBy, groupBy, PlannedVm } from '../vm/vm';
import { amounts } from '../base/units';

export interface QuotaAccount {
  readonly quota: PlannedQuota;
  /** What the quota's concrete VMs take. */
  readonly allocated: ResourceVector;
  /** Room kept for `liveMigrations` migrations of the quota's largest migratable VM. */
  readonly migrationHeadroom: ResourceVector;
  readonly virtualMachines: number;
  /** The largest migratable VM of the quota (its target pod is what a migration needs). */
  readonly largestMigratable?: PlannedVm;
}

export interface Accounting {
  readonly quotas: ReadonlyMap<string, QuotaAccount>;
  /** Per fleet: what its concrete VMs take. */
  readonly fleets: ReadonlyMap<string, ResourceVector>;
  /** Pools charged past their quota: left out of placement, where they would only add noise. */
  readonly overQuota: ReadonlySet<string>;
}

/** Bigger first: memory, then cpu (a migration target must hold the whole launcher pod). */
function compareSize(a: PlannedVm, b: PlannedVm): number {
  const m = get(a.quotaDemand, 'memory').cmp(get(b.quotaDemand, 'memory'));
  return m !== 0 ? m : get(a.quotaDemand, 'cpu').cmp(get(b.quotaDemand, 'cpu'));
}

function describe(pool: readonly PlannedVm[]): string {
  return poolSubject(pool[0].origin, pool[0].pool);
}

/** Charges concrete VMs pool by pool on the quota's ledger; the pool that pushes a quota past a limit is the one reported. */
function chargeQuota(quota: PlannedQuota, pools: readonly PlannedVm[][], issues: IssueCollector, overQuotaPools: Set<string>): QuotaLedger {
  const ledger = new QuotaLedger(quota);
  for (const pool of pools) {
    const field = pool[0].countPath.endsWith('.quantity') ? 'quantity' : 'count';
    const claim = { subject: describe(pool), count: pool.length, each: pool[0].quotaDemand, total: sumResources(pool.map((vm) => vm.quotaDemand)), field };
    const refusal = ledger.chargeOrRefuse(claim);
    if (refusal === undefined) continue;
    overQuotaPools.add(pool[0].poolPath);
    issues.add(pool[0].countPath, refusal);
  }
  return ledger;
}

/** A quota keeps room for its live migrations: each holds a second launcher pod of a migrating VM. */
function checkMigrationHeadroom(quota: PlannedQuota, ledger: QuotaLedger, largest: PlannedVm | undefined, issues: IssueCollector): ResourceVector {
  if (!largest || quota.liveMigrations === 0) return {};
  const headroom = normalizeResources(scaleResources(largest.launcher.requests, quota.liveMigrations));
  // What the pools already took past a limit is their refusal, not the migrations'.
  const alreadyOver = ledger.overAlready();
  const over = ledger.over(headroom).filter((r) => !alreadyOver.includes(r));
  if (over.length > 0) {
    issues.add(
      `${quota.path}.liveMigrations`,
      `quota "${quota.name}" has no room to live-migrate its VMs: a migration of ${largest.name} holds a second launcher pod (${amounts(largest.launcher.requests, over)}) and the ResourceQuota counts it, but only ${amounts(ledger.room, over)} is left; raise ${quota.path}.limits, shrink the pools, or set liveMigrations: 0 (host drains then shut VMs down)`,
    );
  }
  return headroom;
}

/** Phase 4: charge every quota and fleet from the VM list. */
export function accountVms(foundation: Foundation, vms: readonly PlannedVm[], issues: IssueCollector): Accounting {
  const overQuotaPools = new Set<string>();
  const quotas = new Map<string, QuotaAccount>();
  const byQuota = groupBy(vms, (vm) => vm.quota);
  for (const quota of foundation.quotas.values()) {
    const own = byQuota.get(quota.name) ?? [];
    const concrete = own.filter((vm) => vm.concrete);
    const ledger = chargeQuota(quota, [...groupBy(concrete, (vm) => vm.poolPath).values()], issues, overQuotaPools);
    const max = quota.spec.maxVirtualMachines;
    if (max !== undefined && concrete.length > max) {
      issues.add(
        `${quota.path}.maxVirtualMachines`,
        `quota "${quota.name}" allows ${max} VMs but its pools ask for ${concrete.length} (${[...new Set(concrete.map((vm) => vm.poolPath))].join(', ')}): raise maxVirtualMachines or lower the pools' counts`,
      );
    } else if (max !== undefined) {
      for (const pool of groupBy(
        own.filter((vm) => !vm.concrete),
        (vm) => vm.poolPath,
      ).values()) {
        if (concrete.length + pool.length > max) {
          issues.add(
            pool[0].countPath,
            `at its limits ${describe(pool)} can reach ${pool.length} VMs, and with the ${concrete.length} the quota already has that is more than quota "${quota.name}" allows (maxVirtualMachines ${max}): lower limits.nodes to ${Math.max(0, max - concrete.length)} or raise maxVirtualMachines`,
          );
        }
      }
    }
    const largest = concrete.filter((vm) => vm.eviction.migratable).sort((a, b) => compareSize(b, a))[0];
    const migrationHeadroom = checkMigrationHeadroom(quota, ledger, largest, issues);
    quotas.set(quota.name, {
      quota,
      allocated: normalizeResources(ledger.charged),
      migrationHeadroom,
      virtualMachines: concrete.length,
      ...(largest ? { largestMigratable: largest } : {}),
    });
  }
  const fleets = concreteDemandBy(
    vms,
    (vm) => vm.fleet,
    (vm) => vm.hostDemand,
  );
  return { quotas, fleets, overQuota: overQuotaPools };
}
