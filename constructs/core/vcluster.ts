/**
 * Reads the `privateNodes.autoNodes` block of a vcluster.yaml and turns it into metalslice auto-node
 * claims for one tenant cluster, so a team's existing vCluster config is planned as is. Both shapes
 * vCluster has used are accepted: `autoNodes` as one object or as a list of objects (`provider`,
 * `properties`, `static[]`, `dynamic[]`), and a `provider` on each pool (older releases). Errors name the
 * path inside the vcluster.yaml (`privateNodes.autoNodes[0].static[1].nodeTypeSelector[2].value`).
 */
import { parseDocument } from 'yaml';
import { AutoNodesInput, AutoNodesPlan, AutoNodesSourcePath, planAutoNodes } from './auto-nodes';
import { childPath, PlanIssue } from './errors';
import { AutoNodesSpec, DisruptionBudget, DynamicPoolSpec, Requirement, StaticPoolSpec, Taint } from './model';

export interface VclusterImportOptions {
  /** The metalslice tenant cluster the vcluster.yaml belongs to. */
  readonly cluster: string;
  /** The quota charged for nodes of kubevirt providers. @default - none (kubevirt pools then fail to plan) */
  readonly quota?: string;
  /** Per provider quotas, when the vcluster.yaml uses several kubevirt providers. Wins over `quota`. */
  readonly quotaByProvider?: Readonly<Record<string, string>>;
  /** Prefix of every path reported, e.g. the file name. @default - paths start at `privateNodes` */
  readonly pathPrefix?: string;
}

export interface VclusterAutoNodesImport {
  readonly autoNodes: readonly AutoNodesSpec[];
  /** Where each entry and pool was written, for planAutoNodes' error paths. */
  readonly sourcePaths: readonly AutoNodesSourcePath[];
  readonly issues: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STATIC_KEYS = ['name', 'quantity', 'nodeTypeSelector', 'requirements', 'resources', 'taints', 'nodeLabels', 'provider'];
// Fields vCluster reads on static pools that mean nothing for nodes metalslice makes once: accepted, noted.
const STATIC_IGNORED = ['terminationGracePeriod'];
const DYNAMIC_KEYS = ['name', 'nodeTypeSelector', 'requirements', 'taints', 'nodeLabels', 'limits', 'disruption', 'terminationGracePeriod', 'expireAfter', 'weight', 'provider', 'autoscaler', 'minNodes'];
const BLOCK_KEYS = ['provider', 'properties', 'static', 'dynamic'];

class Reader {
  readonly issues: PlanIssue[] = [];
  readonly warnings: PlanIssue[] = [];

  error(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  unknownKeys(obj: Obj, known: readonly string[], path: string, ignored: readonly string[] = []): void {
    for (const key of Object.keys(obj)) {
      if (ignored.includes(key)) {
        this.warnings.push({ path: childPath(path, key), message: `${key} is not used: metalslice makes static nodes once, not through a Karpenter NodePool` });
      } else if (!known.includes(key)) {
        this.warnings.push({ path: childPath(path, key), message: `unknown field ${key} is ignored (known: ${known.join(', ')})` });
      }
    }
  }

  string(obj: Obj, key: string, path: string, required = false): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) this.error(childPath(path, key), `${key} is required`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.error(childPath(path, key), `${key} must be a string (got ${JSON.stringify(value)})`);
      return undefined;
    }
    return value;
  }

