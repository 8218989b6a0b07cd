/**
 * Node providers and their node types: the catalogue that claims (static and dynamic auto-node pools) are
 * matched against, after vCluster Platform's rules. Every type gets built-in properties, a cost (explicit or
 * the default formula) and, for metal3 providers, resources and capacity discovered from the BareMetalHosts
 * its host selector picks.
 */
import { captureInto, childPath, isList, PlanIssue } from '../base/errors';
import { HostSpec, Labels, NodeProviderSpec, NodeTypeSpec, VmOptions } from '../input/model';
import { Quantity } from '../base/quantity';
import { isExtendedResource, parseResources, resourceNames, ResourceVector } from '../base/resources';
import { parsePropertyOffer, PropertyOffer } from './requirements';
import { isDnsLabel, isNodeTypeName, labelKeyProblem } from '../naming/kube-names';
import { poolSizeProblem } from '../base/bounds';
import { matchesLabelSelector } from '../hosts/selector';
import { describeValue, excerpt } from '../base/excerpt';
import { isProviderSetting } from '../vm/properties';
import { INSTANCE_TYPE_LABEL, VCLUSTER_NODE_TYPE_LABEL } from '../naming/derived';

// The identity labels are core/naming/derived.ts's (vCluster's node-type property is not metalslice's node-type label).
export { INSTANCE_TYPE_LABEL, VCLUSTER_NODE_TYPE_LABEL };
export const OS_LABEL = 'kubernetes.io/os';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const CAPACITY_TYPE_LABEL = 'karpenter.sh/capacity-type';
export const DEFAULT_ZONE = 'global';

/** Properties that name the type itself: neither a provider nor a type may set them to something else. */
const IDENTITY_PROPERTIES = [VCLUSTER_NODE_TYPE_LABEL, INSTANCE_TYPE_LABEL];

/** BareMetalHost states in which a host can be handed out. */
export const USABLE_HOST_STATES: readonly string[] = ['available', 'ready'];

export type ProviderKind = NodeProviderSpec['kind'];

/** A node type as planned: its resources, properties, cost and capacity, parsed. */
export interface NodeType {
  /** `provider.type`: how rejections and plans name the type. */
  readonly id: string;
  /** The bare type name (the node's instance-type label). */
  readonly name: string;
  /** Its provider. */
  readonly provider: string;
  /** Its provider's kind. */
  readonly providerKind: ProviderKind;
  /** Config path of the type (`nodeProviders[0].nodeTypes[1]`). */
  readonly path: string;
  /** One node's resources (metal3: the smallest usable matching host's, so the promise holds on every host). */
  readonly resources: ResourceVector;
  /**
   * Every property the type offers: provider properties, overridden by the type's own, plus the built-ins
   * and, for each extended resource, the resource name with its count (so `nvidia.com/gpu Gt 0` works).
   */
  readonly properties: ReadonlyMap<string, PropertyOffer>;
  /** Its zone. */
  readonly zone: string;
  /** Its cost per node. */
  readonly cost: number;
  /** Most nodes of this type across all claims; undefined = unlimited. metal3: also bounded by its usable hosts. */
  readonly maxCapacity?: number;
  /** metal3: names of the matching hosts that can be handed out, sorted. */
  readonly hosts?: readonly string[];
  /** Extended resources (e.g. `nvidia.com/gpu`) the type offers: a claim must ask for them to get this type. */
  readonly extendedResources: readonly string[];
  /** kubevirt: how the type's VMs are built. */
  readonly vm?: VmOptions;
}

/** A node provider as planned: its catalogue parsed and checked. */
export interface NodeProvider {
  /** The provider's name. */
  readonly name: string;
  /** `kubevirt`, `metal3` or `terraform`. */
  readonly kind: ProviderKind;
  /** Where it was written (config or construct path). */
  readonly path: string;
  /** kubevirt: the fleet its VMs run on. @default - none */
  readonly fleet?: string;
  /** metal3: the namespace of its BareMetalHosts. */
  readonly hostNamespace: string;
  /** Its node types, parsed. */
  readonly types: readonly NodeType[];
}

