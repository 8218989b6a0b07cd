import { describe, expect, it } from '@jest/globals';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { matchesAll, parsePropertyOffer, parseRequirement, parseRequirements, PropertyOffer, Requirement } from '../../constructs/core/auto/requirements';

const offer = (raw: string): PropertyOffer => parsePropertyOffer(raw, 'p');
const req = (r: Parameters<typeof parseRequirement>[0]): Requirement => parseRequirement(r, 'r');

function issuesOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof MetalsliceError) return [...e.issues];
    throw e;
  }
  throw new Error('expected a MetalsliceError');
}

describe('parsing requirements', () => {
  it('defaults the operator to In', () => {
    expect(req({ property: 'tier', value: 'a' }).operator).toBe('In');
  });

  it('reads a comma list in value as several values', () => {
    expect(req({ property: 'tier', value: 'b, a' }).values).toEqual(['a', 'b']);
  });

  it('rejects In with both value and values, naming the requirement', () => {
    const issues = issuesOf(() =>
      parseRequirements(
        [
          { property: 'tier', value: 'a' },
          { property: 'tier', value: 'a', values: ['b'] },
        ],
        'autoNodes[0].static[1].requirements',
      ),
    );
    expect(issues).toEqual([{ path: 'autoNodes[0].static[1].requirements[1]', message: expect.stringContaining('either value or values') }]);
  });

  it('rejects In and NotIn without values', () => {
    expect(issuesOf(() => req({ property: 'tier' }))[0].message).toMatch(/needs value/);
    expect(issuesOf(() => req({ property: 'tier', operator: 'NotIn', values: [] }))[0].message).toMatch(/at least one value/);
  });

  it('rejects a value on Exists and DoesNotExist', () => {
    expect(issuesOf(() => req({ property: 'gpu', operator: 'Exists', value: 'x' }))[0].message).toMatch(/takes no value/);
    expect(issuesOf(() => req({ property: 'gpu', operator: 'DoesNotExist', values: ['x'] }))[0].message).toMatch(/takes no value/);
  });

  it('requires exactly one non-negative integer for Gt and Lt', () => {
    expect(req({ property: 'cores', operator: 'Gt', value: '4' }).bound).toBe(4);
    expect(req({ property: 'cores', operator: 'Lt', values: ['16'] }).bound).toBe(16);
    expect(issuesOf(() => req({ property: 'cores', operator: 'Gt', value: 'four' }))[0]).toEqual({
      path: 'r.value',
      message: expect.stringContaining('not a non-negative integer'),
    });
    expect(issuesOf(() => req({ property: 'cores', operator: 'Lt', values: ['1', '2'] }))[0].message).toMatch(/exactly one integer/);
  });

  it('names the bad value path and says what is allowed', () => {
    const issues = issuesOf(() =>
      parseRequirements(
        [
          { property: 'tier', value: 'a' },
          { property: 'tier', value: 'a' },
          { property: 'tier', value: 'no spaces!' },
        ],
        'autoNodes[0].static[1].requirements',
      ),
    );
    expect(issues).toEqual([
      { path: 'autoNodes[0].static[1].requirements[2].value', message: expect.stringMatching(/not a valid label value: .*letter or digit/) },
    ]);
  });

  it('checks property names as label keys', () => {
    expect(issuesOf(() => req({ property: 'Bad_Prefix/x', value: 'a' }))[0]).toEqual({ path: 'r.property', message: expect.stringContaining('DNS subdomain') });
    expect(issuesOf(() => req({ property: 'x'.repeat(64), value: 'a' }))[0].message).toMatch(/at most 63/);
    expect(() => req({ property: 'example.com/tier', value: 'a' })).not.toThrow();
  });

  it('rejects an unknown operator', () => {
    expect(issuesOf(() => req({ property: 'tier', operator: 'Like' as never, value: 'a' }))[0]).toEqual({
      path: 'r.operator',
      message: expect.stringContaining('In, NotIn, Exists, DoesNotExist, Gt, Lt'),
    });
  });
});

