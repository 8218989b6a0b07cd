/**
 * `metalslice status CONFIG`: reads the provider cluster (VMs, VMIs, launcher pods, DataVolumes, HostClaims, the quotas'
 * ResourceQuotas, the hosts' Nodes, the holds of rolls cut short) and each tenant cluster's Nodes, with the kubeconfigs the config names, and
 * compares them with the plan (constructs/status). It only reads: every request is a paged list (GET). Exit
 * codes: 0 converged; 1 a problem found; 2 a cluster or the config could not be read.
 */
import { MetalsliceError, issueWhere } from '../core/base/errors';
import { escapeControls } from '../core/base/excerpt';
import { loadConfigSource } from '../core/input/config';
import { drainTimeoutSeconds } from '../core/input/disruption';
import { planModel } from '../core/plan';
import { ROLL_STOPPED_LABEL } from '../core/naming/derived';
import { METAL3_API_VERSION } from '../render/metal3';
import { compareFleet } from '../status/compare';
import { expectedOf } from '../status/expected';
import { StatusFormat, statusJson, statusMarkdown, statusPrometheus, statusText } from '../status/formats';
import type { FleetStatus, Observed, ObservedObject, ProviderView, Reading } from '../status/types';
import { KubeApiError, KubeClient } from './kube/client';
import { findTarget, KubeconfigError, KubeTarget } from './kube/config';

/** What `status` is asked. */
export interface StatusOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly output: StatusFormat;
  /** A duration (15m): how long a started node may take to be Ready. */
  readonly joinTimeout: string;
  /** Read again until converged. */
  readonly wait: boolean;
  /** With wait: how long (10m). */
  readonly timeout: string;
  /** With wait: seconds between two readings. */
  readonly interval: number;
}

/** Where status writes. */
export interface StatusIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * A list, or undefined when the server answers `absent` (by default 404: the kind is not served, its CRD not
 * installed); any other refusal is thrown.
 */
async function listServed(client: KubeClient, apiPath: string, query: Record<string, string> = {}, absent = 404): Promise<ObservedObject[] | undefined> {
  try {
    return await client.list<ObservedObject>(apiPath, query);
  } catch (e) {
    if (e instanceof KubeApiError && e.status === absent) return undefined;
    throw e;
  }
}

/** Why a cluster could not be read, in one line, with the fix (never a stack trace). */
function readError(e: unknown): string {
  if (e instanceof KubeApiError || e instanceof KubeconfigError) return escapeControls(e.message);
  // A connection cut mid-answer (ECONNRESET) and the like: said for that cluster, the others still read.
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return `the connection failed while reading (${escapeControls(code ?? (e instanceof Error ? e.message : String(e)))}): check that the API server is up, and run status again`;
}

/** Who a target is, as far as what it may read goes: the same server as the same user reads the same objects. */
function identity(target: KubeTarget): string {
  return JSON.stringify([target.server, target.who]);
}

/** The provider cluster: eight lists, or why they could not be read. */
async function readProvider(options: StatusOptions): Promise<{ reading: Reading<ProviderView>; identity?: string }> {
  try {
    const target = findTarget({ kubeconfig: options.kubeconfig, context: options.context });
    const client = new KubeClient(target);
    const [vms, vmis, launchers, dataVolumes, hostClaims, quotas, nodes, holds] = [
      await listServed(client, '/apis/kubevirt.io/v1/virtualmachines'),
      await listServed(client, '/apis/kubevirt.io/v1/virtualmachineinstances'),
      await client.list<ObservedObject>('/api/v1/pods', { labelSelector: 'kubevirt.io=virt-launcher' }),
      await listServed(client, '/apis/cdi.kubevirt.io/v1beta1/datavolumes'),
      await listServed(client, `/apis/${METAL3_API_VERSION}/hostclaims`),
      await client.list<ObservedObject>('/api/v1/resourcequotas', { labelSelector: 'app.kubernetes.io/managed-by=metalslice' }),
      await client.list<ObservedObject>('/api/v1/nodes'),
      // The holds of rolls cut short; an identity that may not list ConfigMaps (403) reads the rest as before.
      await listServed(client, '/api/v1/configmaps', { labelSelector: `${ROLL_STOPPED_LABEL}=true` }, 403),
    ];
    return {
      reading: { ok: true, view: { vms: vms ?? [], vmis: vmis ?? [], launchers, dataVolumes, hostClaims, quotas, nodes, holds } },
      identity: identity(target),
    };
  } catch (e) {
    return { reading: { ok: false, error: readError(e) } };
  }
}

