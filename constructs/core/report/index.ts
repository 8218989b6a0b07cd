/**
 * Plan reports: for people in a terminal (text), for pull requests (Markdown, optionally bounded), for
 * machines (stable JSON, whose shape `schema/metalslice-plan.schema.json` publishes).
 */
import type { PlanReport } from '../plan/types';
import type { PlanChanges } from '../plan/change/diff';
import { stringify } from 'yaml';
import { jsonText } from './escape';

export { diffPlans, hasChanges } from '../plan/change/diff';
export { rollProblems } from '../plan/change/running-roll';
export { summarizeChanges } from './changes';
export type { PlanChanges, PoolChange, ResourceDelta } from '../plan/change/diff';
export { renderPlanMarkdown, DEFAULT_FULL_REPORT } from './markdown';
export type { MarkdownOptions } from './markdown';
export { renderPlanText } from './text';
export type { TextOptions } from './text';
export { readable, readableResources } from '../base/units';

/** JSON with a trailing newline; key order is the order the report builds them in, which is fixed. */
export function stableJson(value: unknown): string {
  return `${jsonText(JSON.stringify(value, null, 2))}\n`;
}

/** The JSON document `metalslice plan --json` prints: the report, and what changed when there is a previous plan. */
export function planJson(report: PlanReport, changes?: PlanChanges): string {
  return stableJson(changes ? { ...report, changes } : report);
}

/**
 * The same document as YAML (`-o yaml`): strings double-quoted, and every character JSON output escapes
 * written as a YAML escape, so a terminal shows what the input held instead of acting on it.
 */
export function planYaml(report: PlanReport, changes?: PlanChanges): string {
  const data = JSON.parse(planJson(report, changes)) as unknown;
  return jsonText(stringify(data, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 }));
}
export { readPlanFile } from './plan-file';
export { renderGithubAnnotations } from './annotations';
export type { AnnotationOptions } from './annotations';
