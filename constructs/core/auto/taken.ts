/**
 * What auto-node claims take, kept as they are planned in config order: nodes per type (maxCapacity) and
 * metal3 hosts here; each quota's room in its one ledger (quota/ledger.ts), opened on what the elastic pools
 * left.
 */
import type { AutoNodesInput } from './types';
import type { NodeType } from './node-types';
import { QuotaLedger } from '../quota/ledger';

/** Tracks what earlier claims took: nodes per type (maxCapacity), metal3 hosts, and (in its ledger) each quota. */
export class TakenSoFar {
  private readonly usedByType = new Map<string, number>();
  private readonly usedHosts = new Set<string>();
  private readonly quotas = new Map<string, QuotaLedger>();

  constructor(quotas: AutoNodesInput['quotas']) {
    for (const [name, q] of quotas) {
      this.quotas.set(name, QuotaLedger.withRoom({ name, limits: q.limits ?? q.remaining, ...(q.path !== undefined ? { path: q.path } : {}) }, q.remaining));
    }
  }

  /** The ledger of a quota (an unknown quota has no room). */
  quota(name: string): QuotaLedger {
    let ledger = this.quotas.get(name);
    if (!ledger) this.quotas.set(name, (ledger = new QuotaLedger({ name, limits: {} })));
    return ledger;
  }

  used(type: NodeType): number {
    return this.usedByType.get(type.id) ?? 0;
  }

  freeHosts(type: NodeType): string[] {
    return (type.hosts ?? []).filter((h) => !this.usedHosts.has(`${type.provider}/${h}`));
  }

  /** How many more nodes of the type may exist; Infinity when unlimited. */
  left(type: NodeType): number {
    let left = type.maxCapacity === undefined ? Infinity : type.maxCapacity - this.used(type);
    if (type.hosts !== undefined) left = Math.min(left, this.freeHosts(type).length);
    return Math.max(0, left);
  }

  take(type: NodeType, count: number): string[] {
    this.usedByType.set(type.id, this.used(type) + count);
    if (type.hosts === undefined) return [];
    const hosts = this.freeHosts(type).slice(0, count);
    for (const h of hosts) this.usedHosts.add(`${type.provider}/${h}`);
    return hosts;
  }
}
