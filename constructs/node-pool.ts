/**
 * ElasticNodePool: N virtual worker nodes of one shape, carved from a quota, that join a tenant cluster
 * on their own. Per node: a KubeVirt VirtualMachine, its cloud-init Secret (kubeadm join), and a
 * bootstrap token Secret in the tenant's kube-system. The token is made by Terraform (random provider),
 * so no secret is ever a literal in the synth output.
 */
import { poolSizeProblem } from './core/base/bounds';
import { Construct } from 'constructs';
import { CapacityPlan, IPlanContributor, ModelBuilder } from './capacity-plan';
import { Labels, NodePoolSpec, Taint, VmOptions } from './core/input/model';
import { bootstrapTokenTtlProblem } from './core/input/join-token';
import { drainTimeoutProblem, RolloutSpec } from './core/input/disruption';
import { PlannedFleet, PlannedPool } from './core/plan';
import { ResourceInput } from './core/base/resources';
import { PlannedVm } from './core/vm/vm';
import { IElasticQuota } from './quota';
import { elasticNodeLabels, renderVirtualMachine } from './render/kubevirt';
import { poolVmName } from './core/naming/derived';
import { ITenantCluster } from './tenant-cluster';
import { VmNodes } from './parts/vm-nodes';
import { NodeRollout } from './parts/node-rollout';
import { requireProps } from './plumbing/props';

/** Props of an ElasticNodePool. */
export interface ElasticNodePoolProps {
  /** The Elastic Quota the VMs are carved from (and counted against). */
  readonly quota: IElasticQuota;
  /** The tenant cluster the nodes join. */
  readonly cluster: ITenantCluster;
  /** One node's guest: cpu (whole vCPUs), memory, disk (root disk), optional devices (nvidia.com/gpu). */
  readonly shape: ResourceInput;
  /** Number of nodes. Scaling changes only the nodes added or removed. */
  readonly count: number;
  /** @default - the construct id */
  readonly name?: string;
  /** `spread` lets kube-scheduler spread the pool over hosts; `planned` pins each VM to the planner's host. @default "spread" */
  readonly placement?: 'spread' | 'planned';
  /** Root disk image. @default "quay.io/containerdisks/ubuntu:24.04" */
  readonly image?: string;
  /** @default "dataVolume" (a PVC of the shape's disk size, counted as requests.storage) */
  readonly rootDisk?: 'containerDisk' | 'dataVolume';
  /** Extra node labels (the kubelet sets them at join; node-role labels are not allowed). @default - none */
  readonly labels?: Labels;
  /** Node taints set at join. @default - none */
  readonly taints?: readonly Taint[];
  /** The node type label. @default - the pool name */
  readonly nodeType?: string;
  /** How long a node's bootstrap token stays valid after it is made (hours, minutes, seconds: 24h, 90m, 1h30m); an expired token is registered again by the next apply. @default "24h" */
  readonly bootstrapTokenTtl?: string;
  /** How each VM is built: dedicated CPUs, hugepages, IO threads, serial console log, ... @default - a plain VM */
  readonly vm?: VmOptions;
  /**
   * How long draining a node may take before the deploy stops with its pods still there (hours, minutes, seconds).
   * A node is drained (cordoned, its pods evicted through the Eviction API, its Node deleted) before its VM is
   * deleted. @default "15m"
   */
  readonly drainTimeout?: string;
  /**
   * How a change its running nodes cannot take in place (shape, image, Kubernetes version, labels, taints)
   * replaces them: `maxSurge` extra nodes made first, `maxUnavailable` nodes out of service at once. The plan
   * proves the surge fits the quota and the hosts. @default {maxSurge: 1, maxUnavailable: 0}
   */
  readonly rollout?: RolloutSpec;
}

export class ElasticNodePool extends Construct implements IPlanContributor {
  /** The pool's name; node names are `<poolName>-<index>`. */
  readonly poolName: string;
  private readonly spec: NodePoolSpec;

