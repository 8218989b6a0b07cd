/**
 * Every value a report prints is escaped for its output: a name or message holding newlines, Markdown, HTML or a
 * terminal escape sequence prints as text, in Markdown (a pull-request comment), text (a terminal) and JSON.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadConfigFile, parseConfigText } from '../../constructs/core/input/config';
import { planModel, PlanReport } from '../../constructs/core/plan';
import { diffPlans, planJson, renderPlanMarkdown, renderPlanText } from '../../constructs/core/report';
import { REPO_ROOT } from '../support/models';
import { injectedMarkup, renderMarkdown } from '../support/markdown-render';

const HOSTILE = 'evil\n# Injected heading\n![x](https://evil.example/pixel.png) <!-- hide the rest \u001b[2J\u001b]0;title\u0007\u009b31m\u202e';

function hostileReport(): PlanReport {
  const file = path.join(REPO_ROOT, 'examples', 'metalslice.yaml');
  const report = planModel(loadConfigFile(file)).report;
  expect(report.ok).toBe(true);
  return {
    ...report,
    warnings: [...report.warnings, { path: `quotas["${HOSTILE}"]`, message: `a warning about ${HOSTILE}` }],
    pools: report.pools.map((p, i) => (i === 0 ? { ...p, name: HOSTILE } : p)),
    fleets: report.fleets.map((f, i) => (i === 0 ? { ...f, name: HOSTILE } : f)),
  };
}

describe('reports escape every value for their output', () => {
  it('Markdown: no injected heading, image, HTML comment or control character', () => {
    const md = renderPlanMarkdown(hostileReport(), undefined, { maxChars: 0 });
    // Inline code spans show their content literally: what matters is everything outside them.
    const rendered = md.replace(/`[^`\n]*`/g, '');
    expect(rendered).toContain('Injected heading');
    expect(md).not.toMatch(/^# Injected heading/m);
    expect(rendered).not.toContain('![x](https://evil.example');
    expect(rendered).not.toContain('<!--');

    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(md).toContain('evil\\n# Injected heading');
  });

  it('text: no terminal escape sequence reaches the terminal raw', () => {
    const text = renderPlanText(hostileReport(), undefined, { color: false });

    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('\\u001b[2J');
  });

  it('JSON: escapes what JSON allows raw (C1 controls, bidirectional overrides) and still parses to the same values', () => {
    const report = hostileReport();
    const json = planJson(report);

    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect((JSON.parse(json) as PlanReport).pools[0].name).toBe(HOSTILE);
  });
});

/** A run of three backticks ends no single-backtick span: Markdown pairs runs of equal length. */
const FENCED = '```<img src=x onerror=alert(1)>```';
const RUNS = [
  '`<img src=x onerror=alert(1)>`',
  '``<img src=x onerror=alert(2)>``',
  `a${FENCED}b`,
  '`` ` ``<script>alert(3)</script>',
  '`|`<b onmouseover=alert(4)>x</b>',
];

/** The example plan with hostile names in every place a report prints input, and a previous plan to compare. */
function backtickReport(): { report: PlanReport; previous: PlanReport } {
  const report = hostileReport();
  const hostile = {
    ...report,
    warnings: [...report.warnings, ...RUNS.map((r, i) => ({ path: `quotas["${r}"]`, message: `a warning about \`${r}\` (${i})` }))],
    pools: report.pools.map((p, i) => (i === 1 ? { ...p, name: RUNS[2], nodes: p.nodes.map((n, k) => (k === 0 ? { ...n, name: RUNS[4] } : n)) } : p)),
    quotas: report.quotas.map((q, i) => (i === 0 ? { ...q, name: RUNS[3], organization: RUNS[0] } : q)),
  };
  const previous = { ...report, pools: report.pools.map((p, i) => (i === 0 ? { ...p, name: RUNS[1] } : p)) };
  return { report: hostile, previous };
}

