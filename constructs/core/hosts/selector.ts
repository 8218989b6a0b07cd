/** Which hosts a metal3 node type's hostSelector picks: matchLabels and every matchExpression, as Kubernetes matches a label selector. */
import { LabelSelector, Labels } from '../input/model';

/** Kubernetes label selector semantics (matchLabels AND every matchExpression). */
export function matchesLabelSelector(labels: Labels, selector: LabelSelector): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[e.key])) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[e.key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
