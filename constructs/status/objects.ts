/**
 * Reading what a cluster sent, trusting none of it: every field is checked for its type before it is used, and
 * anything else reads as absent. Indexes of the lists status compares.
 */
import { Quantity } from '../core/base/quantity';
import { isRecord } from '../core/base/records';
import type { ObservedObject } from './types';

/** A map, or undefined. */
export function rec(v: unknown): Readonly<Record<string, unknown>> | undefined {
  return isRecord(v) ? v : undefined;
}

/** A string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** An array, or empty. */
export function arr(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A string-to-string map (labels, annotations, quantities); other entries dropped. */
export function strings(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(rec(v) ?? {})) if (typeof x === 'string') out[k] = x;
  return out;
}

/** The object's name ('' when it has none). */
export function nameOf(o: ObservedObject): string {
  return str(o.metadata?.name) ?? '';
}

/** The object's namespace ('' when cluster-scoped). */
export function namespaceOf(o: ObservedObject): string {
  return str(o.metadata?.namespace) ?? '';
}

/** `namespace/name`. */
export function keyOf(o: ObservedObject): string {
  return `${namespaceOf(o)}/${nameOf(o)}`;
}

/** A label's value. */
export function labelOf(o: ObservedObject, key: string): string | undefined {
  return strings(o.metadata?.labels)[key];
}

/** An annotation's value. */
export function annotationOf(o: ObservedObject, key: string): string | undefined {
  return strings(o.metadata?.annotations)[key];
}

/** The object is being deleted. */
export function deleting(o: ObservedObject): boolean {
  return str(o.metadata?.deletionTimestamp) !== undefined;
}

/** A condition of `status.conditions`, by type. */
export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

/** The object's condition of that type. */
export function conditionOf(o: ObservedObject, type: string): Condition | undefined {
  for (const c of arr(rec(o.status)?.conditions)) {
    const m = rec(c);
    if (m && m.type === type && typeof m.status === 'string')
      return { type, status: m.status, reason: str(m.reason), message: str(m.message), lastTransitionTime: str(m.lastTransitionTime) };
  }
  return undefined;
}

/** The objects by `namespace/name` (the first of a repeated key wins: a list never repeats one). */
export function byKey(objects: readonly ObservedObject[]): Map<string, ObservedObject> {
  const out = new Map<string, ObservedObject>();
  for (const o of objects) if (!out.has(keyOf(o))) out.set(keyOf(o), o);
  return out;
}

/** A quantity, or undefined when it is not one. */
export function quantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return Quantity.parse(v);
  } catch {
    return undefined;
  }
}

/** What a pod requests (its containers' requests summed, cpu and memory), as the scheduler counts it. */
export function podRequests(pod: ObservedObject): { cpu: Quantity; memory: Quantity } {
  let cpu = Quantity.ZERO;
  let memory = Quantity.ZERO;
  for (const c of arr(rec(pod.spec)?.containers)) {
    const requests = rec(rec(rec(c)?.resources)?.requests);
    cpu = cpu.add(quantity(requests?.cpu) ?? Quantity.ZERO);
    memory = memory.add(quantity(requests?.memory) ?? Quantity.ZERO);
  }
  return { cpu, memory };
}
