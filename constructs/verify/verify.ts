/**
 * `metalslice verify`: replays a plan on a real control plane and reports how many launcher pods the real
 * kube-scheduler bound. Nodes mirror the fleet hosts (KWOK keeps them Ready); pods are the launcher pods
 * KubeVirt would create for the plan's concrete VMs, created in deploy or seeded shuffled order with
 * bounded concurrency. A run ends when every pod is bound, or when every unbound pod is marked
 * unschedulable by the scheduler and no pod has bound for `quietMs`; each pending pod's reason is the
 * scheduler's last FailedScheduling event message (else its PodScheduled condition).
 */
import { Plan } from '../core/plan';
import { PlannedVm } from '../core/vm/vm';
import { ApiResponse, ControlPlane, sleep, startControlPlane } from './control-plane';
import { ListWatch } from './list-watch';
import { apiMessage, inPool } from './processes';
import { ClusterSnapshot } from '../core/hosts/snapshot';
import {
  applyVirtualMachines,
  followKubevirtProgress,
  KubevirtApplied,
  KubevirtProgress,
  launcherPodVm,
  releaseClaims,
  resetKubevirt,
  vmsWithoutLauncherPod,
} from './kubevirt-replay';
import {
  buildReplay,
  buildSnapshotReplay,
  creationOrder,
  KWOK_NODE_LABEL,
  KWOK_NODE_SELECTOR,
  Replay,
  REPLAY_NODE_LABEL,
  ReplayOrder,
  ReplayPod,
} from './replay';

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
  /**
   * Put every VM through KubeVirt's own virt-api (its admission webhooks, by a dry-run create) and let KubeVirt's
   * virt-controller render the launcher pod of one VM per launcher pod class (the rendered VM up to its name,
   * namespace and host pin); every other VM's launcher pod is made from its class's, and kube-scheduler binds
   * them all (README "Verify: the plan on the real kube-scheduler"). A given controlPlane must have been started
   * with `kubevirt: true`. @default false
   */
  readonly kubevirt?: boolean;
  /**
   * With `kubevirt`: apply every VM and let virt-controller render every launcher pod (the equivalence test's
   * reference; about 17 times slower than the replay at 1,000 VMs). @default false
   */
  readonly kubevirtEveryVm?: boolean;
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
  /** kube-scheduler's reason (the pod's PodScheduled condition); with `--kubevirt`, also KubeVirt's refusal or why no pod came. */
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
  /** Who made the launcher pods: the replay itself, or KubeVirt's virt-controller from applied VirtualMachines (`--kubevirt`). */
  readonly launcherPodsBy: 'replay' | 'virt-controller';
  /**
   * With `--kubevirt`: the launcher pods virt-controller rendered from applied VMs, one per launcher pod class
   * (every VM's with `kubevirtEveryVm`); the others were made from their class's pod. @default - none (no `--kubevirt`)
   */
  readonly renderedByVirtController?: number;
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
  readonly metadata: Meta & { readonly labels?: Record<string, string> };
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

