/**
 * `metalslice inventory [--kubeconfig FILE] [--context NAME] [--out FILE]`: reads the Nodes and Metal3
 * BareMetalHosts of a provider cluster and writes the inventory file that `hostsFile:` points at. The
 * kubeconfig is found as kubectl finds it: --kubeconfig, else $KUBECONFIG (a list of files, merged), else
 * ~/.kube/config, else the in-cluster service account.
 * Exit 0: written. Exit 1: the cluster could not be read, or an object could not be converted.
 */
import { MetalsliceError } from '../core/base/errors';
import { escapeText } from '../core/base/excerpt';
import { BareMetalHostObject, buildInventory, ContainerResources, NodeObject, PodObject } from '../core/hosts/inventory';
import { Taint } from '../core/input/model';
import { buildSnapshot } from '../core/hosts/snapshot';
import { stableJson } from '../core/report';
import { KubeApiError, KubeClient } from './kube/client';
import { findTarget, KubeconfigError } from './kube/config';
import { writeWhole } from './write-whole';
import { MAX_HOSTS_PER_FLEET, MAX_SNAPSHOT_NODES } from '../core/base/bounds';
import { MAX_INPUT_BYTES } from '../core/input/read-file';

export interface InventoryOptions {
  /** @default - as kubectl: $KUBECONFIG, then ~/.kube/config, then in-cluster */
  readonly kubeconfig?: string;
  /** @default - the kubeconfig's current context */
  readonly context?: string;
  /** @default - stdout */
  readonly out?: string;
  /** Also write a snapshot of the Nodes and their bound pods here, for `metalslice verify --snapshot`. @default - none */
  readonly snapshot?: string;
}

export interface InventoryIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The wire shapes of the objects read, as far as the inventory looks (the API server's JSON, not typed classes). */
interface WireTaint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}
interface WireNode {
  readonly metadata?: { readonly name?: string; readonly labels?: Record<string, string> };
  readonly spec?: { readonly taints?: readonly WireTaint[]; readonly unschedulable?: boolean };
  readonly status?: {
    readonly capacity?: Record<string, string>;
    readonly allocatable?: Record<string, string>;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
  };
}
interface WireContainer {
  readonly name: string;
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
  readonly restartPolicy?: string;
}
interface WirePod {
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly labels?: Record<string, string> };
  readonly spec?: {
    readonly nodeName?: string;
    readonly containers?: readonly WireContainer[];
    readonly initContainers?: readonly WireContainer[];
    readonly overhead?: Record<string, string>;
    readonly tolerations?: readonly Record<string, unknown>[];
    readonly nodeSelector?: Record<string, string>;
    readonly affinity?: Record<string, unknown>;
  };
  readonly status?: { readonly phase?: string };
}

/** A Node as the inventory reads it: labels, taints, cordon, capacity, allocatable and conditions. */
function nodeObject(n: WireNode & { metadata: { name: string } }): NodeObject {
  return {
    metadata: { name: n.metadata.name, labels: n.metadata.labels },
    spec: {
      taints: (n.spec?.taints ?? []).map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect as Taint['effect'] })),
      unschedulable: n.spec?.unschedulable === true,
    },
    status: {
      capacity: n.status?.capacity,
      allocatable: n.status?.allocatable,
      conditions: (n.status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status })),
    },
  };
}

function hasName<T extends { metadata?: { name?: string } }>(o: T): o is T & { metadata: { name: string } } {
  return typeof o.metadata?.name === 'string' && o.metadata.name !== '';
}

async function listNodes(client: KubeClient): Promise<NodeObject[]> {
  return (await client.list<WireNode>('/api/v1/nodes')).filter(hasName).map(nodeObject);
}

function containerResources(c: WireContainer): ContainerResources {
  return {
    name: c.name,
    resources: { requests: c.resources?.requests, limits: c.resources?.limits },
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
  };
}

