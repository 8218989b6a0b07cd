/**
 * Problems found while validating or planning. Every problem names where it is (a config path such as
 * `quotas[1].limits.memory` or a construct path) and says how to fix it.
 */
import { pathKey } from './excerpt';
import { MAX_LISTED_PROBLEMS } from './bounds';

/** One problem: where it is, and what is wrong with the fix. */
export interface PlanIssue {
  /** Where: a config path (`nodePools[0].count`) or a construct path (`provider/fra1/team-a`). */
  readonly path: string;
  /** What is wrong, the offending value, and the fix. */
  readonly message: string;
  /** The file the path is in, as given (a config or a vcluster.yaml). @default - not from a file (construct props) */
  readonly file?: string;
  /** Line of the path in `file`, from 1. @default - not from a file */
  readonly line?: number;
  /** Column of the path in `file`, from 1. @default - not from a file */
  readonly column?: number;
}

/** `file:line:column: path` when the problem has a position, else the path: how text output names a problem. */
export function issueWhere(issue: PlanIssue): string {
  if (issue.file === undefined) return issue.path;
  const at = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
  // A syntax error's path is already `file:line`: the position says it all.
  const bare = issue.path === issue.file || (issue.line !== undefined && issue.path.endsWith(`:${issue.line}`));
  return bare ? at : `${at}: ${issue.path}`;
}

/** Thrown for invalid input; carries every problem found, not only the first. */
export class MetalsliceError extends Error {
  /** @param issues every problem found, each at its path and with the fix */
  constructor(readonly issues: readonly PlanIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
    this.name = 'MetalsliceError';
  }
}

/** A file that could not be read at all (missing, a directory, no permission): a usage error, exit code 2. */
export class UnreadableInputError extends MetalsliceError {
  constructor(issues: readonly PlanIssue[]) {
    super(issues);
    this.name = 'UnreadableInputError';
  }
}

/** Runs `fn`; a thrown MetalsliceError's issues go into `issues` and the result is undefined. */
export function captureInto<T>(issues: PlanIssue[], fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    issues.push(...e.issues);
    return undefined;
  }
}

/** The first MAX_LISTED_PROBLEMS of `issues`, and a last one saying how many more there are (`uncounted`: more not in the list). */
export function listedProblems(issues: readonly PlanIssue[], uncounted = 0): readonly PlanIssue[] {
  if (issues.length <= MAX_LISTED_PROBLEMS && uncounted === 0) return issues;
  const more = issues.length - Math.min(issues.length, MAX_LISTED_PROBLEMS) + uncounted;
  return [
    ...issues.slice(0, MAX_LISTED_PROBLEMS),
    {
      path: '(config)',
      message: `and ${more.toLocaleString('en-US')} more problems, not listed (at most ${MAX_LISTED_PROBLEMS} are): fix these and run again`,
    },
  ];
}

/** Collects problems so that a run reports all of them at once. */
export class IssueCollector {
  private readonly list: PlanIssue[] = [];
  /** Problems past MAX_LISTED_PROBLEMS: counted, not kept. */
  private more = 0;

  add(path: string, message: string): void {
    if (this.list.length < MAX_LISTED_PROBLEMS) this.list.push({ path, message });
    else this.more++;
  }

  /** The problems, at most MAX_LISTED_PROBLEMS of them and a last one saying how many more. */
  get issues(): readonly PlanIssue[] {
    return listedProblems(this.list, this.more);
  }

  get ok(): boolean {
    return this.list.length === 0;
  }

  /** Runs `fn`, turning a thrown MetalsliceError into collected issues; returns undefined on failure. */
  capture<T>(fn: () => T): T | undefined {
    return captureInto(this.list, fn);
  }
}

/** Joins a base path and a key the way config paths are written: `a.b`, `a[2]`, `a["nvidia.com/gpu"]`. */
export function childPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key);
  const part = plain ? key : `["${pathKey(key)}"]`;
  if (base === '') return plain ? key : part;
  return plain ? `${base}.${key}` : `${base}${part}`;
}

/**
 * Whether a typed list from user input really is a list (a config can hold anything where the type says list).
 * Unlike `Array.isArray`, it keeps the element type instead of widening it to `any`.
 */
export function isList<T>(value: readonly T[] | undefined): value is readonly T[] {
  return Array.isArray(value);
}
