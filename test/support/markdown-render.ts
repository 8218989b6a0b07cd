/**
 * Markdown rendered by the renderer scripts/report-html.mjs uses (`marked`, GitHub-flavoured), in a child Node:
 * marked is ESM only. Tests judge the Markdown a reviewer opens by what a real renderer makes of it.
 */
import { spawnSync } from 'child_process';
import { REPO_ROOT } from './models';

/** What marked makes of a Markdown text: its HTML, and the cells of every table (header row first). */
export interface RenderedMarkdown {
  readonly html: string;
  readonly tables: string[][][];
}

const SCRIPT = `
import { marked } from 'marked';
let md = '';
for await (const chunk of process.stdin) md += chunk;
const tables = [];
marked.walkTokens(marked.lexer(md, { gfm: true }), (t) => {
  if (t.type === 'table') tables.push([t.header.map((c) => c.text), ...t.rows.map((r) => r.map((c) => c.text))]);
});
process.stdout.write(JSON.stringify({ html: marked.parse(md, { gfm: true, async: false }), tables }));
`;

export function renderMarkdown(markdown: string): RenderedMarkdown {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: REPO_ROOT,
    input: markdown,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`marked failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as RenderedMarkdown;
}

/** Elements and attributes a hostile value must never become: an image, a script, a frame, an event handler. */
export function injectedMarkup(html: string): string[] {
  const found = [
    ...html.matchAll(/<(img|script|iframe|object|embed|svg|style|link|meta|form|input)\b/gi),
    ...html.matchAll(/<[a-z][^>]*\son[a-z]+\s*=/gi),
    ...html.matchAll(/<!--(?!metalslice-chart)/g),
  ];
  return found.map((m) => m[0]);
}
