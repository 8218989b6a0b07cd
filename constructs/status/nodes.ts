/**
 * One planned node against what runs: its VM (or HostClaim), instance, launcher pod and tenant Node, with the
 * problems each shows, their evidence and what to do.
 */
import { excerptText } from '../core/base/excerpt';
import {
  DRAINING_ANNOTATION,
  POOL_LABEL,
  REPLACING_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_LABEL,
  ROLL_STOPPED_LABEL,
  rollHoldName,
} from '../core/naming/derived';
import { firstDifference } from './drift';
import type { ExpectedNode, ExpectedPool } from './expected';
import { annotationOf, arr, conditionOf, deleting, labelOf, nameOf, rec, str } from './objects';
import type { NodeStatus, ObservedObject, StatusCondition, StatusProblem, TenantNodeStatus } from './types';

/** The clusters' objects as one node's comparison looks them up. */
export interface Lookup {
  readonly at: Date;
  /** Seconds a started instance may take before its Node is Ready. */
  readonly joinTimeoutSeconds: number;
  readonly vms: ReadonlyMap<string, ObservedObject>;
  readonly vmis: ReadonlyMap<string, ObservedObject>;
  /** The newest launcher pod of each VM, by `namespace/vm`. */
  readonly launchers: ReadonlyMap<string, ObservedObject>;
  readonly hostClaims?: ReadonlyMap<string, ObservedObject>;
  /** The holds of rolls cut short (ConfigMaps) by `namespace/name`; undefined when they could not be listed. */
  readonly holds?: ReadonlyMap<string, ObservedObject>;
  /** CDI's DataVolumes by `namespace/name`; undefined when CDI is not installed. */
  readonly dataVolumes?: ReadonlyMap<string, ObservedObject>;
  /** The tenant cluster's Nodes by name; undefined when that cluster could not be read. */
  tenantNodes(cluster: string): ReadonlyMap<string, ObservedObject> | undefined;
}

/** How `deploy again` is said: the three ways metalslice deploys. */
export const DEPLOY_AGAIN = 'deploy again (cdktf deploy, or tofu apply of the stack)';

/**
 * The fix of a roll cut short, `then` what the resumed roll does. A deploy runs the roll only while its rollout is
 * not recorded (it was cut short), so a deploy with METALSLICE_ROLL=skip since then leaves it to a roll run by hand
 * or to the rollout replaced.
 */
export function resumeRoll(command: 'roll-nodes' | 'roll-hosts', then = 'the roll resumes where it stopped'): string {
  return `${DEPLOY_AGAIN} without METALSLICE_ROLL=skip: ${then}; if a deploy with METALSLICE_ROLL=skip has run since, run metalslice ${command} for the pool (or deploy with the pool's rollout terraform_data replaced: tofu apply -replace=...)`;
}

function problem(p: StatusProblem): StatusProblem {
  return p;
}

function seconds(at: Date, since: string | undefined): number | undefined {
  const t = since === undefined ? NaN : Date.parse(since);
  return Number.isFinite(t) ? (at.getTime() - t) / 1000 : undefined;
}

/** The tenant Node as status reports it. */
function tenantNodeOf(node: ObservedObject | undefined): TenantNodeStatus {
  if (!node) return { joined: false, ready: false, cordoned: false, draining: false };
  const info = rec(rec(node.status)?.nodeInfo);
  const kubelet = str(info?.kubeletVersion);
  return {
    joined: true,
    ready: conditionOf(node, 'Ready')?.status === 'True',
    cordoned: rec(node.spec)?.unschedulable === true,
    draining: annotationOf(node, DRAINING_ANNOTATION) !== undefined,
    ...(kubelet !== undefined ? { kubeletVersion: kubelet } : {}),
  };
}

