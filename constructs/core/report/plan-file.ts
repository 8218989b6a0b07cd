/**
 * Reading a plan back (`metalslice report`, `--previous`, CapacityPlan's previousPlan): the file is read
 * safely and checked against the published schema before anything renders or diffs it, so a plan with a
 * field missing or of the wrong type is a clear error naming the field, never a crash midway.
 */
import Ajv, { ErrorObject } from 'ajv';
import planSchema from '../../../schema/metalslice-plan.schema.json';
import { pointerToPath } from '../input/config-schema';
import { escapeText } from '../base/excerpt';
import { MetalsliceError, PlanIssue } from '../base/errors';
import type { PlanReport } from '../plan/types';
import { readInputFile } from '../input/read-file';
import { checkTextShape } from '../input/input-bounds';
import { MAX_PLAN_CONTAINERS } from '../base/bounds';

/** How many schema problems are listed: a file that is not a plan at all breaks hundreds of rules. */
const MAX_LISTED = 5;

let compiled: ReturnType<Ajv['compile']> | undefined;

function validator(): ReturnType<Ajv['compile']> {
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(planSchema);
  return compiled;
}

function schemaIssue(file: string, error: ErrorObject): PlanIssue {
  return { path: file, message: `${pointerToPath(error.instancePath).replace('(config)', '(plan)')} ${error.message ?? 'is not valid'}` };
}

/**
 * The plan in `file` (a metalslice-plan.json or `metalslice plan --json` output). Throws UnreadableInputError
 * when the file cannot be read, and MetalsliceError when it is not JSON or not a plan of this schema.
 */
export function readPlanFile(file: string): PlanReport {
  const text = readInputFile(file, 'plan');
  const shown = escapeText(file);
  const fix = 'pass a metalslice-plan.json or `metalslice plan --json` output';
  checkTextShape(text, shown, MAX_PLAN_CONTAINERS, 'a plan');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    // The parser's message quotes the input around the error; only its position is kept.
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    throw new MetalsliceError([{ path: shown, message: `is not valid JSON${at !== undefined ? ` (at character ${at})` : ''}: ${fix}` }]);
  }
  const validate = validator();
  if (!validate(parsed)) {
    const errors = validate.errors ?? [];
    const issues = errors.slice(0, MAX_LISTED).map((e) => schemaIssue(shown, e));
    const more = errors.length > MAX_LISTED ? ` (and ${errors.length - MAX_LISTED} more)` : '';
    throw new MetalsliceError([{ path: shown, message: `is not a metalslice plan${more}: ${fix}` }, ...issues]);
  }
  return parsed as PlanReport;
}
