// Jest global teardown: removes the run's temp dir (scripts/jest-tmpdir-setup.mjs), unless
// METALSLICE_KEEP_TEST_TMPDIR=1 asks to keep it to read a failed run's files.
import * as fs from 'node:fs';

export default function teardown() {
  const dir = process.env.METALSLICE_TEST_TMPDIR;
  if (dir && !process.env.METALSLICE_KEEP_TEST_TMPDIR) fs.rmSync(dir, { recursive: true, force: true });
}
