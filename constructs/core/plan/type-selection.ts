/**
 * Planning, phase 2b: auto-node type selection. What each quota has left after the elastic VMs goes to
 * auto/ (planAutoNodes), which chooses the node type of every static and dynamic pool; private node pools and
 * static pools on metal3 providers become HostClaim pools, and dynamic pools get their previews.
 */
import { resolveAutoClaims } from '../auto/claims';
import { AutoNodesInput, AutoNodesPlan, AutoNodesSourcePath, planAutoNodes, PlannedAutoPool } from '../auto';
import { hostImageProblem } from '../hosts/os-image';
import { metal3ImageOf, OsImages, osImagesByName } from '../auto/metal3-image';
import { planTemplateProviders, unprovenCapacityWarning } from '../auto/templates';
import { metalsliceTemplateOf, TEMPLATE_HOST_GROUP_PROPERTY, TEMPLATE_IMAGE_URL_PROPERTY } from '../input/template-kind';
import { hostGroupLabel, VCLUSTER_NODE_TYPE_LABEL } from '../naming/derived';
import { poolSizeProblem } from '../base/bounds';
import { childPath, IssueCollector, PlanIssue } from '../base/errors';
import { Foundation, pathOf } from './foundation';
import { AutoNodesSpec, Labels, MetalsliceConfig, NodeProviderSpec, PrivateNodePoolSpec } from '../input/model';
import { drainTimeoutProblem, rolloutProblems } from '../input/disruption';
import { EffectiveProperties, effectiveProperties, PropertyLevel, propertyLevels } from '../vm/properties';
import { NodeProvider, parseNodeProviders, privatePoolProviderProblem } from '../auto/node-types';
import type { ModelPaths } from './types';
import { PoolPreview, previewDynamicPool } from '../auto/preview';
import { QuotaLedger } from '../quota/ledger';
import { HostGroup, concreteDemandBy, PlannedVm } from '../vm/vm';
import type { ElasticPools } from './elastic-vms';

/** What type selection gets of each quota: its ledger's room after the elastic VMs, its fleet, limits and path. */
export function quotaRoom(foundation: Foundation, vms: readonly PlannedVm[]): AutoNodesInput['quotas'] {
  const used = concreteDemandBy(
    vms,
    (vm) => vm.quota,
    (vm) => vm.quotaDemand,
  );
  return new Map(
    [...foundation.quotas.values()].map((q) => {
      const ledger = new QuotaLedger(q);
      ledger.charge(used.get(q.name) ?? {});
      return [q.name, { remaining: ledger.room, fleet: q.fleet, limits: q.limits, path: q.path }];
    }),
  );
}

/** A pool of whole bare-metal hosts as HostClaims: a privateNodePools entry, or a static pool on a metal3 provider. */
export interface PrivatePool {
  /** The pool as a private node pool: its node type, count and image. */
  readonly spec: PrivateNodePoolSpec;
  /** Where it was written (config, construct or vcluster.yaml path). */
  readonly path: string;
  /** Its hosts, as the node type selection claimed them. */
  readonly pool: PlannedAutoPool;
}

export interface AutoSelection {
  readonly auto: AutoNodesPlan;
  readonly autoSpecs: readonly AutoNodesSpec[];
  readonly privatePools: readonly PrivatePool[];
  /** Providers whose nodes vCluster Platform makes by running metalslice's kubevirt node template. */
  readonly templateVms: ReadonlySet<string>;
  /** Providers whose hosts vCluster Platform claims by running metalslice's metal3 node template: planned, never rendered. */
  readonly templateHosts: ReadonlySet<string>;
  readonly providers: readonly NodeProvider[];
  /** kubevirt provider -> the fleet its VMs run on. */
  readonly kubevirtFleetOf: ReadonlyMap<string, string>;
  readonly previews: ReadonlyMap<PlannedAutoPool, PoolPreview>;
}