  // Over 60 lines: the construct declares its quota check, VMs and nodes in one place, as cdktf constructs do.
  constructor(scope: Construct, id: string, props: ElasticNodePoolProps) {
    super(scope, id);
    requireProps(this, props, ['quota', 'cluster', 'shape', 'count'], {
      shape: 'each VM\'s cpu, memory and disk, e.g. {cpu: 4, memory: "16Gi", disk: "50Gi"}',
    });
    const countProblem = poolSizeProblem(props.count);
    if (countProblem !== undefined) throw new Error(`[${this.node.path}] count ${countProblem}`);
    const ttlProblem = props.bootstrapTokenTtl === undefined ? undefined : bootstrapTokenTtlProblem(props.bootstrapTokenTtl);
    if (ttlProblem) throw new Error(`[${this.node.path}] bootstrapTokenTtl ${ttlProblem}`);
    const drainProblem = props.drainTimeout === undefined ? undefined : drainTimeoutProblem(props.drainTimeout);
    if (drainProblem) throw new Error(`[${this.node.path}] drainTimeout ${drainProblem}`);
    this.poolName = props.name ?? id;
    this.spec = {
      name: this.poolName,
      quota: props.quota.quotaName,
      cluster: props.cluster.clusterName,
      shape: props.shape,
      count: props.count,
      placement: props.placement,
      image: props.image,
      rootDisk: props.rootDisk,
      labels: props.labels,
      taints: props.taints,
      nodeType: props.nodeType,
      vm: props.vm,
      ...(props.drainTimeout !== undefined ? { drainTimeout: props.drainTimeout } : {}),
      ...(props.rollout !== undefined ? { rollout: props.rollout } : {}),
    };
    // Every node's producers ask for the pool, twice per synth (cdktf resolves each resource twice): look it
    // and its fleet up once per pool, not once per node and value. Node i's VM is the pool's VM i.
    let found: { pool: PlannedPool; fleet?: PlannedFleet } | undefined;
    const plannedWithFleet = (): { pool: PlannedPool; fleet?: PlannedFleet } => {
      if (found) return found;
      const plan = CapacityPlan.require(this);
      const pool = plan.plannedPool(this.poolName);
      if (!pool) throw new Error(`[${this.node.path}] pool "${this.poolName}" is not in the plan`);
      found = { pool, fleet: plan.plannedFleet(pool.fleet) };
      return found;
    };
    const plannedVm = (index: number, nodeName: string): PlannedVm => {
      const vm = plannedWithFleet().pool.vms[index];
      if (vm?.name !== nodeName) throw new Error(`[${this.node.path}] VM "${nodeName}" is not in the plan`);
      return vm;
    };
    const rolloutOf = () => CapacityPlan.require(this).plannedRollout(plannedWithFleet().pool.path);
    // A pool of no nodes has nothing to roll (and no revision: the plan builds no VM for it).
    const rollout =
      props.count > 0
        ? new NodeRollout(this, 'rollout', {
            cluster: props.cluster,
            namespace: props.quota.namespace,
            poolName: this.poolName,
            nodes: () => Array.from({ length: props.count }, (_, i) => poolVmName(this.poolName, i)),
            drainTimeout: props.drainTimeout,
            rollout: rolloutOf,
          })
        : undefined;
    // One resource per kind for the pool, keyed by node name (`<pool>-<index>`): scaling by one adds or removes
    // exactly one node's instances, and no record in the state grows with the stack (parts/vm-nodes.ts).
    const nodes = new VmNodes(this, 'nodes', {
      cluster: props.cluster,
      namespace: props.quota.namespace,
      admission: props.quota.admission,
      namespaceReady: props.quota.namespaceReady,
      poolName: this.poolName,
      tokenTtl: props.bootstrapTokenTtl,
      drainTimeout: props.drainTimeout,
      rollout,
    });
    for (let index = 0; index < props.count; index++) {
      const nodeName = poolVmName(this.poolName, index);
      nodes.add(nodeName, {
        join: () => {
          const vm = plannedVm(index, nodeName);
          return {
            labels: elasticNodeLabels(vm),
            taints: vm.taints,
          };
        },
        vm: (userDataSecret) =>
          renderVirtualMachine(plannedVm(index, nodeName), {
            userDataSecret,
            hostSelector: plannedWithFleet().fleet?.spec.hostSelector,
            revision: rolloutOf()?.revision,
            groupsLabelled: CapacityPlan.require(this).labelsHostGroups(plannedWithFleet().pool.fleet),
          }),
      });
    }
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('nodePools', this.spec, this);
  }
}
