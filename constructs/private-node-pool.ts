/**
 * PrivateNodePool: bare-metal servers allocated exclusively to one tenant cluster. Per node: a Metal3
 * HostClaim in the tenant's node environment namespace on the provider cluster, its userData Secret (the
 * kubeadm join cloud-config) and a bootstrap token in the tenant's kube-system. Once per host pool
 * namespace: a HostDeployPolicy that lets exactly the tenant namespaces with HostClaims there bind hosts.
 *
 * Scaling down deletes the last HostClaims; Metal3 then deprovisions their hosts and, with the
 * BareMetalHost's `automatedCleaningMode: metadata` (the default), cleans the disks before the host can be
 * claimed again.
 */
import { MAX_NODES_PER_POOL, wholeNumberProblem } from './core/limits';
import { ITerraformDependable, Lazy, Token } from 'cdktf';
import { Manifest } from './providers/kubernetes/manifest';
import { SecretV1 } from './providers/kubernetes/secret-v1';
import { Construct, IConstruct } from 'constructs';
import { CapacityPlan, IPlanContributor, ModelBuilder } from './capacity-plan';
import { PlannedAutoNode, PlannedAutoPool } from './core/auto-nodes';
import { bootstrapTokenTtlProblem } from './core/join-token';
import { Labels, NodeProviderSpec, PrivateNodePoolSpec, Taint } from './core/model';
import { NodeEnvironment } from './auto-nodes';
import { INodeProvider } from './node-provider';
import { renderJoinCloudConfig } from './render/cloud-init';
import { CLUSTER_LABEL, NODE_TYPE_LABEL, POOL_LABEL } from './render/labels';
import {
  FAILURE_DOMAIN_LABEL,
  HostImage,
  hostClaimUserDataSecretName,
  hostImageProblem,
  renderHostClaim,
  renderHostClaimUserDataSecret,
  renderHostDeployPolicy,
  USER_DATA_KEY,
} from './render/metal3';
import { nodeEnvironmentNamespace } from './render/node-environment';
import { ITenantCluster } from './tenant-cluster';
import { JoinToken } from './vm-node';
import { requireProps } from './props';

/** metal3 providers keep their BareMetalHosts here unless they say otherwise (as the planner assumes). */
const DEFAULT_HOST_NAMESPACE = 'metal3';

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
}

function isContributor(c: IConstruct): c is IConstruct & IPlanContributor {
  return typeof (c as Partial<IPlanContributor>).contributeToPlan === 'function';
}

/** The provider's own spec, as it contributes it to the plan (undefined for an imported provider). */
function providerSpecOf(provider: INodeProvider): NodeProviderSpec | undefined {
  if (!isContributor(provider)) return undefined;
  const builder = new ModelBuilder();
  provider.contributeToPlan(builder);
  return builder.build().model.nodeProviders?.[0];
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
    const countProblem = wholeNumberProblem(props.count, MAX_NODES_PER_POOL, 'hosts');
    if (countProblem !== undefined) fail(`count ${countProblem}`);
    const ttlProblem = props.bootstrapTokenTtl === undefined ? undefined : bootstrapTokenTtlProblem(props.bootstrapTokenTtl);
    if (ttlProblem) fail(`bootstrapTokenTtl ${ttlProblem}`);
    if (props.provider.kind !== 'metal3')
      fail(
        `provider "${props.provider.providerName}" is of kind ${props.provider.kind}; private node pools claim whole bare-metal hosts: pass a metal3 NodeProvider`,
      );
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
    const cluster = props.cluster.clusterName;
    const provider = props.provider.providerName;
    this.spec = {
      name: this.poolName,
      cluster,
      provider,
      nodeType: props.nodeType,
      count: props.count,
      image: props.image,
      labels: props.labels,
      taints: props.taints,
    };
    const environment = NodeEnvironment.ensure(this, cluster, provider);
    this.namespace = environment.namespace;
    const hostNamespace = providerSpec?.hostNamespace ?? DEFAULT_HOST_NAMESPACE;
    HostDeployPolicy.ensure(this, hostNamespace);

    // A plan with errors stops synth in provenPlan (with every problem); a proven plan holds every node.
    const planned = (): PlannedAutoPool => {
      const pool = CapacityPlan.require(this).plannedAutoPool(cluster, provider, this.poolName, 'static');
      if (!pool || pool.nodes.length < props.count) throw new Error(`[${this.node.path}] private node pool "${this.poolName}" is not in the plan`);
      return pool;
    };
    const hostLabels = new Map((providerSpec?.hosts ?? []).map((h) => [h.name, h.labels ?? {}]));
    // The plan names nodes `<cluster>-<pool>-<index>`; the construct id follows, so scaling by one adds or
    // removes exactly one node's resources and changes nothing else.
    for (let index = 0; index < props.count; index++) {
      const nodeName = `${cluster}-${this.poolName}-${index}`;
      const node = (): PlannedAutoNode => planned().nodes[index];
      new HostNode(this, nodeName, {
        props,
        poolName: this.poolName,
        namespace: this.namespace,
        // The namespace first: the Secret and the HostClaim live in it.
        dependsOn: environment.namespaceResource,
        labels: () => ({ ...node().labels, [POOL_LABEL]: this.poolName, [CLUSTER_LABEL]: cluster, [NODE_TYPE_LABEL]: props.nodeType }),
        claim: (userDataSecret) => {
          const host = node().host;
          const failureDomain = host !== undefined ? hostLabels.get(host)?.[FAILURE_DOMAIN_LABEL] : undefined;
          return renderHostClaim({
            nodeName,
            namespace: this.namespace,
            pool: this.poolName,
            cluster,
            nodeType: props.nodeType,
            hostSelector: typeSpec?.hostSelector ?? {},
            hostNamespace,
            image: props.image,
            userDataSecret,
            failureDomain,
            poweredOn: props.poweredOn,
          });
        },
      });
    }
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('privateNodePools', this.spec, this);
  }
}

