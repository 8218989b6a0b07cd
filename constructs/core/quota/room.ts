/**
 * What a quota limits and how much room it has left: the rules the one quota ledger (quota-ledger.ts) applies
 * for type selection and accounting alike. A quota always limits cpu, memory and devices; anything else only
 * if it lists it.
 */
import { exceededResources, get, isExtendedResource, resourceNames, ResourceVector } from '../base/resources';

/** Whether a quota with these limits (or room, which has the same keys) bounds the resource. */
export function quotaLimits(name: string, limits: ResourceVector): boolean {
  return name === 'cpu' || name === 'memory' || isExtendedResource(name) || limits[name] !== undefined;
}

/** The resources of `demand` that go past what the quota allows. */
export function overQuota(demand: ResourceVector, limits: ResourceVector): string[] {
  return exceededResources(demand, limits).filter((n) => quotaLimits(n, limits));
}

/** Room left per limited resource (negative when over); a VM's pods or ephemeral storage count only where listed. */
export function roomLeft(limits: ResourceVector, used: ResourceVector): ResourceVector {
  return Object.fromEntries(Object.keys(limits).map((r) => [r, get(limits, r).sub(get(used, r))]));
}

/** Most whole units of `each` that fit in `room`, over the resources the quota limits. */
export function wholeWithin(each: ResourceVector, room: ResourceVector): number {
  let n = Infinity;
  for (const name of resourceNames(each)) {
    const need = each[name];
    if (need.isZero() || !quotaLimits(name, room)) continue;
    const have = get(room, name);
    n = Math.min(n, have.isNegative() ? 0 : Number(have.nano / need.nano));
  }
  return n === Infinity ? 0 : n;
}
