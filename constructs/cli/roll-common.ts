/**
 * What roll-nodes (cli/roll.ts, VMs) and roll-hosts (cli/roll-hosts.ts, HostClaims) share: their options and
 * the rules they are checked with, the reads and writes a roll makes (a refusal said with the API server's reason
 * and, for RBAC, the fix), waiting, a node's drain and join in the tenant cluster, a surge's user data and its
 * Secret, and the command's frame (usage errors exit 2; a roll cut short exit 1, to be carried on by the next deploy).
 */
import {
  DEFAULT_JOIN_TIMEOUT,
  DEFAULT_POLL_INTERVAL_SECONDS,
  drainTimeoutProblem,
  drainTimeoutSeconds,
  joinTimeoutProblem,
  pollIntervalProblem,
  RolloutNames,
  rolloutProblems,
} from '../core/input/disruption';
import { caHashProblem } from '../core/input/join-token';
import { revisionProblem } from '../core/plan/change/revision';
import { escapeText } from '../core/base/excerpt';
import { dns1123LabelProblem } from '../core/naming/kube-names';
import { SURGE_LABEL } from '../core/naming/derived';
import { renameJoinCloudConfig } from '../render/cloud-init';
import { DrainIo, drainNode, reasonOf } from './drain';
import { KubeApiError, KubeClient, Response } from './kube/client';
import { findTarget, KubeconfigError } from './kube/config';

/** What roll-nodes and roll-hosts take. */
export interface RollOptions {
  /** The namespace of the pool's VMs (or HostClaims). */
  readonly namespace: string;
  /** The pool whose nodes roll (its VMs carry it as a label). */
  readonly pool: string;
  /** The tenant cluster the pool's nodes join (its VMs carry it as a label: two clusters may share a namespace). */
  readonly cluster: string;
  /** The pool's nodes as the deploy declares them; VMs of the pool not named (being removed) are left alone. @default - every VM of the pool */
  readonly nodes?: readonly string[];
  /** The revision every node must run (the plan's; each VM's template carries it). */
  readonly revision: string;
  /** Surge VMs made before old nodes go. */
  readonly maxSurge: number;
  /** Nodes out of service at once beside the surge. */
  readonly maxUnavailable: number;
  /** How long one node's drain may take. */
  readonly drainTimeout: string;
  /** How long a restarted or surge node may take to be Ready in the tenant cluster. @default "15m" */
  readonly joinTimeout?: string;
  /** The tenant cluster's CA hash (`sha256:<hex>`): the tenant kubeconfig must reach that cluster. */
  readonly clusterCaHash: string;
  /** The provider cluster (where the VMs are). @default - as kubectl */
  readonly kubeconfig?: string;
  readonly context?: string;
  /** The tenant cluster (where the Nodes are). @default - as kubectl */
  readonly tenantKubeconfig?: string;
  readonly tenantContext?: string;
  /** Seconds between two reads while waiting. @default 2 */
  readonly interval?: number;
}

/** How long a stopped VM's VMI may take to go (its terminationGracePeriodSeconds, 180 s, and room for the launcher), and how long a read is retried. */
export const STOP_TIMEOUT_SECONDS = 600;

/** Names in index order: web-2 before web-10. */
export const byIndex = (a: { metadata: { name: string } }, b: { metadata: { name: string } }): number =>
  a.metadata.name.localeCompare(b.metadata.name, 'en', { numeric: true });

/** A failure of the roll that waiting cannot fix in this run: said, and the deploy stops. */
export class RollError extends Error {}

