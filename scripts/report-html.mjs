#!/usr/bin/env node
// Renders a plan report's Markdown to a standalone HTML page, styled like a pull request comment, for the
// screenshot test (test/e2e/report-screenshot.test.ts). marked is ESM-only, hence a module script.
// Usage: node scripts/report-html.mjs REPORT.md OUT.html
import { readFileSync, writeFileSync } from 'node:fs';
import { marked } from 'marked';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node scripts/report-html.mjs REPORT.md OUT.html\n');
  process.exit(2);
}
const body = marked.parse(readFileSync(input, 'utf8'), { gfm: true, async: false });
const style = `
  body { font: 14px/1.5 "DejaVu Sans", sans-serif; color: #1f2328; max-width: 1180px; margin: 24px auto; padding: 0 16px; }
  h1 { font-size: 24px; border-bottom: 1px solid #d1d9e0; padding-bottom: 6px; }
  h2 { font-size: 19px; border-bottom: 1px solid #d1d9e0; padding-bottom: 4px; margin-top: 24px; }
  table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
  th, td { border: 1px solid #d1d9e0; padding: 4px 10px; }
  th { background: #f6f8fa; }
  td { font-family: "DejaVu Sans Mono", monospace; white-space: nowrap; }
  code { background: #eff1f3; padding: 1px 4px; border-radius: 4px; font-size: 12px; }
  pre { background: #f6f8fa; padding: 12px; font-size: 12px; overflow: hidden; }
  details { margin: 8px 0; } summary { cursor: pointer; color: #0969da; }`;
writeFileSync(
  output,
  `<!doctype html>\n<html><head><meta charset="utf-8"><title>metalslice plan</title><style>${style}</style></head>\n<body>${body}</body></html>\n`,
);
