/**
 * Planning, phases 2 and 3: build the one VM list. Elastic node pools give their VMs directly; auto-node
 * pools first choose their node types (against what the elastic VMs leave of each quota), then static
 * kubevirt pools give their VMs, and dynamic pools the VMs they may reach at their limits.
 */
import { resolveAutoClaims } from '../auto/claims';
import { AutoNodesInput, AutoNodesPlan, AutoNodesSourcePath, checkTaints, planAutoNodes, PlannedAutoPool, typeVm } from '../auto';
import { hostImageProblem } from '../hosts/os-image';
import { metal3ImageOf, OsImages, osImagesByName } from '../auto/metal3-image';
import { planTemplateProviders, unprovenCapacityWarning } from '../auto/templates';
import { metalsliceTemplateOf, TEMPLATE_IMAGE_URL_PROPERTY } from '../input/template-kind';
import { poolSizeProblem } from '../base/bounds';
import { poolVmName } from '../naming/derived';
import { childPath, IssueCollector, PlanIssue } from '../base/errors';
import { Foundation, checkLabels, pathOf, unknownReference } from './foundation';
import { AutoNodesSpec, Labels, MetalsliceConfig, NodePoolSpec, NodeProviderSpec, PrivateNodePoolSpec } from '../input/model';
import { EffectiveProperties, effectiveProperties, ImageSource, KubevirtProperties, kubevirtProperties, PropertyLevel, propertyLevels } from '../vm/properties';
import { labelValueProblem } from '../naming/kube-names';
import { NodeProvider, NodeType, parseNodeProviders, privatePoolProviderProblem } from '../auto/node-types';
import type { ModelPaths, PlannedFleet, PlannedQuota, UnplacedPool } from './types';
import { PoolPreview, previewDynamicPool } from '../auto/preview';
import { Quantity } from '../base/quantity';
import { QuotaLedger } from '../quota/ledger';
import { get, normalizeResources, parseResources, ResourceVector } from '../base/resources';
import { asksForLiveMigration, buildVm, HostGroup, FleetKubevirt, concreteDemandBy, pinVm, PlannedVm, VmBuild } from '../vm/vm';
import { amount } from '../base/units';

/** Elastic pools as declared, each with the VM build all its nodes share. */
export interface ElasticPools {
  readonly pools: readonly UnplacedPool[];
  readonly vms: readonly PlannedVm[];
}

/** Phase 2a: elastic node pools and their VMs. */
export function buildElasticVms(model: MetalsliceConfig, paths: ModelPaths | undefined, foundation: Foundation, issues: IssueCollector): ElasticPools {
  const pools: UnplacedPool[] = [];
  const vms: PlannedVm[] = [];
  (model.nodePools ?? []).forEach((spec, i) => {
    const at = pathOf(paths, 'nodePools', i);
    const countOk = checkElasticFields(spec, at, foundation, issues);
    const shape = elasticShape(spec, at, issues);
    if (!shape) return;
    const quota = foundation.quotas.get(spec.quota);
    const fleet = quota ? foundation.fleets.get(quota.fleet) : undefined;
    if (!quota || !fleet) return;
    const build = elasticBuild(spec, at, shape, fleet, issues);
    if (build) addElasticPool(spec, at, countOk ? spec.count : 0, shape, build, quota, pools, vms);
  });
  return { pools, vms };
}

/** An elastic pool's references, count, labels, taints and node type; whether its count is a valid one. */
function checkElasticFields(spec: NodePoolSpec, at: string, foundation: Foundation, issues: IssueCollector): boolean {
  if (!foundation.declared.quotas.has(spec.quota)) issues.add(`${at}.quota`, unknownReference('quota', spec.quota, foundation.quotas.keys()));
  if (!foundation.declared.clusters.has(spec.cluster)) issues.add(`${at}.cluster`, unknownReference('cluster', spec.cluster, foundation.clusters.keys()));
  const countProblem = poolSizeProblem(spec.count);
  if (countProblem !== undefined) issues.add(`${at}.count`, countProblem);
  checkLabels(spec.labels, `${at}.labels`, issues, true);
  const taintProblems: PlanIssue[] = [];
  checkTaints(spec.taints, `${at}.taints`, taintProblems);
  for (const p of taintProblems) issues.add(p.path, p.message);
  if (spec.nodeType !== undefined) {
    const problem = labelValueProblem(spec.nodeType);
    if (problem) issues.add(`${at}.nodeType`, `"${spec.nodeType}": ${problem}`);
  }
  return countProblem === undefined;
}