/** What the inventory and the snapshot keep of a pod: where it is bound, what it requests, how it is scheduled. */
function podObject(p: WirePod & { metadata: { name: string } }): PodObject {
  const spec = p.spec;
  return {
    metadata: { name: p.metadata.name, namespace: p.metadata.namespace, labels: p.metadata.labels },
    spec: {
      nodeName: spec?.nodeName,
      containers: (spec?.containers ?? []).map(containerResources),
      initContainers: (spec?.initContainers ?? []).map(containerResources),
      ...(spec?.overhead ? { overhead: spec.overhead } : {}),
      ...(spec?.tolerations ? { tolerations: spec.tolerations.map((t) => ({ ...t })) } : {}),
      ...(spec?.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
      ...(spec?.affinity ? { affinity: spec.affinity } : {}),
    },
    status: { phase: p.status?.phase },
  };
}

/** Every pod bound to a Node and not Succeeded or Failed (what kube-scheduler counts), in every namespace. */
async function listBoundPods(client: KubeClient): Promise<PodObject[]> {
  const pods = await client.list<WirePod>('/api/v1/pods', { fieldSelector: 'spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed' });
  return pods.filter(hasName).map(podObject);
}

/** Every BareMetalHost in every namespace; none (and a note) when Metal3 is not installed. */
async function listBareMetalHosts(client: KubeClient, io: InventoryIo): Promise<BareMetalHostObject[]> {
  try {
    return await client.list<BareMetalHostObject>('/apis/metal3.io/v1alpha1/baremetalhosts');
  } catch (e) {
    if (!(e instanceof KubeApiError) || e.status !== 404) throw e;
    io.stderr('metalslice inventory: no BareMetalHost API (metal3.io/v1alpha1) on this cluster; listing Nodes only\n');
    return [];
  }
}

/** A client for the cluster the kubeconfig names (found as kubectl finds it), or the exit code and message of why not. */
export function loadKubeconfig(opts: Pick<InventoryOptions, 'kubeconfig' | 'context'>, io: InventoryIo, command: string): KubeClient | number {
  try {
    return new KubeClient(findTarget(opts));
  } catch (e) {
    if (!(e instanceof KubeconfigError)) throw e;
    io.stderr(`metalslice ${command}: ${e.message}\n`);
    return e.exitCode;
  }
}

/** What a cluster read gives: its Nodes, BareMetalHosts and bound pods. */
export interface ClusterRead {
  readonly nodes: readonly NodeObject[];
  readonly hosts: readonly BareMetalHostObject[];
  readonly pods: readonly PodObject[];
}

/** Reads the cluster, or says why it could not (exit 1; 2 for a credential or proxy setting that is not what it must be). */
export async function readCluster(client: KubeClient, io: InventoryIo, command: string): Promise<ClusterRead | number> {
  try {
    return { nodes: await listNodes(client), hosts: await listBareMetalHosts(client, io), pods: await listBoundPods(client) };
  } catch (e) {
    if (!(e instanceof KubeApiError) && !(e instanceof KubeconfigError)) throw e;
    const t = client.target;
    const context = t.context === undefined ? t.source : `context "${escapeText(t.context)}" in ${t.source}`;
    io.stderr(`metalslice ${command}: reading ${t.server} failed (${context}): ${e.message}\n`);
    // A credential or proxy setting found wrong only now (an exec plugin's token, HTTPS_PROXY) is input: exit 2.
    return e instanceof KubeconfigError ? e.exitCode : 1;
  }
}

/** Writes an output file whole (write-whole.ts); false, with the reason said, when it cannot. */
function writeOut(file: string, text: string, io: InventoryIo): boolean {
  try {
    writeWhole(file, text);
    return true;
  } catch (e) {
    io.stderr(
      `metalslice inventory: cannot write ${escapeText(file)} (${(e as NodeJS.ErrnoException).code ?? 'error'}): check the directory exists and is writable\n`,
    );
    return false;
  }
}

/**
 * Why metalslice itself would refuse to read what this run would write, or undefined: an inventory of more
 * hosts than a fleet holds, or bigger than a hostsFile may be, and a snapshot past its caps. Said before any
 * file is written, instead of a file that `plan` or `verify` then refuses.
 */
export function unreadableOutput(inventory: string, hosts: number, snapshot: string | undefined, snapshotNodes: number): string | undefined {
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
  if (hosts > MAX_HOSTS_PER_FLEET)
    return `the inventory would list ${hosts.toLocaleString('en-US')} hosts (Nodes and BareMetalHosts), more than the ${MAX_HOSTS_PER_FLEET.toLocaleString('en-US')} hosts a fleet or Metal3 provider may have: read a smaller cluster`;
  if (Buffer.byteLength(inventory) > MAX_INPUT_BYTES.hostsFile)
    return `the inventory would be more than the ${mib(MAX_INPUT_BYTES.hostsFile)} a hosts file may have`;
  if (snapshot !== undefined && snapshotNodes > MAX_SNAPSHOT_NODES)
    return `the snapshot would hold ${snapshotNodes.toLocaleString('en-US')} Nodes, more than the ${MAX_SNAPSHOT_NODES.toLocaleString('en-US')} metalslice verify replays`;
  if (snapshot !== undefined && Buffer.byteLength(snapshot) > MAX_INPUT_BYTES.snapshot)
    return `the snapshot would be more than the ${mib(MAX_INPUT_BYTES.snapshot)} a cluster snapshot may have`;
  return undefined;
}

/** Runs the command; returns the exit code. */
export async function runInventory(opts: InventoryOptions, io: InventoryIo): Promise<number> {
  const kc = loadKubeconfig(opts, io, 'inventory');
  if (typeof kc === 'number') return kc;
  const read = await readCluster(kc, io, 'inventory');
  if (typeof read === 'number') return read;
  let text: string;
  let hosts: number;
  try {
    const inventory = buildInventory(read.nodes, read.hosts, read.pods);
    hosts = inventory.hosts.length;
    text = stableJson(inventory);
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(`metalslice inventory: the cluster reports a value metalslice cannot read:\n${e.message}\n`);
    return 1;
  }
  const snapshot = opts.snapshot === undefined ? undefined : stableJson(buildSnapshot(read.nodes, read.pods));
  const unreadable = unreadableOutput(text, hosts, snapshot, read.nodes.length);
  if (unreadable !== undefined) {
    io.stderr(`metalslice inventory: nothing written: ${unreadable}\n`);
    return 1;
  }
  if (opts.snapshot !== undefined && snapshot !== undefined) {
    if (!writeOut(opts.snapshot, snapshot, io)) return 1;
    io.stderr(`metalslice inventory: wrote the snapshot ${opts.snapshot}\n`);
  }
  if (opts.out === undefined) {
    io.stdout(text);
    return 0;
  }
  if (!writeOut(opts.out, text, io)) return 1;
  io.stderr(`metalslice inventory: wrote ${opts.out}\n`);
  return 0;
}
