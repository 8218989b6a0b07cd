/**
 * Reads a tenant's vcluster.yaml as vCluster v0.36 reads it and turns its `privateNodes.autoNodes` into
 * metalslice auto-node claims, so a team's existing vCluster config is planned as is. Three judges in
 * order, each reporting every problem it finds with its path in the file:
 *   1. vCluster's chart JSON Schema (what Helm and vCluster's strict decoder refuse), after a check for the
 *      autoNodes shapes of vCluster v0.28/v0.29, which get an error naming the release and the new form;
 *   2. vCluster's own validation rules for private nodes (pkg/config/validation.go at v0.36.1);
 *   3. metalslice's planning rules (planAutoNodes), with warnings for what vCluster reads but changes
 *      nothing in what metalslice makes.
 * `privateNodes.enabled` not true turns the section off, as it does in vCluster.
 */
import { parseDocument } from 'yaml';
import type { AutoNodesSourcePath } from './source-positions';
import { childPath, PlanIssue } from '../base/errors';
import { isRecord } from '../base/records';
import { AutoNodesSpec, DynamicPoolSpec, Labels, NodeProviderSpec, Requirement, StaticPoolSpec, Taint } from './model';
import { isKubevirtTemplate } from './template-kind';
import { pointerPath, schemaIssues, VCLUSTER_AUTONODES_SINCE, VCLUSTER_VERSION } from './vcluster-schema';
import { describeValue, parserMessage } from '../base/excerpt';

export { VCLUSTER_VERSION } from './vcluster-schema';

/** How a vcluster.yaml's auto nodes are read into the model. */
export interface VclusterImportOptions {
  /** The metalslice tenant cluster the vcluster.yaml belongs to. */
  readonly cluster: string;
  /** The quota charged for nodes of kubevirt providers. @default - none (kubevirt pools then fail to plan) */
  readonly quota?: string;
  /** Per provider quotas, when the vcluster.yaml uses several kubevirt providers. Wins over `quota`. */
  readonly quotaByProvider?: Readonly<Record<string, string>>;
  /**
   * The node providers: `quota` then goes only to entries whose nodes are VMs carved from a quota (kubevirt
   * providers, and terraform providers running metalslice's kubevirt template), not to whole machines.
   * @default - `quota` goes to every entry
   */
  readonly providers?: readonly NodeProviderSpec[];
  /** Prefix of every path reported, e.g. the file name. @default - paths start at `privateNodes` */
  readonly pathPrefix?: string;
}

/** A vcluster.yaml's auto nodes as metalslice reads them, with vCluster's verdict. */
export interface VclusterAutoNodesImport {
  /** The autoNodes entries (none when privateNodes is not enabled). */
  readonly autoNodes: readonly AutoNodesSpec[];
  /** Where each entry and pool was written, for planAutoNodes' error paths. */
  readonly sourcePaths: readonly AutoNodesSourcePath[];
  /** Why vCluster would refuse the file (schema, then its validation rules); empty when it accepts it. */
  readonly issues: readonly PlanIssue[];
  /** Fields read but ignored, and similar findings. */
  readonly warnings: readonly PlanIssue[];
}

type Obj = Record<string, unknown>;

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// --- Phase 0: YAML --------------------------------------------------------------------------------------

