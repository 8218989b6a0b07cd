/**
 * ElasticFleet: the bare-metal hosts of one machine pool, turned into KubeVirt virtualization capacity.
 * Capacity = sum over hosts of (capacity - reservedPerHost); quotas are carved from it.
 */
import { Lazy } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { CapacityPlan, IHostGroupLabeller, IPlanContributor, ModelBuilder } from './capacity-plan';
import { FleetSpec, HostSpec, Labels, PermittedHostDevice } from './core/input/model';
import { ResourceInput } from './core/base/resources';
import { renderKubeVirt } from './render/kubevirt';
import { requireProps } from './plumbing/props';
import { KubectlManifest } from './plumbing/kubectl';
import { literalYaml } from './plumbing/literal';
import { manifestTakenOver } from './plumbing/user-data-secret';
import { HostGroupLabels } from './parts/host-group-labels';

/** A fleet, declared here or imported from an inventory. */
export interface IElasticFleet extends IConstruct {
  /** The fleet's name, as quotas and node providers refer to it. */
  readonly fleetName: string;
}

/** Props of an ElasticFleet. */
export interface ElasticFleetProps {
  /** The hosts of the machine pool (see `metalslice inventory` to read them from a cluster). */
  readonly hosts: readonly HostSpec[];
  /** @default - the construct id */
  readonly name?: string;
  /** Kept back on every host for the OS, kubelet and KubeVirt's own pods. @default - nothing */
  readonly reservedPerHost?: ResourceInput;
  /** vCPUs per physical CPU; 1 means no CPU overcommit. @default 1 */
  readonly cpuAllocationRatio?: number;
  /** Namespace of the KubeVirt CR. @default "kubevirt" */
  readonly namespace?: string;
  /** Only hosts with these labels run VMs. @default - every host */
  readonly hostSelector?: Labels;
  /** KubeVirt's memoryOvercommit, in percent (100: none). @default 100 */
  readonly memoryOvercommit?: number;
  /** Whether KubeVirt keeps each VM's serial console log (a container per launcher pod, counted by the plan). @default true */
  readonly serialConsoleLog?: boolean;
  /** Pods each host may run (the kubelet's maxPods), counted as one per launcher pod. @default 110 */
  readonly podsPerHost?: number;
  /** PCI devices KubeVirt may pass to VMs (GPUs and others), as KubeVirt's permittedHostDevices. @default - none */
  readonly permittedHostDevices?: readonly PermittedHostDevice[];
  /**
   * N+1: fail the plan unless the fleet can lose any one host (and, with the CapacityPlan's failureDomain,
   * any one rack or zone) and still find a host for every VM.
   * @default false - the plan report shows the headroom without requiring it
   */
  readonly requireHostFailureHeadroom?: boolean;
}

/** What a declared and an imported fleet share: identity and their part of the plan's model. */
abstract class FleetBase extends Construct implements IElasticFleet, IPlanContributor {
  /** The fleet's name, as quotas and node providers refer to it. */
  readonly fleetName: string;
  private readonly spec: FleetSpec;

  constructor(scope: Construct, id: string, props: ElasticFleetProps) {
    super(scope, id);
    requireProps(this, props, ['hosts'], { hosts: 'the bare-metal hosts of the fleet, e.g. from `metalslice inventory`' });
    this.fleetName = props.name ?? id;
    this.spec = {
      name: this.fleetName,
      hosts: props.hosts,
      reservedPerHost: props.reservedPerHost,
      cpuAllocationRatio: props.cpuAllocationRatio,
      namespace: props.namespace,
      hostSelector: props.hostSelector,
      memoryOvercommit: props.memoryOvercommit,
      serialConsoleLog: props.serialConsoleLog,
      podsPerHost: props.podsPerHost,
      permittedHostDevices: props.permittedHostDevices,
      requireHostFailureHeadroom: props.requireHostFailureHeadroom,
    };
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('fleets', this.spec, this);
  }
}

/**
 * An Elastic Fleet: its hosts become KubeVirt capacity (it synthesizes the KubeVirt CR), and the Nodes of hosts
 * in a pool's host group get the group's label.
 */
export class ElasticFleet extends FleetBase implements IHostGroupLabeller {
  /** The fleet whose hosts' group labels it writes: its own. */
  readonly labelsHostGroupsOf: string;

  /**
   * A fleet managed elsewhere (by the provider team's stack): planned against, synthesizes nothing. Consumer stacks
   * use it so their pools are placed on the real hosts. It writes no Node labels (a consumer's identity need not
   * write Nodes), so a pool of this stack the plan confines to a host group keeps a required node affinity on the
   * group's host names.
   */
  static fromInventory(scope: Construct, id: string, props: ElasticFleetProps): IElasticFleet {
    return new ImportedFleet(scope, id, props);
  }

  constructor(scope: Construct, id: string, props: ElasticFleetProps) {
    super(scope, id, props);
    // Applied server-side: a create whose answer was lost leaves nothing the next apply stops on, and a plan does
    // not fetch the cluster's OpenAPI document for it.
    new KubectlManifest(this, 'Resource', {
      yamlBody: Lazy.stringValue({
        produce: () => {
          const fleet = CapacityPlan.require(this).plannedFleet(this.fleetName);
          if (!fleet) throw new Error(`[${this.node.path}] fleet "${this.fleetName}" is not in the plan`);
          return literalYaml(renderKubeVirt(fleet, CapacityPlan.require(this).plannedVms()));
        },
      }),
      // Nothing of the stack needs it gone first (the kubevirt namespace is the operator's).
      waitForDeletion: false,
      forgetPrevious: manifestTakenOver(this),
    });
    new HostGroupLabels(this, 'host-groups', this.fleetName);
    this.labelsHostGroupsOf = this.fleetName;
  }
}

class ImportedFleet extends FleetBase {}