export interface NodeCatalogue {
  readonly providers: readonly NodeProvider[];
  readonly issues: readonly PlanIssue[];
  readonly warnings: readonly PlanIssue[];
}

/** vCluster Platform's default cost: 10 per CPU + 2 per GiB of memory + 10000 per unit of any other resource (disk is free). */
export function defaultNodeTypeCost(resources: ResourceVector): number {
  let cost = 0;
  for (const name of resourceNames(resources)) {
    const q = resources[name];
    if (name === 'cpu') cost += 10 * q.toNumber();
    else if (name === 'memory') cost += 2 * q.toGiB();
    else if (name !== 'disk' && isExtendedResource(name)) cost += 10000 * q.toNumber();
  }
  // Floats only for display-level arithmetic: keep three decimals so 0.1 + 0.2 style noise cannot reorder types.
  return Math.round(cost * 1000) / 1000;
}

/**
 * Why `provider` cannot hold a private node pool (a pool of whole hosts claimed through HostClaims), or
 * undefined when it can: only a metal3 provider's types are bare-metal hosts. The plan and the
 * PrivateNodePool construct both ask this.
 */
export function privatePoolProviderProblem(provider: string, kind: string): string | undefined {
  if (kind === 'metal3') return undefined;
  return `provider "${provider}" is of kind ${kind}; private node pools claim whole bare-metal hosts: use a metal3 provider`;
}

/** Why a host cannot be handed out, or undefined when it can. */
export function hostUnavailableReason(host: HostSpec): string | undefined {
  if (host.errorMessage || host.state === 'error') return `in error${host.errorMessage ? `: ${host.errorMessage}` : ''}`;
  if (host.consumer) return `held by ${host.consumer}`;
  const state = host.state ?? 'available';
  if (!USABLE_HOST_STATES.includes(state)) return `state ${state} (only ${USABLE_HOST_STATES.join(' or ')} hosts are handed out)`;
  return undefined;
}

/** Element-wise minimum; a resource missing from any vector is missing from the result. */
function smallestCommon(vectors: readonly ResourceVector[]): ResourceVector {
  if (vectors.length === 0) return {};
  const out: Record<string, Quantity> = {};
  for (const name of Object.keys(vectors[0])) {
    if (!vectors.every((v) => v[name] !== undefined)) continue;
    out[name] = vectors.map((v) => v[name]).reduce((a, b) => (a.cmp(b) <= 0 ? a : b));
  }
  return out;
}

function parseOffers(props: Labels | undefined, path: string, issues: PlanIssue[]): Map<string, PropertyOffer> {
  const out = new Map<string, PropertyOffer>();
  if (props === undefined) return out;
  if (typeof props !== 'object' || props === null || Array.isArray(props)) {
    issues.push({ path, message: 'properties must be a map of property name to value (one value, a comma list, or *)' });
    return out;
  }
  for (const key of Object.keys(props).sort()) {
    const at = childPath(path, key);
    const keyProblem = labelKeyProblem(key);
    if (keyProblem) {
      issues.push({ path: at, message: `${excerpt(key)} is not a valid property name: ${keyProblem}` });
      continue;
    }
    // A provider setting (an image URL, a checksum) is read by the provider; matched and labelled only when it is a label value.
    const problems: PlanIssue[] = [];
    const offer = captureInto(problems, () => parsePropertyOffer(props[key], at));
    if (offer) out.set(key, offer);
    else if (!(isProviderSetting(key) && typeof props[key] === 'string')) issues.push(...problems);
  }
  return out;
}

const single = (value: string): PropertyOffer => ({ any: false, values: [value] });

function checkCount(value: number | undefined, path: string, what: string, issues: PlanIssue[]): boolean {
  if (value === undefined) return true;
  const problem = poolSizeProblem(value);
  if (problem !== undefined) {
    issues.push({ path, message: `${what} ${problem}` });
    return false;
  }
  return true;
}

/**
 * Parses and checks the node provider catalogue. Problems are collected (never thrown) with config paths
 * under `basePath`; a type with problems is left out of its provider so planning can go on and report more.
 */