describe('property offers', () => {
  it('reads one value, a comma list and *', () => {
    expect(offer('a')).toEqual({ any: false, values: ['a'] });
    expect(offer('b,a')).toEqual({ any: false, values: ['a', 'b'] });
    expect(offer('*')).toEqual({ any: true, values: [] });
  });

  it('rejects an empty element in a comma list', () => {
    expect(issuesOf(() => offer('a,,b'))[0].message).toMatch(/empty value/);
  });
});

describe('matching', () => {
  const props = new Map<string, PropertyOffer>([
    ['tier', offer('a,b')],
    ['zone', offer('x')],
    ['any', offer('*')],
    ['cores', offer('8')],
  ]);
  const ok = (r: Parameters<typeof parseRequirement>[0]): boolean => req(r).matches(props.get(r.property));

  it('In matches when the type offers one of the values', () => {
    expect(ok({ property: 'tier', value: 'a' })).toBe(true);
    expect(ok({ property: 'tier', values: ['c', 'b'] })).toBe(true);
    expect(ok({ property: 'tier', value: 'c' })).toBe(false);
    expect(ok({ property: 'missing', value: 'a' })).toBe(false);
  });

  it('NotIn matches when the type offers a value outside the set, or lacks the property', () => {
    expect(ok({ property: 'zone', operator: 'NotIn', value: 'x' })).toBe(false);
    expect(ok({ property: 'zone', operator: 'NotIn', value: 'y' })).toBe(true);
    expect(ok({ property: 'tier', operator: 'NotIn', value: 'a' })).toBe(true); // b is still offered
    expect(ok({ property: 'tier', operator: 'NotIn', value: 'a,b' })).toBe(false);
    expect(ok({ property: 'missing', operator: 'NotIn', value: 'a' })).toBe(true);
  });

  it('Exists and DoesNotExist look only at presence', () => {
    expect(ok({ property: 'zone', operator: 'Exists' })).toBe(true);
    expect(ok({ property: 'missing', operator: 'Exists' })).toBe(false);
    expect(ok({ property: 'zone', operator: 'DoesNotExist' })).toBe(false);
    expect(ok({ property: 'missing', operator: 'DoesNotExist' })).toBe(true);
  });

  it('* matches any value and Exists, but not DoesNotExist', () => {
    expect(ok({ property: 'any', value: 'whatever' })).toBe(true);
    expect(ok({ property: 'any', operator: 'NotIn', value: 'whatever' })).toBe(true);
    expect(ok({ property: 'any', operator: 'Exists' })).toBe(true);
    expect(ok({ property: 'any', operator: 'DoesNotExist' })).toBe(false);
    expect(ok({ property: 'any', operator: 'Gt', value: '3' })).toBe(true);
  });

  it('Gt and Lt compare integers and fail on absent or non-integer values', () => {
    expect(ok({ property: 'cores', operator: 'Gt', value: '4' })).toBe(true);
    expect(ok({ property: 'cores', operator: 'Gt', value: '8' })).toBe(false);
    expect(ok({ property: 'cores', operator: 'Lt', value: '9' })).toBe(true);
    expect(ok({ property: 'cores', operator: 'Lt', value: '8' })).toBe(false);
    expect(ok({ property: 'zone', operator: 'Gt', value: '0' })).toBe(false);
    expect(ok({ property: 'missing', operator: 'Lt', value: '100' })).toBe(false);
  });

  it('requires all requirements to match', () => {
    const rs = parseRequirements(
      [
        { property: 'tier', value: 'a' },
        { property: 'zone', value: 'x' },
      ],
      'r',
    );
    expect(matchesAll(rs, props)).toBe(true);
    const rs2 = parseRequirements(
      [
        { property: 'tier', value: 'a' },
        { property: 'zone', value: 'y' },
      ],
      'r',
    );
    expect(matchesAll(rs2, props)).toBe(false);
  });

  it('describes itself for rejection reasons', () => {
    expect(req({ property: 'tier', values: ['b', 'a'], operator: 'NotIn' }).toString()).toBe('tier NotIn [a, b]');
    expect(req({ property: 'gpu', operator: 'Exists' }).toString()).toBe('gpu Exists');
    expect(req({ property: 'cores', operator: 'Gt', value: '4' }).toString()).toBe('cores Gt 4');
  });
});
