/**
 * NodeProvider: a vCluster Platform-style catalogue of node types that claims are matched against.
 * `kubevirt` types are VM shapes on an Elastic Fleet; `metal3` types select bare-metal hosts by label;
 * `terraform` types are made by a per-claim node template. Synthesizes nothing by itself.
 */
import { Construct, IConstruct } from 'constructs';
import { IPlanContributor, ModelBuilder } from './capacity-plan';
import { HostSpec, Labels, NodeProviderSpec, NodeTemplateSpec, NodeTypeSpec } from './core/input/model';
import { IElasticFleet } from './fleet';
import { requireProps } from './plumbing/props';

/** A node provider, as auto-node and private pools refer to it. */
export interface INodeProvider extends IConstruct {
  /** The provider's name. */
  readonly providerName: string;
  /** `kubevirt`, `metal3` or `terraform`. */
  readonly kind: NodeProviderSpec['kind'];
}

/** Props of a NodeProvider. */
export interface NodeProviderProps {
  /** `kubevirt`: VMs on a fleet; `metal3`: whole BareMetalHosts; `terraform`: nodes made by vCluster Platform's node templates. */
  readonly kind: NodeProviderSpec['kind'];
  /** The node types: resources, properties, zone, cost, maxCapacity (metal3: hostSelector). */
  readonly nodeTypes: readonly NodeTypeSpec[];
  /** @default - the construct id */
  readonly name?: string;
  /** kubevirt: the fleet whose hosts run the VMs. */
  readonly fleet?: IElasticFleet;
  /** metal3: the BareMetalHosts of the pool (see `metalslice inventory`). */
  readonly hosts?: readonly HostSpec[];
  /** metal3: namespace of the BareMetalHosts. @default "metal3" */
  readonly hostNamespace?: string;
  /** Properties every type has unless it sets its own. @default - none */
  readonly properties?: Labels;
  /**
   * terraform: the template vCluster Platform runs per node claim (its NodeProvider's `spec.terraform.nodeTemplate`).
   * metalslice's own templates (`subPath: node-templates/kubevirt` or `node-templates/metal3`) let the plan prove
   * the nodes. @default - unknown: the claims are listed with their cost, their capacity not proven
   */
  readonly nodeTemplate?: NodeTemplateSpec;
}

export class NodeProvider extends Construct implements INodeProvider, IPlanContributor {
  /** The provider's name. */
  readonly providerName: string;
  /** `kubevirt`, `metal3` or `terraform`. */
  readonly kind: NodeProviderSpec['kind'];
  private readonly spec: NodeProviderSpec;

  constructor(scope: Construct, id: string, props: NodeProviderProps) {
    super(scope, id);
    requireProps(this, props, ['kind', 'nodeTypes']);
    if (props.kind === 'kubevirt' && !props.fleet) throw new Error(`[${this.node.path}] a kubevirt node provider needs a fleet: pass fleet: <ElasticFleet>`);
    if (props.kind !== 'kubevirt' && props.fleet)
      throw new Error(`[${this.node.path}] only kubevirt node providers run on a fleet; remove fleet or set kind: 'kubevirt'`);
    if (props.kind !== 'terraform' && props.nodeTemplate)
      throw new Error(`[${this.node.path}] only terraform node providers run a node template; remove nodeTemplate or set kind: 'terraform'`);
    this.providerName = props.name ?? id;
    this.kind = props.kind;
    this.spec = {
      name: this.providerName,
      kind: props.kind,
      fleet: props.fleet?.fleetName,
      hosts: props.hosts,
      hostNamespace: props.hostNamespace,
      properties: props.properties,
      ...(props.nodeTemplate !== undefined ? { nodeTemplate: props.nodeTemplate } : {}),
      nodeTypes: props.nodeTypes,
    };
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('nodeProviders', this.spec, this);
  }
}