  integer(obj: Obj, key: string, path: string, required = false): number | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) this.error(childPath(path, key), `${key} is required: a whole number`);
      return undefined;
    }
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.error(childPath(path, key), `${key} must be a whole number (got ${JSON.stringify(value)})`);
      return undefined;
    }
    return value;
  }

  stringMap(obj: Obj, key: string, path: string, allowNumbers = false): Record<string, string> | Record<string, string | number> | undefined {
    const value = obj[key];
    if (value === undefined || value === null) return undefined;
    const at = childPath(path, key);
    if (!isObj(value)) {
      this.error(at, `${key} must be a map`);
      return undefined;
    }
    const out: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' || (allowNumbers && typeof v === 'number')) out[k] = v;
      else this.error(childPath(at, k), `must be a string (got ${JSON.stringify(v)}): quote it`);
    }
    return out;
  }

  list(obj: Obj, key: string, path: string): unknown[] {
    const value = obj[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.error(childPath(path, key), `${key} must be a list`);
      return [];
    }
    return value;
  }

  requirements(obj: Obj, key: string, path: string): Requirement[] | undefined {
    if (obj[key] === undefined || obj[key] === null) return undefined;
    const at = childPath(path, key);
    return this.list(obj, key, path).flatMap((item, i) => {
      const itemPath = childPath(at, i);
      if (!isObj(item)) {
        this.error(itemPath, 'a requirement must be a map like {property: tier, operator: In, value: a}');
        return [];
      }
      this.unknownKeys(item, ['property', 'operator', 'value', 'values'], itemPath);
      const property = this.string(item, 'property', itemPath, true);
      const operator = this.string(item, 'operator', itemPath);
      const value = item.value === undefined || item.value === null ? undefined : typeof item.value === 'number' ? String(item.value) : this.string(item, 'value', itemPath);
      let values: string[] | undefined;
      if (item.values !== undefined && item.values !== null) {
        values = this.list(item, 'values', itemPath).map((v, k) => {
          if (typeof v === 'number') return String(v);
          if (typeof v !== 'string') this.error(childPath(childPath(itemPath, 'values'), k), `must be a string (got ${JSON.stringify(v)})`);
          return String(v);
        });
      }
      if (property === undefined) return [];
      return [{ property, ...(operator !== undefined ? { operator: operator as Requirement['operator'] } : {}), ...(value !== undefined ? { value } : {}), ...(values !== undefined ? { values } : {}) }];
    });
  }

  taints(obj: Obj, path: string): Taint[] | undefined {
    if (obj.taints === undefined || obj.taints === null) return undefined;
    const at = childPath(path, 'taints');
    return this.list(obj, 'taints', path).flatMap((item, i) => {
      const itemPath = childPath(at, i);
      if (!isObj(item)) {
        this.error(itemPath, 'a taint must be a map {key, value, effect}');
        return [];
      }
      this.unknownKeys(item, ['key', 'value', 'effect'], itemPath);
      const key = this.string(item, 'key', itemPath, true);
      const value = this.string(item, 'value', itemPath);
      const effect = this.string(item, 'effect', itemPath, true);
      if (key === undefined || effect === undefined) return [];
      return [{ key, ...(value !== undefined ? { value } : {}), effect: effect as Taint['effect'] }];
    });
  }
}

function readStatic(r: Reader, item: Obj, path: string): StaticPoolSpec {
  r.unknownKeys(item, STATIC_KEYS, path, STATIC_IGNORED);
  const nodeTypeSelector = r.requirements(item, 'nodeTypeSelector', path);
  const requirements = r.requirements(item, 'requirements', path);
  const taints = r.taints(item, path);
  const nodeLabels = r.stringMap(item, 'nodeLabels', path) as Record<string, string> | undefined;
  const resources = r.stringMap(item, 'resources', path, true);
  return {
    name: r.string(item, 'name', path, true) ?? '',
    quantity: r.integer(item, 'quantity', path, true) ?? 0,
    ...(nodeTypeSelector !== undefined ? { nodeTypeSelector } : {}),
    ...(requirements !== undefined ? { requirements } : {}),
    ...(resources !== undefined ? { resources } : {}),
    ...(taints !== undefined ? { taints } : {}),
    ...(nodeLabels !== undefined ? { nodeLabels } : {}),
  };
}

