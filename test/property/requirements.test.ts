import { describe, it } from '@jest/globals';
import fc from 'fast-check';
import { parsePropertyOffer, parseRequirement, PropertyOffer } from '../../constructs/core/auto/requirements';

const labelValue = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,10}[a-z0-9])?$/);
const key = fc.constantFrom('tier', 'example.com/class', 'topology.kubernetes.io/zone');
const values = fc.uniqueArray(labelValue, { minLength: 1, maxLength: 4 });
const single = (v: string): PropertyOffer => ({ any: false, values: [v] });

describe('requirement matching (properties)', () => {
  it('NotIn is the complement of In for any single-valued or absent property', () => {
    fc.assert(
      fc.property(key, values, fc.option(labelValue, { nil: undefined }), (k, vs, v) => {
        const offered = v === undefined ? undefined : single(v);
        const inReq = parseRequirement({ property: k, operator: 'In', values: vs }, 'r');
        const notIn = parseRequirement({ property: k, operator: 'NotIn', values: vs }, 'r');
        return inReq.matches(offered) !== notIn.matches(offered);
      }),
    );
  });

  it('Exists matches any defined property, DoesNotExist only an absent one', () => {
    fc.assert(
      fc.property(
        key,
        fc.oneof(
          values.map((vs) => vs.join(',')),
          fc.constant('*'),
        ),
        (k, raw) => {
          const offered = parsePropertyOffer(raw, 'p');
          const exists = parseRequirement({ property: k, operator: 'Exists' }, 'r');
          const notExists = parseRequirement({ property: k, operator: 'DoesNotExist' }, 'r');
          return exists.matches(offered) && !notExists.matches(offered) && !exists.matches(undefined) && notExists.matches(undefined);
        },
      ),
    );
  });

  it('a comma list matches In exactly when one of its values would', () => {
    fc.assert(
      fc.property(key, values, values, (k, offeredValues, wanted) => {
        const r = parseRequirement({ property: k, values: wanted }, 'r');
        const list = parsePropertyOffer(offeredValues.join(','), 'p');
        return r.matches(list) === offeredValues.some((v) => r.matches(single(v)));
      }),
    );
  });

  it('* matches every In, NotIn, Exists, Gt and Lt requirement', () => {
    fc.assert(
      fc.property(key, values, fc.nat(1000), (k, vs, n) => {
        const star = parsePropertyOffer('*', 'p');
        return (
          parseRequirement({ property: k, values: vs }, 'r').matches(star) &&
          parseRequirement({ property: k, operator: 'NotIn', values: vs }, 'r').matches(star) &&
          parseRequirement({ property: k, operator: 'Gt', value: String(n) }, 'r').matches(star) &&
          parseRequirement({ property: k, operator: 'Lt', value: String(n) }, 'r').matches(star)
        );
      }),
    );
  });

  it('Gt and Lt agree with integer comparison', () => {
    fc.assert(
      fc.property(fc.nat(10000), fc.nat(10000), (offered, bound) => {
        const gt = parseRequirement({ property: 'cores', operator: 'Gt', value: String(bound) }, 'r');
        const lt = parseRequirement({ property: 'cores', operator: 'Lt', value: String(bound) }, 'r');
        return gt.matches(single(String(offered))) === offered > bound && lt.matches(single(String(offered))) === offered < bound;
      }),
    );
  });

  it('a value written as a comma list parses to the same set as values', () => {
    fc.assert(
      fc.property(key, values, (k, vs) => {
        const a = parseRequirement({ property: k, value: vs.join(',') }, 'r');
        const b = parseRequirement({ property: k, values: [...vs].reverse() }, 'r');
        return JSON.stringify(a.values) === JSON.stringify(b.values);
      }),
    );
  });
});
