/** Runs cloud-init's own schema check (Debian package cloud-init) on a user-data document. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export function cloudInitSchemaCheck(userData: string): { ok: boolean; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-cloud-init-'));
  const file = path.join(dir, 'user-data');
  fs.writeFileSync(file, userData);
  try {
    const run = spawnSync('cloud-init', ['schema', '--config-file', file], { encoding: 'utf8' });
    if (run.error) throw new Error(`cloud-init is not installed (${run.error.message}): run scripts/toolchain.sh`);
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// cloud-init's own write_files module (cc_write_files), with every path moved under a root directory.
const WRITE_FILES = `
import json, os, sys
from cloudinit import util
from cloudinit.config.cc_write_files import write_files
root = sys.argv[1]
cfg = util.load_yaml(sys.stdin.read()) or {}
files = [dict(f, path=os.path.join(root, f["path"].lstrip("/"))) for f in cfg.get("write_files") or []]
write_files("write_files", files, "root:root")
print(json.dumps([f["path"] for f in files]))
`;

/**
 * Writes the `write_files` of a user-data document as cloud-init would on the node (its cc_write_files module:
 * decoding, permissions, owner), under `root` instead of `/`. Returns the paths written.
 */
export function cloudInitWriteFiles(userData: string, root: string): string[] {
  if (!userData.startsWith('#cloud-config\n')) throw new Error('user data does not start with #cloud-config: cloud-init would not read it as cloud-config');
  // cloud-init is a Python package of the distribution: run the interpreter its own command uses.
  const python = fs
    .readFileSync('/usr/bin/cloud-init', 'utf8')
    .split('\n')[0]
    .replace(/^#!\s*/, '')
    .split(/\s+/)[0];
  const run = spawnSync(python, ['-c', WRITE_FILES, root], { input: userData, encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`cloud-init's write_files failed (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}
