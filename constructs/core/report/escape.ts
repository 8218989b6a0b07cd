/**
 * Escaping what a report prints, one function per output kind: every value in a report may come from input
 * (a name, a label, a message quoting a value, or a whole plan JSON given to `metalslice report`), so none
 * reaches a terminal, a pull-request comment or a JSON consumer as markup or control characters.
 */
import { escapeControls } from '../base/excerpt';

/** Characters that start Markdown or HTML markup anywhere outside a code span: emphasis, links, images, HTML, comments, cells, code. */
const MARKDOWN_META = /[\\*_[\]~<>&|`]/g;
/** What starts a block only at the start of a line: a heading, a quote, a list item, a rule. */
const BLOCK_START = /^(\s*)([#>+=-]|\d+[.)])/;
const HTML_ENTITY: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/** A code span of `text`: from the first backtick of its opening run to the last of its closing run. */
interface CodeSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * The code spans of `text` as CommonMark pairs them: a run of n backticks opens a span that the next run of
 * exactly n backticks closes; a run with no such partner is literal text. Pairing single backticks only (as a
 * regular expression does) would let a run of three end a span early and leave the rest of the input as markup.
 */
export function codeSpans(text: string): CodeSpan[] {
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ start: m.index, length: m[0].length }));
  // The next run of the same length, for every run, found in one pass from the end.
  const nextSame: (number | undefined)[] = [];
  const latest = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    nextSame[i] = latest.get(runs[i].length);
    latest.set(runs[i].length, i);
  }
  const spans: CodeSpan[] = [];
  for (let i = 0; i < runs.length; i++) {
    const close = nextSame[i];
    if (close === undefined) continue;
    spans.push({ start: runs[i].start, end: runs[close].start + runs[close].length });
    i = close;
  }
  return spans;
}

/** Text outside any code span: every Markdown and HTML metacharacter made literal (an entity or a backslash). */
function literal(text: string): string {
  return text.replace(MARKDOWN_META, (c) => HTML_ENTITY[c] ?? `\\${c}`);
}

/**
 * Text for Markdown: control characters and newlines as escapes (one item stays one line), HTML metacharacters
 * as entities (no `<!--` hides the rest of a comment, no `<img>` loads), and Markdown metacharacters
 * backslash-escaped (no link or image). Inline code spans (the report's own, `quotas[0].limits`) are kept as
 * code, paired as CommonMark pairs them, whatever backticks the input holds: inside a span Markdown and HTML
 * are shown, never interpreted. `lineStart`: the text starts a line, so a leading `#`, `>`, `-` or `1.` is
 * escaped too (no heading, quote or list).
 */
export function markdownText(text: string, lineStart = false): string {
  const safe = escapeControls(text);
  let out = '';
  let from = 0;
  for (const span of codeSpans(safe)) {
    out += literal(safe.slice(from, span.start)) + safe.slice(span.start, span.end);
    from = span.end;
  }
  out += literal(safe.slice(from));
  return lineStart ? out.replace(BLOCK_START, '$1\\$2') : out;
}

/**
 * Text for a Markdown table cell: no code span at all (a `|` inside one would still split the cell in GitHub's
 * tables), every metacharacter, backtick and `|` made literal, so a cell stays one cell whatever it holds.
 */
export function markdownCell(text: string): string {
  return literal(escapeControls(text));
}

/** Text for a terminal: control characters (escape sequences, carriage returns, newlines) shown as escapes. */
export function terminalText(text: string): string {
  return escapeControls(text);
}

/** A Mermaid label: control characters escaped, and no quote, bracket or markup character that would end the label. */
export function mermaidLabel(text: string): string {
  return escapeControls(text).replace(/["[\]{}<>|`#;&\\]/g, ' ');
}

/**
 * JSON text made safe to print: JSON.stringify already escapes C0 controls; this also escapes DEL, the C1
 * controls (U+009B is a terminal's CSI), line separators and bidirectional overrides, which JSON allows raw.
 */
export function jsonText(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