/** The problems of a node's tenant Node. */
function tenantProblems(pool: ExpectedPool, name: string, node: ObservedObject | undefined, started: string | undefined, look: Lookup): StatusProblem[] {
  const object = { kind: 'Node', name, cluster: pool.cluster };
  if (!node) {
    const age = seconds(look.at, started);
    if (started === undefined) return [];
    const late = age !== undefined && age > look.joinTimeoutSeconds;
    return [
      problem({
        reason: late ? 'NodeNotJoined' : 'WaitingForNode',
        object,
        since: started,
        message: late
          ? `${name} started ${Math.round(age)} s ago and never joined ${pool.cluster} (the join may take ${look.joinTimeoutSeconds} s)`
          : `${name} started and has not joined ${pool.cluster} yet`,
        remedy: late
          ? `read the guest's console (virtctl console ${name} -n ${pool.namespace}): cloud-init or kubeadm join failed; a bootstrap token that expired is made again by a deploy: ${DEPLOY_AGAIN}`
          : 'wait: the guest is booting and joining',
      }),
    ];
  }
  const out: StatusProblem[] = [];
  const ready = conditionOf(node, 'Ready');
  if (ready?.status !== 'True')
    out.push({
      reason: 'NodeNotReady',
      object,
      since: ready?.lastTransitionTime,
      message: `the Node ${name} is ${ready ? `Ready=${ready.status}` : 'without a Ready condition'} in ${pool.cluster}`,
      evidence: ready?.message !== undefined ? excerptText(ready.message, 200) : undefined,
      remedy: `kubectl describe node ${name} in ${pool.cluster}; when its guest is stuck, restart it (virtctl restart ${name} -n ${pool.namespace})`,
    });
  if (rec(node.spec)?.unschedulable === true) {
    const draining = annotationOf(node, DRAINING_ANNOTATION) !== undefined;
    out.push({
      reason: draining ? 'Draining' : 'NodeCordoned',
      object,
      message: draining ? `metalslice cordoned ${name} for a drain that has not finished` : `${name} is cordoned, and no drain of metalslice's is under way`,
      remedy: draining
        ? `a drain cut short: ${DEPLOY_AGAIN} to finish it, or kubectl uncordon ${name} to keep the node`
        : `kubectl uncordon ${name} when its maintenance is over`,
    });
  }
  return out;
}

/** Conditions of a node, in v1beta2 words, from its problems. */
function conditionsOf(ready: boolean | undefined, upToDate: boolean, available: boolean, gone: boolean, problems: readonly StatusProblem[]): StatusCondition[] {
  const reason = (fallback: string) => problems[0]?.reason ?? fallback;
  const conditions: StatusCondition[] = [
    {
      type: 'Ready',
      status: ready === undefined ? 'Unknown' : ready ? 'True' : 'False',
      reason: ready === undefined ? 'ClusterUnreadable' : ready ? 'NodeReady' : reason('NodeNotReady'),
    },
    { type: 'UpToDate', status: upToDate ? 'True' : 'False', reason: upToDate ? 'UpToDate' : reason('NotUpToDate') },
    { type: 'Available', status: available ? 'True' : 'False', reason: available ? 'Available' : reason('NotAvailable') },
  ];
  if (gone) conditions.push({ type: 'Deleting', status: 'True', reason: 'Deleting' });
  return conditions;
}