function readDynamic(r: Reader, item: Obj, path: string): DynamicPoolSpec {
  r.unknownKeys(item, DYNAMIC_KEYS, path);
  const nodeTypeSelector = r.requirements(item, 'nodeTypeSelector', path);
  const requirements = r.requirements(item, 'requirements', path);
  const taints = r.taints(item, path);
  const nodeLabels = r.stringMap(item, 'nodeLabels', path) as Record<string, string> | undefined;
  const limits = r.stringMap(item, 'limits', path, true);
  let disruption: DynamicPoolSpec['disruption'];
  if (item.disruption !== undefined && item.disruption !== null) {
    const dPath = childPath(path, 'disruption');
    if (!isObj(item.disruption)) r.error(dPath, 'disruption must be a map');
    else {
      const d = item.disruption;
      r.unknownKeys(d, ['consolidateAfter', 'consolidationPolicy', 'budgets'], dPath);
      const consolidateAfter = r.string(d, 'consolidateAfter', dPath);
      const consolidationPolicy = r.string(d, 'consolidationPolicy', dPath);
      const budgets: DisruptionBudget[] = r.list(d, 'budgets', dPath).flatMap((b, i) => {
        const bPath = childPath(childPath(dPath, 'budgets'), i);
        if (!isObj(b)) {
          r.error(bPath, 'a budget must be a map {nodes, schedule, duration}');
          return [];
        }
        r.unknownKeys(b, ['nodes', 'schedule', 'duration', 'reasons'], bPath);
        const nodes = typeof b.nodes === 'number' ? String(b.nodes) : r.string(b, 'nodes', bPath, true);
        const schedule = r.string(b, 'schedule', bPath);
        const duration = r.string(b, 'duration', bPath);
        const reasons = b.reasons === undefined ? undefined : (r.list(b, 'reasons', bPath).map(String) as DisruptionBudget['reasons']);
        if (nodes === undefined) return [];
        return [{ nodes, ...(schedule !== undefined ? { schedule } : {}), ...(duration !== undefined ? { duration } : {}), ...(reasons !== undefined ? { reasons } : {}) }];
      });
      disruption = {
        ...(consolidationPolicy !== undefined ? { consolidationPolicy: consolidationPolicy as 'WhenEmpty' | 'WhenEmptyOrUnderutilized' } : {}),
        ...(consolidateAfter !== undefined ? { consolidateAfter } : {}),
        ...(budgets.length > 0 ? { budgets } : {}),
      };
    }
  }
  const terminationGracePeriod = r.string(item, 'terminationGracePeriod', path);
  const expireAfter = r.string(item, 'expireAfter', path);
  // vCluster writes `weight: 0` for "unset" (Go zero value); Karpenter wants 1..100 or nothing.
  const weight = r.integer(item, 'weight', path);
  const autoscaler = r.string(item, 'autoscaler', path);
  const minNodes = r.integer(item, 'minNodes', path);
  return {
    name: r.string(item, 'name', path, true) ?? '',
    ...(nodeTypeSelector !== undefined ? { nodeTypeSelector } : {}),
    ...(requirements !== undefined ? { requirements } : {}),
    ...(limits !== undefined ? { limits } : {}),
    ...(taints !== undefined ? { taints } : {}),
    ...(nodeLabels !== undefined ? { nodeLabels } : {}),
    ...(disruption !== undefined ? { disruption } : {}),
    ...(expireAfter !== undefined ? { expireAfter } : {}),
    ...(terminationGracePeriod !== undefined ? { terminationGracePeriod } : {}),
    ...(weight !== undefined && weight !== 0 ? { weight } : {}),
    ...(autoscaler !== undefined ? { autoscaler: autoscaler as DynamicPoolSpec['autoscaler'] } : {}),
    ...(minNodes !== undefined ? { minNodes } : {}),
  };
}

/** Parses vcluster.yaml text, or takes an already parsed document. */
function toDocument(input: unknown, prefix: string, r: Reader): unknown {
  if (typeof input !== 'string') return input;
  const doc = parseDocument(input);
  for (const e of doc.errors) r.error(prefix || 'vcluster.yaml', `not valid YAML: ${e.message}`);
  return doc.errors.length > 0 ? undefined : doc.toJS();
}

