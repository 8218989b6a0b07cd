/**
 * Which quota a VM counts against, and by how much: the one ledger of a quota, and the one wording of
 * "over quota".
 *
 * - **Which quota.** A VM counts against the quota of its pool: an elastic node pool's `quota`, or the `quota`
 *   of the autoNodes entry of a static or dynamic pool on a kubevirt provider (metalslice's kubevirt node
 *   template included). Pools on metal3 and terraform providers, and private node pools, are whole machines:
 *   they charge no quota; the hosts they claim are kept per host by auto/taken.ts.
 * - **By how much.** Its `quotaDemand` (vm/vm.ts `buildVm`): the requests of its virt-launcher pod as KubeVirt
 *   renders them, one pod, and a DataVolume root disk's size as `disk`. A node type's VM is built by
 *   auto/type-match.ts `typeVm` with its claim's `kubevirt.vcluster.com/root-disk-size`, so type selection
 *   charges what accounting charges. A quota limits cpu, memory and devices always, anything else only if it
 *   lists it (quotaLimits, below).
 * - **In what order.** Elastic pools first, then static auto-node pools in config order, each all or nothing
 *   (plan/type-selection.ts, auto/static-pools.ts). A dynamic pool is never charged: its worst case at its limits must fit the
 *   room the static pools leave (auto/dynamic-pools.ts). Accounting (plan/accounting.ts) then charges every
 *   concrete VM, pool by pool, on a fresh ledger: that charge is the one the plan reports. Live migrations
 *   and `maxVirtualMachines` are checked there too.
 */
import { addResources, exceededResources, get, isExtendedResource, resourceNames, ResourceVector, scaleResources, subtractResources } from '../base/resources';
import { amount, amounts } from '../base/units';

// ---- What a quota limits, and the room it has left ------------------------------------------------------------

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

// ---- The ledger ------------------------------------------------------------------------------------------------

/** A quota as a ledger sees it: its name, where it was written, and its limits. */
export interface QuotaLimits {
  readonly name: string;
  /** Where the quota was written (`quotas[1]`); a refusal says to raise `<path>.limits`. @default - none */
  readonly path?: string;
  readonly limits: ResourceVector;
}

/** A pool asking for room: who asks, for how many VMs of what demand each, and how to ask for fewer. */
export interface QuotaClaim {
  /** The pool as a refusal names it (`poolSubject`). */
  readonly subject: string;
  /** How many VMs. */
  readonly count: number;
  /** What one VM counts against the quota (its `quotaDemand`). */
  readonly each: ResourceVector;
  /** The field that sets the count (`count`, `quantity`, `limits.nodes`). */
  readonly field: string;
  /** Other fixes, said between lowering the count and raising the quota. @default - none */
  readonly alternatives?: readonly string[];
  /** What the VMs take together, when summed from the VMs themselves. @default - `count` x `each` */
  readonly total?: ResourceVector;
  /** The count that fits, when it is not `each` within the room (a dynamic pool: the smallest over its types). @default - the whole VMs that fit */
  readonly fit?: number;
  /** The first fix, when lowering `field` to `fit` is not the whole of it (a roll: both its settings). @default - `lower <field> to <fit>` */
  readonly lower?: string;
}

/** What a refusal says a pool is: `pool "web"`, `static pool "db" (virt.large)`, `private pool "gpu"` (whole hosts). */
export function poolSubject(origin: 'elastic' | 'static' | 'dynamic' | 'private', name: string, nodeType?: string): string {
  const kind = origin === 'elastic' ? 'pool' : origin === 'static' ? 'static pool' : origin === 'private' ? 'private pool' : 'dynamic pool';
  return `${kind} "${name}"${nodeType !== undefined ? ` (${nodeType})` : ''}`;
}

/** One quota's limits, what has been charged to it, and the room left. */
export class QuotaLedger {
  private chargedHere: ResourceVector = {};

  /** `before`: what was charged before this ledger was opened (the elastic pools, for type selection). */
  constructor(
    readonly quota: QuotaLimits,
    private readonly before: ResourceVector = {},
  ) {}