/** Parses vcluster.yaml text (duplicate keys refused, as vCluster's strict decoder does), or takes a parsed document. */
function parseVclusterYaml(input: unknown, prefix: string): { doc?: unknown; issues: PlanIssue[] } {
  if (typeof input !== 'string') return { doc: input, issues: [] };
  const at = prefix || 'vcluster.yaml';
  const doc = parseDocument(input, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    return {
      issues: doc.errors.map((e) => ({
        path: `${at}:${e.linePos?.[0].line ?? '?'}`,
        message: `not valid YAML (${e.code}): ${parserMessage(e.message)}`,
        ...(e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      })),
    };
  }
  try {
    return { doc: doc.toJS({ maxAliasCount: 100 }), issues: [] };
  } catch (e) {
    return { issues: [{ path: at, message: `not valid YAML: ${(e as Error).message.split('\n')[0]}` }] };
  }
}

// --- Phase 1a: shapes of older releases ----------------------------------------------------------------

interface OlderShapes {
  readonly issues: PlanIssue[];
  /** JSON pointers whose schema errors the older-shape issue already explains. */
  readonly covered: string[];
}

/** vCluster v0.28/v0.29's autoNodes: one object, `provider` and `requirements` on each pool. */
function olderShapeIssues(doc: unknown, prefix: string): OlderShapes {
  const out: OlderShapes = { issues: [], covered: [] };
  if (!isRecord(doc) || !isRecord(doc.privateNodes)) return out;
  const autoNodes = doc.privateNodes.autoNodes;
  const base = '/privateNodes/autoNodes';
  if (isRecord(autoNodes)) {
    out.issues.push({
      path: pointerPath(prefix, base),
      message: `autoNodes is a list since vCluster ${VCLUSTER_AUTONODES_SINCE} (this is the v0.28/v0.29 object form): write one entry per provider, autoNodes: [{provider: <name>, static: [...], dynamic: [...]}], and move each pool's provider to its entry and its requirements to nodeTypeSelector`,
    });
    out.covered.push(base);
    return out;
  }
  list(autoNodes).forEach((entry, i) => {
    if (!isRecord(entry)) return;
    for (const mode of ['static', 'dynamic'] as const) {
      list(entry[mode]).forEach((pool, j) => {
        if (!isRecord(pool)) return;
        const at = `${base}/${i}/${mode}/${j}`;
        if (pool.provider !== undefined) {
          out.issues.push({
            path: pointerPath(prefix, `${at}/provider`),
            message: `vCluster ${VCLUSTER_AUTONODES_SINCE} moved provider from each pool to its autoNodes entry: remove it here and put the pool under the entry with provider: ${describeValue(pool.provider)}`,
          });
          out.covered.push(`${at}/provider`);
        }
        if (pool.requirements !== undefined) {
          out.issues.push({
            path: pointerPath(prefix, `${at}/requirements`),
            message: `vCluster ${VCLUSTER_AUTONODES_SINCE} renamed a pool's requirements to nodeTypeSelector: rename the key`,
          });
          out.covered.push(`${at}/requirements`);
        }
      });
    }
  });
  return out;
}

// --- Phase 2: vCluster's validation rules for private nodes --------------------------------------------

const ALLOWED_OPERATORS = ['', 'In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

function requirementIssues(requirements: unknown, at: string, pool: string): PlanIssue[] {
  return list(requirements).flatMap((item, k): PlanIssue[] => {
    const r = item as { property?: string; operator?: string; value?: string; values?: string[] };
    const path = childPath(at, k);
    const operator = r.operator ?? '';
    const hasValue = (r.value ?? '') !== '';
    const hasValues = (r.values ?? []).length > 0;
    if ((r.property ?? '') === '')
      return [{ path: childPath(path, 'property'), message: `pool ${pool}: a requirement needs a property (the node type property to match)` }];
    if (!ALLOWED_OPERATORS.includes(operator)) {
      const hint = operator === 'NotExists' ? ' (vCluster spells it DoesNotExist)' : '';
      return [
        {
          path: childPath(path, 'operator'),
          message: `pool ${pool}: vCluster refuses operator "${operator}"${hint}: use In, NotIn, Exists, DoesNotExist, Gt or Lt ("" means In)`,
        },
      ];
    }
    if (hasValue && hasValues) return [{ path, message: `pool ${pool}: value and values cannot both be set: keep one` }];
    if (['', 'In', 'NotIn', 'Gt', 'Lt'].includes(operator) && !hasValue && !hasValues) {
      return [{ path, message: `pool ${pool}: operator ${operator || '"" (In)'} needs value or values` }];
    }
    if ((operator === 'Exists' || operator === 'DoesNotExist') && (hasValue || hasValues)) {
      return [{ path, message: `pool ${pool}: ${operator} takes no value or values: remove them` }];
    }
    return [];
  });
}

/** The settings vCluster refuses together with private nodes (validatePrivatedNodesMode). */
const NOT_WITH_PRIVATE_NODES: readonly { readonly path: readonly string[]; readonly what: string }[] = [
  { path: ['integrations', 'metricsServer', 'enabled'], what: 'the metrics-server integration' },
  { path: ['integrations', 'certManager', 'enabled'], what: 'the cert-manager integration' },
  { path: ['integrations', 'externalSecrets', 'enabled'], what: 'the external-secrets integration' },
  { path: ['integrations', 'istio', 'enabled'], what: 'the istio integration' },
  { path: ['integrations', 'kubeVirt', 'enabled'], what: 'the kubevirt integration' },
  { path: ['controlPlane', 'coredns', 'embedded'], what: 'embedded CoreDNS' },
  { path: ['controlPlane', 'hostPathMapper', 'enabled'], what: 'the host path mapper' },
  { path: ['sync', 'toHost', 'namespaces', 'enabled'], what: 'multi-namespace mode' },
];

function dig(doc: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), doc);
}