/** The pool's VM shape: whole vCPUs, memory enough to boot, a size for a dataVolume root disk. */
function elasticShape(spec: NodePoolSpec, at: string, issues: IssueCollector): ResourceVector | undefined {
  const shape = issues.capture(() => normalizeResources(parseResources(spec.shape, `${at}.shape`)));
  if (!shape) return undefined;
  const cpu = get(shape, 'cpu');
  if (cpu.isZero() || cpu.nano % 1_000_000_000n !== 0n) {
    issues.add(`${at}.shape.cpu`, `a VM gets whole vCPUs: got ${cpu}; use ${Math.max(1, Number(cpu.ceilUnits()))}`);
    return undefined;
  }
  if (get(shape, 'memory').cmp(Quantity.parse('256Mi')) < 0) {
    issues.add(
      `${at}.shape.memory`,
      `a node needs at least 256Mi of memory to boot (got ${amount('memory', get(shape, 'memory'))}); kubelet wants 2Gi or more`,
    );
    return undefined;
  }
  if ((spec.rootDisk ?? 'dataVolume') === 'dataVolume' && get(shape, 'disk').isZero()) {
    issues.add(`${at}.shape.disk`, 'a dataVolume root disk needs a size: add disk (e.g. 40Gi), or set rootDisk: containerDisk');
    return undefined;
  }
  return shape;
}

/** How every VM of the pool is built on its quota's fleet; a pinned pool cannot ask for live migration. */
function elasticBuild(spec: NodePoolSpec, at: string, shape: ResourceVector, fleet: PlannedFleet, issues: IssueCollector): VmBuild | undefined {
  const problems: PlanIssue[] = [];
  const build = buildVm(shape, spec.vm ?? {}, spec.rootDisk ?? 'dataVolume', fleet.kubevirt, { options: `${at}.vm`, shape: `${at}.shape` }, problems);
  for (const p of problems) issues.add(p.path, p.message);
  if (!build) return undefined;
  if ((spec.placement ?? 'spread') === 'planned' && asksForLiveMigration(spec.vm ?? {})) {
    issues.add(
      `${at}.vm.evictionStrategy`,
      `${spec.vm?.evictionStrategy} needs a second host to migrate to, but placement: planned pins each VM to one host (a drain would wait forever): use None or External, or placement: spread`,
    );
    return undefined;
  }
  return build;
}

