/**
 * Reading the metalslice config (YAML or JSON) from text or a file, bounded in size, with the files it names
 * (hostsFile inventories, vcluster.yaml files) read and resolved; its shape is judged by config-schema.ts.
 */
import * as path from 'path';
import { Document, LineCounter, parseDocument } from 'yaml';
import { MetalsliceError, PlanIssue, UnreadableInputError } from '../base/errors';
import { AutoNodesSpec, HostSpec, MetalsliceConfig } from './model';
import { CONFIG_API_VERSION, validateConfigShape } from './config-schema';
import { plainJson } from './json-text';
import { checkNesting } from './input-bounds';
import { readInputFile } from './read-file';
import { SourceFile, SourceLocator } from './source-positions';
import { importVclusterAutoNodes } from './vcluster';
import { escapeText, parserMessage } from '../base/excerpt';

/** More than any real config (10,000 hosts inline are ~2 MiB): a bigger file is a mistake or an attack. */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

/**
 * Parses a config from YAML or JSON text (JSON is YAML) and checks its structure against CONFIG_SCHEMA; every
 * problem is thrown at once as a MetalsliceError, syntax errors with their line. `source` names the text in
 * errors (a file path). Files it names (hostsFile, vclusters) are not read: use loadConfigFile for a file.
 */
export function parseConfigText(text: string, source: string): MetalsliceConfig {
  checkConfigSize(text, source);
  return validateConfigShape(parseYamlText(text, source));
}

function checkConfigSize(text: string, source: string): void {
  if (text.length > MAX_CONFIG_BYTES) {
    throw new MetalsliceError([
      {
        path: source,
        message: `the file is ${(text.length / 1024 / 1024).toFixed(1)} MiB, too large for a config (at most ${MAX_CONFIG_BYTES / 1024 / 1024} MiB): move host lists into hostsFile inventories`,
      },
    ]);
  }
}

/**
 * YAML or JSON text as data; any syntax error (a truncated file, a duplicate key, trailing garbage) is thrown as
 * a MetalsliceError at `source:line`, never skipped: a cut-off inventory must not plan on the hosts that survived.
 * JSON without a repeated key is read by JSON.parse (~700 times faster than the YAML parser on a 10,000-VM config
 * or a 1,000-host inventory); anything else (YAML, broken JSON, a repeated key) goes through the YAML parser,
 * whose errors name the line. `located`, when given, gets the parsed document for its positions, so a file is
 * parsed once (after JSON.parse it parses the text itself, only if a problem needs a position).
 */
export function parseYamlText(text: string, source: string, located?: SourceFile): unknown {
  checkNesting(text, source);
  const json = plainJson(text);
  if (json !== undefined) {
    located?.markPlainJson();
    return json.value;
  }
  const lines = new LineCounter();
  const doc = parseYamlDocument(text, source, lines);
  located?.adopt(doc, lines);
  return documentData(doc, source);
}

/** The parsed document of YAML or JSON text, its syntax checked (see parseYamlText); `lines` records line starts. */
function parseYamlDocument(text: string, source: string, lines: LineCounter): Document.Parsed {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    // The first syntax error is the root; the parser's later ones follow from it.
    const e = doc.errors[0];
    const at = e.linePos?.[0];
    throw new MetalsliceError([
      {
        path: `${source}:${at?.line ?? '?'}`,
        message: `${e.code}: ${parserMessage(e.message)}; fix the YAML/JSON syntax`,
        ...(at ? { line: at.line, column: at.col } : {}),
      },
    ]);
  }
  return doc;
}

/** A checked document as data. */
function documentData(doc: Document.Parsed, source: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // The parser accepts some documents it cannot turn into data, such as an alias to no anchor.
    throw new MetalsliceError([{ path: source, message: `${(e as Error).message.split('\n')[0]}; fix the YAML/JSON syntax` }]);
  }
}

