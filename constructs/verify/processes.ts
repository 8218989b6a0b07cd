/**
 * Running a local control plane's components, shared by `metalslice verify` and the e2e harness: each
 * component runs in its own process group with its log in a file, so stopping it also ends whatever it
 * forked; groups still alive when this process exits are killed, so an aborted run leaves nothing behind.
 * Also: a free loopback port, polling until ready, a file's last lines, and one JSON-over-HTTPS request.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import * as path from 'path';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  });
}

export interface Component {
  readonly name: string;
  readonly child: ChildProcess;
  /** Standard output and error, appended. */
  readonly logFile: string;
  exited: boolean;
}

/** Starts `command` in `dir` as the leader of a new process group, logging to `<dir>/<name>.log`. */
export function startComponent(name: string, command: string, args: readonly string[], dir: string, env?: NodeJS.ProcessEnv): Component {
  installExitHook();
  const logFile = path.join(dir, `${name}.log`);
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: dir, detached: true, stdio: ['ignore', fd, fd], env: env ?? process.env });
  fs.closeSync(fd);
  const component: Component = { name, child, logFile, exited: false };
  if (child.pid !== undefined) liveGroups.add(child.pid);
  child.on('exit', () => (component.exited = true));
  child.on('error', () => (component.exited = true));
  return component;
}

/**
 * CPU seconds (user + system) a running component has used, from /proc; undefined where /proc is not there
 * or the process has gone. Measures which part of a replay bounds it.
 */
export function cpuSeconds(c: Component): number | undefined {
  const pid = c.child.pid;
  if (pid === undefined || c.exited) return undefined;
  try {
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are fields 14 and 15.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ: what /proc counts CPU time in (100 on every Linux architecture Node runs on). */
const CLOCK_TICKS_PER_SECOND = 100;

/** TERM to the component's group, KILL after `graceMs`, and KILL again for anything it forked that outlived it. */
export async function stopComponent(c: Component, graceMs = 5000): Promise<void> {
  const pid = c.child.pid;
  if (pid === undefined) return;
  if (!c.exited) {
    const exited = new Promise<void>((resolve) => c.child.once('exit', () => resolve()));
    signalGroup(pid, 'SIGTERM');
    if (!(await within(exited, graceMs))) signalGroup(pid, 'SIGKILL');
    await within(exited, 2000);
  }
  signalGroup(pid, 'SIGKILL');
  liveGroups.delete(pid);
}

/** The last `lines` lines of a file, or "(no log)". */
export function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A limit of `n` tasks at once, started in the order they are asked for: a task that ends hands its slot to the
 * next one waiting, so no newcomer slips in between.
 */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** Runs `work` over `items`, in their order, with at most `limit` in flight. */
export async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const run = limiter(Math.max(1, limit));
  await Promise.all(items.map((item) => run(() => work(item))));
}

/** Whether `p` settles within `ms`; the timer is cleared either way, so nothing keeps the process alive. */
export async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port nothing listens on at 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The inodes of the sockets listening on TCP `port` (IPv4 and IPv6, any address), from /proc/net; undefined where
 * /proc/net is not there (not Linux).
 */
function listeningInodes(port: number): Set<string> | undefined {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let readable = false;
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    readable = true;
    // sl local_address rem_address st ... inode: state 0A is LISTEN; the port is the address's last four hex digits.
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && f[1].endsWith(hexPort)) inodes.add(f[9]);
    }
  }
  return readable ? inodes : undefined;
}

/**
 * Whether what listens on TCP `port` of this machine is `c`'s process: false while nothing listens there or another
 * process does; true when it is `c`'s, or when /proc cannot say (not Linux). A port picked free a moment before can be
 * taken by another process in between, and a readiness probe would then hear that process (another control plane's
 * etcd answers `/health` too) while `c` fails to bind: a probe checks this first.
 */
export function listensOn(c: Component, port: number): boolean {
  const inodes = listeningInodes(port);
  if (inodes === undefined) return true;
  const pid = c.child.pid;
  if (inodes.size === 0 || pid === undefined || c.exited) return false;
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      return m !== null && inodes.has(m[1]);
    } catch {
      return false; // closed since the listing
    }
  });
}

/**
 * Waits, as {@link waitFor}, until `c` serves on `port`: its own process listens there ({@link listensOn}) and
 * `ready` (a probe of that port) says so. Every readiness wait of a component on a port picked free goes through
 * this, so a probe answered by another process never counts.
 */
export function waitForServing(
  what: string,
  c: Component,
  port: number,
  timeoutMs: number,
  ready: () => Promise<boolean>,
  fatal?: () => string | undefined,
): Promise<void> {
  return waitFor(what, timeoutMs, async () => listensOn(c, port) && (await ready()), fatal);
}

