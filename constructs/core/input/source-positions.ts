/**
 * Where in a file a problem is: the one owner of turning a config path (`nodePools[0].count`) back into the
 * line and column of a YAML or JSON file, from the YAML parser's own node ranges. Annotations in a pull request
 * (GitHub's `::error file=…,line=…`) and editors need the position; the path stays the name of the problem.
 */
import { Node as JsonNode, parseTree } from 'jsonc-parser';
import { isMap, isSeq, LineCounter, Node, parseDocument, Document } from 'yaml';
import type { PlanIssue } from '../base/errors';

/** A position in a file: the file as given (relative to where metalslice runs), the line and column, from 1. */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One step of a config path: a map key or a list index. */
export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*/;
const QUOTED_KEY = /^\["((?:[^"\\]|\\.)*)"\]/;
const INDEX = /^\[(\d+)\]/;

/** A quoted key as childPath writes it (JSON-style escapes); undefined when it was cut to an excerpt. */
function unquote(raw: string): string | undefined {
  try {
    const key = JSON.parse(`"${raw}"`) as string;
    return key.endsWith('…') ? undefined : key;
  } catch {
    return undefined;
  }
}

/**
 * The segments of a config path as `childPath` writes it: `quotas[1].limits["nvidia.com/gpu"]` is
 * `quotas`, 1, `limits`, `nvidia.com/gpu`. Parsing stops at what is not a path (a construct path, `(config)`):
 * the segments read so far are returned, so a position is still found for the part that is a path.
 */
export function parseConfigPath(text: string): PathSegment[] {
  const out: PathSegment[] = [];
  let rest = text;
  while (rest !== '') {
    const dot = out.length > 0 && rest.startsWith('.') ? 1 : 0;
    const plain = PLAIN_KEY.exec(rest.slice(dot));
    const quoted = QUOTED_KEY.exec(rest);
    const index = INDEX.exec(rest);
    if (plain && (dot === 1 || out.length === 0)) {
      out.push(plain[0]);
      rest = rest.slice(dot + plain[0].length);
    } else if (index) {
      out.push(Number(index[1]));
      rest = rest.slice(index[0].length);
    } else if (quoted) {
      const key = unquote(quoted[1]);
      if (key === undefined) break;
      out.push(key);
      rest = rest.slice(quoted[0].length);
    } else break;
  }
  return out;
}

/** A parsed YAML/JSON file that answers where a path is. */
export class SourceFile {
  private parsed?: { readonly doc: Document.Parsed; readonly lines: LineCounter };
  private json?: { readonly root: JsonNode | undefined; readonly lines: LineCounter };
  private plainJson = false;

  /**
   * @param file the file as shown in messages and annotations
   * @param text its text, parsed for positions only when a problem needs one (or handed over with `adopt`)
   */
  constructor(
    readonly file: string,
    private readonly text: string,
  ) {}

  /** Uses the document the reader already parsed from this text with `lines`, so a file is parsed once. */
  adopt(doc: Document.Parsed, lines: LineCounter): void {
    this.parsed = { doc, lines };
  }

  /**
   * The reader took the text as plain JSON (JSON.parse, no repeated key): positions then come from a JSON
   * parser's tree, some 30 times faster than the YAML parser's on a 10,000-VM config, with the same answers.
   */
  markPlainJson(): void {
    this.plainJson = true;
  }

  private document(): { readonly doc: Document.Parsed; readonly lines: LineCounter } {
    if (!this.parsed) {
      const lines = new LineCounter();
      this.parsed = { doc: parseDocument(this.text, { lineCounter: lines, uniqueKeys: false }), lines };
    }
    return this.parsed;
  }

  private jsonTree(): { readonly root: JsonNode | undefined; readonly lines: LineCounter } {
    if (!this.json) {
      // A LineCounter takes the offset where each line starts, the first included.
      const lines = new LineCounter();
      lines.addNewLine(0);
      for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
      this.json = { root: parseTree(this.text), lines };
    }
    return this.json;
  }

