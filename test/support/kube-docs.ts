import type { VmiSchedulingFields } from '../../constructs/core/kubevirt/launcher';

/**
 * The shapes of the API objects tests read back from kube-apiserver, as wire JSON (times are strings). Only
 * the fields some test reads; a field a test expects is required here, so a missing one fails the test's
 * assertion rather than its types.
 */

/** Object metadata. */
export interface Meta {
  readonly name: string;
  readonly namespace?: string;
  readonly generateName?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly creationTimestamp?: string | null;
  readonly resourceVersion?: string;
  readonly uid?: string;
  readonly deletionTimestamp?: string;
}

/** A condition of an object's status. */
export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** A list answer. */
export interface KubeList<T> {
  readonly items: T[];
  readonly metadata?: { readonly continue?: string };
}

/** The body of a refusal (403, 404, 409, 422). */
export interface Status {
  readonly kind?: string;
  readonly reason?: string;
  readonly message?: string;
  readonly code?: number;
}

/** Any object: metadata, and whatever else a test does not read. */
export interface KubeDoc {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: Meta;
}

export interface SecretDoc extends KubeDoc {
  readonly type?: string;
  readonly data: Record<string, string>;
}

export interface ConfigMapDoc extends KubeDoc {
  readonly data?: Record<string, string>;
}

export interface ResourceQuotaDoc extends KubeDoc {
  readonly spec: { readonly hard: Record<string, string> };
  readonly status?: { readonly hard?: Record<string, string>; readonly used?: Record<string, string> };
}

export interface NamespaceDoc extends KubeDoc {
  readonly status?: { readonly phase?: string };
}

export interface NodeDoc extends KubeDoc {
  readonly metadata: Meta & { readonly labels: Record<string, string> };
  readonly spec: { readonly taints?: { readonly key: string; readonly value?: string; readonly effect: string }[]; readonly providerID?: string };
  readonly status?: { readonly capacity?: Record<string, string>; readonly allocatable?: Record<string, string>; readonly conditions?: Condition[] };
}

export interface CsrDoc extends KubeDoc {
  readonly spec: { readonly username?: string; readonly groups?: string[]; readonly signerName?: string; readonly usages?: string[] };
  readonly status?: { readonly certificate?: string; readonly conditions?: Condition[] };
}

export interface CrdDoc extends KubeDoc {
  readonly spec: {
    readonly group: string;
    readonly names: { readonly plural: string; readonly kind: string };
    readonly versions: {
      readonly name: string;
      readonly served: boolean;
      readonly storage?: boolean;
      readonly schema?: { readonly openAPIV3Schema?: unknown };
    }[];
  };
  readonly status?: { readonly conditions?: Condition[] };
}

/** A discovery document of one group version. */
export interface ApiResourceList {
  readonly resources: { readonly name: string; readonly kind?: string }[];
}

/** A KubeVirt VirtualMachine: what the tests read of the spec metalslice renders. */
export interface VirtualMachineDoc extends KubeDoc {
  readonly spec: {
    readonly runStrategy?: string;
    readonly dataVolumeTemplates?: {
      readonly metadata: Meta;
      readonly spec: {
        readonly storage: { readonly resources: { readonly requests: Record<string, string> } };
        readonly source?: Record<string, unknown>;
        readonly [k: string]: unknown;
      };
    }[];
    readonly template: {
      readonly metadata: { readonly labels: Record<string, string>; readonly annotations?: Record<string, string> };
      readonly spec: {
        readonly domain: {
          readonly cpu?: { readonly cores?: number; readonly sockets?: number; readonly threads?: number; readonly dedicatedCpuPlacement?: boolean };
          readonly memory?: { readonly guest?: string };
          readonly resources: {
            readonly requests?: Record<string, string>;
            readonly limits?: Record<string, string>;
            readonly overcommitGuestOverhead?: boolean;
          };
          readonly devices: {
            readonly gpus?: { readonly name: string; readonly deviceName: string }[];
            readonly hostDevices?: { readonly name: string; readonly deviceName: string }[];
            readonly [k: string]: unknown;
          };
          readonly [k: string]: unknown;
        };
        readonly nodeSelector?: Record<string, string>;
        readonly affinity?: Record<string, unknown>;
        readonly topologySpreadConstraints?: Record<string, unknown>[];
        readonly volumes: {
          readonly name: string;
          readonly cloudInitNoCloud?: { readonly secretRef?: { readonly name: string }; readonly networkDataSecretRef?: { readonly name: string } };
          readonly [k: string]: unknown;
        }[];
        readonly [k: string]: unknown;
      };
    };
  };
}

/** A Metal3 HostClaim. */
export interface HostClaimDoc extends KubeDoc {
  readonly spec: Record<string, unknown> & { readonly userData?: { readonly name: string; readonly namespace?: string } };
}

/** A kubeadm JoinConfiguration (v1beta4) as metalslice writes it into user data. */
export interface JoinConfiguration {
  apiVersion: string;
  discovery: { bootstrapToken: { apiServerEndpoint: string; token: string; caCertHashes: string[] } };
  nodeRegistration: { name: string; kubeletExtraArgs: { name: string; value: string }[]; taints: { key: string; value?: string; effect: string }[] };
  timeouts?: Record<string, string>;
  patches?: { directory?: string };
}

/** A VirtualMachine as metalslice renders it, read for its template's labels and scheduling fields. */
export interface RenderedVm {
  readonly spec: { readonly template: { readonly metadata: { readonly labels: Record<string, string> }; readonly spec: VmiSchedulingFields } };
}