/** The pool as planned and its `count` VMs, each a copy of one template with its own name and index. */
function addElasticPool(
  spec: NodePoolSpec,
  at: string,
  count: number,
  shape: ResourceVector,
  build: VmBuild,
  quota: PlannedQuota,
  pools: UnplacedPool[],
  vms: PlannedVm[],
): void {
  const nodeType = spec.nodeType ?? spec.name;
  const placement = spec.placement ?? 'spread';
  const pool: UnplacedPool = {
    kind: 'elastic',
    name: spec.name,
    path: at,
    spec,
    quota: quota.name,
    fleet: quota.fleet,
    cluster: spec.cluster,
    namespace: quota.namespace,
    nodeType,
    shape,
    footprint: normalizeResources(build.hostDemand),
    nodes: Array.from({ length: count }, (_, n) => ({ name: poolVmName(spec.name, n) })),
  };
  pools.push(pool);
  // One object per pool with every field in its final order; each VM copies it and sets its own name and
  // index. Spreading `build` and adding fields per VM cost ~50 us a VM (0.5 s at 10,000 VMs).
  const template: PlannedVm = {
    ...build,
    name: '',
    origin: 'elastic',
    concrete: true,
    pool: spec.name,
    poolPath: at,
    countPath: `${at}.count`,
    index: 0,
    cluster: spec.cluster,
    quota: quota.name,
    fleet: quota.fleet,
    namespace: quota.namespace,
    nodeType,
    ...(spec.image !== undefined ? { image: spec.image } : {}),
    placement,
    labels: spec.labels ?? {},
    taints: spec.taints ?? [],
  };
  for (let index = 0; index < count; index++) {
    const vm: PlannedVm = { ...template, name: pool.nodes[index].name, index };
    vms.push(placement === 'planned' ? pinVm(vm, 'placement: planned') : vm);
  }
}

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
    const type = providers.find((p) => p.name === spec.provider)?.types.find((t) => t.name === spec.nodeType);
    const devices = (type?.extendedResources ?? []).map((r) => ({ property: r, operator: 'Exists' as const }));
    specs.push({
      cluster: spec.cluster,
      provider: spec.provider,
      static: [
        {
          name: spec.name,
          quantity: countProblem === undefined ? spec.count : 0,
          requirements: [{ property: 'vcluster.com/node-type', value: spec.nodeType }, ...devices],
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

/** The property metalslice's kubevirt template confines a claim's VM to a host group with ("a,b,c"). */
const TEMPLATE_HOST_GROUP_PROPERTY = 'metalslice.io/host-group';

/**
 * A pool whose VMs vCluster Platform makes from metalslice's kubevirt template and that the plan confines to a
 * host group: its claims must carry that group (the template renders what the claim says), or the plan's proof
 * does not hold for them. An issue naming the property and the value, for each such pool that does not set it.
 */
export function templateGroupIssues(
  selection: Pick<AutoSelection, 'auto' | 'autoSpecs'>,
  vms: readonly PlannedVm[],
  groups: ReadonlyMap<string, HostGroup>,
): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const seen = new Set<string>();
  for (const vm of vms) {
    const hosts = groups.get(vm.poolPath)?.hosts;
    if (!vm.madeByNodeTemplate || hosts === undefined || seen.has(vm.poolPath)) continue;
    seen.add(vm.poolPath);
    const pool = selection.auto.pools.find((p) => p.path === vm.poolPath);
    if (!pool) continue;
    const claim = claimOf(selection, pool);
    const written = (claim.properties?.[TEMPLATE_HOST_GROUP_PROPERTY] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '');
    if ([...written].sort().join(',') === [...hosts].sort().join(',')) continue;
    issues.push({
      path: childPath(childPath(claim.path, 'properties'), TEMPLATE_HOST_GROUP_PROPERTY),
      message: `pool ${vm.pool}: its VMs are proven only confined to hosts ${hosts.join(', ')}, and vCluster Platform makes them from metalslice's kubevirt template, which confines a VM only as its claim says: set ${TEMPLATE_HOST_GROUP_PROPERTY}: "${hosts.join(',')}" in the entry's properties`,
    });
  }
  return issues;
}

/** The bare type name of `provider.type`: what the node's type label says. */
function bareTypeName(id: string): string {
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
function claimProperties(
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

/** A pool's VM settings from its provider's, node type's and claim's properties (vCluster's precedence). */
function propertiesOf(
  model: MetalsliceConfig,
  paths: ModelPaths | undefined,
  selection: AutoSelection,
  pool: PlannedAutoPool,
  typeName: string,
  issues: IssueCollector,
  warnings: PlanIssue[],
): KubevirtProperties {
  const { effective, claimPath } = claimProperties(model, paths, selection, pool, typeName);
  const problems: PlanIssue[] = [];
  const found = kubevirtProperties(effective, claimPath, problems, warnings);
  for (const p of problems) issues.add(p.path, p.message);
  return found;
}

export { typeVm };

/** Phase 3: the VMs of kubevirt auto-node pools: static pools' nodes, and dynamic pools at their limits. */
export function buildAutoVms(
  foundation: Foundation,
  selection: AutoSelection,
  model: MetalsliceConfig = {},
  paths?: ModelPaths,
  issues: IssueCollector = new IssueCollector(),
  warnings: PlanIssue[] = [],
): PlannedVm[] {
  const vms: PlannedVm[] = [];
  const ctx: AutoVmContext = {
    selection,
    model,
    paths,
    issues,
    warnings,
    typeById: new Map(selection.providers.flatMap((p) => p.types.map((t) => [t.id, t] as const))),
    seenWarnings: new Set<string>(),
  };
  for (const pool of selection.auto.pools) {
    if (pool.providerKind !== 'kubevirt' || pool.quota === undefined) continue;
    const fleetName = selection.kubevirtFleetOf.get(pool.provider);
    const quota = foundation.quotas.get(pool.quota);
    const fleet = fleetName ? foundation.fleets.get(fleetName) : undefined;
    if (!fleet || !quota) continue;
    const vmOf = typeBuilds(ctx, pool, fleet.kubevirt);
    const common = {
      origin: pool.mode,
      pool: pool.name,
      poolPath: pool.path,
      cluster: pool.cluster,
      quota: quota.name,
      fleet: fleet.name,
      namespace: quota.namespace,
      placement: 'spread' as const,
      taints: pool.taints,
      ...(selection.templateVms.has(pool.provider) ? { madeByNodeTemplate: true } : {}),
    };
    if (pool.mode === 'static') pushStaticVms(pool, vmOf, common, vms);
    else pushLimitVms(pool, vmOf, common, vms);
  }
  return vms;
}

/** What building the VMs of auto pools reads and writes, shared by every pool. */
interface AutoVmContext {
  readonly selection: AutoSelection;
  readonly model: MetalsliceConfig;
  readonly paths?: ModelPaths;
  readonly issues: IssueCollector;
  readonly warnings: PlanIssue[];
  readonly typeById: ReadonlyMap<string, NodeType>;
  /** Property warnings already given (one per path, however many pools share the entry). */
  readonly seenWarnings: Set<string>;
}

/** A type's VM as built for one pool. */
type TypeBuild = (VmBuild & { imageSource?: ImageSource }) | undefined;

/** The fields every VM of a pool shares. */
type PoolVmFields = Pick<
  PlannedVm,
  'origin' | 'pool' | 'poolPath' | 'cluster' | 'quota' | 'fleet' | 'namespace' | 'placement' | 'taints' | 'madeByNodeTemplate'
>;

/** The VM of each node type for one pool (with the pool's claim properties), built once per type and cached. */
function typeBuilds(ctx: AutoVmContext, pool: PlannedAutoPool, fleet: FleetKubevirt): (typeId: string) => TypeBuild {
  const builds = new Map<string, TypeBuild>();
  return (typeId) => {
    if (builds.has(typeId)) return builds.get(typeId);
    const type = ctx.typeById.get(typeId);
    let built: TypeBuild;
    if (type) {
      const poolWarnings: PlanIssue[] = [];
      const props = propertiesOf(ctx.model, ctx.paths, ctx.selection, pool, type.name, ctx.issues, poolWarnings);
      for (const w of poolWarnings) {
        if (ctx.seenWarnings.has(w.path)) continue;
        ctx.seenWarnings.add(w.path);
        ctx.warnings.push(w);
      }
      const problems: PlanIssue[] = [];
      built = typeVm(type, fleet, props, problems);
      for (const p of problems) ctx.issues.add(p.path, p.message);
    }
    builds.set(typeId, built);
    return built;
  };
}

/** A static pool's VMs: one per planned node, concrete. */
function pushStaticVms(pool: PlannedAutoPool, vmOf: (typeId: string) => TypeBuild, common: PoolVmFields, vms: PlannedVm[]): void {
  pool.nodes.forEach((node, index) => {
    const build = vmOf(node.nodeType);
    if (!build) return;
    vms.push({
      ...build,
      ...common,
      name: node.name,
      concrete: true,
      countPath: childPath(pool.path, 'quantity'),
      index,
      nodeType: bareTypeName(node.nodeType),
      labels: node.labels,
    });
  });
}

/** A dynamic pool's VMs at its limits (its worst case), not concrete: what it may reach, not what it has. */
function pushLimitVms(pool: PlannedAutoPool, vmOf: (typeId: string) => TypeBuild, common: PoolVmFields, vms: PlannedVm[]): void {
  const worst = pool.dynamic?.worstCase;
  const build = worst ? vmOf(worst.nodeType) : undefined;
  if (!worst || !build) return;
  for (let index = 0; index < worst.nodes; index++) {
    vms.push({
      ...build,
      ...common,
      name: `${pool.cluster}-${pool.name}-limit-${index}`,
      concrete: false,
      countPath: childPath(pool.path, 'limits'),
      index,
      nodeType: bareTypeName(worst.nodeType),
      labels: pool.nodeLabels,
    });
  }
}
