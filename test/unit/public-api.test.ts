/**
 * The package's public entry points (package.json `exports`) keep their names: for each one, the names its
 * declaration file exports (values and types alike, as TypeScript resolves them through every `export *`) are
 * the ones in test/golden/public-api.json, and `npm pack` puts both of its files in the tarball. Moving a file
 * of the library must not add, drop or rename a public name; an intended change of the API rewrites the golden
 * file with METALSLICE_UPDATE_GOLDEN=1 (review the diff, and say it in the CHANGELOG).
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { REPO_ROOT } from '../support/models';

const GOLDEN = path.join(REPO_ROOT, 'test', 'golden', 'public-api.json');

interface EntryPoint {
  readonly types: string;
  readonly default: string;
}

function entryPoints(): Record<string, EntryPoint> {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, EntryPoint | string> };
  const out: Record<string, EntryPoint> = {};
  for (const [key, target] of Object.entries(pkg.exports)) if (typeof target !== 'string') out[key] = target;
  return out;
}

/** Every name each declaration file exports, sorted, as the TypeScript checker sees the module. */
function exportedNames(files: Record<string, string>): Record<string, string[]> {
  const program = ts.createProgram(Object.values(files), {
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  });
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of Object.entries(files)) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${file} is not a module TypeScript can read: run npm run build`);
    out[entry] = checker
      .getExportsOfModule(symbol)
      .map((s) => s.getName())
      .sort();
  }
  return out;
}

describe('the public entry points', () => {
  const entries = entryPoints();

  it('export the same names as before, values and types', () => {
    const files = Object.fromEntries(Object.entries(entries).map(([key, e]) => [key, path.join(REPO_ROOT, e.types)]));
    for (const file of Object.values(files)) expect({ file, exists: fs.existsSync(file) }).toEqual({ file, exists: true });
    const names = exportedNames(files);
    if (process.env.METALSLICE_UPDATE_GOLDEN === '1') fs.writeFileSync(GOLDEN, `${JSON.stringify(names, null, 2)}\n`);
    expect(names).toEqual(JSON.parse(fs.readFileSync(GOLDEN, 'utf8')));
  }, 120_000);

  it('are in the packed tarball, declarations and code', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(r.status).toBe(0);
    const packed = new Set((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
    const missing = Object.values(entries)
      .flatMap((e) => [e.types, e.default])
      .map((f) => f.replace(/^\.\//, ''))
      .filter((f) => !packed.has(f));
    expect(missing).toEqual([]);
  }, 120_000);
});
