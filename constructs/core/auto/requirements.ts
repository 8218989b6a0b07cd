/**
 * Node type requirements, vCluster-style: a claim (a static or dynamic pool) says which node type
 * properties it needs; a node type offers property values. Requirements are held as value sets with a
 * complement flag, as Karpenter holds them, so matching is set intersection and every mismatch can be
 * explained.
 */
import { childPath, isList, MetalsliceError, PlanIssue } from '../base/errors';
import { Requirement as RequirementSpec, RequirementOperator } from '../input/model';
import { labelKeyProblem, labelValueProblem } from '../naming/kube-names';
import { describeValue, excerpt } from '../base/excerpt';
import { REQUIREMENT_OPERATORS } from '../input/requirement-operators';

const NON_NEGATIVE_INTEGER = /^(0|[1-9][0-9]*)$/;

/**
 * One parsed requirement: the set of values it accepts. `In` is the set itself, `NotIn` its complement,
 * `Exists` the complement of nothing (every value), `DoesNotExist` nothing; `Gt`/`Lt` every integer beyond a bound.
 */
export class Requirement {
  /** Sorted, unique. */
  readonly values: readonly string[];
  private readonly set: ReadonlySet<string>;

  /**
   * @param key the property the requirement reads
   * @param operator how it compares
   * @param values the values it compares with
   */
  constructor(
    readonly key: string,
    readonly operator: RequirementOperator,
    values: readonly string[] = [],
  ) {
    this.values = [...new Set(values)].sort();
    this.set = new Set(this.values);
  }

  /** True when the set is everything but `values` (NotIn, Exists, Gt, Lt). */
  get complement(): boolean {
    return this.operator === 'NotIn' || this.operator === 'Exists' || this.operator === 'Gt' || this.operator === 'Lt';
  }

  /** The integer bound of Gt/Lt. */
  get bound(): number | undefined {
    return this.operator === 'Gt' || this.operator === 'Lt' ? Number(this.values[0]) : undefined;
  }

  /** Whether a node without the property satisfies the requirement (Kubernetes: NotIn and DoesNotExist do). */
  get allowsAbsent(): boolean {
    return this.operator === 'NotIn' || this.operator === 'DoesNotExist';
  }

  /** Whether one property value is in the set. */
  has(value: string): boolean {
    switch (this.operator) {
      case 'In':
        return this.set.has(value);
      case 'NotIn':
        return !this.set.has(value);
      case 'Exists':
        return true;
      case 'DoesNotExist':
        return false;
      case 'Gt':
      case 'Lt': {
        if (!NON_NEGATIVE_INTEGER.test(value)) return false;
        const n = Number(value);
        return this.operator === 'Gt' ? n > this.bound! : n < this.bound!;
      }
    }
  }

  /** Whether the set holds any value at all (DoesNotExist and an empty In hold none). */
  get isEmpty(): boolean {
    return !this.complement && (this.operator === 'DoesNotExist' || this.set.size === 0);
  }

  /** Whether a type offering `offer` (undefined: no such property) satisfies the requirement. */
  matches(offer: PropertyOffer | undefined): boolean {
    if (offer === undefined) return this.allowsAbsent;
    // `*` offers every value: the sets intersect unless this one is empty.
    if (offer.any) return !this.isEmpty;
    return offer.values.some((v) => this.has(v));
  }

  /** `tier In [a, b]`, `gpu Exists`, `cpu-count Gt 4`. */
  toString(): string {
    if (this.operator === 'Exists' || this.operator === 'DoesNotExist') return `${this.key} ${this.operator}`;
    if (this.operator === 'Gt' || this.operator === 'Lt') return `${this.key} ${this.operator} ${this.values[0]}`;
    return `${this.key} ${this.operator} [${this.values.join(', ')}]`;
  }
}

/** What a node type offers for one property: a list of values, or `*` (any value). */
export interface PropertyOffer {
  /** The type takes any value (`*`). */
  readonly any: boolean;
  /** Sorted, unique; empty when `any`. */
  readonly values: readonly string[];
}

export function offerToString(offer: PropertyOffer | undefined): string {
  if (offer === undefined) return '(not set)';
  return offer.any ? '*' : offer.values.join(',');
}