  /** Line and column of a character offset. */
  at(offset: number): SourcePosition {
    const p = (this.plainJson && !this.parsed ? this.jsonTree() : this.document()).lines.linePos(offset);
    return { file: this.file, line: p.line, column: p.col };
  }

  /**
   * Where `segments` is: a map entry's key, a list item's start. A path that does not exist in the file (a
   * missing required field, a default) is placed at the nearest part of it that does.
   */
  position(segments: readonly PathSegment[]): SourcePosition {
    if (this.plainJson && !this.parsed) return this.at(jsonOffset(this.jsonTree().root, segments));
    const { doc } = this.document();
    let node: unknown = doc.contents;
    let offset = (doc.contents as Node | null)?.range?.[0] ?? 0;
    for (const segment of segments) {
      const step = childNode(node, segment);
      if (!step) break;
      node = step.node;
      offset = step.offset;
    }
    return this.at(offset);
  }
}

/** The offset of the nearest existing part of `segments` in a JSON tree: an entry's key, an item's start. */
function jsonOffset(root: JsonNode | undefined, segments: readonly PathSegment[]): number {
  let node = root;
  let offset = root?.offset ?? 0;
  for (const segment of segments) {
    if (node?.type === 'array' && typeof segment === 'number') {
      const item = node.children?.[segment];
      if (!item) break;
      [node, offset] = [item, item.offset];
    } else if (node?.type === 'object') {
      // Plain JSON names a key once in an object.
      const property = node.children?.find((p) => p.children?.[0]?.value === String(segment));
      if (!property?.children?.[0]) break;
      [node, offset] = [property.children[1], property.children[0].offset];
    } else break;
  }
  return offset;
}

/** The child of a YAML map or list at `segment`, and the offset that names it (the key in a map). */
function childNode(node: unknown, segment: PathSegment): { node: unknown; offset: number } | undefined {
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment] as Node | undefined;
    return item?.range ? { node: item, offset: item.range[0] } : undefined;
  }
  if (isMap(node)) {
    const pair = node.items.find((p) => String((p.key as { value?: unknown } | null)?.value) === String(segment));
    const key = pair?.key as Node | null | undefined;
    return pair && key?.range ? { node: pair.value, offset: key.range[0] } : undefined;
  }
  return undefined;
}

/**
 * Puts file, line and column on problems, for every file read: the config at the empty prefix, and each
 * vcluster.yaml at the prefix its paths start with. A problem that already has a position keeps it.
 */
export class SourceLocator {
  private readonly sources: { prefix: string; source: SourceFile }[] = [];

  /** Problems whose path starts with `prefix` (`''`: every other problem) are located in `source`. */
  add(prefix: string, source: SourceFile): void {
    this.sources.push({ prefix, source });
    this.sources.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** `issue` with its position, when a file it belongs to was read. */
  locate(issue: PlanIssue): PlanIssue {
    if (issue.file !== undefined && issue.line !== undefined) return issue;
    const match = this.sources.find(
      ({ prefix }) =>
        prefix === '' || (issue.path.startsWith(prefix) && (issue.path.length === prefix.length || /^[.[:]/.test(issue.path.slice(prefix.length)))),
    );
    if (!match) return issue;
    if (issue.line !== undefined) return { ...issue, file: match.source.file };
    const rest = issue.path.slice(match.prefix.length).replace(/^\./, '');
    const p = match.source.position(parseConfigPath(rest));
    return { ...issue, file: p.file, line: p.line, column: p.column };
  }

  /** Every issue located. */
  locateAll(issues: readonly PlanIssue[]): PlanIssue[] {
    return issues.map((i) => this.locate(i));
  }
}

/** Where an autoNodes entry and its pools were written (a vcluster.yaml's paths). */
export interface AutoNodesSourcePath {
  /** Path of the entry. */
  readonly entry: string;
  /** Paths of its static pools, in order. @default - `<entry>.static[j]` */
  readonly static?: readonly string[];
  /** Paths of its dynamic pools, in order. @default - `<entry>.dynamic[j]` */
  readonly dynamic?: readonly string[];
}
