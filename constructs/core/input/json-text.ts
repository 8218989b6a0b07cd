/**
 * JSON text read the fast way when it is plain: JSON.parse takes the last of two equal keys without a word,
 * while the YAML parser (which reads every config) refuses them. So a JSON text is taken from JSON.parse only
 * after a scan finds no object with a key twice; otherwise the caller parses it as YAML and reports the
 * duplicate at its line.
 */

/** The value of `text` if it is JSON with no duplicate key in any object, else undefined. */
export function plainJson(text: string): { readonly value: unknown } | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return hasDuplicateKey(text) ? undefined : { value };
}

/**
 * Whether some object of `text` (valid JSON, as JSON.parse accepted it) names a key twice. Keys are compared
 * decoded, so `"a"` and `"\u0061"` are the same key, as JSON.parse sees them.
 */
export function hasDuplicateKey(text: string): boolean {
  // One entry per open bracket: the keys of an object so far, or null for an array.
  const open: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) open.push(new Set());
    else if (c === 0x5b /* [ */) open.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) open.pop();
    else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const keys = open[open.length - 1];
      if (keys && nextNonSpace(text, end + 1) === 0x3a /* : */) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (keys.has(key)) return true;
        keys.add(key);
      }
      i = end;
    }
  }
  return false;
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return text.length - 1;
}

function nextNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
  }
  return -1;
}
