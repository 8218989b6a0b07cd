/**
 * Reading an input file: the one owner of how metalslice opens what it is given (config, hostsFile
 * inventories, vcluster files, previous plans, kubeconfigs, `.vbp` instances). Only a regular file is read (a
 * symlink is followed, to a regular file only); a device (`/dev/zero`), a FIFO, a socket or a directory is
 * refused before a byte is read, and a FIFO never blocks (it is opened non-blocking). Every kind has a size cap,
 * enforced while reading, so a file that grows or lies about its size (`/proc`) is still read in bounded memory.
 */
import * as fs from 'fs';
import { escapeText } from '../base/excerpt';
import { UnreadableInputError } from '../base/errors';

const MiB = 1024 * 1024;

/**
 * The largest file of each kind metalslice reads. Each is far above a real one (measured sizes in the
 * comments), and low enough that parsing the largest allowed file takes well under a second.
 */
export const MAX_INPUT_BYTES = {
  /** A config with 10,000 hosts inline is about 2 MiB. */
  config: 8 * MiB,
  /** `metalslice inventory` writes about 600 bytes per host: 32 MiB is over 50,000 hosts, above MAX_HOSTS_PER_FLEET. */
  hostsFile: 32 * MiB,
  /** A vcluster.yaml with every chart value set is under 100 KiB. */
  vcluster: 4 * MiB,
  /** A plan JSON is about 1 KiB per VM: 64 MiB holds more VMs than MAX_TOTAL_VMS. */
  plan: 64 * MiB,
  /** A kubeconfig with dozens of contexts and embedded certificates is under 100 KiB. */
  kubeconfig: 4 * MiB,
  /** A certificate, key, CA bundle or token a kubeconfig names: a CA bundle of every public root is about 250 KiB. */
  credential: 1 * MiB,
  /** A `.vbp` packing instance: one short line per item type. */
  vbp: 16 * MiB,
  /** `metalslice inventory --snapshot` writes about 1 KiB per Node and 600 bytes per pod: 5,000 hosts of 110 pods are about 330 MiB. */
  snapshot: 512 * MiB,
} as const;

export type InputKind = keyof typeof MAX_INPUT_BYTES;

const NOUN: Record<InputKind, string> = {
  config: 'config file',
  hostsFile: 'hosts file',
  vcluster: 'vcluster file',
  plan: 'plan file',
  kubeconfig: 'kubeconfig',
  credential: 'credential file',
  vbp: '.vbp file',
  snapshot: 'cluster snapshot',
};

/** How to fix a file that is missing or cannot be opened. */
const FIX: Partial<Record<InputKind, string>> = {
  hostsFile: 'check the path (relative to the config file), or write it with `metalslice inventory --out FILE`',
  vcluster: 'check the path (relative to the config file)',
  snapshot: 'check the path, or write it with `metalslice inventory --snapshot FILE`',
};

const CHUNK = 64 * 1024;

/** What a non-regular file is, for the message. */
function fileKind(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function mib(bytes: number): string {
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(1)} MiB`;
}

function refuse(at: string, message: string): never {
  throw new UnreadableInputError([{ path: at, message }]);
}

/** Reads at most `cap` + 1 bytes of an open regular file, in chunks: a file that grows while read is still bounded. */
function readBounded(fd: number, cap: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, cap + 1 - total));
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > cap) return undefined;
  }
}

/** Standard input (`-`), bounded like a file; a terminal or a closed input reads as empty. */
function readStdin(kind: InputKind, at: string): string {
  const cap = MAX_INPUT_BYTES[kind];
  let bytes: Buffer | undefined;
  try {
    bytes = readBounded(0, cap);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // EAGAIN: a non-blocking input with nothing written yet; EOF: a closed one.
    if (code === 'EOF') return '';
    return refuse(at, `cannot read the ${NOUN[kind]} from standard input (${code ?? 'error'}): pipe it in, as in \`metalslice plan - < FILE\``);
  }
  if (bytes === undefined) refuse(at, `standard input is more than the ${mib(cap)} a ${NOUN[kind]} may have`);
  return bytes.toString('utf8');
}

/** Why a file could not be opened, in words, with the system's code: `no such file (ENOENT)`. */
function openFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOTDIR: 'a part of the path is not a directory',
    ELOOP: 'too many symbolic links',
    ENAMETOOLONG: 'the path is too long',
  };
  return code === undefined ? 'error' : words[code] ? `${words[code]} (${code})` : code;
}

/**
 * The text of `file` (`-`: standard input), a regular file of at most MAX_INPUT_BYTES[kind] bytes, as UTF-8. Anything else throws an
 * UnreadableInputError (a usage error: exit 2) at `at` (default: the file) naming the file, what it is and the cap.
 */
export function readInputFile(file: string, kind: InputKind, at: string = escapeText(file)): string {
  if (file === '-') return readStdin(kind, at);
  // The message names the file unless the path already does.
  const shown = at === escapeText(file) ? '' : ` ${escapeText(file)}`;
  const noun = NOUN[kind];
  const cap = MAX_INPUT_BYTES[kind];
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting; it is then refused below.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (e) {
    return refuse(at, `cannot read the ${noun}${shown}: ${openFailure(e)}: ${FIX[kind] ?? 'check the path'}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) refuse(at, `the ${noun}${shown} is ${fileKind(stat)}, not a regular file: pass a file`);
    if (stat.size > cap) refuse(at, `the ${noun}${shown} is ${mib(stat.size)}, more than the ${mib(cap)} a ${noun} may have`);
    const bytes = readBounded(fd, cap);
    if (bytes === undefined) refuse(at, `the ${noun}${shown} is more than the ${mib(cap)} a ${noun} may have`);
    return bytes.toString('utf8');
  } catch (e) {
    if (e instanceof UnreadableInputError) throw e;
    return refuse(at, `cannot read the ${noun}${shown} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    fs.closeSync(fd);
  }
}
