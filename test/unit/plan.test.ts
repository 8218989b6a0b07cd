import { describe, expect, it } from '@jest/globals';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import { buildVm, plainFleetKubevirt } from '../../constructs/core/vm/vm';
import { cluster, fleet, hosts, model, plusVirtHandler, pool, quota, REPO_ROOT, roomForVms } from '../support/models';

// A host that offers VMs 64 CPUs and 256Gi once KubeVirt's virt-handler has its share.
const big = roomForVms({ cpu: 64, memory: '256Gi', disk: '2Ti' });

function errorsOf(m: Parameters<typeof planModel>[0]) {
  return planModel(m).errors;
}

describe('planModel', () => {
  it('plans a model that fits and places every VM on a host', () => {
    const plan = planModel(
      model({
        fleets: [fleet('f', hosts(3, big), { reservedPerHost: { cpu: 2, memory: '8Gi' } })],
        quotas: [quota('q', 'f', { cpu: 64, memory: '256Gi', disk: '1Ti' })],
        nodePools: [pool('workers', 'q', { cpu: 8, memory: '32Gi', disk: '50Gi' }, 6)],
      }),
    );
    expect(plan.errors).toEqual([]);
    expect(plan.ok).toBe(true);
    const nodes = plan.report.pools[0].nodes;
    expect(nodes.map((n) => n.name)).toEqual(['workers-0', 'workers-1', 'workers-2', 'workers-3', 'workers-4', 'workers-5']);
    expect(nodes.every((n) => n.host !== null)).toBe(true);
    // Spread: six VMs over three hosts, two each.
    const perHost = new Map<string, number>();
    for (const n of nodes) perHost.set(n.host!, (perHost.get(n.host!) ?? 0) + 1);
    expect([...perHost.values()].sort()).toEqual([2, 2, 2]);
  });

  it("computes fleet capacity as host allocatable less reservedPerHost and KubeVirt's virt-handler pod on every host", () => {
    const plan = planModel(model({ fleets: [fleet('f', hosts(4, { cpu: 64, memory: '512Gi' }), { reservedPerHost: { cpu: 2, memory: '8Gi' } })] }));
    // Per host: 64 - 2 - 0.01 CPU, 512Gi - 8Gi - 325Mi, kubelet's default maxPods (110) less virt-handler's pod.
    expect(plan.report.fleets[0].capacity).toEqual({ cpu: '247960m', memory: '2063084Mi', pods: '436' });
  });

  it('rejects quotas that add up to more than the fleet, naming the quota and the room left', () => {
    const errors = errorsOf(
      model({
        fleets: [fleet('f', hosts(2, { cpu: 16, memory: '64Gi' }))],
        quotas: [quota('a', 'f', { cpu: 20, memory: '100Gi' }), quota('b', 'f', { cpu: 20, memory: '64Gi' })],
      }),
    );
    expect(errors).toEqual([
      {
        path: 'quotas[1].limits.cpu',
        message: expect.stringMatching(/add up to 40 of cpu .* fleet has 31.98 allocatable .* lower this quota to at most 11.98 /),
      },
      { path: 'quotas[1].limits.memory', message: expect.stringMatching(/add up to 164 Gi of memory .* lower this quota to at most 27.3 Gi /) },
    ]);
  });

  it('rejects a pool that exceeds its quota by one node, and says how many fit', () => {
    const vm = buildVm(
      { cpu: Quantity.parse('2'), memory: Quantity.parse('8Gi') },
      {},
      'containerDisk',
      plainFleetKubevirt(),
      { options: 'vm', shape: 'shape' },
      [],
    )!;
    const perVm = vm.quotaDemand.memory;
    // Room for exactly three VMs with their overhead.
    const limit = Quantity.fromBytes(perVm.times(3).ceilUnits());
    const m = model({
      fleets: [fleet('f', hosts(2, big))],
      quotas: [quota('q', 'f', { cpu: 64, memory: limit.toString() }, { liveMigrations: 0 })],
      nodePools: [pool('p', 'q', { cpu: 2, memory: '8Gi' }, 3, { rootDisk: 'containerDisk' })],
    });
    expect(errorsOf(m)).toEqual([]);
    const over = { ...m, nodePools: [pool('p', 'q', { cpu: 2, memory: '8Gi' }, 4, { rootDisk: 'containerDisk' })] };
    expect(errorsOf(over)).toEqual([
      { path: 'nodePools[0].count', message: expect.stringMatching(/does not fit quota "q" .*memory: needs .*lower count to 3/) },
    ]);
  });

  it('counts KubeVirt overhead: a pool that fits by guest memory alone is refused', () => {
    // 4 VMs x 16Gi = 64Gi of guest memory exactly; with overhead they need more.
    const errors = errorsOf(
      model({
        fleets: [fleet('f', hosts(2, big))],
        quotas: [quota('q', 'f', { cpu: 64, memory: '64Gi' })],
        nodePools: [pool('p', 'q', { cpu: 2, memory: '16Gi' }, 4, { rootDisk: 'containerDisk' })],
      }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/launcher pod as KubeVirt requests it/);
  });

  describe("k VMs sized by KubeVirt's figures are planned as k, never k+1", () => {
    const guest = { cpu: 4, memory: '16Gi' };
    const launcher = buildVm(
      { cpu: Quantity.parse('4'), memory: Quantity.parse('16Gi') },
      {},
      'containerDisk',
      plainFleetKubevirt(),
      { options: 'vm', shape: 'shape' },
      [],
    )!.launcher.requests;
    // k launcher pods' worth of a resource, plus `extra` halves of one.
    const exactly = (k: number, r: 'cpu' | 'memory', halves = 0) =>
      (r === 'cpu'
        ? Quantity.fromMillis((launcher.cpu.ceilMillis() * BigInt(2 * k + halves) + 1n) / 2n)
        : Quantity.fromBytes((launcher.memory.ceilUnits() * BigInt(2 * k + halves) + 1n) / 2n)
      ).toString();
    const plentiful = { cpu: '1000', memory: '4Ti' };
    const plan = (hostCapacity: Record<string, string>, limits: Record<string, string>, count: number, hostCount = 1) =>
      planModel(
        model({
          fleets: [fleet('f', hosts(hostCount, hostCapacity))],
          quotas: [quota('q', 'f', limits, { liveMigrations: 0 })],
          nodePools: [pool('p', 'q', guest, count, { rootDisk: 'containerDisk' })],
        }),
      );
    it.each(['cpu', 'memory'] as const)('hosts with room for exactly 3 launcher pods by %s take 3 VMs each, though 7 fit by sums', (r) => {
      // Two hosts of 3.5 launcher pods each: the quota (the whole fleet) holds 7 by sums, the hosts 6.
      const host = { ...plentiful, [r]: plusVirtHandler(r, exactly(3, r, 1)) };
      const limits = { ...plentiful, [r]: exactly(7, r) };
      expect(plan(host, limits, 6, 2).errors).toEqual([]);
      expect(plan(host, limits, 7, 2).errors).toEqual([
        { path: 'nodePools[0].count', message: expect.stringMatching(/^1 of 7 nodes of pool "p" .*cannot be placed/) },
      ]);
    });
    it.each(['cpu', 'memory'] as const)('a quota with room for exactly 3 launcher pods by %s takes 3 VMs and refuses the 4th', (r) => {
      const limits = { ...plentiful, [r]: exactly(3, r) };
      expect(plan({ cpu: '10000', memory: '100Ti' }, limits, 3).errors).toEqual([]);
      expect(plan({ cpu: '10000', memory: '100Ti' }, limits, 4).errors).toEqual([
        { path: 'nodePools[0].count', message: expect.stringMatching(/does not fit quota "q".*lower count to 3/) },
      ]);
    });
    it("a host that runs kubelet's 110 pods at most holds 109 VMs beside virt-handler, whatever its size", () => {
      const tiny = { cpu: 1, memory: '2Gi' };
      const m = (count: number) =>
        planModel(
          model({
            fleets: [fleet('f', hosts(1, { cpu: '10000', memory: '100Ti' }))],
            quotas: [quota('q', 'f', plentiful, { liveMigrations: 0 })],
            nodePools: [pool('p', 'q', tiny, count, { rootDisk: 'containerDisk' })],
          }),
        );
      expect(m(109).errors).toEqual([]);
      expect(m(110).errors.map((e) => e.path)).toEqual(['nodePools[0].count']);
    });
  });

  it('keeps room in a quota for one live migration by default: a second launcher pod of its largest migratable VM', () => {
    const vm = buildVm(
      { cpu: Quantity.parse('2'), memory: Quantity.parse('8Gi') },
      {},
      'containerDisk',
      plainFleetKubevirt(),
      { options: 'vm', shape: 'shape' },
      [],
    )!;
    const four = Quantity.fromBytes(vm.quotaDemand.memory.ceilUnits() * 4n).toString();
    const m = (count: number, extra = {}) =>
      planModel(
        model({
          fleets: [fleet('f', hosts(2, big))],
          quotas: [quota('q', 'f', { cpu: 64, memory: four }, extra)],
          nodePools: [pool('p', 'q', { cpu: 2, memory: '8Gi' }, count, { rootDisk: 'containerDisk' })],
        }),
      );
    expect(m(3).errors).toEqual([]);
    expect(m(3).report.quotas[0].migrationHeadroom.memory).toBe(vm.launcher.requests.memory.toString());
    expect(m(4).errors).toEqual([{ path: 'quotas[0].liveMigrations', message: expect.stringMatching(/no room to live-migrate .*second launcher pod/) }]);
    expect(m(4, { liveMigrations: 0 }).errors).toEqual([]);
    // Pinned CPUs cannot migrate: no headroom is kept for them, and the VM says why.
    const pinned = planModel(
      model({
        fleets: [fleet('f', hosts(2, big))],
        quotas: [quota('q', 'f', { cpu: 64, memory: '256Gi' })],
        nodePools: [pool('p', 'q', { cpu: 2, memory: '8Gi' }, 2, { rootDisk: 'containerDisk', vm: { dedicatedCpus: true } })],
      }),
    );
    expect(pinned.report.quotas[0].migrationHeadroom).toEqual({});
    expect(pinned.vms[0].eviction).toMatchObject({ strategy: 'None', migratable: false, reason: expect.stringMatching(/pinned/) });
  });

  it('counts static auto-node VMs against their quota: maxVirtualMachines 2 refuses a static pool of 5', () => {
    const m = (quantity: number) =>
      planModel(
        model({
          fleets: [fleet('f', hosts(2, big), { hostSelector: undefined })],
          quotas: [quota('q', 'f', { cpu: 64, memory: '256Gi' }, { maxVirtualMachines: 2 })],
          nodeProviders: [{ name: 'virt', kind: 'kubevirt', fleet: 'f', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }] }],
          autoNodes: [{ cluster: 'prod', provider: 'virt', quota: 'q', static: [{ name: 'base', quantity }] }],
        }),
      );
    expect(m(5).errors).toEqual([
      { path: 'quotas[0].maxVirtualMachines', message: expect.stringMatching(/allows 2 VMs but its pools ask for 5 \(autoNodes\[0\]\.static\[0\]\)/) },
    ]);
    const ok = m(2);
    expect(ok.errors).toEqual([]);
    expect(ok.report.quotas[0].virtualMachines).toBe(2);
    expect(ok.report.quotas[0].allocated.cpu).toBe(ok.vms[0].launcher.requests.cpu.times(2).toString());
    expect(ok.vms.every((vm) => vm.origin === 'static' && vm.host !== undefined)).toBe(true);
    expect(ok.report.fleets[0].allocated.pods).toBe('2');
  });

  it('refuses VM options KubeVirt would refuse, each at its path with the fix', () => {
    const m = (shape: Record<string, string | number>, vm: object) =>
      errorsOf(
        model({
          fleets: [fleet('f', hosts(1, big))],
          quotas: [quota('q', 'f', { cpu: 64, memory: '256Gi' })],
          nodePools: [pool('p', 'q', shape, 1, { rootDisk: 'containerDisk', vm })],
        }),
      );
    expect(m({ cpu: 6, memory: '8Gi' }, { sockets: 4 })).toEqual([
      { path: 'nodePools[0].vm.sockets', message: expect.stringMatching(/6 vCPUs do not divide into 4 socket\(s\) x 1 thread\(s\)/) },
    ]);
    expect(m({ cpu: 4, memory: '8Gi' }, { isolateEmulatorThread: true })).toEqual([
      { path: 'nodePools[0].vm.isolateEmulatorThread', message: expect.stringMatching(/needs dedicatedCpus: true/) },
    ]);
    expect(m({ cpu: 4, memory: '1025Mi' }, { hugepages: '1Gi' })).toEqual([
      { path: 'nodePools[0].shape.memory', message: expect.stringMatching(/not a whole number of 1Gi hugepages/) },
    ]);
  });

  it('refuses a fractional cpuAllocationRatio, as KubeVirt does', () => {
    const errors = errorsOf(model({ fleets: [fleet('f', hosts(1, big), { cpuAllocationRatio: 1.5 })] }));
    expect(errors).toEqual([
      { path: 'fleets[0].cpuAllocationRatio', message: expect.stringMatching(/1\.5 is not a whole number.*KubeVirt's cpuAllocationRatio is an integer/) },
    ]);
  });

  it('refuses a device the fleet does not permit, and turns on the gate and permitted devices when it does', () => {
    const gpuPool = pool('g', 'q', { cpu: 4, memory: '16Gi', 'nvidia.com/gpu': 1 }, 1, { rootDisk: 'containerDisk' });
    const gpuHosts = hosts(1, { ...big, 'nvidia.com/gpu': '2' });
    const refused = errorsOf(model({ fleets: [fleet('f', gpuHosts)], quotas: [quota('q', 'f', { cpu: 64, memory: '256Gi' })], nodePools: [gpuPool] }));
    expect(refused).toEqual([
      {
        path: 'nodePools[0].shape["nvidia.com/gpu"]',
        message: expect.stringMatching(/not in the fleet's permittedHostDevices; add .* to fleets\[0\]\.permittedHostDevices/),
      },
    ]);
    const permitted = planModel(
      model({
        fleets: [fleet('f', gpuHosts, { permittedHostDevices: [{ resourceName: 'nvidia.com/gpu', pciVendorSelector: '10de:2236' }] })],
        quotas: [quota('q', 'f', { cpu: 64, memory: '256Gi', 'nvidia.com/gpu': 1 })],
        nodePools: [gpuPool],
      }),
    );
    expect(permitted.errors).toEqual([]);
    expect(permitted.vms[0].launcher.requests['nvidia.com/gpu'].toString()).toBe('1');
    expect(permitted.vms[0].eviction.migratable).toBe(false);
  });

  it('finds fragmentation: the quota fits by sums but the VMs cannot all be placed', () => {
    const errors = errorsOf(
      model({
        fleets: [fleet('f', hosts(3, roomForVms({ cpu: 16, memory: '64Gi', disk: '1Ti' })))],
        quotas: [quota('q', 'f', { cpu: 48, memory: '192Gi' }, { liveMigrations: 0 })],
        nodePools: [pool('wide', 'q', { cpu: 10, memory: '40Gi', disk: '10Gi' }, 4)],
      }),
    );
    expect(errors).toEqual([
      {
        path: 'nodePools[0].count',
        message: expect.stringMatching(
          /^1 of 4 nodes of pool "wide" .* cannot be placed on fleet "f": the quotas fit by sums.*largest node that still fits on one host is cpu: 5, memory: 2[23](\.\d)? Gi/,
        ),
      },
    ]);
  });

  it('rejects bad names with the rule and an example', () => {
    const errors = errorsOf(model({ fleets: [fleet('Fleet_1', hosts(1, big))] }));
    expect(errors).toEqual([{ path: 'fleets[0].name', message: expect.stringMatching(/"Fleet_1" must consist of lower-case letters.*"team-a"/) }]);
  });

  it('rejects bad quantities, naming the exact path', () => {
    const errors = errorsOf(model({ fleets: [fleet('f', hosts(1, big))], quotas: [quota('q', 'f', { cpu: 4, memory: '12 GB' })] }));
    expect(errors).toEqual([{ path: 'quotas[0].limits.memory', message: expect.stringMatching(/"12 GB" is not a Kubernetes quantity.*32Gi/) }]);
  });

  it('rejects fractional vCPUs for a VM', () => {
    const errors = errorsOf(
      model({
        fleets: [fleet('f', hosts(1, big))],
        quotas: [quota('q', 'f', { cpu: 4, memory: '16Gi' })],
        nodePools: [pool('p', 'q', { cpu: '1500m', memory: '2Gi', disk: '10Gi' }, 1)],
      }),
    );
    expect(errors).toEqual([{ path: 'nodePools[0].shape.cpu', message: 'a VM gets whole vCPUs: got 1500m; use 2' }]);
  });

  it('rejects unknown references, listing what exists', () => {
    const errors = errorsOf(
      model({
        fleets: [fleet('f', hosts(1, big))],
        quotas: [quota('q', 'nope', { cpu: 4, memory: '16Gi' })],
        nodePools: [pool('p', 'missing', { cpu: 2, memory: '2Gi', disk: '10Gi' }, 1, { cluster: 'other' })],
      }),
    );
    expect(errors).toEqual([
      { path: 'quotas[0].fleet', message: 'no fleet named "nope"; known: f' },
      { path: 'nodePools[0].quota', message: 'no quota named "missing"; known: q' },
      { path: 'nodePools[0].cluster', message: 'no cluster named "other"; known: prod' },
    ]);
  });

  it('rejects a cluster whose CA is not a certificate', () => {
    const errors = errorsOf({ clusters: [cluster('prod', { caCertificate: 'nope', endpoint: 'http://x' })] });
    expect(errors.map((e) => e.path)).toEqual(['clusters[0].endpoint', 'clusters[0].caCertificate']);
  });

  it('claims GPU hosts for a private pool that names a GPU node type, one host per node', () => {
    const gpuHost = (name: string, state = 'available') => ({
      name,
      labels: { class: 'gpu' },
      state,
      capacity: { cpu: 96, memory: '1Ti', 'nvidia.com/gpu': 8 },
    });
    const m = model({
      nodeProviders: [
        {
          name: 'metal',
          kind: 'metal3',
          hosts: [gpuHost('gpu-01'), gpuHost('gpu-02'), gpuHost('gpu-03', 'provisioned')],
          nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }],
        },
      ],
      privateNodePools: [
        {
          name: 'train',
          cluster: 'prod',
          provider: 'metal',
          nodeType: 'gpu-node',
          count: 2,
          image: { url: 'https://images.example/ubuntu.img', checksum: 'https://images.example/ubuntu.img.sha256' },
        },
      ],
    });
    const plan = planModel(m);
    expect(plan.errors).toEqual([]);
    const pool = plan.report.pools.find((p) => p.name === 'train')!;
    expect(pool.kind).toBe('private');
    expect(pool.nodes.map((n) => n.host)).toEqual(['gpu-01', 'gpu-02']);
    const over = planModel({ ...m, privateNodePools: [{ ...m.privateNodePools![0], count: 3 }] });
    expect(over.errors.map((e) => e.message).join('\n')).toMatch(/2 matching host\(s\) free/);
  });

  it('uses construct paths when it is given them', () => {
    const plan = planModel({ fleets: [fleet('BAD', hosts(1, big))] }, { paths: { fleets: ['provider/BAD'] } });
    expect(plan.errors[0].path).toBe('provider/BAD.name');
  });

  it('plans the example config: it fits', () => {
    const plan = planModel(loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml')));
    expect(plan.errors).toEqual([]);
    expect(plan.report.fleets[0].hosts).toBe(14);
    expect(plan.report.quotas.map((q) => q.name)).toEqual(['team-a', 'team-b', 'research']);
    expect(plan.report.pools.flatMap((p) => p.nodes).every((n) => n.host !== null)).toBe(true);
  });

  it('is deterministic: the same model gives the same report', () => {
    const m = loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'));
    expect(JSON.stringify(planModel(m).report)).toBe(JSON.stringify(planModel(m).report));
  });
});

describe('spread placement as kube-scheduler will carry it out', () => {
  const host16 = roomForVms({ cpu: 16, memory: '64Gi', disk: '1Ti' });
  const fleet6 = () => fleet('f', hosts(6, host16), { reservedPerHost: { cpu: 1, memory: '2Gi' } });
  const roomy = () => quota('q', 'f', { cpu: 90, memory: '372Gi', disk: '6Ti' }, { liveMigrations: 0 });

  it('mixed sizes whose even spread fits every host stay spread; a fleet too full for a drain says so', () => {
    // 30 small + 6 large over 6 hosts: at most 5 small and 1 large per host, whatever the order.
    const plan = planModel(
      model({
        fleets: [fleet6()],
        quotas: [roomy()],
        nodePools: [pool('small', 'q', { cpu: 1, memory: '2Gi', disk: '20Gi' }, 30), pool('large', 'q', { cpu: 8, memory: '32Gi', disk: '50Gi' }, 6)],
      }),
    );
    expect(plan.errors).toEqual([]);
    expect(plan.vms.every((vm) => vm.placement === 'spread' && vm.eviction.strategy === 'LiveMigrate')).toBe(true);
    expect(plan.report.pools.map((p) => p.launcher?.placement)).toEqual(['spread', 'spread']);
    // Every host holds 5 small and 1 large (13 of 15 CPUs): a drained host's large VM (8) fits nowhere, and
    // a small one does, but not all five (spread over 5 hosts, 6 small and 2 large could land on one).
    expect(plan.report.pools.map((p) => p.launcher?.group)).toEqual([
      { size: 6, perHost: 5, migrationTargets: 5, wholeDrain: false },
      { size: 6, perHost: 1, migrationTargets: 0, wholeDrain: false },
    ]);
    expect(plan.warnings).toEqual([
      {
        path: 'nodePools[0].count',
        message: expect.stringMatching(/^pool "small": a drained host's first VM has a migration target in its group of 6, but not every VM/),
      },
      { path: 'nodePools[1].count', message: expect.stringMatching(/^pool "large": no host of its group of 6 is certain to have room/) },
      // The same full hosts hold no surge VM of large: its roll goes one node out of service at a time.
      { path: 'nodePools[1].rollout', message: expect.stringContaining('it rolls with {maxSurge: 0, maxUnavailable: 1} instead') },
    ]);
    expect(plan.report.pools.map((p) => [p.rollout?.maxSurge, p.rollout?.maxUnavailable])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('confines a pool whose fleet-wide spread could overfill a host to a group, and pins only what no group takes', () => {
    // 7 VMs of 7 vCPUs over 6 hosts: kube-scheduler may put two on one host, and one tiny VM more would not
    // fit. Over 5 hosts (2 each, 14 of 15 CPUs) big keeps live migration; the tiny pool fits only the sixth.
    const plan = planModel(
      model({
        fleets: [fleet6()],
        quotas: [roomy()],
        nodePools: [pool('big', 'q', { cpu: 7, memory: '8Gi', disk: '20Gi' }, 7), pool('tiny', 'q', { cpu: 1, memory: '2Gi', disk: '20Gi' }, 6)],
      }),
    );
    expect(plan.errors).toEqual([]);
    const big = plan.vms.filter((vm) => vm.pool === 'big');
    const group = big[0].hostGroup!;
    expect(big.every((vm) => vm.placement === 'spread' && vm.eviction.strategy === 'LiveMigrate')).toBe(true);
    expect(group.size).toBe(5);
    expect(group.perHost).toBe(2);
    expect(group.migrationTargets).toBeGreaterThan(0);
    expect(big.every((vm) => group.hosts!.includes(vm.host!))).toBe(true);
    const tiny = plan.vms.filter((vm) => vm.pool === 'tiny');
    expect(tiny.every((vm) => vm.placement === 'planned' && vm.eviction.strategy === 'None' && !group.hosts!.includes(vm.host!))).toBe(true);
    expect(tiny[0].eviction.reason).toMatch(/pinned to its planned host \(no group of hosts proves/);
    expect(plan.warnings).toEqual([
      { path: 'fleets[0]', message: expect.stringMatching(/^pool "tiny" \(6\) pinned to planned hosts: no group of the 6 hosts/) },
    ]);
  });

  const migrationFleet = (hostCount: number) =>
    model({
      // 64 CPUs less virt-handler's 10m: 40 + 24 vCPUs and their launcher overhead do not fit on one host.
      fleets: [fleet('f', hosts(hostCount, { cpu: 64, memory: '256Gi', disk: '2Ti' }), { reservedPerHost: { memory: '1Gi' } })],
      quotas: [quota('q', 'f', { cpu: 300, memory: '1Ti', disk: '4Ti' })],
      nodePools: [
        pool('p16', 'q', { cpu: 16, memory: '32Gi', disk: '50Gi' }, 4),
        pool('p24', 'q', { cpu: 24, memory: '48Gi', disk: '50Gi' }, 3),
        pool('p40', 'q', { cpu: 40, memory: '80Gi', disk: '50Gi' }, 2),
      ],
    });

  it('the 6 x 64-CPU fleet with pools of 4 x 16, 3 x 24 and 2 x 40 vCPUs: every pool in a group, every VM with a migration target', () => {
    const plan = planModel(migrationFleet(6));
    expect(plan.errors).toEqual([]);
    // No grouping proves that a whole host drains: 40 and 24 vCPUs never share a host, so 2 x 40 take three
    // hosts and 3 x 24 the other three, and 16 vCPUs more on a host of either leaves too little room after a
    // drain. Each pool is told so.
    expect(plan.warnings.map((w) => w.message.replace(/ in its group of.*/, ''))).toEqual(
      ['p40', 'p24', 'p16'].map((name) => `pool "${name}": a drained host's first VM has a migration target`),
    );
    expect(plan.vms.every((vm) => vm.placement === 'spread' && vm.eviction.strategy === 'LiveMigrate')).toBe(true);
    const groupOf = (name: string) => plan.vms.find((vm) => vm.pool === name)!.hostGroup!;
    for (const name of ['p16', 'p24', 'p40']) expect(groupOf(name).migrationTargets).toBeGreaterThan(0);
    // 40 and 24 vCPUs never share a host (64 CPUs and their launcher overhead do not fit): their groups are apart.
    expect(groupOf('p40').hosts!.filter((h) => groupOf('p24').hosts!.includes(h))).toEqual([]);
    // And no host's worst case (ceil(n / group) VMs of every pool whose group holds it) exceeds 64 CPUs.
    for (const h of plan.fleets[0].hosts) {
      const worst = ['p16', 'p24', 'p40'].reduce((t, name) => {
        const g = groupOf(name);
        const vm = plan.vms.find((v) => v.pool === name)!;
        return t + (g.hosts!.includes(h.name) ? g.perHost * Number(vm.launcher.requests.cpu.ceilMillis()) : 0);
      }, 0);
      expect(worst).toBeLessThanOrEqual(Number(h.allocatable.cpu.ceilMillis()));
    }
  });

  it('with a seventh host, every pool of that fleet proves a whole drain: any host drains and all its VMs have room in their groups', () => {
    const plan = planModel(migrationFleet(7));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings).toEqual([]);
    const groups = ['p16', 'p24', 'p40'].map((name) => plan.vms.find((vm) => vm.pool === name)!.hostGroup!);
    expect(groups.map((g) => g.wholeDrain)).toEqual([true, true, true]);
    // The proof, by hand: drain any host; each pool spreads over the rest of its group (ceil(n / (G - 1)) per
    // host at most), and every other host's worst case with all those pools raised still fits its 64 CPUs.
    const cpu = (name: string) => Number(plan.vms.find((v) => v.pool === name)!.launcher.requests.cpu.ceilMillis());
    const counts = { p16: 4, p24: 3, p40: 2 } as const;
    for (const drained of plan.fleets[0].hosts) {
      for (const h of plan.fleets[0].hosts) {
        if (h === drained) continue;
        const worst = (['p16', 'p24', 'p40'] as const).reduce((t, name, i) => {
          const g = groups[i];
          if (!g.hosts!.includes(h.name)) return t;
          const per = g.hosts!.includes(drained.name) ? Math.ceil(counts[name] / (g.size - 1)) : g.perHost;
          return t + per * cpu(name);
        }, 0);
        expect(worst).toBeLessThanOrEqual(Number(h.allocatable.cpu.ceilMillis()));
      }
    }
  });

  it('refuses live migration for a pinned pool: a drain would wait for a host the affinity forbids', () => {
    const errors = errorsOf(
      model({
        fleets: [fleet6()],
        quotas: [roomy()],
        nodePools: [pool('db', 'q', { cpu: 2, memory: '4Gi', disk: '20Gi' }, 2, { placement: 'planned', vm: { evictionStrategy: 'LiveMigrate' } })],
      }),
    );
    expect(errors).toEqual([{ path: 'nodePools[0].vm.evictionStrategy', message: expect.stringMatching(/placement: planned pins each VM to one host/) }]);
  });

  it('a pool that asks for live migration is never pinned; when no group proves its spread the plan says so', () => {
    // Both pools ask for live migration: big needs 5 hosts, and tiny then fits only the sixth (no group of one).
    const errors = errorsOf(
      model({
        fleets: [fleet6()],
        quotas: [roomy()],
        nodePools: [
          pool('big', 'q', { cpu: 7, memory: '8Gi', disk: '20Gi' }, 7, { vm: { evictionStrategy: 'LiveMigrate' } }),
          pool('tiny', 'q', { cpu: 1, memory: '2Gi', disk: '20Gi' }, 6, { vm: { evictionStrategy: 'LiveMigrate' } }),
        ],
      }),
    );
    expect(errors).toEqual([{ path: 'nodePools[0].count', message: expect.stringMatching(/kube-scheduler could leave VMs of fleet "f" pending/) }]);
  });
});
