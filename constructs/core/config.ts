/**
 * Reading the metalslice config (YAML or JSON): structure is checked by a JSON Schema, so every typo is
 * reported with its path (`quotas[1].limits.memory`) before the planner looks at meaning.
 */
import * as path from 'path';
import Ajv, { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { createHash } from 'crypto';
import { Document, LineCounter, parseDocument } from 'yaml';
import { MetalsliceError, PlanIssue, UnreadableInputError } from './errors';
import { AutoNodesSpec, ConfigApiVersion, HostSpec, MetalsliceConfig, TAINT_EFFECTS } from './model';
import { REQUIREMENT_OPERATORS } from './requirements';
import {
  MAX_CPU_ALLOCATION_RATIO,
  MAX_HOST_NAME_CHARS,
  MAX_HOSTS_PER_FLEET,
  MAX_LIVE_MIGRATIONS,
  MAX_MEMORY_OVERCOMMIT_PERCENT,
  MAX_NODES_PER_POOL,
  MAX_PODS_PER_HOST,
  MAX_PREVIEW_PODS,
  MAX_TOTAL_NODES,
  MAX_VCPU_TOPOLOGY,
} from './limits';
import { plainJson } from './json-text';
import { readInputFile } from './read-file';
import { SourceFile, SourceLocator } from './source-positions';
import { importVclusterAutoNodes } from './vcluster';
import { didYouMean, schemaValueMessage } from './schema-messages';
import { excerpt, parserMessage, pathKey } from './excerpt';

const quantity = { type: ['string', 'number'], maxLength: 64 } as const;
const resources = { type: 'object', additionalProperties: quantity } as const;
const labels = { type: 'object', additionalProperties: { type: 'string' } } as const;
const name = { type: 'string' } as const;
const taint = {
  type: 'object',
  required: ['key', 'effect'],
  additionalProperties: false,
  properties: { key: name, value: { type: 'string' }, effect: { enum: TAINT_EFFECTS } },
} as const;
const requirement = {
  type: 'object',
  required: ['property'],
  additionalProperties: false,
  properties: {
    property: name,
    // vCluster reads an empty operator as In.
    operator: { enum: ['', ...REQUIREMENT_OPERATORS] },
    value: { type: 'string' },
    values: { type: 'array', items: { type: 'string' } },
  },
} as const;
const hostPods = {
  type: 'object',
  required: ['count', 'requests'],
  additionalProperties: false,
  properties: {
    count: { type: 'integer', minimum: 0, maximum: MAX_PODS_PER_HOST },
    requests: resources,
    virtHandler: { type: 'boolean' },
    virtualMachines: {
      type: 'array',
      maxItems: MAX_PODS_PER_HOST,
      items: { type: 'object', required: ['name', 'requests'], additionalProperties: false, properties: { name, requests: resources } },
    },
  },
} as const;
const host = {
  type: 'object',
  required: ['name', 'capacity'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: MAX_HOST_NAME_CHARS },
    labels,
    capacity: resources,
    allocatable: resources,
    taints: { type: 'array', items: taint },
    unschedulable: { type: 'boolean' },
    ready: { type: 'boolean' },
    pods: hostPods,
    state: { type: 'string' },
    consumer: { type: 'string' },
    errorMessage: { type: 'string' },
  },
} as const;
const count = { type: 'integer', minimum: 0, maximum: MAX_NODES_PER_POOL } as const;
const hostList = { type: 'array', maxItems: MAX_HOSTS_PER_FLEET, items: host } as const;
const vmOptions = {
  type: 'object',
  additionalProperties: false,
  properties: {
    dedicatedCpus: { type: 'boolean' },
    isolateEmulatorThread: { type: 'boolean' },
    hugepages: { enum: ['2Mi', '1Gi'] },
    ioThreads: { type: 'integer', minimum: 1, maximum: 64 },
    serialConsoleLog: { type: 'boolean' },
    graphics: { type: 'boolean' },
    sockets: { type: 'integer', minimum: 1, maximum: MAX_VCPU_TOPOLOGY },
    threads: { type: 'integer', minimum: 1, maximum: MAX_VCPU_TOPOLOGY },
    deviceKinds: { type: 'object', additionalProperties: { enum: ['gpu', 'hostDevice'] } },
    evictionStrategy: { enum: ['LiveMigrate', 'LiveMigrateIfPossible', 'External', 'None'] },
  },
} as const;
const selector = {
  type: 'object',
  additionalProperties: false,
  properties: {
    matchLabels: labels,
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        additionalProperties: false,
        properties: { key: name, operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] }, values: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
} as const;

