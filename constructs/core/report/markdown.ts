/**
 * The review as Markdown, for pull requests. Long tables fold into <details>. With a size limit (a GitHub
 * comment holds 65,536 characters) the verdict, headroom, changes, problems and warnings stay whole, and the
 * tables, in order, keep as many rows as fit; a last line says how many rows were left out and where the
 * full report is.
 */
import { markdownCell, markdownText } from './escape';
import type { PlanReport } from '../plan/types';
import type { PlanChanges } from '../plan/change/diff';
import { Block, Column, planDocument, Tone } from './document';
import { count } from '../base/units';

/** Tables longer than this fold into a <details> block. */
const FOLD_ROWS = 15;
/** Room kept for the closing line and the notes of cut tables. */
const TRAILER_ROOM = 400;

export interface MarkdownOptions {
  /** At most this many characters (0 or undefined: no limit). */
  readonly maxChars?: number;
  /** Where the full report is, named in the closing line when rows are left out. */
  readonly fullReport?: string;
}

export const DEFAULT_FULL_REPORT =
  '`metalslice-plan.md` and `metalslice-plan.json`, written beside `cdk.tf.json` by `cdktf synth` (or `metalslice plan --markdown --max-chars 0`)';

const MARK: Record<Tone, string> = { ok: '✅ ', warning: '⚠️ ', error: '❌ ', change: '', plain: '' };

function tableHead(columns: readonly Column[]): string {
  return `| ${columns.map((c) => markdownCell(c.header)).join(' | ')} |\n| ${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`;
}

function tableRow(row: readonly string[]): string {
  return `| ${row.map(markdownCell).join(' | ')} |`;
}

/** What stands for a table none of whose rows fit. */
function leftOutNote(b: Extract<Block, { kind: 'table' }>): string {
  return `_${b.name}: all ${count(b.rows.length)} rows left out here to keep this comment within its size limit._`;
}

/** A table with `rows` of its rows, folded when long, with a note for the rows left out. */
function renderTable(b: Extract<Block, { kind: 'table' }>, kept: number): string {
  if (kept === 0 && b.rows.length > 0) return leftOutNote(b);
  const body = [tableHead(b.columns), ...b.rows.slice(0, kept).map(tableRow)].join('\n');
  const left = b.rows.length - kept;
  const note = left > 0 ? `\n\n_${count(left)} of ${count(b.rows.length)} rows of ${b.name} left out here to keep this comment within its size limit._` : '';
  if (b.rows.length <= FOLD_ROWS) return `${body}${note}`;
  return `<details><summary>${b.name}: ${count(b.rows.length)} rows</summary>\n\n${body}${note}\n\n</details>`;
}

function renderLines(b: Extract<Block, { kind: 'lines' }>): string {
  if (b.bullets) return b.items.map((i) => `- ${markdownText(i)}`).join('\n');
  return b.items.map((i) => `${MARK[b.tone]}${b.tone === 'plain' ? markdownText(i, MARK[b.tone] === '') : `**${markdownText(i)}**`}`).join('\n\n');
}

function renderBlock(b: Block): string {
  switch (b.kind) {
    case 'title':
      return `# ${markdownText(b.text)}`;
    case 'heading':
      return `## ${markdownText(b.text)}`;
    case 'lines':
      return renderLines(b);
    case 'table':
      return renderTable(b, b.rows.length);
    case 'mermaid':
      return `\`\`\`mermaid\n${b.code}\n\`\`\``;
  }
}

function join(parts: readonly string[]): string {
  return `${parts.filter((p) => p !== '').join('\n\n')}\n`;
}

/** An item longer than this is cut when whole blocks alone overflow the limit (one problem quoting a huge value). */
const LONG_ITEM = 400;
/** What an item is cut to. */
const CUT_ITEM = 200;

/** The size of the blocks kept whole (all but tables and charts), as rendered. */
function wholeSize(blocks: readonly Block[]): number {
  return blocks.filter((b) => b.kind !== 'table' && b.kind !== 'mermaid').reduce((n, b) => n + renderBlock(b).length + 2, 0);
}

/**
 * Whole blocks too long on their own (thousands of problems): keep the first items of the longest lists. A list
 * of two (one item and its "more" line) is as short as halving makes it.
 */