/** A VM's revision, its instance's, and the problems between them and the plan. */
function revisionProblems(pool: ExpectedPool, node: ExpectedNode, vm: ObservedObject, vmi: ObservedObject | undefined): StatusProblem[] {
  const object = { kind: 'VirtualMachine', name: node.name, namespace: pool.namespace, cluster: 'provider' };
  const revision = templateRevision(vm);
  const out: StatusProblem[] = [];
  if (pool.revision !== undefined && revision !== pool.revision) {
    out.push({
      reason: 'RevisionNotApplied',
      object,
      message: `its VM carries revision ${excerptText(revision ?? 'none')}, the plan ${pool.revision}: the change is not deployed`,
      remedy: `${DEPLOY_AGAIN}: the deploy applies the change and rolls the pool`,
    });
    return out;
  }
  const replacing = annotationOf(vm, REPLACING_ANNOTATION);
  const restart = conditionOf(vm, 'RestartRequired');
  // The roll stops a VM and labels it in one write; the deploy keeps such a VM Halted (parts/node-rollout.ts).
  if (stoppedByRoll(vm)) {
    // Started again by hand (virtctl start) while labelled: the next deploy stops it again, as it keeps any such VM.
    const strategy = str(rec(vm.spec)?.runStrategy);
    const halted = strategy === 'Halted';
    out.push({
      reason: 'HeldByRoll',
      object,
      message: halted
        ? `a roll cut short holds ${node.name} stopped: a deploy keeps it stopped until the roll starts it on the new revision`
        : `a roll cut short stopped ${node.name}, and it was started again outside the roll: the next deploy stops it again`,
      evidence: `its VM is labelled ${ROLL_STOPPED_LABEL}=true and its runStrategy is ${excerptText(strategy ?? 'unset')}`,
      remedy: resumeRoll('roll-nodes'),
    });
    return out;
  }
  if (replacing !== undefined) {
    out.push({
      reason: 'Replacing',
      object,
      message: `a roll is replacing ${node.name} (${excerptText(replacing)}) and has not finished`,
      remedy: resumeRoll('roll-nodes'),
    });
    return out;
  }
  if (vmi && !runsItsRevision(vm, vmi)) {
    const running = annotationOf(vmi, REVISION_ANNOTATION);
    out.push({
      reason: 'RestartRequired',
      object,
      since: restart?.lastTransitionTime,
      message:
        running !== undefined && running !== revision
          ? `${node.name} runs revision ${excerptText(running)}; its VM says ${excerptText(revision ?? 'none')}: a change is staged and not rolled`
          : `KubeVirt staged a change of ${node.name}'s VM that its running instance does not have`,
      evidence: restart ? `KubeVirt: RestartRequired=${restart.status}${restart.message ? `: ${excerptText(restart.message, 200)}` : ''}` : undefined,
      remedy: `${DEPLOY_AGAIN} without METALSLICE_ROLL=skip, or run metalslice roll-nodes for the pool: its nodes are replaced through drains`,
    });
  }
  return out;
}

/**
 * Whether a running instance runs its VM's revision, as roll-nodes judges it (cli/roll.ts): its revision mark when
 * it has one, else (an instance from before revisions were written) unless KubeVirt staged a change for it; and
 * never while KubeVirt says RestartRequired.
 */
function runsItsRevision(vm: ObservedObject, vmi: ObservedObject): boolean {
  if (conditionOf(vm, 'RestartRequired')?.status === 'True') return false;
  const running = annotationOf(vmi, REVISION_ANNOTATION);
  return running === undefined || running === templateRevision(vm);
}

/** A VM that should run and has no instance: KubeVirt has not started it, or cannot. */
function instanceProblem(pool: ExpectedPool, node: ExpectedNode, vm: ObservedObject, vmi: ObservedObject | undefined): StatusProblem | undefined {
  const strategy = str(rec(vm.spec)?.runStrategy);
  if (vmi || strategy === 'Halted' || strategy === 'Manual' || annotationOf(vm, REPLACING_ANNOTATION) !== undefined || deleting(vm)) return undefined;
  const printable = str(rec(vm.status)?.printableStatus);
  const failure = conditionOf(vm, 'Failure') ?? conditionOf(vm, 'Ready');
  return {
    reason: 'InstanceMissing',
    object: { kind: 'VirtualMachine', name: node.name, namespace: pool.namespace, cluster: 'provider' },
    since: failure?.lastTransitionTime ?? str(vm.metadata?.creationTimestamp),
    message: `${node.name} should run (runStrategy ${excerptText(strategy ?? 'unset')}) and has no instance${printable ? `: KubeVirt says ${excerptText(printable)}` : ''}`,
    evidence: failure?.message !== undefined ? `KubeVirt: ${excerptText(failure.message, 200)}` : undefined,
    remedy: `wait while KubeVirt starts it; if it stays, kubectl describe vm ${node.name} -n ${pool.namespace} (a failing start backs off)`,
  };
}

