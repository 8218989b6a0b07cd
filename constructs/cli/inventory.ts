/**
 * `metalslice inventory [--kubeconfig FILE] [--context NAME] [--out FILE]`: reads the Nodes and Metal3
 * BareMetalHosts of a provider cluster and writes the inventory file that `hostsFile:` points at. The
 * kubeconfig is found as kubectl finds it: --kubeconfig, else $KUBECONFIG (a list of files, merged), else
 * ~/.kube/config, else the in-cluster service account.
 * Exit 0: written. Exit 1: the cluster could not be read, or an object could not be converted.
 */
import * as fs from 'fs';
import * as k8s from '@kubernetes/client-node';
import { MetalsliceError } from '../core/errors';
import { escapeText, excerptText } from '../core/excerpt';
import { readInputFile } from '../core/read-file';
import { BareMetalHostObject, buildInventory, ContainerResources, NodeObject, PodObject } from '../core/inventory';
import { Taint } from '../core/model';
import { buildSnapshot } from '../core/snapshot';
import { stableJson } from '../core/report';

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

const PAGE = 500;

/** An HTTP status from a client-node error, if it carries one. */
function statusOf(e: unknown): number | undefined {
  const err = e as { statusCode?: unknown; response?: { statusCode?: unknown } } | null;
  const code = err?.statusCode ?? err?.response?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

function describe(e: unknown): string {
  const body = (e as { body?: { message?: unknown } } | null)?.body;
  if (body && typeof body.message === 'string') return body.message;
  return e instanceof Error ? e.message : String(e);
}

/** A Node as the inventory reads it: labels, taints, cordon, capacity, allocatable and conditions. */
function nodeObject(n: k8s.V1Node & { metadata: { name: string } }): NodeObject {
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

async function listNodes(kc: k8s.KubeConfig): Promise<NodeObject[]> {
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const out: NodeObject[] = [];
  let token: string | undefined;
  do {
    const res = await api.listNode(undefined, undefined, token, undefined, undefined, PAGE);
    for (const n of res.body.items) if (n.metadata?.name) out.push(nodeObject(n as k8s.V1Node & { metadata: { name: string } }));
    token = res.body.metadata?._continue || undefined;
  } while (token);
  return out;
}

function containerResources(c: k8s.V1Container): ContainerResources {
  return {
    name: c.name,
    resources: { requests: c.resources?.requests, limits: c.resources?.limits },
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
  };
}

/** What the inventory and the snapshot keep of a pod: where it is bound, what it requests, how it is scheduled. */
function podObject(p: k8s.V1Pod & { metadata: { name: string } }): PodObject {
  const spec = p.spec;
  const plain = (v: unknown): Readonly<Record<string, unknown>> =>
    JSON.parse(JSON.stringify(k8s.ObjectSerializer.serialize(v, 'V1Affinity'))) as Record<string, unknown>;
  return {
    metadata: { name: p.metadata.name, namespace: p.metadata.namespace, labels: p.metadata.labels },
    spec: {
      nodeName: spec?.nodeName,
      containers: (spec?.containers ?? []).map(containerResources),
      initContainers: (spec?.initContainers ?? []).map(containerResources),
      ...(spec?.overhead ? { overhead: spec.overhead } : {}),
      ...(spec?.tolerations ? { tolerations: spec.tolerations.map((t) => ({ ...t })) } : {}),
      ...(spec?.nodeSelector ? { nodeSelector: spec.nodeSelector } : {}),
      ...(spec?.affinity ? { affinity: plain(spec.affinity) } : {}),
    },
    status: { phase: p.status?.phase },
  };
}

/** Every pod bound to a Node and not Succeeded or Failed (what kube-scheduler counts), in every namespace. */
async function listBoundPods(kc: k8s.KubeConfig): Promise<PodObject[]> {
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const out: PodObject[] = [];
  let token: string | undefined;
  do {
    const res = await api.listPodForAllNamespaces(undefined, token, 'spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed', undefined, PAGE);
    for (const p of res.body.items) if (p.metadata?.name) out.push(podObject(p as k8s.V1Pod & { metadata: { name: string } }));
    token = res.body.metadata?._continue || undefined;
  } while (token);
  return out;
}

interface CustomObjectList {
  readonly items?: readonly BareMetalHostObject[];
  readonly metadata?: { readonly continue?: string };
}

/** Every BareMetalHost in every namespace; none (and a note) when Metal3 is not installed. */
async function listBareMetalHosts(kc: k8s.KubeConfig, io: InventoryIo): Promise<BareMetalHostObject[]> {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const out: BareMetalHostObject[] = [];
  let token: string | undefined;
  try {
    do {
      const res = await api.listClusterCustomObject('metal3.io', 'v1alpha1', 'baremetalhosts', undefined, undefined, token, undefined, undefined, PAGE);
      const list = res.body as CustomObjectList;
      out.push(...(list.items ?? []));
      token = list.metadata?.continue || undefined;
    } while (token);
  } catch (e) {
    if (statusOf(e) !== 404) throw e;
    io.stderr('metalslice inventory: no BareMetalHost API (metal3.io/v1alpha1) on this cluster; listing Nodes only\n');
  }
  return out;
}

/** A kubeconfig loaded as kubectl loads it, or the exit code and message of why not. */
export function loadKubeconfig(opts: Pick<InventoryOptions, 'kubeconfig' | 'context'>, io: InventoryIo, command: string): k8s.KubeConfig | number {
  const kc = new k8s.KubeConfig();
  const source = opts.kubeconfig ?? (process.env.KUBECONFIG ? `$KUBECONFIG (${process.env.KUBECONFIG})` : 'the default kubeconfig');
  try {
    // client-node's loadFromDefault is kubectl's order: $KUBECONFIG (merged), ~/.kube/config, in-cluster.
    if (opts.kubeconfig !== undefined) kc.loadFromString(readInputFile(opts.kubeconfig, 'kubeconfig', 'kubeconfig'));
    else kc.loadFromDefault();
  } catch (e) {
    // A parser's message can quote the file (keys, certificates): only its first line, escaped and capped.
    const why = e instanceof MetalsliceError ? e.issues.map((i) => i.message).join('; ') : excerptText(describe(e).split('\n')[0], 120);
    io.stderr(`metalslice ${command}: cannot read kubeconfig ${escapeText(source)}: ${why}\n`);
    return 2;
  }
  if (kc.getContexts().length === 0 && kc.getCurrentCluster() === null) {
    io.stderr(`metalslice ${command}: no cluster in ${source}: pass --kubeconfig FILE or set KUBECONFIG\n`);
    return 2;
  }
  if (opts.context !== undefined) {
    if (!kc.getContexts().some((c) => c.name === opts.context)) {
      const known = kc
        .getContexts()
        .map((c) => c.name)
        .join(', ');
      io.stderr(`metalslice ${command}: no context "${opts.context}" in ${source}; contexts: ${known || 'none'}\n`);
      return 1;
    }
    kc.setCurrentContext(opts.context);
  }
  return kc;
}

/** What a cluster read gives: its Nodes, BareMetalHosts and bound pods. */
export interface ClusterRead {
  readonly nodes: readonly NodeObject[];
  readonly hosts: readonly BareMetalHostObject[];
  readonly pods: readonly PodObject[];
}

/** Reads the cluster, or says why it could not (exit 1). */
export async function readCluster(kc: k8s.KubeConfig, io: InventoryIo, command: string): Promise<ClusterRead | number> {
  try {
    return { nodes: await listNodes(kc), hosts: await listBareMetalHosts(kc, io), pods: await listBoundPods(kc) };
  } catch (e) {
    const status = statusOf(e);
    io.stderr(
      `metalslice ${command}: reading ${kc.getCurrentCluster()?.server ?? 'the cluster'} failed${status ? ` (HTTP ${status})` : ''}: ${describe(e)}; check the kubeconfig, the context and that it may list nodes, pods and baremetalhosts\n`,
    );
    return 1;
  }
}

function writeOut(file: string, text: string, io: InventoryIo): boolean {
  try {
    fs.writeFileSync(file, text);
    return true;
  } catch (e) {
    io.stderr(`metalslice inventory: cannot write ${file}: ${describe(e)}\n`);
    return false;
  }
}

/** Runs the command; returns the exit code. */
export async function runInventory(opts: InventoryOptions, io: InventoryIo): Promise<number> {
  const kc = loadKubeconfig(opts, io, 'inventory');
  if (typeof kc === 'number') return kc;
  const read = await readCluster(kc, io, 'inventory');
  if (typeof read === 'number') return read;
  let text: string;
  try {
    text = stableJson(buildInventory(read.nodes, read.hosts, read.pods));
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(`metalslice inventory: the cluster reports a value metalslice cannot read:\n${e.message}\n`);
    return 1;
  }
  if (opts.snapshot !== undefined) {
    if (!writeOut(opts.snapshot, stableJson(buildSnapshot(read.nodes, read.pods)), io)) return 1;
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
