/**
 * Node claim properties with vCluster Platform's precedence (claim over node type over provider), carried
 * into the VM: the root disk's size (counted against the quota) and the image it is filled from.
 */
import { describe, expect, it } from '@jest/globals';
import { planModel } from '../../constructs/core/plan';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { renderVirtualMachine } from '../../constructs/render/kubevirt';
import { cluster, EXAMPLE_CA, fleet, hosts, quota } from '../support/models';
import { parseConfigText } from '../../constructs/core/input/config';
import type { VirtualMachineDoc } from '../support/kube-docs';
import { PlannedVm } from '../../constructs/core/vm/vm';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';

const renderedVm = (vm: PlannedVm): VirtualMachineDoc => renderVirtualMachine(vm, { userDataSecret: 'x' }) as unknown as VirtualMachineDoc;

function model(providerProps: Record<string, string>, typeProps: Record<string, string>, claimProps?: Record<string, string>): MetalsliceConfig {
  return {
    fleets: [fleet('fra1', hosts(2, { cpu: 64, memory: '256Gi', disk: '4Ti' }))],
    quotas: [quota('q', 'fra1', { cpu: 32, memory: '128Gi', disk: '1Ti' })],
    clusters: [cluster('prod')],
    nodeProviders: [
      {
        name: 'virt',
        kind: 'kubevirt',
        fleet: 'fra1',
        properties: providerProps,
        nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' }, properties: typeProps }],
      },
    ],
    autoNodes: [{ cluster: 'prod', provider: 'virt', quota: 'q', ...(claimProps ? { properties: claimProps } : {}), static: [{ name: 'base', quantity: 2 }] }],
  };
}
const DISK = 'kubevirt.vcluster.com/root-disk-size';
const URL = 'kubevirt.vcluster.com/image-url';

describe('node claim properties', () => {
  it("take the claim's value over the node type's over the provider's", () => {
    const diskOf = (m: MetalsliceConfig) => planModel(m).vms.map((v) => v.shape.disk?.toString());
    expect(diskOf(model({ [DISK]: '10Gi' }, {}))).toEqual(['10Gi', '10Gi']);
    expect(diskOf(model({ [DISK]: '10Gi' }, { [DISK]: '20Gi' }))).toEqual(['20Gi', '20Gi']);
    expect(diskOf(model({ [DISK]: '10Gi' }, { [DISK]: '20Gi' }, { [DISK]: '40Gi' }))).toEqual(['40Gi', '40Gi']);
  });

  it('give the VM a DataVolume root disk of that size, counted against the quota', () => {
    const plan = planModel(model({}, {}, { [DISK]: '40Gi', [URL]: 'docker://quay.io/containerdisks/ubuntu:22.04' }));
    expect(plan.errors).toEqual([]);
    const vm = plan.vms[0];
    expect(vm.rootDisk).toBe('dataVolume');
    expect(vm.quotaDemand.disk?.toString()).toBe('40Gi');
    expect(plan.report.quotas[0].allocated).toMatchObject({ disk: '80Gi' });
    const rendered = renderVirtualMachine(vm, { userDataSecret: 'x' }) as unknown as { spec: { dataVolumeTemplates: { spec: Record<string, unknown> }[] } };
    expect(rendered.spec.dataVolumeTemplates[0].spec).toMatchObject({
      source: { registry: { url: 'docker://quay.io/containerdisks/ubuntu:22.04' } },
      storage: { resources: { requests: { storage: '40Gi' } } },
    });
  });

  it('fill the root disk from an http image or a CDI DataSource (which wins when both are set)', () => {
    const http = planModel(model({}, {}, { [DISK]: '30Gi', [URL]: 'https://images.example.com/ubuntu.qcow2' })).vms[0];
    expect(renderedVm(http).spec.dataVolumeTemplates?.[0].spec.source).toEqual({ http: { url: 'https://images.example.com/ubuntu.qcow2' } });
    const ds = planModel(model({ 'kubevirt.vcluster.com/image-datasource': 'os-images/ubuntu' }, {}, { [DISK]: '30Gi', [URL]: 'https://x.example/i.qcow2' }))
      .vms[0];
    expect(renderedVm(ds).spec.dataVolumeTemplates?.[0].spec.sourceRef).toEqual({ kind: 'DataSource', name: 'ubuntu', namespace: 'os-images' });
  });

  it('refuse an image without a root-disk size, a bad size and a bad URL, at the place they are written', () => {
    expect(planModel(model({}, {}, { [URL]: 'docker://x/y:1' })).errors).toEqual([
      { path: `autoNodes[0].properties["${URL}"]`, message: expect.stringContaining(`needs ${DISK}`) },
    ]);
    expect(planModel(model({}, { [DISK]: '40' }, {})).errors).toEqual([
      { path: `nodeProviders[0].nodeTypes[0].properties["${DISK}"]`, message: expect.stringContaining('is not a root-disk size') },
    ]);
    expect(planModel(model({}, {}, { [DISK]: '40Gi', [URL]: 'ftp://x/y' })).errors).toEqual([
      { path: `autoNodes[0].properties["${URL}"]`, message: expect.stringContaining('is not an image URL') },
    ]);
  });

  it("a claim's VM is built once: the plan's VMs are the build type selection weighed, for every pool of the example", () => {
    // Reference identity: a VM list that built the claim's VM again, from properties worked out a second way, would
    // hold other objects even where it computed equal values.
    const example = parseConfigText(fs.readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8'), 'metalslice.yaml');
    for (const plan of [planModel(example), planModel(model({ [DISK]: '10Gi' }, {}, { [DISK]: '30Gi' }))]) {
      const auto = plan.vms.filter((vm) => vm.origin !== 'elastic');
      expect(auto.length).toBeGreaterThan(0);
      for (const vm of auto) {
        const pool = plan.autoPools.find((p) => p.path === vm.poolPath)!;
        const candidate = pool.candidates.find((c) => c.name === vm.nodeType)!;
        expect({ vm: vm.name, same: vm.quotaDemand === candidate.vm?.quotaDemand && vm.launcher === candidate.vm?.launcher }).toEqual({
          vm: vm.name,
          same: true,
        });
      }
    }
  });

  it("a claim's bad property is reported once however many nodes and candidates its VM has", () => {
    const plan = planModel({
      ...model({}, {}, { [DISK]: '40' }),
      autoNodes: [{ cluster: 'prod', provider: 'virt', quota: 'q', properties: { [DISK]: '40' }, static: [{ name: 'base', quantity: 3 }] }],
    });
    expect(plan.errors).toEqual([{ path: `autoNodes[0].properties["${DISK}"]`, message: expect.stringContaining('is not a root-disk size') }]);
  });

  it('name the provider properties metalslice does not carry yet, once per place', () => {
    const plan = planModel(model({ 'kubevirt.vcluster.com/network-attachment-definition': 'vlan-10' }, {}, {}));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings.filter((w) => w.path.includes('network-attachment-definition'))).toEqual([
      { path: 'nodeProviders[0].properties["kubevirt.vcluster.com/network-attachment-definition"]', message: expect.stringContaining('does not carry') },
    ]);
  });
});