/** vCluster v0.36.1's private-node rules, every violation (vCluster itself stops at the first). */
function vclusterRuleIssues(doc: Obj, prefix: string): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const privateNodes = doc.privateNodes as Obj;
  const endpoint = dig(doc, ['controlPlane', 'endpoint']);
  if (typeof endpoint === 'string' && endpoint !== '' && !/^(\[[^\]]+\]|[^:[\]]*):[^:]*$/.test(endpoint)) {
    issues.push({ path: pointerPath(prefix, '/controlPlane/endpoint'), message: `invalid endpoint ${endpoint}: write host:port` });
  }
  for (const rule of NOT_WITH_PRIVATE_NODES) {
    if (dig(doc, rule.path) === true)
      issues.push({
        path: pointerPath(prefix, `/${rule.path.join('/')}`),
        message: `vCluster does not support ${rule.what} with private nodes: turn it off or privateNodes.enabled off`,
      });
  }
  const providers = new Map<string, string>();
  const pools = new Map<string, string>();
  list(privateNodes.autoNodes).forEach((raw, i) => {
    const entry = raw as Obj;
    const at = pointerPath(prefix, `/privateNodes/autoNodes/${i}`);
    const provider = (entry.provider as string | undefined) ?? '';
    if (provider === '') issues.push({ path: childPath(at, 'provider'), message: 'provider is required: the name of the node provider of these pools' });
    else if (providers.has(provider))
      issues.push({
        path: childPath(at, 'provider'),
        message: `provider ${provider} already has an entry at ${providers.get(provider)}: vCluster allows one entry per provider; merge their pools into it`,
      });
    else providers.set(provider, at);
    for (const mode of ['static', 'dynamic'] as const) {
      list(entry[mode]).forEach((rawPool, j) => {
        const pool = rawPool as Obj;
        const poolAt = childPath(childPath(at, mode), j);
        const name = (pool.name as string | undefined) ?? '';
        if (name === '') issues.push({ path: childPath(poolAt, 'name'), message: 'name is required: every node pool needs a name' });
        if (mode === 'static' && typeof pool.quantity === 'number' && pool.quantity < 0)
          issues.push({ path: childPath(poolAt, 'quantity'), message: `quantity cannot be negative (got ${describeValue(pool.quantity)})` });
        if (name !== '' && pools.has(name))
          issues.push({
            path: childPath(poolAt, 'name'),
            message: `node pool name ${name} is already used at ${pools.get(name)}: pool names are unique across all providers, static and dynamic`,
          });
        else if (name !== '') pools.set(name, poolAt);
        issues.push(...requirementIssues(pool.nodeTypeSelector, childPath(poolAt, 'nodeTypeSelector'), name || `#${j}`));
      });
    }
  });
  return issues;
}

