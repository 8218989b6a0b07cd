/**
 * hashicorp/kubernetes's `kubernetes_resources` data source: the objects of a kind that match a label selector, read
 * when Terraform plans. metalslice's only use: the VMs of a pool its roll has stopped (parts/node-rollout.ts). The
 * provider has no prebuilt cdktf binding for it; this declares the arguments metalslice sets.
 */
import { TerraformDataSource } from 'cdktf';
import { Construct } from 'constructs';

/** What to list. */
export interface KubernetesResourcesProps {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly labelSelector: string;
}

/** A `kubernetes_resources` data source through the stack's default kubernetes provider. */
export class KubernetesResources extends TerraformDataSource {
  constructor(
    scope: Construct,
    id: string,
    private readonly props: KubernetesResourcesProps,
  ) {
    super(scope, id, { terraformResourceType: 'kubernetes_resources', terraformGeneratorMetadata: { providerName: 'kubernetes' } });
  }

  /** Its address in expressions: `data.kubernetes_resources.<id>`. */
  get address(): string {
    return `data.kubernetes_resources.${this.friendlyUniqueId}`;
  }

  protected synthesizeAttributes(): Record<string, unknown> {
    return { api_version: this.props.apiVersion, kind: this.props.kind, namespace: this.props.namespace, label_selector: this.props.labelSelector };
  }

  protected synthesizeHclAttributes(): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(this.synthesizeAttributes()).map(([k, value]) => [k, { value, isBlock: false, type: 'simple', storageClassType: 'string' }]),
    );
  }
}
