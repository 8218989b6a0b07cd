/**
 * The host inventory `metalslice inventory` writes: Kubernetes Nodes and Metal3 BareMetalHosts of a
 * provider cluster turned into the `{hosts: [...]}` file that fleets and metal3 node providers read with
 * `hostsFile:`. Pure: the objects come in as plain JSON. Only names, labels, capacity and state are kept;
 * nothing from a BMC, credential or user data reference is ever copied.
 */
import { InventoryFile } from './config';
import { HostSpec } from './model';
import { Quantity } from './quantity';
import { isExtendedResource, parseResources } from './resources';

/** The parts of a core/v1 Node the inventory reads. */
export interface NodeObject {
  readonly metadata: { readonly name: string; readonly labels?: Readonly<Record<string, string>> };
  readonly status?: {
    readonly capacity?: Readonly<Record<string, string>>;
    readonly allocatable?: Readonly<Record<string, string>>;
  };
}

/** The parts of a metal3.io/v1alpha1 BareMetalHost the inventory reads. */
export interface BareMetalHostObject {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: {
    readonly consumerRef?: { readonly kind?: string; readonly name?: string; readonly namespace?: string };
  };
  readonly status?: {
    readonly errorMessage?: string;
    readonly errorType?: string;
    readonly provisioning?: { readonly state?: string };
    readonly hardware?: {
      readonly cpu?: { readonly count?: number };
      readonly ramMebibytes?: number;
      readonly storage?: readonly { readonly sizeBytes?: number }[];
    };
  };
}

/** The state written for a BareMetalHost the operator has not reported on yet: never handed out. */
export const UNKNOWN_HOST_STATE = 'unknown';

// Node resources that are not capacity a VM or a node type can be given.
const IGNORED_NODE_RESOURCES = /^(pods|hugepages-.*|attachable-volumes-.*)$/;

function sortedLabels(labels: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(labels ?? {}).sort()) out[key] = labels![key];
  return out;
}

/** cpu, memory, disk first, then extended resources by name: the order every inventory is written in. */
function orderedCapacity(capacity: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ['cpu', 'memory', 'disk']) if (capacity[key] !== undefined) out[key] = capacity[key];
  for (const key of Object.keys(capacity).filter(isExtendedResource).sort()) out[key] = capacity[key];
  return out;
}

/** Canonical quantity text (`1048576Ki` -> `1Gi`), so the file does not change when a kubelet rounds differently. */
function canonical(name: string, value: string): string {
  const parsed = parseResources({ [name]: value }, name)[name];
  return parsed.toString();
}

/** A Node as a host: what the machine has (`status.capacity`, else `allocatable`); ephemeral-storage is the disk. */
export function hostFromNode(node: NodeObject): HostSpec {
  const source = node.status?.capacity ?? node.status?.allocatable ?? {};
  const capacity: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (IGNORED_NODE_RESOURCES.test(key)) continue;
    const name = key === 'ephemeral-storage' ? 'disk' : key;
    // Extended resources must be qualified (`nvidia.com/gpu`); a bare unknown name is not a resource metalslice plans.
    if (isExtendedResource(name) && !name.includes('/')) continue;
    const text = canonical(name, value);
    if (isExtendedResource(name) && text === '0') continue;
    capacity[name] = text;
  }
  return { name: node.metadata.name, labels: sortedLabels(node.metadata.labels), capacity: orderedCapacity(capacity) };
}

function consumerOf(host: BareMetalHostObject): string | undefined {
  const ref = host.spec?.consumerRef;
  if (!ref?.name) return undefined;
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

/** A BareMetalHost as a host: inspected hardware (CPU count, RAM, total disk), provisioning state, consumer, error. */
export function hostFromBareMetalHost(host: BareMetalHostObject): HostSpec {
  const hardware = host.status?.hardware;
  const capacity: Record<string, string> = {};
  if (hardware?.cpu?.count !== undefined) capacity.cpu = String(hardware.cpu.count);
  if (hardware?.ramMebibytes !== undefined) capacity.memory = Quantity.fromBytes(BigInt(hardware.ramMebibytes) * 1024n * 1024n).toString();
  const disks = (hardware?.storage ?? []).map((d) => BigInt(d.sizeBytes ?? 0));
  if (disks.length > 0) capacity.disk = Quantity.fromBytes(disks.reduce((a, b) => a + b, 0n)).toString();
  const state = host.status?.provisioning?.state;
  const consumer = consumerOf(host);
  const errorMessage = host.status?.errorMessage;
  return {
    name: host.metadata.name,
    labels: sortedLabels(host.metadata.labels),
    capacity: orderedCapacity(capacity),
    // An empty or missing state means the operator has not registered the host yet: not usable.
    state: state === undefined || state === '' ? UNKNOWN_HOST_STATE : state,
    ...(consumer !== undefined ? { consumer } : {}),
    ...(errorMessage ? { errorMessage } : {}),
  };
}

/**
 * The inventory of a provider cluster. A BareMetalHost that is also a Node (a host provisioned into the
 * provider cluster itself) is one entry: the Node's capacity and labels (what the kubelet sees), the
 * host's state, consumer and error. Sorted by name, so the same cluster always gives the same file.
 */
export function buildInventory(nodes: readonly NodeObject[], bareMetalHosts: readonly BareMetalHostObject[]): InventoryFile {
  const byName = new Map<string, HostSpec>();
  for (const bmh of bareMetalHosts) byName.set(bmh.metadata.name, hostFromBareMetalHost(bmh));
  for (const node of nodes) {
    const fromNode = hostFromNode(node);
    const fromBmh = byName.get(fromNode.name);
    if (!fromBmh) {
      byName.set(fromNode.name, fromNode);
      continue;
    }
    const { name, labels, capacity, ...status } = fromBmh;
    byName.set(name, { name, labels: sortedLabels({ ...labels, ...fromNode.labels }), capacity: fromNode.capacity, ...status });
  }
  const hosts = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { hosts };
}