// --- Phase 3: into metalslice claims --------------------------------------------------------------------

function omitEmpty<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(
      ([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0) && !(isRecord(v) && Object.keys(v).length === 0),
    ),
  ) as T;
}

function requirementsOf(raw: unknown): Requirement[] | undefined {
  const out = list(raw).map((r) => omitEmpty({ ...(r as Requirement) }));
  return out.length > 0 ? out : undefined;
}

function taintsOf(raw: unknown): Taint[] | undefined {
  const out = list(raw).map((t) => omitEmpty({ ...(t as Taint) }));
  return out.length > 0 ? out : undefined;
}

function staticOf(pool: Obj, at: string, warnings: PlanIssue[]): StaticPoolSpec {
  if (pool.terminationGracePeriod !== undefined) {
    warnings.push({
      path: childPath(at, 'terminationGracePeriod'),
      message: "not used: metalslice deletes a static node's VM when the pool shrinks (tofu apply), without a Karpenter drain to bound",
    });
  }
  return omitEmpty({
    name: pool.name as string,
    quantity: (pool.quantity as number | undefined) ?? 0,
    nodeTypeSelector: requirementsOf(pool.nodeTypeSelector),
    taints: taintsOf(pool.taints),
    nodeLabels: pool.nodeLabels as Labels | undefined,
    profile: pool.profile as string | undefined,
  });
}

function dynamicOf(pool: Obj): DynamicPoolSpec {
  const disruption = isRecord(pool.disruption) ? omitEmpty({ ...(pool.disruption as DynamicPoolSpec['disruption'] & object) }) : undefined;
  return omitEmpty({
    name: pool.name as string,
    nodeTypeSelector: requirementsOf(pool.nodeTypeSelector),
    taints: taintsOf(pool.taints),
    nodeLabels: pool.nodeLabels as Labels | undefined,
    limits: pool.limits as Labels | undefined,
    disruption,
    terminationGracePeriod: pool.terminationGracePeriod as string | undefined,
    expireAfter: pool.expireAfter as string | undefined,
    // vCluster's Go zero value: weight 0 is "unset"; Karpenter wants 1..100 or nothing.
    weight: (pool.weight as number | undefined) || undefined,
    profile: pool.profile as string | undefined,
  });
}

/** Whether an entry on the provider is carved from a quota (unknown providers are: their error comes later). */
function takesQuota(provider: string, providers: readonly NodeProviderSpec[] | undefined): boolean {
  const spec = providers?.find((p) => p.name === provider);
  return spec === undefined || spec.kind === 'kubevirt' || (spec.kind === 'terraform' && isKubevirtTemplate(spec.nodeTemplate));
}

/** privateNodes fields that shape how nodes join; metalslice renders its own join, so they change nothing. */
const JOIN_FIELDS = ['kubelet', 'joinNode', 'autoUpgrade', 'vpn', 'daemon'];

