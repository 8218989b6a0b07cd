/**
 * Where a pod may go, as kube-scheduler's NodeAffinity plugin decides it for a Node's labels and name: its
 * nodeSelector (every pair), and its required node affinity (any term; in a term, every expression and field).
 * status's N+1 answer moves a lost host's launcher pods only where they may go: a VM pinned to its planned host, or
 * kept in its host group, has no other host.
 */
import { arr, rec, str, strings } from './objects';
import type { ObservedObject } from './types';

/** A pod's node constraints, read once. */
export type NodeMatch = (name: string, labels: Readonly<Record<string, string>>) => boolean;

function expressionHolds(e: unknown, value: string | undefined): boolean {
  const m = rec(e);
  const values = arr(m?.values).filter((v): v is string => typeof v === 'string');
  switch (str(m?.operator)) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      const n = Number(value);
      const bound = Number(values[0]);
      if (value === undefined || !Number.isInteger(n) || !Number.isInteger(bound)) return false;
      return str(m?.operator) === 'Gt' ? n > bound : n < bound;
    }
    default:
      return false;
  }
}

/** The pod's constraints as a test of a Node's name and labels. */
export function nodeMatchOf(pod: ObservedObject): NodeMatch {
  const spec = rec(pod.spec);
  const selector = strings(spec?.nodeSelector);
  const required = rec(rec(rec(spec?.affinity)?.nodeAffinity)?.requiredDuringSchedulingIgnoredDuringExecution);
  const terms = required === undefined ? undefined : arr(required.nodeSelectorTerms);
  return (name, labels) => {
    for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
    if (terms === undefined) return true;
    return terms.some((t) => {
      const term = rec(t);
      const expressions = arr(term?.matchExpressions);
      const fields = arr(term?.matchFields);
      // An empty term matches nothing, as the scheduler reads it.
      if (expressions.length === 0 && fields.length === 0) return false;
      return (
        expressions.every((e) => expressionHolds(e, labels[str(rec(e)?.key) ?? ''])) &&
        fields.every((f) => str(rec(f)?.key) === 'metadata.name' && expressionHolds(f, name))
      );
    });
  };
}
