/**
 * A fleet's hosts as the provider cluster has them now: missing, NotReady or cordoned against the inventory,
 * and whether the fleet as it runs can still lose any one host: every launcher pod of the lost host finds room on
 * another usable host it may go to (its node selector and required affinity: a VM pinned to its planned host has
 * none), first fit from the largest.
 */
import { excerptText } from '../core/base/excerpt';
import { Quantity } from '../core/base/quantity';
import type { ExpectedFleet } from './expected';
import { NodeMatch, nodeMatchOf } from './node-match';
import { conditionOf, deleting, nameOf, podRequests, quantity, rec, str, strings } from './objects';
import type { FleetHostsStatus, ObservedObject, ProviderView, StatusProblem } from './types';

/** Most critical hosts a status names (the count is in the problem). */
const MAX_CRITICAL_NAMED = 20;

/** Room or a request in plain numbers (millicores, bytes): the N+1 check compares them a million times at 1,000 hosts. */
interface Room {
  cpu: number;
  memory: number;
}

/** A launcher pod on a host: what it requests, and where else it may go. */
interface Launcher extends Room {
  readonly may: NodeMatch;
}

function roomOf(cpu: Quantity | undefined, memory: Quantity | undefined): Room {
  return { cpu: Number((cpu ?? Quantity.ZERO).ceilMillis()), memory: (memory ?? Quantity.ZERO).toNumber() };
}

function allocatableOf(node: ObservedObject): Room {
  const a = rec(rec(node.status)?.allocatable);
  return roomOf(quantity(a?.cpu), quantity(a?.memory));
}

/** For each usable host, the VMs its loss would strand: none when the others have room for all of them (first fit, largest first). */
function criticalHosts(
  usable: readonly string[],
  labelsOf: (host: string) => Readonly<Record<string, string>>,
  free: ReadonlyMap<string, Room>,
  onHost: ReadonlyMap<string, Launcher[]>,
): FleetHostsStatus['critical'] {
  const critical: FleetHostsStatus['critical'] = [];
  const baseCpu = Float64Array.from(usable, (h) => free.get(h)!.cpu);
  const baseMemory = Float64Array.from(usable, (h) => free.get(h)!.memory);
  usable.forEach((lost, index) => {
    const pods = [...(onHost.get(lost) ?? [])].sort((a, b) => b.cpu - a.cpu || b.memory - a.memory);
    if (pods.length === 0) return;
    const cpu = baseCpu.slice();
    const memory = baseMemory.slice();
    cpu[index] = -1;
    let stranded = 0;
    for (const pod of pods) {
      let to = -1;
      for (let i = 0; i < cpu.length && to < 0; i++) if (pod.cpu <= cpu[i] && pod.memory <= memory[i] && pod.may(usable[i], labelsOf(usable[i]))) to = i;
      if (to < 0) stranded++;
      else {
        cpu[to] -= pod.cpu;
        memory[to] -= pod.memory;
      }
    }
    if (stranded > 0) critical.push({ host: lost, vms: pods.length, stranded });
  });
  return critical;
}

