/**
 * `metalslice verify CONFIG [--json] [--order deploy|shuffled] [--seed N]`: plan, then replay the plan on a
 * real control plane. Exit 0 only when the plan is valid and every VM's launcher pod bound; 1 otherwise.
 */
import { loadConfigFile } from '../core/config';
import { MetalsliceError, PlanIssue } from '../core/errors';
import { planModel } from '../core/plan';
import { stableJson } from '../core/report';
import { formatVerifyResult, verifyPlan } from '../verify/verify';

interface VerifyIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export async function runVerify(file: string, opts: { json?: boolean; order?: 'deploy' | 'shuffled'; seed?: number }, io: VerifyIo): Promise<number> {
  const t0 = Date.now();
  let plan;
  try {
    plan = planModel(loadConfigFile(file));
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    return fail(e.issues, opts.json, io);
  }
  const planSeconds = Math.round((Date.now() - t0) / 10) / 100;
  let result;
  try {
    result = await verifyPlan(plan, {
      order: opts.order ?? 'deploy',
      seed: opts.seed ?? 1,
      planSeconds,
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

function fail(issues: readonly PlanIssue[], json: boolean | undefined, io: VerifyIo): number {
  if (json) io.stdout(stableJson({ ok: false, planOk: false, planErrors: issues, vms: 0, bound: 0, pending: [], seconds: { plan: 0, start: 0, schedule: 0 } }));
  else for (const i of issues) io.stderr(`${i.path}: ${i.message}\n`);
  return 1;
}
