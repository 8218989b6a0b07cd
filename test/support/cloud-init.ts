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
