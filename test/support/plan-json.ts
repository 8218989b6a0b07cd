import { PlanReport } from '../../constructs/core/plan';
import { PlanChanges } from '../../constructs/core/plan/change/diff';

/** What `metalslice plan --json` prints: the report, and its changes when a previous plan was given. */
export type PlanJson = PlanReport & { readonly changes?: PlanChanges };

/** The parts of a plan JSON the tests edit to make a "previous" plan. */
export interface EditablePlanJson {
  pools: { nodes: { host: string | null }[] }[];
}

/** Parses the JSON the CLI printed as a plan report. */
export function parsePlanJson(text: string): PlanJson {
  return JSON.parse(text) as PlanJson;
}
