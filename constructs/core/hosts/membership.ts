/**
 * A host is in one place: one fleet, or one Metal3 pool, never two. A fleet owns the hosts its hostSelector
 * selects; a metal3 provider owns the hosts one of its node types selects (a HostClaim of that type may
 * re-image the host and wipe its disks). Two places for one host would sell it twice: a VM the plan put there
 * and a HostClaim that deprovisions it, or two fleets that both count its capacity. One inventory of the
 * whole cluster may feed several fleets and pools, as long as their selectors do not overlap.
 */
import { metalsliceTemplateOf } from '../input/template-kind';
import { IssueCollector } from '../base/errors';
import { HostSpec, Labels, MetalsliceConfig, NodeProviderSpec } from '../input/model';
import { matchesLabelSelector } from './selector';

/** Who claims a host (a fleet or a Metal3 pool), and where it was written. */
interface Claim {
  readonly member: string;
  readonly path: string;
}

/** Whether a fleet takes a host: every label of its hostSelector (KubeVirt's workloads node placement), or every host without one. */
export function selectedByFleet(host: Pick<HostSpec, 'labels'>, selector: Labels | undefined): boolean {
  return !selector || Object.entries(selector).every(([k, v]) => host.labels?.[k] === v);
}

function selectedByMetal3(host: HostSpec, provider: NodeProviderSpec): boolean {
  return (provider.nodeTypes ?? []).some((t) => !t.hostSelector || matchesLabelSelector(host.labels ?? {}, t.hostSelector));
}

/** Where a host was written: its list entry, or the hostsFile it came from. */
function hostPath(at: string, hostsFile: string | undefined, index: number): string {
  return hostsFile !== undefined ? `${at}.hostsFile` : `${at}.hosts[${index}]`;
}

/** Refuses every host claimed by a second fleet or Metal3 pool, naming both. `pathOf` gives the path a fleet or provider was written at. */
export function checkHostMembership(
  model: MetalsliceConfig,
  pathOf: (kind: 'fleets' | 'nodeProviders', index: number) => string,
  issues: IssueCollector,
): void {
  const claims = new Map<string, Claim>();
  const claim = (host: HostSpec, member: string, path: string): void => {
    const first = claims.get(host.name);
    if (!first) {
      claims.set(host.name, { member, path });
      return;
    }
    if (first.member === member) return; // listed twice by one fleet or pool: reported where it is planned
    issues.add(
      path,
      `host "${host.name}" is already ${first.member.startsWith('fleet') ? 'in' : 'claimed by'} ${first.member} (${first.path}): a host belongs to one fleet or one Metal3 pool; remove it here, or narrow a hostSelector so the two do not overlap`,
    );
  };
  (model.fleets ?? []).forEach((fleet, i) => {
    const at = pathOf('fleets', i);
    (fleet.hosts ?? []).forEach((h, j) => {
      if (selectedByFleet(h, fleet.hostSelector)) claim(h, `fleet "${fleet.name}"`, hostPath(at, fleet.hostsFile, j));
    });
  });
  (model.nodeProviders ?? []).forEach((provider, i) => {
    const at = pathOf('nodeProviders', i);
    // A terraform provider running metalslice's metal3 template lists exactly the hosts its claims take.
    if (provider.kind === 'terraform' && metalsliceTemplateOf(provider.nodeTemplate) === 'metal3') {
      (provider.hosts ?? []).forEach((h, j) => claim(h, `metal3 template provider "${provider.name}"`, hostPath(at, provider.hostsFile, j)));
      return;
    }
    if (provider.kind !== 'metal3') return;
    (provider.hosts ?? []).forEach((h, j) => {
      if (selectedByMetal3(h, provider)) claim(h, `metal3 provider "${provider.name}"`, hostPath(at, provider.hostsFile, j));
    });
  });
}
