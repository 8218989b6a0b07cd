/**
 * What one KubeVirt VM really costs its host and its quota: the guest's resources plus the memory the
 * virt-launcher pod adds on top (QEMU, libvirt, page tables). KubeVirt puts this overhead into the
 * virt-launcher pod's memory request, so kube-scheduler and ResourceQuota count it; the planner must too.
 */
import { Quantity } from './quantity';
import { ResourceVector, get } from './resources';

const MI = 1n << 20n;
const GI = 1n << 30n;

/** Options of a VM that change its overhead. Defaults match a plain VM with a video device. */
export interface VmOverheadOptions {
  /** Guest vCPUs (sockets x cores x threads). */
  readonly vcpus: number;
  /** @default false - a dedicated IO thread is not requested */
  readonly ioThread?: boolean;
  /** @default true - KubeVirt adds a VGA device unless autoattachGraphicsDevice is false */
  readonly graphicsDevice?: boolean;
  /** @default false - any host device or GPU passed through */
  readonly passthrough?: boolean;
  /** @default false - dedicatedCpuPlacement */
  readonly dedicatedCpus?: boolean;
}

/**
 * virt-launcher memory overhead in bytes, after KubeVirt's formula: guest memory / 512 for page tables,
 * 240Mi of static overhead, 8Mi per vCPU, 8Mi for an IO thread, 32Mi for the video device, 1Gi with a
 * passthrough device (VFIO pins guest memory), 100Mi with dedicated CPUs.
 */
export function virtLauncherMemoryOverhead(guestMemory: Quantity, options: VmOverheadOptions): Quantity {
  const guestBytes = guestMemory.ceilUnits();
  let bytes = (guestBytes + 511n) / 512n;
  bytes += 240n * MI;
  bytes += 8n * MI * BigInt(options.vcpus);
  if (options.ioThread) bytes += 8n * MI;
  if (options.graphicsDevice ?? true) bytes += 32n * MI;
  if (options.passthrough) bytes += GI;
  if (options.dedicatedCpus) bytes += 100n * MI;
  return Quantity.fromBytes(bytes);
}

/** Whole vCPUs for a CPU quantity: a VM gets whole cores, so `1500m` needs 2. */
export function vcpusOf(cpu: Quantity): number {
  return Number(cpu.ceilUnits());
}

/**
 * The footprint of one VM on a host and in a quota: CPU as requested (divided by the fleet's CPU
 * allocation ratio, 1 = no overcommit), guest memory plus overhead, disk as is, extended resources as is.
 */
export function vmFootprint(shape: ResourceVector, options: Omit<VmOverheadOptions, 'vcpus'> & { cpuAllocationRatio?: number } = {}): ResourceVector {
  const cpu = get(shape, 'cpu');
  const ratio = options.cpuAllocationRatio ?? 1;
  const vcpus = vcpusOf(cpu);
  const hasDevice = Object.keys(shape).some((k) => k.includes('/') && !shape[k].isZero());
  const overhead = virtLauncherMemoryOverhead(get(shape, 'memory'), {
    vcpus,
    ioThread: options.ioThread,
    graphicsDevice: options.graphicsDevice,
    passthrough: options.passthrough ?? hasDevice,
    dedicatedCpus: options.dedicatedCpus,
  });
  const out: Record<string, Quantity> = { ...shape };
  out.cpu = cpuRequest(cpu, ratio);
  out.memory = Quantity.fromNano(get(shape, 'memory').nano + overhead.nano, 'BinarySI');
  return out;
}

/** The CPU a VM requests from kube-scheduler: vCPUs / allocation ratio, rounded up to a millicore. */
export function cpuRequest(cpu: Quantity, cpuAllocationRatio = 1): Quantity {
  if (cpuAllocationRatio === 1) return cpu;
  // Ratios are small decimals (e.g. 1.5, 4); scale by 1000 to stay in integers.
  const scaled = BigInt(Math.round(cpuAllocationRatio * 1000));
  const millis = (cpu.ceilMillis() * 1000n + scaled - 1n) / scaled;
  return Quantity.fromMillis(millis);
}
