/**
 * Seen as a person sees it: the Markdown report of the example (with what changed since a previous plan)
 * rendered to HTML (marked, as a PR comment would be) and photographed by headless Chromium from Debian's
 * packages (scripts/toolchain.sh installs it). METALSLICE_UPDATE_SCREENSHOT=1 keeps the picture as
 * docs/plan-review.png, the one the README shows.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { loadConfigFile } from '../../constructs/core/config';
import { planModel, PlanReport } from '../../constructs/core/plan';
import { diffPlans, renderPlanMarkdown } from '../../constructs/core/report';

const REPO = path.join(__dirname, '..', '..');
const WIDTH = 1280;
const HEIGHT = 2200;

/** The flags that keep Chromium offline, sandbox-free as root, and out of any profile but a fresh one. */
function chromiumArgs(userDataDir: string, png: string, html: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${userDataDir}`,
    '--hide-scrollbars',
    `--window-size=${WIDTH},${HEIGHT}`,
    `--screenshot=${png}`,
    `file://${html}`,
  ];
}

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

describe('the Markdown report, screenshotted by headless Chromium', () => {
  it('renders the example with its changes, tables and bars, as a reviewer sees it', () => {
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
    fs.writeFileSync(md, renderPlanMarkdown(after, diffPlans(before, after), { maxChars: 60_000 }));
    const render = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'report-html.mjs'), md, html], { encoding: 'utf8' });
    expect(render.stderr).toBe('');
    expect(fs.readFileSync(html, 'utf8')).toContain('<h2>Changes since the previous plan</h2>');
    const shot = spawnSync('chromium', chromiumArgs(path.join(dir, 'profile'), png, html), { encoding: 'utf8', timeout: 120_000 });
    expect({ status: shot.status, exists: fs.existsSync(png) }).toEqual({ status: 0, exists: true });
    const image = readPng(png);
    expect({ width: image.width, height: image.height }).toEqual({ width: WIDTH, height: HEIGHT });
    // Text, table borders and bars: a page that failed to render is blank (all white), and a page of
    // solid colour (an error page, a crash) is not a report either.
    expect(image.inked).toBeGreaterThan(0.02);
    expect(image.inked).toBeLessThan(0.6);
    console.log(`screenshot: ${png} (${chromium.stdout.trim()}, ${(image.inked * 100).toFixed(1)} % inked)`);
    if (process.env.METALSLICE_UPDATE_SCREENSHOT === '1') fs.copyFileSync(png, path.join(REPO, 'docs', 'plan-review.png'));
  }, 180_000);
});