export function parseNodeProviders(specs: readonly NodeProviderSpec[], basePath = 'nodeProviders'): NodeCatalogue {
  const issues: PlanIssue[] = [];
  const warnings: PlanIssue[] = [];
  const providers: NodeProvider[] = [];
  const seen = new Map<string, number>();
  specs.forEach((spec, i) => {
    const path = childPath(basePath, i);
    if (!checkProviderIdentity(spec, path, basePath, seen, issues)) return;
    seen.set(spec.name, i);
    // A provider of an unknown kind still holds its name: a later one of the same name is a duplicate.
    if (!['kubevirt', 'metal3', 'terraform'].includes(spec.kind)) {
      issues.push({ path: childPath(path, 'kind'), message: `unknown provider kind ${describeValue(spec.kind)}: use kubevirt, metal3 or terraform` });
      return;
    }
    checkProviderNeeds(spec, path, issues);
    const hosts = spec.kind === 'metal3' ? (spec.hosts ?? []) : [];
    const hostCapacity = readHosts(hosts, spec.kind === 'metal3', path, issues, warnings);
    const providerOffers = parseOffers(spec.properties, childPath(path, 'properties'), issues);
    for (const key of IDENTITY_PROPERTIES) {
      if (providerOffers.has(key)) {
        issues.push({ path: childPath(childPath(path, 'properties'), key), message: `${key} is built in (it is each type's name): remove it` });
      }
    }
    const types = parseProviderTypes(spec, path, providerOffers, hosts, hostCapacity, issues);
    providers.push({ name: spec.name, kind: spec.kind, path, fleet: spec.fleet, hostNamespace: spec.hostNamespace ?? 'metal3', types });
  });
  return { providers, issues, warnings };
}

/** A provider's name: a DNS label, not taken by an earlier provider; false when the provider cannot be read on. */
function checkProviderIdentity(spec: NodeProviderSpec, path: string, basePath: string, seen: ReadonlyMap<string, number>, issues: PlanIssue[]): boolean {
  if (typeof spec.name !== 'string' || !isDnsLabel(spec.name)) {
    issues.push({
      path: childPath(path, 'name'),
      message: `provider name ${describeValue(spec.name)} is not a DNS-1123 label: use lower-case letters, digits and '-', at most 63 characters`,
    });
    return false;
  }
  if (seen.has(spec.name)) {
    issues.push({
      path: childPath(path, 'name'),
      message: `provider "${spec.name}" is already defined at ${childPath(basePath, seen.get(spec.name)!)}: provider names must be unique`,
    });
    return false;
  }
  return true;
}

/** What each kind needs: a kubevirt provider its fleet, a metal3 provider its hosts. */
function checkProviderNeeds(spec: NodeProviderSpec, path: string, issues: PlanIssue[]): void {
  if (spec.kind === 'kubevirt' && !spec.fleet) {
    issues.push({ path: childPath(path, 'fleet'), message: 'a kubevirt provider needs fleet: the Elastic Fleet whose hosts run its VMs' });
  }
  if (spec.kind === 'metal3' && spec.hosts === undefined) {
    issues.push({
      path: childPath(path, 'hosts'),
      message: spec.hostsFile
        ? `hostsFile ${spec.hostsFile} was not loaded into hosts: load the inventory before planning`
        : 'a metal3 provider needs hosts (its BareMetalHosts) or hostsFile (written by `metalslice inventory`)',
    });
  }
}

/** Each host's capacity by name; a warning for each metal3 host in error (it is not handed out). */
function readHosts(hosts: readonly HostSpec[], metal3: boolean, path: string, issues: PlanIssue[], warnings: PlanIssue[]): Map<string, ResourceVector> {
  if (metal3) {
    hosts.forEach((h, k) => {
      if (h.errorMessage || h.state === 'error') {
        warnings.push({
          path: childPath(childPath(path, 'hosts'), k),
          message: `host ${h.name} is in error${h.errorMessage ? ` (${h.errorMessage})` : ''}: it is not handed out until the error is cleared`,
        });
      }
    });
  }
  const hostCapacity = new Map<string, ResourceVector>();
  hosts.forEach((h, k) => {
    const cap = captureInto(issues, () => parseResources(h.capacity ?? {}, childPath(childPath(childPath(path, 'hosts'), k), 'capacity')));
    if (cap) hostCapacity.set(h.name, cap);
  });
  return hostCapacity;
}