function claimsOf(privateNodes: Obj, options: VclusterImportOptions, prefix: string): Omit<VclusterAutoNodesImport, 'issues'> {
  const warnings: PlanIssue[] = [];
  for (const key of JOIN_FIELDS) {
    if (isRecord(privateNodes[key]) && Object.keys(privateNodes[key]).length > 0) {
      warnings.push({
        path: pointerPath(prefix, `/privateNodes/${key}`),
        message:
          key === 'joinNode'
            ? `not used by metalslice's node join: its nodes get containerd, kubelet and kubeadm as the cluster's bootstrap says (clusters[].bootstrap: mode and pinned versions, sandboxImage for a pause image, repositories, proxy); vCluster applies it to nodes it joins`
            : `not used by metalslice's node join (it renders the kubeadm join and kubelet settings itself): vCluster applies it to nodes it joins`,
      });
    }
  }
  const defaultProfile = (privateNodes.defaultProfile as string | undefined) || undefined;
  const autoNodes: AutoNodesSpec[] = [];
  const sourcePaths: AutoNodesSourcePath[] = [];
  list(privateNodes.autoNodes).forEach((raw, i) => {
    const entry = raw as Obj;
    const at = pointerPath(prefix, `/privateNodes/autoNodes/${i}`);
    const provider = entry.provider as string;
    const quota = options.quotaByProvider?.[provider] ?? (takesQuota(provider, options.providers) ? options.quota : undefined);
    const statics = list(entry.static).map((p, j) => staticOf(p as Obj, childPath(childPath(at, 'static'), j), warnings));
    const dynamics = list(entry.dynamic).map((p) => dynamicOf(p as Obj));
    autoNodes.push(
      omitEmpty({
        cluster: options.cluster,
        provider,
        quota,
        properties: entry.properties as Labels | undefined,
        defaultProfile,
        static: statics,
        dynamic: dynamics,
      }),
    );
    sourcePaths.push({
      entry: at,
      static: statics.map((_, j) => childPath(childPath(at, 'static'), j)),
      dynamic: dynamics.map((_, j) => childPath(childPath(at, 'dynamic'), j)),
    });
  });
  return { autoNodes, sourcePaths, warnings };
}

/** Reads a vcluster.yaml (text or parsed) into metalslice auto-node claims, or says why vCluster refuses it. */
export function importVclusterAutoNodes(input: unknown, options: VclusterImportOptions): VclusterAutoNodesImport {
  const prefix = options.pathPrefix ?? '';
  const none = { autoNodes: [], sourcePaths: [], warnings: [] };
  const parsed = parseVclusterYaml(input, prefix);
  if (parsed.issues.length > 0) return { ...none, issues: parsed.issues };
  const doc = parsed.doc ?? {};
  const older = olderShapeIssues(doc, prefix);
  const covered = (pointer: string) => older.covered.some((c) => pointer === c || pointer.startsWith(`${c}/`));
  const structural = [...older.issues, ...schemaIssues(doc, prefix, covered)];
  if (structural.length > 0) return { ...none, issues: structural };
  const privateNodes = isRecord(doc) && isRecord(doc.privateNodes) ? doc.privateNodes : {};
  const autoNodesPath = pointerPath(prefix, '/privateNodes/autoNodes');
  if (privateNodes.enabled !== true) {
    const endpoint = dig(doc, ['controlPlane', 'endpoint']);
    if (typeof endpoint === 'string' && endpoint !== '')
      return {
        ...none,
        issues: [
          {
            path: pointerPath(prefix, '/controlPlane/endpoint'),
            message: 'vCluster supports controlPlane.endpoint only with private nodes: remove it, or set privateNodes.enabled: true',
          },
        ],
      };
    const has = list(privateNodes.autoNodes).length > 0;
    const warnings = has
      ? [
          {
            path: pointerPath(prefix, '/privateNodes/enabled'),
            message: `privateNodes.enabled is not true, so vCluster ignores autoNodes and metalslice plans none of its pools: set privateNodes.enabled: true to plan them`,
          },
        ]
      : [{ path: autoNodesPath, message: 'the vcluster.yaml has no private nodes: nothing to plan' }];
    return { ...none, issues: [], warnings };
  }
  const rules = vclusterRuleIssues(doc as Obj, prefix);
  if (rules.length > 0) return { ...none, issues: rules };
  const claims = claimsOf(privateNodes, options, prefix);
  const empty = claims.autoNodes.length === 0 ? [{ path: autoNodesPath, message: 'privateNodes.autoNodes is empty: nothing to plan' }] : [];
  return { ...claims, warnings: [...claims.warnings, ...empty], issues: [] };
}

/** The vCluster releases whose vcluster.yaml metalslice reads (the autoNodes shape of v0.30 up to this schema). */
export const SUPPORTED_VCLUSTER_VERSIONS = `${VCLUSTER_AUTONODES_SINCE} to ${VCLUSTER_VERSION.replace(/\.\d+$/, '.x')}`;
