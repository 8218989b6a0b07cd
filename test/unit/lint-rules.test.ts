/**
 * The shape rules of `npm run lint` (eslint.config.mjs, issues 29 and 40) hold: the repository's own ESLint, with
 * the repository's config, refuses a 120-line function, a 601-line file, an import from the core to a renderer,
 * and an import (of a value or only a type) from one folder of the core to a folder it may not read; it passes
 * the same code kept short and in its layer. Each probe is linted from standard input as a file of the library.
 * dependency-cruiser (.dependency-cruiser.cjs) refuses an import circle of types only, on a probe tree.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';

const ESLINT = path.join(REPO_ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
const DEPCRUISE = path.join(REPO_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

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

describe('npm run lint: the folders of constructs/core', () => {
  // Each probe imports one folder from another, as a file of the first: the import below the line is allowed,
  // the one above is refused, whether it imports a value or only a type.
  const cases: readonly (readonly [from: string, allowed: string, refused: string])[] = [
    ['base', '../base/quantity', '../input/model'],
    ['input', '../base/quantity', '../auto/requirements'],
    ['naming', '../input/model', '../vm/vm'],
    ['hosts', '../naming/derived', '../auto/node-types'],
    ['vm', '../kubevirt/launcher', '../quota/ledger'],
    ['auto', '../quota/ledger', '../plan/types'],
    ['plan', '../auto', '../report'],
    ['report', '../plan/types', '../auto/types'],
  ];

  it.each(cases)(
    'core/%s imports %s and is refused %s, a type import too',
    (folder, allowed, refused) => {
      const file = `constructs/core/${folder}/lint-probe-layer.ts`;
      const ok = lint(file, `import type * as Allowed from '${allowed}';\nexport type Probe = typeof Allowed;\n`);
      expect({ code: ok.code, rules: ok.rules }).toEqual({ code: 0, rules: [] });
      for (const probe of [
        `import * as Refused from '${refused}';\nexport const probe = Refused;\n`,
        `import type * as Refused from '${refused}';\nexport type Probe = typeof Refused;\n`,
      ]) {
        const r = lint(file, probe);
        expect({ probe, code: r.code, rules: r.rules }).toEqual({ probe, code: 1, rules: ['import-x/no-restricted-paths'] });
        expect(r.output).toContain(`constructs/core/${folder} `);
      }
    },
    120_000,
  );

  it("core/plan/change is held to plan's layer: it imports auto and is refused report", () => {
    const file = 'constructs/core/plan/change/lint-probe-layer.ts';
    expect(lint(file, "import type * as Allowed from '../../auto';\nexport type Probe = typeof Allowed;\n").code).toBe(0);
    const r = lint(file, "import * as Refused from '../../report';\nexport const probe = Refused;\n");
    expect({ code: r.code, rules: r.rules }).toEqual({ code: 1, rules: ['import-x/no-restricted-paths'] });
  }, 60_000);

  it('refuses an import from the core to constructs/parts, and passes it from a construct', () => {
    const probe = "import { NodeDrains } from '../parts/node-drain';\nexport const probe = NodeDrains;\n";
    const fromCore = lint('constructs/core/lint-probe-layer.ts', probe);
    expect({ code: fromCore.code, rules: fromCore.rules }).toEqual({ code: 1, rules: ['import-x/no-restricted-paths'] });
    const fromConstructs = lint('constructs/lint-probe-layer.ts', probe.replace('../parts/', './parts/'));
    expect({ code: fromConstructs.code, rules: fromConstructs.rules }).toEqual({ code: 0, rules: [] });
  }, 60_000);

  it('holds constructs/status pure: refused the Kubernetes client, passed the renderers', () => {
    const refused = lint('constructs/status/lint-probe-layer.ts', "import { KubeClient } from '../cli/kube/client';\nexport const probe = KubeClient;\n");
    expect({ code: refused.code, rules: refused.rules }).toEqual({ code: 1, rules: ['import-x/no-restricted-paths'] });
    const passed = lint(
      'constructs/status/lint-probe-layer.ts',
      "import { renderVirtualMachine } from '../render/kubevirt';\nexport const probe = renderVirtualMachine;\n",
    );
    expect({ code: passed.code, rules: passed.rules }).toEqual({ code: 0, rules: [] });
  }, 60_000);

  it('refuses a file of 601 lines, and passes one of 600', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const probe${i} = ${i};`).join('\n') + '\n';
    const long = lint('constructs/core/base/lint-probe-size.ts', lines(601));
    expect({ code: long.code, rules: long.rules }).toEqual({ code: 1, rules: ['max-lines'] });
    const short = lint('constructs/core/base/lint-probe-size.ts', lines(600));
    expect({ code: short.code, rules: short.rules }).toEqual({ code: 0, rules: [] });
  }, 60_000);
});

describe('npm run lint: no import circle, type imports included', () => {
  /** dependency-cruiser with the repository's config, over a tree of `files` laid out as the repository is. */
  function cruise(files: Record<string, string>): { code: number | null; output: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-probe-'));
    try {
      for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
      const r = spawnSync(process.execPath, [DEPCRUISE, '--config', path.join(REPO_ROOT, '.dependency-cruiser.cjs'), 'constructs'], {
        cwd: dir,
        encoding: 'utf8',
      });
      return { code: r.status, output: `${r.stdout}${r.stderr}` };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('refuses two files that import each other only for types, and passes the same files in one direction', () => {
    const a = "import type { B } from './b';\nexport interface A { readonly b?: B }\n";
    const circle = cruise({
      'constructs/core/base/a.ts': a,
      'constructs/core/base/b.ts': "import type { A } from './a';\nexport interface B { readonly a?: A }\n",
    });
    expect(circle.code).not.toBe(0);
    expect(circle.output).toContain('no-circular');
    const line = cruise({ 'constructs/core/base/a.ts': a, 'constructs/core/base/b.ts': 'export interface B { readonly n?: number }\n' });
    expect({ code: line.code, output: line.output }).toEqual({ code: 0, output: expect.stringContaining('no dependency violations') as unknown as string });
  }, 60_000);
});
