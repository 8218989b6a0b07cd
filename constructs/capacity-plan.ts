/**
 * CapacityPlan: runs the planner at synth time over every metalslice construct in its scope. Errors fail
 * synth (with the construct path and the fix) before anything is written; the plan is written as
 * metalslice-plan.json and metalslice-plan.md beside cdk.tf.json, for review in pull requests.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Annotations, TerraformStack } from 'cdktf';
import { addCustomSynthesis } from 'cdktf/lib/synthesize/synthesizer';
import { Construct, IConstruct } from 'constructs';
import { PlannedAutoPool } from './core/auto';
import { offeredConfigPlan } from './plumbing/config-plan';
import { MetalsliceConfig } from './core/input/model';
import { ModelPaths, Plan, PlannedFleet, PlannedPool, PlannedPrivatePool, PlannedQuota, planModel, PlanReport } from './core/plan';
import { MetalsliceError } from './core/base/errors';
import { diffPlans, PlanChanges, readPlanFile, renderPlanMarkdown, stableJson } from './core/report';
import { PlannedVm } from './core/vm/vm';
import type { PoolRollout } from './core/plan';

/** A construct that adds part of the model the plan checks (a fleet, a quota, a pool, ...). */
export interface IPlanContributor extends IConstruct {
  /** Adds this construct's spec to the model under construction. */
  contributeToPlan(model: ModelBuilder): void;
}

/** A fleet construct that writes its host groups' labels on the hosts' Nodes (ElasticFleet; not an imported fleet). */
export interface IHostGroupLabeller extends IConstruct {
  /** The fleet whose hosts it labels. */
  readonly labelsHostGroupsOf: string;
}

function isLabeller(c: IConstruct): c is IHostGroupLabeller {
  return typeof (c as Partial<IHostGroupLabeller>).labelsHostGroupsOf === 'string';
}

function isContributor(c: IConstruct): c is IPlanContributor {
  return typeof (c as Partial<IPlanContributor>).contributeToPlan === 'function';
}

/** A list of the model (fleets, quotas, nodePools, ...). */
export type ModelKey = keyof MetalsliceConfig;
/** One entry of a model list (a fleet, a quota, a pool, ...). */
export type Entry<K extends ModelKey> = NonNullable<MetalsliceConfig[K]>[number];

/** Collects specs and the construct path each came from. */
export class ModelBuilder {
  private readonly entries = new Map<ModelKey, unknown[]>();
  private readonly paths = new Map<ModelKey, string[]>();

  /** Adds one spec of `kind`, written by the construct `at` (its path is where the plan reports problems). */
  add<K extends ModelKey>(kind: K, spec: Entry<K>, at: IConstruct): void {
    if (!this.entries.has(kind)) {
      this.entries.set(kind, []);
      this.paths.set(kind, []);
    }
    this.entries.get(kind)!.push(spec);
    this.paths.get(kind)!.push(at.node.path);
  }

  /** The model collected so far, and the construct path of every entry. */
  build(): {
    /** The model. */
    model: MetalsliceConfig;
    /** The construct path of every entry, by list. */
    paths: ModelPaths;
  } {
    return { model: Object.fromEntries(this.entries), paths: Object.fromEntries(this.paths) };
  }
}

/** Options of a CapacityPlan. */
export interface CapacityPlanProps {
  /**
   * Write metalslice-plan.json and metalslice-plan.md beside cdk.tf.json.
   * @default true
   */
  readonly writeReport?: boolean;
  /**
   * The plan to compare with: the Markdown report starts with what changed since it (nodes added, removed,
   * moved, quota and cost deltas). A path to a metalslice-plan.json, e.g. the base branch's in CI.
   * @default - the metalslice-plan.json the last synth left beside cdk.tf.json, if any
   */
  readonly previousPlan?: string;
  /**
   * A host label naming failure domains (rack, zone): N+1 headroom is also checked per domain, and fleets
   * with requireHostFailureHeadroom must survive the loss of any one.
   * @default - hosts only
   */
  readonly failureDomain?: string;
  /**
   * Plan every metalslice construct under this construct, rather than under the plan's own parent (its stack).
   * For an app split into stacks (see `addConfigStacks`): the plan sits in one stack, covers the app, and
   * proves every quota and pool of every stack together; constructs in the other stacks find it.
   * @default - the plan's parent
   */
  readonly covers?: IConstruct;
}

