/**
 * The CDI stand-in of `verify --kubevirt` follows DataVolumes with one list and a watch (no list per poll) and
 * leaves each new one as an import would, once: against an in-memory API server that records every write.
 */
import { expect, test } from '@jest/globals';
import { startCdiStandIn } from '../../constructs/verify/kubevirt-stand-ins';
import type { WatchEvent } from '../../constructs/verify/processes';

interface DataVolume {
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string };
  spec: { storage: { resources: { requests: { storage: string } } } };
  status?: { phase: string };
}

const dataVolume = (name: string, uid: string, rv: number, phase?: string): DataVolume => ({
  metadata: { name, namespace: 'ns', uid, resourceVersion: String(rv) },
  spec: { storage: { resources: { requests: { storage: '20Gi' } } } },
  ...(phase ? { status: { phase } } : {}),
});

/** An API server in memory: one list of DataVolumes, a watch the test feeds, and every other request recorded. */
function fakeApiServer(listed: DataVolume[]) {
  const writes: string[] = [];
  const reads: string[] = [];
  let feed: ((e: WatchEvent) => void) | undefined;
  const client = {
    request: <T>(method: string, apiPath: string, body?: unknown) => {
      if (method === 'GET') {
        reads.push(apiPath);
        return Promise.resolve({ status: 200, body: { metadata: { resourceVersion: '1' }, items: listed } as T });
      }
      const created = method === 'POST' ? ` ${(body as { metadata: { name: string } }).metadata.name}` : '';
      writes.push(`${method} ${apiPath}${created}`);
      return Promise.resolve({ status: method === 'POST' ? 201 : 200, body: {} as T });
    },
    watch: <T>(_apiPath: string, onEvent: (e: WatchEvent<T>) => void) => {
      feed = onEvent as (e: WatchEvent) => void;
      return { ended: new Promise<string | undefined>(() => undefined), stop: () => undefined };
    },
  };
  return { client, writes, reads, send: (type: string, object: DataVolume) => feed?.({ type, object }) };
}

async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !check();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const writesFor = (writes: string[], name: string) => writes.filter((w) => w.includes(name));

test('populates each DataVolume the watch shows once, by uid, and lists DataVolumes only once', async () => {
  const api = fakeApiServer([dataVolume('imported', 'u-0', 1, 'Succeeded'), dataVolume('root-a', 'u-1', 1)]);
  const standIn = await startCdiStandIn(api.client, 5000);
  try {
    await until(() => api.writes.some((w) => w.endsWith('/datavolumes/root-a/status')));
    // Before the stand-in's own status write comes back through the watch, the DataVolume changes for another reason.
    api.send('MODIFIED', dataVolume('root-a', 'u-1', 2));
    api.send('ADDED', dataVolume('root-b', 'u-2', 3));
    await until(() => api.writes.some((w) => w.endsWith('/datavolumes/root-b/status')));
    // A later replay makes a DataVolume of the same name: a new object, populated again.
    api.send('DELETED', dataVolume('root-a', 'u-1', 4));
    api.send('ADDED', dataVolume('root-a', 'u-3', 5));
    await until(() => api.writes.filter((w) => w.endsWith('/datavolumes/root-a/status')).length === 2);
  } finally {
    await standIn.stop();
  }
  expect(standIn.lastError()).toBeUndefined();
  expect(writesFor(api.writes, 'imported')).toEqual([]);
  // A claim and a volume bound to each other, the claim's status, the volume's status, the DataVolume Succeeded.
  expect(writesFor(api.writes, 'root-b')).toEqual([
    'POST /api/v1/persistentvolumes cdi-ns-root-b',
    'POST /api/v1/namespaces/ns/persistentvolumeclaims root-b',
    'PATCH /api/v1/namespaces/ns/persistentvolumeclaims/root-b/status',
    'PATCH /api/v1/persistentvolumes/cdi-ns-root-b/status',
    'PATCH /apis/cdi.kubevirt.io/v1beta1/namespaces/ns/datavolumes/root-b/status',
  ]);
  expect(api.reads).toEqual(['/apis/cdi.kubevirt.io/v1beta1/datavolumes']);
});
