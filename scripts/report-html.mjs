#!/usr/bin/env node
// Renders a plan report's Markdown to a standalone HTML page styled like a pull request comment, with its
// Mermaid charts drawn as SVG by the real Mermaid library inside headless Chromium (what GitHub does for a
// comment), so the plan-review artifact and the README screenshot show pictures, not chart source.
//
// Usage: node scripts/report-html.mjs REPORT.md OUT.html [--charts DIR] [--screenshot PNG] [--width PX]
//          [--max-height PX] [--layout JSON]
//   --charts DIR       also write each chart as DIR/chart-N.svg (N from 1, in report order)
//   --screenshot PNG   photograph OUT.html at --width (default 1280) pixels; the picture ends at the last
//                      section heading within --max-height (default 2600), never inside a table or a chart
//   --layout JSON      write what the page measured: {"charts", "height", "headings": [{"text", "top"}],
//                      "screenshotHeight"} (pixels at --width)
// Environment: CHROMIUM (default: chromium, chromium-browser, google-chrome on PATH); MERMAID_JS (default:
// mermaid/dist/mermaid.min.js as Node resolves it from this checkout or the current directory); MARKED_JS
// (default: marked as Node resolves it). A report without charts needs neither Chromium nor Mermaid.
// Exit: 0 written; 2 a usage error or a missing tool (said on stderr, nothing written); 1 Chromium or
// Mermaid failed. marked is ESM-only, hence a module script.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A failure said on stderr with its exit code; nothing is written after one. */
class Failure extends Error {
  /**
   * @param {number} code the exit code
   * @param {string} message what went wrong and how to fix it
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
/**
 * @param {number} code
 * @param {string} message
 * @returns {never}
 */
function fail(code, message) {
  throw new Failure(code, message);
}
process.on('uncaughtException', (/** @type {Error} */ e) => {
  process.stderr.write(`report-html: ${e instanceof Failure ? e.message : e.stack}\n`);
  process.exit(e instanceof Failure ? e.code : 1);
});

const USAGE = 'usage: node scripts/report-html.mjs REPORT.md OUT.html [--charts DIR] [--screenshot PNG] [--width PX] [--max-height PX] [--layout JSON]';
/** @type {string[]} */
const positional = [];
/** @type {Record<string, string | undefined>} */
const options = { width: '1280', 'max-height': '2600' };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const m = /^--(charts|screenshot|width|max-height|layout)$/.exec(args[i]);
  if (m) {
    if (i + 1 >= args.length) fail(2, `${args[i]} needs a value\n${USAGE}`);
    options[m[1]] = args[++i];
  } else if (args[i].startsWith('-')) fail(2, `unknown option ${JSON.stringify(args[i])}\n${USAGE}`);
  else positional.push(args[i]);
}
if (positional.length !== 2) fail(2, USAGE);
const [input, output] = positional;
const width = Number(options.width);
const maxHeight = Number(options['max-height']);
if (!Number.isInteger(width) || width < 320 || width > 4000) fail(2, '--width must be a whole number of pixels from 320 to 4000');
if (!Number.isInteger(maxHeight) || maxHeight < 200 || maxHeight > 20000) fail(2, '--max-height must be a whole number of pixels from 200 to 20000');
if (!existsSync(input)) fail(2, `cannot read ${JSON.stringify(input)}: no such file`);

/**
 * A module's file as Node resolves it from this checkout, then from the current directory.
 * @param {string} specifier
 * @returns {string | undefined}
 */
function resolveModule(specifier) {
  for (const from of [import.meta.url, pathToFileURL(join(process.cwd(), 'package.json')).href]) {
    try {
      return createRequire(from).resolve(specifier);
    } catch {
      // next place
    }
  }
  return undefined;
}

const markedFile = process.env.MARKED_JS || undefined;
/** @type {unknown} */
const loaded = markedFile ? await import(pathToFileURL(resolve(markedFile)).href) : await import('marked');
const { marked } = /** @type {typeof import('marked')} */ (loaded);

/** @type {Record<string, string>} */
const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (/** @type {string} */ s) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