/** A field of the VM the stack writes that holds another value (`rollRuns`: a roll owns its runStrategy). */
function driftProblem(pool: ExpectedPool, node: ExpectedNode, vm: ObservedObject, rollRuns: boolean): StatusProblem | undefined {
  if (!node.vm) return undefined;
  const { spec, metadata } = node.vm as unknown as { spec: Record<string, unknown>; metadata: { labels?: unknown } };
  // While a roll replaces the node, or holds it stopped, the roll owns runStrategy.
  const written = rollRuns ? { ...spec, runStrategy: undefined } : spec;
  const d = firstDifference({ metadata: { labels: metadata.labels }, spec: written }, vm, '');
  if (!d) return undefined;
  const shown = (v: unknown) => (v === undefined ? 'absent' : excerptText(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'absent'), 80));
  return {
    reason: 'Drifted',
    object: { kind: 'VirtualMachine', name: node.name, namespace: pool.namespace, cluster: 'provider' },
    message: `${d.path.replace(/^\./, '')} was changed outside the stack`,
    evidence: `the cluster holds ${shown(d.actual)}; the stack writes ${shown(d.expected)}`,
    remedy: `${DEPLOY_AGAIN}: the stack takes the field back (a change that needs a restart is then rolled); make lasting changes in the config`,
  };
}

/** The launcher pod of a VM that kube-scheduler has not bound, with its reason. */
function launcherProblem(pool: ExpectedPool, node: ExpectedNode, pod: ObservedObject | undefined, vmi: ObservedObject | undefined): StatusProblem | undefined {
  // A VMI that runs on a host has its launcher pod there: a newer pod still unbound is a migration's target.
  if (!pod || str(rec(pod.spec)?.nodeName) !== undefined || deleting(pod) || str(rec(vmi?.status)?.nodeName) !== undefined) return undefined;
  const scheduled = conditionOf(pod, 'PodScheduled');
  return {
    reason: 'LauncherPending',
    object: { kind: 'Pod', name: nameOf(pod), namespace: pool.namespace, cluster: 'provider' },
    since: scheduled?.lastTransitionTime ?? str(pod.metadata?.creationTimestamp),
    message: `the launcher pod of ${node.name} is not bound to a host${node.plannedHost ? ` (the plan put it on ${node.plannedHost})` : ''}`,
    evidence: scheduled?.message !== undefined ? `kube-scheduler: ${excerptText(scheduled.message, 300)}` : 'kube-scheduler has not said why',
    remedy: 'free room on a host the pool may use, bring a lost host back (or uncordon it), or add hosts and plan again: metalslice plan says what fits',
  };
}

/** The problems of one VM node: its VM, revision, fields, launcher pod and tenant Node; `rollRuns`: a roll owns its runStrategy. */
function vmProblems(pool: ExpectedPool, node: ExpectedNode, look: Lookup, found: Found, rollRuns: boolean): StatusProblem[] {
  const { vm, vmi, pod, tenant } = found;
  const problems: StatusProblem[] = [];
  if (!vm) {
    problems.push({
      reason: 'MachineMissing',
      object: { kind: 'VirtualMachine', name: node.name, namespace: pool.namespace, cluster: 'provider' },
      message: `the plan's VM ${node.name} does not exist`,
      remedy: `${DEPLOY_AGAIN}: the stack creates it`,
    });
  } else {
    problems.push(...revisionProblems(pool, node, vm, vmi));
    const drift = problems.some((p) => p.reason === 'RevisionNotApplied') ? undefined : driftProblem(pool, node, vm, rollRuns);
    const pending = launcherProblem(pool, node, pod, vmi);
    for (const p of [drift, pending, instanceProblem(pool, node, vm, vmi)]) if (p) problems.push(p);
    problems.push(...diskProblems(pool, node, look));
  }
  if (tenant) problems.push(...tenantProblems(pool, node.name, tenant.get(node.name), vmi ? str(vmi.metadata?.creationTimestamp) : undefined, look));
  return problems;
}

