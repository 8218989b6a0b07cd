/**
 * KubeVirt objects: the KubeVirt CR of a fleet, and one VirtualMachine per elastic node.
 */
import { PlannedFleet, PlannedPool } from '../core/plan';
import { get, isExtendedResource, ResourceVector } from '../core/resources';
import { cpuRequest } from '../core/overhead';
import { CLUSTER_LABEL, KubeObject, MANAGED_BY, NODE_TYPE_LABEL, POOL_LABEL, QUOTA_LABEL } from './labels';

export const DEFAULT_IMAGE = 'quay.io/containerdisks/ubuntu:24.04';

/** The KubeVirt CR: its configuration and where virt-handler runs (the fleet's hosts). */
export function renderKubeVirt(fleet: PlannedFleet): KubeObject {
  const ratio = fleet.cpuAllocationRatio;
  const selector = fleet.spec.hostSelector;
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'KubeVirt',
    metadata: { name: 'kubevirt', namespace: fleet.spec.namespace ?? 'kubevirt', labels: { ...MANAGED_BY, 'metalslice.io/fleet': fleet.name } },
    spec: {
      certificateRotateStrategy: {},
      configuration: {
        developerConfiguration: {
          // KubeVirt divides vCPUs by this ratio for the virt-launcher CPU request; 1 keeps the plan's promise.
          cpuAllocationRatio: ratio,
          featureGates: [],
        },
        // Keep the video device overhead the planner counted; no memory overcommit.
        vmRolloutStrategy: 'Stage',
      },
      customizeComponents: {},
      imagePullPolicy: 'IfNotPresent',
      workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate'] },
      ...(selector && Object.keys(selector).length > 0 ? { workloads: { nodePlacement: { nodeSelector: { ...selector } } } } : {}),
    },
  };
}

export interface VirtualMachineOptions {
  readonly pool: PlannedPool;
  readonly nodeName: string;
  /** Pin to this host (placement: planned). */
  readonly host?: string;
  readonly cpuAllocationRatio: number;
  /** Name of the Secret holding the node's cloud-init user data (key `userdata`). */
  readonly userDataSecret: string;
  /** Fleet host selector, repeated on the VM so it only lands on fleet hosts. */
  readonly hostSelector?: Readonly<Record<string, string>>;
}

function extendedDevices(shape: ResourceVector): { name: string; deviceName: string }[] {
  const out: { name: string; deviceName: string }[] = [];
  for (const name of Object.keys(shape).filter(isExtendedResource).sort()) {
    const count = Number(shape[name].ceilUnits());
    for (let i = 0; i < count; i++) out.push({ name: `gpu${out.length}`, deviceName: name });
  }
  return out;
}

/** One elastic node: a VM of the pool's shape whose cloud-init joins the tenant cluster. */
export function renderVirtualMachine(options: VirtualMachineOptions): KubeObject {
  const { pool, nodeName } = options;
  const shape = pool.shape;
  const rootDisk = pool.spec.rootDisk ?? 'dataVolume';
  const image = pool.spec.image ?? DEFAULT_IMAGE;
  const labels = {
    ...MANAGED_BY,
    [POOL_LABEL]: pool.name,
    [QUOTA_LABEL]: pool.quota,
    [CLUSTER_LABEL]: pool.cluster,
    [NODE_TYPE_LABEL]: pool.nodeType,
  };
  const vcpus = Number(get(shape, 'cpu').ceilUnits());
  const memory = get(shape, 'memory').toString();
  const rootVolume =
    rootDisk === 'dataVolume'
      ? { name: 'rootdisk', dataVolume: { name: `${nodeName}-root` } }
      : { name: 'rootdisk', containerDisk: { image } };
  const gpus = extendedDevices(shape);
  const podLabels = { [POOL_LABEL]: pool.name, [QUOTA_LABEL]: pool.quota, [CLUSTER_LABEL]: pool.cluster, 'kubevirt.io/vm': nodeName };
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: nodeName, namespace: pool.namespace, labels },
    spec: {
      runStrategy: 'Always',
      ...(rootDisk === 'dataVolume'
        ? {
            dataVolumeTemplates: [
              {
                metadata: { name: `${nodeName}-root`, creationTimestamp: null },
                spec: {
                  source: { registry: { url: image.includes('://') ? image : `docker://${image}` } },
                  storage: { resources: { requests: { storage: get(shape, 'disk').toString() } } },
                },
              },
            ],
          }
        : {}),
      template: {
        // KubeVirt's mutating webhook adds `creationTimestamp: null` to these schemaless metadata blocks;
        // writing it ourselves keeps kubernetes_manifest's planned and applied objects the same shape
        // (otherwise: "Provider produced inconsistent result", terraform-provider-kubernetes #2688/#2747).
        metadata: { labels: podLabels, creationTimestamp: null },
        spec: {
          domain: {
            cpu: { cores: vcpus, sockets: 1, threads: 1 },
            memory: { guest: memory },
            // The plan counted exactly these requests; kube-scheduler and ResourceQuota hold the same line.
            resources: { requests: { cpu: cpuRequest(get(shape, 'cpu'), options.cpuAllocationRatio).toString(), memory } },
            devices: {
              disks: [
                { name: 'rootdisk', disk: { bus: 'virtio' } },
                { name: 'cloudinit', disk: { bus: 'virtio' } },
              ],
              interfaces: [{ name: 'default', masquerade: {} }],
              ...(gpus.length > 0 ? { gpus } : {}),
            },
          },
          networks: [{ name: 'default', pod: {} }],
          ...(options.hostSelector && Object.keys(options.hostSelector).length > 0 ? { nodeSelector: { ...options.hostSelector } } : {}),
          ...(options.host !== undefined
            ? {
                affinity: {
                  nodeAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: {
                      nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [options.host] }] }],
                    },
                  },
                },
              }
            : {
                topologySpreadConstraints: [
                  { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { [POOL_LABEL]: pool.name } } },
                ],
              }),
          terminationGracePeriodSeconds: 180,
          volumes: [rootVolume, { name: 'cloudinit', cloudInitNoCloud: { secretRef: { name: options.userDataSecret } } }],
        },
      },
    },
  };
}
