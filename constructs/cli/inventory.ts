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
import { BareMetalHostObject, buildInventory, NodeObject } from '../core/inventory';
import { stableJson } from '../core/report';

export interface InventoryOptions {
  /** @default - as kubectl: $KUBECONFIG, then ~/.kube/config, then in-cluster */
  readonly kubeconfig?: string;
  /** @default - the kubeconfig's current context */
  readonly context?: string;
  /** @default - stdout */
  readonly out?: string;
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

async function listNodes(kc: k8s.KubeConfig): Promise<NodeObject[]> {
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const out: NodeObject[] = [];
  let token: string | undefined;
  do {
    const res = await api.listNode(undefined, undefined, token, undefined, undefined, PAGE);
    for (const n of res.body.items) {
      if (!n.metadata?.name) continue;
      out.push({
        metadata: { name: n.metadata.name, labels: n.metadata.labels },
        status: { capacity: n.status?.capacity, allocatable: n.status?.allocatable },
      });
    }
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

/** Runs the command; returns the exit code. */
export async function runInventory(opts: InventoryOptions, io: InventoryIo): Promise<number> {
  const kc = new k8s.KubeConfig();
  const source = opts.kubeconfig ?? (process.env.KUBECONFIG ? `$KUBECONFIG (${process.env.KUBECONFIG})` : 'the default kubeconfig');
  try {
    // client-node's loadFromDefault is kubectl's order: $KUBECONFIG (merged), ~/.kube/config, in-cluster.
    if (opts.kubeconfig !== undefined) kc.loadFromString(readInputFile(opts.kubeconfig, 'kubeconfig', 'kubeconfig'));
    else kc.loadFromDefault();
  } catch (e) {
    // A parser's message can quote the file (keys, certificates): only its first line, escaped and capped.
    const why = e instanceof MetalsliceError ? e.issues.map((i) => i.message).join('; ') : excerptText(describe(e).split('\n')[0], 120);
    io.stderr(`metalslice inventory: cannot read kubeconfig ${escapeText(source)}: ${why}\n`);
    return 2;
  }
  if (kc.getContexts().length === 0 && kc.getCurrentCluster() === null) {
    io.stderr(`metalslice inventory: no cluster in ${source}: pass --kubeconfig FILE or set KUBECONFIG\n`);
    return 2;
  }
  if (opts.context !== undefined) {
    if (!kc.getContexts().some((c) => c.name === opts.context)) {
      io.stderr(
        `metalslice inventory: no context "${opts.context}" in ${source}; contexts: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        }\n`,
      );
      return 1;
    }
    kc.setCurrentContext(opts.context);
  }
  let text: string;
  try {
    const [nodes, hosts] = [await listNodes(kc), await listBareMetalHosts(kc, io)];
    text = stableJson(buildInventory(nodes, hosts));
  } catch (e) {
    if (e instanceof MetalsliceError) {
      io.stderr(`metalslice inventory: the cluster reports a value metalslice cannot read:\n${e.message}\n`);
      return 1;
    }
    const status = statusOf(e);
    io.stderr(
      `metalslice inventory: reading ${kc.getCurrentCluster()?.server ?? 'the cluster'} failed${status ? ` (HTTP ${status})` : ''}: ${describe(e)}; check the kubeconfig, the context and that it may list nodes and baremetalhosts\n`,
    );
    return 1;
  }
  if (opts.out === undefined) {
    io.stdout(text);
    return 0;
  }
  try {
    fs.writeFileSync(opts.out, text);
  } catch (e) {
    io.stderr(`metalslice inventory: cannot write ${opts.out}: ${describe(e)}\n`);
    return 1;
  }
  io.stderr(`metalslice inventory: wrote ${opts.out}\n`);
  return 0;
}
