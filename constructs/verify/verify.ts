/**
 * `metalslice verify`: replays a plan on a real control plane and reports how many launcher pods the real
 * kube-scheduler bound. Nodes mirror the fleet hosts (KWOK keeps them Ready); pods are the launcher pods
 * KubeVirt would create for the plan's concrete VMs, created in deploy or seeded shuffled order with
 * bounded concurrency. A run ends when every pod is bound, or when every unbound pod is marked
 * unschedulable by the scheduler and no pod has bound for `quietMs`; each pending pod's reason is the
 * scheduler's last FailedScheduling event message (else its PodScheduled condition).
 */
import { Plan } from '../core/plan';
import { PlannedVm } from '../core/vms';
import { ApiResponse, ControlPlane, sleep, startControlPlane } from './control-plane';
import { apiMessage } from './processes';
import { ClusterSnapshot } from '../core/snapshot';
import { buildReplay, buildSnapshotReplay, creationOrder, KWOK_NODE_LABEL, KWOK_NODE_SELECTOR, REPLAY_NODE_LABEL, ReplayOrder, ReplayPod } from './replay';

export interface VerifyOptions {
  /** @default 'deploy' */
  readonly order?: ReplayOrder;
  /** Seed of the shuffled order. @default 1 */
  readonly seed?: number;
  /** Pod creations in flight (the API server on loopback takes 128 at once; bench:verify measures it). @default 128 */
  readonly concurrency?: number;
  /** A running control plane to reuse (it is reset first and left running); otherwise one is started and stopped. */
  readonly controlPlane?: ControlPlane;
  /** VMs to replay beyond the plan's (e.g. one the plan would refuse), after the plan's own. */
  readonly extraVms?: readonly PlannedVm[];
  /** Replay on this snapshot of a live cluster (its Nodes and bound pods) instead of the plan's host model. @default - the plan's hosts */
  readonly snapshot?: ClusterSnapshot;
  /** How long the scheduler must bind nothing more before unschedulable pods count as pending. @default 5000 */
  readonly quietMs?: number;
  /** Upper bound on waiting for the scheduler. @default 600000 */
  readonly scheduleTimeoutMs?: number;
  /** Seconds the caller spent planning, reported as seconds.plan. @default 0 */
  readonly planSeconds?: number;
  /** Progress lines (to standard error in the CLI). */
  readonly log?: (line: string) => void;
}

/** A VM whose launcher pod kube-scheduler did not bind. */
export interface PendingVm {
  /** The VM's name. */
  readonly vm: string;
  /** Its pool. */
  readonly pool: string;
  /** Its namespace. */
  readonly namespace: string;
  /** Where the plan put it. */
  readonly plannedHost: string | null;
  /** kube-scheduler's reason (the pod's PodScheduled condition). */
  readonly reason: string;
}

/** The outcome of replaying a plan on the real kube-scheduler. */
export interface VerifyResult {
  /** The order the launcher pods were created in. */
  readonly order: ReplayOrder;
  /** The shuffle's seed (with order `shuffled`). */
  readonly seed: number;
  /** KWOK nodes made, one per host. */
  readonly hosts: number;
  /** Launcher pods created, one per concrete VM. */
  readonly vms: number;
  /** Launcher pods kube-scheduler bound. */
  readonly bound: number;
  /** The VMs left pending, and why. */
  readonly pending: readonly PendingVm[];
  /** Bound pods the plan pinned or placed elsewhere than the scheduler did (spread pools may legitimately differ). */
  readonly movedFromPlan: number;
  /** Wall time of each phase, in seconds. */
  readonly seconds: {
    /** Planning. */
    readonly plan: number;
    /** Creating the nodes until all are Ready. */
    readonly start: number;
    /** Creating the pods until all are bound or settled. */
    readonly schedule: number;
  };
}

const LAUNCHER_SELECTOR = 'kubevirt.io%3Dvirt-launcher';

