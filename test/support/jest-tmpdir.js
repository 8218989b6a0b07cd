// One temp dir per test run: every test's temp files (cdktf's synth dirs, which its Testing helpers never
// remove, tofu working dirs, kubeconfigs) go under it, and the run removes it when it ends. Jest's workers
// are started after this global setup, so they inherit TMPDIR and os.tmpdir() answers with it.
const fs = require('fs');
const os = require('os');
const path = require('path');

const KEY = 'METALSLICE_TEST_TMPDIR';

module.exports.setup = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-test-'));
  process.env[KEY] = dir;
  process.env.TMPDIR = dir;
};

module.exports.teardown = async () => {
  const dir = process.env[KEY];
  // METALSLICE_KEEP_TEST_TMPDIR=1 keeps it to read a failed run's files.
  if (dir && !process.env.METALSLICE_KEEP_TEST_TMPDIR) fs.rmSync(dir, { recursive: true, force: true });
};
