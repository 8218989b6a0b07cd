/**
 * Every value a report prints is escaped for its output: a name or message holding newlines, Markdown, HTML or a
 * terminal escape sequence prints as text, in Markdown (a pull-request comment), text (a terminal) and JSON.
 */
import { describe, expect, it } from '@jest/globals';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel, PlanReport } from '../../constructs/core/plan';
import { planJson, renderPlanMarkdown, renderPlanText } from '../../constructs/core/report';
import { REPO_ROOT } from '../support/models';

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