/** The parts of the API server's answers the replay reads (wire JSON: times are strings). */
interface List<T> {
  readonly items?: readonly T[];
}
interface Meta {
  readonly name: string;
  readonly namespace?: string;
  readonly creationTimestamp?: string;
}
interface Condition {
  readonly type: string;
  readonly status: string;
  readonly message?: string;
}
interface PodState {
  readonly metadata: Meta;
  readonly spec?: { readonly nodeName?: string };
  readonly status?: { readonly conditions?: readonly Condition[] };
}
interface NodeState {
  readonly metadata: Meta;
  readonly status?: { readonly conditions?: readonly Condition[] };
}
interface EventState {
  readonly metadata?: Meta;
  readonly involvedObject?: { readonly namespace?: string; readonly name?: string };
  readonly series?: { readonly lastObservedTime?: string };
  readonly lastTimestamp?: string;
  readonly eventTime?: string;
  readonly message?: string;
}

function seconds(fromMs: number): number {
  return Math.round((Date.now() - fromMs) / 10) / 100;
}

async function ok<T = unknown>(cp: ControlPlane, what: string, call: () => Promise<ApiResponse>, accept: number[] = [200, 201, 202]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let res: ApiResponse | undefined;
    let err: unknown;
    try {
      res = await call();
    } catch (e) {
      err = e;
    }
    if (res && accept.includes(res.status)) return res.body as T;
    const retriable = !res || res.status === 429 || res.status >= 500;
    if (!retriable || attempt >= 8) {
      throw new Error(`${what}: ${res ? `HTTP ${res.status}: ${apiMessage(res.body)}` : String(err)}${cp.dead() ? `\n${cp.dead()}` : ''}`);
    }
    await sleep(200 * 2 ** Math.min(attempt, 4));
  }
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Removes everything a previous replay left: every pod (at once; the control plane is the replay's own), their events, and the replay's Nodes. */
export async function resetControlPlane(cp: ControlPlane): Promise<void> {
  const pods = await ok<List<PodState>>(cp, 'listing pods', () => cp.request('GET', '/api/v1/pods'));
  const namespaces = [...new Set((pods.items ?? []).map((p) => p.metadata.namespace ?? 'default'))];
  for (const ns of namespaces) {
    await ok(cp, `deleting pods in ${ns}`, () => cp.request('DELETE', `/api/v1/namespaces/${ns}/pods?gracePeriodSeconds=0`));
  }
  const events = await ok<List<EventState>>(cp, 'listing events', () => cp.request('GET', '/api/v1/events'));
  for (const ns of new Set((events.items ?? []).map((e) => e.metadata?.namespace ?? 'default'))) {
    await ok(cp, `deleting events in ${ns}`, () => cp.request('DELETE', `/api/v1/namespaces/${ns}/events`));
  }
  await ok(cp, 'deleting nodes', () => cp.request('DELETE', `/api/v1/nodes?labelSelector=${encodeURIComponent(REPLAY_NODE_LABEL)}`));
  for (const deadline = Date.now() + 120_000; ;) {
    const left = await ok<List<PodState>>(cp, 'listing pods', () => cp.request('GET', '/api/v1/pods?limit=1'));
    const nodes = await ok<List<NodeState>>(cp, 'listing nodes', () =>
      cp.request('GET', `/api/v1/nodes?labelSelector=${encodeURIComponent(REPLAY_NODE_LABEL)}&limit=1`),
    );
    if ((left.items ?? []).length === 0 && (nodes.items ?? []).length === 0) return;
    if (Date.now() > deadline) throw new Error('resetting the control plane: pods or nodes of the previous replay are still there after 120 s');
    await sleep(250);
  }
}

function isReady(node: NodeState): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The latest FailedScheduling message per `namespace/pod`. */
async function failedSchedulingMessages(cp: ControlPlane): Promise<Map<string, string>> {
  const events = await ok<List<EventState>>(cp, 'listing events', () =>
    cp.request('GET', `/api/v1/events?fieldSelector=${encodeURIComponent('reason=FailedScheduling')}`),
  );
  const latest = new Map<string, { at: string; message: string }>();
  for (const e of events.items ?? []) {
    const key = `${e.involvedObject?.namespace ?? ''}/${e.involvedObject?.name ?? ''}`;
    const at = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '';
    const prev = latest.get(key);
    if (!prev || at >= prev.at) latest.set(key, { at, message: (e.message ?? '').trim() });
  }
  return new Map([...latest].map(([k, v]) => [k, v.message]));
}

/** Replays a plan's concrete VMs as launcher pods on a real control plane and counts what kube-scheduler binds. */
// eslint-disable-next-line max-lines-per-function, complexity -- the replay from plan to bound pods, step by step; split pending (issue 29)
export async function verifyPlan(plan: Pick<Plan, 'fleets' | 'vms'>, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const order = opts.order ?? 'deploy';
  const seed = opts.seed ?? 1;
  const concurrency = opts.concurrency ?? 128;
  const quietMs = opts.quietMs ?? 5000;
  const log = opts.log ?? (() => undefined);
  const replay = opts.snapshot ? buildSnapshotReplay(plan, opts.snapshot, opts.extraVms ?? []) : buildReplay(plan, opts.extraVms ?? []);
  const ordered = creationOrder(replay.pods, order, seed);

  const startedAt = Date.now();
  const owned = opts.controlPlane === undefined;
  if (owned) log('starting etcd, kube-apiserver, kube-scheduler and kwok');
  const cp = opts.controlPlane ?? (await startControlPlane());
  try {
    if (!owned) await resetControlPlane(cp);
    for (const ns of replay.namespaces) {
      await ok(
        cp,
        `creating namespace ${ns}`,
        () => cp.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
        [201, 409],
      );
    }
    log(`creating ${replay.nodes.length} nodes`);
    await pool(replay.nodes, concurrency, async (node) => {
      await ok(cp, `creating node ${node.metadata.name}`, () => cp.request('POST', '/api/v1/nodes', node), [201]);
    });
    // KWOK keeps the Nodes of ready hosts Ready; a NotReady host's Node stays as created.
    const kwokNodes = replay.nodes.filter((n) => n.metadata.labels[KWOK_NODE_LABEL] !== undefined).length;
    for (const deadline = Date.now() + 180_000; ;) {
      const nodes = await ok<List<NodeState>>(cp, 'listing nodes', () =>
        cp.request('GET', `/api/v1/nodes?labelSelector=${encodeURIComponent(KWOK_NODE_SELECTOR)}`),
      );
      const ready = (nodes.items ?? []).filter(isReady).length;
      if (ready === kwokNodes) break;
      if (Date.now() > deadline) throw new Error(`only ${ready} of ${kwokNodes} nodes became Ready (kwok)\n${cp.logTail(20)}`);
      await sleep(300);
    }
    log(`binding ${replay.boundPods.length} pods already on the hosts`);
    await pool(replay.boundPods, concurrency, async (pod) => {
      await ok(
        cp,
        `creating pod ${pod.metadata.namespace}/${pod.metadata.name}`,
        () => cp.request('POST', `/api/v1/namespaces/${pod.metadata.namespace}/pods`, pod),
        [201],
      );
    });
    const start = seconds(startedAt);

    log(`creating ${ordered.length} launcher pods (${order}${order === 'shuffled' ? `, seed ${seed}` : ''}, ${concurrency} in flight)`);
    const scheduleFrom = Date.now();
    await pool(ordered, concurrency, async (pod) => {
      await ok(
        cp,
        `creating pod ${pod.namespace}/${pod.object.metadata.name}`,
        () => cp.request('POST', `/api/v1/namespaces/${pod.namespace}/pods`, pod.object),
        [201, 409],
      );
    });

    // Wait: everything bound, or the rest unschedulable and nothing bound for quietMs.
    const deadline = Date.now() + (opts.scheduleTimeoutMs ?? 600_000);
    let lastBound = -1;
    let lastChange = Date.now();
    let unbound: readonly PodState[] = [];
    let timedOut = false;
    for (;;) {
      const list = await ok<List<PodState>>(cp, 'listing unbound pods', () =>
        cp.request('GET', `/api/v1/pods?labelSelector=${LAUNCHER_SELECTOR}&fieldSelector=${encodeURIComponent('spec.nodeName=')}`),
      );
      unbound = list.items ?? [];
      const bound = ordered.length - unbound.length;
      if (bound !== lastBound) {
        if (lastBound >= 0) log(`${bound}/${ordered.length} bound`);
        lastBound = bound;
        lastChange = Date.now();
      }
      if (unbound.length === 0) break;
      const allUnschedulable = unbound.every((p) => (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False'));
      if (allUnschedulable && Date.now() - lastChange >= quietMs) break;
      if (Date.now() > deadline) {
        timedOut = true;
        break;
      }
      const dead = cp.dead();
      if (dead) throw new Error(`a control plane component died: ${dead}`);
      await sleep(500);
    }
    const schedule = seconds(scheduleFrom);

    const messages = unbound.length > 0 ? await failedSchedulingMessages(cp) : new Map<string, string>();
    const byPod = new Map<string, ReplayPod>(ordered.map((p) => [`${p.namespace}/${p.object.metadata.name}`, p]));
    const pending: PendingVm[] = unbound
      .map((p) => {
        const key = `${p.metadata.namespace ?? ''}/${p.metadata.name}`;
        const r = byPod.get(key);
        const condition = (p.status?.conditions ?? []).find((c) => c.type === 'PodScheduled' && c.status === 'False');
        const reason = messages.get(key) ?? condition?.message ?? (timedOut ? `not scheduled within ${opts.scheduleTimeoutMs ?? 600_000} ms` : 'not scheduled');
        return { vm: r?.vm ?? p.metadata.name, pool: r?.pool ?? '', namespace: p.metadata.namespace ?? '', plannedHost: r?.plannedHost ?? null, reason };
      })
      .sort((a, b) => a.pool.localeCompare(b.pool) || a.vm.localeCompare(b.vm, undefined, { numeric: true }));

    // Where the scheduler put the bound ones, against the plan.
    const all = await ok<List<PodState>>(cp, 'listing pods', () => cp.request('GET', `/api/v1/pods?labelSelector=${LAUNCHER_SELECTOR}`));
    let moved = 0;
    for (const p of all.items ?? []) {
      const r = byPod.get(`${p.metadata.namespace ?? ''}/${p.metadata.name}`);
      if (p.spec?.nodeName && r?.plannedHost !== undefined && p.spec.nodeName !== r.plannedHost) moved++;
    }
    return {
      order,
      seed,
      hosts: replay.nodes.length,
      vms: ordered.length,
      bound: ordered.length - unbound.length,
      pending,
      movedFromPlan: moved,
      seconds: { plan: opts.planSeconds ?? 0, start, schedule },
    };
  } finally {
    if (owned) await cp.stop();
  }
}

/** A short plain-text table of a result. */
export function formatVerifyResult(r: VerifyResult): string {
  const lines = [
    `order      ${r.order}${r.order === 'shuffled' ? ` (seed ${r.seed})` : ''}`,
    `hosts      ${r.hosts}`,
    `VMs        ${r.vms}`,
    `bound      ${r.bound} (${r.vms === 0 ? 100 : Math.floor((r.bound * 1000) / r.vms) / 10} %)`,
    `pending    ${r.pending.length}`,
    `off-plan   ${r.movedFromPlan} bound on another host than the plan chose`,
    `seconds    plan ${r.seconds.plan}, start ${r.seconds.start}, schedule ${r.seconds.schedule}`,
  ];
  if (r.pending.length > 0) {
    lines.push('', 'VM\tPOOL\tPLANNED HOST\tREASON');
    for (const p of r.pending) lines.push(`${p.vm}\t${p.pool}\t${p.plannedHost ?? '-'}\t${p.reason}`);
  }
  return lines.join('\n') + '\n';
}
