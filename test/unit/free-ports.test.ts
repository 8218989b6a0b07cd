// Starting on ports picked free (constructs/verify/processes.ts startOnFreePorts, which `metalslice verify`'s control
// plane and the e2e clusters start through): when another process binds a picked port before the component does, the
// start runs again on new ports, three starts at most; any other failure is thrown at once. The clash is real: a
// second listener takes the picked port first.
import { describe, expect, it } from '@jest/globals';
import * as net from 'node:net';
import { freePort, startOnFreePorts } from '../../constructs/verify/processes';

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
