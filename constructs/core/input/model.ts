/**
 * The metalslice model as written by people: the YAML/JSON config and the construct props share these
 * shapes. Quantities are strings or numbers here; the planner (`core/plan`) parses and checks them.
 */
import type { PlanIssue } from '../base/errors';
import { ResourceInput } from '../base/resources';
import type { RolloutSpec } from './disruption';
import type { NodeBootstrap } from './bootstrap';

export type { NodeBootstrap, NodeBootstrapMode, NodePackageRepositories, NodeProxy } from './bootstrap';

/** Label key/value pairs. */
export type Labels = Readonly<Record<string, string>>;

/** One bare-metal host (a Kubernetes Node of the provider cluster, or a Metal3 BareMetalHost). */
export interface HostSpec {
  /** The host name: the Node name (kubernetes.io/hostname) or the BareMetalHost name. */
  readonly name: string;
  /** The host's labels (fleet hostSelector, failure domains, metal3 node type hostSelector). @default - none */
  readonly labels?: Labels;
  /** What the host has: cpu, memory, disk, extended resources (`nvidia.com/gpu`); a Node's `status.capacity`. */
  readonly capacity: ResourceInput;
  /**
   * What the kubelet lets pods have: a Node's `status.allocatable` (capacity less kube-reserved,
   * system-reserved and the eviction threshold). kube-scheduler fits pods into this, never into capacity.
   * @default - capacity (the plan says so in a warning when the fleet has no reservedPerHost either)
   */
  readonly allocatable?: ResourceInput;
  /** The Node's taints: a launcher pod goes only where it tolerates every NoSchedule and NoExecute taint. @default - none */
  readonly taints?: readonly Taint[];
  /** Cordoned (`spec.unschedulable`): kube-scheduler places no new pod there. @default false */
  readonly unschedulable?: boolean;
  /** The Node's Ready condition is True; a NotReady host is tainted by the node lifecycle controller and takes no pods. @default true */
  readonly ready?: boolean;
  /** Pods already bound to the host (written by `metalslice inventory`): what they take before any VM of the plan. @default - none */
  readonly pods?: HostPods;
  /** BareMetalHost provisioning state (`available`, `provisioned`, `error`, ...). @default - not a Metal3 host */
  readonly state?: string;
  /** The cluster (or claim) that holds the host, if any. @default - free */
  readonly consumer?: string;
  /** A BareMetalHost's error, as reported in status.errorMessage. @default - none */
  readonly errorMessage?: string;
  /**
   * The host groups the last deploy put the host in: the `group.metalslice.io/...` label keys its Node carries, as
   * `metalslice inventory` reads them. Where the plan confines a pool to a group, it keeps the one it had unless
   * another proves more, so scaling one pool rarely moves another's. Not labels: no selector or requirement matches them.
   * @default - none (each pool's group is chosen afresh)
   */
  readonly hostGroups?: readonly string[];
}

/**
 * The pods already running on a host, as `metalslice inventory` reads them: Succeeded and Failed pods are
 * left out, as kube-scheduler leaves them out.
 */
export interface HostPods {
  /** How many pods, metalslice's own launcher pods not included. */
  readonly count: number;
  /** What they request, summed as kube-scheduler sums a pod (containers, the largest init container, overhead). */
  readonly requests: ResourceInput;
  /** KubeVirt's virt-handler is among them, so the plan does not reserve it again. @default false */
  readonly virtHandler?: boolean;
  /** The launcher pods of metalslice VMs on the host: a VM the plan declares stays here, any other is a pod like the rest. @default - none */
  readonly virtualMachines?: readonly RunningVm[];
}

