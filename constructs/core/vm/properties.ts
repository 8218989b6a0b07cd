/**
 * Node claim properties as vCluster Platform merges them (a NodeClaim's win over its NodeType's, which win
 * over its NodeProvider's) and what the KubeVirt node provider reads from them: the VM's image and root
 * disk. Properties metalslice does not act on are named in a warning, never dropped silently.
 */
import { childPath, PlanIssue } from '../base/errors';
import { Labels, NodeProviderSpec } from '../input/model';
import { Quantity, QuantityError } from '../base/quantity';
import { describeValue } from '../base/excerpt';

/** Where the root disk's content comes from (CDI DataVolume sources). */
export type ImageSource =
  | {
      /** A registry image, `docker://REGISTRY/IMAGE:TAG`. */
      readonly registry: string;
    }
  | {
      /** An http(s) URL of a disk image. */
      readonly http: string;
    }
  | {
      /** A CDI DataSource. */
      readonly dataSource: {
        /** Its name. */
        readonly name: string;
        /** Its namespace. @default - the VM's */
        readonly namespace?: string;
      };
    };

/** What the properties change in a KubeVirt VM. */
export interface KubevirtProperties {
  /** The root disk's size: the VM gets a DataVolume root disk of this size, counted against the quota. */
  readonly rootDiskSize?: Quantity;
  readonly image?: ImageSource;
}

const KUBEVIRT = 'kubevirt.vcluster.com/';
const IMAGE_URL = `${KUBEVIRT}image-url`;
const IMAGE_CHECKSUM = `${KUBEVIRT}image-checksum`;
const IMAGE_DATASOURCE = `${KUBEVIRT}image-datasource`;
const ROOT_DISK_SIZE = `${KUBEVIRT}root-disk-size`;
/** Prefixes and names of properties that configure how a provider makes a node (images, disks, user data, networks). */
const SETTING_PREFIXES = [
  'kubevirt.vcluster.com/',
  'metal3.vcluster.com/',
  'metalslice.io/',
  'vcluster.com/user-data',
  'vcluster.com/ssh-keys',
  'vcluster.com/network',
  'vcluster.com/os-image',
];

/**
 * Whether a property configures the provider rather than describing the node (an image URL, a checksum):
 * such a value need not be a label value, and when it is not, it is read by the provider and never matched
 * or set as a node label.
 */
export function isProviderSetting(key: string): boolean {
  return SETTING_PREFIXES.some((p) => key.startsWith(p));
}

/** A property's value and where the winning value was written. */
export type EffectiveProperties = Readonly<Record<string, { readonly value: string; readonly path: string }>>;

/** One level of a node's properties (its provider's, its node type's, its claim's), and where it is written. */
export interface PropertyLevel {
  readonly properties: Readonly<Record<string, string>> | undefined;
  readonly path: string;
}

/**
 * The levels a node of `typeName` takes its properties from, least specific first: its provider's, the provider's
 * first node type of that name (a repeated name is the catalogue's own problem) and its claim's. The one reader
 * of them: the VM list, type selection and the quota ledger all size a node from these levels.
 */
export function propertyLevels(
  provider: Pick<NodeProviderSpec, 'properties' | 'nodeTypes'> | undefined,
  providerPath: string,
  typeName: string,
  claim: { readonly properties?: Labels; readonly path: string },
): PropertyLevel[] {
  const j = provider?.nodeTypes.findIndex((t) => t.name === typeName) ?? -1;
  return [
    { properties: provider?.properties, path: childPath(providerPath, 'properties') },
    { properties: j >= 0 ? provider?.nodeTypes[j].properties : undefined, path: childPath(childPath(childPath(providerPath, 'nodeTypes'), j), 'properties') },
    { properties: claim.properties, path: childPath(claim.path, 'properties') },
  ];
}

/** The claim's properties over the type's over the provider's, each with the path it was written at. */
export function effectiveProperties(levels: readonly { readonly properties: Labels | undefined; readonly path: string }[]): EffectiveProperties {
  const out: Record<string, { value: string; path: string }> = {};
  for (const level of levels) for (const [key, value] of Object.entries(level.properties ?? {})) out[key] = { value, path: childPath(level.path, key) };
  return out;
}

/**
 * The VM settings in the effective properties, with problems for invalid values and warnings for provider
 * properties metalslice does not carry, each at the place the value was written.
 */
export function kubevirtProperties(effective: EffectiveProperties, claimPath: string, issues: PlanIssue[], warnings: PlanIssue[]): KubevirtProperties {
  const at = (key: string) => effective[key]?.path ?? childPath(childPath(claimPath, 'properties'), key);
  const url = effective[IMAGE_URL]?.value;
  const dataSource = effective[IMAGE_DATASOURCE]?.value;
  const size = effective[ROOT_DISK_SIZE]?.value;
  const rootDiskSize = size === undefined ? undefined : rootDiskSizeOf(size, at(ROOT_DISK_SIZE), issues);
  const image = imageSourceOf(url, dataSource, at(IMAGE_URL), issues);
  if ((url !== undefined || dataSource !== undefined) && size === undefined) {
    issues.push({
      path: at(url !== undefined ? IMAGE_URL : IMAGE_DATASOURCE),
      message: `an image property needs ${ROOT_DISK_SIZE} (vCluster Platform fails provisioning without it): set it, e.g. 40Gi`,
    });
  }
  if (effective[IMAGE_CHECKSUM] !== undefined && image !== undefined && !('http' in image)) {
    warnings.push({ path: at(IMAGE_CHECKSUM), message: 'image-checksum is only used with an http(s) image-url: remove it' });
  }
  warnNotCarried(effective, at, warnings);
  return { ...(rootDiskSize ? { rootDiskSize } : {}), ...(image ? { image } : {}) };
}