function halveLists(out: Block[], budget: number): void {
  const items = (b: Block): number => (b.kind === 'lines' ? b.items.length : 0);
  while (wholeSize(out) > budget) {
    const i = out.reduce((best, b, k) => (items(b) > 2 && (best < 0 || items(b) > items(out[best])) ? k : best), -1);
    if (i < 0) return;
    const b = out[i] as Extract<Block, { kind: 'lines' }>;
    const keep = Math.floor(b.items.length / 2);
    out[i] = { ...b, items: [...b.items.slice(0, keep), `... and ${count(b.items.length - keep)} more, in the full report`] };
  }
}

/** Items still too long (one problem quoting a huge value): cut the longest, before escaping, until the blocks fit. */
function cutLongItems(out: Block[], budget: number): void {
  while (wholeSize(out) > budget) {
    let at: [number, number] | undefined;
    out.forEach((b, k) => {
      if (b.kind !== 'lines') return;
      b.items.forEach((item, j) => {
        if (item.length > LONG_ITEM && (!at || item.length > (out[at[0]] as Extract<Block, { kind: 'lines' }>).items[at[1]].length)) at = [k, j];
      });
    });
    if (!at) return;
    const b = out[at[0]] as Extract<Block, { kind: 'lines' }>;
    const item = b.items[at[1]];
    const cut = `${item.slice(0, CUT_ITEM)}… (${count(item.length - CUT_ITEM)} more characters in the full report)`;
    out[at[0]] = { ...b, items: b.items.map((x, j) => (j === at![1] ? cut : x)) };
  }
}

function shrinkWhole(blocks: readonly Block[], budget: number): Block[] {
  const out = [...blocks];
  halveLists(out, budget);
  cutLongItems(out, budget);
  return out;
}

/** How many rows of a table fit in `room` characters. */
function rowsThatFit(b: Extract<Block, { kind: 'table' }>, room: number): number {
  if (renderTable(b, b.rows.length).length <= room) return b.rows.length;
  let size = renderTable(b, 1).length - tableRow(b.rows[0]).length - 1;
  let kept = 0;
  while (kept < b.rows.length && size + tableRow(b.rows[kept]).length + 1 <= room) size += tableRow(b.rows[kept++]).length + 1;
  return kept > 0 && size <= room ? kept : leftOutNote(b).length <= room ? 0 : -1;
}

function boundedMarkdown(blocks: readonly Block[], maxChars: number, fullReport: string): string {
  const shrunk = shrinkWhole(blocks, maxChars - TRAILER_ROOM);
  // Whole blocks, and the note of every table, always keep their room.
  const whole = shrunk.map((b) => (b.kind === 'table' ? leftOutNote(b).length + 2 : b.kind === 'mermaid' ? 0 : renderBlock(b).length + 2));
  const wholeAfter = whole.map((_, i) => whole.slice(i + 1).reduce((n, w) => n + w, 0));
  const parts: string[] = [];
  let used = 0;
  let leftOut = 0;
  shrunk.forEach((b, i) => {
    const room = maxChars - TRAILER_ROOM - used - wholeAfter[i] - 2;
    let text = renderBlock(b);
    if (b.kind === 'table') {
      const kept = rowsThatFit(b, room);
      leftOut += b.rows.length - Math.max(0, kept);
      text = kept < 0 ? '' : renderTable(b, kept);
    } else if (b.kind === 'mermaid' && text.length > room) {
      text = '';
    }
    parts.push(text);
    used += text.length + 2;
  });
  if (leftOut > 0)
    parts.push(`**${count(leftOut)} rows left out to keep this within ${count(maxChars)} characters.** The full report: ${markdownText(fullReport)}.`);
  return join(parts);
}

export function renderPlanMarkdown(report: PlanReport, changes?: PlanChanges, options: MarkdownOptions = {}): string {
  const blocks = planDocument(report, changes);
  const full = join(blocks.map(renderBlock));
  if (!options.maxChars || full.length <= options.maxChars) return full;
  const bounded = boundedMarkdown(blocks, options.maxChars, options.fullReport ?? DEFAULT_FULL_REPORT);
  return bounded.length <= options.maxChars ? bounded : tooLong(options.maxChars);
}

/** What stands for a report that does not fit even cut down (a limit of a few hundred characters): the limit is kept. */
function tooLong(maxChars: number): string {
  const text = `The plan report does not fit in ${count(maxChars)} characters: see the full report.\n`;
  return text.length <= maxChars ? text : '';
}
