/**
 * The input of auto-node planning, checked: each autoNodes entry (its cluster, provider, quota and fleet),
 * each pool's name (unique per cluster), and what a pool writes (requirements, taints, node labels, a static
 * pool's quantity, a dynamic pool's autoscaler, limits and disruption settings). Problems name the exact path.
 */
import type { AutoNodesInput, NodeEnvironmentRef, ParsedPoolCommon, PoolContext } from './types';
import { captureInto, childPath, isList, PlanIssue } from '../base/errors';
import { describeValue, excerpt } from '../base/excerpt';
import { poolSizeProblem } from '../base/bounds';
import { AutoNodesSpec, DynamicPoolSpec, Labels, Requirement as RequirementSpec, StaticPoolSpec, Taint, TAINT_EFFECTS } from '../input/model';
import { isDnsLabel, kubeletLabelProblem, labelKeyProblem, labelValueProblem } from '../naming/kube-names';
import { autoNodeName, INSTANCE_TYPE_LABEL, VCLUSTER_NODE_TYPE_LABEL } from '../naming/derived';
import { NodeProvider } from './node-types';
import { parseRequirements } from './requirements';
import { parseResources, ResourceVector } from '../base/resources';

const KARPENTER_DURATION = /^(([0-9]+(s|m|h))+|Never)$/;
const GRACE_PERIOD = /^([0-9]+(s|m|h))+$/;
const BUDGET_NODES = /^((100|[0-9]{1,2})%|[0-9]+)$/;
const BUDGET_DURATION = /^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$/;
const BUDGET_REASONS = ['Underutilized', 'Empty', 'Drifted'];

/** Taint keys, values and effects as Kubernetes validates them; the valid taints. */
export function checkTaints(taints: readonly Taint[] | undefined, path: string, issues: PlanIssue[]): Taint[] {
  if (taints === undefined) return [];
  if (!isList(taints)) {
    issues.push({ path, message: 'taints must be a list of {key, value, effect}' });
    return [];
  }
  const out: Taint[] = [];
  taints.forEach((t, i) => {
    const at = childPath(path, i);
    const before = issues.length;
    const keyProblem = typeof t.key === 'string' ? labelKeyProblem(t.key) : 'it is missing';
    if (keyProblem) issues.push({ path: childPath(at, 'key'), message: `taint key ${describeValue(t.key)} is not valid: ${keyProblem}` });
    if (t.value !== undefined) {
      const valueProblem = typeof t.value === 'string' ? labelValueProblem(t.value) : 'it must be a string';
      if (valueProblem) issues.push({ path: childPath(at, 'value'), message: `taint value ${describeValue(t.value)} is not valid: ${valueProblem}` });
    }
    if (!(TAINT_EFFECTS as readonly string[]).includes(t.effect))
      issues.push({ path: childPath(at, 'effect'), message: `taint effect ${describeValue(t.effect)} is not valid: use ${TAINT_EFFECTS.join(', ')}` });
    if (issues.length === before)
      out.push(t.value === undefined || t.value === '' ? { key: t.key, effect: t.effect } : { key: t.key, value: t.value, effect: t.effect });
  });
  return out;
}

