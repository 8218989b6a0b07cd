/**
 * vCluster's own chart JSON Schema (vendor/vcluster/v0.36.1, draft 2020-12), the first judge of a
 * vcluster.yaml: Helm refuses values that break it, and vCluster's strict decoder refuses the same
 * unknown fields and wrong types. Errors are turned into metalslice issues with the path in the file and,
 * for a misspelled key, the key it most likely meant.
 */
import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import schemaJson from '../../../vendor/vcluster/v0.36.1/values.schema.json';
import { childPath, PlanIssue } from '../base/errors';
import { excerpt } from '../base/excerpt';
import { didYouMean, schemaValueMessage } from './schema-messages';

/** The vCluster release whose schema and validation rules metalslice follows. */
export const VCLUSTER_VERSION = 'v0.36.1';
/** The oldest release with today's autoNodes shape (a list of entries, provider per entry, nodeTypeSelector). */
export const VCLUSTER_AUTONODES_SINCE = 'v0.30';

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  // strict: false: the schema is vCluster's, written for its generator, not for Ajv's strict mode.
  compiled ??= new Ajv2020({ allErrors: true, strict: false, verbose: true }).compile(schemaJson as object);
  return compiled;
}

/** `/privateNodes/autoNodes/0/static` -> `privateNodes.autoNodes[0].static`, under `prefix`. */
export function pointerPath(prefix: string, pointer: string): string {
  const out = pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>((acc, part) => childPath(acc, /^\d+$/.test(part) ? Number(part) : part), prefix);
  return out === '' ? '(vcluster.yaml)' : out;
}

function describe(error: ErrorObject, prefix: string): PlanIssue {
  const at = pointerPath(prefix, error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = didYouMean(key, known);
      const fix = guess !== undefined ? `did you mean "${guess}"?` : known.length > 0 ? `known fields here: ${known.join(', ')}` : 'remove it';
      return {
        path: pointerPath(prefix, `${error.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
        message: `vCluster ${VCLUSTER_VERSION} has no field ${excerpt(key)} here: ${fix}`,
      };
    }
    case 'required': {
      const key = (error.params as { missingProperty: string }).missingProperty;
      return { path: pointerPath(prefix, `${error.instancePath}/${key}`), message: `${key} is required` };
    }
    default:
      return { path: at, message: schemaValueMessage(error) };
  }
}

/**
 * Every way `doc` breaks vCluster's chart schema, once per path and message. `skip` holds instance
 * pointers whose errors are already reported better (an older shape, explained by its own issue).
 */
export function schemaIssues(doc: unknown, prefix: string, skip: (pointer: string) => boolean = () => false): PlanIssue[] {
  const validate = validator();
  if (validate(doc)) return [];
  const seen = new Set<string>();
  const out: PlanIssue[] = [];
  for (const error of validate.errors ?? []) {
    // A oneOf/anyOf/if branch failing is reported by the branch's own errors.
    if (['oneOf', 'anyOf', 'if', 'not'].includes(error.keyword)) continue;
    const pointer =
      error.keyword === 'additionalProperties'
        ? `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`
        : error.instancePath;
    if (skip(pointer)) continue;
    const issue = describe(error, prefix);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}
