/**
 * Seen as a person sees it: the Markdown report of the example (with what changed since a previous plan)
 * rendered to HTML (marked, as a PR comment would be), its Mermaid charts drawn to SVG by the Mermaid library in
 * headless Chromium from Debian's packages (scripts/toolchain.sh installs it and the fonts), and photographed
 * (scripts/report-html.mjs does all three). METALSLICE_UPDATE_SCREENSHOT=1 keeps the picture as
 * docs/plan-review.png, the one the README shows.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel, PlanReport } from '../../constructs/core/plan';
import { diffPlans, renderPlanMarkdown } from '../../constructs/core/report';

const REPO = path.join(__dirname, '..', '..');
const WIDTH = 1280;
/** The README's picture is at most this tall; a longer report is cut at a section heading. */
const MAX_HEIGHT = 2600;

/** PNG scanlines back to pixels (filters None, Sub, Up, Average, Paeth; 8-bit samples). */
function unfilter(data: Buffer, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = data[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const raw = data[y * (stride + 1) + 1 + x];
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      out[y * stride + x] = (raw + predictor) & 0xff;
    }
  }
  return out;
}

/** Width, height and the share of pixels that are not near-white, decoded from the PNG itself. */
function readPng(file: string): { width: number; height: number; inked: number } {
  const data = fs.readFileSync(file);
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const idat: Buffer[] = [];
  let [width, height, bpp] = [0, 0, 0];
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('ascii', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      expect(body[8]).toBe(8); // 8-bit samples
      [width, height, bpp] = [body.readUInt32BE(0), body.readUInt32BE(4), ({ 2: 3, 6: 4 } as Record<number, number>)[body[9]]];
    }
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const pixels = unfilter(zlib.inflateSync(Buffer.concat(idat)), width, height, bpp);
  let inked = 0;
  for (let i = 0; i < pixels.length; i += bpp) if (pixels[i] < 0xe0 || pixels[i + 1] < 0xe0 || pixels[i + 2] < 0xe0) inked++;
  return { width, height, inked: inked / (width * height) };
}

/** The distinct characters of a page's visible text that are not ASCII (variation selectors draw nothing). */
function nonAscii(html: string): string[] {
  const text = html.replace(/<style>[\s\S]*?<\/style>/g, '').replace(/<[^>]*>/g, ' ');
  return [...new Set([...text].filter((c) => c.codePointAt(0)! > 0x7e && !/[\uFE00-\uFE0F\u00A0]/.test(c)))].sort();
}