/** Splits a comma list into trimmed values (`"a, b"` -> a, b). */
function splitList(raw: string): string[] {
  return raw.split(',').map((v) => v.trim());
}

/**
 * Parses a node type's property value: one value, a comma list (`"a,b"`: the type offers both), or `*`.
 * Throws a MetalsliceError naming `path` when a value is not a valid label value.
 */
export function parsePropertyOffer(raw: string, path: string): PropertyOffer {
  if (typeof raw !== 'string') {
    throw new MetalsliceError([{ path, message: `a property value must be a string (got ${describeValue(raw)}): quote it, e.g. "4"` }]);
  }
  if (raw.trim() === '*') return { any: true, values: [] };
  const values = splitList(raw);
  const issues: PlanIssue[] = [];
  for (const value of values) {
    if (value === '') {
      issues.push({ path, message: `"${raw}" holds an empty value: write one value, a comma list like "a,b", or * for any value` });
      continue;
    }
    const problem = labelValueProblem(value);
    if (problem) issues.push({ path, message: `${excerpt(value)} is not a valid label value: ${problem}` });
  }
  if (issues.length > 0) throw new MetalsliceError(issues);
  return { any: false, values: [...new Set(values)].sort() };
}

/**
 * Parses one requirement as written in config. Rules: In (the default) and NotIn take exactly one of
 * `value` (which may be a comma list) or `values`; Exists and DoesNotExist take neither; Gt and Lt take one
 * non-negative integer. Keys must be label keys and values label values. Throws with every issue found.
 */
export function parseRequirement(input: RequirementSpec, path: string): Requirement {
  const issues: PlanIssue[] = [];
  if (typeof input !== 'object' || input === null) {
    throw new MetalsliceError([{ path, message: 'a requirement must be an object like {property: tier, operator: In, value: a}' }]);
  }
  // vCluster reads a missing or empty operator as In.
  const operator: RequirementOperator = input.operator === undefined || input.operator === '' ? 'In' : input.operator;
  if (!REQUIREMENT_OPERATORS.includes(operator)) {
    issues.push({ path: childPath(path, 'operator'), message: `unknown operator "${String(operator)}": use one of ${REQUIREMENT_OPERATORS.join(', ')}` });
  }
  checkRequirementKey(input.property, path, issues);
  const given: GivenValues = { hasValue: input.value !== undefined, hasValues: input.values !== undefined, values: readValues(input, path, issues) };
  checkOperatorValues(operator, given, path, issues);
  if (issues.length > 0) throw new MetalsliceError(issues);
  return new Requirement(
    input.property,
    operator,
    given.values.map((v) => v.text),
  );
}

/** One value of a requirement as written, with the config path it came from. */
interface GivenValue {
  readonly text: string;
  readonly path: string;
}

/** What a requirement wrote: whether `value` and `values` are present, and their values in order. */
interface GivenValues {
  readonly hasValue: boolean;
  readonly hasValues: boolean;
  readonly values: readonly GivenValue[];
}

/** The requirement's `property`: required, and a label key. */
function checkRequirementKey(key: unknown, path: string, issues: PlanIssue[]): void {
  if (typeof key !== 'string') {
    issues.push({
      path: childPath(path, 'property'),
      message: 'property is required: the name of the node type property to match, e.g. topology.kubernetes.io/zone',
    });
    return;
  }
  const problem = labelKeyProblem(key);
  if (problem) issues.push({ path: childPath(path, 'property'), message: `${excerpt(key)} is not a valid property name: ${problem}` });
}

/** The values written as `value` (a string, maybe a comma list) and then as `values` (a list of strings). */
function readValues(input: RequirementSpec, path: string, issues: PlanIssue[]): GivenValue[] {
  const values: GivenValue[] = [];
  if (input.value !== undefined) {
    const valuePath = childPath(path, 'value');
    if (typeof input.value !== 'string') {
      issues.push({ path: valuePath, message: `value must be a string (got ${describeValue(input.value)}): quote it` });
    } else {
      values.push(...splitList(input.value).map((text) => ({ text, path: valuePath })));
    }
  }
  if (input.values !== undefined) {
    const valuesPath = childPath(path, 'values');
    if (!Array.isArray(input.values)) {
      issues.push({ path: valuesPath, message: 'values must be a list of strings' });
    } else {
      input.values.forEach((v, i) => {
        if (typeof v !== 'string') issues.push({ path: childPath(valuesPath, i), message: `values must be strings (got ${describeValue(v)}): quote it` });
        else values.push({ text: v, path: childPath(valuesPath, i) });
      });
    }
  }
  return values;
}