/** A metalslice VM whose launcher pod runs on a host. */
export interface RunningVm {
  /** `namespace/name` of the VM. */
  readonly name: string;
  /** What its launcher pod requests. */
  readonly requests: ResourceInput;
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
  /** vCPU topology: threads per core (with dedicated CPUs, at most 2). @default 1 */
  readonly threads?: number;
  /** How each device resource of the shape is passed through. @default - `gpu` when the resource name has "gpu", else `hostDevice` */
  readonly deviceKinds?: Readonly<Record<string, 'gpu' | 'hostDevice'>>;
  /** What KubeVirt does when the host is drained. @default - LiveMigrate when the VM can migrate, else None */
  readonly evictionStrategy?: 'LiveMigrate' | 'LiveMigrateIfPossible' | 'External' | 'None';
}

/** An Elastic Fleet: the hosts of a machine pool, offered as KubeVirt capacity. */
export interface FleetSpec {
  /** The fleet's name: a DNS-1123 label, unique in the model. */
  readonly name: string;
  /**
   * Kept back on every host beyond what its Node already keeps (allocatable) and what the plan counts by
   * itself (KubeVirt's virt-handler, the pods already running there). @default - nothing more reserved
   */
  readonly reservedPerHost?: ResourceInput;
  /** The bare-metal hosts whose capacity the fleet offers. @default - none (or hostsFile) */
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

/** An Elastic Quota: a CPU / memory / disk (and device) slice of a fleet for one tenant organisation. */
export interface QuotaSpec {
  /** The quota's name: a DNS-1123 label, unique in the model. */
  readonly name: string;
  /** The fleet the quota is a slice of. */
  readonly fleet: string;
  /** The tenant organisation that owns the quota (its group may manage the VMs). */
  readonly organization: string;
  /** cpu, memory, disk (as requests.storage) and extended resources. */
  readonly limits: ResourceInput;
  /** Most VMs in the quota (count/virtualmachines.kubevirt.io). @default - no count limit */
  readonly maxVirtualMachines?: number;
  /** The namespace the quota's VMs live in. @default - `<organization>-<name>` */
  readonly namespace?: string;
  /** Users or groups (`group:NAME`) who may manage VMs in the namespace; `system:` users and groups only with allowSystemConsumers. @default - `<organization>` group */
  readonly consumers?: readonly string[];
  /** Allow `system:` users and groups (anonymous, authenticated, service accounts) among consumers; the plan warns. @default false */
  readonly allowSystemConsumers?: boolean;
  /**
   * Live migrations of the quota's VMs that may run at once. A migrating VM holds two launcher pods, and
   * the ResourceQuota counts both, so the plan keeps room for this many of the quota's largest migratable VMs.
   * @default 1
   */
  readonly liveMigrations?: number;
}

/** A tenant cluster that nodes join (kubeadm join with a bootstrap token). */
export interface ClusterSpec {
  /** The tenant cluster's name: a DNS-1123 label, unique in the model. */
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
  /**
   * Where the cluster's nodes get containerd, kubelet and kubeadm, and at which exact versions. Unset, each boot
   * installs the newest patch of `kubernetesVersion` from pkgs.k8s.io and containerd from the distribution, over
   * the internet: the plan warns. @default - unpinned, from the internet
   */
  readonly bootstrap?: NodeBootstrap;
}

/**
 * The taint effects Kubernetes knows, in its order: the one list the config schema, the Taint type and
 * the plan's taint check read.
 */
export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** What a taint does to pods that do not tolerate it. */
export type TaintEffect = (typeof TAINT_EFFECTS)[number];

/** A Kubernetes node taint. */
export interface Taint {
  /** The taint key (a qualified name, like a label key). */
  readonly key: string;
  /** The taint value (a label value). @default - no value */
  readonly value?: string;
  /** What the taint does to pods that do not tolerate it. */
  readonly effect: TaintEffect;
}

/** An Elastic Node Pool: `count` VMs of one shape, carved from a quota, joining a tenant cluster. */
export interface NodePoolSpec {
  /** The pool's name: a DNS-1123 label; node names are `<name>-<index>`. */
  readonly name: string;
  /** The Elastic Quota the pool's VMs are carved from. */
  readonly quota: string;
  /** The tenant cluster the nodes join. */
  readonly cluster: string;
  /** One node's guest resources: cpu (whole vCPUs), memory, disk (root disk size). */
  readonly shape: ResourceInput;
  /** Number of nodes, 0 or more. Scaling changes only the nodes added or removed. */
  readonly count: number;
  /** `spread`: kube-scheduler spreads the pool over hosts; `planned`: each VM is pinned to the planner's host. @default "spread" */
  readonly placement?: 'spread' | 'planned';
  /** Root disk image. @default - an Ubuntu 24.04 container disk */
  readonly image?: string;
  /** `containerDisk` (ephemeral) or `dataVolume` (a PVC of the shape's disk, counted as requests.storage). @default "dataVolume" */
  readonly rootDisk?: 'containerDisk' | 'dataVolume';
  /** Node labels the kubelet sets at join (node-role labels are refused). @default - none */
  readonly labels?: Labels;
  /** Node taints set at join. @default - none */
  readonly taints?: readonly Taint[];
  /** Node type label value. @default - the pool name */
  readonly nodeType?: string;
  /** How each VM is built (dedicated CPUs, hugepages, IO threads, ...). @default - a plain VM */
  readonly vm?: VmOptions;
  /** How long draining a node may take before its VM is deleted (hours, minutes, seconds: 15m, 1h30m). @default "15m" */
  readonly drainTimeout?: string;
  /**
   * How a change the running nodes cannot take in place (shape, image, Kubernetes version, labels, ...) replaces
   * them: extra nodes made first (`maxSurge`), nodes out of service at once (`maxUnavailable`). The plan proves the
   * surge fits the quota and the hosts. @default {maxSurge: 1, maxUnavailable: 0}
   */
  readonly rollout?: RolloutSpec;
}

/** How a requirement compares a node type's property (Kubernetes node selector operators). */
export type RequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
/** As written: vCluster also takes "" for In. */
export type RequirementOperatorInput = RequirementOperator | '';

/** One condition a node type must meet (vCluster Platform's node type requirements). */
export interface Requirement {
  /** The node type property (or built-in: the type name, zone, instance type) the requirement reads. */
  readonly property: string;
  /** In, NotIn, Exists, DoesNotExist, Gt or Lt; "" means In. @default "In" */
  readonly operator?: RequirementOperatorInput;
  /** The value for In, NotIn, Gt or Lt (Gt and Lt: a non-negative integer). @default - none */
  readonly value?: string;
  /** Values for In or NotIn. @default - none */
  readonly values?: readonly string[];
}

/** One expression of a label selector. */
export interface LabelSelectorRequirement {
  /** The label key. */
  readonly key: string;
  /** How the label's value is compared with `values`. */
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  /** The values for In and NotIn. @default - none */
  readonly values?: readonly string[];
}

/** A Kubernetes label selector over host labels. */
export interface LabelSelector {
  /** Labels a host must have, each with this value. @default - none */
  readonly matchLabels?: Labels;
  /** Label expressions a host must satisfy (Kubernetes label selector semantics). @default - none */
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

/** One node type of a provider's catalogue: resources, properties, cost and capacity. */
export interface NodeTypeSpec {
  /** The type's name, unique per provider: lower-case letters, digits, `-` and `.` (like `t3.medium`). */
  readonly name: string;
  /** cpu, memory, disk and extended resources of one node; metal3 types discover them from their hosts. */
  readonly resources?: ResourceInput;
  /** Property values: one value, a comma list, or `*`. */
  readonly properties?: Labels;
  /** The type's zone, its `topology.kubernetes.io/zone` property. @default "global" */
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

/** A git source of a terraform node template (vCluster Platform's `nodeTemplate.git`). */
export interface NodeTemplateGit {
  /** The repository to clone. @default - none */
  readonly repository?: string;
  /** The branch. @default - the repository's default */
  readonly branch?: string;
  /** The commit. @default - none */
  readonly commit?: string;
  /** The tag. @default - none */
  readonly tag?: string;
  /** The folder of the template in the repository, e.g. `node-templates/kubevirt`. @default - the repository root */
  readonly subPath?: string;
}

/**
 * The template a terraform provider runs once per node claim (vCluster Platform's `spec.terraform.nodeTemplate`).
 * When it is metalslice's own (`subPath` `node-templates/kubevirt`), the plan counts its nodes on a fleet.
 */
export interface NodeTemplateSpec {
  /** Where the template comes from. @default - none */
  readonly git?: NodeTemplateGit;
  /** The template inline (HCL). @default - none */
  readonly inline?: string;
}

/** A node provider (vCluster Platform's NodeProvider) and its node type catalogue. */
export interface NodeProviderSpec {
  /** The provider's name: a DNS-1123 label, unique in the model. */
  readonly name: string;
  /** `kubevirt`: VMs on an Elastic Fleet; `metal3`: whole BareMetalHosts; `terraform`: node templates run by vCluster Platform. */
  readonly kind: 'kubevirt' | 'metal3' | 'terraform';
  /** kubevirt: the Elastic Fleet whose hosts run the VMs. */
  readonly fleet?: string;
  /** metal3: the BareMetalHosts of the pool. */
  readonly hosts?: readonly HostSpec[];
  /** metal3: an inventory file written by `metalslice inventory`, relative to the config file. @default - none */
  readonly hostsFile?: string;
  /** metal3: namespace of the BareMetalHosts. @default "metal3" */
  readonly hostNamespace?: string;
  /** Properties every type of this provider has (a type's own win). */
  readonly properties?: Labels;
  /** terraform: the template vCluster Platform runs per node claim. @default - unknown (its nodes are listed, not proven) */
  readonly nodeTemplate?: NodeTemplateSpec;
  /** The catalogue: the node types claims are matched against. */
  readonly nodeTypes: readonly NodeTypeSpec[];
}

/** A static auto-node pool: a fixed number of nodes of the cheapest matching type. */
export interface StaticPoolSpec {
  /** The pool's name: a DNS-1123 label, unique among the tenant cluster's auto-node pools (vCluster's rule). */
  readonly name: string;
  /** Number of nodes, 0 or more. */
  readonly quantity: number;
  /** What the node type must offer; the cheapest matching type is chosen. @default - any type */
  readonly requirements?: readonly Requirement[];
  /** vcluster.yaml's spelling of requirements. */
  readonly nodeTypeSelector?: readonly Requirement[];
  /** Smallest acceptable node. @default - any size */
  readonly resources?: ResourceInput;
  /** Node taints set at join. @default - none (or the profile's) */
  readonly taints?: readonly Taint[];
  /** Node labels set at join. @default - none (or the profile's) */
  readonly nodeLabels?: Labels;
  /** A NodeProfile (`nodeProfiles`) whose labels and taints the nodes get. @default - the entry's defaultProfile */
  readonly profile?: string;
  /** How long a node's pods may take to drain before it is deleted anyway (Karpenter duration). @default - 30s (Karpenter's) */
  readonly terminationGracePeriod?: string;
}

/** A group of identical pods of a dynamic pool's preview. */
export interface PreviewPods {
  /** What one pod requests: cpu, memory and extended resources. */
  readonly resources: ResourceInput;
  /** How many such pods. */
  readonly count: number;
}

/** A Karpenter disruption budget. */
export interface DisruptionBudget {
  /** How many nodes may be disrupted at once: a count (`2`) or a percentage (`20%`). */
  readonly nodes: string;
  /** When the budget applies: a cron schedule. @default - always */
  readonly schedule?: string;
  /** How long the budget applies after each scheduled start (Go duration, e.g. `1h`). @default - with schedule only */
  readonly duration?: string;
  /** The disruption reasons the budget limits. @default - all */
  readonly reasons?: readonly ('Underutilized' | 'Empty' | 'Drifted')[];
}

/** A dynamic auto-node pool: a Karpenter NodePool or a Cluster API MachineDeployment that grows with pending pods. */
export interface DynamicPoolSpec {
  /** The pool's name: a DNS-1123 label, unique among the tenant cluster's auto-node pools (vCluster's rule). */
  readonly name: string;
  /** What the node types must offer; the autoscaler chooses among the matching ones. @default - any type */
  readonly requirements?: readonly Requirement[];
  /** vcluster.yaml's spelling of requirements. @default - none */
  readonly nodeTypeSelector?: readonly Requirement[];
  /** Karpenter limits: cpu, memory, ..., and `nodes`. */
  readonly limits?: ResourceInput;
  /** Node taints set at join. @default - none (or the profile's) */
  readonly taints?: readonly Taint[];
  /** Node labels set at join. @default - none (or the profile's) */
  readonly nodeLabels?: Labels;
  /** Karpenter's disruption settings: when empty or underused nodes are removed. @default - Karpenter's */
  readonly disruption?: {
    /** Remove nodes when empty, or also when their pods fit elsewhere. @default - Karpenter's (WhenEmptyOrUnderutilized) */
    readonly consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
    /** How long a node must be consolidatable before it is removed (Go duration). @default - Karpenter's */
    readonly consolidateAfter?: string;
    /** Limits on how many nodes are disrupted at once. @default - Karpenter's (10%) */
    readonly budgets?: readonly DisruptionBudget[];
  };
  /** Replace nodes older than this (Go duration, e.g. `720h`, or `Never`). @default - Karpenter's (720h) */
  readonly expireAfter?: string;
  /** How long a node's pods may take to drain before it is deleted anyway (Go duration). @default - none */
  readonly terminationGracePeriod?: string;
  /** Priority among the cluster's dynamic pools (Karpenter NodePool weight, 1-100). @default - none */
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
    /** Groups of identical pods: the resources of one, and how many. */
    readonly pods: readonly PreviewPods[];
    /** Kept back on every node (kubelet, system daemons). @default {cpu: 100m, memory: 256Mi} */
    readonly nodeOverhead?: ResourceInput;
  };
}

/** Where an autoNodes entry read from a vcluster.yaml was written, for errors at the file's own paths. */
export interface AutoNodesSource {
  /** Path of the autoNodes entry in the vcluster.yaml. */
  readonly entry: string;
  /** Paths of its static pools, in order. @default - none */
  readonly static?: readonly string[];
  /** Paths of its dynamic pools, in order. @default - none */
  readonly dynamic?: readonly string[];
}

/** The auto-node pools of one tenant cluster on one provider (vcluster.yaml `privateNodes.autoNodes[]`). */
export interface AutoNodesSpec {
  /** Where the entry and its pools were written, when not in this config (a vcluster.yaml). @default - autoNodes[i] */
  readonly source?: AutoNodesSource;
  /** The tenant cluster the nodes join. */
  readonly cluster: string;
  /** The node provider whose catalogue the pools claim from. */
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
  /** Paths of its static pools, in order. */
  readonly static?: readonly StaticPoolSpec[];
  /** Paths of its dynamic pools, in order. */
  readonly dynamic?: readonly DynamicPoolSpec[];
}

/** The OS image Metal3 writes to a claimed host. */
export interface HostImage {
  /** Where Metal3 downloads the image from. */
  readonly url: string;
  /** The image's checksum (or a URL of a checksum file). */
  readonly checksum: string;
  /** The checksum's algorithm. @default - detected by Metal3 */
  readonly checksumType?: 'md5' | 'sha256' | 'sha512';
  /** The image's format. @default - detected by Metal3 */
  readonly format?: 'raw' | 'qcow2' | 'vdi' | 'vmdk' | 'live-iso';
}

/** Whole bare-metal hosts claimed exclusively for one tenant through Metal3 HostClaims. */
export interface PrivateNodePoolSpec {
  /** The pool's name: a DNS-1123 label; HostClaims are `<cluster>-<name>-<index>`. */
  readonly name: string;
  /** The tenant cluster the hosts join. */
  readonly cluster: string;
  /** A metal3 NodeProvider. */
  readonly provider: string;
  /** The metal3 node type whose hosts are claimed. */
  readonly nodeType: string;
  /** Number of hosts claimed, 0 or more. */
  readonly count: number;
  /** OS image written to the host. */
  readonly image: HostImage;
  /** Node labels set at join. @default - none */
  readonly labels?: Labels;
  /** Node taints set at join. @default - none */
  readonly taints?: readonly Taint[];
  /** How long draining a node may take before its HostClaim is deleted and the host cleaned (15m, 1h30m). @default "15m" */
  readonly drainTimeout?: string;
  /**
   * How a change the running hosts cannot take in place (image, node type, labels, taints, Kubernetes version)
   * replaces them: free matching hosts claimed first (`maxSurge`), nodes out of service at once (`maxUnavailable`).
   * The plan proves the node type has that many free hosts. @default {maxSurge: 1, maxUnavailable: 0}
   */
  readonly rollout?: RolloutSpec;
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
  /** The profile's name, as pools name it in `profile`. */
  readonly name: string;
  /** Labels given to the nodes. @default - none */
  readonly nodeLabels?: Labels;
  /** Taints given to the nodes. @default - none */
  readonly taints?: readonly Taint[];
  /** Taints set at boot and removed by a DaemonSet once the node is ready. @default - none */
  readonly startupTaints?: readonly Taint[];
}

/**
 * vCluster Platform's OSImage: an OS image's provider properties under a name, which node types, providers
 * and claims select with the property `vcluster.com/os-image`. For Metal3: `metal3.vcluster.com/image-url`,
 * `metal3.vcluster.com/image-checksum` and optionally `metal3.vcluster.com/image-checksum-type`.
 */
export interface OsImageSpec {
  /** The image's name, as `vcluster.com/os-image` names it. */
  readonly name: string;
  /** The provider properties the image stands for. */
  readonly properties: Labels;
}

/** The config format versions metalslice reads. */
export type ConfigApiVersion = 'metalslice.io/v1alpha1';

/** The whole model: what the config file holds, and what the constructs add up to. */
export interface MetalsliceConfig {
  /**
   * The format of this config: `metalslice.io/v1alpha1`, the only one so far (a minor release may add the next;
   * the CHANGELOG says how to migrate). @default "metalslice.io/v1alpha1" - read as that version, with a warning
   */
  readonly apiVersion?: ConfigApiVersion;
  /** The JSON Schema an editor validates this file with (schema/metalslice-config.schema.json); metalslice ignores it. @default - none */
  readonly $schema?: string;
  /** Elastic Fleets: bare-metal hosts as KubeVirt capacity. @default - none */
  readonly fleets?: readonly FleetSpec[];
  /** Elastic Quotas: slices of a fleet per tenant organisation. @default - none */
  readonly quotas?: readonly QuotaSpec[];
  /** Tenant clusters that nodes join. @default - none */
  readonly clusters?: readonly ClusterSpec[];
  /** Elastic Node Pools: VMs of one shape carved from a quota. @default - none */
  readonly nodePools?: readonly NodePoolSpec[];
  /** Node providers and their node type catalogues (vCluster Platform's model). @default - none */
  readonly nodeProviders?: readonly NodeProviderSpec[];
  /** Static and dynamic auto-node pools per tenant cluster and provider. @default - none */
  readonly autoNodes?: readonly AutoNodesSpec[];
  /** Whole bare-metal hosts claimed for one tenant through Metal3. @default - none */
  readonly privateNodePools?: readonly PrivateNodePoolSpec[];
  /** vcluster.yaml files whose auto nodes are planned with everything else (read into autoNodes). */
  readonly vclusters?: readonly VclusterFileSpec[];
  /** Node profiles: labels and taints pools select by name. @default - none */
  readonly nodeProfiles?: readonly NodeProfileSpec[];
  /** OS images (vCluster Platform's OSImage) that `vcluster.com/os-image` properties name. @default - none */
  readonly osImages?: readonly OsImageSpec[];
  /**
   * Warnings found while reading the config (e.g. vcluster.yaml fields that change nothing): the plan
   * reports them with its own. Set by the loader, not written in the config.
   */
  readonly readWarnings?: readonly PlanIssue[];
}
