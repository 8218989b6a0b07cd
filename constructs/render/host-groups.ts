/**
 * The Node labels of host groups: a spread pool the plan confines to some of its fleet's hosts selects its
 * group's label (`hostGroupLabel`), which must be on exactly those hosts' Nodes. The constructs write these
 * labels (HostGroupLabels); the replay puts them on the Nodes it makes, as a deploy would have.
 */
import { PlannedVm } from '../core/vm/vm';
import { HOST_GROUP_LABEL_VALUE } from './labels';

const byName = <T>(entries: Iterable<[string, T]>): [string, T][] => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The group label keys of the plan's pools on `fleet` (every fleet when undefined), each with the hosts that carry it. */
export function hostGroupMembers(vms: readonly PlannedVm[], fleet?: string): Map<string, ReadonlySet<string>> {
  const members = new Map<string, ReadonlySet<string>>();
  for (const vm of vms) {
    const group = vm.hostGroup;
    if ((fleet !== undefined && vm.fleet !== fleet) || group?.label === undefined || group.hosts === undefined) continue;
    if (!members.has(group.label)) members.set(group.label, new Set(group.hosts));
  }
  return members;
}

/** Per host of `fleet` that is in some pool's group: the group labels it carries, hosts and keys in name order. */
export function hostGroupLabels(vms: readonly PlannedVm[], fleet: string): Record<string, Record<string, string>> {
  const byHost = new Map<string, Map<string, string>>();
  for (const [label, hosts] of hostGroupMembers(vms, fleet)) {
    for (const host of hosts) {
      const labels = byHost.get(host) ?? new Map<string, string>();
      labels.set(label, HOST_GROUP_LABEL_VALUE);
      byHost.set(host, labels);
    }
  }
  return Object.fromEntries(byName(byHost).map(([host, labels]) => [host, Object.fromEntries(byName(labels))]));
}

/**
 * A Node's labels once the plan's group labels are applied: each group key of the plan's pools set on the
 * group's hosts and gone from every other Node; other keys, other stacks' groups among them, as they were.
 */
export function withHostGroupLabels(
  node: string,
  labels: Readonly<Record<string, string>>,
  members: ReadonlyMap<string, ReadonlySet<string>>,
): Record<string, string> {
  const out = { ...labels };
  for (const [label, hosts] of members) {
    if (hosts.has(node)) out[label] = HOST_GROUP_LABEL_VALUE;
    else delete out[label];
  }
  return out;
}