/** Reads a config file and inlines every `hostsFile` (relative to the config file) as `hosts`. */
export function loadConfigFile(file: string): MetalsliceConfig {
  return loadConfigSource(file).config;
}

/** A config as read, with what locates its problems in the files they come from. */
export interface LoadedConfig {
  readonly config: MetalsliceConfig;
  /** Puts file, line and column on a problem whose path is in the config or one of its vcluster.yaml files. */
  readonly sources: SourceLocator;
}

/** How a config read from standard input (`-`) is named in messages. */
export const STDIN_NAME = '(stdin)';

/**
 * Reads a config file (`-`: standard input; its relative files are then found from the working directory) and
 * the files it names; every problem thrown carries its file, line and column.
 */
export function loadConfigSource(file: string): LoadedConfig {
  const shown = file === '-' ? STDIN_NAME : file;
  const sources = new SourceLocator();
  try {
    const text = readInputFile(file, 'config');
    const source = new SourceFile(shown, text);
    sources.add('', source);
    checkConfigSize(text, shown);
    const config = withApiVersion(validateConfigShape(parseYamlText(text, shown, source)));
    const dir = file === '-' ? process.cwd() : path.dirname(path.resolve(file));
    const shownDir = file === '-' ? '' : path.dirname(file);
    return { config: resolveVclusterFiles(resolveHostsFiles(config, dir, shownDir), dir, { sources, shownDir }), sources };
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    const located = sources.locateAll(e.issues);
    throw e instanceof UnreadableInputError ? new UnreadableInputError(located) : new MetalsliceError(located);
  }
}

/** A config file without `apiVersion` is read as the current version, and the plan says so. */
function withApiVersion(config: MetalsliceConfig): MetalsliceConfig {
  if (config.apiVersion !== undefined) return config;
  const warning = {
    path: 'apiVersion',
    message: `missing: read as ${CONFIG_API_VERSION}; add \`apiVersion: ${CONFIG_API_VERSION}\` at the top, so a later format change cannot misread this file`,
  };
  return { ...config, apiVersion: CONFIG_API_VERSION, readWarnings: [...(config.readWarnings ?? []), warning] };
}

/** Where vcluster.yaml files are registered for positions, and how their names are shown. */
interface VclusterSources {
  readonly sources: SourceLocator;
  /** The config file's directory as given: a vcluster file is shown relative to where metalslice runs. */
  readonly shownDir: string;
}

/** Reads every `vclusters[].file` and appends its `privateNodes.autoNodes` to `autoNodes`, as vCluster would plan it. */
export function resolveVclusterFiles(config: MetalsliceConfig, baseDir: string, located?: VclusterSources): MetalsliceConfig {
  if (!config.vclusters || config.vclusters.length === 0) return config;
  const issues: PlanIssue[] = [];
  const warnings: PlanIssue[] = [];
  const imported: AutoNodesSpec[] = [];
  let unreadable = false;
  config.vclusters.forEach((v, i) => {
    const text = captureUnreadable(issues, () => readInputFile(path.resolve(baseDir, v.file), 'vcluster', `vclusters[${i}].file`));
    if (text === undefined) {
      unreadable = true;
      return;
    }
    located?.sources.add(v.file, new SourceFile(path.isAbsolute(v.file) ? v.file : path.join(located.shownDir, v.file), text));
    const result = importVclusterAutoNodes(text, {
      cluster: v.cluster,
      quota: v.quota,
      quotaByProvider: v.quotaByProvider,
      providers: config.nodeProviders,
      pathPrefix: v.file,
    });
    issues.push(...result.issues);
    warnings.push(...result.warnings);
    result.autoNodes.forEach((entry, k) => imported.push({ ...entry, source: result.sourcePaths[k] }));
  });
  if (issues.length > 0) throw unreadable ? new UnreadableInputError(issues) : new MetalsliceError(issues);
  return { ...config, autoNodes: [...(config.autoNodes ?? []), ...imported], readWarnings: [...(config.readWarnings ?? []), ...warnings] };
}