/** The provider's node types, each named validly and once; a type with problems is left out. */
function parseProviderTypes(
  spec: NodeProviderSpec,
  path: string,
  providerOffers: ReadonlyMap<string, PropertyOffer>,
  hosts: readonly HostSpec[],
  hostCapacity: ReadonlyMap<string, ResourceVector>,
  issues: PlanIssue[],
): NodeType[] {
  const types: NodeType[] = [];
  const typeNames = new Map<string, number>();
  if (!isList(spec.nodeTypes)) {
    issues.push({ path: childPath(path, 'nodeTypes'), message: 'nodeTypes must be a list of node types' });
  }
  (isList(spec.nodeTypes) ? spec.nodeTypes : []).forEach((t, j) => {
    const typePath = childPath(childPath(path, 'nodeTypes'), j);
    if (typeof t.name !== 'string' || !isNodeTypeName(t.name)) {
      issues.push({
        path: childPath(typePath, 'name'),
        message: `node type name ${describeValue(t.name)} is not valid: use lower-case letters, digits, '-' and '.' (like t3.medium), starting and ending with a letter or digit, at most 63 characters`,
      });
      return;
    }
    if (typeNames.has(t.name)) {
      issues.push({
        path: childPath(typePath, 'name'),
        message: `node type "${t.name}" is already defined in provider ${spec.name} at nodeTypes[${typeNames.get(t.name)}]: names must be unique per provider`,
      });
      return;
    }
    typeNames.set(t.name, j);
    const parsed = parseNodeType(spec, t, typePath, providerOffers, hosts, hostCapacity, issues);
    if (parsed) types.push(parsed);
  });
  return types;
}

/** One node type of a provider, checked field by field; undefined (with the problems in `issues`) when it has any. */
function parseNodeType(
  provider: NodeProviderSpec,
  spec: NodeTypeSpec,
  path: string,
  providerOffers: ReadonlyMap<string, PropertyOffer>,
  hosts: readonly HostSpec[],
  hostCapacity: ReadonlyMap<string, ResourceVector>,
  issues: PlanIssue[],
): NodeType | undefined {
  const before = issues.length;
  const typeOffers = parseTypeOffers(spec, path, issues);
  if (spec.cost !== undefined && (typeof spec.cost !== 'number' || !Number.isFinite(spec.cost) || spec.cost < 0)) {
    issues.push({ path: childPath(path, 'cost'), message: `cost must be a number of 0 or more (got ${describeValue(spec.cost)})` });
  }
  checkCount(spec.maxCapacity, childPath(path, 'maxCapacity'), 'maxCapacity', issues);
  const zone = typeZone(spec, path, typeOffers, providerOffers, issues);
  const { resources, matchingHosts } = typeResources(provider, spec, path, hosts, hostCapacity, issues);
  if (issues.length > before || resources === undefined) return undefined;
  const { properties, extendedResources } = typeProperties(spec, resources, zone, providerOffers, typeOffers);
  let maxCapacity = spec.maxCapacity;
  if (matchingHosts !== undefined) maxCapacity = Math.min(maxCapacity ?? Infinity, matchingHosts.length);
  return {
    id: `${provider.name}.${spec.name}`,
    name: spec.name,
    provider: provider.name,
    providerKind: provider.kind,
    path,
    resources,
    properties,
    zone,
    cost: spec.cost ?? defaultNodeTypeCost(resources),
    maxCapacity,
    hosts: matchingHosts,
    extendedResources,
    ...(spec.vm !== undefined ? { vm: spec.vm } : {}),
  };
}