interface HostNodeProps {
  readonly props: PrivateNodePoolProps;
  readonly poolName: string;
  readonly namespace: string;
  readonly dependsOn: ITerraformDependable;
  /** Node labels set at join (resolved at synth). */
  readonly labels: () => Record<string, string>;
  /** The HostClaim, given the name of its userData Secret (resolved at synth). */
  readonly claim: (userDataSecret: string) => ReturnType<typeof renderHostClaim>;
}

/** One bare-metal node: bootstrap token, userData Secret, HostClaim. */
class HostNode extends Construct {
  constructor(scope: Construct, nodeName: string, { props, poolName, namespace, dependsOn, labels, claim }: HostNodeProps) {
    super(scope, nodeName);
    const cluster = props.cluster;
    const token = new JoinToken(this, 'Join', { cluster, nodeName, ttl: props.bootstrapTokenTtl }).token;
    const userDataName = hostClaimUserDataSecretName(nodeName);
    const secret = renderHostClaimUserDataSecret(userDataName, namespace, poolName, '');
    const userData = new SecretV1(this, 'UserData', {
      metadata: { name: secret.metadata.name, namespace: secret.metadata.namespace, labels: secret.metadata.labels },
      type: secret.type as string,
      dependsOn: [dependsOn],
      data: {
        [USER_DATA_KEY]: Token.asString(
          Lazy.stringValue({
            produce: () =>
              renderJoinCloudConfig({
                nodeName,
                endpoint: cluster.endpoint,
                caCertificate: cluster.caCertificate,
                token,
                kubernetesVersion: cluster.kubernetesVersion ?? '1.33',
                labels: labels(),
                taints: props.taints,
              }),
          }),
        ),
      },
    });
    // The Secret first: the baremetal-operator reads it as soon as it binds a host to the claim.
    new Manifest(this, 'Resource', { manifest: Lazy.anyValue({ produce: () => claim(userDataName) }), dependsOn: [userData] });
  }
}

/**
 * The HostDeployPolicy of one host pool namespace, created once at the stack root however many pools
 * claim hosts there. It admits the node environment namespace of every static metal3 pool in the plan
 * whose provider keeps its hosts in this namespace, and nothing else.
 */
export class HostDeployPolicy extends Construct {
  /** The policy of a host namespace, created at the stack root on first use. */
  static ensure(scope: IConstruct, hostNamespace: string): HostDeployPolicy {
    let root: IConstruct = scope;
    while (root.node.scope && root.node.scope.node.scope) root = root.node.scope;
    const id = `host-deploy-policy-${hostNamespace}`;
    const existing = root.node.tryFindChild(id);
    if (existing instanceof HostDeployPolicy) return existing;
    return new HostDeployPolicy(root, id, hostNamespace);
  }

  /** @param hostNamespace the namespace of the BareMetalHosts the policy lets tenants claim */
  private constructor(
    scope: Construct,
    id: string,
    readonly hostNamespace: string,
  ) {
    super(scope, id);
    new Manifest(this, 'Resource', {
      manifest: Lazy.anyValue({
        produce: () => {
          const plan = CapacityPlan.require(this).provenPlan();
          const hostNamespaceOf = new Map(plan.nodeProviders.map((p) => [p.name, p.hostNamespace]));
          const tenantNamespaces = plan.autoPools
            .filter((p) => p.providerKind === 'metal3' && p.mode === 'static' && hostNamespaceOf.get(p.provider) === hostNamespace)
            .map((p) => nodeEnvironmentNamespace({ cluster: p.cluster, provider: p.provider }));
          return renderHostDeployPolicy({ hostNamespace, tenantNamespaces });
        },
      }),
    });
  }
}
