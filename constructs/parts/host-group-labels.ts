/**
 * HostGroupLabels: the Node labels of a fleet's host groups. A spread pool the plan confines to some of the
 * fleet's hosts selects one label, `group.metalslice.io/<cluster>.<pool>` (core/naming/derived.ts); this
 * construct writes it on the Nodes of those hosts, one `kubernetes_labels` instance per host that is in a
 * group, keyed by the host's name.
 *
 * Regrouping is then a change of Node labels: a host that joins a pool's group gains the label, one that
 * leaves loses it, and no VM changes (its selector names the pool, not the hosts). A running VM stays where it
 * is (the selector is required during scheduling, ignored during execution); it meets the new group when its
 * launcher pod is next scheduled.
 *
 * `kubernetes_labels` applies only these keys with server-side apply under its own field manager, so the Node's
 * other labels (the kubelet's, the provider team's) are left alone, and destroying an instance removes exactly
 * the labels it wrote. The field manager names the stack and the fleet. Only an ElasticFleet writes labels (the
 * app that declares a fleet is the provider team's); a fleet imported into a consumer stack writes none, and its
 * grouped pools keep their group's host names (render/kubevirt.ts `groupsLabelled`).
 */
import { TerraformStack, Token } from 'cdktf';
import { Construct } from 'constructs';
import { CapacityPlan } from '../capacity-plan';
import { hostGroupLabels } from '../render/host-groups';
import { shortened } from '../core/naming/derived';
import { Labels } from '../providers/kubernetes/labels';
import { forEachOf } from './addresses';

/**
 * The field manager of a stack's group labels on one fleet: at most 128 characters (the API server's limit),
 * a long stack or fleet name shortened with a stable hash.
 */
export function hostGroupFieldManager(stack: string, fleet: string): string {
  return shortened(`metalslice/${stack}/${fleet}`, 128, [stack, fleet]);
}

/** The group labels of one fleet's hosts, as the plan of this construct's stack groups them. */
export class HostGroupLabels extends Construct {
  /** @param fleet the fleet's name */
  constructor(scope: Construct, id: string, fleet: string) {
    super(scope, id);
    // Made once per synth (forEachOf's local is made at synth, once): the plan's VM list can be 10,000 long.
    const each = forEachOf(this, 'Hosts', () => hostGroupLabels(CapacityPlan.require(this).plannedVms(), fleet));
    new Labels(this, 'Resource', {
      forEach: each,
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: Token.asString(each.key) },
      labels: Token.asStringMap(each.value),
      fieldManager: hostGroupFieldManager(TerraformStack.of(this).node.id, fleet),
      // The keys are metalslice's own (group.metalslice.io/): a value someone set by hand is taken over.
      force: true,
    });
  }
}
