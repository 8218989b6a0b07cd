/**
 * The config's shape, as a JSON Schema: every typo is reported with its path (`quotas[1].limits.memory`)
 * before the planner looks at meaning. The schema's bounds are base/bounds.ts's; the build compiles the schema
 * ahead of time (scripts/config-validator.mjs), and config.ts reads files and hands their data here.
 */
import Ajv, { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { createHash } from 'crypto';
import { listedProblems, MetalsliceError, PlanIssue } from '../base/errors';
import { checkListSizes } from './input-bounds';
import { ConfigApiVersion, MetalsliceConfig, TAINT_EFFECTS } from './model';
import { REQUIREMENT_OPERATORS } from './requirement-operators';
import {
  MAX_CPU_ALLOCATION_RATIO,
  MAX_HOST_NAME_CHARS,
  MAX_HOSTS_PER_FLEET,
  MAX_LIVE_MIGRATIONS,
  MAX_MEMORY_OVERCOMMIT_PERCENT,
  MAX_NODES_PER_POOL,
  MAX_PODS_PER_HOST,
  MAX_PREVIEW_PODS,
  MAX_ROLLOUT_NODES,
  MAX_TOTAL_NODES,
  MAX_VCPU_TOPOLOGY,
} from '../base/bounds';
import { didYouMean, schemaValueMessage } from './schema-messages';
import { HOST_GROUP_KEY_PATTERN } from './host-group-key';
import { excerpt, pathKey } from '../base/excerpt';

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
const bootstrap = {
  type: 'object',
  required: ['mode', 'kubernetes'],
  additionalProperties: false,
  properties: {
    mode: { enum: ['preinstalled', 'mirror', 'internet'] },
    kubernetes: { type: 'string', maxLength: 64 },
    containerd: { type: 'string', maxLength: 128 },
    packageRevision: { type: 'string', maxLength: 64 },
    sandboxImage: { type: 'string', maxLength: 255 },
    repositories: {
      type: 'object',
      required: ['kubernetes', 'kubernetesKey'],
      additionalProperties: false,
      properties: {
        distribution: { type: 'string', maxLength: 2048 },
        security: { type: 'string', maxLength: 2048 },
        kubernetes: { type: 'string', maxLength: 2048 },
        kubernetesKey: { type: 'string', maxLength: 65536 },
      },
    },
    proxy: {
      type: 'object',
      additionalProperties: false,
      properties: {
        http: { type: 'string', maxLength: 2048 },
        https: { type: 'string', maxLength: 2048 },
        noProxy: { type: 'array', maxItems: 256, items: { type: 'string', maxLength: 253 } },
      },
    },
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
const hostGroupKey = { type: 'string', maxLength: 83, pattern: HOST_GROUP_KEY_PATTERN } as const;
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
    hostGroups: { type: 'array', maxItems: MAX_PODS_PER_HOST, items: hostGroupKey },
  },
} as const;
const count = { type: 'integer', minimum: 0, maximum: MAX_NODES_PER_POOL } as const;
/** How a pool's nodes are replaced (core/input/disruption.ts RolloutSpec); the planner checks the pair. */
const rollout = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxSurge: { type: 'integer', minimum: 0, maximum: MAX_ROLLOUT_NODES },
    maxUnavailable: { type: 'integer', minimum: 0, maximum: MAX_ROLLOUT_NODES },
  },
} as const;
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
          bootstrap,
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
          drainTimeout: { type: 'string' },
          rollout,
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
          drainTimeout: { type: 'string' },
          rollout,
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
  checkListSizes(data);
  if (!validate(data)) {
    const seen = new Set<string>();
    const issues = (validate.errors ?? []).map(describe).filter((i) => {
      const key = `${i.path}\u0000${i.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    throw new MetalsliceError(listedProblems(issues));
  }
  return data;
}
