/**
 * Properties metalslice does not apply, named on every provider kind: a tenant reading the plan of a bare-metal
 * pool with `netris.vcluster.com/server-cluster` believes its server joins that network, and nothing does it.
 * KubeVirt pools are warned while their VMs are built (auto-node-vms.ts); this phase warns the others.
 */
import { childPath, PlanIssue } from '../base/errors';
import { MetalsliceConfig } from '../input/model';
import { unappliedPropertyWarnings } from '../vm/properties';
import type { ModelPaths } from './types';
import { AutoSelection, bareTypeName, claimProperties } from './type-selection';

/** Adds to `warnings` one warning per unapplied property of every metal3 and terraform pool, once per place it is written. */
export function warnUnappliedProperties(model: MetalsliceConfig, paths: ModelPaths | undefined, selection: AutoSelection, warnings: PlanIssue[]): void {
  const seen = new Set(warnings.map((w) => `${w.path}\u0000${w.message}`));
  for (const pool of selection.auto.pools) {
    if (pool.providerKind === 'kubevirt') continue;
    const typeName = pool.nodeType === undefined ? '' : bareTypeName(pool.nodeType);
    const { effective, claimPath } = claimProperties(model, paths, selection, pool, typeName);
    const at = (key: string) => effective[key]?.path ?? childPath(childPath(claimPath, 'properties'), key);
    for (const w of unappliedPropertyWarnings(pool.providerKind, effective, at)) {
      const key = `${w.path}\u0000${w.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      warnings.push(w);
    }
  }
}