/** The operator's own rule for its values (vCluster's requirement validation, one case per operator family). */
function checkOperatorValues(operator: RequirementOperator, given: GivenValues, path: string, issues: PlanIssue[]): void {
  switch (operator) {
    case 'In':
    case 'NotIn':
      checkSetValues(operator, given, path, issues);
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (given.hasValue || given.hasValues)
        issues.push({ path, message: `${operator} takes no value: remove ${given.hasValue ? 'value' : 'values'}, or use In` });
      break;
    case 'Gt':
    case 'Lt':
      checkIntegerValue(operator, given, path, issues);
      break;
  }
}

/** In and NotIn: exactly one of value or values, at least one value, each a label value. */
function checkSetValues(operator: 'In' | 'NotIn', given: GivenValues, path: string, issues: PlanIssue[]): void {
  const { hasValue, hasValues, values } = given;
  if (hasValue && hasValues) {
    issues.push({ path, message: `${operator} takes either value or values, not both: keep one` });
  } else if (!hasValue && !hasValues) {
    issues.push({ path, message: `${operator} needs value (one value or a comma list) or values: add the values to match, or use Exists` });
  } else if (hasValues && values.length === 0 && issues.length === 0) {
    issues.push({
      path: childPath(path, 'values'),
      message: `${operator} needs at least one value: add one, or use ${operator === 'In' ? 'Exists' : 'DoesNotExist'}`,
    });
  }
  for (const v of values) {
    if (v.text === '') {
      issues.push({
        path: v.path,
        message: 'empty value: remove it (a requirement matches property values, not their absence; use DoesNotExist for that)',
      });
      continue;
    }
    const problem = labelValueProblem(v.text);
    if (problem) issues.push({ path: v.path, message: `"${v.text}" is not a valid label value: ${problem}` });
  }
}

/** Gt and Lt: one non-negative integer, given once. */
function checkIntegerValue(operator: 'Gt' | 'Lt', given: GivenValues, path: string, issues: PlanIssue[]): void {
  const { hasValue, hasValues, values } = given;
  if (hasValue && hasValues) {
    issues.push({ path, message: `${operator} takes one integer as value, not both value and values: keep one` });
  } else if (values.length !== 1) {
    issues.push({
      path: hasValues ? childPath(path, 'values') : path,
      message: `${operator} needs exactly one integer, e.g. value: "4" (got ${values.length} values)`,
    });
  } else if (!NON_NEGATIVE_INTEGER.test(values[0].text)) {
    issues.push({ path: values[0].path, message: `${operator} compares integers: "${values[0].text}" is not a non-negative integer; write e.g. "4"` });
  }
}

/** Parses a list of requirements, collecting the issues of all of them. */
export function parseRequirements(inputs: readonly RequirementSpec[] | undefined, path: string): Requirement[] {
  if (inputs === undefined) return [];
  if (!isList(inputs)) throw new MetalsliceError([{ path, message: 'requirements must be a list of {property, operator, value(s)}' }]);
  const issues: PlanIssue[] = [];
  const out: Requirement[] = [];
  inputs.forEach((input, i) => {
    try {
      out.push(parseRequirement(input, childPath(path, i)));
    } catch (e) {
      if (!(e instanceof MetalsliceError)) throw e;
      issues.push(...e.issues);
    }
  });
  if (issues.length > 0) throw new MetalsliceError(issues);
  return out;
}

/** The first requirement a set of offered properties fails, or undefined when all match. */
export function firstUnmet(requirements: readonly Requirement[], properties: ReadonlyMap<string, PropertyOffer>): Requirement | undefined {
  return requirements.find((r) => !r.matches(properties.get(r.key)));
}

/** Whether every requirement matches (vCluster: all requirements must be met). */
export function matchesAll(requirements: readonly Requirement[], properties: ReadonlyMap<string, PropertyOffer>): boolean {
  return firstUnmet(requirements, properties) === undefined;
}
