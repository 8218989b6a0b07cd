/**
 * `metalslice verify CONFIG [--json] [--order deploy|shuffled] [--seed N] [--kubevirt]`: plan, then replay the plan on a
 * real control plane. Exit 0 only when the plan is valid and every VM's launcher pod bound; 1 otherwise.
 */
import { loadConfigFile } from '../core/input/config';
import { buildSnapshot, checkSnapshot, ClusterSnapshot } from '../core/hosts/snapshot';
import { MetalsliceError, PlanIssue, UnreadableInputError } from '../core/base/errors';
import { escapeText } from '../core/base/excerpt';
import { readInputFile } from '../core/input/read-file';
import { checkTextShape } from '../core/input/input-bounds';
import { MAX_SNAPSHOT_CONTAINERS } from '../core/base/bounds';
import { planModel } from '../core/plan';
import { stableJson } from '../core/report';
import { formatVerifyResult, verifyPlan } from '../verify/verify';

interface VerifyIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The options of `metalslice verify`. */
export interface VerifyCliOptions {
  readonly json?: boolean;
  readonly order?: 'deploy' | 'shuffled';
  readonly seed?: number;
  /** A snapshot file written by `metalslice inventory --snapshot`. */
  readonly snapshot?: string;
  /** Take the snapshot from the provider cluster now. */
  readonly fromCluster?: boolean;
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Let KubeVirt's own virt-api and virt-controller make the launcher pods from the applied VirtualMachines. */
  readonly kubevirt?: boolean;
}

/** The snapshot the options name, none, or the exit code of why it could not be had. */
async function snapshotOf(opts: VerifyCliOptions, io: VerifyIo): Promise<ClusterSnapshot | undefined | number> {
  if (opts.snapshot !== undefined && opts.fromCluster) {
    io.stderr('metalslice verify: give --snapshot FILE or --from-cluster, not both\n');
    return 2;
  }
  if (opts.snapshot !== undefined) return readSnapshotFile(opts.snapshot, io);
  if (!opts.fromCluster) return undefined;
  // The Kubernetes client is loaded only for a live read.
  const { loadKubeconfig, readCluster } = await import('./inventory');
  const kc = loadKubeconfig(opts, io, 'verify');
  if (typeof kc === 'number') return kc;
  const read = await readCluster(kc, io, 'verify');
  if (typeof read === 'number') return read;
  return buildSnapshot(read.nodes, read.pods);
}

function readSnapshotFile(file: string, io: VerifyIo): ClusterSnapshot | number {
  let text: string;
  try {
    text = readInputFile(file, 'snapshot');
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(`metalslice verify: ${e.message}\n`);
    return e instanceof UnreadableInputError ? 2 : 1;
  }
  try {
    checkTextShape(text, escapeText(file), MAX_SNAPSHOT_CONTAINERS, 'a cluster snapshot');
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(`metalslice verify: ${e.message}\n`);
    return 2;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    io.stderr(`metalslice verify: ${escapeText(file)}: not JSON: write it with metalslice inventory --snapshot FILE\n`);
    return 1;
  }
  try {
    return checkSnapshot(data, escapeText(file));
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(`metalslice verify: ${e.message}\n`);
    return e instanceof UnreadableInputError ? 2 : 1;
  }
}

export async function runVerify(file: string, opts: VerifyCliOptions, io: VerifyIo): Promise<number> {
  const snapshot = await snapshotOf(opts, io);
  if (typeof snapshot === 'number') return snapshot;
  const t0 = Date.now();
  let plan;
  try {
    plan = planModel(loadConfigFile(file));
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    // A config that cannot be read is a usage error (exit 2), as in every subcommand; one that does not plan, 1.
    return fail(e.issues, opts.json, io, e instanceof UnreadableInputError ? 2 : 1);
  }
  const planSeconds = Math.round((Date.now() - t0) / 10) / 100;
  let result;
  try {
    result = await verifyPlan(plan, {
      order: opts.order ?? 'deploy',
      seed: opts.seed ?? 1,
      planSeconds,
      snapshot,
      kubevirt: opts.kubevirt === true,
      log: opts.json ? undefined : (line) => io.stderr(`verify: ${line}\n`),
    });
  } catch (e) {
    io.stderr(`metalslice verify: ${(e as Error).message}\n`);
    return 1;
  }
  const ok = plan.ok && result.bound === result.vms;
  if (opts.json) {
    io.stdout(stableJson({ ok, planOk: plan.ok, planErrors: plan.errors, ...result }));
  } else {
    io.stdout(formatVerifyResult(result));
    if (!plan.ok) io.stderr(`metalslice: the plan has ${plan.errors.length} problem(s) (run metalslice plan ${file}); replayed anyway\n`);
  }
  return ok ? 0 : 1;
}

function fail(issues: readonly PlanIssue[], json: boolean | undefined, io: VerifyIo, code: number): number {
  if (json) io.stdout(stableJson({ ok: false, planOk: false, planErrors: issues, vms: 0, bound: 0, pending: [], seconds: { plan: 0, start: 0, schedule: 0 } }));
  else for (const i of issues) io.stderr(`${i.path}: ${i.message}\n`);
  return code;
}
