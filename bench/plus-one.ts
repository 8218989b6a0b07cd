/**
 * What the deploy bench's +1 plan may change: scaling a pool by one must change exactly that node. Besides the
 * node's new instances, the one thing allowed is the grown pool's host group taking hosts: its label added to
 * Nodes, as an in-place update of a `kubernetes_labels` instance that changes nothing but that key (absent
 * before, "true" after), or as a new instance, for a host in no group yet, that holds only that key.
 */

/** One entry of `tofu show -json`'s `resource_changes`, as far as the judgement reads it. */
export interface ResourceChange {
  readonly address: string;
  readonly type: string;
  readonly change: {
    readonly actions: readonly string[];
    readonly before?: { labels?: Record<string, string>; [attribute: string]: unknown } | null;
    readonly after?: { labels?: Record<string, string>; [attribute: string]: unknown } | null;
  };
}

/** The judgement of one stack's +1 plan. */
export interface PlusOneJudgement {
  /** Every change beyond the node's instances and the grown pool's label: `address (actions)`. */
  readonly unexpected: string[];
  /** Nodes that take the grown pool's label. */
  readonly labelled: number;
  /** Of those, the ones whose `kubernetes_labels` instance is new (not the node's instances). */
  readonly labelCreates: number;
}

/** An object's JSON with its keys in order, for comparing two. */
function canonical(o: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** Whether a change of a `kubernetes_labels` instance only gives its Node the grown pool's label. */
function onlyTakesLabel(rc: ResourceChange, grownLabel: string): boolean {
  const actions = rc.change.actions.join(',');
  if (rc.type !== 'kubernetes_labels' || (actions !== 'create' && actions !== 'update')) return false;
  const { labels: before = {}, ...beforeRest } = rc.change.before ?? {};
  const { labels: after = {}, ...afterRest } = rc.change.after ?? {};
  if (before[grownLabel] !== undefined || canonical(after) !== canonical({ ...before, [grownLabel]: 'true' })) return false;
  return actions === 'create' || canonical(beforeRest) === canonical(afterRest);
}

/** Judges a stack's +1 plan: creates of other types are the node's; every other change must only take the label. */
export function judgePlusOne(changes: readonly ResourceChange[], grownLabel: string): PlusOneJudgement {
  const out = { unexpected: [] as string[], labelled: 0, labelCreates: 0 };
  for (const rc of changes) {
    const actions = rc.change.actions.join(',');
    if (actions === 'no-op' || actions === 'read' || (actions === 'create' && rc.type !== 'kubernetes_labels')) continue;
    if (!onlyTakesLabel(rc, grownLabel)) out.unexpected.push(`${rc.address} (${actions})`);
    else {
      out.labelled++;
      if (actions === 'create') out.labelCreates++;
    }
  }
  return out;
}