/** Plans every metalslice construct it covers at synth: errors stop synth before anything is written; the report is written beside cdk.tf.json. */
export class CapacityPlan extends Construct {
  /** Plans that cover a construct other than their parent (`covers`), by that construct. */
  private static readonly covering = new WeakMap<IConstruct, CapacityPlan>();

  /**
   * The plan that covers `scope`: the nearest CapacityPlan among the children of it or its ancestors, or that
   * `covers` it or one of its ancestors.
   */
  static of(scope: IConstruct): CapacityPlan | undefined {
    for (let s: IConstruct | undefined = scope; s; s = s.node.scope) {
      const found = s.node.children.find((c): c is CapacityPlan => c instanceof CapacityPlan) ?? CapacityPlan.covering.get(s);
      if (found) return found;
    }
    return undefined;
  }

  /** Like `of`, but throws a clear error when nothing covers the scope. */
  static require(scope: IConstruct): CapacityPlan {
    const plan = CapacityPlan.of(scope);
    if (!plan) throw new Error(`[${scope.node.path}] no CapacityPlan covers this construct: add \`new CapacityPlan(stack, 'plan')\` to its stack`);
    return plan;
  }

  private cached?: Plan;
  private labelled?: Set<string>;
  private byName?: {
    pools: Map<string, PlannedPool>;
    quotas: Map<string, PlannedQuota>;
    fleets: Map<string, PlannedFleet>;
    autoPools: Map<string, PlannedAutoPool>;
  };

  /** The node label whose values are failure domains the plan keeps headroom for (`CapacityPlanProps.failureDomain`). */
  readonly failureDomain?: string;
  private readonly covered: IConstruct;

  constructor(scope: Construct, id: string, props: CapacityPlanProps = {}) {
    super(scope, id);
    this.failureDomain = props.failureDomain;
    this.covered = props.covers ?? scope;
    if (props.covers) {
      const other = CapacityPlan.covering.get(props.covers);
      if (other)
        throw new Error(
          `[${this.node.path}] ${props.covers.node.path || 'the app'} is already covered by the CapacityPlan ${other.node.path}: one plan per app`,
        );
      CapacityPlan.covering.set(props.covers, this);
    }
    this.node.addValidation({
      validate: () => {
        const plan = this.plan();
        for (const w of plan.warnings) Annotations.of(this).addWarning(`${w.path}: ${w.message}`);
        return plan.errors.map((e) => `${e.path}: ${e.message}`);
      },
    });
    if (props.writeReport ?? true) {
      addCustomSynthesis(this, {
        onSynthesize: (session) => {
          const stack = TerraformStack.of(this);
          const stackFile = path.join(session.outdir, session.manifest.forStack(stack).synthesizedStackPath);
          const dir = path.dirname(stackFile);
          fs.mkdirSync(dir, { recursive: true });
          const report = this.plan().report;
          const changes = changesSince(props.previousPlan ?? path.join(dir, 'metalslice-plan.json'), report, props.previousPlan !== undefined);
          fs.writeFileSync(path.join(dir, 'metalslice-plan.json'), stableJson(report));
          fs.writeFileSync(path.join(dir, 'metalslice-plan.md'), renderPlanMarkdown(report, changes));
        },
      });
    }
  }

  /**
   * The plan of everything in scope; computed once, at synth, when all constructs exist. When what it covers
   * is exactly a config that `addConfig` or `addConfigStacks` planned already, that plan is taken instead (see
   * plumbing/config-plan.ts): its problems name the constructs' paths, its planned objects the config's (where each was written).
   */
  plan(): Plan {
    if (!this.cached) {
      const builder = new ModelBuilder();
      for (const c of this.covered.node.findAll()) if (isContributor(c)) c.contributeToPlan(builder);
      const { model, paths } = builder.build();
      const planned = offeredConfigPlan(this, model, paths, this.failureDomain);
      this.cached = planned ?? planModel(model, { paths, failureDomain: this.failureDomain });
    }
    return this.cached;
  }

