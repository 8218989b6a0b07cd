/**
 * Exact Kubernetes resource quantities.
 *
 * A quantity is held as a whole number of nano-units (10^-9) in a bigint: that is the precision
 * Kubernetes itself keeps (it rounds finer values up to 1n), and bigint keeps sums exact where
 * floating point would drift (`0.1 + 0.2`).
 */

import { excerpt } from './excerpt';

/** How a quantity was written; kept so that formatting stays in the author's idiom (`32Gi`, not `34359738368`). */
export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

const NANO = 1_000_000_000n;

/** Binary suffixes and their factor in bytes, smallest first. */
export const BINARY_SUFFIXES: ReadonlyArray<readonly [string, bigint]> = [
  ['Ki', 1n << 10n],
  ['Mi', 1n << 20n],
  ['Gi', 1n << 30n],
  ['Ti', 1n << 40n],
  ['Pi', 1n << 50n],
  ['Ei', 1n << 60n],
];

/** Decimal suffixes with their power of ten. */
const DECIMAL_SUFFIXES: ReadonlyArray<readonly [string, number]> = [
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
];

// The grammar of k8s.io/apimachinery/pkg/api/resource: sign, digits with an optional fraction, then a
// binary suffix, a decimal suffix or a decimal exponent.
const QUANTITY_PATTERN = /^([+-]?)(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

/** A quantity that could not be parsed; `message` says what is allowed. */
/** The longest quantity text read: 4 PiB in bytes is 16 digits, a nano-precise value under 40; 64 is beyond any. */
export const MAX_QUANTITY_CHARS = 64;

export class QuantityError extends Error {
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(`${excerpt(input)} is not a Kubernetes quantity: ${reason}. Write a number with an optional suffix, like 500m, 8, 32Gi or 2Ti`);
    this.name = 'QuantityError';
  }
}

/** An exact Kubernetes quantity (`500m`, `32Gi`), immutable; arithmetic keeps the first operand's format. */
export class Quantity {
  /** Zero. */
  static readonly ZERO = new Quantity(0n, 'DecimalSI');

  /** Parses a quantity string (`500m`, `32Gi`, `1.5`, `1e3`) or a plain number. */
  static parse(input: string | number): Quantity {
    if (typeof input === 'number') {
      if (!Number.isFinite(input)) throw new QuantityError(String(input), 'it is not a finite number');
      return Quantity.parse(numberToPlainString(input));
    }
    const text = input.trim();
    if (text === '') throw new QuantityError(input, 'it is empty');
    // Before any digit is read: BigInt of 8,000,000 digits took seconds, and no real amount has 64.
    if (text.length > MAX_QUANTITY_CHARS)
      throw new QuantityError(input, `it has ${text.length} characters, more than the ${MAX_QUANTITY_CHARS} a quantity may have`);
    const match = QUANTITY_PATTERN.exec(text);
    if (!match) throw new QuantityError(input, 'unknown format or suffix');
    const [, sign, digits, suffix = ''] = match;
    const [intPart, fracPart = ''] = digits.split('.');
    // value = mantissa / 10^fracDigits, all in units; scale to nano-units exactly.
    const mantissa = BigInt((intPart || '0') + fracPart);
    let numerator = mantissa * NANO;
    let denominator = 10n ** BigInt(fracPart.length);
    let format: QuantityFormat;
    const binary = BINARY_SUFFIXES.find(([s]) => s === suffix);
    if (binary) {
      numerator *= binary[1];
      format = 'BinarySI';
    } else if (/^[eE][+-]?\d+$/.test(suffix)) {
      // An exponent; a lone `E` is the exa suffix.
      const exponent = Number(suffix.slice(1));
      if (Math.abs(exponent) > 60) throw new QuantityError(input, 'the exponent is out of range');
      if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
      else denominator *= 10n ** BigInt(-exponent);
      format = 'DecimalExponent';
    } else {
      const power = DECIMAL_SUFFIXES.find(([s]) => s === suffix)![1];
      if (power >= 0) numerator *= 10n ** BigInt(power);
      else denominator *= 10n ** BigInt(-power);
      format = 'DecimalSI';
    }
    // Kubernetes rounds values finer than a nano-unit up (away from zero).
    let nano = numerator / denominator;
    if (numerator % denominator !== 0n) nano += 1n;
    return new Quantity(sign === '-' ? -nano : nano, format);
  }

