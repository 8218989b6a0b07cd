import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Quantity } from '../../constructs/core/base/quantity';

const suffixes = ['', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'Ti'];
const quantityText = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }), fc.constantFrom(...suffixes))
  .map(([whole, frac, suffix]) => `${whole}${frac === undefined ? '' : `.${String(frac).padStart(3, '0')}`}${suffix}`);

describe('Quantity properties', () => {
  it('formats to a string that parses back to the same value', () => {
    fc.assert(
      fc.property(quantityText, (text) => {
        const q = Quantity.parse(text);
        expect(Quantity.parse(q.toString()).nano).toBe(q.nano);
      }),
    );
  });

  it('addition is exact, commutative and associative', () => {
    fc.assert(
      fc.property(quantityText, quantityText, quantityText, (a, b, c) => {
        const [x, y, z] = [a, b, c].map((t) => Quantity.parse(t));
        expect(x.add(y).nano).toBe(y.add(x).nano);
        expect(x.add(y).add(z).nano).toBe(x.add(y.add(z)).nano);
        expect(x.add(y).sub(y).nano).toBe(x.nano);
      }),
    );
  });

  it('compares consistently with subtraction', () => {
    fc.assert(
      fc.property(quantityText, quantityText, (a, b) => {
        const [x, y] = [Quantity.parse(a), Quantity.parse(b)];
        const d = x.sub(y);
        expect(x.cmp(y)).toBe(d.isZero() ? 0 : d.isNegative() ? -1 : 1);
      }),
    );
  });

  it('matches integer arithmetic on millicores', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 50 }), (millis) => {
        const sum = millis.reduce((q, m) => q.add(Quantity.parse(`${m}m`)), Quantity.ZERO);
        expect(sum.ceilMillis()).toBe(BigInt(millis.reduce((a, b) => a + b, 0)));
      }),
    );
  });

  it('parses binary suffixes as exact powers of 1024', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 << 20 }), fc.integer({ min: 1, max: 4 }), (n, p) => {
        const suffix = ['Ki', 'Mi', 'Gi', 'Ti'][p - 1];
        expect(Quantity.parse(`${n}${suffix}`).ceilUnits()).toBe(BigInt(n) * 1024n ** BigInt(p));
      }),
    );
  });
});