/** The config format this release writes and reads (`apiVersion:`); absent is read as this, with a warning. */
export const CONFIG_API_VERSION: ConfigApiVersion = 'metalslice.io/v1alpha1';

/** The JSON Schema (draft-07, as Ajv reads it) of the config: exported so editors and other tools can validate a config file with it. */
export const CONFIG_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    apiVersion: { enum: [CONFIG_API_VERSION] },
    $schema: { type: 'string' },
    fleets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name,
          reservedPerHost: resources,
          hosts: hostList,
          hostsFile: { type: 'string' },
          cpuAllocationRatio: { type: 'number', exclusiveMinimum: 0, maximum: MAX_CPU_ALLOCATION_RATIO },
          memoryOvercommit: { type: 'integer', minimum: 10, maximum: MAX_MEMORY_OVERCOMMIT_PERCENT },
          serialConsoleLog: { type: 'boolean' },
          podsPerHost: { type: 'integer', minimum: 1, maximum: MAX_PODS_PER_HOST },
          requireHostFailureHeadroom: { type: 'boolean' },
          permittedHostDevices: {
            type: 'array',
            items: {
              type: 'object',
              required: ['resourceName', 'pciVendorSelector'],
              additionalProperties: false,
              properties: {
                resourceName: { type: 'string' },
                pciVendorSelector: { type: 'string', pattern: '^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$' },
                externalResourceProvider: { type: 'boolean' },
              },
            },
          },
          namespace: name,
          hostSelector: labels,
        },
      },
    },
    quotas: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'fleet', 'organization', 'limits'],
        additionalProperties: false,
        properties: {
          name,
          fleet: name,
          organization: name,
          limits: resources,
          maxVirtualMachines: { type: 'integer', minimum: 0, maximum: MAX_TOTAL_NODES },
          namespace: name,
          consumers: { type: 'array', items: { type: 'string' } },
          allowSystemConsumers: { type: 'boolean' },
          liveMigrations: { type: 'integer', minimum: 0, maximum: MAX_LIVE_MIGRATIONS },
        },
      },
    },
    clusters: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'endpoint', 'caCertificate'],
        additionalProperties: false,
        properties: {
          name,
          endpoint: { type: 'string' },
          caCertificate: { type: 'string' },
          kubernetesVersion: { type: 'string', pattern: '^1\\.[0-9]+$' },
          kubeconfigPath: { type: 'string' },
          kubeconfigContext: { type: 'string' },
        },
      },
    },
    nodePools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'quota', 'cluster', 'shape', 'count'],
        additionalProperties: false,
        properties: {
          name,
          quota: name,
          cluster: name,
          shape: resources,
          count,
          placement: { enum: ['spread', 'planned'] },
          image: { type: 'string' },
          rootDisk: { enum: ['containerDisk', 'dataVolume'] },
          labels,
          taints: { type: 'array', items: taint },
          nodeType: name,
          vm: vmOptions,
        },
      },
    },
    nodeProviders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'kind', 'nodeTypes'],
        additionalProperties: false,
        properties: {
          name,
          kind: { enum: ['kubevirt', 'metal3', 'terraform'] },
          fleet: name,
          hosts: hostList,
          hostsFile: { type: 'string' },
          hostNamespace: name,
          properties: labels,
          nodeTemplate: {
            type: 'object',
            additionalProperties: false,
            properties: {
              git: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  repository: { type: 'string' },
                  branch: { type: 'string' },
                  commit: { type: 'string' },
                  tag: { type: 'string' },
                  subPath: { type: 'string' },
                },
              },
              inline: { type: 'string' },
            },
          },
          nodeTypes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name'],
              additionalProperties: false,
              properties: {
                name,
                resources,
                properties: labels,
                zone: { type: 'string' },
                cost: { type: 'number', minimum: 0 },
                maxCapacity: count,
                hostSelector: selector,
                vm: vmOptions,
              },
            },
          },
        },
      },
    },
    autoNodes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['cluster', 'provider'],
        additionalProperties: false,
        properties: {
          cluster: name,
          provider: name,
          quota: name,
          properties: labels,
          defaultProfile: name,
          static: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'quantity'],
              additionalProperties: false,
              properties: {
                name,
                quantity: count,
                requirements: { type: 'array', items: requirement },
                nodeTypeSelector: { type: 'array', items: requirement },
                resources,
                taints: { type: 'array', items: taint },
                nodeLabels: labels,
                profile: name,
                terminationGracePeriod: { type: 'string' },
              },
            },
          },
          dynamic: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name'],
              additionalProperties: false,
              properties: {
                name,
                requirements: { type: 'array', items: requirement },
                nodeTypeSelector: { type: 'array', items: requirement },
                limits: resources,
                taints: { type: 'array', items: taint },
                nodeLabels: labels,
                disruption: {
                  type: 'object',
                  additionalProperties: false,
                  properties: {
                    consolidationPolicy: { enum: ['WhenEmpty', 'WhenEmptyOrUnderutilized'] },
                    consolidateAfter: { type: 'string' },
                    budgets: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['nodes'],
                        additionalProperties: false,
                        properties: {
                          nodes: { type: 'string' },
                          schedule: { type: 'string' },
                          duration: { type: 'string' },
                          reasons: { type: 'array', items: { enum: ['Underutilized', 'Empty', 'Drifted'] } },
                        },
                      },
                    },
                  },
                },
                expireAfter: { type: 'string' },
                terminationGracePeriod: { type: 'string' },
                weight: { type: 'integer', minimum: 1, maximum: 100 },
                profile: name,
                autoscaler: { enum: ['karpenter', 'cluster-api'] },
                minNodes: count,
                preview: {
                  type: 'object',
                  required: ['pods'],
                  additionalProperties: false,
                  properties: {
                    pods: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['resources', 'count'],
                        additionalProperties: false,
                        properties: { resources, count: { type: 'integer', minimum: 1, maximum: MAX_PREVIEW_PODS } },
                      },
                    },
                    nodeOverhead: resources,
                  },
                },
              },
            },
          },
        },
      },
    },
    vclusters: {
      type: 'array',
      items: {
        type: 'object',
        required: ['cluster', 'file'],
        additionalProperties: false,
        properties: { cluster: name, file: { type: 'string' }, quota: name, quotaByProvider: labels },
      },
    },
    nodeProfiles: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name, nodeLabels: labels, taints: { type: 'array', items: taint }, startupTaints: { type: 'array', items: taint } },
      },
    },
    osImages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'properties'],
        additionalProperties: false,
        properties: { name, properties: labels },
      },
    },
    privateNodePools: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'cluster', 'provider', 'nodeType', 'count', 'image'],
        additionalProperties: false,
        properties: {
          name,
          cluster: name,
          provider: name,
          nodeType: name,
          count,
          image: {
            type: 'object',
            required: ['url', 'checksum'],
            additionalProperties: false,
            properties: {
              url: { type: 'string' },
              checksum: { type: 'string' },
              checksumType: { enum: ['md5', 'sha256', 'sha512'] },
              format: { enum: ['raw', 'qcow2', 'vdi', 'vmdk', 'live-iso'] },
            },
          },
          labels,
          taints: { type: 'array', items: taint },
        },
      },
    },
  },
} as const;

