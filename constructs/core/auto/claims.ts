/**
 * Auto-node claims as vCluster Platform would hand them to a provider, before node types are chosen: each
 * pool's NodeProfile (its own `profile`, else the entry's `defaultProfile`) merged into its labels and
 * taints. A profile the config does not define may live in vCluster Platform: the pool is planned without
 * its labels and taints, and a warning says so (nothing the plan decides reads a profile).
 */
import { childPath, IssueCollector, PlanIssue } from '../base/errors';
import { AutoNodesSpec, DynamicPoolSpec, NodeProfileSpec, StaticPoolSpec, Taint } from '../input/model';
import type { AutoNodesSourcePath } from '.';

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

function withProfile<T extends StaticPoolSpec | DynamicPoolSpec>(pool: T, entry: AutoNodesSpec, poolPath: string, entryPath: string, ctx: ProfileContext): T {
  const name = pool.profile ?? entry.defaultProfile;
  if (name === undefined) return pool;
  const profile = ctx.profiles.get(name);
  if (!profile) {
    const at = pool.profile !== undefined ? childPath(poolPath, 'profile') : defaultProfilePath(entryPath);
    const known = [...ctx.profiles.keys()];
    // A NodeProfile sets labels, annotations and taints at join: no node type, size or count depends on it.
    const message = `node profile "${name}" is not in nodeProfiles${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}: if vCluster Platform defines it, the plan assumed its nodes join without its labels and taints (metalslice renders none of them); declare it under nodeProfiles (name, nodeLabels, taints) to have them set`;
    // One warning per place it is named: a defaultProfile serves every pool of its file.
    if (!ctx.warnings.some((w) => w.path === at && w.message === message)) ctx.warnings.push({ path: at, message });
    return pool;
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

/** The claims to plan, profiles applied. `sources[i]` is where `entries[i]` was written; the result keeps each pool with its path. */
export function resolveAutoClaims(
  entries: readonly AutoNodesSpec[],
  sources: readonly AutoNodesSourcePath[],
  nodeProfiles: readonly NodeProfileSpec[],
  issues: IssueCollector,
  warnings: PlanIssue[],
): { specs: AutoNodesSpec[]; sources: AutoNodesSourcePath[] } {
  const ctx: ProfileContext = { profiles: profilesByName(nodeProfiles, issues), issues, warnings };
  const specs: AutoNodesSpec[] = [];
  const kept: AutoNodesSourcePath[] = [];
  entries.forEach((entry, i) => {
    const source = sources[i];
    const statics = (entry.static ?? []).map((pool, j) => {
      const at = source.static?.[j] ?? childPath(childPath(source.entry, 'static'), j);
      return { pool: withProfile(pool, entry, at, source.entry, ctx), at };
    });
    const dynamics = (entry.dynamic ?? []).map((pool, j) => {
      const at = source.dynamic?.[j] ?? childPath(childPath(source.entry, 'dynamic'), j);
      return { pool: withProfile(pool, entry, at, source.entry, ctx), at };
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
