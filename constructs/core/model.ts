/**
 * The metalslice model as written by people: the YAML/JSON config and the construct props share these
 * shapes. Quantities are strings or numbers here; `core/plan.ts` parses and checks them.
 */
import type { PlanIssue } from './errors';
import { ResourceInput } from './resources';

/** Label key/value pairs. */
export type Labels = Readonly<Record<string, string>>;

/** One bare-metal host (a Kubernetes Node of the provider cluster, or a Metal3 BareMetalHost). */
export interface HostSpec {
  readonly name: string;
  readonly labels?: Labels;
  /** What the host offers: cpu, memory, disk, extended resources (`nvidia.com/gpu`). */
  readonly capacity: ResourceInput;
  /** BareMetalHost provisioning state (`available`, `provisioned`, `error`, ...). @default - not a Metal3 host */
  readonly state?: string;
  /** The cluster (or claim) that holds the host, if any. @default - free */
  readonly consumer?: string;
  /** A BareMetalHost's error, as reported in status.errorMessage. @default - none */
  readonly errorMessage?: string;
}

/** A device plugin resource the fleet lets VMs pass through (KubeVirt permittedHostDevices.pciHostDevices). */
export interface PermittedHostDevice {
  /** The device plugin resource VMs request, e.g. `nvidia.com/GA102GL_A10`. */
  readonly resourceName: string;
  /** `vendor:product` PCI ids, e.g. `10de:2236`. */
  readonly pciVendorSelector: string;
  /** A device plugin of the vendor's (not KubeVirt's) advertises the resource. @default true */
  readonly externalResourceProvider?: boolean;
}

/** How one VM is built; every option changes what its virt-launcher pod requests, and the plan counts it. */
export interface VmOptions {
  /** Pin each vCPU to a host CPU (dedicatedCpuPlacement): whole CPUs, never divided by cpuAllocationRatio, and the VM cannot live-migrate. @default false */
  readonly dedicatedCpus?: boolean;
  /** With dedicatedCpus: one more host CPU for QEMU's emulator thread. @default false */
  readonly isolateEmulatorThread?: boolean;
  /** Back guest memory with hugepages of this size; hosts and quotas count `hugepages-<size>`. @default - normal pages */
  readonly hugepages?: '2Mi' | '1Gi';
  /** Dedicated IO threads (ioThreadsPolicy supplementalPool); each is one more CPU request. @default - the shared IO thread */
  readonly ioThreads?: number;
  /** Log the serial console (KubeVirt's guest-console-log container, 5m CPU and 35M memory per VM). @default - the fleet's serialConsoleLog */
  readonly serialConsoleLog?: boolean;
  /** Attach a VGA device (32Mi of video RAM in the overhead). @default true */
  readonly graphics?: boolean;
  /** vCPU topology: cores = vCPUs / (sockets x threads). @default 1 */
  readonly sockets?: number;
  /** @default 1 */
  readonly threads?: number;
  /** How each device resource of the shape is passed through. @default - `gpu` when the resource name has "gpu", else `hostDevice` */
  readonly deviceKinds?: Readonly<Record<string, 'gpu' | 'hostDevice'>>;
  /** What KubeVirt does when the host is drained. @default - LiveMigrate when the VM can migrate, else None */
  readonly evictionStrategy?: 'LiveMigrate' | 'LiveMigrateIfPossible' | 'External' | 'None';
}

