/**
 * Auto-node claims as vCluster Platform would hand them to a provider, before node types are chosen:
 * each pool's NodeProfile (its own `profile`, else the entry's `defaultProfile`) merged into its labels
 * and taints, and static pools on providers metalslice cannot make single nodes for refused with the
 * reason and the alternative.
 */
import { childPath, IssueCollector, PlanIssue } from './errors';
import { AutoNodesSpec, DynamicPoolSpec, NodeProfileSpec, NodeProviderSpec, StaticPoolSpec, Taint } from './model';
import type { AutoNodesSourcePath } from './auto-nodes';

/** Why a static pool cannot be made on a provider of this kind, or undefined when it can. */
const STATIC_REFUSAL: Readonly<Record<NodeProviderSpec['kind'], string | undefined>> = {
  kubevirt: undefined,
  metal3:
    'metalslice claims whole bare-metal hosts for one tenant through privateNodePools (they carry the OS image to write): declare the nodes there (privateNodePools: [{name, cluster, provider, nodeType, count, image}]), or use a dynamic pool',
  terraform:
    'a terraform provider makes each node by running its template once per NodeClaim inside vCluster Platform (node-templates/), which metalslice does not run at plan or synth: let vCluster Platform make these nodes, or use a kubevirt provider',
};

/** The path of the vcluster.yaml's (or config's) defaultProfile for an entry written at `entryPath`. */
function defaultProfilePath(entryPath: string): string {
  const vclusterEntry = /\.autoNodes\[\d+\]$/;
  return vclusterEntry.test(entryPath) && entryPath.includes('privateNodes')
    ? entryPath.replace(vclusterEntry, '.defaultProfile')
    : childPath(entryPath, 'defaultProfile');
}

/** The pool's taints, then the profile's that the pool does not set itself (same key and effect). */
function mergeTaints(own: readonly Taint[] | undefined, profile: readonly Taint[] | undefined): Taint[] | undefined {
  const mine = own ?? [];
  const extra = (profile ?? []).filter((p) => !mine.some((t) => t.key === p.key && t.effect === p.effect));
  const merged = [...mine, ...extra];
  return merged.length > 0 ? merged : undefined;
}

function profilesByName(profiles: readonly NodeProfileSpec[], issues: IssueCollector): Map<string, NodeProfileSpec> {
  const out = new Map<string, NodeProfileSpec>();
  profiles.forEach((p, k) => {
    if (out.has(p.name)) issues.add(`nodeProfiles[${k}].name`, `node profile "${p.name}" is already defined: profile names must be unique`);
    else out.set(p.name, p);
  });
  return out;
}

interface ProfileContext {
  readonly profiles: ReadonlyMap<string, NodeProfileSpec>;
  readonly issues: IssueCollector;
  readonly warnings: PlanIssue[];
}

function withProfile<T extends StaticPoolSpec | DynamicPoolSpec>(
  pool: T,
  entry: AutoNodesSpec,
  poolPath: string,
  entryPath: string,
  ctx: ProfileContext,
): T | undefined {
  const name = pool.profile ?? entry.defaultProfile;
  if (name === undefined) return pool;
  const profile = ctx.profiles.get(name);
  if (!profile) {
    const at = pool.profile !== undefined ? childPath(poolPath, 'profile') : defaultProfilePath(entryPath);
    const known = [...ctx.profiles.keys()];
    ctx.issues.add(
      at,
      `no node profile named "${name}": ${known.length > 0 ? `known: ${known.join(', ')}` : 'declare it under nodeProfiles (name, nodeLabels, taints)'}`,
    );
    return undefined;
  }
  if ((profile.startupTaints ?? []).length > 0) {
    ctx.warnings.push({
      path: poolPath,
      message: `node profile "${name}" has startupTaints, which metalslice does not set: its nodes register with the profile's taints and labels only`,
    });
  }
  const nodeLabels = { ...(profile.nodeLabels ?? {}), ...(pool.nodeLabels ?? {}) };
  const taints = mergeTaints(pool.taints, profile.taints);
  return { ...pool, ...(Object.keys(nodeLabels).length > 0 ? { nodeLabels } : {}), ...(taints ? { taints } : {}) };
}

/**
 * The claims to plan: profiles applied, and static pools refused (with an issue each) on providers whose
 * single nodes metalslice does not make. `sources[i]` is where `entries[i]` was written; the result keeps
 * each kept pool with its own path.
 */
export function resolveAutoClaims(
  entries: readonly AutoNodesSpec[],
  sources: readonly AutoNodesSourcePath[],
  providers: readonly NodeProviderSpec[],
  nodeProfiles: readonly NodeProfileSpec[],
  issues: IssueCollector,
  warnings: PlanIssue[],
): { specs: AutoNodesSpec[]; sources: AutoNodesSourcePath[] } {
  const ctx: ProfileContext = { profiles: profilesByName(nodeProfiles, issues), issues, warnings };
  const specs: AutoNodesSpec[] = [];
  const kept: AutoNodesSourcePath[] = [];
  entries.forEach((entry, i) => {
    const source = sources[i];
    const kind = providers.find((p) => p.name === entry.provider)?.kind;
    const refusal = kind !== undefined ? STATIC_REFUSAL[kind] : undefined;
    const statics: { pool: StaticPoolSpec; at: string }[] = [];
    (entry.static ?? []).forEach((pool, j) => {
      const at = source.static?.[j] ?? childPath(childPath(source.entry, 'static'), j);
      if (refusal !== undefined) issues.add(at, `static pool ${pool.name} on ${kind} provider ${entry.provider}: ${refusal}`);
      else statics.push({ pool: withProfile(pool, entry, at, source.entry, ctx) ?? pool, at });
    });
    const dynamics = (entry.dynamic ?? []).map((pool, j) => {
      const at = source.dynamic?.[j] ?? childPath(childPath(source.entry, 'dynamic'), j);
      return { pool: withProfile(pool, entry, at, source.entry, ctx) ?? pool, at };
    });
    specs.push({
      ...entry,
      ...(entry.static ? { static: statics.map((s) => s.pool) } : {}),
      ...(entry.dynamic ? { dynamic: dynamics.map((d) => d.pool) } : {}),
    });
    kept.push({ entry: source.entry, static: statics.map((s) => s.at), dynamic: dynamics.map((d) => d.at) });
  });
  return { specs, sources: kept };
}
