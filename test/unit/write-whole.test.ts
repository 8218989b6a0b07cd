/**
 * Output files are written whole: the new text or, when the write fails, the old file as it was, and never a
 * temporary file left beside it.
 */
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeWhole } from '../../constructs/cli/write-whole';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-write-'));
}

describe('writeWhole', () => {
  it('replaces the file with the new text and leaves nothing else in the directory', () => {
    const dir = tempDir();
    try {
      const file = path.join(dir, 'hosts.json');
      fs.writeFileSync(file, 'old');
      writeWhole(file, 'new text');
      expect(fs.readFileSync(file, 'utf8')).toBe('new text');
      expect(fs.readdirSync(dir)).toEqual(['hosts.json']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the rename fails, the target is as it was and the temporary file is gone', () => {
    const dir = tempDir();
    try {
      // A directory in the target's place: the text is written beside it, the rename refuses.
      const target = path.join(dir, 'out');
      fs.mkdirSync(target);
      fs.writeFileSync(path.join(target, 'keep'), 'kept');
      expect(() => writeWhole(target, 'new')).toThrow();
      expect(fs.readdirSync(dir)).toEqual(['out']);
      expect(fs.readFileSync(path.join(target, 'keep'), 'utf8')).toBe('kept');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a missing directory is an error, and nothing is created', () => {
    const dir = tempDir();
    try {
      expect(() => writeWhole(path.join(dir, 'no', 'such', 'file.json'), 'x')).toThrow(/ENOENT/);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