export interface FleetSpec {
  readonly name: string;
  /** Kept back on every host for the host OS, kubelet and KubeVirt's own pods. @default - nothing reserved */
  readonly reservedPerHost?: ResourceInput;
  readonly hosts?: readonly HostSpec[];
  /** An inventory file written by `metalslice inventory`, relative to the config file. */
  readonly hostsFile?: string;
  /** vCPUs per physical CPU, a whole number (KubeVirt's developerConfiguration.cpuAllocationRatio); 1 means no overcommit. @default 1 */
  readonly cpuAllocationRatio?: number;
  /** Guest memory as a percentage of what each launcher pod requests (KubeVirt's memoryOvercommit); 100 means none. @default 100 */
  readonly memoryOvercommit?: number;
  /** Keep every VM's serial console log (KubeVirt's default). @default true */
  readonly serialConsoleLog?: boolean;
  /** Pods one host runs at most (kubelet maxPods), when a host's capacity does not say `pods`. @default 110 */
  readonly podsPerHost?: number;
  /** Devices VMs may pass through; a VM asking for another is refused by KubeVirt. @default - none */
  readonly permittedHostDevices?: readonly PermittedHostDevice[];
  /** Namespace of the KubeVirt CR. @default "kubevirt" */
  readonly namespace?: string;
  /** Only hosts with these labels run VMs (KubeVirt workloads node placement). @default - every host */
  readonly hostSelector?: Labels;
  /**
   * N+1: the plan fails unless the fleet can lose any one host (and, when the plan is given a failure-domain
   * label, any one rack or zone) and still find a host for every VM. @default false - the report shows the headroom
   */
  readonly requireHostFailureHeadroom?: boolean;
}

export interface QuotaSpec {
  readonly name: string;
  readonly fleet: string;
  readonly organization: string;
  /** cpu, memory, disk (as requests.storage) and extended resources. */
  readonly limits: ResourceInput;
  /** Most VMs in the quota (count/virtualmachines.kubevirt.io). @default - no count limit */
  readonly maxVirtualMachines?: number;
  /** The namespace the quota's VMs live in. @default - `<organization>-<name>` */
  readonly namespace?: string;
  /** Users or groups (`group:NAME`) who may manage VMs in the namespace. @default - `<organization>` group */
  readonly consumers?: readonly string[];
  /**
   * Live migrations of the quota's VMs that may run at once. A migrating VM holds two launcher pods, and
   * the ResourceQuota counts both, so the plan keeps room for this many of the quota's largest migratable VMs.
   * @default 1
   */
  readonly liveMigrations?: number;
}

export interface ClusterSpec {
  readonly name: string;
  /** The tenant API server that new nodes join: `https://host:port`. */
  readonly endpoint: string;
  /** The tenant cluster's CA certificate (PEM). Public: it is hashed into the kubeadm join discovery. */
  readonly caCertificate: string;
  /** Kubernetes minor version installed on the nodes (`1.33`). @default "1.33" */
  readonly kubernetesVersion?: string;
  /** kubeconfig path for the tenant provider alias (bootstrap tokens are written there). @default - ~/.kube/config */
  readonly kubeconfigPath?: string;
  /** kubeconfig context for the tenant provider alias. @default - the current context */
  readonly kubeconfigContext?: string;
}

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface NodePoolSpec {
  readonly name: string;
  readonly quota: string;
  readonly cluster: string;
  /** One node's guest resources: cpu (whole vCPUs), memory, disk (root disk size). */
  readonly shape: ResourceInput;
  readonly count: number;
  /** `spread`: kube-scheduler spreads the pool over hosts; `planned`: each VM is pinned to the planner's host. @default "spread" */
  readonly placement?: 'spread' | 'planned';
  /** Root disk image. @default - an Ubuntu 24.04 container disk */
  readonly image?: string;
  /** `containerDisk` (ephemeral) or `dataVolume` (a PVC of the shape's disk, counted as requests.storage). @default "dataVolume" */
  readonly rootDisk?: 'containerDisk' | 'dataVolume';
  readonly labels?: Labels;
  readonly taints?: readonly Taint[];
  /** Node type label value. @default - the pool name */
  readonly nodeType?: string;
  /** How each VM is built (dedicated CPUs, hugepages, IO threads, ...). @default - a plain VM */
  readonly vm?: VmOptions;
}

export type RequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
/** As written: vCluster also takes "" for In. */
export type RequirementOperatorInput = RequirementOperator | '';

