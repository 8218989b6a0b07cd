/**
 * Escaping what a report prints, one function per output kind: every value in a report may come from input
 * (a name, a label, a message quoting a value, or a whole plan JSON given to `metalslice report`), so none
 * reaches a terminal, a pull-request comment or a JSON consumer as markup or control characters.
 */
import { escapeControls } from '../base/excerpt';

/** Markdown inline-code spans the report itself writes (`quotas[0].limits`): kept, with their content made safe. */
const CODE_SPAN = /(`[^`\n]*`)/;

/** Characters that start Markdown or HTML markup anywhere outside a code span: emphasis, links, images, HTML, comments, cells. */
const MARKDOWN_META = /[\\*_[\]~<>&|]/g;
/** What starts a block only at the start of a line: a heading, a quote, a list item, a rule. */
const BLOCK_START = /^(\s*)([#>+=-]|\d+[.)])/;
const HTML_ENTITY: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Text for Markdown: control characters and newlines as escapes (one item stays one line), HTML metacharacters
 * as entities (no `<!--` hides the rest of a comment, no `<img>` loads), and Markdown metacharacters
 * backslash-escaped (no link or image); the report's own inline code spans are kept as code. `lineStart`: the
 * text starts a line, so a leading `#`, `>`, `-` or `1.` is escaped too (no heading, quote or list).
 */
export function markdownText(text: string, lineStart = false): string {
  const inline = escapeControls(text)
    .split(CODE_SPAN)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(MARKDOWN_META, (c) => HTML_ENTITY[c] ?? `\\${c}`)))
    .join('');
  return lineStart ? inline.replace(BLOCK_START, '$1\\$2') : inline;
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
