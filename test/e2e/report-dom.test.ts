/**
 * The plan-review page as a browser builds it: the Markdown report of a plan whose names hold backtick runs,
 * HTML and event handlers, made into plan.html by scripts/report-html.mjs (marked, Mermaid in headless
 * Chromium), then loaded in headless Chromium and its DOM read back. No element or handler from input may be
 * in it: no <img>, no <script>, no on* attribute.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel, PlanReport } from '../../constructs/core/plan';
import { diffPlans, renderPlanMarkdown } from '../../constructs/core/report';

const REPO = path.join(__dirname, '..', '..');
const RUNS = [
  '```<img src=x onerror=alert(1)>```',
  '`<img src=x onerror=alert(2)>`',
  '`` ` ``<script>alert(3)</script>',
  '`|`<b onmouseover=alert(4)>x</b>',
  '<!-- hide --> ![p](https://evil.example/p.png) [l](javascript:alert(5))',
];

function hostilePlans(): { before: PlanReport; after: PlanReport } {
  const plan = planModel(loadConfigFile(path.join(REPO, 'examples', 'metalslice.yaml'))).report;
  const after: PlanReport = {
    ...plan,
    warnings: [...plan.warnings, ...RUNS.map((r, i) => ({ path: `quotas["${r}"]`, message: `a warning about \`${r}\` (${i})` }))],
    pools: plan.pools.map((p, i) => (i === 1 ? { ...p, name: RUNS[0], nodes: p.nodes.map((n, k) => (k === 0 ? { ...n, name: RUNS[3] } : n)) } : p)),
    quotas: plan.quotas.map((q, i) => (i === 0 ? { ...q, name: RUNS[2], organization: RUNS[1] } : q)),
  };
  return { before: { ...plan, pools: plan.pools.map((p, i) => (i === 0 ? { ...p, name: RUNS[4] } : p)) }, after };
}

describe('plan.html in headless Chromium', () => {
  it('holds no element or event handler from input in its DOM', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-dom-'));
    const { before, after } = hostilePlans();
    const md = path.join(dir, 'report.md');
    const html = path.join(dir, 'plan.html');
    fs.writeFileSync(md, renderPlanMarkdown(after, diffPlans(before, after), { maxChars: 60_000, fullReport: `the artifact ${RUNS[0]}` }));
    const render = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'report-html.mjs'), md, html], { encoding: 'utf8', timeout: 170_000 });
    expect({ status: render.status, stderr: render.stderr }).toEqual({ status: 0, stderr: '' });

    const chromium = process.env.CHROMIUM ?? 'chromium';
    const flags = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--proxy-server=127.0.0.1:9',
      `--user-data-dir=${path.join(dir, 'profile')}`,
    ];
    const dom = spawnSync(chromium, [...flags, '--dump-dom', pathToFileURL(html).href], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    expect(dom.status).toBe(0);
    const body = dom.stdout.slice(dom.stdout.indexOf('<body'));
    expect(body).toContain('onerror=alert(1)'); // shown as text
    expect(body.match(/<(img|script|iframe|object|embed)\b/gi) ?? []).toEqual([]);
    // Mermaid's SVG is the page's own; no tag anywhere carries a handler.
    expect(body.match(/<[a-z][^>]*\son[a-z]+\s*=/gi) ?? []).toEqual([]);
    expect(body).not.toMatch(/href="javascript:/i);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