export interface Requirement {
  readonly property: string;
  /** In, NotIn, Exists, DoesNotExist, Gt or Lt; "" means In. @default "In" */
  readonly operator?: RequirementOperatorInput;
  readonly value?: string;
  readonly values?: readonly string[];
}

export interface LabelSelector {
  readonly matchLabels?: Labels;
  readonly matchExpressions?: readonly { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: readonly string[] }[];
}

export interface NodeTypeSpec {
  readonly name: string;
  /** cpu, memory, disk and extended resources of one node; metal3 types discover them from their hosts. */
  readonly resources?: ResourceInput;
  /** Property values: one value, a comma list, or `*`. */
  readonly properties?: Labels;
  /** @default "global" */
  readonly zone?: string;
  /** @default - 10 per CPU + 2 per GiB of memory + 10000 per unit of any other resource */
  readonly cost?: number;
  /** Most nodes of this type across all claims. @default - unlimited (kubevirt: what the fleet holds) */
  readonly maxCapacity?: number;
  /** metal3 only: which BareMetalHosts make this type. */
  readonly hostSelector?: LabelSelector;
  /** kubevirt only: how the VMs of this type are built. @default - a plain VM */
  readonly vm?: VmOptions;
}

export interface NodeProviderSpec {
  readonly name: string;
  readonly kind: 'kubevirt' | 'metal3' | 'terraform';
  /** kubevirt: the Elastic Fleet whose hosts run the VMs. */
  readonly fleet?: string;
  /** metal3: the BareMetalHosts of the pool. */
  readonly hosts?: readonly HostSpec[];
  readonly hostsFile?: string;
  /** metal3: namespace of the BareMetalHosts. @default "metal3" */
  readonly hostNamespace?: string;
  /** Properties every type of this provider has (a type's own win). */
  readonly properties?: Labels;
  readonly nodeTypes: readonly NodeTypeSpec[];
}

export interface StaticPoolSpec {
  readonly name: string;
  readonly quantity: number;
  readonly requirements?: readonly Requirement[];
  /** vcluster.yaml's spelling of requirements. */
  readonly nodeTypeSelector?: readonly Requirement[];
  /** Smallest acceptable node. @default - any size */
  readonly resources?: ResourceInput;
  readonly taints?: readonly Taint[];
  readonly nodeLabels?: Labels;
  /** A NodeProfile (`nodeProfiles`) whose labels and taints the nodes get. @default - the entry's defaultProfile */
  readonly profile?: string;
  /** How long a node's pods may take to drain before it is deleted anyway (Karpenter duration). @default - 30s (Karpenter's) */
  readonly terminationGracePeriod?: string;
}

export interface DisruptionBudget {
  readonly nodes: string;
  readonly schedule?: string;
  readonly duration?: string;
  readonly reasons?: readonly ('Underutilized' | 'Empty' | 'Drifted')[];
}

export interface DynamicPoolSpec {
  readonly name: string;
  readonly requirements?: readonly Requirement[];
  readonly nodeTypeSelector?: readonly Requirement[];
  /** Karpenter limits: cpu, memory, ..., and `nodes`. */
  readonly limits?: ResourceInput;
  readonly taints?: readonly Taint[];
  readonly nodeLabels?: Labels;
  readonly disruption?: {
    readonly consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
    readonly consolidateAfter?: string;
    readonly budgets?: readonly DisruptionBudget[];
  };
  readonly expireAfter?: string;
  readonly terminationGracePeriod?: string;
  readonly weight?: number;
  /** A NodeProfile (`nodeProfiles`) whose labels and taints the nodes get. @default - the entry's defaultProfile */
  readonly profile?: string;
  /** `karpenter` NodePool, or a Cluster API MachineDeployment scaled by cluster-autoscaler. @default "karpenter" */
  readonly autoscaler?: 'karpenter' | 'cluster-api';
  /** cluster-api only. @default 0 */
  readonly minNodes?: number;
  /**
   * Pods to preview: the plan says which nodes, at least cost, this pool would create for them.
   * @default - no preview
   */
  readonly preview?: {
    readonly pods: readonly { readonly resources: ResourceInput; readonly count: number }[];
    /** Kept back on every node (kubelet, system daemons). @default {cpu: 100m, memory: 256Mi} */
    readonly nodeOverhead?: ResourceInput;
  };
}