  /** A ledger opened on the room a quota has left (what was charged is what is missing from `limits`). */
  static withRoom(quota: QuotaLimits, room: ResourceVector): QuotaLedger {
    return new QuotaLedger(quota, subtractResources(quota.limits, room));
  }

  /** What was charged on this ledger (not what it was opened with). */
  get charged(): ResourceVector {
    return this.chargedHere;
  }

  /** Room left per limited resource; negative when over. */
  get room(): ResourceVector {
    return roomLeft(this.quota.limits, addResources(this.before, this.chargedHere));
  }

  /** The resources `demand` asks for that would go past the quota. */
  over(demand: ResourceVector): string[] {
    const after = addResources(addResources(this.before, this.chargedHere), demand);
    return overQuota(after, this.quota.limits).filter((r) => !get(demand, r).isZero());
  }

  /** The resources already charged past the quota. */
  overAlready(): string[] {
    return overQuota(addResources(this.before, this.chargedHere), this.quota.limits);
  }

  /** How many whole VMs of `each` fit in the room left. */
  fits(each: ResourceVector): number {
    return wholeWithin(each, this.room);
  }

  charge(demand: ResourceVector): void {
    this.chargedHere = addResources(this.chargedHere, demand);
  }

  /** Charges the claim when it fits; otherwise charges it all the same (accounting) and returns the refusal. */
  chargeOrRefuse(claim: QuotaClaim): string | undefined {
    const refusal = this.refusal(claim);
    this.charge(totalOf(claim));
    return refusal;
  }

  /** Why the claim does not fit, in the one wording: what needs how much, what is left of what, the fix; undefined when it fits. */
  refusal(claim: QuotaClaim): string | undefined {
    const shortfall = this.shortfall(claim);
    if (shortfall === undefined) return undefined;
    const fixes = [claim.lower ?? `lower ${claim.field} to ${claim.fit ?? wholeWithin(claim.each, this.room)}`, ...(claim.alternatives ?? []), this.raise()];
    return `${shortfall}: ${oneOf(fixes)}`;
  }

  /** The refusal without its fixes: `<subject> does not fit quota "q" (cpu: needs ..., 2 left of 84)`; undefined when it fits. */
  shortfall(claim: QuotaClaim): string | undefined {
    const demand = totalOf(claim);
    const over = this.over(demand);
    if (over.length === 0) return undefined;
    const room = this.room;
    const detail = over.map(
      (r) =>
        `${r}: needs ${amount(r, get(demand, r))} (${claim.count} x ${amount(r, get(claim.each, r))}, ${whatCounts(r)}), ${left(r, room)} left of ${amount(r, get(this.quota.limits, r))}`,
    );
    return `${claim.subject} does not fit quota "${this.quota.name}" (${detail.join('; ')})`;
  }

  /** What was charged past the quota, in the one wording (`quota "q" holds cpu 104 of cpu 84`); undefined when within. */
  overflow(): string | undefined {
    const over = this.overAlready();
    if (over.length === 0) return undefined;
    const held = addResources(this.before, this.chargedHere);
    return `quota "${this.quota.name}" holds ${amounts(held, over)} of ${amounts(this.quota.limits, over)}`;
  }

  /** The fix that raises this quota: its path's limits when it has one. */
  raise(): string {
    return this.quota.path !== undefined ? `raise ${this.quota.path}.limits` : `raise the limits of quota "${this.quota.name}"`;
  }
}

function totalOf(claim: QuotaClaim): ResourceVector {
  return claim.total ?? scaleResources(claim.each, claim.count);
}

/** What of a VM a resource counts. */
function whatCounts(resource: string): string {
  return `each VM's launcher pod as KubeVirt ${resource === 'disk' ? 'and its root disk' : 'requests it'}`;
}

function left(resource: string, room: ResourceVector): string {
  const q = get(room, resource);
  return q.isNegative() ? '0' : amount(resource, q);
}

/** `a or b`; `a, b, or c`. */
function oneOf(fixes: readonly string[]): string {
  return fixes.length <= 2 ? fixes.join(' or ') : `${fixes.slice(0, -1).join(', ')}, or ${fixes[fixes.length - 1]}`;
}
