// A host is in one place: never in two fleets, never in a fleet and a Metal3 pool.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { HostSpec, MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { cluster, fleet, hosts, quota } from '../support/models';

const box = { cpu: 32, memory: '128Gi' };

function errorsOf(m: MetalsliceConfig) {
  return planModel({ clusters: [cluster()], ...m }).errors;
}

describe('host owners', () => {
  it('refuses a host listed in two fleets, naming both', () => {
    const errors = errorsOf({ fleets: [fleet('a', hosts(2, box)), fleet('b', hosts(1, box))] });
    expect(errors).toEqual([
      { path: 'fleets[1].hosts[0]', message: expect.stringMatching(/host "bm-01" is already in fleet "a" \(fleets\[0\]\.hosts\[0\]\)/) },
    ]);
  });

  it('refuses two fleets reading one hostsFile whose selectors overlap, and accepts them when the selectors split it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'owners-'));
    const inventory: HostSpec[] = [
      { name: 'c-1', labels: { class: 'compute' }, capacity: box },
      { name: 'g-1', labels: { class: 'gpu' }, capacity: box },
    ];
    fs.writeFileSync(path.join(dir, 'hosts.json'), JSON.stringify({ hosts: inventory }));
    const write = (fleets: object[]) => {
      fs.writeFileSync(path.join(dir, 'c.json'), JSON.stringify({ fleets, clusters: [cluster()] }));
      return planModel(loadConfigFile(path.join(dir, 'c.json'))).errors;
    };
    expect(
      write([
        { name: 'a', hostsFile: 'hosts.json' },
        { name: 'b', hostsFile: 'hosts.json' },
      ]),
    ).toEqual([
      { path: 'fleets[1].hostsFile', message: expect.stringMatching(/host "c-1" is already in fleet "a" \(fleets\[0\]\.hostsFile\)/) },
      { path: 'fleets[1].hostsFile', message: expect.stringMatching(/host "g-1" is already in fleet "a"/) },
    ]);
    expect(
      write([
        { name: 'a', hostsFile: 'hosts.json', hostSelector: { class: 'compute' } },
        { name: 'b', hostsFile: 'hosts.json', hostSelector: { class: 'gpu' } },
      ]),
    ).toEqual([]);
  });

  it('refuses a fleet host that a Metal3 provider may claim whole for a tenant', () => {
    const shared: HostSpec = { name: 'gpu-01', labels: { class: 'gpu' }, capacity: { ...box, 'nvidia.com/gpu': 8 }, state: 'available' };
    const errors = errorsOf({
      fleets: [fleet('virt', [shared, ...hosts(1, box)])],
      quotas: [quota('q', 'virt', { cpu: 8, memory: '16Gi' })],
      nodeProviders: [{ name: 'metal', kind: 'metal3', hosts: [shared], nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }] }],
    });
    expect(errors).toEqual([
      {
        path: 'nodeProviders[0].hosts[0]',
        message: expect.stringMatching(/host "gpu-01" is already in fleet "virt" \(fleets\[0\]\.hosts\[0\]\): a host belongs to one fleet or one Metal3 pool/),
      },
    ]);
  });
});

describe('VMs already running', () => {
  const running = (name: string, cpu: number) => ({ name, requests: { cpu, memory: '8Gi' } });
  const m = (count: number): MetalsliceConfig => ({
    fleets: [
      {
        name: 'f',
        hosts: [
          {
            name: 'h1',
            capacity: { cpu: 16, memory: '64Gi', disk: '1Ti' },
            allocatable: { cpu: 16, memory: '64Gi', disk: '1Ti' },
            pods: { count: 0, requests: {}, virtualMachines: [running('other-ns/x-0', 8)] },
          },
          {
            name: 'h2',
            capacity: { cpu: 16, memory: '64Gi', disk: '1Ti' },
            allocatable: { cpu: 16, memory: '64Gi', disk: '1Ti' },
            pods: { count: 0, requests: {}, virtualMachines: [running('acme-q/w-0', 4), running('acme-q/w-1', 4)] },
          },
        ],
      },
    ],
    quotas: [quota('q', 'f', { cpu: 20, memory: '80Gi' }, { liveMigrations: 0 })],
    nodePools: [{ name: 'w', quota: 'q', cluster: 'prod', shape: { cpu: 3, memory: '6Gi', disk: '10Gi' }, count, rootDisk: 'containerDisk' }],
  });

  it("stay where they run, counted once; another owner's VM is a pod like any other", () => {
    const plan = planModel({ clusters: [cluster()], ...m(3) });
    expect(plan.errors).toEqual([]);
    const hostOf = Object.fromEntries(plan.vms.map((vm) => [vm.name, vm.host]));
    expect([hostOf['w-0'], hostOf['w-1']]).toEqual(['h2', 'h2']);
    // h1 gives VMs 16 less virt-handler less the other namespace's 8-CPU VM; h2 all of its 16 less virt-handler.
    const [h1, h2] = plan.fleets[0].hosts;
    expect([h1.allocatable.cpu.toString(), h2.allocatable.cpu.toString()]).toEqual(['7990m', '15990m']);
  });
});