/** How the config schema is compiled, at run time or ahead of it (scripts/config-validator.mjs). */
export const CONFIG_AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true, verbose: true } as const;

/** The schema's fingerprint: a validator compiled ahead of time is used only for the schema it was compiled from. */
export function configSchemaHash(): string {
  return createHash('sha256').update(JSON.stringify(CONFIG_SCHEMA)).digest('hex');
}

let compiled: ValidateFunction | undefined;

/**
 * The config validator. The build compiles it ahead of time into config-validator.js beside this file (Ajv's
 * standalone code): compiling the schema takes ~0.3 s, a third of a 10,000-VM plan. Without that file (tests
 * run from source) or with a stale one, the schema is compiled here.
 */
function validator(): ValidateFunction {
  compiled ??= precompiledValidator() ?? new Ajv(CONFIG_AJV_OPTIONS).compile(CONFIG_SCHEMA);
  return compiled;
}

function precompiledValidator(): ValidateFunction | undefined {
  let built: { schemaHash?: unknown; validate?: ValidateFunction };
  try {
    // A build artifact that may be absent: a static import would not compile from source.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    built = require('./config-validator.js') as typeof built;
  } catch {
    return undefined;
  }
  return built.schemaHash === configSchemaHash() && typeof built.validate === 'function' ? built.validate : undefined;
}

