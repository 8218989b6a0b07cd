/**
 * `metalslice wait-quota`: waits until the quota controller has accounted a ResourceQuota. Until its `status.hard` is
 * its `spec.hard` and its `status.used` names every resource of `spec.hard`, the API server's ResourceQuota admission
 * refuses every object the quota counts ("status unknown for quota"), and a VM the same apply creates would fail.
 * A stack runs it after it applies a quota (constructs/quota.ts), and again whenever the quota's limits change: a
 * VM admitted against the old `status.hard` is counted against limits that are no longer the quota's.
 *
 * `status.used` can lag `status.hard`: the controller counts a custom resource (`count/virtualmachines.kubevirt.io`)
 * only once its discovery has seen the CRD, so a quota made in the same apply as the KubeVirt install is accounted
 * for its cpu and memory first.
 */
import { describeValue } from '../core/base/excerpt';
import { Quantity, QuantityError } from '../core/base/quantity';
import { DEFAULT_QUOTA_INTERVAL_SECONDS, DEFAULT_QUOTA_TIMEOUT, drainTimeoutSeconds, pollIntervalProblem, quotaTimeoutProblem } from '../core/input/disruption';
import { dns1123LabelProblem, dns1123SubdomainProblem } from '../core/naming/kube-names';
import type { DrainIo } from './drain';
import { KubeApiError, KubeClient } from './kube/client';
import { findTarget, KubeconfigError } from './kube/config';
import { readObject, RollError, waitUntil } from './roll-common';

/** Options of `wait-quota`. */
export interface WaitQuotaOptions {
  /** The quota's namespace. */
  readonly namespace?: string;
  /** How long to wait (10m, 1h30m, 90s). @default DEFAULT_QUOTA_TIMEOUT */
  readonly timeout?: string;
  /** Seconds between two reads. @default DEFAULT_QUOTA_INTERVAL_SECONDS */
  readonly interval?: number;
  /** The provider cluster's kubeconfig. @default - as kubectl */
  readonly kubeconfig?: string;
  /** The kubeconfig context. */
  readonly context?: string;
}

/** A ResourceQuota as the wait reads it. */
interface WireQuota {
  readonly spec?: { readonly hard?: Readonly<Record<string, unknown>> };
  readonly status?: { readonly hard?: Readonly<Record<string, unknown>>; readonly used?: Readonly<Record<string, unknown>> };
}

/** Whether two quantities (as the API server writes them) are the same amount; a value that is none is never the same. */
function sameAmount(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  try {
    return Quantity.parse(a).eq(Quantity.parse(b));
  } catch (e) {
    if (e instanceof QuantityError) return false;
    throw e;
  }
}

/**
 * What the quota controller has not accounted yet, one phrase per resource (sorted); empty when the quota is
 * accounted. A quota with no `spec.hard` limits nothing and is accounted as it is.
 */
export function unaccounted(quota: WireQuota): string[] {
  const hard = quota.spec?.hard ?? {};
  const status = quota.status ?? {};
  const missing: string[] = [];
  for (const key of Object.keys(hard).sort()) {
    if (!sameAmount(status.hard?.[key], hard[key]))
      missing.push(`${key} (status.hard ${describeValue(status.hard?.[key] ?? null)}, spec.hard ${describeValue(hard[key])})`);
    else if (typeof status.used?.[key] !== 'string') missing.push(`${key} (no status.used)`);
  }
  return missing;
}

/** What is wrong with the options, for exit 2; undefined when they are fine. */
export function waitQuotaProblem(name: string, opts: WaitQuotaOptions): string | undefined {
  const nameProblem = dns1123SubdomainProblem(name);
  if (nameProblem !== undefined) return `the quota name ${describeValue(name)} ${nameProblem}`;
  if (opts.namespace === undefined) return '--namespace is required: the namespace of the ResourceQuota';
  const nsProblem = dns1123LabelProblem(opts.namespace);
  if (nsProblem !== undefined) return `--namespace ${describeValue(opts.namespace)} ${nsProblem}`;
  const timeout = quotaTimeoutProblem(opts.timeout ?? DEFAULT_QUOTA_TIMEOUT);
  if (timeout !== undefined) return `--timeout ${timeout}`;
  const interval = pollIntervalProblem(opts.interval ?? DEFAULT_QUOTA_INTERVAL_SECONDS);
  if (interval !== undefined) return `--interval ${interval}`;
  return undefined;
}

/**
 * The command `wait-quota`: checks the options, finds the cluster, reads the quota until it is accounted. Exit 0
 * accounted; 1 not in time (each resource not yet accounted named) or refused; 2 usage error.
 */
export async function runWaitQuota(name: string, opts: WaitQuotaOptions, io: DrainIo): Promise<number> {
  const problem = waitQuotaProblem(name, opts);
  if (problem !== undefined) {
    io.stderr(`metalslice wait-quota: ${problem}\n`);
    return 2;
  }
  const namespace = opts.namespace!;
  let client: KubeClient;
  try {
    client = new KubeClient(findTarget({ kubeconfig: opts.kubeconfig, context: opts.context }));
  } catch (e) {
    if (!(e instanceof KubeconfigError)) throw e;
    io.stderr(`metalslice wait-quota: ${e.message}\n`);
    return 2;
  }
  const at = `/api/v1/namespaces/${namespace}/resourcequotas/${name}`;
  const what = `ResourceQuota ${namespace}/${name}`;
  const notFound = ['the quota itself (not found)'];
  let last = notFound;
  try {
    await waitUntil(
      `${what} accounted by the quota controller`,
      drainTimeoutSeconds(opts.timeout ?? DEFAULT_QUOTA_TIMEOUT)!,
      opts.interval ?? DEFAULT_QUOTA_INTERVAL_SECONDS,
      async () => {
        const quota = await readObject<WireQuota>(client, at, what, 'get on resourcequotas');
        last = quota === undefined ? notFound : unaccounted(quota);
        return last.length === 0;
      },
    );
  } catch (e) {
    if (e instanceof RollError) {
      io.stderr(
        `metalslice wait-quota: ${e.message}; not yet accounted: ${last.join(', ')}. The API server refuses what the quota counts until then: check that kube-controller-manager runs its resourcequota controller, then run it again (or deploy again)\n`,
      );
      return 1;
    }
    if (!(e instanceof KubeApiError) && !(e instanceof KubeconfigError)) throw e;
    io.stderr(`metalslice wait-quota: ${e.message}\n`);
    return e instanceof KubeconfigError ? 2 : 1;
  }
  io.stdout(`wait-quota: ${what} is accounted\n`);
  return 0;
}