/** The root-disk-size property as a quantity of 1Gi or more, or a problem at `path`. */
function rootDiskSizeOf(size: string, path: string, issues: PlanIssue[]): Quantity | undefined {
  let parsed: Quantity | undefined;
  try {
    parsed = Quantity.parse(size);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
  }
  // A bare number is bytes: a root disk of a few bytes is a missing unit, not a disk.
  if (parsed === undefined || parsed.cmp(Quantity.parse('1Gi')) < 0) {
    issues.push({ path, message: `${describeValue(size)} is not a root-disk size: write a quantity of 1Gi or more, such as 40Gi` });
    return undefined;
  }
  return parsed;
}

/** Where the root disk's content comes from: the DataSource when set (the platform prefers it), else the image URL. */
function imageSourceOf(url: string | undefined, dataSource: string | undefined, urlPath: string, issues: PlanIssue[]): ImageSource | undefined {
  if (dataSource !== undefined) {
    const [namespace, name] = dataSource.includes('/') ? dataSource.split('/', 2) : [undefined, dataSource];
    return { dataSource: { name, ...(namespace ? { namespace } : {}) } };
  }
  if (url === undefined) return undefined;
  if (/^docker:\/\//.test(url)) return { registry: url };
  if (/^https?:\/\//.test(url)) return { http: url };
  issues.push({ path: urlPath, message: `${describeValue(url)} is not an image URL: use docker://REGISTRY/IMAGE:TAG or an http(s) URL` });
  return undefined;
}

/** The provider kinds whose nodes take properties (input/model.ts's NodeProviderSpec kind). */
export type PropertyProviderKind = 'kubevirt' | 'metal3' | 'terraform';

/** The node-making properties metalslice applies, per kind of provider: the rest of them it reads past. */
const APPLIED: Record<PropertyProviderKind, readonly string[]> = {
  kubevirt: [IMAGE_URL, IMAGE_CHECKSUM, IMAGE_DATASOURCE, ROOT_DISK_SIZE],
  metal3: ['metal3.vcluster.com/image-url', 'metal3.vcluster.com/image-checksum', 'metal3.vcluster.com/image-checksum-type', 'vcluster.com/os-image'],
  // metalslice's node templates (node-templates/kubevirt, node-templates/metal3) read what the constructs read.
  terraform: [IMAGE_URL, IMAGE_CHECKSUM, IMAGE_DATASOURCE, ROOT_DISK_SIZE, 'metal3.vcluster.com/image-url', 'metal3.vcluster.com/image-checksum'],
};

/** vCluster's own labels, which every node carries: matched and set, never a provider setting. */
const BUILT_IN = ['vcluster.com/node-type'];

/**
 * Whether metalslice leaves `key` unapplied on a node of `kind`: a provider setting (a vCluster domain, such
 * as `netris.vcluster.com/server-cluster` or `bcm.vcluster.com/network-name`, or a provider's own prefix)
 * that metalslice does not render. metalslice's own `metalslice.io/` properties are read by its templates.
 */
export function unappliedProperty(kind: PropertyProviderKind, key: string): boolean {
  if (key.startsWith('metalslice.io/') || BUILT_IN.includes(key) || APPLIED[kind].includes(key)) return false;
  return isProviderSetting(key) || /^([a-z0-9-]+\.)*vcluster\.com\//.test(key);
}

/** A warning for every property of `effective` metalslice does not apply on a node of `kind`, at the place it was written. */
export function unappliedPropertyWarnings(kind: PropertyProviderKind, effective: EffectiveProperties, at: (key: string) => string): PlanIssue[] {
  const what = kind === 'kubevirt' ? 'the VMs it renders' : kind === 'metal3' ? 'the bare-metal nodes it claims' : 'the nodes its node templates make';
  const fix =
    kind === 'kubevirt'
      ? 'set it up on the VM template or leave these nodes to vCluster Platform'
      : kind === 'metal3'
        ? 'nothing moves these hosts into that network or setting: configure it outside metalslice, or remove the property'
        : 'make sure your node template applies it, or remove the property';
  return Object.keys(effective)
    .filter((key) => unappliedProperty(kind, key))
    .sort()
    .map((key) => ({ path: at(key), message: `metalslice does not carry ${key} into ${what} yet: ${fix}` }));
}

/** A warning for each provider property metalslice reads past (it does not render it yet). */
function warnNotCarried(effective: EffectiveProperties, at: (key: string) => string, warnings: PlanIssue[]): void {
  warnings.push(...unappliedPropertyWarnings('kubevirt', effective, at));
}