/**
 * Starts something that binds ports it picked with {@link freePort}, again on new ports when another process took
 * one between the pick and the bind (a component then says `address already in use`): at most `attempts` starts in
 * all. `start` must stop what it started before it throws. Any other failure is thrown at once. `onRetry` hears
 * each retry.
 */
export async function startOnFreePorts<T>(start: () => Promise<T>, attempts = 3, onRetry?: (attempt: number) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (attempt >= attempts || !/address already in use/.test(e instanceof Error ? e.message : String(e))) throw e;
      onRetry?.(attempt);
    }
  }
}

/**
 * Polls `check` (100 ms, doubling to 1 s) until it returns true; fails at once when `fatal` names a reason
 * (a component died), or after `timeoutMs` with the last error `check` threw.
 */
export async function waitFor(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>, fatal?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    const reason = fatal?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    try {
      if (await check()) return;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})` : ''}`,
      );
    await sleep(delay);
  }
}

/** An executable named `name` in one of PATH's directories. */
export function onPath(name: string, pathVar = process.env.PATH): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * A response of the API server: its status and parsed body. `T` is what the caller expects the body to be;
 * nothing checks it (a 404 has a Status body whatever `T` says).
 */
export interface ApiResponse<T = unknown> {
  /** The HTTP status. */
  readonly status: number;
  /** Parsed JSON, or the text when it is not JSON, or undefined when empty. */
  readonly body: T;
}

/** What an API server said: the `message` of a Status body, else the body as JSON. */
export function apiMessage(body: unknown): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : JSON.stringify(body);
}

/**
 * One request to an API server: the body sent as JSON (or as given when a string), the answer parsed as
 * JSON when it is. Any HTTP status resolves (a 403 or a quota refusal is data); only transport errors reject.
 */
export function apiRequest<T = unknown>(
  server: string,
  agent: https.Agent,
  headers: Readonly<Record<string, string>>,
  method: string,
  apiPath: string,
  body?: unknown,
  contentType = 'application/json',
  timeoutMs = 60_000,
): Promise<ApiResponse<T>> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = https.request(
      new URL(apiPath, server),
      {
        method,
        agent,
        headers: {
          Accept: 'application/json',
          ...headers,
          ...(payload !== undefined ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${apiPath}: timed out`)));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** One event of a watch: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR, and the object (a Status for ERROR). */
export interface WatchEvent<T = unknown> {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
  readonly type: string;
  /** The object as it is after the event (only its resourceVersion for BOOKMARK; a Status for ERROR). */
  readonly object: T;
}

/** Most characters one watch event may take: a pod is a few KiB; a line without end is refused, not buffered. */
export const MAX_WATCH_LINE_CHARS = 16 * 1024 * 1024;

/** A watch stream: `ended` resolves when the API server closes it (undefined) or it fails (why). */
export interface WatchStream {
  /** Resolves when the stream ends: undefined when the API server closed it, else why it failed. */
  readonly ended: Promise<string | undefined>;
  /** Closes the stream; `ended` then resolves. */
  stop(): void;
}

/**
 * A watch on an API server: `apiPath` (with `watch=1` in its query) answered as one JSON event per line, each
 * handed to `onEvent` as it arrives. The stream ends when the server closes it (its timeoutSeconds), on a
 * transport error, or on `stop()`; the caller decides whether to watch again.
 */
export function apiWatch<T = unknown>(
  server: string,
  agent: https.Agent | http.Agent | undefined,
  headers: Readonly<Record<string, string>>,
  apiPath: string,
  onEvent: (event: WatchEvent<T>) => void,
): WatchStream {
  let stop = (): void => undefined;
  const ended = new Promise<string | undefined>((resolve) => {
    const mod = server.startsWith('http:') ? http : https;
    const req = mod.request(new URL(apiPath, server), { method: 'GET', agent, headers: { Accept: 'application/json', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        res.on('end', () => resolve(`GET ${apiPath}: HTTP ${res.statusCode ?? 0}`));
        return;
      }
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        pending += text;
        if (pending.length > MAX_WATCH_LINE_CHARS) {
          req.destroy();
          resolve(`GET ${apiPath}: the watch sent a line of more than ${MAX_WATCH_LINE_CHARS} characters`);
          return;
        }
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (line.trim() === '') continue;
          let event: WatchEvent<T>;
          try {
            event = JSON.parse(line) as WatchEvent<T>;
          } catch {
            req.destroy();
            resolve(`GET ${apiPath}: the watch sent a line that is not JSON`);
            return;
          }
          onEvent(event);
        }
      });
      res.on('end', () => resolve(undefined));
      res.on('error', (e) => resolve(e.message));
    });
    req.on('error', (e) => resolve(e.message));
    req.end();
    stop = () => req.destroy();
  });
  return { ended, stop: () => stop() };
}
