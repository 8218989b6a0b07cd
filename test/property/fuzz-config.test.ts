/**
 * Fuzzing the config path: random edits of a valid config (any value anywhere, keys dropped, entries
 * duplicated) must plan, or fail with path-named problems; never crash with anything else and never hang.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseConfigText } from '../../constructs/core/config';
import { MetalsliceError, PlanIssue } from '../../constructs/core/errors';
import { planModel } from '../../constructs/core/plan';
import { nodeAt } from '../support/json-tree';
import { Doc, validConfig } from '../support/valid-config';

const RUNS = 400;

/** Every path to a value in `doc`. */
function paths(doc: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(doc)) return [prefix, ...doc.flatMap((v, i) => paths(v, [...prefix, i]))];
  if (doc !== null && typeof doc === 'object') return [prefix, ...Object.entries(doc).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return [prefix];
}

type Edit = { kind: 'set'; at: number; value: unknown } | { kind: 'drop'; at: number } | { kind: 'duplicate'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    at: fc.nat(),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', '-1', '0', '1e400', 'Team_A', '10Xi', 'nope', '100Gi', 'a'.repeat(300))),
  }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
);

function apply(doc: Doc, e: Edit): Doc {
  const all = paths(doc).filter((p) => p.length > 0);
  const path = all[e.at % all.length];
  const parent = nodeAt(doc, path.slice(0, -1));
  const key = path[path.length - 1];
  if (e.kind === 'set') parent[key] = e.value;
  else if (e.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (Array.isArray(parent)) parent.push(structuredClone(parent[Number(key)]));
  return doc;
}

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
        const doc = edits.reduce(apply, validConfig());
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
