// Starting on ports picked free (constructs/verify/processes.ts startOnFreePorts, which `metalslice verify`'s control
// plane and the e2e clusters start through): when another process binds a picked port before the component does, the
// start runs again on new ports, three starts at most; any other failure is thrown at once. The clash is real: a
// second listener takes the picked port first. A readiness probe asks the port, and hears the process that took it:
// listensOn tells whether what listens there is the component's own process, from /proc.
import { afterEach, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Component, freePort, listensOn, startComponent, startOnFreePorts, stopComponent, waitFor, waitForServing } from '../../constructs/verify/processes';

const listen = (port: number): Promise<net.Server> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: net.Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** A start that picks a free port and binds it; on the attempts in `clashOn`, another listener takes the port first. */
function component(clashOn: readonly number[]) {
  const attempts: number[] = [];
  const squatters: net.Server[] = [];
  const start = async (): Promise<net.Server> => {
    const attempt = attempts.length + 1;
    const port = await freePort();
    attempts.push(port);
    if (clashOn.includes(attempt)) squatters.push(await listen(port));
    return listen(port);
  };
  return { start, attempts, squatters };
}

describe('startOnFreePorts', () => {
  it('starts again on a new port when another process took the picked one', async () => {
    const c = component([1]);
    const retries: number[] = [];
    let server: net.Server | undefined;
    try {
      server = await startOnFreePorts(c.start, 3, (n) => retries.push(n));
      expect(c.attempts).toHaveLength(2);
      expect(retries).toEqual([1]);
      expect((server.address() as net.AddressInfo).port).toBe(c.attempts[1]);
    } finally {
      await Promise.all([...(server ? [server] : []), ...c.squatters].map(close));
    }
  });

  it('gives up after three starts that all clash, with the clash as the error', async () => {
    const c = component([1, 2, 3]);
    const retries: number[] = [];
    try {
      await expect(startOnFreePorts(c.start, 3, (n) => retries.push(n))).rejects.toThrow(/address already in use/);
      expect(c.attempts).toHaveLength(3);
      expect(retries).toEqual([1, 2]);
    } finally {
      await Promise.all(c.squatters.map(close));
    }
  });

  it('throws any other failure at once, without starting again', async () => {
    let starts = 0;
    const failing = async (): Promise<never> => {
      starts += 1;
      await Promise.resolve();
      throw new Error('kube-apiserver exited (code 1): unknown flag --nope');
    };
    await expect(startOnFreePorts(failing)).rejects.toThrow(/unknown flag/);
    expect(starts).toBe(1);
  });
});

/** A process (Node) that listens on `port` at 127.0.0.1 and answers every HTTP request 200, or exits 1 if it cannot bind. */
function server(dir: string, name: string, port: number): Component {
  const code = `require('http').createServer((q, r) => r.end('ok')).on('error', (e) => { console.error(e.code); process.exit(1); }).listen(${port}, '127.0.0.1', () => console.log('listening'))`;
  return startComponent(name, process.execPath, ['-e', code], dir);
}

const listening = (c: Component) =>
  waitFor(
    `${c.name} listening`,
    20_000,
    () => fs.readFileSync(c.logFile, 'utf8').includes('listening'),
    () => (c.exited ? `${c.name} exited` : undefined),
  );

async function status(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/`).catch(() => ({ status: 0 }))).status;
}

describe('listensOn: whose process answers a port', () => {
  const started: Component[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((c) => stopComponent(c, 1000)));
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const home = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-listens-'));
    dirs.push(d);
    return d;
  };

  it('is true for the process that listens on the port, false for another process and for a port nothing listens on', async () => {
    const dir = home();
    const [port, idle] = [await freePort(), await freePort()];
    const owner = server(dir, 'owner', port);
    const other = server(dir, 'other', idle);
    started.push(owner, other);
    await Promise.all([listening(owner), listening(other)]);
    expect({ owner: listensOn(owner, port), other: listensOn(other, port), otherOwn: listensOn(other, idle) }).toEqual({
      owner: true,
      other: false,
      otherOwn: true,
    });
    await stopComponent(other, 1000);
    expect(listensOn(other, idle)).toBe(false);
  });

  it('waitForServing waits for its own component: one whose port another process took fails as that component, not ready', async () => {
    const dir = home();
    const port = await freePort();
    // Another process takes the port first, and answers the probe as a ready component would.
    const squatter = server(dir, 'squatter', port);
    started.push(squatter);
    await listening(squatter);
    expect(await status(port)).toBe(200);
    const ours = server(dir, 'ours', port);
    started.push(ours);
    const probe = waitForServing(
      'ours',
      ours,
      port,
      20_000,
      async () => (await status(port)) === 200,
      () => (ours.exited ? 'ours exited' : undefined),
    );
    await expect(probe).rejects.toThrow(/ours exited/);
    expect(fs.readFileSync(ours.logFile, 'utf8')).toMatch(/EADDRINUSE/);
  });
});