/** Private pools are static pools of one metal3 node type; they ask for whatever devices that type's hosts carry. */
function privateAsAuto(
  model: MetalsliceConfig,
  paths: ModelPaths | undefined,
  providers: readonly NodeProvider[],
  issues: IssueCollector,
): { specs: AutoNodesSpec[]; sources: AutoNodesSourcePath[] } {
  const specs: AutoNodesSpec[] = [];
  const sources: AutoNodesSourcePath[] = [];
  const providerSpecs = model.nodeProviders ?? [];
  (model.privateNodePools ?? []).forEach((spec, i) => {
    const at = pathOf(paths, 'privateNodePools', i);
    const provider = providerSpecs.find((p) => p.name === spec.provider);
    const providerProblem = provider && privatePoolProviderProblem(spec.provider, provider.kind);
    if (providerProblem) {
      issues.add(`${at}.provider`, providerProblem);
      return;
    }
    // The count is the private pool's own field, of hosts: checked here, so the static pool it becomes is not
    // reported a second time under a field the pool does not have.
    const countProblem = poolSizeProblem(spec.count, 'hosts');
    if (countProblem !== undefined) issues.add(`${at}.count`, `count ${countProblem}`);
    const imageProblem = hostImageProblem(spec.image);
    if (imageProblem !== undefined) issues.add(`${at}.image`, imageProblem);
    const drainProblem = spec.drainTimeout === undefined ? undefined : drainTimeoutProblem(spec.drainTimeout);
    if (drainProblem !== undefined) issues.add(`${at}.drainTimeout`, drainProblem);
    for (const [field, problem] of rolloutProblems(spec.rollout)) issues.add(`${at}.rollout.${field}`, problem);
    const type = providers.find((p) => p.name === spec.provider)?.types.find((t) => t.name === spec.nodeType);
    const devices = (type?.extendedResources ?? []).map((r) => ({ property: r, operator: 'Exists' as const }));
    specs.push({
      cluster: spec.cluster,
      provider: spec.provider,
      static: [
        {
          name: spec.name,
          quantity: countProblem === undefined ? spec.count : 0,
          requirements: [{ property: VCLUSTER_NODE_TYPE_LABEL, value: spec.nodeType }, ...devices],
          taints: spec.taints,
          nodeLabels: spec.labels,
        },
      ],
    });
    sources.push({ entry: at, static: [at] });
  });
  return { specs, sources };
}

/** Phase 2b: node types for every auto-node pool (and private pool), against the quota room the elastic VMs leave. */
export function selectAutoNodeTypes(
  model: MetalsliceConfig,
  paths: ModelPaths | undefined,
  foundation: Foundation,
  elastic: ElasticPools,
  issues: IssueCollector,
  warnings: PlanIssue[],
): AutoSelection {
  const declared = declaredSources(model, paths);
  const templateIssues: PlanIssue[] = [];
  const templates = planTemplateProviders(
    model.nodeProviders ?? [],
    (i) => pathOf(paths, 'nodeProviders', i),
    model.autoNodes ?? [],
    (i) => declared[i].entry,
    (quota) => foundation.quotas.get(quota)?.fleet,
    templateIssues,
  );
  for (const issue of templateIssues) issues.add(issue.path, issue.message);
  const providerSpecs = templates.providers;
  const catalogue = parseNodeProviders(providerSpecs);
  const claims = resolveAutoClaims(templates.entries, declared, model.nodeProfiles ?? [], issues, warnings);
  const autoSpecs: AutoNodesSpec[] = claims.specs;
  const sourcePaths: AutoNodesSourcePath[] = claims.sources;
  const privates = privateAsAuto(model, paths, catalogue.providers, issues);
  autoSpecs.push(...privates.specs);
  sourcePaths.push(...privates.sources);
  const auto = planAutoNodes({
    providers: providerSpecs,
    autoNodes: autoSpecs,
    quotas: quotaRoom(foundation, elastic.vms),
    fleets: new Map([...foundation.fleets.values()].map((f) => [f.name, f.kubevirt])),
    clusters: foundation.declared.clusters,
    declared: foundation.declared,
    providersPath: paths?.nodeProviders ? undefined : 'nodeProviders',
    sourcePaths,
  });
  for (const issue of auto.issues) issues.add(issue.path, issue.message);
  warnings.push(...auto.warnings);
  const selection = {
    auto,
    autoSpecs,
    templateVms: templates.templateVms,
    templateHosts: templates.templateHosts,
    providers: catalogue.providers,
    kubevirtFleetOf: new Map(providerSpecs.filter((p) => p.kind === 'kubevirt' && p.fleet).map((p) => [p.name, p.fleet!])),
    previews: previewDynamicPools(auto, autoSpecs, issues, warnings),
  };
  const privatePools = [...plannedPrivatePools(model, paths, auto), ...staticMetal3Pools(model, paths, selection, issues)];
  warnTerraformStatics(auto.pools, templates.templateVms, providerSpecs, warnings);
  checkTemplateImages(model, paths, selection, issues);
  return { ...selection, privatePools };
}