/**
 * Each tenant cluster's Nodes, read once per server and user however many clusters share them; a tenant cluster
 * that is the provider cluster, as the same user, takes the Nodes the provider's reading already listed.
 */
async function readTenants(
  clusters: readonly { name: string; kubeconfig?: string; context?: string }[],
  provider: { reading: Reading<ProviderView>; identity?: string },
): Promise<Map<string, Reading<readonly ObservedObject[]>>> {
  const reads = new Map<string, Promise<Reading<readonly ObservedObject[]>>>();
  if (provider.identity !== undefined && provider.reading.ok) reads.set(provider.identity, Promise.resolve({ ok: true, view: provider.reading.view.nodes }));
  const out = new Map<string, Reading<readonly ObservedObject[]>>();
  for (const c of clusters) {
    let target: KubeTarget;
    try {
      target = findTarget({ kubeconfig: c.kubeconfig, context: c.context });
    } catch (e) {
      out.set(c.name, { ok: false, error: readError(e) });
      continue;
    }
    const key = identity(target);
    if (!reads.has(key))
      reads.set(
        key,
        new KubeClient(target).list<ObservedObject>('/api/v1/nodes').then(
          (view) => ({ ok: true as const, view }),
          (e: unknown) => ({ ok: false as const, error: readError(e) }),
        ),
      );
    out.set(c.name, await reads.get(key)!);
  }
  return out;
}

function print(status: FleetStatus, format: StatusFormat, io: StatusIo): void {
  switch (format) {
    case 'json':
      return io.stdout(statusJson(status));
    case 'markdown':
      return io.stdout(statusMarkdown(status));
    case 'prometheus':
      return io.stdout(statusPrometheus(status));
    case 'text':
    case 'wide':
      return io.stdout(statusText(status, format === 'wide'));
  }
}

function exitOf(status: FleetStatus): number {
  if (status.clusters.some((c) => !c.read)) return 2;
  return status.converged ? 0 : 1;
}

/** Checks the options a person may get wrong; a usage error names the option and the fix. */
function optionProblem(options: StatusOptions): string | undefined {
  if (drainTimeoutSeconds(options.joinTimeout) === undefined)
    return `--join-timeout "${escapeControls(options.joinTimeout)}" is not a duration: write it like 15m or 1h30m`;
  if (drainTimeoutSeconds(options.timeout) === undefined) return `--timeout "${escapeControls(options.timeout)}" is not a duration: write it like 10m or 1h`;
  if (!Number.isFinite(options.interval) || options.interval <= 0 || options.interval > 600)
    return `--interval must be a number of seconds above 0 and at most 600 (got ${escapeControls(String(options.interval))})`;
  return undefined;
}

/** `metalslice status`: the running fleet against the config's plan. */
export async function runStatus(file: string, options: StatusOptions, io: StatusIo): Promise<number> {
  const wrong = optionProblem(options);
  if (wrong) {
    io.stderr(`error: ${wrong}\n`);
    return 2;
  }
  let plan;
  try {
    const { config, sources } = loadConfigSource(file);
    plan = planModel(config);
    if (!plan.ok) {
      const errors = sources.locateAll(plan.errors);
      io.stderr(`metalslice status: warning: the plan itself has ${errors.length} problem(s) (metalslice plan lists them); comparing with what it places\n`);
    }
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(e.issues.map((i) => `error: ${issueWhere(i)}: ${i.message}\n`).join(''));
    return 2;
  }
  const expected = expectedOf(plan);
  const used = new Set(expected.pools.map((p) => p.cluster));
  const tenants = plan.clusters
    .filter((c) => used.has(c.name))
    .map((c) => ({ name: c.name, kubeconfig: c.spec.kubeconfigPath, context: c.spec.kubeconfigContext }));
  const joinTimeoutSeconds = drainTimeoutSeconds(options.joinTimeout)!;
  const deadline = Date.now() + drainTimeoutSeconds(options.timeout)! * 1000;
  for (;;) {
    const at = new Date();
    const provider = await readProvider(options);
    const observed: Observed = { at, provider: provider.reading, tenants: await readTenants(tenants, provider) };
    const status = compareFleet(expected, observed, { joinTimeoutSeconds });
    const done = status.converged || !options.wait || Date.now() + options.interval * 1000 > deadline;
    if (done) {
      print(status, options.output, io);
      if (options.wait && !status.converged) io.stderr(`metalslice status: not converged within ${escapeControls(options.timeout)}\n`);
      return exitOf(status);
    }
    io.stderr(`metalslice status: ${status.problems.length} problem(s), reading again in ${options.interval} s\n`);
    await new Promise((r) => setTimeout(r, options.interval * 1000));
  }
}