/** The type's own properties; an identity property may only repeat the type's name. */
function parseTypeOffers(spec: NodeTypeSpec, path: string, issues: PlanIssue[]): Map<string, PropertyOffer> {
  const typeOffers = parseOffers(spec.properties, childPath(path, 'properties'), issues);
  for (const key of IDENTITY_PROPERTIES) {
    const offer = typeOffers.get(key);
    if (offer && (offer.any || offer.values.length !== 1 || offer.values[0] !== spec.name)) {
      issues.push({ path: childPath(childPath(path, 'properties'), key), message: `${key} is built in and always the type's name (${spec.name}): remove it` });
    }
  }
  return typeOffers;
}

/** Zone: the `zone` field, else a single-valued zone property (the type's, else the provider's), else `global`. */
function typeZone(
  spec: NodeTypeSpec,
  path: string,
  typeOffers: ReadonlyMap<string, PropertyOffer>,
  providerOffers: ReadonlyMap<string, PropertyOffer>,
  issues: PlanIssue[],
): string {
  if (spec.zone === undefined) {
    const zoneProperty = typeOffers.get(ZONE_LABEL) ?? providerOffers.get(ZONE_LABEL);
    return zoneProperty && !zoneProperty.any && zoneProperty.values.length === 1 ? zoneProperty.values[0] : DEFAULT_ZONE;
  }
  let zone = DEFAULT_ZONE;
  const problem = typeof spec.zone === 'string' && spec.zone !== '' ? undefined : 'it must be a non-empty string';
  if (problem) issues.push({ path: childPath(path, 'zone'), message: `zone ${describeValue(spec.zone)} is not valid: ${problem}` });
  else {
    captureInto(issues, () => parsePropertyOffer(spec.zone!, childPath(path, 'zone')));
    zone = spec.zone;
  }
  if (typeOffers.has(ZONE_LABEL) && typeOffers.get(ZONE_LABEL)!.values.join(',') !== spec.zone) {
    issues.push({ path: childPath(childPath(path, 'properties'), ZONE_LABEL), message: `conflicts with zone: ${spec.zone}: set the zone once, with zone` });
  }
  return zone;
}

/** One node's resources and, for metal3, the usable hosts it is made from. */
interface TypeResources {
  readonly resources?: ResourceVector;
  readonly matchingHosts?: string[];
}

/** metal3: discovered from (or checked against) the hosts its selector picks; other kinds: declared, with cpu and memory. */
function typeResources(
  provider: NodeProviderSpec,
  spec: NodeTypeSpec,
  path: string,
  hosts: readonly HostSpec[],
  hostCapacity: ReadonlyMap<string, ResourceVector>,
  issues: PlanIssue[],
): TypeResources {
  const declared = spec.resources !== undefined ? captureInto(issues, () => parseResources(spec.resources!, childPath(path, 'resources'))) : undefined;
  if (provider.kind === 'metal3') return metal3TypeResources(provider, spec, path, declared, hosts, hostCapacity, issues);
  if (spec.hostSelector)
    issues.push({ path: childPath(path, 'hostSelector'), message: `hostSelector is for metal3 providers; ${provider.kind} types declare resources` });
  if (spec.resources === undefined)
    issues.push({ path: childPath(path, 'resources'), message: 'a node type needs resources (cpu and memory of one node), e.g. {cpu: 4, memory: 16Gi}' });
  if (declared !== undefined) {
    for (const required of ['cpu', 'memory']) {
      if (!declared[required] || declared[required].isZero()) {
        issues.push({ path: childPath(childPath(path, 'resources'), required), message: `a node needs ${required}: set resources.${required}` });
      }
    }
  }
  return { resources: declared };
}

/**
 * A metal3 type promises what every host can give: the smallest usable matching host (or, with none usable,
 * the smallest matching one). Declared resources must fit in it.
 */