/** Where each autoNodes entry and its pools were written (a vcluster.yaml import brings its own). */
function declaredSources(model: MetalsliceConfig, paths: ModelPaths | undefined): AutoNodesSourcePath[] {
  return (model.autoNodes ?? []).map((entry, i) => {
    const at = pathOf(paths, 'autoNodes', i);
    return (
      entry.source ?? {
        entry: at,
        static: (entry.static ?? []).map((_, j) => `${at}.static[${j}]`),
        dynamic: (entry.dynamic ?? []).map((_, j) => `${at}.dynamic[${j}]`),
      }
    );
  });
}

/** Dynamic pools with preview pods: the cheapest node mix for them, from the pool's matching types. */
function previewDynamicPools(
  auto: AutoNodesPlan,
  autoSpecs: readonly AutoNodesSpec[],
  issues: IssueCollector,
  warnings: PlanIssue[],
): Map<PlannedAutoPool, PoolPreview> {
  const previews = new Map<PlannedAutoPool, PoolPreview>();
  for (const pool of auto.pools) {
    if (pool.mode !== 'dynamic' || pool.candidates.length === 0) continue;
    const spec = autoSpecs.find((a) => a.cluster === pool.cluster && a.provider === pool.provider)?.dynamic?.find((d) => d.name === pool.name);
    if (!spec?.preview) continue;
    const { preview, issues: previewIssues, warnings: previewWarnings } = previewDynamicPool(spec.preview, pool.candidates, pool.dynamic, pool.path);
    for (const issue of previewIssues) issues.add(issue.path, issue.message);
    warnings.push(...previewWarnings);
    if (preview) previews.set(pool, preview);
  }
  return previews;
}

/** Each privateNodePools entry with the static pool it was planned as (none when it never became one). */
function plannedPrivatePools(model: MetalsliceConfig, paths: ModelPaths | undefined, auto: AutoNodesPlan): PrivatePool[] {
  return (model.privateNodePools ?? []).flatMap((spec, i) => {
    const pool = auto.pools.find((p) => p.name === spec.name && p.cluster === spec.cluster && p.provider === spec.provider && p.mode === 'static');
    return pool ? [{ spec, path: pathOf(paths, 'privateNodePools', i), pool }] : [];
  });
}

/** What reading a pool's claim properties needs of the selection. */
type ClaimContext = Pick<AutoSelection, 'auto' | 'autoSpecs' | 'templateHosts'>;

