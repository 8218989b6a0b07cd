/**
 * The shape rules of `npm run lint` (eslint.config.mjs, issue 29) hold: the repository's own ESLint, with the
 * repository's config, refuses a 120-line function and an import from the core to a renderer, and passes the
 * same code kept short and in its layer. Each probe is linted from standard input as a file of the library.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';

const ESLINT = path.join(REPO_ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

/** ESLint's verdict on `code` as if it were `file` of the repository: exit code and the rules it names. */
function lint(file: string, code: string): { code: number | null; rules: string[]; output: string } {
  const r = spawnSync(process.execPath, [ESLINT, '--max-warnings', '0', '--format', 'json', '--stdin', '--stdin-filename', file], {
    cwd: REPO_ROOT,
    input: code,
    encoding: 'utf8',
  });
  const results = r.stdout ? (JSON.parse(r.stdout) as { messages: { ruleId: string | null; message: string }[] }[]) : [];
  const messages = results.flatMap((x) => x.messages);
  return { code: r.status, rules: messages.map((m) => m.ruleId ?? `parse: ${m.message}`), output: `${r.stdout}${r.stderr}` };
}

/** A function of `statements` lines of body (each a real statement: blank lines and comments do not count). */
function functionOf(statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};`);
  return ['export function probe(start: number): number {', '  let total = start;', ...body, '  return total;', '}', ''].join('\n');
}

describe('npm run lint: the shape rules', () => {
  it('refuses a function of 120 lines, and passes one of 60', () => {
    const long = lint('constructs/core/lint-probe-length.ts', functionOf(117));
    expect(long.code).toBe(1);
    expect(long.rules).toEqual(['max-lines-per-function']);
    const short = lint('constructs/core/lint-probe-length.ts', functionOf(57));
    expect({ code: short.code, rules: short.rules }).toEqual({ code: 0, rules: [] });
  }, 60_000);

  it('refuses an import from the core to a renderer, and passes the same import from a construct', () => {
    const probe = "import { renderNodeEnvironments } from '../render/node-environment';\nexport const probe = renderNodeEnvironments;\n";
    const fromCore = lint('constructs/core/lint-probe-layer.ts', probe);
    expect(fromCore.code).toBe(1);
    expect(fromCore.rules).toEqual(['import-x/no-restricted-paths']);
    const fromConstructs = lint('constructs/lint-probe-layer.ts', probe.replace('../render/', './render/'));
    expect({ code: fromConstructs.code, rules: fromConstructs.rules }).toEqual({ code: 0, rules: [] });
  }, 60_000);

  it('refuses a branchy function (cyclomatic complexity over 25)', () => {
    const branches = Array.from({ length: 26 }, (_, i) => `  if (n === ${i}) return ${i * 2};`);
    const code = ['export function probe(n: number): number {', ...branches, '  return -1;', '}', ''].join('\n');
    const r = lint('constructs/core/lint-probe-complexity.ts', code);
    expect(r.code).toBe(1);
    expect(r.rules).toEqual(['complexity']);
  }, 60_000);
});