describe('properties metalslice does not apply, on every provider kind', () => {
  const NETRIS = 'netris.vcluster.com/server-cluster';
  const BCM = 'bcm.vcluster.com/network-name';
  const metal3Config = {
    clusters: [{ name: 'c1', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
    nodeProviders: [
      {
        name: 'metal',
        kind: 'metal3',
        hosts: [{ name: 'gpu-01', labels: { class: 'gpu' }, state: 'available', capacity: { cpu: 96, memory: '1Ti' } }],
        nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }],
      },
    ],
    autoNodes: [
      {
        cluster: 'c1',
        provider: 'metal',
        properties: {
          [NETRIS]: 'tenant-a',
          [BCM]: 'tenant-a-net',
          'metal3.vcluster.com/image-url': 'https://images.example.com/ubuntu.qcow2',
          'metal3.vcluster.com/image-checksum': 'https://images.example.com/ubuntu.qcow2.sha256sum',
        },
        static: [{ name: 'gpus', quantity: 1 }],
      },
    ],
  };

  it('names the network-isolation properties of a static pool on a metal3 provider (vMetal, Netris, BCM), not the image it applies', () => {
    const plan = planModel(parseConfigText(JSON.stringify(metal3Config), 'c.json'));
    expect(plan.errors).toEqual([]);
    expect(plan.warnings.filter((w) => w.message.includes('does not carry'))).toEqual([
      { path: `autoNodes[0].properties["${BCM}"]`, message: expect.stringMatching(/does not carry bcm.vcluster.com\/network-name into the bare-metal nodes/) },
      {
        path: `autoNodes[0].properties["${NETRIS}"]`,
        message: expect.stringMatching(/does not carry netris.vcluster.com\/server-cluster into the bare-metal nodes/),
      },
    ]);
  });

  it('names them on a kubevirt provider too', () => {
    const plan = planModel(model({}, {}, { [NETRIS]: 'tenant-a' }));
    expect(plan.warnings.filter((w) => w.message.includes('does not carry'))).toEqual([
      { path: `autoNodes[0].properties["${NETRIS}"]`, message: expect.stringContaining('into the VMs it renders') },
    ]);
  });
});