/** The static pools on metal3 providers written as auto nodes: private pools of their chosen type, with the image their properties give. */
function staticMetal3Pools(model: MetalsliceConfig, paths: ModelPaths | undefined, selection: ClaimContext, issues: IssueCollector): PrivatePool[] {
  const problems: PlanIssue[] = [];
  const osImages: OsImages = osImagesByName(model.osImages ?? [], (i) => pathOf(paths, 'osImages', i), problems);
  const fromPrivate = new Set((model.privateNodePools ?? []).map((p) => `${p.cluster}\u0000${p.provider}\u0000${p.name}`));
  const out = selection.auto.pools.flatMap((pool): PrivatePool[] => {
    if (pool.providerKind !== 'metal3' || pool.mode !== 'static' || pool.nodeType === undefined || selection.templateHosts.has(pool.provider)) return [];
    if (fromPrivate.has(`${pool.cluster}\u0000${pool.provider}\u0000${pool.name}`)) return [];
    const typeName = bareTypeName(pool.nodeType);
    const { levels } = claimProperties(model, paths, selection, pool, typeName);
    const places = { pool: `static pool ${pool.name} on metal3 provider ${pool.provider}`, at: pool.path, properties: mostSpecificFirst(levels) };
    const image = metal3ImageOf(levels, osImages, places, problems);
    if (!image) return [];
    const spec: PrivateNodePoolSpec = {
      name: pool.name,
      cluster: pool.cluster,
      provider: pool.provider,
      nodeType: typeName,
      count: pool.quantity,
      image,
      ...(Object.keys(pool.nodeLabels).length > 0 ? { labels: pool.nodeLabels } : {}),
      ...(pool.taints.length > 0 ? { taints: pool.taints } : {}),
    };
    return [{ spec, path: pool.path, pool }];
  });
  for (const p of problems) issues.add(p.path, p.message);
  return out;
}

/** metalslice's metal3 template writes the image its claim's properties name: a static pool without one would fail in vCluster Platform. */
function checkTemplateImages(model: MetalsliceConfig, paths: ModelPaths | undefined, selection: ClaimContext, issues: IssueCollector): void {
  for (const pool of selection.auto.pools) {
    if (pool.mode !== 'static' || pool.nodeType === undefined || pool.quantity === 0 || !selection.templateHosts.has(pool.provider)) continue;
    const { effective, levels } = claimProperties(model, paths, selection, pool, bareTypeName(pool.nodeType));
    if (effective[TEMPLATE_IMAGE_URL_PROPERTY] !== undefined) continue;
    issues.add(
      pool.path,
      `static pool ${pool.name}: provider ${pool.provider} runs metalslice's metal3 node template, which needs ${TEMPLATE_IMAGE_URL_PROPERTY} to write the host's image (vCluster Platform's apply fails without it): set it in ${mostSpecificFirst(levels).join(', or ')}`,
    );
  }
}

/** Static pools on terraform providers other than metalslice's kubevirt template: listed, with their cost, and not proven. */
function warnTerraformStatics(
  pools: readonly PlannedAutoPool[],
  templateVms: ReadonlySet<string>,
  providers: readonly NodeProviderSpec[],
  warnings: PlanIssue[],
): void {
  for (const pool of pools) {
    // Providers planned as kubevirt or metal3 (metalslice's templates) are proven: their pools are not terraform here.
    if (pool.providerKind !== 'terraform' || pool.mode !== 'static' || pool.nodeType === undefined || templateVms.has(pool.provider)) continue;
    const cost = pool.candidates.find((c) => c.nodeType === pool.nodeType)?.cost;
    const template = metalsliceTemplateOf(providers.find((p) => p.name === pool.provider)?.nodeTemplate);
    warnings.push(unprovenCapacityWarning(pool, bareTypeName(pool.nodeType), cost, template));
  }
}

/** Property levels as errors list the places to set a value: the claim's first. */
function mostSpecificFirst(levels: readonly PropertyLevel[]): string[] {
  return [...levels].reverse().map((l) => l.path);
}

/**
 * A pool whose VMs vCluster Platform makes from metalslice's kubevirt template and that the plan confines to a
 * host group: its claims must carry that group's label key (the template renders what the claim says), or the
 * plan's proof does not hold for them. An issue naming the property and the value, for each such pool that does
 * not set it; a list of host names (what the property held before the group label) gets the same fix.
 */
