/**
 * Terraform node providers as the plan sees them. vCluster Platform runs a terraform provider's node template
 * once per node claim, so metalslice renders none of their nodes. When the template is one of metalslice's
 * own, its nodes are the ones the constructs would make, so the plan proves them as it proves the
 * constructs': the kubevirt template's VMs (`node-templates/kubevirt`; the node template parity test holds the
 * two renderers to each other) are counted on the fleet of their quota like a kubevirt provider's, and the
 * metal3 template's hosts (`node-templates/metal3`, with the BareMetalHosts listed in `hosts`) are claimed
 * from them like a metal3 provider's. Any other template makes its nodes outside metalslice's fleets: the
 * plan chooses their node type and lists them with their cost, and cannot prove the capacity behind them.
 */
import { childPath, PlanIssue } from '../base/errors';
import { describeValue } from '../base/excerpt';
import { AutoNodesSpec, LabelSelector, NodeProviderSpec, NodeTypeSpec } from '../input/model';
import { labelKeyProblem, labelValueProblem } from '../naming/kube-names';
import {
  isKubevirtTemplate,
  metalsliceTemplateOf,
  TEMPLATE_HOST_NAMESPACE_PROPERTY,
  TEMPLATE_HOST_SELECTOR_PROPERTY,
  TEMPLATE_QUOTA_PROPERTY,
} from '../input/template-kind';

/** Terraform providers as planned: those running metalslice's templates become kubevirt or metal3 providers. */
export interface TemplateProviders {
  /** The provider specs to plan with. */
  readonly providers: readonly NodeProviderSpec[];
  /** The entries to plan, each with the quota its template VMs are carved from. */
  readonly entries: readonly AutoNodesSpec[];
  /** Providers whose nodes vCluster Platform makes by running metalslice's kubevirt template. */
  readonly templateVms: ReadonlySet<string>;
  /** Providers whose hosts vCluster Platform claims by running metalslice's metal3 template. */
  readonly templateHosts: ReadonlySet<string>;
}

/** `key=value,key=value` as the metal3 template reads it, or the problem. */
function parseHostSelector(raw: string): LabelSelector | string {
  const matchLabels: Record<string, string> = {};
  for (const pair of raw.split(',').map((p) => p.trim())) {
    const [key, value, ...rest] = pair.split('=');
    const problem = rest.length > 0 || value === undefined ? 'write key=value pairs, comma separated' : (labelKeyProblem(key) ?? labelValueProblem(value));
    if (problem !== undefined) return `${describeValue(raw)} is not a host selector: ${problem}`;
    matchLabels[key] = value;
  }
  return { matchLabels };
}

/** A terraform provider running metalslice's metal3 template, as a metal3 provider over its listed hosts. */
function asMetal3(provider: NodeProviderSpec, path: string, issues: PlanIssue[]): NodeProviderSpec {
  const { nodeTemplate: _template, ...rest } = provider;
  const nodeTypes = provider.nodeTypes.map((type, j): NodeTypeSpec => {
    const raw = type.properties?.[TEMPLATE_HOST_SELECTOR_PROPERTY] ?? provider.properties?.[TEMPLATE_HOST_SELECTOR_PROPERTY];
    if (type.hostSelector !== undefined || raw === undefined) return type;
    const selector = parseHostSelector(raw);
    if (typeof selector === 'string') {
      const at = type.properties?.[TEMPLATE_HOST_SELECTOR_PROPERTY] !== undefined ? childPath(childPath(path, 'nodeTypes'), j) : path;
      issues.push({ path: childPath(childPath(at, 'properties'), TEMPLATE_HOST_SELECTOR_PROPERTY), message: selector });
      return type;
    }
    return { ...type, hostSelector: selector };
  });
  const hostNamespace = provider.hostNamespace ?? provider.properties?.[TEMPLATE_HOST_NAMESPACE_PROPERTY];
  return { ...rest, kind: 'metal3', nodeTypes, ...(hostNamespace !== undefined ? { hostNamespace } : {}) };
}

/**
 * The quota of each entry on a kubevirt-template provider (its own, else `metalslice.io/quota` of its
 * properties, else of the provider's), and the providers planned as kubevirt on that quota's fleet.
 */
export function planTemplateProviders(
  providers: readonly NodeProviderSpec[],
  providerPath: (index: number) => string,
  entries: readonly AutoNodesSpec[],
  entryPath: (index: number) => string,
  fleetOfQuota: (quota: string) => string | undefined,
  issues: PlanIssue[],
): TemplateProviders {
  providers.forEach((p, i) => {
    if (p.nodeTemplate !== undefined && p.kind !== 'terraform')
      issues.push({
        path: childPath(providerPath(i), 'nodeTemplate'),
        message: `provider ${p.name} is ${p.kind}: only terraform providers run a node template; remove nodeTemplate`,
      });
  });
  const templated = new Set(providers.filter((p) => p.kind === 'terraform' && isKubevirtTemplate(p.nodeTemplate)).map((p) => p.name));
  // The metal3 template's hosts are proven only against the BareMetalHosts the provider lists.
  const hostTemplated = new Set(
    providers.filter((p) => p.kind === 'terraform' && metalsliceTemplateOf(p.nodeTemplate) === 'metal3' && (p.hosts ?? []).length > 0).map((p) => p.name),
  );
  if (templated.size === 0 && hostTemplated.size === 0) return { providers, entries, templateVms: templated, templateHosts: hostTemplated };
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
  const planAs = providers.map((p, i) => {
    if (hostTemplated.has(p.name)) return asMetal3(p, providerPath(i), issues);
    if (!templated.has(p.name)) return p;
    const fleet = fleetOf.get(p.name);
    if (fleet === undefined) return p;
    const { nodeTemplate: _template, ...rest } = p;
    return { ...rest, kind: 'kubevirt' as const, fleet };
  });
  return { providers: planAs, entries: planned, templateVms: new Set([...templated].filter((p) => fleetOf.has(p))), templateHosts: hostTemplated };
}

/** The one line a static pool on a terraform provider outside metalslice's fleets gets. */
export function unprovenCapacityWarning(
  pool: { readonly path: string; readonly name: string; readonly provider: string; readonly quantity: number },
  nodeType: string,
  cost: number | undefined,
  template: 'kubevirt' | 'metal3' | undefined,
): PlanIssue {
  // metalslice's metal3 template is proven only over the hosts the provider lists.
  const hint = template === 'metal3' ? "; list the BareMetalHosts it claims from under the provider's hosts to have them proven" : '';
  return {
    path: pool.path,
    message: `static pool ${pool.name}: ${pool.quantity} x ${nodeType}${cost !== undefined ? ` (cost ${cost} each)` : ''} made by provider ${pool.provider}'s node template in vCluster Platform, outside metalslice's fleets: their capacity is not proven${hint}`,
  };
}
