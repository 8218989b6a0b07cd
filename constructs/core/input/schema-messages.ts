/**
 * JSON Schema errors in plain English, for both schemas metalslice judges input by: its own config schema
 * (config-schema.ts) and vCluster's chart schema (vcluster-schema.ts). The type names, the sentence for
 * each value keyword and the typo guess live here once; each caller words only unknown and missing fields,
 * because those name whose schema refused the input.
 */
import type { ErrorObject } from 'ajv';
import leven from 'leven';
import { describeType, describeValue } from '../base/excerpt';
import { HOST_GROUP_KEY_PATTERN, HOST_GROUP_KEY_PROBLEM } from './host-group-key';

/** How a JSON Schema type (or Ajv's comma-joined list of types) reads in a sentence. */
const TYPE_NOUNS: Readonly<Record<string, string>> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  object: 'a map',
  'string,number': 'a string or a number',
};

/** The closest of `candidates` to `word`, when it is close enough to be a typo. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = leven(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** The value an error is about: its type for the whole document, else an excerpt of the value itself. */
function got(error: ErrorObject): string {
  return error.instancePath === '' ? describeType(error.data) : describeValue(error.data);
}

/** Param `name` of an Ajv error (typed by keyword in Ajv; read here by name). */
function param<T>(error: ErrorObject, name: string): T {
  return (error.params as Record<string, T>)[name];
}

/** `must be a whole number (got "4")`, with a hint to quote a number or boolean where a string is wanted. */
function typeMessage(error: ErrorObject): string {
  const want = String(param<string | string[]>(error, 'type'));
  const hint = want === 'string' && (typeof error.data === 'number' || typeof error.data === 'boolean') ? `: quote it ("${String(error.data)}")` : '';
  return `must be ${TYPE_NOUNS[want] ?? want.replace(',', ' or ')} (got ${got(error)})${hint}`;
}

/**
 * The message for an error about a value (its type, allowed values, bounds, length), or, for a keyword
 * with no sentence of its own, Ajv's message. Unknown and missing fields are the caller's to word.
 */
export function schemaValueMessage(error: ErrorObject): string {
  switch (error.keyword) {
    case 'type':
      return typeMessage(error);
    case 'enum':
      return `must be one of ${param<unknown[]>(error, 'allowedValues')
        .map((v) => JSON.stringify(v))
        .join(', ')}`;
    case 'minimum':
      return `must be ${param<number>(error, 'limit')} or more (got ${got(error)})`;
    case 'exclusiveMinimum':
      return `must be more than ${param<number>(error, 'limit')} (got ${got(error)})`;
    case 'maximum':
      return `must be ${param<number>(error, 'limit')} or less (got ${got(error)})`;
    case 'maxItems':
      return `must have at most ${param<number>(error, 'limit')} items (got ${describeValue(error.data)}): split it`;
    case 'maxLength':
      return `must be at most ${param<number>(error, 'limit')} characters (got ${describeValue(error.data)})`;
    case 'pattern':
      return param<string>(error, 'pattern') === HOST_GROUP_KEY_PATTERN ? HOST_GROUP_KEY_PROBLEM : (error.message ?? 'is not valid');
    default:
      return error.message ?? 'is not valid';
  }
}
