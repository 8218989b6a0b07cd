/**
 * Whole bare-metal nodes, one renderer for every road to them: a PrivateNodePool and a static pool on a
 * metal3 provider (written as auto nodes or in a vcluster.yaml) are both planned as a pool of hosts, and
 * both become, per node, a Metal3 HostClaim in the tenant's node environment namespace on the provider
 * cluster, its userData Secret (the kubeadm join cloud-config) and a bootstrap token in the tenant's
 * kube-system; once per host pool namespace, a HostDeployPolicy that lets exactly the tenant namespaces with
 * HostClaims there bind hosts.
 *
 * Scaling down drains the last nodes in the tenant cluster (node-drain.ts), then deletes their HostClaims; Metal3 then deprovisions their hosts and, with the
 * BareMetalHost's `automatedCleaningMode: metadata` (the default), cleans the disks before the host can be
 * claimed again.
 */
import { ITerraformDependable, Lazy, Token } from 'cdktf';
import { Manifest } from '../providers/kubernetes/manifest';
import { Construct, IConstruct } from 'constructs';
import { CapacityPlan, IPlanContributor, ModelBuilder } from '../capacity-plan';
import { PlannedAutoNode } from '../core/auto';
import { NodeProviderSpec, Taint } from '../core/input/model';
import type { PlannedPrivatePool } from '../core/plan';
import { INodeProvider } from '../node-provider';
import { NodeEnvironment } from './node-environment';
import { renderJoinCloudConfig } from '../render/cloud-init';
import {
  autoNodeName,
  CLUSTER_LABEL,
  hostClaimUserDataSecretName,
  nodeEnvironmentNamespace,
  NODE_TYPE_LABEL,
  POOL_LABEL,
  rollHoldName,
} from '../core/naming/derived';
import { FAILURE_DOMAIN_LABEL, renderHostClaim, renderHostClaimUserDataSecret, renderHostDeployPolicy, USER_DATA_KEY } from '../render/metal3';
import { ITenantCluster } from '../tenant-cluster';
import { JoinToken } from './vm-node';
import { NodeDrains } from './node-drain';
import { NodeRollout } from './node-rollout';
import { userDataSecret } from '../plumbing/user-data-secret';

/** metal3 providers keep their BareMetalHosts here unless they say otherwise (as the planner assumes). */
const DEFAULT_HOST_NAMESPACE = 'metal3';

function isContributor(c: IConstruct): c is IConstruct & IPlanContributor {
  return typeof (c as Partial<IPlanContributor>).contributeToPlan === 'function';
}

/** The provider's own spec, as it contributes it to the plan (undefined for an imported provider). */
export function providerSpecOf(provider: INodeProvider): NodeProviderSpec | undefined {
  if (!isContributor(provider)) return undefined;
  const builder = new ModelBuilder();
  provider.contributeToPlan(builder);
  return builder.build().model.nodeProviders?.[0];
}

/** Props of the host nodes of one planned pool of whole hosts. */
export interface HostNodesProps {
  /** The tenant cluster the hosts join. */
  readonly cluster: ITenantCluster;
  /** The metal3 node provider. */
  readonly provider: INodeProvider;
  /** The provider's spec, when it is a construct of this app (its node types' host selectors and host namespace). @default - looked up from the provider */
  readonly providerSpec?: NodeProviderSpec;
  /** The pool's name, as the plan knows it. */
  readonly poolName: string;
  /** Number of hosts: one HostNode each. */
  readonly count: number;
  /** Keep the claimed hosts powered on. @default true */
  readonly poweredOn?: boolean;
  /** How long a node's bootstrap token stays valid. @default "24h" */
  readonly bootstrapTokenTtl?: string;
  /** How long a node's drain may take before its HostClaim is deleted. @default "15m" */
  readonly drainTimeout?: string;
}

/**
 * The one renderer of whole bare-metal nodes: per node of a planned pool of hosts (a PrivateNodePool, or a
 * static pool on a metal3 provider), a bootstrap token, its userData Secret and a HostClaim of the node type
 * and image the plan gives; and the HostDeployPolicy of the provider's host namespace.
 */
export class HostNodes extends Construct {
  /** The namespace on the provider cluster that holds the pool's HostClaims and their Secrets. */
  readonly namespace: string;

