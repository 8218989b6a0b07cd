/**
 * A generated matrix of VM option combinations for KubeVirt's own code to judge: vCPU topology, dedicated
 * CPUs and the isolated emulator thread, hugepage sizes against memory sizes, the fleet's memory overcommit and
 * CPU allocation ratio, graphics, the serial console log (VM and fleet), passed-through devices, IO threads,
 * the root disk and the eviction strategy. Deterministic: one seed, the same cases every run.
 */
import * as fc from 'fast-check';
import { CaseSpec, GPU, NIC } from './kubevirt-cases';

/** The seed and size of the matrix: hundreds of combinations, the same ones every run. */
export const MATRIX_SEED = 25;
export const MATRIX_SIZE = 400;

const spec: fc.Arbitrary<Omit<CaseSpec, 'name'>> = fc
  .record({
    sockets: fc.constantFrom(1, 2),
    cores: fc.constantFrom(1, 2, 3),
    threads: fc.constantFrom(1, 2, 3, 4),
    memory: fc.constantFrom('1Gi', '1536Mi', '2Gi', '3000Mi', '4Gi', '6Gi', '12Gi'),
    dedicatedCpus: fc.boolean(),
    isolateEmulatorThread: fc.boolean(),
    hugepages: fc.constantFrom(undefined, '2Mi' as const, '1Gi' as const),
    memoryOvercommit: fc.constantFrom(100, 100, 150, 200, 80),
    cpuAllocationRatio: fc.constantFrom(1, 2, 4, 10),
    graphics: fc.constantFrom(undefined, true, false),
    vmConsoleLog: fc.constantFrom(undefined, true, false),
    fleetConsoleLog: fc.boolean(),
    devices: fc.constantFrom('none', 'none', 'gpu', 'nic', 'gpu-not-permitted'),
    ioThreads: fc.constantFrom(undefined, undefined, 1, 2),
    rootDisk: fc.constantFrom('dataVolume' as const, 'containerDisk' as const),
    evictionStrategy: fc.constantFrom(undefined, undefined, 'LiveMigrate' as const, 'None' as const, 'External' as const),
  })
  .map((c) => {
    const shape: Record<string, string | number> = { cpu: c.sockets * c.cores * c.threads, memory: c.memory };
    if (c.rootDisk === 'dataVolume') shape.disk = '40Gi';
    if (c.devices === 'gpu' || c.devices === 'gpu-not-permitted') shape['nvidia.com/gpu'] = 1;
    if (c.devices === 'nic') shape['intel.com/e810_vf'] = 2;
    return {
      shape,
      vm: {
        sockets: c.sockets,
        threads: c.threads,
        ...(c.dedicatedCpus ? { dedicatedCpus: true } : {}),
        ...(c.isolateEmulatorThread ? { isolateEmulatorThread: true } : {}),
        ...(c.hugepages ? { hugepages: c.hugepages } : {}),
        ...(c.graphics !== undefined ? { graphics: c.graphics } : {}),
        ...(c.vmConsoleLog !== undefined ? { serialConsoleLog: c.vmConsoleLog } : {}),
        ...(c.ioThreads !== undefined ? { ioThreads: c.ioThreads } : {}),
        ...(c.evictionStrategy !== undefined ? { evictionStrategy: c.evictionStrategy } : {}),
      },
      rootDisk: c.rootDisk,
      settings: { memoryOvercommit: c.memoryOvercommit, cpuAllocationRatio: c.cpuAllocationRatio, serialConsoleLog: c.fleetConsoleLog },
      permitted: c.devices === 'gpu-not-permitted' ? [NIC] : [GPU, NIC],
    };
  });

/** The matrix's cases, named by index. */
export function matrixSpecs(): CaseSpec[] {
  return fc.sample(spec, { seed: MATRIX_SEED, numRuns: MATRIX_SIZE }).map((s, i) => ({ ...s, name: `m${String(i).padStart(3, '0')}` }));
}
