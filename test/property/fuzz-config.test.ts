/**
 * Fuzzing the config path: random edits of a valid config (any value anywhere, keys dropped, entries
 * duplicated) must plan, or fail with path-named problems; never crash with anything else and never hang.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseConfigText } from '../../constructs/core/input/config';
import { MetalsliceError, PlanIssue } from '../../constructs/core/base/errors';
import { planModel } from '../../constructs/core/plan';
import { applyEdit, edit } from '../support/config-edits';
import { validConfig } from '../support/valid-config';

const RUNS = 400;

describe('config fuzzing', () => {
  let runs = 0;
  let refused = 0;
  afterAll(() => {
    process.stdout.write(`config fuzzing: ${runs} random configs, ${refused} refused with path-named problems, ${runs - refused} planned, 0 crashes\n`);
  });

  it('plans or refuses with path-named problems, never crashes or hangs', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        runs++;
        const doc = edits.reduce(applyEdit, validConfig());
        let problems: readonly PlanIssue[];
        try {
          problems = planModel(parseConfigText(JSON.stringify(doc), 'c.yaml')).errors;
        } catch (e) {
          if (!(e instanceof MetalsliceError)) throw e;
          problems = e.issues;
        }
        if (problems.length > 0) refused++;
        for (const p of problems) {
          expect(p.path).not.toBe('');
          expect(p.message.length).toBeGreaterThan(10);
        }
      }),
      // `timeout` fails a run that hangs; it is a guard, not a measurement.
      { numRuns: RUNS, seed: 20261123, timeout: 10_000 },
    );
  });
});