/** Node labels: valid keys and values, none the kubelet refuses, none metalslice sets itself. */
function checkNodeLabels(labels: Labels | undefined, path: string, issues: PlanIssue[]): Record<string, string> {
  if (labels === undefined) return {};
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
    issues.push({ path, message: 'nodeLabels must be a map of label key to value' });
    return {};
  }
  const out: Record<string, string> = {};
  for (const key of Object.keys(labels).sort()) {
    const at = childPath(path, key);
    const keyProblem = labelKeyProblem(key) ?? kubeletLabelProblem(key);
    if (keyProblem) {
      issues.push({ path: at, message: `${excerpt(key)} is not a valid label key: ${keyProblem}` });
      continue;
    }
    if (key === VCLUSTER_NODE_TYPE_LABEL || key === INSTANCE_TYPE_LABEL) {
      issues.push({ path: at, message: `${key} is set by metalslice to the chosen node type: remove it (select a type with a requirement instead)` });
      continue;
    }
    const value = labels[key];
    const valueProblem = typeof value === 'string' ? labelValueProblem(value) : 'it must be a string';
    if (valueProblem) {
      issues.push({ path: at, message: `label value ${describeValue(value)} is not valid: ${valueProblem}` });
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** Requirements (or nodeTypeSelector), taints and node labels, checked alike for static and dynamic pools. */
export function parseCommon(spec: StaticPoolSpec | DynamicPoolSpec, path: string, issues: PlanIssue[]): ParsedPoolCommon {
  let requirementSpecs: readonly RequirementSpec[] | undefined = spec.requirements;
  let requirementsPath = childPath(path, 'requirements');
  if (spec.requirements !== undefined && spec.nodeTypeSelector !== undefined) {
    issues.push({ path, message: 'both requirements and nodeTypeSelector are set: they mean the same, keep one' });
  } else if (spec.nodeTypeSelector !== undefined) {
    requirementSpecs = spec.nodeTypeSelector;
    requirementsPath = childPath(path, 'nodeTypeSelector');
  }
  const requirements = captureInto(issues, () => parseRequirements(requirementSpecs, requirementsPath)) ?? [];
  const taints = checkTaints(spec.taints, childPath(path, 'taints'), issues);
  const nodeLabels = checkNodeLabels(spec.nodeLabels, childPath(path, 'nodeLabels'), issues);
  return { requirements, taints, nodeLabels };
}

/** Karpenter's disruption settings, expireAfter, terminationGracePeriod and weight, as Karpenter validates them. */
// Over 60 lines: one check per Karpenter disruption field, each with its own message, in Karpenter's order.
export function checkDisruption(spec: DynamicPoolSpec, path: string, issues: PlanIssue[]): void {
  const d = spec.disruption;
  const dPath = childPath(path, 'disruption');
  if (d !== undefined) {
    if (d.consolidationPolicy !== undefined && d.consolidationPolicy !== 'WhenEmpty' && d.consolidationPolicy !== 'WhenEmptyOrUnderutilized') {
      issues.push({
        path: childPath(dPath, 'consolidationPolicy'),
        message: `unknown consolidationPolicy ${describeValue(d.consolidationPolicy)}: use WhenEmpty or WhenEmptyOrUnderutilized`,
      });
    }
    if (d.consolidateAfter !== undefined && (typeof d.consolidateAfter !== 'string' || !KARPENTER_DURATION.test(d.consolidateAfter))) {
      issues.push({
        path: childPath(dPath, 'consolidateAfter'),
        message: `consolidateAfter ${describeValue(d.consolidateAfter)} is not a duration: write e.g. 30s, 5m, 1h30m or Never`,
      });
    }
    (d.budgets ?? []).forEach((b, k) => {
      const bPath = childPath(childPath(dPath, 'budgets'), k);
      if (typeof b.nodes !== 'string' || !BUDGET_NODES.test(b.nodes)) {
        issues.push({
          path: childPath(bPath, 'nodes'),
          message: `budget nodes ${describeValue(b.nodes)} is not valid: write a count like "2" or a percentage like "10%"`,
        });
      }
      if ((b.schedule === undefined) !== (b.duration === undefined)) {
        issues.push({ path: bPath, message: 'schedule and duration go together: set both (e.g. schedule "0 9 * * mon-fri", duration 8h) or neither' });
      }
      if (
        b.schedule !== undefined &&
        (typeof b.schedule !== 'string' || !/^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$/.test(b.schedule))
      ) {
        issues.push({
          path: childPath(bPath, 'schedule'),
          message: `schedule ${describeValue(b.schedule)} is not a cron expression: five fields, or @daily style`,
        });
      }
      if (b.duration !== undefined && (typeof b.duration !== 'string' || !BUDGET_DURATION.test(b.duration))) {
        issues.push({
          path: childPath(bPath, 'duration'),
          message: `duration ${describeValue(b.duration)} is not valid: whole minutes or hours, e.g. 30m, 8h, 1h30m`,
        });
      }
      (b.reasons ?? []).forEach((r, m) => {
        if (!BUDGET_REASONS.includes(r))
          issues.push({ path: childPath(childPath(bPath, 'reasons'), m), message: `unknown reason ${describeValue(r)}: use ${BUDGET_REASONS.join(', ')}` });
      });
    });
  }
  if (spec.expireAfter !== undefined && (typeof spec.expireAfter !== 'string' || !KARPENTER_DURATION.test(spec.expireAfter))) {
    issues.push({
      path: childPath(path, 'expireAfter'),
      message: `expireAfter ${describeValue(spec.expireAfter)} is not a duration: write e.g. 720h or Never`,
    });
  }
  if (spec.terminationGracePeriod !== undefined && (typeof spec.terminationGracePeriod !== 'string' || !GRACE_PERIOD.test(spec.terminationGracePeriod))) {
    issues.push({
      path: childPath(path, 'terminationGracePeriod'),
      message: `terminationGracePeriod ${describeValue(spec.terminationGracePeriod)} is not a duration: write e.g. 30s, 10m or 1h`,
    });
  }
  if (spec.weight !== undefined && (typeof spec.weight !== 'number' || !Number.isInteger(spec.weight) || spec.weight < 1 || spec.weight > 100)) {
    issues.push({ path: childPath(path, 'weight'), message: `weight must be a whole number from 1 to 100 (got ${describeValue(spec.weight)})` });
  }
}

/** A pool to plan: its entry's context, the pool as written, where, and its place in config order. */
export interface PoolWork<S> {
  readonly ctx: PoolContext;
  readonly spec: S;
  readonly path: string;
  readonly order: number;
}

/** The pools of every entry that can be planned, and the (cluster x provider) pairs that have pools. */
export interface PoolInput {
  readonly statics: PoolWork<StaticPoolSpec>[];
  readonly dynamics: PoolWork<DynamicPoolSpec>[];
  /** Keyed by cluster and provider, in first-use order. */
  readonly environments: Map<string, NodeEnvironmentRef>;
}

/** The parsed catalogue: its providers and the problems it has. */
interface Catalogue {
  readonly providers: readonly NodeProvider[];
  readonly issues: readonly PlanIssue[];
}

const orNone = (names: Iterable<string>, none: string): string => [...names].sort().join(', ') || none;

/** Fleets of kubevirt providers must exist: their CPU allocation ratio sizes every VM. */
export function checkProviderFleets(catalogue: Catalogue, input: AutoNodesInput, issues: PlanIssue[]): void {
  for (const p of catalogue.providers) {
    if (p.kind === 'kubevirt' && p.fleet && !input.fleets.has(p.fleet) && !input.declared?.fleets.has(p.fleet)) {
      issues.push({
        path: childPath(p.path, 'fleet'),
        message: `unknown fleet "${p.fleet}": use one of ${orNone(input.fleets.keys(), '(no fleets defined)')}`,
      });
    }
  }
}

/** Providers whose catalogue has a problem: their pools' "no type matches" would only repeat it. */
function brokenCatalogues(catalogue: Catalogue): Set<string> {
  return new Set(
    catalogue.providers
      .filter((p) => catalogue.issues.some((i) => i.path === p.path || i.path.startsWith(`${p.path}.`) || i.path.startsWith(`${p.path}[`)))
      .map((p) => p.name),
  );
}

/** Reads every autoNodes entry: the pools that can be planned, in config order; problems into `issues`. */
export function readPoolInput(input: AutoNodesInput, catalogue: Catalogue, issues: PlanIssue[], warnings: PlanIssue[]): PoolInput {
  const providers = new Map(catalogue.providers.map((p) => [p.name, p]));
  const broken = brokenCatalogues(catalogue);
  const out: PoolInput = { statics: [], dynamics: [], environments: new Map() };
  const poolNames = new Map<string, string>(); // `${cluster}/${name}` -> path
  input.autoNodes.forEach((entry, i) => {
    const source = input.sourcePaths?.[i];
    const entryPath = source?.entry ?? childPath('autoNodes', i);
    const ctx = entryContext(entry, entryPath, input, providers, broken, issues, warnings);
    if (ctx === undefined) return;
    const claim = (name: unknown, path: string) => claimPoolName(poolNames, entry.cluster, name, path, issues);
    (entry.static ?? []).forEach((spec, j) => {
      const path = source?.static?.[j] ?? childPath(childPath(entryPath, 'static'), j);
      if (claim(spec.name, path)) out.statics.push({ ctx, spec, path, order: out.statics.length + out.dynamics.length });
    });
    (entry.dynamic ?? []).forEach((spec, j) => {
      const path = source?.dynamic?.[j] ?? childPath(childPath(entryPath, 'dynamic'), j);
      if (claim(spec.name, path)) out.dynamics.push({ ctx, spec, path, order: out.statics.length + out.dynamics.length });
    });
    if ((entry.static?.length ?? 0) + (entry.dynamic?.length ?? 0) > 0) {
      out.environments.set(`${entry.cluster}\u0000${ctx.provider.name}`, { cluster: entry.cluster, provider: ctx.provider.name });
    }
  });
  return out;
}

/** Pool names name VMs and nodes: a DNS-1123 label, unique per cluster. */
function claimPoolName(poolNames: Map<string, string>, cluster: string, name: unknown, path: string, issues: PlanIssue[]): boolean {
  if (typeof name !== 'string' || !isDnsLabel(name)) {
    issues.push({
      path: childPath(path, 'name'),
      message: `pool name ${describeValue(name)} is not a DNS-1123 label: use lower-case letters, digits and '-'`,
    });
    return false;
  }
  const key = `${cluster}/${name}`;
  const other = poolNames.get(key);
  if (other) {
    issues.push({
      path: childPath(path, 'name'),
      message: `pool "${name}" is already defined for cluster ${cluster} at ${other}: pool names must be unique per cluster`,
    });
    return false;
  }
  poolNames.set(key, path);
  return true;
}

/** An entry's cluster, provider, quota and fleet, checked; undefined when its pools cannot be planned. */
function entryContext(
  entry: AutoNodesSpec,
  entryPath: string,
  input: AutoNodesInput,
  providers: ReadonlyMap<string, NodeProvider>,
  broken: ReadonlySet<string>,
  issues: PlanIssue[],
  warnings: PlanIssue[],
): PoolContext | undefined {
  const before = issues.length;
  if (!input.clusters.has(entry.cluster)) {
    issues.push({
      path: childPath(entryPath, 'cluster'),
      message: `unknown cluster ${describeValue(entry.cluster)}: use one of ${orNone(input.clusters, '(no clusters defined)')}, or add it to clusters`,
    });
  }
  const provider = providers.get(entry.provider);
  if (!provider) {
    if (!input.providers.some((p) => p.name === entry.provider)) {
      issues.push({
        path: childPath(entryPath, 'provider'),
        message: `unknown node provider ${describeValue(entry.provider)}: use one of ${orNone(
          input.providers.map((p) => p.name),
          '(no nodeProviders defined)',
        )}`,
      });
    }
    return undefined;
  }
  if (provider.kind === 'kubevirt' && entry.quota === undefined) {
    issues.push({
      path: childPath(entryPath, 'quota'),
      message: `provider ${provider.name} makes KubeVirt VMs, which are carved from a quota: set quota to one of ${orNone(input.quotas.keys(), '(no quotas defined)')}`,
    });
  }
  if (entry.quota !== undefined && !checkEntryQuota(entry.quota, entryPath, provider, input, issues, warnings)) return undefined;
  if (issues.length > before) return undefined;
  return {
    path: entryPath,
    cluster: entry.cluster,
    provider,
    quota: provider.kind === 'kubevirt' ? entry.quota : undefined,
    fleet: provider.kind === 'kubevirt' && provider.fleet ? input.fleets.get(provider.fleet) : undefined,
    properties: propertiesOf(entry, entryPath, input, provider.name),
    catalogueBroken: broken.has(provider.name),
  };
}

/** Where an entry's nodes take their properties from: its provider's spec, and the entry's own. */
function propertiesOf(entry: AutoNodesSpec, entryPath: string, input: AutoNodesInput, providerName: string): PoolContext['properties'] {
  const i = input.providers.findIndex((p) => p.name === providerName);
  return {
    provider: input.providers[i],
    providerPath: i >= 0 ? childPath(input.providersPath ?? 'nodeProviders', i) : entryPath,
    claim: entry.properties,
  };
}

/** An entry's quota: known, of the provider's fleet, and only for kubevirt; false when nothing can be planned. */
function checkEntryQuota(name: string, entryPath: string, provider: NodeProvider, input: AutoNodesInput, issues: PlanIssue[], warnings: PlanIssue[]): boolean {
  const quota = input.quotas.get(name);
  const at = childPath(entryPath, 'quota');
  if (!quota && input.declared?.quotas.has(name)) {
    // Declared but broken: its own problem is reported at the quota; nothing here can be planned.
    return false;
  } else if (!quota) {
    issues.push({ path: at, message: `unknown quota ${describeValue(name)}: use one of ${orNone(input.quotas.keys(), '(no quotas defined)')}` });
  } else if (provider.kind !== 'kubevirt') {
    warnings.push({
      path: at,
      message: `provider ${provider.name} is ${provider.kind}: its nodes are whole machines outside any quota, so quota ${name} is not charged; remove it`,
    });
  } else if (provider.fleet && quota.fleet !== provider.fleet && input.fleets.has(quota.fleet) && input.fleets.has(provider.fleet)) {
    issues.push({
      path: at,
      message: `quota ${name} slices fleet ${quota.fleet}, but provider ${provider.name} runs its VMs on fleet ${provider.fleet}: use a quota of fleet ${provider.fleet}`,
    });
  }
  return true;
}

/** A static pool's quantity: a whole number within the pool bound, whose last node name is a DNS-1123 label. */
export function checkStaticQuantity(ctx: PoolContext, spec: StaticPoolSpec, path: string, issues: PlanIssue[]): void {
  const quantity = spec.quantity;
  const quantityProblem = poolSizeProblem(quantity);
  if (quantityProblem !== undefined) {
    issues.push({ path: childPath(path, 'quantity'), message: `quantity ${quantityProblem}` });
  } else if (quantity > 0 && isDnsLabel(ctx.cluster) && autoNodeName(ctx.cluster, spec.name, quantity - 1).length > 63) {
    issues.push({
      path: childPath(path, 'name'),
      message: `node names ${autoNodeName(ctx.cluster, spec.name, quantity - 1)} would be longer than 63 characters: shorten the pool or cluster name`,
    });
  }
}

/** A dynamic pool's sizing settings, as checked. */
export interface DynamicSettings {
  readonly autoscaler: 'karpenter' | 'cluster-api';
  /** Karpenter's limits without `nodes`. */
  readonly limits: ResourceVector;
  readonly nodesLimit: number | undefined;
  readonly minNodes: number;
}

/** A dynamic pool's autoscaler, limits (Karpenter's map: resources plus `nodes`), minNodes and disruption settings. */
export function parseDynamicSettings(ctx: PoolContext, spec: DynamicPoolSpec, path: string, issues: PlanIssue[]): DynamicSettings {
  const autoscaler = spec.autoscaler ?? 'karpenter';
  if (autoscaler !== 'karpenter' && autoscaler !== 'cluster-api') {
    issues.push({ path: childPath(path, 'autoscaler'), message: `unknown autoscaler ${describeValue(autoscaler)}: use karpenter or cluster-api` });
  }
  if (autoscaler === 'cluster-api' && ctx.provider.kind !== 'kubevirt') {
    issues.push({
      path: childPath(path, 'autoscaler'),
      message: `cluster-api pools are rendered as KubevirtMachineTemplates, but provider ${ctx.provider.name} is ${ctx.provider.kind}: use autoscaler: karpenter`,
    });
  }
  let limits: ResourceVector = {};
  let nodesLimit: number | undefined;
  if (spec.limits !== undefined) {
    const { nodes, ...rest } = spec.limits;
    if (nodes !== undefined) {
      const n = typeof nodes === 'string' && /^[0-9]+$/.test(nodes) ? Number(nodes) : nodes;
      const problem = poolSizeProblem(n);
      if (problem !== undefined) issues.push({ path: childPath(childPath(path, 'limits'), 'nodes'), message: `limits.nodes ${problem}` });
      else nodesLimit = n as number;
    }
    limits = captureInto(issues, () => parseResources(rest, childPath(path, 'limits'), 'fleet')) ?? {};
  }
  const minNodes = spec.minNodes ?? 0;
  const minNodesProblem = poolSizeProblem(minNodes);
  if (minNodesProblem !== undefined) {
    issues.push({ path: childPath(path, 'minNodes'), message: `minNodes ${minNodesProblem}` });
  } else if (spec.minNodes !== undefined && autoscaler === 'karpenter') {
    issues.push({
      path: childPath(path, 'minNodes'),
      message: 'minNodes is for autoscaler: cluster-api (Karpenter pools start empty): remove it, or use a static pool for nodes that must always exist',
    });
  }
  checkDisruption(spec, path, issues);
  return { autoscaler, limits, nodesLimit, minNodes };
}
