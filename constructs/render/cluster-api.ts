/**
 * A dynamic auto-node pool as Cluster API objects scaled by cluster-autoscaler: a MachineDeployment
 * (cluster.x-k8s.io/v1beta2, the version the CRD stores) with node-group min/max annotations and
 * scale-from-zero capacity annotations, a KubevirtMachineTemplate
 * (infrastructure.cluster.x-k8s.io/v1alpha1) sized exactly as the planner counted, and a
 * KubeadmConfigTemplate (bootstrap.cluster.x-k8s.io/v1beta2) that registers the node's labels and taints.
 */
import { CandidateType, PlannedAutoPool } from '../core/auto';
import { renderVmSpec, VmTypeInput } from './kubevirt';
import { get, isExtendedResource, resourceNames } from '../core/base/resources';
import { INSTANCE_TYPE_LABEL, VCLUSTER_NODE_TYPE_LABEL } from '../core/naming/derived';
import { CLUSTER_LABEL, KubernetesObject, MANAGED_BY_LABELS, PROVIDER_LABEL } from './node-environment';

export const AUTOSCALER_MIN_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
export const AUTOSCALER_MAX_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
const CAPACITY = 'capacity.cluster-autoscaler.kubernetes.io';
/** The Cluster API KubeVirt provider's Ubuntu image with kubeadm preinstalled, for types whose properties name none. */
export const CAPK_DEFAULT_IMAGE = 'quay.io/capk/ubuntu-2404-container-disk:v1.33.0';

export interface ClusterApiRenderOptions {
  /** Namespace of the Cluster API objects and of the VMs (the quota's namespace). */
  readonly namespace: string;
  /** The Cluster API Cluster the machines join. @default - the pool's tenant cluster name */
  readonly clusterName?: string;
  /** Kubernetes version of the machines. @default "v1.33.0" */
  readonly kubernetesVersion?: string;
  /** Root disk image of the VMs when the plan's VM names none. @default "quay.io/capk/ubuntu-2404-container-disk:v1.33.0" */
  readonly image?: string;
  /** Pods per node, for the scale-from-zero template node. @default 110 */
  readonly maxPods?: number;
  /** The plan's VM of the pool (any of its VMs: they differ only in name), rendered for every machine. @default - the chosen node type's VM */
  readonly vm?: VmTypeInput;
  /** The fleet's host selector, repeated on every VM so it lands only on fleet hosts. @default - none */
  readonly hostSelector?: Readonly<Record<string, string>>;
  /** Labels put on the node by kubelet (the plan's node labels, if the caller has them). @default - the pool's nodeLabels */
  readonly nodeLabels?: Readonly<Record<string, string>>;
}

/** The VM each machine of the pool is: the plan's (its image and root disk properties resolved), else the chosen type's. */
function machineVm(pool: PlannedAutoPool, candidate: CandidateType, options: ClusterApiRenderOptions): VmTypeInput {
  const build = options.vm ?? candidate.vm;
  if (!build) throw new Error(`pool ${pool.path} has no planned VM for node type ${candidate.nodeType}: render only a plan without errors`);
  return { ...build, image: options.vm?.image ?? options.image ?? CAPK_DEFAULT_IMAGE, hostSelector: options.hostSelector };
}

export interface ClusterApiPoolObjects {
  readonly machineDeployment: KubernetesObject;
  readonly machineTemplate: KubernetesObject;
  readonly bootstrapTemplate: KubernetesObject;
}

