/**
 * `metalslice pack FILE.vbp [--time-limit-ms N]`: the placement engine on a VPSolver `.vbp` instance.
 * Prints one JSON line `{"bins": K, "binOf": [...]}` (the 0-based bin of every item, items expanded by
 * demand in file order) and exits 0; a file that cannot be read or parsed is reported on stderr with
 * the file and line, exit 1. Negative sizes (which the format does not forbid) are packed as zero, so
 * the packing stays valid, with a note on stderr.
 */
import { UnreadableInputError } from '../core/base/errors';
import { escapeText } from '../core/base/excerpt';
import { readInputFile } from '../core/input/read-file';
import { clampNegativeSizes, packBins, parseVbp, PackingInstance } from '../core/packing';

export const DEFAULT_PACK_TIME_LIMIT_MS = 2000;

export async function runPack(file: string, opts: { timeLimitMs?: number }, io: { stdout: (s: string) => void; stderr: (s: string) => void }): Promise<number> {
  let text: string;
  try {
    text = readInputFile(file, 'vbp');
  } catch (e) {
    if (!(e instanceof UnreadableInputError)) throw e;
    // A file that cannot be read is a usage error, as in every subcommand.
    io.stderr(e.issues.map((i) => `metalslice pack: error: ${i.path}: ${i.message}\n`).join(''));
    return 2;
  }
  let instance: PackingInstance;
  try {
    const parsed = clampNegativeSizes(parseVbp(text));
    if (parsed.clamped > 0) {
      io.stderr(`metalslice pack: ${file}: ${parsed.clamped} negative size(s) packed as 0; the packing is valid but may use more bins than the optimum\n`);
    }
    instance = parsed;
  } catch (e) {
    io.stderr(`metalslice pack: ${escapeText(file)}: ${(e as Error).message}\n`);
    return 1;
  }
  const result = await packBins(instance, { timeLimitMs: opts.timeLimitMs ?? DEFAULT_PACK_TIME_LIMIT_MS });
  io.stdout(`${JSON.stringify({ bins: result.bins, binOf: result.binOf })}\n`);
  return 0;
}