  /** A quantity of `nano` nano-units (10^-9). */
  static fromNano(nano: bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(nano, format);
  }

  /** A quantity of whole units (cores, bytes, devices). */
  static fromUnits(units: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(units) * NANO, format);
  }

  /** A quantity of thousandths (millicores). */
  static fromMillis(millis: bigint | number): Quantity {
    return new Quantity(BigInt(millis) * 1_000_000n, 'DecimalSI');
  }

  /** Bytes as a BinarySI quantity (formats as `Gi`, `Mi` when it divides evenly). */
  static fromBytes(bytes: bigint | number): Quantity {
    return new Quantity(BigInt(bytes) * NANO, 'BinarySI');
  }

  /**
   * @param nano the amount in nano-units (10^-9)
   * @param format how it is written back (binary suffixes, decimal suffixes, or an exponent)
   */
  private constructor(
    readonly nano: bigint,
    readonly format: QuantityFormat,
  ) {}

  /** This plus `other`. */
  add(other: Quantity): Quantity {
    return new Quantity(this.nano + other.nano, this.format);
  }

  /** This minus `other`. */
  sub(other: Quantity): Quantity {
    return new Quantity(this.nano - other.nano, this.format);
  }

  /** This times a whole `factor`. */
  times(factor: bigint | number): Quantity {
    return new Quantity(this.nano * BigInt(factor), this.format);
  }

  /** -1, 0 or 1. */
  cmp(other: Quantity): -1 | 0 | 1 {
    return this.nano < other.nano ? -1 : this.nano > other.nano ? 1 : 0;
  }

  /** Whether the two are the same amount (whatever their format). */
  eq(other: Quantity): boolean {
    return this.nano === other.nano;
  }

  /** Whether this is at most `other`. */
  lte(other: Quantity): boolean {
    return this.nano <= other.nano;
  }

  /** Whether this is zero. */
  isZero(): boolean {
    return this.nano === 0n;
  }

  /** Whether this is below zero. */
  isNegative(): boolean {
    return this.nano < 0n;
  }

  /** Whole units, rounded up: what a scheduler must reserve. */
  ceilUnits(): bigint {
    return ceilDiv(this.nano, NANO);
  }

  /** Thousandths of a unit, rounded up (millicores for CPU). */
  ceilMillis(): bigint {
    return ceilDiv(this.nano, 1_000_000n);
  }

  /** The value as a float, for display and ratios only; never for accounting. */
  toNumber(): number {
    return Number(this.nano) / 1e9;
  }

  /** Gibibytes as a float, for display and cost formulas. */
  toGiB(): number {
    return Number(this.nano / NANO) / 2 ** 30 + Number(this.nano % NANO) / 1e9 / 2 ** 30;
  }

  /**
   * Canonical text: the largest suffix that keeps the value whole. A BinarySI quantity keeps a
   * binary suffix when it is a whole number of bytes; otherwise decimal suffixes are used.
   */
  toString(): string {
    const sign = this.nano < 0n ? '-' : '';
    const abs = this.nano < 0n ? -this.nano : this.nano;
    if (abs === 0n) return '0';
    if (this.format === 'BinarySI' && abs % NANO === 0n) {
      const units = abs / NANO;
      for (let i = BINARY_SUFFIXES.length - 1; i >= 0; i--) {
        const [suffix, factor] = BINARY_SUFFIXES[i];
        if (units % factor === 0n) return `${sign}${units / factor}${suffix}`;
      }
      // Below 1Ki, or not a multiple of it: a decimal suffix may still be shorter (1000 -> 1k).
    }
    for (let i = DECIMAL_SUFFIXES.length - 1; i >= 0; i--) {
      const [suffix, power] = DECIMAL_SUFFIXES[i];
      const factor = 10n ** BigInt(power + 9);
      if (abs % factor === 0n) return `${sign}${abs / factor}${suffix}`;
    }
    return `${sign}${abs}n`;
  }

  /** The Kubernetes quantity string, as in `toString`. */
  toJSON(): string {
    return this.toString();
  }
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** Renders a JS number without exponent notation loss for the common cases (`0.5`, `8`, `1e21`). */
function numberToPlainString(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? text.replace('e+', 'e') : text;
}