// Each ```mermaid block becomes a placeholder the chart's SVG (or, while rendering, its source) replaces.
/** @type {string[]} */
const charts = [];
// The report is input (a plan from a pull request, or any file given here): no raw HTML from it reaches the
// page but the folds metalslice writes, no image loads, and a link goes only to a web address.
const OWN_HTML = /^(?:\s*(?:<details>|<\/details>|<summary>[^<>&]*<\/summary>))+\s*$/;
marked.use({
  gfm: true,
  async: false,
  renderer: {
    code(token) {
      if (token.lang !== 'mermaid') return false;
      charts.push(token.text);
      return `<!--metalslice-chart-${charts.length - 1}-->\n`;
    },
    html(token) {
      return OWN_HTML.test(token.text) ? token.text : escapeHtml(token.text);
    },
    image(token) {
      return escapeHtml(token.text);
    },
    link(token) {
      const text = this.parser.parseInline(token.tokens);
      return /^https?:\/\//i.test(token.href) ? `<a href="${escapeHtml(token.href)}">${text}</a>` : text;
    },
  },
});
const body = /** @type {string} */ (marked.parse(readFileSync(input, 'utf8')));
/**
 * @param {string} html
 * @param {(i: number) => string} chart
 */
const fill = (html, chart) => html.replace(/<!--metalslice-chart-(\d+)-->/g, (_, i) => chart(Number(i)));

const style = `
  body { font: 14px/1.5 "DejaVu Sans", "Noto Color Emoji", sans-serif; color: #1f2328; max-width: 1180px; margin: 24px auto; padding: 0 16px; }
  h1 { font-size: 24px; border-bottom: 1px solid #d1d9e0; padding-bottom: 6px; }
  h2 { font-size: 19px; border-bottom: 1px solid #d1d9e0; padding-bottom: 4px; margin-top: 24px; }
  table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
  th, td { border: 1px solid #d1d9e0; padding: 4px 10px; }
  th { background: #f6f8fa; }
  td { font-family: "DejaVu Sans Mono", monospace; white-space: nowrap; }
  code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 12px; }
  pre { background: #f6f8fa; padding: 12px; font-size: 12px; overflow: hidden; }
  figure.chart { margin: 12px 0; } figure.chart svg { max-width: 100%; height: auto; }
  details { margin: 8px 0; } summary { cursor: pointer; color: #0969da; }`;
/**
 * @param {string} inner
 * @param {string} [extra]
 */