/** What the clusters hold of one VM node: its VM, instance, launcher pod, and its tenant cluster's Nodes (undefined: unreadable). */
interface Found {
  readonly vm?: ObservedObject;
  readonly vmi?: ObservedObject;
  readonly pod?: ObservedObject;
  readonly tenant?: ReadonlyMap<string, ObservedObject>;
}

/** `record` without its undefined fields, so JSON and the schema see them absent. */
function withoutUndefined<T extends object>(record: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

/** At the plan's revision (VM and instance), not being replaced or held stopped by a roll (`replacing`), no field changed by hand. */
function isUpToDate(
  pool: ExpectedPool,
  revision: string | undefined,
  running: string | undefined,
  replacing: boolean,
  problems: readonly StatusProblem[],
): boolean {
  return revision === pool.revision && running === revision && !replacing && !problems.some((p) => p.reason === 'Drifted');
}

/** The revision the node runs: its VM's when it has no instance yet, or when the instance runs its VM (runsItsRevision). */
function runningRevisionOf(vm: ObservedObject, vmi: ObservedObject | undefined, revision: string | undefined): string | undefined {
  return vmi === undefined || runsItsRevision(vm, vmi) ? revision : annotationOf(vmi, REVISION_ANNOTATION);
}

/** Whether its problems say the VM is not running, whatever its Node last reported. */
function notRunning(problems: readonly StatusProblem[]): boolean {
  return problems.some((p) => p.reason === 'InstanceMissing' || p.reason === 'LauncherPending');
}

/** The revision a VM's template carries. */
function templateRevision(vm: ObservedObject | undefined): string | undefined {
  return vm ? str(rec(rec(rec(rec(vm.spec)?.template)?.metadata)?.annotations)?.[REVISION_ANNOTATION]) : undefined;
}

/**
 * The root disks of a VM (its dataVolumeTemplates) that CDI has not finished: importing, or failed. A DataVolume
 * CDI has collected after its import is gone and fine: its claim holds the disk.
 */
function diskProblems(pool: ExpectedPool, node: ExpectedNode, look: Lookup): StatusProblem[] {
  const templates = arr(rec((node.vm as unknown as { spec?: unknown } | undefined)?.spec)?.dataVolumeTemplates);
  const out: StatusProblem[] = [];
  for (const t of templates) {
    const name = str(rec(rec(t)?.metadata)?.name);
    const dv = name === undefined ? undefined : look.dataVolumes?.get(`${pool.namespace}/${name}`);
    const phase = dv ? str(rec(dv.status)?.phase) : undefined;
    if (!dv || phase === 'Succeeded') continue;
    const running = conditionOf(dv, 'Running') ?? conditionOf(dv, 'Ready');
    out.push({
      reason: 'DiskNotReady',
      object: { kind: 'DataVolume', name: name!, namespace: pool.namespace, cluster: 'provider' },
      since: running?.lastTransitionTime ?? str(dv.metadata?.creationTimestamp),
      message: `the root disk of ${node.name} is ${excerptText(phase ?? 'without a phase')} in CDI`,
      evidence: running?.message !== undefined ? `CDI: ${excerptText(running.message, 200)}` : undefined,
      remedy:
        phase === 'Failed'
          ? `kubectl describe datavolume ${name!} -n ${pool.namespace}: the image, its registry or URL, or the storage class; fix it in the config and deploy again`
          : 'wait: CDI is importing the image',
    });
  }
  return out;
}

/** A VM the roll stopped and labelled: the deploy keeps it Halted, so its runStrategy is the roll's, as while it replaces. */
function stoppedByRoll(vm: ObservedObject | undefined): boolean {
  return vm !== undefined && labelOf(vm, ROLL_STOPPED_LABEL) === 'true';
}

/** One VM node: its status and problems. */
export function vmNodeStatus(pool: ExpectedPool, node: ExpectedNode, look: Lookup): { status: NodeStatus; problems: StatusProblem[] } {
  const key = `${pool.namespace}/${node.name}`;
  const vm = look.vms.get(key);
  const vmi = look.vmis.get(key);
  const pod = look.launchers.get(key);
  const tenant = look.tenantNodes(pool.cluster);
  const replacing = vm !== undefined && annotationOf(vm, REPLACING_ANNOTATION) !== undefined;
  const rollRuns = replacing || stoppedByRoll(vm);
  const problems = vmProblems(pool, node, look, { vm, vmi, pod, tenant }, rollRuns);
  const revision = templateRevision(vm);
  const running = vmi ? annotationOf(vmi, REVISION_ANNOTATION) : undefined;
  const t = tenant ? tenantNodeOf(tenant.get(node.name)) : undefined;
  const upToDate = vm !== undefined && isUpToDate(pool, revision, runningRevisionOf(vm, vmi, revision), rollRuns, problems);
  const ready = t?.ready;
  const host = str(rec(vmi?.status)?.nodeName) ?? str(rec(pod?.spec)?.nodeName);
  const created = str(vm?.metadata?.creationTimestamp);
  const status = withoutUndefined<NodeStatus>({
    name: node.name,
    namespace: pool.namespace,
    machine: vm ? (str(rec(vm.status)?.printableStatus) ?? 'Unknown') : 'Missing',
    instance: vmi ? (str(rec(vmi.status)?.phase) ?? 'Unknown') : undefined,
    plannedHost: node.plannedHost,
    host,
    revision,
    runningRevision: running,
    replacing,
    tenantNode: t,
    created,
    conditions: conditionsOf(
      ready,
      upToDate,
      ready === true && upToDate && t?.cordoned === false && !notRunning(problems),
      vm !== undefined && deleting(vm),
      problems,
    ),
  });
  return { status, problems };
}

/** One private node: its HostClaim and tenant Node. */
export function hostNodeStatus(pool: ExpectedPool, node: ExpectedNode, look: Lookup): { status: NodeStatus; problems: StatusProblem[] } {
  const claim = look.hostClaims?.get(`${pool.namespace}/${node.name}`);
  const tenant = look.tenantNodes(pool.cluster);
  const tenantNode = tenant?.get(node.name);
  const problems: StatusProblem[] = [];
  if (!claim)
    problems.push({
      reason: 'MachineMissing',
      object: { kind: 'HostClaim', name: node.name, namespace: pool.namespace, cluster: 'provider' },
      message: look.hostClaims ? `the plan's HostClaim ${node.name} does not exist` : 'the provider cluster serves no HostClaims (Metal3 is not installed)',
      remedy: look.hostClaims ? `${DEPLOY_AGAIN}: the stack creates it` : 'install Metal3 and its HostClaim CRD on the provider cluster, then deploy again',
    });
  const hold = heldClaim(pool, node, claim, look);
  if (hold) problems.push(hold);
  else if (claim) problems.push(...claimRevisionProblems(pool, node, claim));
  // A held node has no Node to wait for: its claim stays powered off until the roll has removed the old one.
  if (tenant && claim && !(hold && !tenantNode)) problems.push(...tenantProblems(pool, node.name, tenantNode, str(claim.metadata?.creationTimestamp), look));
  const t = tenant ? tenantNodeOf(tenantNode) : undefined;
  const ready = t === undefined ? undefined : t.ready;
  const status: NodeStatus = {
    name: node.name,
    namespace: pool.namespace,
    machine: claim ? 'Claimed' : 'Missing',
    plannedHost: node.plannedHost,
    replacing: claim !== undefined && annotationOf(claim, REPLACING_ANNOTATION) !== undefined,
    ...(t ? { tenantNode: t } : {}),
    ...(claim && str(claim.metadata?.creationTimestamp) ? { created: str(claim.metadata?.creationTimestamp) } : {}),
    conditions: conditionsOf(ready, claim !== undefined, ready === true && t?.cordoned === false, claim !== undefined && deleting(claim), problems),
  };
  return { status, problems };
}

/**
 * A private node a roll cut short holds (its ConfigMap `<node>-roll-hold`, as roll-hosts writes it and the deploy
 * reads it), said by where its claim is: the old one still there (the roll holds a node before it releases the
 * claim, and a deploy applies that claim as it is), gone, or made again powered off.
 */
function heldClaim(pool: ExpectedPool, node: ExpectedNode, claim: ObservedObject | undefined, look: Lookup): StatusProblem | undefined {
  const name = rollHoldName(node.name);
  const hold = look.holds?.get(`${pool.namespace}/${name}`);
  if (!hold || labelOf(hold, POOL_LABEL) !== pool.name || labelOf(hold, ROLL_STOPPED_LABEL) !== 'true') return undefined;
  const old = claim !== undefined && (pool.revision === undefined || labelOf(claim, REVISION_LABEL) !== pool.revision);
  const where = old
    ? 'its old claim is still there (Metal3 releases its host once the claim is deleted); after it, a deploy makes the claim again powered off'
    : claim === undefined
      ? 'its host was released; a deploy makes its claim again powered off'
      : 'its claim was made again powered off';
  return {
    reason: 'HeldByRoll',
    object: { kind: 'HostClaim', name: node.name, namespace: pool.namespace, cluster: 'provider' },
    since: str(hold.metadata?.creationTimestamp),
    message: `a roll cut short holds ${node.name}: ${where}, and it stays off until the roll has removed the old Node and powers it on`,
    evidence: `the ConfigMap ${name} (labelled ${ROLL_STOPPED_LABEL}=true) is the roll's hold`,
    remedy: resumeRoll('roll-hosts'),
  };
}

/**
 * A HostClaim not at its pool's revision (the stack leaves it as it is, and roll-hosts replaces it), or one a roll
 * is replacing, as roll-hosts judges it (cli/roll-hosts.ts).
 */
function claimRevisionProblems(pool: ExpectedPool, node: ExpectedNode, claim: ObservedObject): StatusProblem[] {
  const object = { kind: 'HostClaim', name: node.name, namespace: pool.namespace, cluster: 'provider' };
  const replacing = annotationOf(claim, REPLACING_ANNOTATION);
  if (replacing !== undefined)
    return [
      {
        reason: 'Replacing',
        object,
        message: `a roll is replacing ${node.name} (${excerptText(replacing)}) and has not finished`,
        remedy: resumeRoll('roll-hosts'),
      },
    ];
  const revision = str(rec(claim.metadata?.labels)?.[REVISION_LABEL]);
  if (pool.revision === undefined || revision === pool.revision) return [];
  return [
    {
      reason: 'RevisionNotApplied',
      object,
      message: `its HostClaim carries revision ${excerptText(revision ?? 'none')}, the plan ${pool.revision}: its host still runs what it was provisioned with`,
      remedy: `${DEPLOY_AGAIN} without METALSLICE_ROLL=skip, or run metalslice roll-hosts for the pool: its hosts are replaced through drains`,
    },
  ];
}

/** The launcher pods by `namespace/vm`: the newest one that is not going, of each VM. */
export function newestLaunchers(pods: readonly ObservedObject[]): Map<string, ObservedObject> {
  const out = new Map<string, ObservedObject>();
  for (const pod of pods) {
    const labels = rec(pod.metadata?.labels);
    const vm = str(labels?.['vm.kubevirt.io/name']) ?? str(labels?.['kubevirt.io/vm']);
    if (vm === undefined || deleting(pod)) continue;
    const key = `${str(pod.metadata?.namespace) ?? ''}/${vm}`;
    const seen = out.get(key);
    if (!seen || (str(pod.metadata?.creationTimestamp) ?? '') > (str(seen.metadata?.creationTimestamp) ?? '')) out.set(key, pod);
  }
  return out;
}
