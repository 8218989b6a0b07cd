/**
 * Readable numbers for people: byte resources in binary units (`9.45 Ti`, `452 Gi`), CPU in cores, counts as
 * they are, each to three significant digits. Exact values stay in the JSON; these are for reading only.
 * One rule for every format: text, Markdown and the JSON's `human` fields all come through here.
 */
import { BINARY_SUFFIXES, Quantity } from './quantity';
import { isByteResource, resourceNames } from './resources';

const NANO = 1_000_000_000n;

/** A unit a column (or one value) is shown in: its label and its size in nano-units. */
export interface DisplayUnit {
  /** `Ti`, `Gi`, `B`, `cores`, or '' for plain counts. */
  readonly label: string;
  readonly nano: bigint;
}

const BYTES: readonly DisplayUnit[] = [{ label: 'B', nano: NANO }, ...BINARY_SUFFIXES.map(([label, factor]) => ({ label, nano: factor * NANO }))];
const CORES: DisplayUnit = { label: 'cores', nano: NANO };
const COUNT: DisplayUnit = { label: '', nano: NANO };

/** The unit that shows `q` of resource `name` with at least one whole unit (the largest binary unit for bytes). */
export function unitFor(name: string, q: Quantity): DisplayUnit {
  if (name === 'cpu') return CORES;
  if (!isByteResource(name)) return COUNT;
  const abs = q.nano < 0n ? -q.nano : q.nano;
  let unit = BYTES[0];
  for (const u of BYTES) if (abs >= u.nano) unit = u;
  return unit;
}

/**
 * One unit for a whole column, so its rows compare at a glance: the unit most of its (non-zero) values read
 * best in, the larger on a tie. A much larger value then shows more digits (`1024` Gi) rather than the
 * others shrinking to `0.031` Ti.
 */
export function columnUnit(name: string, values: readonly Quantity[]): DisplayUnit {
  const votes = new Map<DisplayUnit, number>();
  for (const q of values) if (!q.isZero()) votes.set(unitFor(name, q), (votes.get(unitFor(name, q)) ?? 0) + 1);
  let best = unitFor(name, Quantity.ZERO);
  for (const [unit, n] of votes) if (n > (votes.get(best) ?? 0) || (n === (votes.get(best) ?? 0) && unit.nano > best.nano)) best = unit;
  return best;
}

function abs(q: Quantity): bigint {
  return q.nano < 0n ? -q.nano : q.nano;
}

/** `num / den` rounded half up, for num >= 0. */
function roundDiv(num: bigint, den: bigint): bigint {
  return (num * 2n + den) / (den * 2n);
}

/**
 * `num / den` (num >= 0) to three significant digits. Whole values print whole (`1252`); a value that is
 * exact at three digits drops trailing zeros (`1.5`); a rounded one keeps them (`10.0`), so `10.0` reads as
 * "about ten" and `10` as "exactly ten". `down` rounds toward zero (for a bound: "at most 10.9 Gi").
 */
