/**
 * Bounds on the shape of an input before the work on it: how deep a text nests, found by one scan before any
 * parser sees it (parsers and position lookups recurse once per level, so a 10 KB file of brackets overflowed
 * the stack), and how long the lists of a parsed config are, before the schema judges every item (a 2 MB
 * config of 700,000 empty fleets collected 700,000 problems in 2 GiB).
 */
import { MAX_CONFIG_LIST_ITEMS, MAX_HOSTS_PER_FLEET, MAX_NESTING_DEPTH } from '../base/bounds';
import { childPath, PlanIssue, UnreadableInputError } from '../base/errors';

/** What one scan of a text finds: its deepest nesting and how many lists and maps it opens. */
interface Shape {
  readonly deepest: number;
  readonly containers: number;
}

/**
 * The deepest nesting of JSON or YAML flow collections in `text` and how many it opens (brackets in
 * double-quoted strings skipped), stopping as soon as either passes its limit. A YAML plain scalar holding a
 * bracket may count one level too many: the bounds are far above any real file, so that never refuses one.
 */
export function textShape(text: string, maxDepth = MAX_NESTING_DEPTH, maxContainers = Infinity): Shape {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  for (let i = 0; i < text.length && deepest <= maxDepth && containers <= maxContainers; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      deepest = Math.max(deepest, ++depth);
      containers++;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth = Math.max(0, depth - 1);
    else if (c === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22 && text.charCodeAt(i) !== 0x0a; i++) if (text.charCodeAt(i) === 0x5c /* \ */) i++;
    }
  }
  return { deepest, containers };
}

/**
 * Throws an UnreadableInputError (exit 2: nothing is planned or written) at `source` when `text` nests deeper
 * than MAX_NESTING_DEPTH or, with `maxContainers`, opens more lists and maps than that: checked before any
 * parser builds them. `what` names the kind of file (`a plan`).
 */
export function checkTextShape(text: string, source: string, maxContainers = Infinity, what = 'a config, inventory or plan'): void {
  const shape = textShape(text, MAX_NESTING_DEPTH, maxContainers);
  const deep = shape.deepest > MAX_NESTING_DEPTH;
  if (!deep && shape.containers <= maxContainers) return;
  const message = deep
    ? `nests lists and maps more than ${MAX_NESTING_DEPTH} deep, more than ${what} ever does: check the file`
    : `holds more than ${maxContainers.toLocaleString('en-US')} lists and maps, more than ${what} within metalslice's bounds: check the file`;
  throw new UnreadableInputError([{ path: source, message }]);
}

/** Throws when `text` nests deeper than MAX_NESTING_DEPTH (see checkTextShape). */
export function checkNesting(text: string, source: string): void {
  checkTextShape(text, source);
}

/** The config's lists of hosts: a fleet's and a Metal3 provider's (an inventory is read as a fleet). */
const HOST_LISTS = ['fleets', 'nodeProviders'];

/** A list at `path` longer than `max`, as the problem that names the bound. */
function tooLong(path: string, items: number, max: number, what: string): PlanIssue {
  return {
    path,
    message: `has ${items.toLocaleString('en-US')} items, more than the ${max.toLocaleString('en-US')} ${what} metalslice plans: split the config, or check the file`,
  };
}

/**
 * Throws an UnreadableInputError naming every top-level list of `data` longer than MAX_CONFIG_LIST_ITEMS and
 * every host list longer than MAX_HOSTS_PER_FLEET, before the schema looks at a single item.
 */
export function checkListSizes(data: unknown): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const issues: PlanIssue[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (!Array.isArray(value)) continue;
    if (value.length > MAX_CONFIG_LIST_ITEMS) {
      issues.push(tooLong(childPath('', key), value.length, MAX_CONFIG_LIST_ITEMS, 'items of a list'));
      continue;
    }
    if (!HOST_LISTS.includes(key)) continue;
    value.forEach((item: unknown, i) => {
      const hosts = (item as { hosts?: unknown } | null)?.hosts;
      if (Array.isArray(hosts) && hosts.length > MAX_HOSTS_PER_FLEET)
        issues.push(tooLong(childPath(childPath(childPath('', key), i), 'hosts'), hosts.length, MAX_HOSTS_PER_FLEET, 'hosts of a fleet or provider'));
    });
  }
  if (issues.length > 0) throw new UnreadableInputError(issues);
}