/** Removes everything a previous replay left: KubeVirt's objects (with `--kubevirt`), every pod (at once; the control plane is the replay's own), their events, and the replay's Nodes. */
export async function resetControlPlane(cp: ControlPlane): Promise<void> {
  if (cp.kubevirt) await resetKubevirt(cp);
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
    if ((left.items ?? []).length === 0 && (nodes.items ?? []).length === 0) {
      if (cp.kubevirt) await releaseClaims(cp);
      return;
    }
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

/** What a replay's wait saw last: the launcher pods the scheduler left unbound, all launcher pods, and whether time ran out. */
interface Settled {
  readonly unbound: readonly PodState[];
  readonly pods: number;
  readonly timedOut: boolean;
}

/** Namespaces, Nodes (until KWOK has made the ready ones Ready) and the pods already on the hosts. */
async function prepareHosts(cp: ControlPlane, replay: Replay, concurrency: number, log: (line: string) => void): Promise<void> {
  for (const ns of replay.namespaces) {
    await ok(
      cp,
      `creating namespace ${ns}`,
      () => cp.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
      [201, 409],
    );
  }
  log(`creating ${replay.nodes.length} nodes`);
  await inPool(replay.nodes, concurrency, async (node) => {
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
  await inPool(replay.boundPods, concurrency, async (pod) => {
    await ok(
      cp,
      `creating pod ${pod.metadata.namespace}/${pod.metadata.name}`,
      () => cp.request('POST', `/api/v1/namespaces/${pod.metadata.namespace}/pods`, pod),
      [201],
    );
  });
}

/** The default replay: creates the launcher pods metalslice builds, `concurrency` in flight. */
async function createLauncherPods(cp: ControlPlane, ordered: readonly ReplayPod[], concurrency: number): Promise<void> {
  await inPool(ordered, concurrency, async (pod) => {
    await ok(
      cp,
      `creating pod ${pod.namespace}/${pod.object.metadata.name}`,
      () => cp.request('POST', `/api/v1/namespaces/${pod.namespace}/pods`, pod.object),
      [201, 409],
    );
  });
}

/**
 * Waits until every expected launcher pod exists and is bound, or until nothing changed (pods made, pods bound)
 * for `quietMs` with every unbound pod marked unschedulable (or, with KubeVirt, some pods never made).
 */
async function waitForScheduling(
  cp: ControlPlane,
  launchers: ListWatch<PodState>,
  expected: number,
  quietMs: number,
  timeoutMs: number,
  log: (line: string) => void,
  progress: KubevirtProgress,
): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let lastChange = Date.now();
  for (;;) {
    const pods = launchers.current();
    const unbound = pods.filter((p) => !p.spec?.nodeName);
    const bound = pods.length - unbound.length;
    // Progress is pods made and bound, and (KubeVirt) the DataVolumes and VMIs on the way to more pods.
    const now = `${pods.length}/${bound}/${progress.current()}`;
    if (now !== last) {
      if (last !== '') log(`${bound}/${expected} bound`);
      last = now;
      lastChange = Date.now();
    }
    if (unbound.length === 0 && pods.length >= expected) return { unbound, pods: pods.length, timedOut: false };
    const allUnschedulable = unbound.every((p) => (p.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False'));
    if (allUnschedulable && Date.now() - lastChange >= quietMs) return { unbound, pods: pods.length, timedOut: false };
    if (Date.now() > deadline) return { unbound, pods: pods.length, timedOut: true };
    const dead = cp.dead();
    if (dead) throw new Error(`a control plane component died: ${dead}`);
    await sleep(250);
  }
}

/** The default replay's progress short of launcher pods: none (it makes them itself). */
const NO_PROGRESS: KubevirtProgress = { current: () => '', stop: () => undefined };

/** How a launcher pod is matched with the VM it stands for: by its name (replay) or by KubeVirt's VM label. */
function podKey(kubevirt: boolean): (p: { metadata: Meta & { labels?: Record<string, string> } }) => string {
  return kubevirt ? (p) => `${p.metadata.namespace ?? ''}/${launcherPodVm(p)}` : (p) => `${p.metadata.namespace ?? ''}/${p.metadata.name}`;
}

/** The pending VMs: the unbound pods with the scheduler's reasons, then (KubeVirt) the VMs refused or left without a pod. */
async function pendingVms(
  cp: ControlPlane,
  settled: Settled,
  byKey: Map<string, ReplayPod>,
  kubevirt: boolean,
  others: ReadonlyMap<string, string>,
  timeoutMs: number,
): Promise<PendingVm[]> {
  const messages = settled.unbound.length > 0 ? await failedSchedulingMessages(cp) : new Map<string, string>();
  const keyOf = podKey(kubevirt);
  const pending: PendingVm[] = settled.unbound.map((p) => {
    const r = byKey.get(keyOf(p));
    const podName = `${p.metadata.namespace ?? ''}/${p.metadata.name}`;
    const condition = (p.status?.conditions ?? []).find((c) => c.type === 'PodScheduled' && c.status === 'False');
    const reason = messages.get(podName) ?? condition?.message ?? (settled.timedOut ? `not scheduled within ${timeoutMs} ms` : 'not scheduled');
    return { vm: r?.vm ?? p.metadata.name, pool: r?.pool ?? '', namespace: p.metadata.namespace ?? '', plannedHost: r?.plannedHost ?? null, reason };
  });
  for (const [key, reason] of others) {
    const r = byKey.get(key);
    if (r) pending.push({ vm: r.vm, pool: r.pool, namespace: r.namespace, plannedHost: r.plannedHost ?? null, reason });
  }
  return pending.sort((a, b) => a.pool.localeCompare(b.pool) || a.vm.localeCompare(b.vm, undefined, { numeric: true }));
}

/** Bound pods the scheduler put elsewhere than the plan. */
function movedFromPlan(pods: readonly PodState[], byKey: Map<string, ReplayPod>, kubevirt: boolean): number {
  const keyOf = podKey(kubevirt);
  let moved = 0;
  for (const p of pods) {
    const r = byKey.get(keyOf(p));
    if (p.spec?.nodeName && r?.plannedHost !== undefined && p.spec.nodeName !== r.plannedHost) moved++;
  }
  return moved;
}

/** The launcher pods made: by the replay, or (KubeVirt) from the applied VMs; returns the VMs that get no pod, by key. */
async function makeLauncherPods(
  cp: ControlPlane,
  plan: Pick<Plan, 'fleets' | 'vms'>,
  ordered: readonly ReplayPod[],
  opts: VerifyOptions & { readonly quietMs: number; readonly timeoutMs: number },
  log: (line: string) => void,
): Promise<KubevirtApplied> {
  const concurrency = opts.concurrency ?? 128;
  if (!opts.kubevirt) {
    log(
      `creating ${ordered.length} launcher pods (${opts.order ?? 'deploy'}${opts.order === 'shuffled' ? `, seed ${opts.seed ?? 1}` : ''}, ${concurrency} in flight)`,
    );
    await createLauncherPods(cp, ordered, concurrency);
    return { noPod: new Map(), rendered: 0 };
  }
  return applyVirtualMachines(cp, plan, opts.extraVms ?? [], ordered, {
    concurrency: Math.min(concurrency, 32),
    everyVm: opts.kubevirtEveryVm === true,
    quietMs: opts.quietMs,
    timeoutMs: opts.timeoutMs,
    log,
  });
}

/** Replays a plan's concrete VMs as launcher pods on a real control plane and counts what kube-scheduler binds. */
export async function verifyPlan(plan: Pick<Plan, 'fleets' | 'vms'>, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const order = opts.order ?? 'deploy';
  const seed = opts.seed ?? 1;
  const kubevirt = opts.kubevirt === true;
  // virt-controller makes pods in steps (VM, DataVolume, VMI, pod): a pause between them is not the end.
  const quietMs = Math.max(opts.quietMs ?? 5000, kubevirt ? 20_000 : 0);
  const timeoutMs = opts.scheduleTimeoutMs ?? 600_000;
  const log = opts.log ?? (() => undefined);
  const replay = opts.snapshot ? buildSnapshotReplay(plan, opts.snapshot, opts.extraVms ?? []) : buildReplay(plan, opts.extraVms ?? []);
  const ordered = creationOrder(replay.pods, order, seed);

  const startedAt = Date.now();
  const owned = opts.controlPlane === undefined;
  if (owned) log(`starting etcd, kube-apiserver, kube-scheduler and kwok${kubevirt ? ', virt-api and virt-controller' : ''}`);
  const cp = opts.controlPlane ?? (await startControlPlane({ kubevirt }));
  let launchers: ListWatch<PodState> | undefined;
  let progress = NO_PROGRESS;
  try {
    if (kubevirt && !cp.kubevirt) throw new Error('verify with kubevirt needs a control plane started with kubevirt: true');
    if (!owned) await resetControlPlane(cp);
    await prepareHosts(cp, replay, opts.concurrency ?? 128, log);
    const start = seconds(startedAt);
    const scheduleFrom = Date.now();
    launchers = await ListWatch.start<PodState>(cp, `/api/v1/pods?labelSelector=${LAUNCHER_SELECTOR}`);
    if (kubevirt) progress = await followKubevirtProgress(cp);
    const applied = await makeLauncherPods(cp, plan, ordered, { ...opts, quietMs, timeoutMs }, log);
    const refused = applied.noPod;
    const settled = await waitForScheduling(cp, launchers, ordered.length - refused.size, quietMs, timeoutMs, log, progress);
    const schedule = seconds(scheduleFrom);
    const byKey = new Map<string, ReplayPod>(ordered.map((p) => [kubevirt ? `${p.namespace}/${p.vm}` : `${p.namespace}/${p.object.metadata.name}`, p]));
    const others = kubevirt ? new Map([...refused, ...(await vmsWithoutLauncherPod(cp, ordered, refused))]) : new Map<string, string>();
    const pending = await pendingVms(cp, settled, byKey, kubevirt, others, timeoutMs);
    return {
      order,
      seed,
      hosts: replay.nodes.length,
      vms: ordered.length,
      bound: ordered.length - pending.length,
      launcherPodsBy: kubevirt ? 'virt-controller' : 'replay',
      ...(kubevirt ? { renderedByVirtController: applied.rendered } : {}),
      pending,
      movedFromPlan: movedFromPlan(launchers.current(), byKey, kubevirt),
      seconds: { plan: opts.planSeconds ?? 0, start, schedule },
    };
  } finally {
    launchers?.stop();
    progress.stop();
    if (owned) await cp.stop();
  }
}

/** A short plain-text table of a result. */
export function formatVerifyResult(r: VerifyResult): string {
  const lines = [
    `order      ${r.order}${r.order === 'shuffled' ? ` (seed ${r.seed})` : ''}`,
    `hosts      ${r.hosts}`,
    `VMs        ${r.vms}${r.launcherPodsBy === 'virt-controller' ? ` (admitted by KubeVirt's virt-api; virt-controller rendered ${r.renderedByVirtController ?? r.vms} launcher pods, the others made from their class's)` : ''}`,
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
