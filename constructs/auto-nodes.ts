/**
 * AutoNodes: a tenant cluster's vCluster-style node pools on one node provider. Static pools become
 * concrete nodes of the cheapest matching type: on kubevirt, VMs counted against the quota and placed on the
 * fleet; on metal3, HostClaims of whole hosts (as a PrivateNodePool's, with the image the properties give);
 * on terraform, nothing (vCluster Platform runs the provider's node template per claim; the plan counts them
 * when the template is metalslice's kubevirt one). Dynamic pools become a Karpenter NodePool, or a Cluster
 * API MachineDeployment scaled by cluster-autoscaler. The node type is chosen by the CapacityPlan at synth.
 */
import { describeValue } from './core/base/excerpt';
import { poolSizeProblem } from './core/base/bounds';
import { Lazy } from 'cdktf';
import { Manifest } from './providers/kubernetes/manifest';
import { Construct } from 'constructs';
import { CapacityPlan, IPlanContributor, ModelBuilder } from './capacity-plan';
import { PlannedAutoPool } from './core/auto';
import { AutoNodesSpec, DynamicPoolSpec, StaticPoolSpec } from './core/input/model';
import { PlannedVm } from './core/vm/vm';
import { INodeProvider } from './node-provider';
import { IElasticQuota } from './quota';
import { renderClusterApiPool } from './render/cluster-api';
import { renderKarpenterNodePool } from './render/karpenter';
import { renderVirtualMachine } from './render/kubevirt';
import { autoNodeName, CLUSTER_LABEL, POOL_LABEL, QUOTA_LABEL } from './core/naming/derived';
import { ITenantCluster } from './tenant-cluster';
import { VmNodes } from './parts/vm-nodes';
import { NodeRollout } from './parts/node-rollout';
import { requireProps } from './plumbing/props';
import { NodeEnvironment } from './parts/node-environment';
import { HostNodes } from './parts/host-nodes';

/** Props of AutoNodes. */
export interface AutoNodesProps {
  /** The tenant cluster the nodes join. */
  readonly cluster: ITenantCluster;
  /** The node provider whose catalogue the pools claim from. */
  readonly provider: INodeProvider;
  /** Required for kubevirt providers: the quota the VMs are counted against. */
  readonly quota?: IElasticQuota;
  /**
   * Properties of every node claim (vcluster.yaml `autoNodes[].properties`); they win over the node
   * type's and the provider's. @default - none
   */
  readonly properties?: Readonly<Record<string, string>>;
  /** The NodeProfile of pools that name none. @default - none */
  readonly defaultProfile?: string;
}

export class AutoNodes extends Construct implements IPlanContributor {
  private readonly statics: StaticPoolSpec[] = [];
  private readonly dynamics: DynamicPoolSpec[] = [];
  private readonly cluster: ITenantCluster;
  private readonly provider: INodeProvider;
  private readonly quota?: IElasticQuota;
  private readonly environment: NodeEnvironment;
  private readonly props: AutoNodesProps;

  constructor(scope: Construct, id: string, props: AutoNodesProps) {
    super(scope, id);
    requireProps(this, props, ['cluster', 'provider']);
    if (props.provider.kind === 'kubevirt' && !props.quota) {
      throw new Error(`[${this.node.path}] auto nodes on the kubevirt provider "${props.provider.providerName}" need a quota: pass quota: <ElasticQuota>`);
    }
    this.props = props;
    this.cluster = props.cluster;
    this.provider = props.provider;
    this.quota = props.quota;
    this.environment = NodeEnvironment.ensure(this, props.cluster.clusterName, props.provider.providerName);
  }

  private planned(name: string, mode: 'static' | 'dynamic'): PlannedAutoPool {
    const pool = CapacityPlan.require(this).plannedAutoPool(this.cluster.clusterName, this.provider.providerName, name, mode);
    if (!pool) throw new Error(`[${this.node.path}] ${mode} pool "${name}" is not in the plan`);
    return pool;
  }

