// The last step of the CDK Terrain build (tsconfig.cdktn.json): the emitted JavaScript and declarations still
// name the module `cdktf` (tsc keeps import specifiers); point them at `cdktn`, which the build was type-checked
// against. Only whole specifiers change (`"cdktf"`, `'cdktf/lib/...'`), so a string that merely contains the word stays.
// Fails when the build holds no such import, so a broken build does not pass silently.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const OUT = path.join(ROOT, 'dist', 'cdktn');
const SPECIFIER = /(require\(|from |import\()(["'])cdktf(\/[^"']*)?\2/g;

/**
 * Every .js and .d.ts file under dir.
 * @param {string} dir
 * @returns {string[]}
 */
function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(js|d\.ts)$/.test(e.name) ? [p] : [];
  });
}

let rewritten = 0;
for (const file of files(OUT)) {
  const text = fs.readFileSync(file, 'utf8');
  const next = text.replace(SPECIFIER, (_m, head, quote, subpath = '') => `${head}${quote}cdktn${subpath}${quote}`);
  if (next !== text) {
    fs.writeFileSync(file, next);
    rewritten += 1;
  }
}
if (rewritten === 0) throw new Error(`no cdktf import found under ${OUT}: run tsc -p tsconfig.cdktn.json first`);