describe('the Markdown report, screenshotted by headless Chromium', () => {
  it('renders the example with its changes, tables, bars and charts drawn by Mermaid, as a reviewer sees it', () => {
    const chromium = spawnSync('chromium', ['--version'], { encoding: 'utf8' });
    if (chromium.status !== 0) throw new Error('chromium is not installed: run scripts/toolchain.sh (npm run setup), which installs it from Debian');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-shot-'));
    const after = planModel(loadConfigFile(path.join(REPO, 'examples', 'metalslice.yaml'))).report;
    // The plan before: one node fewer in the first pool, less memory in the first quota.
    const before: PlanReport = {
      ...after,
      pools: after.pools.map((p, i) => (i === 0 ? { ...p, nodes: p.nodes.slice(0, -1) } : p)),
      quotas: after.quotas.map((q, i) => (i === 0 ? { ...q, limits: { ...q.limits, memory: '768Gi' } } : q)),
    };
    const md = path.join(dir, 'report.md');
    const html = path.join(dir, 'report.html');
    const png = path.join(dir, 'report.png');
    const charts = path.join(dir, 'charts');
    const layoutFile = path.join(dir, 'layout.json');
    const markdown = renderPlanMarkdown(after, diffPlans(before, after), { maxChars: 60_000 });
    fs.writeFileSync(md, markdown);
    const sources = [...markdown.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    expect(sources.map((s) => s.split('\n')[0])).toEqual(['flowchart LR', 'xychart-beta']);
    const args = [md, html, '--charts', charts, '--screenshot', png, '--width', String(WIDTH), '--max-height', String(MAX_HEIGHT), '--layout', layoutFile];
    const render = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'report-html.mjs'), ...args], { encoding: 'utf8', timeout: 170_000 });
    expect({ status: render.status, stderr: render.stderr }).toEqual({ status: 0, stderr: '' });
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toContain('<h2>Changes since the previous plan</h2>');

    // Every chart is drawn: one SVG per Mermaid block, in the page and as a file, carrying the chart's labels
    // as text; no chart source is left anywhere on the page, and the page runs no script.
    const layout = JSON.parse(fs.readFileSync(layoutFile, 'utf8')) as {
      charts: number;
      height: number;
      headings: { text: string; top: number }[];
      screenshotHeight: number;
    };
    expect(layout.charts).toBe(sources.length);
    expect(page.match(/<figure class="chart"><svg /g)).toHaveLength(sources.length);
    expect(page).not.toMatch(/flowchart LR|xychart-beta|language-mermaid|metalslice-chart|<script/);
    expect(fs.readdirSync(charts).sort()).toEqual(sources.map((_, i) => `chart-${i + 1}.svg`));
    const svgFile = (file: string) => fs.readFileSync(path.join(charts, file), 'utf8');
    // The words an SVG draws (Mermaid puts each in its own tspan).
    const drawn = (svg: string) => svg.replace(/<style>[\s\S]*?<\/style>/g, '').replace(/<[^>]*>/g, '');
    const topology = svgFile('chart-1.svg');
    expect(topology).toMatch(/^<\?xml [^\n]*\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(topology).not.toContain('<foreignObject'); // plain SVG text: any SVG viewer shows the labels
    const labels = [...after.pools.map((p) => `pool ${p.name}`), ...after.quotas.map((q) => `quota ${q.name}`), ...after.fleets.map((f) => `fleet ${f.name}`)];
    expect(labels.filter((l) => !drawn(topology).includes(l))).toEqual([]);
    const hosts = svgFile('chart-2.svg');
    expect(drawn(hosts)).toContain(`Fleet ${after.fleets[0].name}: cpu (bars)`);
    expect((after.fleets[0].hostUsage ?? []).filter((h) => !hosts.includes(`>${h.name}</text>`)).map((h) => h.name)).toEqual([]);
    expect(hosts.match(/<rect /g)?.length ?? 0).toBeGreaterThanOrEqual(after.fleets[0].hostUsage?.length ?? 1);

    // Every character the page shows has a font that draws it (no missing-glyph box).
    for (const c of nonAscii(page)) {
      const hex = c.codePointAt(0)!.toString(16);
      const fonts = spawnSync('fc-list', [`:charset=${hex}`, 'family'], { encoding: 'utf8' }).stdout.trim();
      expect({ char: c, hex, fonts: fonts.length > 0 }).toEqual({ char: c, hex, fonts: true });
    }

    // The picture is the whole page, or ends just above a section heading: never inside a table or a chart.
    const image = readPng(png);
    expect(image.width).toBe(WIDTH);
    expect(image.height).toBe(layout.screenshotHeight);
    expect(image.height).toBeLessThanOrEqual(MAX_HEIGHT);
    expect(image.height === layout.height || layout.headings.some((h) => h.top === image.height + 8)).toBe(true);
    // The README shows the charts: the whole Picture section is above the cut.
    const picture = layout.headings.findIndex((h) => h.text === 'Picture');
    expect(picture).toBeGreaterThan(0);
    expect(layout.headings[picture + 1]?.top ?? layout.height).toBeLessThanOrEqual(image.height + 8);
    // Text, table borders, bars and charts: a page that failed to render is blank (all white), and a page of
    // solid colour (an error page, a crash) is not a report either.
    expect(image.inked).toBeGreaterThan(0.02);
    expect(image.inked).toBeLessThan(0.6);
    console.log(`screenshot: ${png} (${chromium.stdout.trim()}, ${image.height} px, ${(image.inked * 100).toFixed(1)} % inked)`);
    if (process.env.METALSLICE_UPDATE_SCREENSHOT === '1') fs.copyFileSync(png, path.join(REPO, 'docs', 'plan-review.png'));
  }, 180_000);

  it('plan-comment.sh keeps the report with its charts drawn in the plan-review artifact', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-artifact-'));
    fs.cpSync(path.join(REPO, 'examples', 'inventory'), path.join(dir, 'inventory'), { recursive: true });
    fs.copyFileSync(path.join(REPO, 'examples', 'metalslice.yaml'), path.join(dir, 'metalslice.yaml'));
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(GITHUB_|ANNOTATIONS$|FAIL_ON_PROBLEMS$|CHROMIUM$|MERMAID_JS$|MARKED_JS$)/.test(k)),
    );
    const run = spawnSync('bash', [path.join(REPO, 'examples', 'ci', 'plan-comment.sh')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 170_000,
      env: { ...env, METALSLICE: `${process.execPath} ${path.join(REPO, 'bin', 'metalslice')}`, METALSLICE_CONFIG: 'metalslice.yaml', RENDER_CHARTS: 'true' },
    });
    expect({ status: run.status, drew: run.stderr.includes('drew the charts: plan-review/plan.html and plan-review/charts/') }).toEqual({
      status: 0,
      drew: true,
    });
    const artifact = path.join(dir, 'plan-review');
    const markdown = fs.readFileSync(path.join(artifact, 'plan.md'), 'utf8');
    const blocks = markdown.match(/```mermaid\n/g)?.length ?? 0;
    expect(blocks).toBeGreaterThanOrEqual(2);
    expect(fs.readdirSync(path.join(artifact, 'charts')).sort()).toEqual(Array.from({ length: blocks }, (_, i) => `chart-${i + 1}.svg`));
    const page = fs.readFileSync(path.join(artifact, 'plan.html'), 'utf8');
    expect(page.match(/<figure class="chart"><svg /g)).toHaveLength(blocks);
    expect(page).not.toMatch(/flowchart LR|xychart-beta|language-mermaid/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
