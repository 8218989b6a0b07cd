/**
 * TenantCluster: the cluster that elastic nodes join. Holds the join endpoint and CA, and a kubernetes
 * provider alias through which bootstrap tokens are written into the tenant's kube-system.
 */
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Construct, IConstruct } from 'constructs';
import { IPlanContributor, ModelBuilder } from './capacity-plan';
import { ClusterSpec } from './core/model';
import { requireProps } from './props';

export interface ITenantCluster extends IConstruct {
  readonly clusterName: string;
  readonly endpoint: string;
  readonly caCertificate: string;
  readonly kubernetesVersion?: string;
  /** The provider for objects inside the tenant cluster. */
  readonly provider: KubernetesProvider;
}

export interface TenantClusterProps {
  /** The tenant API server: `https://host:port`. */
  readonly endpoint: string;
  /** The tenant CA certificate (PEM); public, hashed into the join discovery. */
  readonly caCertificate: string;
  /** @default - the construct id */
  readonly name?: string;
  /** Kubernetes minor version installed on the nodes. @default "1.33" */
  readonly kubernetesVersion?: string;
  /** kubeconfig for the tenant provider alias. @default - the provider's own default (KUBE_CONFIG_PATH) */
  readonly kubeconfigPath?: string;
  /** @default - the kubeconfig's current context */
  readonly kubeconfigContext?: string;
  /** Use this provider instead of creating an alias. @default - an alias `tenant-<name>` */
  readonly provider?: KubernetesProvider;
}

export class TenantCluster extends Construct implements ITenantCluster, IPlanContributor {
  readonly clusterName: string;
  readonly endpoint: string;
  readonly caCertificate: string;
  readonly kubernetesVersion?: string;
  readonly provider: KubernetesProvider;
  private readonly spec: ClusterSpec;

  constructor(scope: Construct, id: string, props: TenantClusterProps) {
    super(scope, id);
    requireProps(this, props, ['endpoint', 'caCertificate'], { endpoint: 'the tenant API server, https://HOST:PORT', caCertificate: 'the tenant cluster CA (PEM)' });
    this.clusterName = props.name ?? id;
    this.endpoint = props.endpoint;
    this.caCertificate = props.caCertificate;
    this.kubernetesVersion = props.kubernetesVersion;
    this.provider =
      props.provider ??
      new KubernetesProvider(this, 'Provider', {
        alias: `tenant-${this.clusterName}`,
        configPath: props.kubeconfigPath,
        configContext: props.kubeconfigContext,
      });
    this.spec = {
      name: this.clusterName,
      endpoint: props.endpoint,
      caCertificate: props.caCertificate,
      kubernetesVersion: props.kubernetesVersion,
      kubeconfigPath: props.kubeconfigPath,
      kubeconfigContext: props.kubeconfigContext,
    };
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('clusters', this.spec, this);
  }
}
