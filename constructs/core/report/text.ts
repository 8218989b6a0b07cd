/**
 * The review for a terminal, as `tofu plan` prints its own: aligned tables sized to the terminal's width,
 * colour only when asked for (a TTY without NO_COLOR; the CLI decides). The diagrams are Markdown's.
 */
import { terminalText } from './escape';
import type { PlanReport } from '../plan/types';
import type { PlanChanges } from '../plan/change/diff';
import { Block, Column, planDocument, Tone } from './document';

export interface TextOptions {
  /** Terminal width in columns. @default - no limit (not a terminal: a log or a file) */
  readonly width?: number;
  /** ANSI colours. @default false */
  readonly color?: boolean;
}

const ANSI: Record<Tone | 'heading' | 'dim', string> = { ok: '32', warning: '33', error: '31', change: '36', plain: '', heading: '1', dim: '2' };
const SIGN: Record<Tone, string> = { ok: '✓ ', warning: '! ', error: '✗ ', change: '~ ', plain: '' };
const GAP = '  ';
/** Indent of a table row's fields when the table is too wide and each row is printed as a record. */
const RECORD_INDENT = '    ';

function paint(text: string, code: string, color: boolean): string {
  return color && code !== '' ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** Inline code marks are Markdown's; a terminal shows the text. */
function plain(text: string): string {
  return terminalText(text.replace(/`/g, ''));
}

/**
 * `text` broken at spaces into lines of at most `width` (the first after `first`, the others after `rest`); a
 * word longer than a line stays whole on its own line: names and numbers are never cut.
 */
export function wrapWords(text: string, width: number, first = '', rest = first): string {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

const BAR = / [█░]+!?$/;

function tableWidth(columns: readonly Column[], rows: readonly (readonly string[])[]): number {
  return columns.reduce((n, c, i) => n + Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)), 0) + GAP.length * (columns.length - 1);
}

/**
 * A table too wide for the terminal even without its bars: each row as a record, its first cell (the name) on
 * a line of its own and the other cells as `header: value`, wrapped between fields, never inside one.
 */
function renderRecords(b: Extract<Block, { kind: 'table' }>, o: Required<TextOptions>): string {
  return b.rows
    .map((row) => {
      const fields = row.slice(1).map((cell, i) => `${b.columns[i + 1].header}: ${cell}`);
      const lines: string[] = [paint(`${b.columns[0].header} ${row[0]}`, ANSI.heading, o.color)];
      let line = RECORD_INDENT;
      for (const field of fields) {
        if (line !== RECORD_INDENT && line.length + GAP.length + field.length > o.width) {
          lines.push(line);
          line = RECORD_INDENT;
        }
        line = line === RECORD_INDENT ? line + field : `${line}${GAP}${field}`;
      }
      if (line !== RECORD_INDENT) lines.push(line);
      return lines.join('\n');
    })
    .join('\n');
}

function renderTable(raw: Extract<Block, { kind: 'table' }>, o: Required<TextOptions>): string {
  const table = { ...raw, rows: raw.rows.map((r) => r.map(terminalText)) };
  // Too wide: the bars go first (the percentage stays), then each row becomes a record; nothing is cut.
  const b = tableWidth(table.columns, table.rows) <= o.width ? table : { ...table, rows: table.rows.map((r) => r.map((c) => c.replace(BAR, ''))) };
  if (tableWidth(b.columns, b.rows) > o.width) return renderRecords(b, o);
  const widths = b.columns.map((c, i) => Math.max(c.header.length, ...b.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (b.columns[i].align === 'right' ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join(GAP)
      .trimEnd();
  const head = paint(line(b.columns.map((c) => c.header)), ANSI.dim, o.color);
  return [head, ...b.rows.map(line)].join('\n');
}

/** Lines of prose (the verdict, problems, warnings), wrapped to the terminal under their sign. */
function renderLines(b: Extract<Block, { kind: 'lines' }>, o: Required<TextOptions>): string {
  const sign = b.bullets ? `  ${SIGN[b.tone] || '- '}` : SIGN[b.tone];
  return b.items.map((i) => paint(wrapWords(plain(i), o.width, sign, ' '.repeat(sign.length)), ANSI[b.tone], o.color)).join('\n');
}

function renderBlock(b: Block, o: Required<TextOptions>): string {
  switch (b.kind) {
    case 'title':
      return paint(terminalText(b.text), ANSI.heading, o.color);
    case 'heading':
      return paint(`${terminalText(b.text)}:`, ANSI.heading, o.color);
    case 'lines':
      return renderLines(b, o);
    case 'table':
      return renderTable(b, o);
    case 'mermaid':
      return '';
  }
}

export function renderPlanText(report: PlanReport, changes?: PlanChanges, options: TextOptions = {}): string {
  const o: Required<TextOptions> = { width: options.width === undefined ? Infinity : Math.max(40, options.width), color: options.color ?? false };
  const blocks = planDocument(report, changes).filter((b) => b.kind !== 'mermaid' && !(b.kind === 'heading' && b.text === 'Picture'));
  return `${blocks
    .map((b) => renderBlock(b, o))
    .filter((t) => t !== '')
    .join('\n\n')}\n`;
}
