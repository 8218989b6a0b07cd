import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runPack } from '../../constructs/cli/pack';
import { packingViolations, parseVbp } from '../../constructs/core/packing';

function capture(): { io: { stdout: (s: string) => void; stderr: (s: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s) => out.push(s), stderr: (s) => err.push(s) }, out, err };
}

describe('metalslice pack (runPack)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-pack-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('prints one JSON line with the bin count and the bin of every expanded item, exit 0', async () => {
    const text = '2\n10 10\n3\n6 4 2\n4 6 2\n5 5 1\n';
    const file = write('ok.vbp', text);
    const { io, out, err } = capture();
    expect(await runPack(file, { timeLimitMs: 200 }, io)).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(1);
    expect(out[0].endsWith('\n')).toBe(true);
    expect(out[0].trim().split('\n')).toHaveLength(1);
    const result = JSON.parse(out[0]) as { bins: number; binOf: number[] };
    expect(Object.keys(result)).toEqual(['bins', 'binOf']);
    expect(result.binOf).toHaveLength(5);
    expect(packingViolations(parseVbp(text), result.binOf)).toEqual([]);
    expect(new Set(result.binOf).size).toBe(result.bins);
    // 6+4 and 4+6 pair up exactly; the fifth item needs a bin of its own.
    expect(result.bins).toBe(3);
  });

  it('reports an invalid file with its name and line on stderr, exit 1', async () => {
    const file = write('bad.vbp', '3\n100 100 100\n20\n99 11\n');
    const { io, out, err } = capture();
    expect(await runPack(file, {}, io)).toBe(1);
    expect(out).toEqual([]);
    expect(err.join('')).toContain(`${file}: line 4: expected 4 integers (3 sizes and a demand), got 2 fields`);
  });

  it('reports a file it cannot read as a usage error, exit 2', async () => {
    const file = path.join(dir, 'missing.vbp');
    const { io, out, err } = capture();
    expect(await runPack(file, {}, io)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('')).toBe(`metalslice pack: error: ${file}: cannot read the .vbp file: no such file (ENOENT): check the path\n`);
  });

  it('packs negative sizes as zero, with a note, so the packing stays valid', async () => {
    const text = '1\n10\n3\n6 1\n-2 1\n6 1\n';
    const file = write('negative.vbp', text);
    const { io, out, err } = capture();
    expect(await runPack(file, { timeLimitMs: 100 }, io)).toBe(0);
    expect(err.join('')).toContain('1 negative size(s) packed as 0');
    const result = JSON.parse(out[0]) as { bins: number; binOf: number[] };
    expect(packingViolations(parseVbp(text), result.binOf)).toEqual([]);
  });
});