export function templateGroupIssues(
  selection: Pick<AutoSelection, 'auto' | 'autoSpecs'>,
  vms: readonly PlannedVm[],
  groups: ReadonlyMap<string, HostGroup>,
): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const seen = new Set<string>();
  for (const vm of vms) {
    if (!vm.madeByNodeTemplate || seen.has(vm.poolPath)) continue;
    seen.add(vm.poolPath);
    const pool = selection.auto.pools.find((p) => p.path === vm.poolPath);
    if (!pool) continue;
    const claim = claimOf(selection, pool);
    const at = childPath(childPath(claim.path, 'properties'), TEMPLATE_HOST_GROUP_PROPERTY);
    const written = claim.properties?.[TEMPLATE_HOST_GROUP_PROPERTY]?.trim();
    const hosts = groups.get(vm.poolPath)?.hosts;
    if (hosts === undefined) {
      // Not confined: a label the claim still names is on no Node (metalslice writes only groups' labels), so
      // every VM the template made from it would stay Pending.
      if (written !== undefined && written !== '')
        issues.push({
          path: at,
          message: `pool ${vm.pool}: the plan spreads its VMs over the whole fleet, and no Node carries "${written}" (metalslice writes a group's label only while the plan confines a pool to it), so every VM the template makes with it would stay Pending: remove ${TEMPLATE_HOST_GROUP_PROPERTY} from the entry's properties`,
        });
      continue;
    }
    const label = hostGroupLabel(vm.cluster, vm.pool, 'auto');
    if (written === label) continue;
    issues.push({
      path: at,
      message: `pool ${vm.pool}: its VMs are proven only confined to its host group (${hosts.length} hosts), and vCluster Platform makes them from metalslice's kubevirt template, which confines a VM only as its claim says: set ${TEMPLATE_HOST_GROUP_PROPERTY}: "${label}" in the entry's properties (the group's Node label, which metalslice writes on the group's hosts)${wrongGroup(written, hosts)}`,
    });
  }
  return issues;
}

/** What is wrong with a host-group property that is set but is not the pool's label key. */
function wrongGroup(written: string | undefined, hosts: readonly string[]): string {
  if (written === undefined || written === '') return '';
  const listed = written.split(',').map((h) => h.trim());
  if (written.includes(',') || listed.every((h) => hosts.includes(h))) return `; "${written}" is a list of hosts, which the property no longer takes`;
  return `, not "${written}"`;
}

/** The bare type name of `provider.type`: what the node's type label says. */
export function bareTypeName(id: string): string {
  return id.includes('.') ? id.slice(id.indexOf('.') + 1) : id;
}

/** The entry a pool was declared in: its claim properties and where they are written. */
function claimOf(selection: Pick<AutoSelection, 'autoSpecs'>, pool: PlannedAutoPool): { properties?: Labels; path: string } {
  const entry = selection.autoSpecs.find(
    (a) => a.cluster === pool.cluster && a.provider === pool.provider && [...(a.static ?? []), ...(a.dynamic ?? [])].some((p) => p.name === pool.name),
  );
  return { properties: entry?.properties, path: pool.path.replace(/(\.|\[")?(static|dynamic)\[\d+\]$/, '') };
}

/** A pool's effective properties (its claim's over its node type's over its provider's: vCluster's precedence), and its levels, least specific first. */
export function claimProperties(
  model: MetalsliceConfig,
  paths: ModelPaths | undefined,
  selection: Pick<AutoSelection, 'autoSpecs'>,
  pool: PlannedAutoPool,
  typeName: string,
): { effective: EffectiveProperties; claimPath: string; levels: PropertyLevel[] } {
  const i = (model.nodeProviders ?? []).findIndex((p) => p.name === pool.provider);
  const claim = claimOf(selection, pool);
  const levels = propertyLevels(model.nodeProviders?.[i], pathOf(paths, 'nodeProviders', i), typeName, claim);
  return { effective: effectiveProperties(levels), claimPath: claim.path, levels };
}