/** The inventory file written by `metalslice inventory`. */
export interface InventoryFile {
  readonly hosts: readonly HostSpec[];
}

/** A file's text, or undefined with its UnreadableInputError's issues added to `issues`. */
function captureUnreadable(issues: PlanIssue[], read: () => string): string | undefined {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof UnreadableInputError)) throw e;
    issues.push(...e.issues);
    return undefined;
  }
}

/**
 * The hosts of an inventory file (`metalslice inventory` output); a syntax error anywhere in it refuses the whole
 * file. `at` is the config path that names it (`fleets[0].hostsFile`), `shown` the file as messages name it: a
 * syntax error is placed in the inventory (its line and column), never at that line of the config.
 */
export function readInventoryFile(file: string, at: string, shown: string = file): readonly HostSpec[] {
  const text = readInputFile(file, 'hostsFile', at);
  let parsed: unknown;
  try {
    parsed = parseYamlText(text, shown);
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    const issues = e.issues.map((i) => ({ ...i, path: at, file: shown, message: `in hosts file ${escapeText(shown)}: ${i.message}` }));
    throw e instanceof UnreadableInputError ? new UnreadableInputError(issues) : new MetalsliceError(issues);
  }
  const wrapped = inventoryShape(parsed, at, shown);
  if (!Array.isArray((parsed as InventoryFile | null)?.hosts)) {
    throw new MetalsliceError([{ path: at, message: `hosts file ${escapeText(shown)} has no "hosts" list: write it with \`metalslice inventory\`` }]);
  }
  return wrapped.fleets![0].hosts!;
}

/** The inventory's hosts judged as a fleet's; a list past its bound is named in the hosts file, at the config path. */
function inventoryShape(parsed: unknown, at: string, shown: string): MetalsliceConfig {
  try {
    return validateConfigShape({ fleets: [{ name: 'inventory', hosts: (parsed as InventoryFile | null)?.hosts ?? [] }] });
  } catch (e) {
    if (!(e instanceof UnreadableInputError)) throw e;
    throw new UnreadableInputError(
      e.issues.map((i) => ({ ...i, path: at, file: shown, message: `in hosts file ${escapeText(shown)}: the hosts list ${i.message}` })),
    );
  }
}

/** Inlines every `hostsFile` (relative to `baseDir`) as `hosts`; `shownDir`: the config's directory as given, for messages. */
export function resolveHostsFiles(config: MetalsliceConfig, baseDir: string, shownDir: string = baseDir): MetalsliceConfig {
  const issues: PlanIssue[] = [];
  let unreadable = false;
  const load = <T extends { hosts?: readonly HostSpec[]; hostsFile?: string }>(item: T, at: string): T => {
    if (item.hostsFile === undefined) return item;
    if (item.hosts !== undefined) {
      issues.push({ path: `${at}.hostsFile`, message: 'give either hosts or hostsFile, not both' });
      return item;
    }
    try {
      const shown = path.isAbsolute(item.hostsFile) ? item.hostsFile : path.join(shownDir, item.hostsFile);
      const hosts = readInventoryFile(path.resolve(baseDir, item.hostsFile), `${at}.hostsFile`, shown);
      return { ...item, hosts };
    } catch (e) {
      if (!(e instanceof MetalsliceError)) throw e;
      issues.push(...e.issues);
      unreadable ||= e instanceof UnreadableInputError;
      return item;
    }
  };
  const out: MetalsliceConfig = {
    ...config,
    fleets: config.fleets?.map((f, i) => load(f, `fleets[${i}]`)),
    nodeProviders: config.nodeProviders?.map((p, i) => load(p, `nodeProviders[${i}]`)),
  };
  if (issues.length > 0) throw unreadable ? new UnreadableInputError(issues) : new MetalsliceError(issues);
  return out;
}
