/**
 * How an input value is quoted in a message: the one owner of the rule that input is never echoed. A message
 * names the path and the type found, and at most a short excerpt of a scalar, escaped so that a newline, a
 * terminal escape sequence or a bidirectional override in the input shows as text (`\n`, `\u001b`), never as
 * what it does. A map, a list or a whole file is described by its size, never printed: a config that is
 * `/proc/self/environ` must not land in a pull-request comment.
 */

/** The most characters of an input string a message quotes: enough to recognise a typo, too few to leak a secret file. */
export const MAX_EXCERPT_CHARS = 40;

/** C0 and C1 controls, DEL, line/paragraph separators and bidirectional formatting: invisible or active in a terminal. */

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/gu;

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '"': '\\"', '\\': '\\\\' };

/** `text` with every unsafe character written as an escape (`\n`, `\u001b`), quotes and backslashes escaped. */
export function escapeText(text: string): string {
  return text.replace(/["\\]/g, (c) => SHORT_ESCAPES[c]).replace(UNSAFE, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` with only the unsafe characters written as escapes (quotes kept): for output that is not a quoted value. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The first `max` characters (code points) of `text`, escaped, with `…` when cut; no quotes around it. */
export function excerptText(text: string, max = MAX_EXCERPT_CHARS): string {
  const chars = Array.from(text.length > max * 2 ? text.slice(0, max * 2) : text);
  const cut = chars.length > max;
  return `${escapeText(chars.slice(0, max).join(''))}${cut ? '…' : ''}`;
}

/** A string input quoted for a message: `"8Gb"`, or `"aaaa…" (1200 characters)` when longer than the excerpt. */
export function excerpt(text: string, max = MAX_EXCERPT_CHARS): string {
  const length = Array.from(text.length > max * 2 ? text.slice(0, max * 2) : text).length;
  if (length <= max) return `"${escapeText(text)}"`;
  return `"${excerptText(text, max)}" (${text.length} characters)`;
}

/**
 * A YAML parser's message about the input, without the input: its first line, with any quoted source text
 * (`Unexpected scalar token in YAML stream: "…"`) replaced by `(…)`. The position is given separately.
 */
export function parserMessage(message: string): string {
  return message.split('\n')[0].replace(/"(?:[^"\\]|\\.)*"?/g, '(…)');
}

/** A number as it is, including what JSON cannot write: `Infinity` (YAML's 1e400 or .inf) and `NaN` (.nan). */
function describeNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN (not a number)';
  if (!Number.isFinite(n)) return `${n > 0 ? '' : '-'}Infinity (a number too large to hold)`;
  return String(n);
}

/**
 * Any input value as a message quotes it after "got": a scalar as a short escaped excerpt, a map or a list
 * by its type and size only, so that no input beyond a few characters of one scalar is ever echoed.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return excerpt(value);
  if (typeof value === 'number') return describeNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return `${excerptText(value.toString())} (a whole number too large to hold)`;
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).length;
    return `a map of ${keys} key${keys === 1 ? '' : 's'}`;
  }
  return `a ${typeof value}`;
}

/**
 * Only the type and size of a value, no excerpt at all: for a whole document that is not a map, which is a
 * file named by mistake (or `/proc/self/environ` on purpose), where even 40 characters may be a secret.
 */
export function describeType(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `a ${typeof value === 'bigint' ? 'number' : typeof value}`;
  return describeValue(value);
}

/** A map key as it appears in a path (`labels["a.b/c"]`): escaped and capped like an excerpt, so a path never carries raw input either. */
export function pathKey(key: string): string {
  return excerptText(key, 63);
}
