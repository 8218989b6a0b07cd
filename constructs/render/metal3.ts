/**
 * Metal3 objects of a private node pool: one HostClaim per node (in the tenant's node environment namespace
 * on the provider cluster), its userData Secret (the kubeadm join cloud-config), and one HostDeployPolicy
 * per host pool namespace that lets exactly the tenant namespaces claim the BareMetalHosts there.
 *
 * Lifecycle: deleting a HostClaim releases its BareMetalHost, and the baremetal-operator deprovisions it.
 * With the BareMetalHost's `spec.automatedCleaningMode: metadata` (the default) Ironic wipes the disk
 * metadata during deprovisioning, so the next tenant never sees the last one's data; `disabled` skips
 * cleaning and must not be used on hosts that move between tenants.
 */
import { HostImage, LabelSelector } from '../core/input/model';
import { CLUSTER_LABEL, KubeObject, MANAGED_BY, NODE_TYPE_LABEL, POOL_LABEL } from './labels';
import { REVISION_LABEL } from '../core/naming/derived';

export const METAL3_API_VERSION = 'metal3.io/v1alpha1';

/** The BareMetalHost label Metal3 matches a HostClaim's `failureDomain` against (a preference, not a filter). */
export const FAILURE_DOMAIN_LABEL = 'infrastructure.cluster.x-k8s.io/failure-domain';

/** The key the baremetal-operator reads the user data from in the Secret a HostClaim references. */
export const USER_DATA_KEY = 'userData';

/** The one HostDeployPolicy metalslice keeps in each host pool namespace. */
export const HOST_DEPLOY_POLICY_NAME = 'metalslice-tenants';

export type { HostImage };

export interface HostClaimOptions {
  /** The node's name: the HostClaim's name and the node's name in the tenant cluster. */
  readonly nodeName: string;
  /** The tenant's node environment namespace on the provider cluster. */
  readonly namespace: string;
  readonly pool: string;
  readonly cluster: string;
  /** The node type the host is claimed as (its label value). */
  readonly nodeType: string;
  /** The node type's BareMetalHost selector. */
  readonly hostSelector: LabelSelector;
  /** Namespace of the host pool; unset lets Metal3 look in every namespace whose policy admits the claim. */
  readonly hostNamespace?: string;
  readonly image: HostImage;
  /** Name of the Secret (same namespace) with the node's cloud-config under `userData`. */
  readonly userDataSecret: string;
  /** Preferred failure domain (the planned host's `infrastructure.cluster.x-k8s.io/failure-domain` label). */
  readonly failureDomain?: string;
  /** @default true */
  readonly poweredOn?: boolean;
  /** The revision of the node it provisions (core/plan/change/revision.ts), as the REVISION_LABEL label. @default - none */
  readonly revision?: string;
}

/** `checksumType` when none is given: Metal3 detects the algorithm from the checksum (its own default would be md5). */
export const DEFAULT_CHECKSUM_TYPE = 'auto';

function hostSelectorOf(selector: LabelSelector, hostNamespace: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (hostNamespace !== undefined) out.inNamespace = hostNamespace;
  const matchLabels = selector.matchLabels ?? {};
  if (Object.keys(matchLabels).length > 0) {
    out.matchLabels = Object.fromEntries(
      Object.keys(matchLabels)
        .sort()
        .map((k) => [k, matchLabels[k]]),
    );
  }
  const expressions = selector.matchExpressions ?? [];
  // The HostClaim CRD requires `values` on every expression, also for Exists / DoesNotExist (then empty).
  if (expressions.length > 0) out.matchExpressions = expressions.map((e) => ({ key: e.key, operator: e.operator, values: [...(e.values ?? [])] }));
  return out;
}

/** The image block: url, checksum (unless a live ISO), checksumType, format. */
export function hostImage(image: HostImage): Record<string, string> {
  const out: Record<string, string> = { url: image.url };
  if (image.checksum !== undefined && image.checksum !== '') {
    out.checksum = image.checksum;
    out.checksumType = image.checksumType ?? DEFAULT_CHECKSUM_TYPE;
  }
  if (image.format !== undefined) out.format = image.format;
  return out;
}

export { hostImageProblem } from '../core/hosts/os-image';

/** A HostClaim as metalslice renders it. */
export interface HostClaimObject extends KubeObject {
  /** hostSelector, image, userData, poweredOn and failureDomain. */
  readonly spec: Record<string, unknown>;
}

/** One bare-metal node: a claim on any free host of the node type, provisioned with the image and user data. */
export function renderHostClaim(options: HostClaimOptions): HostClaimObject {
  const spec: Record<string, unknown> = {
    hostSelector: hostSelectorOf(options.hostSelector, options.hostNamespace),
    image: hostImage(options.image),
    userData: { name: options.userDataSecret, namespace: options.namespace },
    poweredOn: options.poweredOn ?? true,
  };
  if (options.failureDomain !== undefined) spec.failureDomain = options.failureDomain;
  return {
    apiVersion: METAL3_API_VERSION,
    kind: 'HostClaim',
    metadata: {
      name: options.nodeName,
      namespace: options.namespace,
      labels: {
        ...MANAGED_BY,
        [POOL_LABEL]: options.pool,
        [CLUSTER_LABEL]: options.cluster,
        [NODE_TYPE_LABEL]: options.nodeType,
        ...(options.revision !== undefined ? { [REVISION_LABEL]: options.revision } : {}),
      },
    },
    spec,
  };
}

/** The userData Secret of a HostClaim; the value is passed in (it holds a bootstrap token made by Terraform). */
export function renderHostClaimUserDataSecret(name: string, namespace: string, pool: string, userData: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, labels: { ...MANAGED_BY, [POOL_LABEL]: pool } },
    type: 'Opaque',
    stringData: { [USER_DATA_KEY]: userData },
  };
}

export interface HostDeployPolicyOptions {
  /** The host pool namespace (where the BareMetalHosts are). */
  readonly hostNamespace: string;
  /** The tenant namespaces whose HostClaims may bind hosts there; nothing else may. */
  readonly tenantNamespaces: readonly string[];
}

/**
 * The policy in a host pool namespace. `names` (exact namespace names), not `nameMatches` (a regular
 * expression matching substrings), so one tenant's namespace never admits a look-alike.
 */
export function renderHostDeployPolicy(options: HostDeployPolicyOptions): KubeObject {
  const names = [...new Set(options.tenantNamespaces)].sort();
  return {
    apiVersion: METAL3_API_VERSION,
    kind: 'HostDeployPolicy',
    metadata: { name: HOST_DEPLOY_POLICY_NAME, namespace: options.hostNamespace, labels: { ...MANAGED_BY } },
    spec: { hostClaimNamespaces: { names } },
  };
}
