/**
 * A config is planned once per synth. `addConfig` and `addConfigStacks` plan the config before they make any
 * construct (so its problems are reported at the config's own paths); the CapacityPlan that covers those
 * constructs later takes that plan instead of planning again, when the model its constructs contribute is
 * exactly the config's model and its failure domain the one the config was planned with (addConfigStacks' plan
 * option, or the CapacityPlan already covering addConfig's scope). An app that added constructs beyond the
 * config, or whose CapacityPlan came after addConfig with a failure domain, is planned again from its constructs.
 */
import { IConstruct } from 'constructs';
import { PlanIssue } from '../core/base/errors';
import { MetalsliceConfig } from '../core/input/model';
import { ModelPaths, Plan } from '../core/plan';

/** A config's plan, by the canonical text of the model its constructs contribute. */
interface ConfigPlan {
  readonly model: string;
  readonly plan: Plan;
  /** The failure domain it was planned with: only a CapacityPlan with the same one takes it. */
  readonly failureDomain: string | undefined;
  /** The loader's warnings: their paths name the file, not a model entry, and stay as they are. */
  readonly readWarnings: ReadonlySet<PlanIssue>;
}

/** Config plans offered in an app, by the app (the construct tree's root). */
const offered = new WeakMap<IConstruct, ConfigPlan[]>();

/**
 * Offers the plan of `config`, made before its constructs, to the CapacityPlan that will cover them. Only a plan
 * without errors is offered (one with errors stopped the config before any construct was made).
 */
export function offerConfigPlan(scope: IConstruct, config: MetalsliceConfig, plan: Plan, failureDomain: string | undefined): void {
  if (!plan.ok) return;
  const root = scope.node.root;
  const entry = { model: canonicalModel(declaredModel(config)), plan, failureDomain, readWarnings: new Set(config.readWarnings ?? []) };
  offered.set(root, [...(offered.get(root) ?? []), entry]);
}

/**
 * The plan of a config offered in the app of `scope` whose model is exactly `model` (what the covered
 * constructs contribute), with its warnings moved to the constructs' paths; undefined when none is.
 */
export function offeredConfigPlan(scope: IConstruct, model: MetalsliceConfig, paths: ModelPaths, failureDomain: string | undefined): Plan | undefined {
  const offers = offered.get(scope.node.root);
  if (offers === undefined) return undefined; // an app without a config: no model text to make
  const text = canonicalModel(model);
  const found = offers.find((o) => o.model === text && o.failureDomain === failureDomain);
  if (found === undefined) return undefined;
  const warnings = found.plan.warnings.map((w) => (found.readWarnings.has(w) ? w : atConstructPath(w, paths)));
  return { ...found.plan, warnings, report: { ...found.plan.report, warnings } };
}

/**
 * The model the constructs of `config` contribute: the config less what only its reader needs (the file's
 * apiVersion, and a fleet's hostsFile, whose hosts the loader has read), with the defaults the constructs write
 * (a fleet's hosts, an autoNodes entry's static and dynamic pools). A vcluster.yaml import keeps its `source`,
 * which no construct contributes: such a config is planned again from its constructs.
 */
function declaredModel(config: MetalsliceConfig): MetalsliceConfig {
  const { apiVersion: _apiVersion, ...model } = config;
  return {
    ...model,
    fleets: config.fleets?.map(({ hostsFile: _hostsFile, ...f }) => ({ ...f, hosts: f.hosts ?? [] })),
    autoNodes: config.autoNodes?.map((a) => ({ ...a, static: a.static ?? [], dynamic: a.dynamic ?? [] })),
  };
}

/** A model as text that two equal models share: keys sorted, unset fields and empty lists of the model left out. */
function canonicalModel(model: MetalsliceConfig): string {
  const lists = Object.entries(model).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  return JSON.stringify(Object.fromEntries(lists), (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/**
 * A problem at a config path (`nodePools[2].count`), moved to the construct that wrote that entry
 * (`stack/web.count`), as the plan reports it when planned from constructs.
 */
function atConstructPath(issue: PlanIssue, paths: ModelPaths): PlanIssue {
  const entry = /^([A-Za-z]+)\[(\d+)\](?=$|[.[])/.exec(issue.path);
  const at = entry ? paths[entry[1] as keyof ModelPaths]?.[Number(entry[2])] : undefined;
  return at === undefined ? issue : { ...issue, path: at + issue.path.slice(entry![0].length) };
}
