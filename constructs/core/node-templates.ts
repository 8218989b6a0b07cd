/**
 * Terraform node providers as the plan sees them. vCluster Platform runs a terraform provider's node template
 * once per node claim, so metalslice renders none of their nodes. When the template is metalslice's own
 * kubevirt template (`node-templates/kubevirt`), its VMs are the ones the constructs would make (the node
 * template parity test holds the two renderers to each other), so the plan counts them on the fleet of their
 * quota like a kubevirt provider's. Any other template makes its nodes outside metalslice's fleets: the plan
 * chooses their node type and lists them with their cost, and cannot prove the capacity behind them.
 */
import { PlanIssue } from './errors';
import { AutoNodesSpec, NodeProviderSpec, NodeTemplateSpec } from './model';

/** The property metalslice's kubevirt template reads the VM's quota from. */
export const TEMPLATE_QUOTA_PROPERTY = 'metalslice.io/quota';

/** Where metalslice's kubevirt node template lives in its repository, as a NodeProvider's `nodeTemplate.git.subPath` names it. */
const KUBEVIRT_TEMPLATE_PATH = /^(\.\/)?(.*\/)?node-templates\/kubevirt\/?$/;

/** Whether the template is metalslice's kubevirt node template. */
export function isKubevirtTemplate(template: NodeTemplateSpec | undefined): boolean {
  const subPath = template?.git?.subPath;
  return typeof subPath === 'string' && KUBEVIRT_TEMPLATE_PATH.test(subPath);
}

/** Terraform providers as planned: those running metalslice's kubevirt template become kubevirt providers on their quota's fleet. */
export interface TemplateProviders {
  /** The provider specs to plan with. */
  readonly providers: readonly NodeProviderSpec[];
  /** The entries to plan, each with the quota its template VMs are carved from. */
  readonly entries: readonly AutoNodesSpec[];
  /** Providers whose nodes vCluster Platform makes by running metalslice's kubevirt template. */
  readonly templateVms: ReadonlySet<string>;
}

/**
 * The quota of each entry on a kubevirt-template provider (its own, else `metalslice.io/quota` of its
 * properties, else of the provider's), and the providers planned as kubevirt on that quota's fleet.
 */
export function planTemplateProviders(
  providers: readonly NodeProviderSpec[],
  entries: readonly AutoNodesSpec[],
  entryPath: (index: number) => string,
  fleetOfQuota: (quota: string) => string | undefined,
  issues: PlanIssue[],
): TemplateProviders {
  const templated = new Set(providers.filter((p) => p.kind === 'terraform' && isKubevirtTemplate(p.nodeTemplate)).map((p) => p.name));
  if (templated.size === 0) return { providers, entries, templateVms: templated };
  const fleetOf = new Map<string, string>();
  const planned = entries.map((entry, i) => {
    if (!templated.has(entry.provider)) return entry;
    const provider = providers.find((p) => p.name === entry.provider)!;
    const quota = entry.quota ?? entry.properties?.[TEMPLATE_QUOTA_PROPERTY] ?? provider.properties?.[TEMPLATE_QUOTA_PROPERTY];
    if (quota === undefined) {
      issues.push({
        path: entryPath(i),
        message: `provider ${entry.provider} runs metalslice's kubevirt node template, whose VMs are carved from a quota, and the plan needs to know which: set quota (vclusters[].quota), or ${TEMPLATE_QUOTA_PROPERTY} in the entry's or the provider's properties`,
      });
      return entry;
    }
    const fleet = fleetOfQuota(quota);
    if (fleet !== undefined && !fleetOf.has(entry.provider)) fleetOf.set(entry.provider, fleet);
    return { ...entry, quota };
  });
  const asKubevirt = providers.map((p) => {
    if (!templated.has(p.name)) return p;
    const fleet = fleetOf.get(p.name);
    if (fleet === undefined) return p;
    const { nodeTemplate: _template, ...rest } = p;
    return { ...rest, kind: 'kubevirt' as const, fleet };
  });
  return { providers: asKubevirt, entries: planned, templateVms: new Set([...templated].filter((p) => fleetOf.has(p))) };
}

/** The one line a static pool on a terraform provider outside metalslice's fleets gets. */
export function unprovenCapacityWarning(
  pool: { readonly path: string; readonly name: string; readonly provider: string; readonly quantity: number },
  nodeType: string,
  cost: number | undefined,
): PlanIssue {
  return {
    path: pool.path,
    message: `static pool ${pool.name}: ${pool.quantity} x ${nodeType}${cost !== undefined ? ` (cost ${cost} each)` : ''} made by provider ${pool.provider}'s node template in vCluster Platform, outside metalslice's fleets: their capacity is not proven`,
  };
}
