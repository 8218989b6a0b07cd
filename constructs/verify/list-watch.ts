/**
 * The launcher pods as the API server last told the replay: one list, then a watch from that list's
 * resourceVersion, kept in memory. The wait for the scheduler reads this instead of listing every launcher pod
 * twice a second: at 10,000 pods each list was tens of megabytes the API server encoded and the replay parsed,
 * so the polls alone grew with the square of the pods and, on two cores, took the CPU the scheduler needed.
 */
import { apiMessage, ApiResponse, sleep, WatchEvent, WatchStream } from './processes';

/** What a ListWatch needs of an API server: one request and one watch (a ControlPlane has both). */
export interface WatchClient {
  readonly request: <T = unknown>(method: string, apiPath: string, body?: unknown, contentType?: string) => Promise<ApiResponse<T>>;
  readonly watch: <T = unknown>(apiPath: string, onEvent: (event: WatchEvent<T>) => void) => WatchStream;
}

/** What the watch needs of an object: where it lives and its version. */
export interface Watched {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion?: string };
}

interface Listed<T> {
  readonly metadata?: { readonly resourceVersion?: string };
  readonly items?: readonly T[];
}

/** Transport failures in a row after which the watch gives up (each retry waits a little longer). */
const MAX_FAILURES = 5;

function keyOf(o: Watched): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

/** A collection (e.g. `/api/v1/pods?labelSelector=...`) kept current by a list and a watch. */
export class ListWatch<T extends Watched> {
  private readonly objects = new Map<string, T>();
  private resourceVersion = '';
  private stream: WatchStream | undefined;
  private stopped = false;
  private failure: string | undefined;

  private constructor(
    private readonly cp: WatchClient,
    private readonly collection: string,
  ) {}

  /** Lists the collection and follows it until `stop()`. */
  static async start<T extends Watched>(cp: WatchClient, collection: string): Promise<ListWatch<T>> {
    const w = new ListWatch<T>(cp, collection);
    await w.relist();
    w.follow(0);
    return w;
  }

  /** Every object as last seen; throws when the watch could not be kept up. */
  current(): T[] {
    if (this.failure !== undefined) throw new Error(this.failure);
    return [...this.objects.values()];
  }

  /** Ends the watch; `current()` keeps the last state. */
  stop(): void {
    this.stopped = true;
    this.stream?.stop();
  }

  private async relist(): Promise<void> {
    const r = await this.cp.request<Listed<T>>('GET', this.collection);
    if (r.status !== 200) throw new Error(`listing ${this.collection}: HTTP ${r.status}: ${apiMessage(r.body)}`);
    this.objects.clear();
    for (const o of r.body.items ?? []) this.objects.set(keyOf(o), o);
    this.resourceVersion = r.body.metadata?.resourceVersion ?? '';
  }

  /** Watches from the last version seen; when the stream ends, watches again (or lists again when the version expired). */
  private follow(failures: number): void {
    let relist = false;
    const query = `watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(this.resourceVersion)}`;
    const stream = this.cp.watch<T>(`${this.collection}${this.collection.includes('?') ? '&' : '?'}${query}`, (e) => {
      // ERROR: the version is too old (410 Gone) or the server gave up on the watch; either way, list again.
      if (e.type === 'ERROR') relist = true;
      if (e.type === 'ERROR' || e.object?.metadata === undefined) return;
      if (e.object.metadata.resourceVersion) this.resourceVersion = e.object.metadata.resourceVersion;
      if (e.type === 'ADDED' || e.type === 'MODIFIED') this.objects.set(keyOf(e.object), e.object);
      else if (e.type === 'DELETED') this.objects.delete(keyOf(e.object));
    });
    this.stream = stream;
    void stream.ended.then(async (why) => {
      if (this.stopped) return;
      const failed = why !== undefined ? failures + 1 : 0;
      if (failed > MAX_FAILURES) {
        this.failure = `watching ${this.collection} failed ${failed} times in a row: ${why}`;
        return;
      }
      try {
        if (failed > 0) await sleep(100 * failed);
        if (relist || failed > 0) await this.relist();
        if (!this.stopped) this.follow(failed);
      } catch (e) {
        this.failure = `watching ${this.collection}: ${(e as Error).message}`;
      }
    });
  }
}
