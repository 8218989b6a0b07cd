/**
 * Fuzzing every file reader and every CLI subcommand with hostile files: random bytes, random YAML, and
 * special files (a FIFO, /dev/zero, a directory, a symlink to /proc/self/environ, a file over every cap). The
 * CLI runs in-process through `main`; each run must exit 0, 1 or 2 (never 70, never hang), in bounded time and
 * memory, and never echo the bytes of a file that is not a map.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { main } from '../../constructs/cli/main';

const RUNS = 60;
/** Every way a file reaches metalslice: as the config, inside a config, as a plan, as a packing instance, as a kubeconfig. */
const COMMANDS: readonly ((file: string, dir: string) => string[])[] = [
  (f) => ['plan', f, '--json'],
  (f) => ['plan', f, '--markdown'],
  (f, dir) => ['plan', writeConfig(dir, `fleets:\n  - {name: a, hostsFile: ${JSON.stringify(f)}}\n`)],
  (f, dir) => ['plan', writeConfig(dir, `vclusters:\n  - {cluster: c, file: ${JSON.stringify(f)}}\n`)],
  (f) => ['plan', path.join(__dirname, '..', '..', 'examples', 'metalslice.yaml'), '--json', '--previous', f],
  (f) => ['report', f],
  (f) => ['report', f, '--markdown'],
  (f) => ['pack', f, '--time-limit-ms', '200'],
  (f) => ['inventory', '--kubeconfig', f],
];

function writeConfig(dir: string, text: string): string {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

async function run(args: string[]) {
  let out = '';
  const started = Date.now();
  const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (out += s) });
  return { code, out, ms: Date.now() - started };
}

/** A marker that must never come back: random content is wrapped in it, so an echo of the file shows. */
const MARK = 'SECRETzq9';

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-fuzz-files-'));
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  fs.mkdirSync(path.join(dir, 'a-dir'));
  fs.symlinkSync('/proc/self/environ', path.join(dir, 'environ-link'));
  const fd = fs.openSync(path.join(dir, 'huge'), 'w');
  fs.ftruncateSync(fd, 65 * 1024 * 1024);
  fs.closeSync(fd);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('hostile files, to every reader and subcommand', () => {
  it.each(['fifo', 'a-dir', 'environ-link', 'huge', '/dev/zero'])(
    '%s: exit 0, 1 or 2, at once',
    async (name) => {
      const file = name.startsWith('/') ? name : path.join(dir, name);
      for (const command of COMMANDS) {
        const { code, out, ms } = await run(command(file, dir));
        expect([0, 1, 2]).toContain(code);
        expect(ms).toBeLessThan(5000);
        expect(out).not.toMatch(/PATH=|HOME=/);
      }
    },
    120_000,
  );

  it('random bytes and random YAML: exit 0, 1 or 2, bounded, and the content never echoed', async () => {
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((b) => `${MARK}${Buffer.from(b).toString('latin1')}${MARK}`),
      fc.jsonValue({ maxDepth: 3 }).map((v) => stringify([MARK, v, MARK])),
      fc.string({ maxLength: 200 }).map((s) => `${MARK}\n${s}\n${MARK}`),
      fc.jsonValue({ maxDepth: 3 }).map((v) => `${MARK}: ${JSON.stringify(v)}\n`),
    );
    await fc.assert(
      fc.asyncProperty(content, fc.nat({ max: COMMANDS.length - 1 }), async (text, which) => {
        const file = path.join(dir, 'random.yaml');
        fs.writeFileSync(file, text, 'latin1');
        const heapBefore = process.memoryUsage().heapUsed;
        const { code, out, ms } = await run(COMMANDS[which](file, dir));
        expect([0, 1, 2]).toContain(code);
        expect(ms).toBeLessThan(5000);
        expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
        // A map's keys are named in paths (escaped); a file that is not a map is never echoed.
        if (!text.startsWith(`${MARK}:`)) expect(out).not.toContain(MARK);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