describe('the Markdown a reviewer opens, as marked renders it', () => {
  it('holds no element or handler from input, whatever backtick runs surround it (report, changes, full-report text)', () => {
    const { report, previous } = backtickReport();
    const md = renderPlanMarkdown(report, diffPlans(previous, report), { maxChars: 0 });
    const cut = renderPlanMarkdown(report, diffPlans(previous, report), { maxChars: 4000, fullReport: `the artifact ${FENCED} <img src=y onerror=alert(5)>` });
    for (const text of [md, cut]) {
      const { html } = renderMarkdown(text.replace(/```mermaid[\s\S]*?```/g, ''));
      expect(injectedMarkup(html)).toEqual([]);
      expect(html).toContain('onerror=alert(1)');
    }
    expect(cut).toContain('rows left out');
  });

  it('keeps a table cell whole when a name holds a backtick-quoted | (the later columns do not shift)', () => {
    const { report } = backtickReport();
    const { tables } = renderMarkdown(renderPlanMarkdown(report, undefined, { maxChars: 0 }).replace(/```mermaid[\s\S]*?```/g, ''));
    const placement = tables.find((t) => t[0].join(',') === 'node,pool,node type,host')!;
    const row = placement.find((r) => r[0].includes('onmouseover'))!;
    // marked takes `\|` in a cell as `|`: the name is whole in its cell, and the pool is the next cell.
    expect(row[0]).toMatch(/^\\`\|\\`&lt;b onmouseover=alert\(4\)&gt;x&lt;\/b&gt;$/);
    expect(row[1]).toMatch(/^a\\`\\`\\`/);
    expect(row[2]).toBe(report.pools[1].nodeType);
  });

  it('quotes at most 40 characters of a 100,000-character label value in its problem (the README promise)', () => {
    const config = {
      fleets: [{ name: 'f', hosts: [{ name: 'h1', labels: { rack: 'a'.repeat(100_000) }, capacity: { cpu: 8, memory: '32Gi' } }] }],
      quotas: [{ name: 'q', fleet: 'f', organization: 'o', limits: { cpu: 4, memory: '8Gi' } }],
    };
    const errors = planModel(parseConfigText(JSON.stringify(config), 'c.json')).errors;
    expect(errors).toEqual([
      { path: 'fleets[0].hosts[0].labels.rack', message: expect.stringContaining(`label value "${'a'.repeat(40)}…" (100000 characters)`) },
    ]);
    expect(errors[0].message.length).toBeLessThan(200);
  });

  it('stays within --max-chars when one problem quotes a 100,000-character value', () => {
    const report = hostileReport();
    const long = { ...report, ok: false, errors: [{ path: 'fleets[0].hosts[0].labels.rack', message: `label value ${'a'.repeat(100_000)}` }] };
    const md = renderPlanMarkdown(long, undefined, { maxChars: 60_000 });
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md).toContain('more characters in the full report');
    for (const maxChars of [2_000, 100]) expect(renderPlanMarkdown(long, undefined, { maxChars }).length).toBeLessThanOrEqual(maxChars);
  });
});

describe('scripts/report-html.mjs', () => {
  const script = path.join(REPO_ROOT, 'scripts', 'report-html.mjs');

  it('renders no raw HTML, image or script link from the Markdown it is given, only the folds metalslice writes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-html-'));
    const md = path.join(dir, 'r.md');
    fs.writeFileSync(
      md,
      `# plan\n\n<details><summary>pools: 20 rows</summary>\n\n| a |\n| --- |\n| x |\n\n</details>\n\n<img src=x onerror=alert(1)> ![p](https://evil.example/p.png) [l](javascript:alert(2)) <b onclick=alert(3)>b</b>\n\n<script>alert(4)</script>\n`,
    );
    const run = spawnSync(process.execPath, [script, md, path.join(dir, 'r.html')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const html = fs.readFileSync(path.join(dir, 'r.html'), 'utf8');
    // The page's own head holds a style and a meta element; the report is the body.
    expect(injectedMarkup(html.slice(html.indexOf('<body>')))).toEqual([]);
    expect(html).not.toMatch(/href="javascript/i);
    expect(html).toContain('<details><summary>pools: 20 rows</summary>');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says which TMPDIR it cannot write, without a stack trace (exit 2)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-html-'));
    fs.writeFileSync(path.join(dir, 'r.md'), '# plan\n');
    const run = spawnSync(process.execPath, [script, path.join(dir, 'r.md'), path.join(dir, 'r.html')], {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: path.join(dir, 'missing', 'tmp') },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^report-html: cannot make a working directory in .*missing\/tmp.* \(ENOENT\): set TMPDIR to a writable directory\n$/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