export const sleep = (seconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

export function ok(res: Response): boolean {
  return res.status >= 200 && res.status < 300;
}

/**
 * A write the roll needs; a refusal throws with the API server's reason and, for RBAC, the fix. A delete of what is
 * gone is done; so is a create of what is there, when `exists` says that is fine.
 */
export async function must(
  client: KubeClient,
  method: 'POST' | 'PATCH' | 'DELETE',
  apiPath: string,
  what: string,
  body?: unknown,
  exists = false,
): Promise<Response> {
  const res = await client.send(method, apiPath, body, method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
  if (ok(res) || (method === 'DELETE' && res.status === 404) || (exists && method === 'POST' && res.status === 409)) return res;
  const verb = method === 'POST' ? 'create' : method === 'PATCH' ? 'patch' : 'delete';
  const fix = res.status === 403 ? `: ${client.target.who} needs ${verb} there (README "Changing a fleet")` : '';
  throw new KubeApiError(`cannot ${what}: HTTP ${res.status}, ${reasonOf(res)}${fix}`, res.status);
}

/**
 * The object at `at`, or undefined when there is none; any other answer stops the roll, a 403 with what the
 * identity `needs` there.
 */
export async function readObject<T>(client: KubeClient, at: string, what: string, needs = 'get'): Promise<T | undefined> {
  const res = await client.get(at);
  if (res.status === 404) return undefined;
  if (ok(res)) return res.body as T;
  const fix = res.status === 403 ? `: ${client.target.who} needs ${needs} there (README "Changing a fleet")` : '';
  throw new KubeApiError(`cannot read ${what}: HTTP ${res.status}, ${reasonOf(res)}${fix}`, res.status);
}

/** A delete that ends only when the object's dependents are gone. */
export const FOREGROUND = { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground' } as const;

/** Reads until `done` says so or the time is up; an API server that does not answer is waited through. */
export async function waitUntil(what: string, seconds: number, interval: number, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if (await done()) return;
    } catch (e) {
      if (!(e instanceof KubeApiError) || (e.status !== undefined && e.status < 500)) throw e;
    }
    if (Date.now() >= deadline) throw new RollError(`${what} did not happen in ${seconds} s`);
    await sleep(interval);
  }
}

/**
 * `read()`, again while the API server does not answer or answers 5xx (it restarts; an apply goes on meanwhile), up
 * to the roll's stop timeout.
 */
export async function patiently<T>(what: string, interval: number, read: () => Promise<T>): Promise<T> {
  let value: { v: T } | undefined;
  await waitUntil(what, STOP_TIMEOUT_SECONDS, interval, async () => {
    value = { v: await read() };
    return true;
  });
  return value!.v;
}

/** How the roll commands write a rollout's settings in what they say. */
const ROLLOUT_OPTIONS: RolloutNames = { maxSurge: '--max-surge', maxUnavailable: '--max-unavailable', set: (name, value) => `${name} ${value}` };

/** What is wrong with the options, for exit 2, each the input owner's rule with the option named; undefined when they are fine. */
export function optionsProblem(o: RollOptions): string | undefined {
  const ns = dns1123LabelProblem(o.namespace);
  if (ns !== undefined) return `--namespace ${ns}`;
  const pool = dns1123LabelProblem(o.pool);
  if (pool !== undefined) return `--pool ${pool}`;
  const cluster = dns1123LabelProblem(o.cluster);
  if (cluster !== undefined) return `--cluster ${cluster}`;
  const node = (o.nodes ?? []).map((n) => [n, dns1123LabelProblem(n)]).find(([, p]) => p !== undefined);
  if (node !== undefined) return `--nodes: ${escapeText(node[0] ?? '')}: ${node[1]}`;
  const revision = revisionProblem(o.revision);
  if (revision !== undefined) return `--revision ${revision}`;
  const [rollout] = rolloutProblems({ maxSurge: o.maxSurge, maxUnavailable: o.maxUnavailable }, ROLLOUT_OPTIONS);
  if (rollout !== undefined) return `${ROLLOUT_OPTIONS[rollout[0] as 'maxSurge' | 'maxUnavailable']} ${rollout[1]}`;
  const drain = drainTimeoutProblem(o.drainTimeout);
  if (drain !== undefined) return `--drain-timeout ${drain}`;
  const join = o.joinTimeout === undefined ? undefined : joinTimeoutProblem(o.joinTimeout);
  if (join !== undefined) return `--join-timeout ${join}`;
  const caHash = caHashProblem(o.clusterCaHash);
  if (caHash !== undefined) return `--cluster-ca-hash ${caHash}`;
  const interval = pollIntervalProblem(o.interval ?? DEFAULT_POLL_INTERVAL_SECONDS);
  if (interval !== undefined) return `--interval ${interval}`;
  return undefined;
}

/**
 * `step` for each item, `size` at a time: every step of a batch runs to its end, and when any failed, the roll stops
 * with all of their reasons (an error of another kind, a bug, is thrown as it is).
 */
export async function inBatches<T>(items: readonly T[], size: number, step: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    const failed = (await Promise.allSettled(items.slice(i, i + size).map(step))).flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    const odd = failed.find((e) => !(e instanceof KubeApiError) && !(e instanceof RollError));
    if (odd !== undefined) throw odd;
    if (failed.length === 1) throw failed[0];
    if (failed.length > 1) throw new RollError(failed.map((e) => e.message).join('; '));
  }
}

/** A node's side of a roll, in the tenant cluster: its drain, and its join waited for. */
export class TenantNodes {
  private readonly interval: number;
  private readonly joinSeconds: number;
  private readonly drainSeconds: number;

