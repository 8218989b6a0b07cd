/**
 * Planning, phase 5a: the spread proof. Whether a fleet's spread pools fit every host in kube-scheduler's
 * worst case, and the host and resource where they do not (placement.ts runs it and chooses which pool to pin).
 */
import { Quantity } from '../base/quantity';
import type { VmItem } from './dimensions';

/**
 * Why a spread pool is pinned after all: the host whose worst case under kube-scheduler's spreading would
 * not fit, and in which resource.
 */
export interface SpreadOverflow {
  readonly host: string;
  readonly resource: string;
  readonly worstCase: Quantity;
  readonly allocatable: Quantity;
}

/**
 * The spread proof. Spread pools render a hard topology spread over hosts (maxSkew 1, DoNotSchedule; see
 * render/kubevirt.ts), so whatever order the launcher pods arrive in and however kube-scheduler scores the
 * hosts, a pool of n VMs over the fleet's H hosts never has more than ceil(n / H) VMs on one host: a new pod
 * may only go to a host that holds the fewest of its pool. A host therefore never has to hold more than its
 * pinned VMs plus ceil(n / H) VMs of every spread pool; when that worst case fits every host, each pod finds
 * room on any host the spread allows, by induction over the pods.
 */
export class SpreadProof {
  /** The worst case per host and dimension. */
  readonly worst: number[][];
  /** Per spread pool, how many of its VMs already run on each host. */
  private readonly running = new Map<number, Int32Array>();
  constructor(
    private readonly hostCaps: readonly (readonly number[])[],
    items: readonly VmItem[],
    private readonly hostOf: readonly number[],
    private readonly pools: ReadonlyMap<number, { n: number; size: readonly number[]; members: readonly number[] }>,
  ) {
    this.worst = hostCaps.map((c) => c.map(() => 0));
    items.forEach((item, k) => {
      if (item.pinned && hostOf[k] >= 0) item.size.forEach((v, d) => (this.worst[hostOf[k]][d] += v));
      if (!item.pinned && item.fixed !== undefined) {
        const counts = this.running.get(item.group) ?? new Int32Array(hostCaps.length);
        counts[item.fixed]++;
        this.running.set(item.group, counts);
      }
    });
    for (const [group, pool] of pools) if (!items[pool.members[0]].pinned) this.spread(group, +1);
  }

  /**
   * Adds (+1) or removes (-1) a pool's worst case on every host: ceil(n / H) of its VMs, or the VMs already
   * running there if more. A new pod goes only to a host holding the fewest of the pool, so a host that gets
   * one ends at most at ceil(n / H); a host that gets none keeps what runs there.
   */
  spread(group: number, sign: 1 | -1): void {
    const { n, size } = this.pools.get(group)!;
    const even = Math.ceil(n / this.hostCaps.length);
    const running = this.running.get(group);
    this.worst.forEach((w, h) => {
      const most = Math.max(even, running?.[h] ?? 0) * sign;
      size.forEach((v, d) => (w[d] += most * v));
    });
  }

  /** Counts a pool at the hosts its VMs were placed on, instead of its worst case. */
  pin(group: number): void {
    this.spread(group, -1);
    const { size, members } = this.pools.get(group)!;
    for (const k of members) if (this.hostOf[k] >= 0) size.forEach((v, d) => (this.worst[this.hostOf[k]][d] += v));
  }

  /** The first host and dimension where the worst case does not fit, if any. */
  overflow(): { host: number; dim: number; worst: number } | undefined {
    for (let h = 0; h < this.hostCaps.length; h++) {
      for (let d = 0; d < this.hostCaps[h].length; d++) if (this.worst[h][d] > this.hostCaps[h][d]) return { host: h, dim: d, worst: this.worst[h][d] };
    }
    return undefined;
  }
}
