import { describe, expect, it } from '@jest/globals';
import { Quantity, QuantityError } from '../../constructs/core/base/quantity';

describe('Quantity', () => {
  it.each([
    ['1Gi', 1073741824n * 1_000_000_000n],
    ['100m', 100_000_000n],
    ['1.5', 1_500_000_000n],
    ['2Ti', (2n << 40n) * 1_000_000_000n],
    ['1e3', 1000n * 1_000_000_000n],
    ['1k', 1000n * 1_000_000_000n],
    ['500u', 500_000n],
    ['.5', 500_000_000n],
    ['-2', -2_000_000_000n],
    ['125E', 125n * 10n ** 18n * 1_000_000_000n],
    ['2e2', 200n * 1_000_000_000n],
  ])('parses %s exactly', (text, nano) => {
    expect(Quantity.parse(text).nano).toBe(nano);
  });

  it('adds 100m and 200m to exactly 300m', () => {
    expect(Quantity.parse('100m').add(Quantity.parse('200m')).toString()).toBe('300m');
  });

  it('keeps 0.1 + 0.2 exact where floats drift', () => {
    expect(Quantity.parse('0.1').add(Quantity.parse('0.2')).eq(Quantity.parse('0.3'))).toBe(true);
  });

  it('rounds values finer than a nano-unit up, as Kubernetes does', () => {
    expect(Quantity.parse('1e-12').nano).toBe(1n);
  });

  it.each([
    ['32Gi', '32Gi'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1000', '1k'],
    ['1500m', '1500m'],
    ['0.5Gi', '512Mi'],
    ['2000m', '2'],
    ['125000000000G', '125E'],
  ])('formats %s canonically as %s', (text, canonical) => {
    expect(Quantity.parse(text).toString()).toBe(canonical);
  });

  it.each(['', '12 GB', '1.2.3', 'Gi', '5XB', '--1', '1e'])('rejects %j with a message that shows the allowed form', (text) => {
    expect(() => Quantity.parse(text)).toThrow(QuantityError);
    expect(() => Quantity.parse(text)).toThrow(/like 500m, 8, 32Gi or 2Ti/);
  });

  it('compares across suffixes', () => {
    expect(Quantity.parse('1Gi').cmp(Quantity.parse('1G'))).toBe(1);
    expect(Quantity.parse('1000m').cmp(Quantity.parse('1'))).toBe(0);
    expect(Quantity.parse('999m').lte(Quantity.parse('1'))).toBe(true);
  });

  it('rounds CPU up to whole millicores and memory up to whole bytes', () => {
    expect(Quantity.parse('1500u').ceilMillis()).toBe(2n);
    expect(Quantity.parse('0.5').ceilUnits()).toBe(1n);
  });
});
