/**
 * The review for a terminal, as `tofu plan` prints its own: aligned tables sized to the terminal's width,
 * colour only when asked for (a TTY without NO_COLOR; the CLI decides). The diagrams are Markdown's.
 */
import { terminalText } from './escape';
import type { PlanReport } from '../plan';
import type { PlanChanges } from './diff';
import { Block, Column, planDocument, Tone } from './document';

export interface TextOptions {
  /** Terminal width in columns. @default - no limit (not a terminal: a log or a file) */
  readonly width?: number;
  /** ANSI colours. @default false */
  readonly color?: boolean;
}

const ANSI: Record<Tone | 'heading' | 'dim', string> = { ok: '32', warning: '33', error: '31', change: '36', plain: '', heading: '1', dim: '2' };
const SIGN: Record<Tone, string> = { ok: '✓ ', warning: '! ', error: '✗ ', change: '~ ', plain: '' };
/** Narrowest a column is cut to before the table is left wider than the terminal. */
const MIN_COLUMN = 6;
const GAP = '  ';

function paint(text: string, code: string, color: boolean): string {
  return color && code !== '' ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** Inline code marks are Markdown's; a terminal shows the text. */
function plain(text: string): string {
  return terminalText(text.replace(/`/g, ''));
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

const BAR = / [█░]+!?$/;

/** Column widths: natural, then the widest cut down one by one until the table fits `width`. */
function fitWidths(columns: readonly Column[], rows: readonly (readonly string[])[], width: number): number[] {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)));
  const total = () => widths.reduce((n, w) => n + w, 0) + GAP.length * (widths.length - 1);
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= MIN_COLUMN) break;
    widths[widest] = Math.max(MIN_COLUMN, widths[widest] - (total() - width));
  }
  return widths;
}

function tableWidth(columns: readonly Column[], rows: readonly (readonly string[])[]): number {
  return columns.reduce((n, c, i) => n + Math.max(c.header.length, ...rows.map((r) => (r[i] ?? '').length)), 0) + GAP.length * (columns.length - 1);
}

function renderTable(raw: Extract<Block, { kind: 'table' }>, o: Required<TextOptions>): string {
  const table = { ...raw, rows: raw.rows.map((r) => r.map(terminalText)) };
  // Too wide: the bars go first (the percentage stays), then the widest columns are cut.
  const b = tableWidth(table.columns, table.rows) <= o.width ? table : { ...table, rows: table.rows.map((r) => r.map((c) => c.replace(BAR, ''))) };
  const widths = fitWidths(b.columns, b.rows, o.width);
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => {
        const text = cut(c, widths[i]);
        return b.columns[i].align === 'right' ? text.padStart(widths[i]) : text.padEnd(widths[i]);
      })
      .join(GAP)
      .trimEnd();
  const head = paint(line(b.columns.map((c) => c.header)), ANSI.dim, o.color);
  return [head, ...b.rows.map(line)].join('\n');
}

function renderLines(b: Extract<Block, { kind: 'lines' }>, o: Required<TextOptions>): string {
  return b.items.map((i) => paint(`${b.bullets ? `  ${SIGN[b.tone] || '- '}` : SIGN[b.tone]}${plain(i)}`, ANSI[b.tone], o.color)).join('\n');
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
