// Boots the node image scripts/node-image.sh builds in a QEMU VM under software emulation (TCG: no KVM
// needed), with a NoCloud seed made from a user-data document, the way KubeVirt hands a VM its cloud-init:
// a vfat volume labelled `cidata`. The VM's only network is QEMU's user network with `restrict=on` (no route
// out) and its forwards: the guest's 10.0.2.100:6443 is the test control plane's API server on this machine, and
// a boot may add more (the fleet's package mirror, for a mirror bootstrap).
// Its power button is pressed over QMP (`system_powerdown`, an ACPI power button event, as KubeVirt stops a VM).
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { REPO_ROOT, run } from '../e2e/harness';

/** The address and port the guest dials for the API server (forwarded to the control plane on this machine). */
export const GUEST_API_SERVER = { host: '10.0.2.100', port: 6443 } as const;

/** Which image scripts/node-image.sh builds: node software preinstalled, or none (installed from a mirror at boot). */
export type NodeImageVariant = 'preinstalled' | 'mirror';

/** What scripts/node-image.sh built (its image.env). */
export interface NodeImage {
  readonly dir: string;
  readonly variant: NodeImageVariant;
  readonly disk: string;
  readonly diskFormat: string;
  readonly kernel: string;
  readonly initrd: string;
  readonly cmdline: string;
  readonly kernelVersion: string;
  /** The image's kubelet (`v1.34.4`); empty in the mirror image, which has none. */
  readonly kubeletVersion: string;
  readonly kubeadmVersion: string;
  /** containerd's version as `containerd --version` prints it; empty in the mirror image. */
  readonly containerdVersion: string;
  /**
   * containerd's package version: the one installed (preinstalled), or the one the image's apt sources offered
   * when it was built (mirror), `1.6.20~ds1-1+deb12u3`.
   */
  readonly containerdPackage: string;
  readonly pauseImage: string;
  readonly workloadImage: string;
}

/** Builds the node image (instant when cached) and reads what it made. */
export async function buildNodeImage(variant: NodeImageVariant = 'preinstalled', timeoutMs = 1_800_000): Promise<NodeImage> {
  const r = await run('bash', [path.join(REPO_ROOT, 'scripts', 'node-image.sh'), '--variant', variant], { timeoutMs });
  if (r.code !== 0) throw new Error(`scripts/node-image.sh exited ${r.code}: ${r.stderr.slice(-3000)}`);
  const dir = r.stdout.trim().split('\n').pop() ?? '';
  return readNodeImage(dir);
}

export function readNodeImage(dir: string): NodeImage {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(path.join(dir, 'image.env'), 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  }
  const get = (k: string): string => {
    const v = env[`NODE_IMAGE_${k}`];
    if (v === undefined) throw new Error(`${dir}/image.env has no NODE_IMAGE_${k}`);
    return v;
  };
  const variant = get('VARIANT');
  if (variant !== 'preinstalled' && variant !== 'mirror') throw new Error(`${dir}/image.env: unknown variant ${variant}`);
  return {
    dir,
    variant,
    disk: get('DISK'),
    diskFormat: get('DISK_FORMAT'),
    kernel: get('KERNEL'),
    initrd: get('INITRD'),
    cmdline: get('CMDLINE'),
    kernelVersion: get('KERNEL_VERSION'),
    kubeletVersion: get('KUBELET_VERSION'),
    kubeadmVersion: get('KUBEADM_VERSION'),
    containerdVersion: get('CONTAINERD_VERSION'),
    containerdPackage: get('CONTAINERD_PACKAGE'),
    pauseImage: get('PAUSE'),
    workloadImage: get('WORKLOAD'),
  };
}