/** One host's problems; what it is: missing, NotReady, cordoned (or both), or usable. */
function hostProblems(
  fleet: string,
  host: string,
  node: ObservedObject | undefined,
  vms: number,
  problems: StatusProblem[],
): 'missing' | 'notReady' | 'cordoned' | 'notReadyCordoned' | 'usable' {
  const object = { kind: 'Node', name: host, cluster: 'provider' };
  if (!node) {
    problems.push({
      reason: 'HostMissing',
      object,
      message: `host ${host} of fleet ${fleet} is in the inventory and has no Node`,
      remedy: 'bring the host back (its kubelet registers its Node), or take it out of the inventory and plan again',
    });
    return 'missing';
  }
  const ready = conditionOf(node, 'Ready');
  const notReady = ready?.status !== 'True';
  const cordoned = rec(node.spec)?.unschedulable === true;
  if (notReady)
    problems.push({
      reason: 'HostNotReady',
      object,
      since: ready?.lastTransitionTime,
      message: `host ${host} is NotReady with ${vms} VM(s) of the fleet on it`,
      evidence: ready?.message !== undefined ? `kubelet: ${excerptText(ready.message, 200)}` : undefined,
      remedy: `kubectl describe node ${host}; its VMs move only when it is drained (kubectl drain ${host}) or comes back`,
    });
  if (cordoned)
    problems.push({
      reason: 'HostCordoned',
      object,
      message: `host ${host} is cordoned: no VM can start there (${vms} VM(s) still on it), and the fleet's headroom counts it out`,
      remedy: `kubectl uncordon ${host} when its maintenance is over`,
    });
  return notReady ? (cordoned ? 'notReadyCordoned' : 'notReady') : cordoned ? 'cordoned' : 'usable';
}

/** One fleet's hosts, and the problems of each. */
export function fleetHosts(fleet: ExpectedFleet, view: ProviderView, problems: StatusProblem[]): FleetHostsStatus {
  const nodes = new Map(view.nodes.map((n) => [nameOf(n), n]));
  const inFleet = new Set(fleet.hosts);
  const onHost = new Map<string, Launcher[]>();
  for (const pod of view.launchers) {
    const host = str(rec(pod.spec)?.nodeName);
    const phase = str(rec(pod.status)?.phase);
    if (host === undefined || !inFleet.has(host) || deleting(pod) || phase === 'Succeeded' || phase === 'Failed') continue;
    const list = onHost.get(host) ?? [];
    const r = podRequests(pod);
    list.push({ ...roomOf(r.cpu, r.memory), may: nodeMatchOf(pod) });
    onHost.set(host, list);
  }
  const missing: string[] = [];
  const notReady: string[] = [];
  const cordoned: string[] = [];
  const usable: string[] = [];
  for (const host of fleet.hosts) {
    const node = nodes.get(host);
    const state = hostProblems(fleet.name, host, node, onHost.get(host)?.length ?? 0, problems);
    if (state === 'missing') missing.push(host);
    if (state === 'notReady' || state === 'notReadyCordoned') notReady.push(host);
    if (state === 'cordoned' || state === 'notReadyCordoned') cordoned.push(host);
    if (state === 'usable') usable.push(host);
  }
  const free = new Map<string, Room>();
  for (const host of usable) {
    const room = allocatableOf(nodes.get(host)!);
    for (const pod of onHost.get(host) ?? []) {
      room.cpu -= pod.cpu;
      room.memory -= pod.memory;
    }
    free.set(host, room);
  }
  const labels = new Map(usable.map((h) => [h, strings(nodes.get(h)?.metadata?.labels)]));
  const critical = criticalHosts(usable, (h) => labels.get(h)!, free, onHost);
  if (critical.length > 0)
    problems.push({
      reason: 'NoHostFailureHeadroom',
      object: { kind: 'Fleet', name: fleet.name, cluster: 'provider' },
      message: `fleet ${fleet.name} as it runs now cannot lose ${critical.length} of its ${usable.length} usable host(s): ${critical
        .slice(0, MAX_CRITICAL_NAMED)
        .map((c) => `${c.host} (${c.stranded} of ${c.vms} VMs stranded)`)
        .join(', ')}${critical.length > MAX_CRITICAL_NAMED ? ', …' : ''}`,
      remedy: 'bring lost or cordoned hosts back, or add hosts; metalslice plan proves what the inventory can hold',
    });
  return {
    name: fleet.name,
    inventory: fleet.hosts.length,
    seen: fleet.hosts.length - missing.length,
    usable: usable.length,
    missing,
    notReady,
    cordoned,
    canLoseAnyHost: critical.length === 0,
    critical: critical.slice(0, MAX_CRITICAL_NAMED),
  };
}