/** `a=b,c=d` in key order: kubelet's --node-labels and cluster-autoscaler's labels annotation. */
function labelList(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

function isGpu(resource: string): boolean {
  return /gpu/i.test(resource);
}

// Over 60 lines: one object literal per Cluster API kind, in apply order.
export function renderClusterApiPool(pool: PlannedAutoPool, options: ClusterApiRenderOptions): ClusterApiPoolObjects {
  const dynamic = pool.dynamic;
  if (pool.mode !== 'dynamic' || !dynamic || dynamic.autoscaler !== 'cluster-api') throw new Error(`pool ${pool.path} is not a cluster-api dynamic pool`);
  const candidate = pool.candidates.find((c) => c.nodeType === pool.nodeType);
  if (!candidate || dynamic.maxNodes === undefined) throw new Error(`pool ${pool.path} has no planned node type or size: render only a plan without errors`);
  const clusterName = options.clusterName ?? pool.cluster;
  const name = `${pool.cluster}-${pool.name}`;
  const version = options.kubernetesVersion ?? 'v1.33.0';
  const labels = { ...MANAGED_BY_LABELS, [CLUSTER_LABEL]: pool.cluster, [PROVIDER_LABEL]: pool.provider };
  const selectorLabels = { 'cluster.x-k8s.io/cluster-name': clusterName, 'cluster.x-k8s.io/deployment-name': name };
  const nodeLabels = {
    [INSTANCE_TYPE_LABEL]: candidate.name,
    [VCLUSTER_NODE_TYPE_LABEL]: candidate.name,
    ...(options.nodeLabels ?? pool.nodeLabels),
  };
  const resources = candidate.resources;

  // cluster-autoscaler builds a template node from these when the group is at zero.
  const annotations: Record<string, string> = {
    [AUTOSCALER_MIN_SIZE]: String(dynamic.minNodes),
    [AUTOSCALER_MAX_SIZE]: String(dynamic.maxNodes),
    [`${CAPACITY}/cpu`]: get(resources, 'cpu').toString(),
    [`${CAPACITY}/memory`]: get(resources, 'memory').toString(),
  };
  if (resources.disk && !resources.disk.isZero()) annotations[`${CAPACITY}/ephemeral-disk`] = resources.disk.toString();
  annotations[`${CAPACITY}/maxPods`] = String(options.maxPods ?? 110);
  const gpus = resourceNames(resources).filter((r) => isExtendedResource(r) && r !== 'disk' && isGpu(r) && !resources[r].isZero());
  if (gpus.length > 0) {
    annotations[`${CAPACITY}/gpu-type`] = gpus[0];
    annotations[`${CAPACITY}/gpu-count`] = resources[gpus[0]].ceilUnits().toString();
  }
  annotations[`${CAPACITY}/labels`] = labelList(nodeLabels);
  if (pool.taints.length > 0) annotations[`${CAPACITY}/taints`] = pool.taints.map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`).join(',');

  const machineDeployment: KubernetesObject = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: { name, namespace: options.namespace, labels: { ...labels, 'cluster.x-k8s.io/cluster-name': clusterName }, annotations },
    // No replicas: cluster-autoscaler owns the size, starting from the min-size annotation.
    spec: {
      clusterName,
      selector: { matchLabels: selectorLabels },
      template: {
        metadata: { labels: selectorLabels },
        spec: {
          clusterName,
          version,
          bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name } },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'KubevirtMachineTemplate', name },
        },
      },
    },
  };

  const machineTemplate: KubernetesObject = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1alpha1',
    kind: 'KubevirtMachineTemplate',
    metadata: { name, namespace: options.namespace, labels },
    spec: {
      template: {
        spec: {
          // The one renderer's spec of the VM the plan counted for this pool: KubeVirt runs what was charged.
          // The KubeVirt provider adds the claim's fields itself (name, its labels, the cloud-init disk, and
          // the machine's name before each DataVolume's), as claimVirtualMachine does for metalslice's own.
          virtualMachineTemplate: { metadata: { namespace: options.namespace }, spec: renderVmSpec(machineVm(pool, candidate, options)) },
        },
      },
    },
  };

  const nodeRegistration: Record<string, unknown> = { kubeletExtraArgs: [{ name: 'node-labels', value: labelList(nodeLabels) }] };
  if (pool.taints.length > 0)
    nodeRegistration.taints = pool.taints.map((t) =>
      t.value !== undefined ? { key: t.key, value: t.value, effect: t.effect } : { key: t.key, effect: t.effect },
    );
  const bootstrapTemplate: KubernetesObject = {
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmConfigTemplate',
    metadata: { name, namespace: options.namespace, labels },
    spec: { template: { spec: { joinConfiguration: { nodeRegistration } } } },
  };
  return { machineDeployment, machineTemplate, bootstrapTemplate };
}
