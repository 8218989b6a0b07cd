/** Editing a parsed JSON/YAML document at a path, for tests that break one place of a valid input. */

/** An object or array node of a parsed document. */
export type JsonNode = Record<string | number, unknown>;

function isNode(value: unknown): value is JsonNode {
  return typeof value === 'object' && value !== null;
}

/** The node at `path` (every step but the last must be an object or array). */
export function nodeAt(doc: unknown, path: readonly (string | number)[]): JsonNode {
  let at: unknown = doc;
  for (const [i, key] of path.entries()) {
    if (!isNode(at)) throw new Error(`no object at ${path.slice(0, i).join('.') || 'the root'}`);
    at = at[key];
  }
  if (!isNode(at)) throw new Error(`no object at ${path.join('.')}`);
  return at;
}

/** Sets (or with `undefined`, deletes) the value at `path`. */
export function setAt(doc: unknown, path: readonly (string | number)[], value: unknown): void {
  const parent = nodeAt(doc, path.slice(0, -1));
  const key = path[path.length - 1];
  if (value === undefined) delete parent[key];
  else parent[key] = value;
}
