/**
 * Output files the CLI writes (node-template-vars --out, inventory --out and --snapshot) are written whole: a
 * temporary file beside the target, then a rename, so a reader (OpenTofu, a plan) never sees half a file and a
 * failed write leaves the previous file as it was.
 */
import * as fs from 'fs';
import * as path from 'path';

/** Writes `text` to `file` through a temporary file beside it and a rename; throws what the file system threw. */
export function writeWhole(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx' });
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