export function threeDigits(num: bigint, den: bigint, down = false): string {
  if (num % den === 0n) return (num / den).toString();
  const whole = num / den;
  const intDigits = whole === 0n ? 0 : whole.toString().length;
  const div = down ? (n: bigint, d: bigint) => n / d : roundDiv;
  if (intDigits >= 3) return div(num, den).toString();
  let decimals = 3 - intDigits;
  if (intDigits === 0) while (num * 10n ** BigInt(decimals - 2) < den) decimals++;
  let scaled = div(num * 10n ** BigInt(decimals), den);
  // 9.996 rounds to 10.00: one decimal fewer keeps three digits.
  if (scaled.toString().length > 3 && decimals > 0) {
    decimals--;
    scaled = div(num * 10n ** BigInt(decimals), den);
  }
  let text = scaled.toString().padStart(decimals + 1, '0');
  text = decimals > 0 ? `${text.slice(0, -decimals)}.${text.slice(-decimals)}` : text;
  const exact = (num * 10n ** BigInt(decimals)) % den === 0n;
  return exact && text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A quantity as a number in `unit`, three significant digits, signed. */
export function inUnit(q: Quantity, unit: DisplayUnit): string {
  const digits = threeDigits(abs(q), unit.nano);
  return q.nano < 0n ? `-${digits}` : digits;
}

/** A quantity with its own unit: `9.45 Ti`, `8.01 cores`, `1 core`, `8` (a count). */
export function readable(name: string, q: Quantity): string {
  const unit = unitFor(name, q);
  const value = inUnit(q, unit);
  if (unit.label === '') return value;
  if (unit === CORES) return `${value} ${value === '1' ? 'core' : 'cores'}`;
  return `${value} ${unit.label}`;
}

/**
 * An amount as problems and warnings name it: bytes (memory, disk, hugepages) in binary units to three
 * significant digits (`76.7 Gi`, `64 Gi`); CPU exact, in quantities Kubernetes takes: millicores under one
 * core (`500m`), cores from one (`8`, `10.025`, `4002.5`; a fraction of a millicore rounds up, as the API
 * server does); other counts as they are. Never a raw byte count. `down`: a bound to stay under, rounded
 * down (bytes only; the others are exact).
 */
export function amount(name: string, q: Quantity, down = false): string {
  if (isByteResource(name)) {
    if (!down || q.isNegative()) return readable(name, q);
    const unit = unitFor(name, q);
    return `${threeDigits(q.nano, unit.nano, true)} ${unit.label}`;
  }
  if (name !== 'cpu') return q.toString();
  const millis = q.ceilMillis();
  const abs = millis < 0n ? -millis : millis;
  const sign = millis < 0n ? '-' : '';
  if (abs < 1000n) return abs === 0n ? '0' : `${sign}${abs}m`;
  const fraction = (abs % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return `${sign}${abs / 1000n}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Named amounts, in the order given (or the map's own order): `cpu 10025m, memory 76.7 Gi`; `sep` joins a
 * name and its amount (`: ` gives `cpu: 10, memory: 40 Gi`). Zero amounts are left out unless named; `down`
 * as in {@link amount}.
 */
export function amounts(v: Readonly<Record<string, Quantity>>, names?: readonly string[], sep = ' ', down = false): string {
  const shown = names ?? resourceNames(v).filter((n) => !v[n].isZero());
  return shown.map((n) => `${n}${sep}${amount(n, v[n] ?? Quantity.ZERO, down)}`).join(', ');
}

/** A resource map (exact quantity strings, as the JSON report holds them) made readable, same keys. */
export function readableResources(r: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([name, q]) => [name, readable(name, Quantity.parse(q))]));
}

/** A signed change: `+452 Gi`, `-2 cores`, `0`. */
export function readableDelta(name: string, q: Quantity): string {
  if (q.isZero()) return '0';
  return `${q.isNegative() ? '' : '+'}${readable(name, q)}`;
}

/** used / limit as a whole percentage; `<1` when above zero but under one percent; null without a limit. */
export function percent(used: Quantity, limit: Quantity): string | null {
  if (limit.nano <= 0n) return null;
  if (used.nano <= 0n) return '0';
  const pct = roundDiv(used.nano * 100n, limit.nano);
  if (pct === 0n) return '<1';
  // Never round up to 100 % what is not full.
  return pct >= 100n && used.nano < limit.nano ? '99' : pct.toString();
}

/** A bar of `cells` cells, filled in proportion (rounded up, so any use shows); `!` past the limit. */
export function bar(used: Quantity, limit: Quantity, cells = 10): string {
  if (limit.nano <= 0n) return '';
  const over = used.nano > limit.nano;
  const filled = used.nano <= 0n ? 0 : Math.min(cells, Number((used.nano * BigInt(cells) + limit.nano - 1n) / limit.nano));
  return `${'█'.repeat(filled)}${'░'.repeat(cells - filled)}${over ? '!' : ''}`;
}

/** A used/limit cell in a column's unit: `0.441 / 9.45  5% █░░░░░░░░░`. */
export function usageCell(used: Quantity, limit: Quantity, unit: DisplayUnit, withBar = true): string {
  const pct = percent(used, limit);
  const head = `${inUnit(used, unit)} / ${inUnit(limit, unit)}`;
  if (pct === null) return head;
  return withBar ? `${head} ${pct}% ${bar(used, limit)}` : `${head} ${pct}%`;
}

/** A column header naming its unit: `memory (Ti)`, `cpu (cores)`, `nvidia.com/gpu`. */
export function unitHeader(name: string, unit: DisplayUnit): string {
  return unit.label === '' ? name : `${name} (${unit.label})`;
}

/** A whole number with thousands separators, for counts of rows, VMs and hosts. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