  /**
   * The plan, for values made at synth. cdktf resolves every value (to find cross-stack references)
   * before it runs validations, so a plan with errors must stop synth here, with the same message the
   * validation would give, rather than let a value be made from a plan that does not hold.
   */
  provenPlan(): Plan {
    const plan = this.plan();
    if (!plan.ok) {
      throw new Error(`Validation failed with the following errors:\n  ${plan.errors.map((e) => `[${this.node.path}] ${e.path}: ${e.message}`).join('\n  ')}`);
    }
    return plan;
  }

  /** The planned elastic pool of that name (the first, like `plan().pools.find`); every node asks, so by map. */
  plannedPool(name: string): PlannedPool | undefined {
    return this.index().pools.get(name);
  }

  /** The planned quota of that name. */
  plannedQuota(name: string): PlannedQuota | undefined {
    return this.index().quotas.get(name);
  }

  /** The planned fleet of that name. */
  plannedFleet(name: string): PlannedFleet | undefined {
    return this.index().fleets.get(name);
  }

  /** How the pool at `poolPath` rolls (its revision, surge and unavailability), as the plan proved it. */
  plannedRollout(poolPath: string): PoolRollout | undefined {
    return this.provenPlan().rollouts.get(poolPath);
  }

  /**
   * Whether the fleet's host group labels are written by this plan's app (an ElasticFleet it covers): its pools'
   * VMs then select a group by label; otherwise (an imported fleet) by the group's host names.
   */
  labelsHostGroups(fleet: string): boolean {
    this.labelled ??= new Set(
      this.covered.node
        .findAll()
        .filter(isLabeller)
        .map((c) => c.labelsHostGroupsOf),
    );
    return this.labelled.has(fleet);
  }

  /** Every VM of the plan (the one list every check read). */
  plannedVms(): readonly PlannedVm[] {
    return this.provenPlan().vms;
  }

  /** The planned auto-node (or private) pool of a tenant cluster on a provider. */
  plannedAutoPool(cluster: string, provider: string, name: string, mode: 'static' | 'dynamic'): PlannedAutoPool | undefined {
    return this.index().autoPools.get(autoPoolKey(cluster, provider, name, mode));
  }

  /** The planned pool of whole hosts (a privateNodePools entry, or a static pool on a metal3 provider): what its HostClaims are rendered from. */
  plannedPrivatePool(cluster: string, provider: string, name: string): PlannedPrivatePool | undefined {
    return this.provenPlan().privatePools.find((p) => p.spec.cluster === cluster && p.spec.provider === provider && p.spec.name === name);
  }

  private index(): NonNullable<CapacityPlan['byName']> {
    if (!this.byName) {
      const plan = this.provenPlan();
      const autoPools = new Map<string, PlannedAutoPool>();
      for (const p of plan.autoPools) {
        const key = autoPoolKey(p.cluster, p.provider, p.name, p.mode);
        if (!autoPools.has(key)) autoPools.set(key, p);
      }
      this.byName = { pools: firstByName(plan.pools), quotas: firstByName(plan.quotas), fleets: firstByName(plan.fleets), autoPools };
    }
    return this.byName;
  }
}

/**
 * What changed since the plan in `file`. The last synth's plan may be missing or unreadable (a first synth);
 * a plan named by `previousPlan` must be there, or synth stops saying so.
 */
function changesSince(file: string, report: PlanReport, named: boolean): PlanChanges | undefined {
  let previous: PlanReport;
  try {
    previous = readPlanFile(file);
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    if (named) throw new Error(`CapacityPlan previousPlan: ${e.issues.map((i) => i.message).join('; ')}: point it at a metalslice-plan.json`);
    return undefined;
  }
  return diffPlans(previous, report);
}

function autoPoolKey(cluster: string, provider: string, name: string, mode: string): string {
  return `${cluster}\u0000${provider}\u0000${name}\u0000${mode}`;
}

/** Name -> the first item with that name, as `Array.prototype.find` would pick it. */
function firstByName<T extends { readonly name: string }>(items: readonly T[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of items) if (!out.has(item.name)) out.set(item.name, item);
  return out;
}
