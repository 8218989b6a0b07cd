/**
 * What auto-node claims take, kept as they are planned in config order: nodes per type (maxCapacity), metal3
 * hosts, and the room each quota has left after the claims before (its rules are quota-room.ts's).
 */
import type { AutoNodesInput } from './auto-pool-types';
import type { NodeType } from './node-types';
import { roomLeft } from './quota-room';
import { addResources, ResourceVector } from './resources';

/** Tracks what earlier claims took: nodes per type (maxCapacity), metal3 hosts, quota. */
export class Ledger {
  private readonly usedByType = new Map<string, number>();
  private readonly usedHosts = new Set<string>();
  readonly remaining = new Map<string, ResourceVector>();
  readonly consumed = new Map<string, ResourceVector>();

  constructor(quotas: AutoNodesInput['quotas']) {
    for (const [name, q] of quotas) this.remaining.set(name, q.remaining);
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

  charge(quota: string, demand: ResourceVector): void {
    this.remaining.set(quota, roomLeft(this.remaining.get(quota) ?? {}, demand));
    this.consumed.set(quota, addResources(this.consumed.get(quota) ?? {}, demand));
  }
}
