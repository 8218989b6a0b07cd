/**
 * A config app is planned once (constructs/plumbing/config-plan.ts): the plan its CapacityPlan takes must be the plan it
 * would have made from the constructs. For random edits of a valid config that still plan, the two reports
 * are the same text, warnings and their construct paths included.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { TerraformStack, Testing } from 'cdktf';
import { addConfig } from '../../constructs';
import { offeredConfigPlan } from '../../constructs/plumbing/config-plan';
import { parseConfigText } from '../../constructs/core/input/config';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { stableJson } from '../../constructs/core/report';
import { applyEdit, edit } from '../support/config-edits';
import { contributedModel } from '../support/contributed-model';
import { Doc, validConfig } from '../support/valid-config';

const RUNS = 100;

/** The valid config, its quota granted to a service account when `warned` (which the plan warns of, at the quota). */
function base(warned: boolean): Doc {
  const doc = validConfig();
  if (warned) Object.assign(doc.quotas[0], { consumers: ['system:serviceaccount:ci:deployer'], allowSystemConsumers: true });
  return doc;
}

/** The edited config, if it reads and plans without errors. */
function plannable(warned: boolean, edits: Parameters<typeof applyEdit>[1][]): MetalsliceConfig | undefined {
  try {
    const config = parseConfigText(JSON.stringify(edits.reduce(applyEdit, base(warned))), 'c.yaml');
    return planModel(config).ok ? config : undefined;
  } catch (e) {
    if (e instanceof MetalsliceError) return undefined;
    throw e;
  }
}

describe('a config planned once', () => {
  it('takes a plan whose report is the report of a plan made from its constructs', () => {
    let taken = 0;
    let withWarnings = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.array(edit, { maxLength: 3 }), (warned, edits) => {
        const config = plannable(warned, edits);
        if (config === undefined) return;
        const stack = new TerraformStack(Testing.app(), 'tenant');
        addConfig(stack, config);
        const { model, paths } = contributedModel(stack);
        const plan = offeredConfigPlan(stack, model, paths, undefined);
        if (plan === undefined) return;
        taken++;
        if (plan.warnings.length > 0) withWarnings++;
        expect(stableJson(plan.report)).toBe(stableJson(planModel(model, { paths }).report));
      }),
      { numRuns: RUNS, seed: 20261126 },
    );
    process.stdout.write(`config planned once: ${taken} of ${RUNS} random configs taken, ${withWarnings} with warnings\n`);
    expect(taken).toBeGreaterThan(RUNS / 10);
    expect(withWarnings).toBeGreaterThan(RUNS / 20);
  });
});