  /** A fixed number of nodes of the cheapest matching type. Changing `quantity` changes only the difference. */
  addStaticPool(spec: StaticPoolSpec): void {
    const quantityProblem = poolSizeProblem(spec.quantity);
    if (quantityProblem !== undefined) throw new Error(`[${this.node.path}] static pool ${describeValue(spec.name)}: quantity ${quantityProblem}`);
    this.statics.push(spec);
    // metal3: whole hosts, rendered as a private node pool's are; terraform: vCluster Platform runs the node template per claim.
    if (this.provider.kind === 'metal3') {
      new HostNodes(this, spec.name, { cluster: this.cluster, provider: this.provider, poolName: spec.name, count: spec.quantity });
      return;
    }
    if (this.provider.kind !== 'kubevirt') return;
    const quota = this.quota!;
    const pools = new Construct(this, spec.name);
    const rolloutOf = () => CapacityPlan.require(this).plannedRollout(this.planned(spec.name, 'static').path);
    // A pool of no nodes has nothing to roll (and no revision: the plan builds no VM for it).
    const rollout =
      spec.quantity > 0
        ? new NodeRollout(pools, 'rollout', {
            cluster: this.cluster,
            namespace: quota.namespace,
            poolName: spec.name,
            nodes: () => Array.from({ length: spec.quantity }, (_, i) => autoNodeName(this.cluster.clusterName, spec.name, i)),
            rollout: rolloutOf,
          })
        : undefined;
    const nodes = new VmNodes(pools, 'nodes', {
      cluster: this.cluster,
      namespace: quota.namespace,
      admission: quota.admission,
      namespaceReady: quota.namespaceReady,
      poolName: spec.name,
      rollout,
    });
    for (let index = 0; index < spec.quantity; index++) {
      // The plan names auto nodes `<cluster>-<pool>-<index>`; the instance keys follow, so addresses are stable.
      const nodeName = autoNodeName(this.cluster.clusterName, spec.name, index);
      nodes.add(nodeName, {
        join: () => {
          const vm = this.plannedVm(spec.name, index, nodeName);
          return { labels: { ...vm.labels, [POOL_LABEL]: vm.pool, [QUOTA_LABEL]: vm.quota, [CLUSTER_LABEL]: vm.cluster }, taints: vm.taints };
        },
        vm: (userDataSecret) =>
          renderVirtualMachine(this.plannedVm(spec.name, index, nodeName), {
            userDataSecret,
            hostSelector: this.hostSelector(quota),
            revision: rolloutOf()?.revision,
            groupsLabelled: CapacityPlan.require(this).labelsHostGroups(this.plannedVm(spec.name, index, nodeName).fleet),
          }),
      });
    }
  }

  /** Nodes made on demand by Karpenter (default) or cluster-autoscaler, within `limits`. */
  addDynamicPool(spec: DynamicPoolSpec): void {
    this.dynamics.push(spec);
    const name = spec.name;
    if ((spec.autoscaler ?? 'karpenter') === 'karpenter') {
      // Karpenter runs beside the tenant's control plane: its NodePool goes into the tenant cluster.
      new Manifest(this, `${name}-nodepool`, {
        provider: this.cluster.provider,
        manifest: Lazy.anyValue({ produce: () => renderKarpenterNodePool(this.planned(name, 'dynamic')) }),
      });
      return;
    }
    const objects = () => {
      const pool = this.planned(name, 'dynamic');
      return renderClusterApiPool(pool, {
        namespace: this.quota?.namespace ?? this.environment.namespace,
        kubernetesVersion: this.cluster.bootstrap ? `v${this.cluster.bootstrap.kubernetes}` : `v${this.cluster.kubernetesVersion ?? '1.33'}.0`,
        vm: pool.vms?.[0],
        hostSelector: this.quota ? this.hostSelector(this.quota) : undefined,
      });
    };
    // They live in the quota's namespace (else the node environment's): created after it, in the same apply.
    const after = this.quota ? (this.quota.admission ? [this.quota.admission] : undefined) : [this.environment.namespaceResource];
    const template = new Manifest(this, `${name}-machine-template`, {
      manifest: Lazy.anyValue({ produce: () => objects().machineTemplate }),
      dependsOn: after,
    });
    const bootstrap = new Manifest(this, `${name}-bootstrap-template`, {
      manifest: Lazy.anyValue({ produce: () => objects().bootstrapTemplate }),
      dependsOn: after,
    });
    new Manifest(this, `${name}-machine-deployment`, {
      manifest: Lazy.anyValue({ produce: () => objects().machineDeployment }),
      dependsOn: [template, bootstrap],
      // cluster-autoscaler owns the replica count of an autoscaled MachineDeployment.
      computedFields: ['spec.replicas'],
    });
  }

  /** Node `index` of a static pool: the pool's VM at that position, as the plan counted and placed it. */
  private plannedVm(pool: string, index: number, nodeName: string): PlannedVm {
    const vm = this.planned(pool, 'static').vms?.[index];
    if (vm?.name !== nodeName) throw new Error(`[${this.node.path}] VM "${nodeName}" is not in the plan`);
    return vm;
  }

  /** The fleet's host selector, repeated on every VM so it lands only on fleet hosts. */
  private hostSelector(quota: IElasticQuota): Readonly<Record<string, string>> | undefined {
    return CapacityPlan.require(this).plannedFleet(quota.fleet.fleetName)?.spec.hostSelector;
  }

  contributeToPlan(model: ModelBuilder): void {
    const spec: AutoNodesSpec = {
      cluster: this.cluster.clusterName,
      provider: this.provider.providerName,
      quota: this.quota?.quotaName,
      ...(this.props.properties !== undefined ? { properties: this.props.properties } : {}),
      ...(this.props.defaultProfile !== undefined ? { defaultProfile: this.props.defaultProfile } : {}),
      static: this.statics,
      dynamic: this.dynamics,
    };
    model.add('autoNodes', spec, this);
  }
}