const page = (inner, extra = '') =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><title>metalslice plan</title><style>${style}</style></head>\n<body>${inner}${extra}</body></html>\n`;

/**
 * The flags that keep Chromium offline, sandbox-free as root, and out of any profile but a fresh one.
 * @param {string} profile
 * @param {number} height
 * @param {...string} rest
 * @returns {string[]}
 */
function chromiumArgs(profile, height, ...rest) {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--proxy-server=127.0.0.1:9',
    '--proxy-bypass-list=<-loopback>',
    `--user-data-dir=${profile}`,
    '--hide-scrollbars',
    `--window-size=${width},${height}`,
    ...rest,
  ];
}

function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const needsBrowser = charts.length > 0 || options.screenshot !== undefined;
const chromium = needsBrowser ? findChromium() : undefined;
if (needsBrowser && !chromium) fail(2, 'no Chromium found (chromium, chromium-browser or google-chrome on PATH): install one or set CHROMIUM');
const mermaidJs = charts.length > 0 ? process.env.MERMAID_JS || resolveModule('mermaid/dist/mermaid.min.js') : undefined;
if (charts.length > 0 && (!mermaidJs || !existsSync(mermaidJs)))
  fail(2, 'mermaid/dist/mermaid.min.js not found: npm install mermaid, or set MERMAID_JS to its path');

/** @type {string} */
let work;
try {
  work = mkdtempSync(join(tmpdir(), 'metalslice-report-html-'));
} catch (e) {
  const code = /** @type {NodeJS.ErrnoException} */ (e).code ?? 'error';
  fail(2, `cannot make a working directory in ${JSON.stringify(tmpdir())} (${code}): set TMPDIR to a writable directory`);
}
try {
  // One pass in Chromium: Mermaid draws every chart in place (so the page is laid out as it will be shown),
  // the page measures itself, and the results replace the body as base64 for --dump-dom to print.
  /** @typedef {{ text: string, top: number }} Heading */
  /** @type {{ charts: number, height: number, headings: Heading[], screenshotHeight?: number }} */
  let layout = { charts: 0, height: 0, headings: [] };
  /** @type {string[]} */
  let svgs = [];
  if (needsBrowser) {
    const sources = (/** @type {number} */ i) => `<pre class="metalslice-chart" id="chart-${i + 1}">${escapeHtml(charts[i])}</pre>`;
    const script = `
      <script src="${pathToFileURL(mermaidJs ?? join(work, 'none.js')).href}"></script>
      <script>
        (async () => {
          const result = { svgs: [], errors: [] };
          if (window.mermaid) {
            mermaid.initialize({ startOnLoad: false, deterministicIds: true, securityLevel: 'strict', theme: 'default',
              fontFamily: '"DejaVu Sans", sans-serif', htmlLabels: false, markdownAutoWrap: false,
              flowchart: { htmlLabels: false, wrappingWidth: 600 }, xyChart: { width: 1100, height: 420 },
              themeVariables: { xyChart: { plotColorPalette: '#54aeff, #cf222e' } } });
            for (const pre of document.querySelectorAll('pre.metalslice-chart')) {
              try {
                const { svg } = await mermaid.render(pre.id + '-svg', pre.textContent);
                const figure = document.createElement('figure');
                figure.className = 'chart';
                figure.innerHTML = svg;
                pre.replaceWith(figure);
                result.svgs.push(svg);
              } catch (e) {
                result.errors.push(pre.id + ': ' + String(e && e.message ? e.message : e));
              }
            }
          } else if (document.querySelector('pre.metalslice-chart')) result.errors.push('Mermaid did not load');
          await document.fonts.ready;
          result.height = Math.ceil(document.documentElement.scrollHeight);
          result.headings = [...document.querySelectorAll('h2')].map((h) => ({ text: h.textContent, top: Math.floor(h.getBoundingClientRect().top + window.scrollY) }));
          const bytes = new TextEncoder().encode(JSON.stringify(result));
          let binary = '';
          for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
          document.body.textContent = 'METALSLICE-RESULT:' + btoa(binary) + ':END';
        })();
      </script>`;
    const renderPage = join(work, 'render.html');
    writeFileSync(renderPage, page(fill(body, sources), script));
    const run = spawnSync(
      chromium,
      chromiumArgs(join(work, 'profile-render'), 1000, '--virtual-time-budget=60000', '--dump-dom', pathToFileURL(renderPage).href),
      {
        encoding: 'utf8',
        timeout: 180_000,
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    const found = /METALSLICE-RESULT:([A-Za-z0-9+/=]*):END/.exec(run.stdout ?? '');
    if (!found) fail(1, `Chromium did not render the page (exit ${run.status}${run.error ? `, ${run.error.message}` : ''})`);
    /** @type {unknown} */
    const parsed = JSON.parse(Buffer.from(found[1], 'base64').toString('utf8'));
    const result = /** @type {{ svgs: string[], errors: string[], height: number, headings: Heading[] }} */ (parsed);
    if (result.errors.length > 0 || result.svgs.length !== charts.length) fail(1, `Mermaid could not draw every chart: ${result.errors.join('; ')}`);
    svgs = result.svgs;
    layout = { charts: svgs.length, height: result.height, headings: result.headings };
  }

  // The page as kept: static, no script, each chart's SVG where its source was.
  writeFileSync(output, page(fill(body, (i) => `<figure class="chart">${svgs[i]}</figure>`)));
  const chartsDir = options.charts;
  if (chartsDir !== undefined) {
    mkdirSync(chartsDir, { recursive: true });
    svgs.forEach((svg, i) => writeFileSync(join(chartsDir, `chart-${i + 1}.svg`), `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`));
  }
  if (options.screenshot !== undefined) {
    // Whole page if it fits, else up to the last section heading that does: never through a table or chart.
    const cut = layout.headings
      .map((h) => h.top)
      .filter((top) => top > 0 && top <= maxHeight)
      .pop();
    const height = layout.height <= maxHeight ? layout.height : (cut ?? maxHeight) - 8;
    layout.screenshotHeight = height;
    const shot = spawnSync(
      chromium,
      chromiumArgs(join(work, 'profile-shot'), height, `--screenshot=${resolve(options.screenshot)}`, pathToFileURL(resolve(output)).href),
      {
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    if (shot.status !== 0 || !existsSync(options.screenshot)) fail(1, `Chromium could not take the screenshot (exit ${shot.status})`);
  }
  if (options.layout !== undefined) writeFileSync(options.layout, `${JSON.stringify(layout)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
