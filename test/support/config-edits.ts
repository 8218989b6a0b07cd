/** Random edits of a valid config document, for fuzzing the config path. */
import fc from 'fast-check';
import { nodeAt } from './json-tree';
import { Doc } from './valid-config';

/** Every path to a value in `doc`. */
function paths(doc: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(doc)) return [prefix, ...doc.flatMap((v, i) => paths(v, [...prefix, i]))];
  if (doc !== null && typeof doc === 'object') return [prefix, ...Object.entries(doc).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return [prefix];
}

/** One random change of a config document. */
export type Edit = { kind: 'set'; at: number; value: unknown } | { kind: 'drop'; at: number } | { kind: 'duplicate'; at: number };

/** Any value anywhere, a key or entry dropped, an entry duplicated. */
export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    at: fc.nat(),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', '-1', '0', '1e400', 'Team_A', '10Xi', 'nope', '100Gi', 'a'.repeat(300))),
  }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
);

/** `doc` with `e` made (in place). */
export function applyEdit(doc: Doc, e: Edit): Doc {
  const all = paths(doc).filter((p) => p.length > 0);
  const path = all[e.at % all.length];
  const parent = nodeAt(doc, path.slice(0, -1));
  const key = path[path.length - 1];
  if (e.kind === 'set') parent[key] = e.value;
  else if (e.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (Array.isArray(parent)) parent.push(structuredClone(parent[Number(key)]));
  return doc;
}