/** `/quotas/1/limits/memory` -> `quotas[1].limits.memory` (keys with dots or slashes are quoted). */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '(config)';
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => {
      if (/^\d+$/.test(part)) return `${acc}[${part}]`;
      if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(part)) return acc === '' ? part : `${acc}.${part}`;
      return `${acc}["${pathKey(part)}"]`;
    }, '');
}

function describe(error: ErrorObject): PlanIssue {
  const at = pointerToPath(error.instancePath);
  const plain = (key: string) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key);
  const join = (key: string) => (at === '(config)' ? (plain(key) ? key : `["${pathKey(key)}"]`) : plain(key) ? `${at}.${key}` : `${at}["${pathKey(key)}"]`);
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const guess = didYouMean(key, Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {}));
      return {
        path: join(key),
        message: `unknown field ${excerpt(key)}: ${guess !== undefined ? `did you mean "${guess}"?` : 'remove it or check its spelling'}`,
      };
    }
    case 'required': {
      const key = String((error.params as { missingProperty: string }).missingProperty);
      return { path: join(key), message: `missing required field "${key}"` };
    }
    default:
      return { path: at, message: schemaValueMessage(error) };
  }
}

/** Checks the structure of a parsed config; throws MetalsliceError listing every problem. */
export function validateConfigShape(data: unknown): MetalsliceConfig {
  const validate = validator();
  if (data === null || data === undefined || (typeof data === 'object' && !Array.isArray(data) && Object.keys(data).length === 0)) {
    throw new MetalsliceError([
      { path: '(config)', message: 'the config is empty: declare at least a fleet, quotas and node pools (see examples/metalslice.yaml)' },
    ]);
  }
  if (!validate(data)) {
    const seen = new Set<string>();
    const issues = (validate.errors ?? []).map(describe).filter((i) => {
      const key = `${i.path}\u0000${i.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    throw new MetalsliceError(issues);
  }
  return data;
}

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
    return { config: resolveVclusterFiles(resolveHostsFiles(config, dir), dir, { sources, shownDir }), sources };
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

/** The hosts of an inventory file (`metalslice inventory` output); a syntax error anywhere in it refuses the whole file. */
export function readInventoryFile(file: string, at: string): readonly HostSpec[] {
  const parsed = parseYamlText(readInputFile(file, 'hostsFile', at), at);
  const wrapped = validateConfigShape({ fleets: [{ name: 'inventory', hosts: (parsed as InventoryFile | null)?.hosts ?? [] }] });
  if (!Array.isArray((parsed as InventoryFile | null)?.hosts)) {
    throw new MetalsliceError([{ path: at, message: `hosts file ${file} has no "hosts" list: write it with \`metalslice inventory\`` }]);
  }
  return wrapped.fleets![0].hosts!;
}

export function resolveHostsFiles(config: MetalsliceConfig, baseDir: string): MetalsliceConfig {
  const issues: PlanIssue[] = [];
  let unreadable = false;
  const load = <T extends { hosts?: readonly HostSpec[]; hostsFile?: string }>(item: T, at: string): T => {
    if (item.hostsFile === undefined) return item;
    if (item.hosts !== undefined) {
      issues.push({ path: `${at}.hostsFile`, message: 'give either hosts or hostsFile, not both' });
      return item;
    }
    try {
      const hosts = readInventoryFile(path.resolve(baseDir, item.hostsFile), `${at}.hostsFile`);
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
