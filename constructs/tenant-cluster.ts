/**
 * TenantCluster: the cluster that elastic nodes join. Holds the join endpoint and CA, and a kubernetes
 * provider alias through which bootstrap tokens are written into the tenant's kube-system.
 */
import { KubernetesProvider } from './providers/kubernetes/provider';
import { TerraformProvider, TerraformStack } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { IPlanContributor, ModelBuilder } from './capacity-plan';
import { ClusterSpec, NodeBootstrap } from './core/input/model';
import { kubernetesMinorOf } from './core/input/bootstrap';
import { requireProps } from './plumbing/props';
import { NodeDrains } from './parts/node-drain';

/** A tenant cluster that nodes join: its join endpoint and CA, and a provider for objects inside it. */
export interface ITenantCluster extends IConstruct {
  /** The cluster's name, as pools refer to it. */
  readonly clusterName: string;
  /** The tenant API server nodes join: `https://host:port`. */
  readonly endpoint: string;
  /** The tenant CA certificate (PEM), hashed into the join discovery. */
  readonly caCertificate: string;
  /** Kubernetes minor version installed on the nodes. @default "1.33" */
  readonly kubernetesVersion?: string;
  /** Where the nodes get containerd, kubelet and kubeadm, and at which exact versions. @default - unpinned, from the internet */
  readonly bootstrap?: NodeBootstrap;
  /** The provider for objects inside the tenant cluster. */
  readonly provider: TerraformProvider;
  /** The kubeconfig the provider reads, and what a node's drain reads (`metalslice drain-node`). @default - KUBE_CONFIG_PATH */
  readonly kubeconfigPath?: string;
  /** The kubeconfig context the provider and a node's drain use. @default - the kubeconfig's current context, or KUBE_CTX */
  readonly kubeconfigContext?: string;
}

/** Props of a TenantCluster. */
export interface TenantClusterProps {
  /** The tenant API server: `https://host:port`. */
  readonly endpoint: string;
  /** The tenant CA certificate (PEM); public, hashed into the join discovery. */
  readonly caCertificate: string;
  /** @default - the construct id */
  readonly name?: string;
  /** Kubernetes minor version installed on the nodes. @default - the bootstrap's minor, else "1.33" */
  readonly kubernetesVersion?: string;
  /**
   * Where the nodes get containerd, kubelet and kubeadm, and at which exact versions: preinstalled in the image,
   * from repositories inside the fleet, or from the internet (README "Node software"). The pins are part of every
   * pool's revision. @default - unpinned, from the internet (the plan warns)
   */
  readonly bootstrap?: NodeBootstrap;
  /** kubeconfig for the tenant provider alias. @default - the provider's own default (KUBE_CONFIG_PATH) */
  readonly kubeconfigPath?: string;
  /** @default - the kubeconfig's current context */
  readonly kubeconfigContext?: string;
  /** Use this provider instead of creating an alias. @default - an alias `tenant-<name>` */
  readonly provider?: TerraformProvider;
}

export class TenantCluster extends Construct implements ITenantCluster, IPlanContributor {
  /**
   * The same tenant cluster seen from another stack (a provider belongs to one stack): a provider alias of
   * its own there, configured like the cluster's. The plan counts the cluster once, where it was declared.
   * One per stack and cluster.
   */
  static inStack(scope: Construct, cluster: TenantCluster): ITenantCluster {
    if (TerraformStack.of(scope) === TerraformStack.of(cluster)) return cluster;
    const id = `tenant-cluster-${cluster.clusterName}`;
    const existing = scope.node.tryFindChild(id);
    if (existing) return existing as TenantClusterInStack;
    return new TenantClusterInStack(scope, id, cluster);
  }

  /** The cluster's name, as pools refer to it. */
  readonly clusterName: string;
  /** The tenant API server nodes join: `https://host:port`. */
  readonly endpoint: string;
  /** The tenant CA certificate (PEM), hashed into the join discovery. */
  readonly caCertificate: string;
  /** Kubernetes minor version installed on the nodes. @default "1.33" */
  readonly kubernetesVersion?: string;
  /** Where the nodes get their node software, pinned. @default - unpinned, from the internet */
  readonly bootstrap?: NodeBootstrap;
  readonly provider: TerraformProvider;
  readonly kubeconfigPath?: string;
  readonly kubeconfigContext?: string;
  /** @internal */
  readonly spec: ClusterSpec;
  /** @internal Whether the provider alias is the cluster's own (not one passed in). */
  readonly ownProvider: boolean;

  constructor(scope: Construct, id: string, props: TenantClusterProps) {
    super(scope, id);
    requireProps(this, props, ['endpoint', 'caCertificate'], {
      endpoint: 'the tenant API server, https://HOST:PORT',
      caCertificate: 'the tenant cluster CA (PEM)',
    });
    this.clusterName = props.name ?? id;
    this.endpoint = props.endpoint;
    this.caCertificate = props.caCertificate;
    this.kubernetesVersion = props.kubernetesVersion ?? (props.bootstrap ? kubernetesMinorOf(props.bootstrap.kubernetes) : undefined);
    this.bootstrap = props.bootstrap;
    this.kubeconfigPath = props.kubeconfigPath;
    this.kubeconfigContext = props.kubeconfigContext;
    this.ownProvider = props.provider === undefined;
    this.provider = props.provider ?? tenantProvider(this, this.clusterName, props);
    this.spec = {
      name: this.clusterName,
      endpoint: props.endpoint,
      caCertificate: props.caCertificate,
      kubernetesVersion: props.kubernetesVersion,
      kubeconfigPath: props.kubeconfigPath,
      kubeconfigContext: props.kubeconfigContext,
      ...(props.bootstrap !== undefined ? { bootstrap: props.bootstrap } : {}),
    };
    NodeDrains.of(this, this);
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('clusters', this.spec, this);
  }
}

function tenantProvider(scope: Construct, clusterName: string, props: Pick<TenantClusterProps, 'kubeconfigPath' | 'kubeconfigContext'>): KubernetesProvider {
  return new KubernetesProvider(scope, 'Provider', {
    alias: `tenant-${clusterName}`,
    configPath: props.kubeconfigPath,
    configContext: props.kubeconfigContext,
  });
}

/** A TenantCluster declared in another stack, with a provider alias in this one (`TenantCluster.inStack`). */
class TenantClusterInStack extends Construct implements ITenantCluster {
  readonly clusterName: string;
  readonly endpoint: string;
  readonly caCertificate: string;
  readonly kubernetesVersion?: string;
  readonly bootstrap?: NodeBootstrap;
  readonly provider: TerraformProvider;
  readonly kubeconfigPath?: string;
  readonly kubeconfigContext?: string;

  constructor(scope: Construct, id: string, cluster: TenantCluster) {
    super(scope, id);
    if (!cluster.ownProvider) {
      throw new Error(
        `[${this.node.path}] tenant cluster "${cluster.clusterName}" was given its own provider, which belongs to its stack: declare it with kubeconfigPath/kubeconfigContext instead so each stack gets an alias like it`,
      );
    }
    this.clusterName = cluster.clusterName;
    this.endpoint = cluster.endpoint;
    this.caCertificate = cluster.caCertificate;
    this.kubernetesVersion = cluster.kubernetesVersion;
    this.bootstrap = cluster.bootstrap;
    this.kubeconfigPath = cluster.kubeconfigPath;
    this.kubeconfigContext = cluster.kubeconfigContext;
    this.provider = tenantProvider(this, cluster.clusterName, cluster.spec);
    NodeDrains.of(this, this);
  }
}
