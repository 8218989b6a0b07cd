/**
 * The vector dimensions placement works in: a resource vector as safe integers (millicores for cpu, bytes or
 * units for the rest), rounded so that a host never looks bigger than it is, and back to a quantity for messages.
 * Placement, the spread proof and the N+1 headroom all measure in these.
 */
import { Quantity } from '../base/quantity';
import { get, normalizeResources, resourceNames, ResourceVector } from '../base/resources';
import type { PlannedVm } from '../vm/vm';
import type { PlannedFleet } from './types';

/** The vector dimensions placement works in, as safe integers: millicores, bytes, units. */
export function toDimensions(v: ResourceVector, names: readonly string[], roundUp: boolean): number[] {
  return names.map((name) => {
    const q = get(v, name);
    const whole = name === 'cpu' ? q.ceilMillis() : q.ceilUnits();
    // Capacities round down, demands round up: the rounding never makes a host look bigger than it is.
    const exact = name === 'cpu' ? q.nano % 1_000_000n === 0n : q.nano % 1_000_000_000n === 0n;
    const value = roundUp || exact ? whole : whole - 1n;
    return Number(value);
  });
}

/** The dimensions a fleet is placed in: what hosts or VMs name; ephemeral storage only where hosts report it. */
export function dimensionsOf(fleet: PlannedFleet, vms: readonly PlannedVm[]): string[] {
  const hostsReportEphemeral = fleet.hosts.some((h) => h.allocatable['ephemeral-storage'] !== undefined);
  return resourceNames(...fleet.hosts.map((h) => h.allocatable), ...vms.map((vm) => vm.hostDemand)).filter(
    (d) => d !== 'ephemeral-storage' || hostsReportEphemeral,
  );
}

export function fromDimension(name: string, value: number): Quantity {
  const q = name === 'cpu' ? Quantity.fromMillis(BigInt(value)) : Quantity.fromUnits(BigInt(value));
  return normalizeResources({ [name]: q })[name];
}

/** One VM as placement sees it. */
export interface VmItem {
  readonly size: number[];
  readonly group: number;
  readonly pinned: boolean;
  /** The host its launcher pod already runs on, when it runs. */
  readonly fixed?: number;
}