  constructor(scope: Construct, id: string, props: HostNodesProps) {
    super(scope, id);
    const cluster = props.cluster.clusterName;
    const provider = props.provider.providerName;
    const providerSpec = props.providerSpec ?? providerSpecOf(props.provider);
    const environment = NodeEnvironment.ensure(this, cluster, provider);
    this.namespace = environment.namespace;
    const hostNamespace = providerSpec?.hostNamespace ?? DEFAULT_HOST_NAMESPACE;
    HostDeployPolicy.ensure(this, hostNamespace);
    // A plan with errors stops synth in provenPlan (with every problem); a proven plan holds every node.
    const planned = (): PlannedPrivatePool => {
      const pool = CapacityPlan.require(this).plannedPrivatePool(cluster, provider, props.poolName);
      if (!pool || pool.pool.nodes.length < props.count) throw new Error(`[${this.node.path}] pool of hosts "${props.poolName}" is not in the plan`);
      return pool;
    };
    const hostLabels = new Map((providerSpec?.hosts ?? []).map((h) => [h.name, h.labels ?? {}]));
    const hostSelector = (nodeType: string) => providerSpec?.nodeTypes.find((t) => t.name === nodeType)?.hostSelector ?? {};
    const rolloutOf = () => CapacityPlan.require(this).provenPlan().rollouts.get(planned().pool.path);
    const claimOf = (nodeName: string, host: string | undefined) => {
      const { spec } = planned();
      const failureDomain = host !== undefined ? hostLabels.get(host)?.[FAILURE_DOMAIN_LABEL] : undefined;
      return renderHostClaim({
        nodeName,
        namespace: this.namespace,
        pool: props.poolName,
        cluster,
        nodeType: spec.nodeType,
        hostSelector: hostSelector(spec.nodeType),
        hostNamespace,
        image: spec.image,
        userDataSecret: hostClaimUserDataSecretName(nodeName),
        failureDomain,
        poweredOn: props.poweredOn,
        revision: rolloutOf()?.revision,
      });
    };
    // A pool of no hosts has nothing to roll. The roll is the one writer of a claim's revision: the stack applies a
    // claim not at it as it is, and the roll replaces it (NodeRollout.hostClaimOf).
    const rollout =
      props.count > 0
        ? new NodeRollout(this, 'rollout', {
            cluster: props.cluster,
            namespace: this.namespace,
            poolName: props.poolName,
            nodes: () => Array.from({ length: props.count }, (_, i) => autoNodeName(cluster, props.poolName, i)),
            drainTimeout: props.drainTimeout,
            rollout: rolloutOf,
            hostClaim: () => {
              const claim = claimOf(autoNodeName(cluster, props.poolName, 0), undefined);
              const { hostSelector: selector, image, poweredOn } = claim.spec;
              return { labels: claim.metadata.labels ?? {}, spec: { hostSelector: selector, image, poweredOn } };
            },
          })
        : undefined;
    // The plan names nodes `<cluster>-<pool>-<index>`; the construct id follows, so scaling by one adds or
    // removes exactly one node's resources and changes nothing else.
    for (let index = 0; index < props.count; index++) {
      const nodeName = autoNodeName(cluster, props.poolName, index);
      const node = (): PlannedAutoNode => planned().pool.nodes[index];
      new HostNode(scope, nodeName, {
        cluster: props.cluster,
        bootstrapTokenTtl: props.bootstrapTokenTtl,
        drainTimeout: props.drainTimeout,
        poolName: props.poolName,
        namespace: this.namespace,
        // The namespace first: the Secret and the HostClaim live in it.
        dependsOn: environment.namespaceResource,
        labels: () => ({ ...node().labels, [POOL_LABEL]: props.poolName, [CLUSTER_LABEL]: cluster, [NODE_TYPE_LABEL]: planned().spec.nodeType }),
        taints: () => planned().spec.taints,
        claim: () => {
          const claim = claimOf(nodeName, node().host);
          if (rollout === undefined) return claim;
          const off = { ...claim, spec: { ...claim.spec, poweredOn: false } };
          return rollout.hostClaimOf(nodeName, rollHoldName(nodeName), claim, off);
        },
        rollout,
      });
    }
  }
}

interface HostNodeProps {
  readonly cluster: ITenantCluster;
  readonly bootstrapTokenTtl?: string;
  readonly drainTimeout?: string;
  readonly poolName: string;
  readonly namespace: string;
  readonly dependsOn: ITerraformDependable;
  /** Node labels set at join (resolved at synth). */
  readonly labels: () => Record<string, string>;
  /** Node taints set at join (resolved at synth). */
  readonly taints: () => readonly Taint[] | undefined;
  /** The HostClaim's manifest (resolved at synth): the object, or the Terraform expression that holds it during a roll. */
  readonly claim: () => unknown;
  /** The pool's roll, which runs after the node's objects are applied. @default - none (a pool of no hosts) */
  readonly rollout?: NodeRollout;
}

/** One bare-metal node: bootstrap token, userData Secret, HostClaim. */
class HostNode extends Construct {
  constructor(
    scope: Construct,
    nodeName: string,
    { cluster, bootstrapTokenTtl, drainTimeout, poolName, namespace, dependsOn, labels, taints, claim, rollout }: HostNodeProps,
  ) {
    super(scope, nodeName);
    const join = new JoinToken(this, 'Join', { cluster, nodeName, ttl: bootstrapTokenTtl });
    const token = join.token;
    const userDataName = hostClaimUserDataSecretName(nodeName);
    const secret = renderHostClaimUserDataSecret(userDataName, namespace, poolName, '');
    // Applied server-side, so an API server crash during its create leaves nothing the next apply stops on.
    const userData = userDataSecret(this, {
      name: secret.metadata.name,
      namespace,
      labels: secret.metadata.labels ?? {},
      type: secret.type as string,
      key: USER_DATA_KEY,
      dependsOn: [dependsOn],
      document: Token.asString(
        Lazy.stringValue({
          produce: () =>
            renderJoinCloudConfig({
              nodeName,
              endpoint: cluster.endpoint,
              caCertificate: cluster.caCertificate,
              token,
              kubernetesVersion: cluster.kubernetesVersion ?? '1.33',
              bootstrap: cluster.bootstrap,
              labels: labels(),
              taints: taints(),
            }),
        }),
      ),
    });
    // The Secrets first: the baremetal-operator reads the user data as soon as it binds a host to the claim. And
    // so they go after it: a claim whose drain stops the deploy keeps them.
    // Conflicts forced: a claim the roll made again is co-owned by its writes, and the stack's apply must still win
    // a field that is not the revision's (its failure domain, poweredOn).
    const hostClaim = new Manifest(this, 'Resource', {
      manifest: Lazy.anyValue({ produce: () => claim() }),
      fieldManager: { forceConflicts: true },
      dependsOn: [userData, join.secret],
    });
    rollout?.after(hostClaim, userData, join.secret);
    // Before the HostClaim goes (and Metal3 cleans the host), the tenant Node is drained; after it, the Node is deleted.
    NodeDrains.of(this, cluster).add(nodeName, hostClaim, drainTimeout);
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