export function importVclusterAutoNodes(input: unknown, options: VclusterImportOptions): VclusterAutoNodesImport {
  const r = new Reader();
  const prefix = options.pathPrefix ?? '';
  const doc = toDocument(input, prefix, r);
  const autoNodes: AutoNodesSpec[] = [];
  const sourcePaths: AutoNodesSourcePath[] = [];
  const privateNodesPath = childPath(prefix, 'privateNodes');
  if (!isObj(doc) || !isObj(doc.privateNodes) || doc.privateNodes.autoNodes === undefined || doc.privateNodes.autoNodes === null) {
    if (r.issues.length === 0) r.warnings.push({ path: childPath(privateNodesPath, 'autoNodes'), message: 'the vcluster.yaml has no privateNodes.autoNodes: nothing to plan' });
    return { autoNodes, sourcePaths, issues: r.issues, warnings: r.warnings };
  }
  const privateNodes = doc.privateNodes;
  if (privateNodes.enabled !== true) {
    r.warnings.push({ path: childPath(privateNodesPath, 'enabled'), message: 'privateNodes.enabled is not true: vCluster ignores autoNodes without it; set privateNodes.enabled: true' });
  }
  const blocksPath = childPath(privateNodesPath, 'autoNodes');
  const raw = privateNodes.autoNodes;
  const blocks: { block: unknown; path: string }[] = Array.isArray(raw) ? raw.map((block, k) => ({ block, path: childPath(blocksPath, k) })) : [{ block: raw, path: blocksPath }];

  // Entries are grouped per provider in order of first appearance; each pool keeps its own path.
  const byProvider = new Map<string, { static: StaticPoolSpec[]; dynamic: DynamicPoolSpec[]; paths: { entry: string; static: string[]; dynamic: string[] } }>();
  const group = (provider: string, entryPath: string) => {
    let g = byProvider.get(provider);
    if (!g) {
      g = { static: [], dynamic: [], paths: { entry: entryPath, static: [], dynamic: [] } };
      byProvider.set(provider, g);
    }
    return g;
  };
  for (const { block, path } of blocks) {
    if (!isObj(block)) {
      r.error(path, 'autoNodes must be a map {provider, static, dynamic} or a list of them');
      continue;
    }
    r.unknownKeys(block, BLOCK_KEYS, path);
    const blockProvider = r.string(block, 'provider', path);
    if (block.properties !== undefined) {
      r.warnings.push({ path: childPath(path, 'properties'), message: 'provider properties are not used: metalslice node providers take their settings from nodeProviders' });
    }
    const providerOf = (item: Obj, itemPath: string): string | undefined => {
      const own = r.string(item, 'provider', itemPath);
      const provider = own ?? blockProvider;
      if (provider === undefined) r.error(childPath(path, 'provider'), `provider is required: the node provider of the pools (for ${itemPath})`);
      return provider;
    };
    r.list(block, 'static', path).forEach((item, j) => {
      const itemPath = childPath(childPath(path, 'static'), j);
      if (!isObj(item)) return r.error(itemPath, 'a static pool must be a map {name, quantity, nodeTypeSelector}');
      const provider = providerOf(item, itemPath);
      const spec = readStatic(r, item, itemPath);
      if (provider === undefined) return;
      const g = group(provider, path);
      g.static.push(spec);
      g.paths.static.push(itemPath);
    });
    r.list(block, 'dynamic', path).forEach((item, j) => {
      const itemPath = childPath(childPath(path, 'dynamic'), j);
      if (!isObj(item)) return r.error(itemPath, 'a dynamic pool must be a map {name, nodeTypeSelector, limits}');
      const provider = providerOf(item, itemPath);
      const spec = readDynamic(r, item, itemPath);
      if (provider === undefined) return;
      const g = group(provider, path);
      g.dynamic.push(spec);
      g.paths.dynamic.push(itemPath);
    });
  }
  for (const [provider, g] of byProvider) {
    const quota = options.quotaByProvider?.[provider] ?? options.quota;
    autoNodes.push({
      cluster: options.cluster,
      provider,
      ...(quota !== undefined ? { quota } : {}),
      ...(g.static.length > 0 ? { static: g.static } : {}),
      ...(g.dynamic.length > 0 ? { dynamic: g.dynamic } : {}),
    });
    sourcePaths.push(g.paths);
  }
  return { autoNodes, sourcePaths, issues: r.issues, warnings: r.warnings };
}

/** Imports a vcluster.yaml's auto nodes and plans them against the catalogue, quotas and clusters given. */
export function planVclusterAutoNodes(input: unknown, options: VclusterImportOptions, context: Omit<AutoNodesInput, 'autoNodes' | 'sourcePaths'>): AutoNodesPlan {
  const imported = importVclusterAutoNodes(input, options);
  const plan = planAutoNodes({ ...context, autoNodes: imported.autoNodes, sourcePaths: imported.sourcePaths });
  const issues = [...imported.issues, ...plan.issues];
  return { ...plan, ok: issues.length === 0, issues, warnings: [...imported.warnings, ...plan.warnings] };
}
