/**
 * What a host offers VMs, judged as kube-scheduler judges a Node: the kubelet's allocatable (never the
 * capacity), less what is already bound there (KubeVirt's virt-handler, other pods), less what the fleet
 * keeps back; and nothing at all when a launcher pod may not land there (NotReady, cordoned, a taint it
 * does not tolerate, or virt-handler has marked it unschedulable). The one owner of these rules: the
 * planner, the report and `metalslice verify` all ask it.
 */
import { SCHEDULABLE_NODE_LABEL } from '../kubevirt/launcher';
import { virtHandlerRequests } from '../kubevirt/handler';
import { Taint } from '../input/model';
import { Quantity } from '../base/quantity';
import { normalizeResources, ResourceVector, resourceNames, subtractResources, sumResources } from '../base/resources';

/** A toleration, as Kubernetes matches it against a taint. */
export interface Toleration {
  /** The taint key; empty with operator Exists matches every key. @default - every key */
  readonly key?: string;
  /** `Equal` (the default) or `Exists`. @default "Equal" */
  readonly operator?: 'Equal' | 'Exists';
  /** With Equal: the taint value. @default "" */
  readonly value?: string;
  /** The effect tolerated; empty tolerates every effect. @default - every effect */
  readonly effect?: string;
}

/** The taint the node lifecycle controller puts on a cordoned Node. */
export const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
/** The taints the node lifecycle controller puts on a Node whose Ready condition is False. */
export const NOT_READY_TAINTS: readonly Taint[] = [
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
];

/**
 * The tolerations every launcher pod has: metalslice's VMs set none, and KubeVirt copies the VMI's, so what
 * is left is what the API server's DefaultTolerationSeconds admission adds to every pod (not-ready and
 * unreachable, NoExecute, for 300 s). They let a running VM ride out a short outage; they do not let a new
 * pod onto a NotReady Node, whose NoSchedule taint they do not tolerate.
 */
export function launcherTolerations(): readonly Toleration[] {
  return [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  ];
}

/** Whether one toleration matches a taint (core/v1 Toleration.ToleratesTaint). */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (!toleration.key && toleration.operator !== 'Exists') return false;
  return toleration.operator === 'Exists' || (toleration.value ?? '') === (taint.value ?? '');
}

/** The first NoSchedule or NoExecute taint none of the tolerations matches (what kube-scheduler's TaintToleration filter refuses). */
export function untoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | undefined {
  return taints.find((t) => t.effect !== 'PreferNoSchedule' && !tolerations.some((tol) => toleratesTaint(tol, t)));
}

/** `key=value:Effect`, as kubectl prints a taint. */
export function formatTaint(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/** What decides whether a launcher pod may land on a host. */
export interface HostSchedulability {
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  readonly unschedulable?: boolean;
  readonly ready?: boolean;
}

/** Why no launcher pod can land on a host, or undefined when one can. */
export function whyNoVms(host: HostSchedulability): string | undefined {
  if (host.ready === false) return 'NotReady: the node lifecycle controller taints it node.kubernetes.io/not-ready:NoSchedule';
  if (host.unschedulable === true) return 'cordoned (spec.unschedulable): kube-scheduler places no new pod there';
  const taint = untoleratedTaint(host.taints ?? [], launcherTolerations());
  if (taint) return `tainted ${formatTaint(taint)}, which launcher pods do not tolerate`;
  if (host.labels?.[SCHEDULABLE_NODE_LABEL] === 'false') return `virt-handler has marked it ${SCHEDULABLE_NODE_LABEL}=false`;
  return undefined;
}

/** The taints a Node carries as the node lifecycle controller shows it: its own, plus cordon and not-ready taints. */
export function nodeTaints(host: HostSchedulability): Taint[] {
  const out = [...(host.taints ?? [])];
  const add = (t: Taint): void => {
    if (!out.some((o) => o.key === t.key && o.effect === t.effect)) out.push(t);
  };
  if (host.unschedulable === true) add(UNSCHEDULABLE_TAINT);
  if (host.ready === false) NOT_READY_TAINTS.forEach(add);
  return out;
}

/** Pods bound to a host before the plan: their count and summed requests. */
export interface BoundPods {
  readonly count: number;
  readonly requests: ResourceVector;
}

/** What a host's VMs must share it with, term by term. */
export interface HostTaken {
  /** KubeVirt's virt-handler pod, when the host does not already run one. */
  readonly virtHandler: ResourceVector;
  /** Pods already bound there, launcher pods of other owners' VMs included. */
  readonly existing: ResourceVector;
  /** The fleet's reservedPerHost. */
  readonly reserved: ResourceVector;
}

/** The terms of what is taken from a host before any VM of the plan. */
export function hostTaken(existing: BoundPods | undefined, runsVirtHandler: boolean, reserved: ResourceVector): HostTaken {
  const existingVector = existing ? { ...existing.requests, pods: Quantity.fromUnits(existing.count) } : {};
  return { virtHandler: runsVirtHandler ? {} : virtHandlerRequests(), existing: existingVector, reserved };
}

/** What is left for VMs: allocatable less every term taken, never below zero. */
export function vmAllocatable(allocatable: ResourceVector, taken: HostTaken): ResourceVector {
  const left = subtractResources(allocatable, sumResources([taken.virtHandler, taken.existing, taken.reserved]));
  const out: Record<string, Quantity> = {};
  for (const name of resourceNames(left)) out[name] = left[name].isNegative() ? Quantity.ZERO : left[name];
  return normalizeResources(out);
}
