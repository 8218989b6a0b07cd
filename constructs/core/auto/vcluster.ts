/**
 * A tenant's vcluster.yaml planned: its auto nodes as input/vcluster.ts imports them (vCluster's schema and
 * rules), then planned against the catalogue, quotas and clusters like any autoNodes entry.
 */
import { AutoNodesInput, AutoNodesPlan, planAutoNodes } from '.';
import { importVclusterAutoNodes, VclusterImportOptions } from '../input/vcluster';

/** Imports a vcluster.yaml's auto nodes and plans them against the catalogue, quotas and clusters given. */
export function planVclusterAutoNodes(
  input: unknown,
  options: VclusterImportOptions,
  context: Omit<AutoNodesInput, 'autoNodes' | 'sourcePaths'>,
): AutoNodesPlan {
  const imported = importVclusterAutoNodes(input, options);
  const plan = planAutoNodes({ ...context, autoNodes: imported.autoNodes, sourcePaths: imported.sourcePaths });
  const issues = [...imported.issues, ...plan.issues];
  return { ...plan, ok: issues.length === 0, issues, warnings: [...imported.warnings, ...plan.warnings] };
}
