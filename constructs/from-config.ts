/**
 * The same model from a YAML/JSON config: one construct per entry, ids from names (never positions,
 * which shift), so a config and a hand-written app synthesize the same resources.
 */
import { TerraformBackend, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { CapacityPlan, CapacityPlanProps } from './capacity-plan';
import { MetalsliceError } from './core/base/errors';
import { excerpt } from './core/base/excerpt';
import { MetalsliceConfig } from './core/input/model';
import { ElasticFleet, IElasticFleet } from './fleet';
import { AutoNodes } from './auto-nodes';
import { autoNodesConstructId } from './core/naming/owners';
import { Plan, planModel } from './core/plan';
import { offerConfigPlan } from './plumbing/config-plan';
import { validateConfigShape } from './core/input/config-schema';
import { ConfigWarnings, NodeProfile } from './node-profile';
import { ElasticNodePool } from './node-pool';
import { INodeProvider, NodeProvider } from './node-provider';
import { PrivateNodePool } from './private-node-pool';
import { OsImage } from './os-image';
import { ElasticQuota, IElasticQuota } from './quota';
import { StateBackend } from './plumbing/state-backend';
import { TenantCluster } from './tenant-cluster';

/** Options of addConfig. */
export interface FromConfigOptions {
  /** Fleets and quotas are managed by another stack: plan against them, synthesize nothing for them. @default false */
  readonly importFleetsAndQuotas?: boolean;
}

/** Declares every fleet, quota, cluster and node pool of `config` under `scope`. */
export function addConfig(scope: Construct, config: MetalsliceConfig, options: FromConfigOptions = {}): void {
  // The CapacityPlan that already covers the scope (the usual order) says which failure domain to plan with.
  const failureDomain = CapacityPlan.of(scope)?.failureDomain;
  offerConfigPlan(scope, config, checkConfig(config, failureDomain), failureDomain);
  declareConfig(scope, config, options, (p, quota, cluster) => new ElasticNodePool(scope, p.name, { ...p, quota, cluster }));
}

/** The stacks `addConfigStacks` made. */
export interface ConfigStacks {
  /** Fleets, quotas, tenant clusters, node providers, auto-node and private pools, and the plan. */
  readonly base: TerraformStack;
  /** One stack per elastic node pool, by pool name; each is deployed after `base`. */
  readonly pools: ReadonlyMap<string, TerraformStack>;
}

/** How `addConfigStacks` names and equips its stacks. */
export interface ConfigStacksOptions {
  /**
   * Adds what every stack needs before metalslice's resources: the default kubernetes provider (the provider
   * cluster) and the random provider, and e.g. a backend. Called once per stack, base first.
   */
  readonly setUpStack: (stack: TerraformStack) => void;
  /** The base stack's id; pool stacks are `<prefix>-pool-<pool name>`. @default "metalslice" */
  readonly prefix?: string;
  /** Passed to the CapacityPlan, which sits in the base stack and covers the whole app. @default - none */
  readonly plan?: Omit<CapacityPlanProps, 'covers'>;
  /**
   * Where every stack keeps its state, each under a key derived from its name (`StateBackend.kubernetes()`:
   * Secret `tfstate-default-<stack>` in the provider cluster), so that several workstations share one locked
   * state per stack. A stack whose `setUpStack` already gave it a backend keeps that one.
   * @default - each stack's state in a local file (cdktf's default), which only one workstation can use
   */
  readonly stateBackend?: StateBackend;
}

/**
 * The same model as `addConfig`, laid out for large fleets: fleets, quotas and everything else in a base
 * stack, and a stack per elastic node pool, so that a change to one pool is planned and applied in that
 * pool's stack alone, whatever the size of the fleet. One CapacityPlan in the base stack proves the whole
 * config together (and writes the report); pool stacks depend on the base stack, so `cdktf deploy '*'`
 * applies quotas before their VMs.
 */
export function addConfigStacks(app: Construct, config: MetalsliceConfig, options: ConfigStacksOptions): ConfigStacks {
  const plan = checkConfig(config, options.plan?.failureDomain);
  const prefix = options.prefix ?? 'metalslice';
  const poolStackId = (pool: string) => `${prefix}-pool-${pool}`;
  checkStateKeys(
    options.stateBackend,
    prefix,
    (config.nodePools ?? []).map((p) => poolStackId(p.name)),
  );
  const base = new TerraformStack(app, prefix);
  options.setUpStack(base);
  addStateBackend(base, options.stateBackend);
  new CapacityPlan(base, 'plan', { ...options.plan, covers: app });
  offerConfigPlan(app, config, plan, options.plan?.failureDomain);
  const pools = new Map<string, TerraformStack>();
  declareConfig(base, config, {}, (p, quota, cluster) => {
    const stack = new TerraformStack(app, poolStackId(p.name));
    options.setUpStack(stack);
    addStateBackend(stack, options.stateBackend);
    stack.addDependency(base);
    // Pool stacks deploy one after another, as a stack's pools roll: a deploy's peak is one pool's surge, which
    // is what the plan proves (cdktf deploys stacks without a dependency between them in parallel).
    const previous = [...pools.values()].pop();
    if (previous) stack.addDependency(previous);
    new ElasticNodePool(stack, p.name, { ...p, quota, cluster: TenantCluster.inStack(stack, cluster) });
    pools.set(p.name, stack);
  });
  return { base, pools };
}

/**
 * Every stack's state key is checked before any stack is made, at the config path the stack's name comes
 * from (a pool's name, or the `prefix` option), so a pool name too long for the backend's key is a config error.
 */
function checkStateKeys(backend: StateBackend | undefined, prefix: string, poolStackIds: readonly string[]): void {
  if (backend === undefined) return;
  const stacks = [{ path: 'addConfigStacks options.prefix', id: prefix }, ...poolStackIds.map((id, i) => ({ path: `nodePools[${i}].name`, id }))];
  const problems = stacks.flatMap(({ path, id }) => {
    const problem = backend.stateKeyProblem(id);
    return problem === undefined ? [] : [{ path, message: `the state key of stack ${excerpt(id)} does not fit: ${problem}` }];
  });
  if (problems.length > 0) throw new MetalsliceError(problems);
}

/** `backend` for `stack`, unless `setUpStack` gave the stack one of its own. */
function addStateBackend(stack: TerraformStack, backend: StateBackend | undefined): void {
  if (backend !== undefined && !stack.node.children.some((c) => TerraformBackend.isBackend(c))) backend.addTo(stack);
}

/**
 * A config is planned before anything is built: every problem at once, at the config's own paths (the user
 * wrote YAML), instead of a construct error (a duplicate id, a missing reference) midway. A config built in
 * code gets the file's structure check too (the loader's own additions set aside). The plan is offered to the
 * CapacityPlan that covers the config's constructs, which then plans no second time (plumbing/config-plan.ts).
 */
function checkConfig(config: MetalsliceConfig, failureDomain: string | undefined): Plan {
  const { readWarnings: _warnings, ...written } = config;
  validateConfigShape({ ...written, ...(config.autoNodes ? { autoNodes: config.autoNodes.map(({ source: _source, ...entry }) => entry) } : {}) });
  const plan = planModel(config, { failureDomain });
  if (!plan.ok) throw new MetalsliceError(plan.errors);
  return plan;
}

/** How `declareConfig` declares one elastic node pool, given its quota and cluster constructs. */
type DeclareNodePool = (pool: NonNullable<MetalsliceConfig['nodePools']>[number], quota: IElasticQuota, cluster: TenantCluster) => void;

/** One construct per entry of a checked config, in a fixed order; elastic node pools by `nodePool`. */
function declareConfig(scope: Construct, config: MetalsliceConfig, options: FromConfigOptions, nodePool: DeclareNodePool): void {
  const fleets = declareFleets(scope, config, options);
  const quotas = declareQuotas(scope, config, options, fleets);
  const clusters = new Map<string, TenantCluster>();
  for (const c of config.clusters ?? []) {
    clusters.set(c.name, new TenantCluster(scope, c.name, { ...c }));
  }
  for (const p of config.nodePools ?? []) {
    const quota = quotas.get(p.quota);
    const cluster = clusters.get(p.cluster);
    if (!quota || !cluster) {
      throw new Error(
        `nodePools "${p.name}": ${!quota ? `no quota named "${p.quota}"` : `no cluster named "${p.cluster}"`}; run \`metalslice plan\` on the config for every problem`,
      );
    }
    nodePool(p, quota, cluster);
  }
  const providers = new Map<string, INodeProvider>();
  for (const p of config.nodeProviders ?? []) {
    const fleet = p.fleet !== undefined ? fleets.get(p.fleet) : undefined;
    providers.set(p.name, new NodeProvider(scope, p.name, { ...p, fleet }));
  }
  for (const p of config.nodeProfiles ?? []) new NodeProfile(scope, `node-profile-${p.name}`, p);
  for (const i of config.osImages ?? []) new OsImage(scope, `os-image-${i.name}`, i);
  if ((config.readWarnings ?? []).length > 0) new ConfigWarnings(scope, 'config-warnings', config.readWarnings!);
  declareAutoNodes(scope, config, quotas, clusters, providers);
  declarePrivateNodePools(scope, config, clusters, providers);
}

/** The config's fleets (imported from their inventory when `importFleetsAndQuotas`). */
function declareFleets(scope: Construct, config: MetalsliceConfig, options: FromConfigOptions): Map<string, IElasticFleet> {
  const fleets = new Map<string, IElasticFleet>();
  for (const f of config.fleets ?? []) {
    // Every field of the fleet (hostsFile is already read into hosts by the loader).
    const { hostsFile: _hostsFile, ...spec } = f;
    const props = { ...spec, hosts: f.hosts ?? [] };
    fleets.set(f.name, options.importFleetsAndQuotas ? ElasticFleet.fromInventory(scope, f.name, props) : new ElasticFleet(scope, f.name, props));
  }
  return fleets;
}

/** The config's quotas; a quota on an undeclared fleet gets that fleet imported by name (added to `fleets`). */
function declareQuotas(scope: Construct, config: MetalsliceConfig, options: FromConfigOptions, fleets: Map<string, IElasticFleet>): Map<string, IElasticQuota> {
  const quotas = new Map<string, IElasticQuota>();
  for (const q of config.quotas ?? []) {
    const fleet = fleets.get(q.fleet) ?? ElasticFleet.fromInventory(scope, `missing-fleet-${q.fleet}`, { name: q.fleet, hosts: [] });
    fleets.set(q.fleet, fleet);
    const props = {
      name: q.name,
      fleet,
      organization: q.organization,
      limits: q.limits,
      maxVirtualMachines: q.maxVirtualMachines,
      namespace: q.namespace,
      consumers: q.consumers,
      allowSystemConsumers: q.allowSystemConsumers,
      liveMigrations: q.liveMigrations,
    };
    quotas.set(q.name, options.importFleetsAndQuotas ? ElasticQuota.fromQuotaAttributes(scope, q.name, props) : new ElasticQuota(scope, q.name, props));
  }
  return quotas;
}

/** One AutoNodes construct per autoNodes entry, with its static and dynamic pools. */
function declareAutoNodes(
  scope: Construct,
  config: MetalsliceConfig,
  quotas: ReadonlyMap<string, IElasticQuota>,
  clusters: ReadonlyMap<string, TenantCluster>,
  providers: ReadonlyMap<string, INodeProvider>,
): void {
  for (const a of config.autoNodes ?? []) {
    const cluster = clusters.get(a.cluster);
    const provider = providers.get(a.provider);
    if (!cluster || !provider) {
      throw new Error(
        `autoNodes ${a.cluster}/${a.provider}: ${!cluster ? `no cluster named "${a.cluster}"` : `no node provider named "${a.provider}"`}; run \`metalslice plan\` on the config for every problem`,
      );
    }
    const auto = new AutoNodes(scope, autoNodesConstructId(a), {
      cluster,
      provider,
      quota: a.quota !== undefined ? quotas.get(a.quota) : undefined,
      properties: a.properties,
      defaultProfile: a.defaultProfile,
    });
    for (const s of a.static ?? []) auto.addStaticPool(s);
    for (const d of a.dynamic ?? []) auto.addDynamicPool(d);
  }
}

/** One PrivateNodePool construct per privateNodePools entry. */
function declarePrivateNodePools(
  scope: Construct,
  config: MetalsliceConfig,
  clusters: ReadonlyMap<string, TenantCluster>,
  providers: ReadonlyMap<string, INodeProvider>,
): void {
  for (const p of config.privateNodePools ?? []) {
    const cluster = clusters.get(p.cluster);
    const provider = providers.get(p.provider);
    if (!cluster || !provider) {
      throw new Error(
        `privateNodePools "${p.name}": ${!cluster ? `no cluster named "${p.cluster}"` : `no node provider named "${p.provider}"`}; run \`metalslice plan\` on the config for every problem`,
      );
    }
    new PrivateNodePool(scope, p.name, { ...p, cluster, provider });
  }
}
