/**
 * Secrets of a node: its cloud-init user data (provider cluster, beside the VM) and its bootstrap token
 * (tenant cluster, kube-system). Values are passed in: the token comes from Terraform at apply time.
 */
import { KubeObject, MANAGED_BY, POOL_LABEL } from './labels';

/** kubeadm's group for nodes that join with a bootstrap token. */
export const BOOTSTRAP_GROUP = 'system:bootstrappers:kubeadm:default-node-token';

export function renderUserDataSecret(name: string, namespace: string, pool: string, userData: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, labels: { ...MANAGED_BY, [POOL_LABEL]: pool } },
    type: 'Opaque',
    stringData: { userdata: userData },
  };
}

export interface BootstrapTokenOptions {
  readonly tokenId: string;
  readonly tokenSecret: string;
  /** RFC 3339 time after which the API server deletes the token. */
  readonly expiration: string;
  readonly description: string;
}

export function renderBootstrapTokenSecret(options: BootstrapTokenOptions): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${options.tokenId}`, namespace: 'kube-system', labels: { ...MANAGED_BY } },
    type: 'bootstrap.kubernetes.io/token',
    stringData: {
      description: options.description,
      'token-id': options.tokenId,
      'token-secret': options.tokenSecret,
      expiration: options.expiration,
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
      'auth-extra-groups': BOOTSTRAP_GROUP,
    },
  };
}
