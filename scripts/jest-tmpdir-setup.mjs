// Jest global setup: one temp dir per test run. Every test's temp files (cdktf's synth dirs, which its Testing
// helpers never remove, tofu working dirs, kubeconfigs) go under it, and scripts/jest-tmpdir-teardown.mjs
// removes it when the run ends. Jest starts its workers after this, so they inherit TMPDIR, and os.tmpdir()
// answers with it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export default function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-test-'));
  process.env.METALSLICE_TEST_TMPDIR = dir;
  process.env.TMPDIR = dir;
}