export interface BootOptions {
  readonly image: NodeImage;
  /** The user-data document (`#cloud-config ...`). */
  readonly userData: string;
  /** The guest's hostname in meta-data (local-hostname); also names its instance. */
  readonly hostname: string;
  /** The API server's port on this machine's loopback, reached from the guest at GUEST_API_SERVER. */
  readonly apiServerPort: number;
  /** More of the guest's destinations carried to ports on this machine's loopback. @default - none */
  readonly forwards?: readonly GuestForward[];
  /** Where the seed, the overlay disk, the QMP socket and the console log go. */
  readonly dir: string;
  /** Forward the guest's journal to its console (kubelet, containerd, kubeadm: all in the console log). @default true */
  readonly journalOnConsole?: boolean;
  readonly cpus?: number;
  readonly memoryMiB?: number;
}

/** A guest address (on QEMU's user network, 10.0.2.0/24) whose connections go to a port on this machine's loopback. */
export interface GuestForward {
  /** `10.0.2.101:80` */
  readonly guest: string;
  readonly hostPort: number;
}

export interface Vm {
  /** The serial console, as a file the guest writes. */
  readonly consoleLog: string;
  /** When QEMU was started (ms since the epoch). */
  readonly startedAt: number;
  /** The console log so far. */
  console(): string;
  /** Waits until the console log matches; returns the match and when it was first seen (ms since start). */
  waitForConsole(pattern: RegExp, timeoutMs: number): Promise<{ match: RegExpMatchArray; afterMs: number }>;
  /** Presses the ACPI power button (QMP system_powerdown). */
  powerdown(): Promise<void>;
  /** Resolves when QEMU exits (the guest powered off), with its exit code. */
  readonly exited: Promise<number | null>;
  /** Waits for QEMU to exit; rejects after timeoutMs. */
  waitForExit(timeoutMs: number): Promise<number | null>;
  /** Kills QEMU (no grace) if it is still running; idempotent. */
  kill(): Promise<void>;
}

/** A NoCloud seed: a vfat volume labelled CIDATA with user-data and meta-data at its root. */
export async function makeSeed(dir: string, userData: string, hostname: string): Promise<string> {
  const files = path.join(dir, 'seed');
  fs.mkdirSync(files, { recursive: true });
  fs.writeFileSync(path.join(files, 'user-data'), userData);
  fs.writeFileSync(path.join(files, 'meta-data'), `instance-id: ${hostname}-${Date.now()}\nlocal-hostname: ${hostname}\n`);
  const seed = path.join(dir, 'seed.img');
  fs.rmSync(seed, { force: true });
  const mkfs = await run('mkfs.vfat', ['-n', 'CIDATA', '-C', seed, '2048'], { env: withSbin() });
  if (mkfs.code !== 0) throw new Error(`mkfs.vfat: ${mkfs.stderr}`);
  const copy = await run('mcopy', ['-i', seed, path.join(files, 'user-data'), path.join(files, 'meta-data'), '::/']);
  if (copy.code !== 0) throw new Error(`mcopy: ${copy.stderr}`);
  return seed;
}

function withSbin(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: [process.env.PATH ?? '', '/usr/sbin', '/sbin'].join(path.delimiter) };
}