export interface AutoNodesSpec {
  /** Where the entry and its pools were written, when not in this config (a vcluster.yaml). @default - autoNodes[i] */
  readonly source?: { readonly entry: string; readonly static?: readonly string[]; readonly dynamic?: readonly string[] };
  readonly cluster: string;
  readonly provider: string;
  /** Required for kubevirt providers; metal3 hosts are whole and need no quota. */
  readonly quota?: string;
  /**
   * Properties of every node claim of this entry (vcluster.yaml `autoNodes[].properties`). They win over
   * the node type's, which win over the provider's: vCluster Platform's precedence.
   * @default - none
   */
  readonly properties?: Labels;
  /** The NodeProfile of pools that name none (vcluster.yaml `privateNodes.defaultProfile`). @default - none */
  readonly defaultProfile?: string;
  readonly static?: readonly StaticPoolSpec[];
  readonly dynamic?: readonly DynamicPoolSpec[];
}

export interface PrivateNodePoolSpec {
  readonly name: string;
  readonly cluster: string;
  /** A metal3 NodeProvider. */
  readonly provider: string;
  readonly nodeType: string;
  readonly count: number;
  /** OS image written to the host. */
  readonly image: { readonly url: string; readonly checksum: string; readonly checksumType?: 'md5' | 'sha256' | 'sha512'; readonly format?: 'raw' | 'qcow2' | 'vdi' | 'vmdk' | 'live-iso' };
  readonly labels?: Labels;
  readonly taints?: readonly Taint[];
}

/** A tenant's vcluster.yaml whose `privateNodes.autoNodes` block is planned as it is. */
export interface VclusterFileSpec {
  /** The metalslice tenant cluster the vcluster.yaml belongs to. */
  readonly cluster: string;
  /** The vcluster.yaml, relative to the config file. */
  readonly file: string;
  /** The quota kubevirt pools are counted against. @default - none */
  readonly quota?: string;
  /** Per-provider quotas; win over `quota`. @default - none */
  readonly quotaByProvider?: Readonly<Record<string, string>>;
}

/**
 * vCluster Platform's NodeProfile: labels and taints given to the nodes of every pool that selects it
 * (`profile`, or the vcluster.yaml's `privateNodes.defaultProfile`). The pool's own labels and taints win.
 */
export interface NodeProfileSpec {
  readonly name: string;
  readonly nodeLabels?: Labels;
  readonly taints?: readonly Taint[];
  /** Taints set at boot and removed by a DaemonSet once the node is ready. @default - none */
  readonly startupTaints?: readonly Taint[];
}

/** The whole model: what the config file holds, and what the constructs add up to. */
export interface MetalsliceConfig {
  readonly fleets?: readonly FleetSpec[];
  readonly quotas?: readonly QuotaSpec[];
  readonly clusters?: readonly ClusterSpec[];
  readonly nodePools?: readonly NodePoolSpec[];
  readonly nodeProviders?: readonly NodeProviderSpec[];
  readonly autoNodes?: readonly AutoNodesSpec[];
  readonly privateNodePools?: readonly PrivateNodePoolSpec[];
  /** vcluster.yaml files whose auto nodes are planned with everything else (read into autoNodes). */
  readonly vclusters?: readonly VclusterFileSpec[];
  readonly nodeProfiles?: readonly NodeProfileSpec[];
  /**
   * Warnings found while reading the config (e.g. vcluster.yaml fields that change nothing): the plan
   * reports them with its own. Set by the loader, not written in the config.
   */
  readonly readWarnings?: readonly PlanIssue[];
}
