/**
 * ListWatch keeps the replay's view of its launcher pods from one list and a watch: events split across chunks,
 * bookmarks, a server that closes the watch (resume from the last version seen) and an expired version (list
 * again), against a local HTTP server speaking the API server's watch wire format.
 */
import { expect, test } from '@jest/globals';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { ControlPlane } from '../../constructs/verify/control-plane';
import { ListWatch } from '../../constructs/verify/list-watch';
import { apiWatch, MAX_WATCH_LINE_CHARS, WatchEvent } from '../../constructs/verify/processes';

interface Pod {
  metadata: { name: string; namespace: string; resourceVersion: string };
  spec?: { nodeName?: string };
}

const pod = (name: string, rv: number, nodeName?: string): Pod => ({
  metadata: { name, namespace: 'ns', resourceVersion: String(rv) },
  ...(nodeName ? { spec: { nodeName } } : {}),
});
const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;

/** Lists and watches answered in turn; records the resourceVersion every watch asked for. */
function fakeApiServer(lists: { rv: number; items: Pod[] }[], watches: ((res: http.ServerResponse) => void)[]) {
  const watchedFrom: string[] = [];
  let listed = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('Content-Type', 'application/json');
    if (url.searchParams.get('watch') === '1') {
      watchedFrom.push(url.searchParams.get('resourceVersion') ?? '');
      const next = watches.shift();
      if (next) next(res);
      return;
    }
    const list = lists[Math.min(listed++, lists.length - 1)];
    res.end(JSON.stringify({ metadata: { resourceVersion: String(list.rv) }, items: list.items }));
  });
  return { server, watchedFrom, listed: () => listed };
}

function controlPlaneOn(base: string): ControlPlane {
  return {
    request: async (_method: string, apiPath: string) => {
      const r = await fetch(base + apiPath);
      return { status: r.status, body: await r.json() };
    },
    watch: (apiPath: string, onEvent: (e: WatchEvent) => void) => apiWatch(base, undefined, {}, apiPath, onEvent),
  } as unknown as ControlPlane;
}

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !check();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a list, then a watch resumed where the server closed it, and a fresh list when the version expired', async () => {
  let open: http.ServerResponse | undefined;
  const fake = fakeApiServer(
    [
      { rv: 10, items: [pod('a', 5)] },
      { rv: 20, items: [pod('a', 13, 'host-1'), pod('b', 11), pod('c', 19)] },
    ],
    [
      (res) => {
        // An event split across two chunks, a bookmark, then the server ends the watch (its timeoutSeconds).
        const added = line('ADDED', pod('b', 11));
        res.write(added.slice(0, 17));
        setTimeout(() => {
          res.write(added.slice(17));
          res.write(line('BOOKMARK', { metadata: { resourceVersion: '12' } }));
          res.end(line('MODIFIED', pod('a', 13, 'host-1')));
        }, 20);
      },
      (res) => res.end(line('ERROR', { kind: 'Status', code: 410, reason: 'Expired' })),
      (res) => {
        res.write(line('DELETED', pod('b', 21)));
        open = res;
      },
    ],
  );
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  const w = await ListWatch.start<Pod>(controlPlaneOn(base), '/api/v1/pods?labelSelector=app%3Dx');
  try {
    await until(() => fake.watchedFrom.length === 3 && w.current().length === 2);
    expect(fake.watchedFrom).toEqual(['10', '13', '20']);
    expect(fake.listed()).toBe(2);
    const byName = new Map(w.current().map((p) => [p.metadata.name, p]));
    expect([...byName.keys()].sort()).toEqual(['a', 'c']);
    expect(byName.get('a')?.spec?.nodeName).toBe('host-1');
  } finally {
    w.stop();
    open?.end();
    await new Promise((r) => fake.server.close(r));
  }
});

test('a watch the server keeps refusing ends in an error naming the collection, not a silent stale view', async () => {
  const fake = fakeApiServer(
    [{ rv: 1, items: [] }],
    Array.from({ length: 10 }, () => (res: http.ServerResponse) => {
      res.statusCode = 500;
      res.end('{}');
    }),
  );
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  const w = await ListWatch.start<Pod>(controlPlaneOn(base), '/api/v1/pods');
  try {
    await until(() => {
      try {
        w.current();
        return false;
      } catch {
        return true;
      }
    });
    expect(() => w.current()).toThrow(/watching \/api\/v1\/pods failed 6 times in a row: GET .*HTTP 500/);
  } finally {
    w.stop();
    await new Promise((r) => fake.server.close(r));
  }
});

// 16 MiB through a loopback socket and a line splitter: seconds on a loaded 2-core machine, not Jest's default 5.
test('a watch line that never ends is refused at the bound, not buffered without limit', async () => {
  const server = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    const chunk = 'x'.repeat(1024 * 1024);
    const write = (): void => {
      while (res.write(chunk)) if (res.writableLength > 64 * 1024 * 1024) return;
      res.once('drain', write);
    };
    write();
    res.on('close', () => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stream = apiWatch(base, undefined, {}, '/api/v1/pods?watch=1', () => undefined);
  try {
    expect(await stream.ended).toBe(`GET /api/v1/pods?watch=1: the watch sent a line of more than ${MAX_WATCH_LINE_CHARS} characters`);
  } finally {
    stream.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}, 60_000);
