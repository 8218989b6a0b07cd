/**
 * ElasticNodePool: N virtual worker nodes of one shape, carved from a quota, that join a tenant cluster
 * on their own. Per node: a KubeVirt VirtualMachine, its cloud-init Secret (kubeadm join), and a
 * bootstrap token Secret in the tenant's kube-system. The token is made by Terraform (random provider),
 * so no secret is ever a literal in the synth output.
 */
import { Fn, Lazy, Token } from 'cdktf';
import { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
import { SecretV1 } from '@cdktf/provider-kubernetes/lib/secret-v1';
import { Password } from '@cdktf/provider-random/lib/password';
import { StringResource } from '@cdktf/provider-random/lib/string-resource';
import { Construct } from 'constructs';
import { CapacityPlan, IPlanContributor, ModelBuilder } from './capacity-plan';
import { Labels, NodePoolSpec, Taint } from './core/model';
import { PlannedPool } from './core/plan';
import { ResourceInput } from './core/resources';
import { IElasticQuota } from './quota';
import { renderJoinCloudConfig } from './render/cloud-init';
import { renderVirtualMachine } from './render/kubevirt';
import { CLUSTER_LABEL, NODE_TYPE_LABEL, POOL_LABEL, QUOTA_LABEL } from './render/labels';
import { renderBootstrapTokenSecret } from './render/secrets';
import { ITenantCluster } from './tenant-cluster';

export interface ElasticNodePoolProps {
  readonly quota: IElasticQuota;
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
  readonly taints?: readonly Taint[];
  /** The node type label. @default - the pool name */
  readonly nodeType?: string;
  /** How long a node's bootstrap token stays valid (Terraform duration). @default "24h" */
  readonly bootstrapTokenTtl?: string;
}

export class ElasticNodePool extends Construct implements IPlanContributor {
  readonly poolName: string;
  private readonly spec: NodePoolSpec;

  constructor(scope: Construct, id: string, props: ElasticNodePoolProps) {
    super(scope, id);
    if (!Number.isInteger(props.count) || props.count < 0) {
      throw new Error(`[${this.node.path}] count must be a whole number of nodes, 0 or more (got ${props.count})`);
    }
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
    };
    const planned = (): PlannedPool => {
      const pool = CapacityPlan.require(this).plan().pools.find((p) => p.name === this.poolName);
      if (!pool) throw new Error(`[${this.node.path}] pool "${this.poolName}" is not in the plan`);
      return pool;
    };
    // Ids are node names (`<pool>-<index>`), so scaling by one adds or removes exactly one node's resources.
    for (let index = 0; index < props.count; index++) {
      new ElasticNode(this, `${this.poolName}-${index}`, { props, poolName: this.poolName, pool: planned, index });
    }
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('nodePools', this.spec, this);
  }
}

interface ElasticNodeProps {
  readonly props: ElasticNodePoolProps;
  readonly poolName: string;
  readonly pool: () => PlannedPool;
  readonly index: number;
}

class ElasticNode extends Construct {
  constructor(scope: Construct, nodeName: string, { props, poolName, pool, index }: ElasticNodeProps) {
    super(scope, nodeName);
    const cluster = props.cluster;
    const tokenChars = { length: 6, upper: false, special: false, lower: true, numeric: true };
    const tokenId = new StringResource(this, 'TokenId', tokenChars);
    const tokenSecret = new Password(this, 'TokenSecret', { ...tokenChars, length: 16 });
    const token = `${tokenId.result}.${tokenSecret.result}`;

    const bootstrap = renderBootstrapTokenSecret({
      tokenId: tokenId.result,
      tokenSecret: tokenSecret.result,
      expiration: Fn.timeadd(Fn.timestamp(), props.bootstrapTokenTtl ?? '24h'),
      description: `metalslice node ${nodeName}`,
    });
    new SecretV1(this, 'BootstrapToken', {
      provider: cluster.provider,
      metadata: { name: bootstrap.metadata.name, namespace: bootstrap.metadata.namespace, labels: bootstrap.metadata.labels },
      type: bootstrap.type as string,
      data: bootstrap.stringData as Record<string, string>,
      // The expiration is stamped once, at creation; later plans must not move it (or show a change).
      lifecycle: { ignoreChanges: ['data'] },
    });

    const userDataName = `${nodeName}-cloudinit`;
    new SecretV1(this, 'UserData', {
      metadata: { name: userDataName, namespace: props.quota.namespace, labels: { [POOL_LABEL]: poolName } },
      type: 'Opaque',
      data: {
        userdata: Token.asString(
          Lazy.stringValue({
            produce: () => {
              const p = pool();
              return renderJoinCloudConfig({
                nodeName,
                endpoint: cluster.endpoint,
                caCertificate: cluster.caCertificate,
                token,
                kubernetesVersion: cluster.kubernetesVersion ?? '1.33',
                labels: {
                  ...(p.spec.labels ?? {}),
                  [POOL_LABEL]: p.name,
                  [QUOTA_LABEL]: p.quota,
                  [CLUSTER_LABEL]: p.cluster,
                  [NODE_TYPE_LABEL]: p.nodeType,
                  'node.kubernetes.io/instance-type': p.nodeType,
                },
                taints: p.spec.taints,
              });
            },
          }),
        ),
      },
    });

    new Manifest(this, 'Resource', {
      manifest: Lazy.anyValue({
        produce: () => {
          const p = pool();
          const plan = CapacityPlan.require(this).plan();
          const fleet = plan.fleets.find((f) => f.name === p.fleet);
          return renderVirtualMachine({
            pool: p,
            nodeName,
            host: p.spec.placement === 'planned' ? p.nodes[index]?.host : undefined,
            cpuAllocationRatio: fleet?.cpuAllocationRatio ?? 1,
            userDataSecret: userDataName,
            hostSelector: fleet?.spec.hostSelector,
          });
        },
      }),
    });
  }
}
