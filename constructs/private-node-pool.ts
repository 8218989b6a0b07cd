/**
 * PrivateNodePool: bare-metal servers allocated exclusively to one tenant cluster, named by node type: the
 * TypeScript-first way to say what a static pool on a metal3 provider says. Both are planned as one pool of
 * hosts and rendered by HostNodes (parts/host-nodes.ts): per node a Metal3 HostClaim, its userData Secret and a
 * bootstrap token; once per host pool namespace a HostDeployPolicy.
 */
import { poolSizeProblem } from './core/base/bounds';
import { Construct } from 'constructs';
import { IPlanContributor, ModelBuilder } from './capacity-plan';
import { bootstrapTokenTtlProblem } from './core/input/join-token';
import { drainTimeoutProblem, RolloutSpec, rolloutProblems } from './core/input/disruption';
import { Labels, PrivateNodePoolSpec, Taint } from './core/input/model';
import { privatePoolProviderProblem } from './core/auto/node-types';
import { HostNodes, providerSpecOf } from './parts/host-nodes';
import { INodeProvider } from './node-provider';
import { HostImage, hostImageProblem } from './render/metal3';
import { ITenantCluster } from './tenant-cluster';
import { requireProps } from './plumbing/props';

/** Props of a PrivateNodePool. */
export interface PrivateNodePoolProps {
  /** The tenant cluster the hosts join. */
  readonly cluster: ITenantCluster;
  /** A metal3 node provider (its node types select BareMetalHosts by label). */
  readonly provider: INodeProvider;
  /** The provider's node type the hosts are claimed as. */
  readonly nodeType: string;
  /** Number of hosts. Scaling changes only the nodes added or removed. */
  readonly count: number;
  /** The OS image written to each host. */
  readonly image: HostImage;
  /** @default - the construct id */
  readonly name?: string;
  /** Extra node labels (the kubelet sets them at join; node-role labels are not allowed). @default - none */
  readonly labels?: Labels;
  /** @default - none */
  readonly taints?: readonly Taint[];
  /** Keep the claimed hosts powered on. @default true */
  readonly poweredOn?: boolean;
  /** How long a node's bootstrap token stays valid after it is made (hours, minutes, seconds: 24h, 90m, 1h30m); an expired token is registered again by the next apply. @default "24h" */
  readonly bootstrapTokenTtl?: string;
  /** How long draining a node may take before its HostClaim is deleted and the host cleaned (hours, minutes, seconds). @default "15m" */
  readonly drainTimeout?: string;
  /**
   * How a change its running hosts cannot take in place (image, node type, labels, taints, Kubernetes version)
   * replaces them: `maxSurge` free hosts of the node type claimed first, `maxUnavailable` nodes out of service at
   * once. The plan proves the node type has that many free matching hosts. @default {maxSurge: 1, maxUnavailable: 0}
   */
  readonly rollout?: RolloutSpec;
}

export class PrivateNodePool extends Construct implements IPlanContributor {
  /** The pool's name; HostClaims are `<cluster>-<poolName>-<index>`. */
  readonly poolName: string;
  /** The namespace on the provider cluster that holds the pool's HostClaims and their Secrets. */
  readonly namespace: string;
  private readonly spec: PrivateNodePoolSpec;

  constructor(scope: Construct, id: string, props: PrivateNodePoolProps) {
    super(scope, id);
    requireProps(this, props, ['cluster', 'provider', 'nodeType', 'count', 'image']);
    const fail = (message: string): never => {
      throw new Error(`[${this.node.path}] ${message}`);
    };
    const countProblem = poolSizeProblem(props.count, 'hosts');
    if (countProblem !== undefined) fail(`count ${countProblem}`);
    const ttlProblem = props.bootstrapTokenTtl === undefined ? undefined : bootstrapTokenTtlProblem(props.bootstrapTokenTtl);
    if (ttlProblem) fail(`bootstrapTokenTtl ${ttlProblem}`);
    const drainProblem = props.drainTimeout === undefined ? undefined : drainTimeoutProblem(props.drainTimeout);
    if (drainProblem) fail(`drainTimeout ${drainProblem}`);
    for (const [field, problem] of rolloutProblems(props.rollout)) fail(`rollout.${field} ${problem}`);
    const providerProblem = privatePoolProviderProblem(props.provider.providerName, props.provider.kind);
    if (providerProblem) fail(providerProblem);
    const imageProblem = hostImageProblem(props.image);
    if (imageProblem) fail(imageProblem);
    const providerSpec = providerSpecOf(props.provider);
    const typeSpec = providerSpec?.nodeTypes.find((t) => t.name === props.nodeType);
    if (providerSpec && !typeSpec)
      fail(
        `provider "${props.provider.providerName}" has no node type "${props.nodeType}"; its types: ${providerSpec.nodeTypes.map((t) => t.name).join(', ') || 'none'}`,
      );
    if (typeSpec && !typeSpec.hostSelector)
      fail(`node type "${props.nodeType}" of provider "${props.provider.providerName}" has no hostSelector: a HostClaim needs one to pick its BareMetalHost`);

    this.poolName = props.name ?? id;
    this.spec = {
      name: this.poolName,
      cluster: props.cluster.clusterName,
      provider: props.provider.providerName,
      nodeType: props.nodeType,
      count: props.count,
      image: props.image,
      labels: props.labels,
      taints: props.taints,
      ...(props.rollout !== undefined ? { rollout: props.rollout } : {}),
    };
    this.namespace = new HostNodes(this, 'hosts', { ...props, poolName: this.poolName, providerSpec }).namespace;
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('privateNodePools', this.spec, this);
  }
}