/** Starts the VM and returns at once; the guest boots in the background. */
export async function bootVm(opts: BootOptions): Promise<Vm> {
  fs.mkdirSync(opts.dir, { recursive: true });
  const seed = await makeSeed(opts.dir, opts.userData, opts.hostname);
  // A copy-on-write overlay: the guest writes here, the cached image stays as built.
  const overlay = path.join(opts.dir, 'disk.qcow2');
  fs.rmSync(overlay, { force: true });
  const img = await run('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', opts.image.disk, '-F', opts.image.diskFormat, overlay]);
  if (img.code !== 0) throw new Error(`qemu-img create: ${img.stderr}`);
  const consoleLog = path.join(opts.dir, 'console.log');
  const qmpSocket = path.join(opts.dir, 'qmp.sock');
  fs.rmSync(consoleLog, { force: true });
  fs.rmSync(qmpSocket, { force: true });
  const journal = opts.journalOnConsole === false ? [] : ['systemd.journald.forward_to_console=1', 'systemd.journald.max_level_console=info'];
  const args = [
    '-accel',
    'tcg',
    '-smp',
    String(opts.cpus ?? 2),
    '-m',
    String(opts.memoryMiB ?? 2048),
    '-nographic',
    '-no-reboot',
    '-kernel',
    opts.image.kernel,
    '-initrd',
    opts.image.initrd,
    '-append',
    [opts.image.cmdline, ...journal].join(' '),
    '-drive',
    `file=${overlay},if=virtio,format=qcow2`,
    '-drive',
    `file=${seed},if=virtio,format=raw,readonly=on`,
    '-netdev',
    // guestfwd to a `cmd:` runs it for each connection the guest opens (a `tcp:` chardev is one connection, made
    // when QEMU starts): socat carries it to the API server (or another forward's port) on this machine's loopback.
    [
      'user,id=n0,restrict=on',
      ...[{ guest: `${GUEST_API_SERVER.host}:${GUEST_API_SERVER.port}`, hostPort: opts.apiServerPort }, ...(opts.forwards ?? [])].map(
        (f) => `guestfwd=tcp:${f.guest}-cmd:socat STDIO TCP4:127.0.0.1:${f.hostPort}`,
      ),
    ].join(','),
    '-device',
    'virtio-net-pci,netdev=n0',
    // Entropy for the guest's early boot (TLS keys at join) without waiting for the kernel to gather it.
    '-device',
    'virtio-rng-pci',
    '-serial',
    `file:${consoleLog}`,
    '-monitor',
    'none',
    '-qmp',
    `unix:${qmpSocket},server=on,wait=off`,
  ];
  fs.writeFileSync(path.join(opts.dir, 'qemu.args'), `qemu-system-x86_64 ${args.map((a) => JSON.stringify(a)).join(' ')}\n`);
  const stderr = fs.openSync(path.join(opts.dir, 'qemu.log'), 'w');
  const startedAt = Date.now();
  const child: ChildProcess = spawn('qemu-system-x86_64', args, { stdio: ['ignore', stderr, stderr] });
  fs.closeSync(stderr);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));
  const readConsole = (): string => (fs.existsSync(consoleLog) ? fs.readFileSync(consoleLog, 'utf8') : '');

  const vm: Vm = {
    consoleLog,
    startedAt,
    console: readConsole,
    async waitForConsole(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = readConsole().match(pattern);
        if (match) return { match, afterMs: Date.now() - startedAt };
        if (!running) throw new Error(`QEMU exited before the console showed ${pattern}; last lines:\n${lastLines(readConsole(), 40)}`);
        if (Date.now() > deadline)
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${pattern} on the console; last lines:\n${lastLines(readConsole(), 40)}`);
        await sleep(1000);
      }
    },
    powerdown: () => qmp(qmpSocket, 'system_powerdown'),
    exited,
    async waitForExit(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`QEMU still running after ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async kill() {
      if (!running) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  return vm;
}

/** Sends one QMP command (after the capabilities handshake) and resolves on its reply. */
export function qmp(socket: string, command: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socket);
    let buffer = '';
    let step = 0;
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error(`QMP ${command}: no reply within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (err?: Error): void => {
      clearTimeout(timer);
      conn.end();
      if (err) reject(err);
      else resolve();
    };
    conn.on('error', (e) => done(e));
    conn.on('data', (d) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as { QMP?: unknown; return?: unknown; error?: { desc?: string }; event?: string };
        if (msg.event) continue;
        if (msg.error) return done(new Error(`QMP ${step === 1 ? 'qmp_capabilities' : command}: ${msg.error.desc ?? JSON.stringify(msg.error)}`));
        if (msg.QMP && step === 0) {
          step = 1;
          conn.write(`${JSON.stringify({ execute: 'qmp_capabilities' })}\n`);
        } else if (msg.return !== undefined && step === 1) {
          step = 2;
          conn.write(`${JSON.stringify({ execute: command })}\n`);
        } else if (msg.return !== undefined && step === 2) {
          done();
        }
      }
    });
  });
}

export function lastLines(text: string, n: number): string {
  return text.split('\n').slice(-n).join('\n');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