  /** @param opts the roll's checked options (optionsProblem): both timeouts are durations */
  constructor(
    private readonly tenant: KubeClient,
    opts: RollOptions,
    private readonly io: DrainIo,
  ) {
    this.interval = opts.interval ?? DEFAULT_POLL_INTERVAL_SECONDS;
    this.joinSeconds = drainTimeoutSeconds(opts.joinTimeout ?? DEFAULT_JOIN_TIMEOUT)!;
    this.drainSeconds = drainTimeoutSeconds(opts.drainTimeout)!;
  }

  /** Whether Node `name` is there and Ready. */
  async ready(name: string): Promise<boolean> {
    const res = await this.tenant.get(`/api/v1/nodes/${encodeURIComponent(name)}`);
    if (res.status === 404) return false;
    if (!ok(res)) throw new KubeApiError(`cannot read Node ${name}: HTTP ${res.status}, ${reasonOf(res)}`, res.status);
    const node = res.body as { status?: { conditions?: { type?: string; status?: string }[] } };
    return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  }

  /** Waits until Node `name` is Ready, within the join timeout. */
  async joined(name: string): Promise<void> {
    await waitUntil(`Node ${name} Ready in the tenant cluster`, this.joinSeconds, this.interval, () => this.ready(name));
  }

  /** Drains Node `name` and keeps it (the machine goes first); one not drained in time stops the roll, `what` said. */
  async drain(name: string, what: string): Promise<void> {
    const code = await drainNode(this.tenant, name, this.drainSeconds, this.interval, this.io, true);
    if (code !== 0) throw new RollError(`Node ${name} was not drained in time, so ${what} was not replaced`);
  }
}

/**
 * A surge's user data: node `from`'s join document (base64, as Secret `from` holds it) renamed to `name`. A
 * document metalslice did not write stops the roll, in words that never quote it (it holds a bootstrap token).
 */
export function surgeUserData(encoded: string | undefined, from: string, key: string, name: string): string {
  if (encoded === undefined) throw new RollError(`Secret ${from} holds no ${key}`);
  try {
    return Buffer.from(renameJoinCloudConfig(Buffer.from(encoded, 'base64').toString('utf8'), name), 'utf8').toString('base64');
  } catch {
    throw new RollError(`Secret ${from} is not a join document metalslice wrote`);
  }
}

/** Deletes a surge's user data Secret at `at`; one not labelled as `pool`'s surge is not the roll's, and stops it. */
export async function deleteSurgeSecret(provider: KubeClient, at: string, name: string, pool: string): Promise<void> {
  const found = await readObject<{ metadata?: { labels?: Record<string, string> } }>(provider, at, `Secret ${name}`);
  if (found === undefined) return;
  if (found.metadata?.labels?.[SURGE_LABEL] !== pool)
    throw new RollError(`Secret ${name} is in the way of a surge of pool ${pool} and is not one the roll made: rename or remove it`);
  await must(provider, 'DELETE', at, `delete Secret ${name}`);
}

/**
 * A roll command: checks the options (and `problem`, the command's own), finds both clusters, and runs the roll
 * `make` builds; says what stopped it and that the next deploy carries on. `what`: `nodes` or `hosts`.
 */
export async function runRoll(
  command: string,
  what: string,
  opts: RollOptions,
  io: DrainIo,
  problem: string | undefined,
  make: (provider: KubeClient, tenant: KubeClient) => { run(): Promise<void> },
): Promise<number> {
  const wrong = optionsProblem(opts) ?? problem;
  if (wrong !== undefined) {
    io.stderr(`metalslice ${command}: ${wrong}\n`);
    return 2;
  }
  let provider: KubeClient;
  let tenant: KubeClient;
  try {
    provider = new KubeClient(findTarget({ kubeconfig: opts.kubeconfig, context: opts.context }));
    tenant = new KubeClient(findTarget({ kubeconfig: opts.tenantKubeconfig, context: opts.tenantContext }));
  } catch (e) {
    if (!(e instanceof KubeconfigError)) throw e;
    io.stderr(`metalslice ${command}: ${e.message}\n`);
    return 2;
  }
  try {
    await make(provider, tenant).run();
    return 0;
  } catch (e) {
    if (!(e instanceof KubeApiError) && !(e instanceof KubeconfigError) && !(e instanceof RollError)) throw e;
    io.stderr(
      `metalslice ${command}: pool ${opts.pool}: ${e.message}\nThe ${what} replaced so far stay replaced; deploy again to finish the roll (it starts where this one stopped).\n`,
    );
    return e instanceof KubeconfigError ? 2 : 1;
  }
}