function metal3TypeResources(
  provider: NodeProviderSpec,
  spec: NodeTypeSpec,
  path: string,
  declared: ResourceVector | undefined,
  hosts: readonly HostSpec[],
  hostCapacity: ReadonlyMap<string, ResourceVector>,
  issues: PlanIssue[],
): TypeResources {
  if (!spec.hostSelector) {
    issues.push({
      path: childPath(path, 'hostSelector'),
      message: 'a metal3 node type needs hostSelector (matchLabels / matchExpressions) to pick its BareMetalHosts',
    });
    return { resources: declared };
  }
  const matching = hosts.filter((h) => matchesLabelSelector(h.labels ?? {}, spec.hostSelector!));
  if (matching.length === 0) {
    issues.push({
      path: childPath(path, 'hostSelector'),
      message: `matches none of the ${hosts.length} hosts of provider ${provider.name}: fix the selector or the host labels`,
    });
    return { resources: declared };
  }
  const usable = matching.filter((h) => hostUnavailableReason(h) === undefined);
  const basis = (usable.length > 0 ? usable : matching).map((h) => hostCapacity.get(h.name)).filter((c): c is ResourceVector => c !== undefined);
  const discovered = smallestCommon(basis);
  const matchingHosts = usable.map((h) => h.name).sort();
  if (declared === undefined) return { resources: discovered, matchingHosts };
  const tooBig = resourceNames(declared).filter((n) => !declared[n].lte(discovered[n] ?? Quantity.ZERO));
  if (tooBig.length > 0) {
    issues.push({
      path: childPath(path, 'resources'),
      message: `promises more ${tooBig.join(', ')} than the smallest matching host has: lower the resources or narrow hostSelector`,
    });
  }
  return { resources: declared, matchingHosts };
}

/** Every property the type offers, built-in defaults first, then the provider's, then the type's own; identity last. */
function typeProperties(
  spec: NodeTypeSpec,
  resources: ResourceVector,
  zone: string,
  providerOffers: ReadonlyMap<string, PropertyOffer>,
  typeOffers: ReadonlyMap<string, PropertyOffer>,
): { properties: Map<string, PropertyOffer>; extendedResources: string[] } {
  const properties = new Map<string, PropertyOffer>();
  properties.set(OS_LABEL, single('linux'));
  properties.set(CAPACITY_TYPE_LABEL, single('on-demand'));
  const extendedResources = resourceNames(resources).filter((n) => n !== 'disk' && isExtendedResource(n) && !resources[n].isZero());
  for (const name of extendedResources) {
    if (labelKeyProblem(name) === undefined) properties.set(name, single(resources[name].ceilUnits().toString()));
  }
  for (const [k, v] of providerOffers) properties.set(k, v);
  for (const [k, v] of typeOffers) properties.set(k, v);
  properties.set(ZONE_LABEL, spec.zone !== undefined ? single(zone) : (properties.get(ZONE_LABEL) ?? single(DEFAULT_ZONE)));
  properties.set(VCLUSTER_NODE_TYPE_LABEL, single(spec.name));
  properties.set(INSTANCE_TYPE_LABEL, single(spec.name));
  return { properties, extendedResources };
}

/**
 * The labels a node of `type` carries. Precedence, highest first: the claim, the type, the provider.
 * A claim's requirements only filter which types qualify; what a claim supplies as nodeLabels overrides
 * the type's properties on the node. A property offered as a comma list or `*` becomes a label only when
 * the claim's `In` requirements narrow it (to the first allowed value in sort order); resource-derived
 * properties are not labels.
 */
export function nodeLabelsFor(type: NodeType, narrowing: ReadonlyMap<string, readonly string[]>, claimLabels: Labels = {}): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const key of [...type.properties.keys()].sort()) {
    if (type.extendedResources.includes(key)) continue;
    const offer = type.properties.get(key)!;
    const wanted = narrowing.get(key);
    if (!offer.any && offer.values.length === 1) labels[key] = offer.values[0];
    else if (wanted && wanted.length > 0) {
      const allowed = offer.any ? [...wanted].sort() : offer.values.filter((v) => wanted.includes(v));
      if (allowed.length > 0) labels[key] = allowed[0];
    }
  }
  for (const key of Object.keys(claimLabels).sort()) labels[key] = claimLabels[key];
  return sortKeys(labels);
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}
