import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { parseConfigText, readInventoryFile } from '../../constructs/core/input/config';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { hostGroupLabel } from '../../constructs/core/naming/derived';
import {
  BareMetalHostObject,
  buildInventory,
  hostFromBareMetalHost,
  hostFromNode,
  NodeObject,
  PodObject,
  UNKNOWN_HOST_STATE,
} from '../../constructs/core/hosts/inventory';
import { hostUnavailableReason } from '../../constructs/core/auto/node-types';
import { stableJson } from '../../constructs/core/report';
import { runInventory } from '../../constructs/cli/inventory';

const node = (name: string, capacity: Record<string, string>, labels: Record<string, string> = {}): NodeObject => ({
  metadata: { name, labels },
  status: { capacity, allocatable: capacity },
});

const bmh = (
  name: string,
  extra: Partial<{ state: string; consumer: { name: string; namespace?: string }; error: string; labels: Record<string, string> }> = {},
): BareMetalHostObject => ({
  metadata: { name, namespace: 'metal3', labels: extra.labels ?? { class: 'gpu' } },
  spec: extra.consumer ? { consumerRef: { kind: 'HostClaim', ...extra.consumer } } : {},
  status: {
    errorMessage: extra.error ?? '',
    provisioning: { state: extra.state ?? 'available' },
    hardware: { cpu: { count: 96 }, ramMebibytes: 1048576, storage: [{ sizeBytes: 1920383410176 }, { sizeBytes: 1920383410176 }] },
  },
});

describe('hostFromNode', () => {
  it('takes cpu, memory, ephemeral-storage as disk and qualified extended resources, in canonical form', () => {
    const host = hostFromNode(
      node(
        'bm-01',
        { cpu: '64', memory: '536870912Ki', 'ephemeral-storage': '3840Gi', 'nvidia.com/gpu': '4', pods: '110', 'hugepages-2Mi': '0', 'example.com/none': '0' },
        { zone: 'a', 'kubernetes.io/hostname': 'bm-01' },
      ),
    );
    expect(host).toEqual({
      name: 'bm-01',
      labels: { 'kubernetes.io/hostname': 'bm-01', zone: 'a' },
      capacity: { cpu: '64', memory: '512Gi', disk: '3840Gi', 'nvidia.com/gpu': '4', pods: '110' },
      allocatable: { cpu: '64', memory: '512Gi', disk: '3840Gi', 'nvidia.com/gpu': '4', pods: '110' },
    });
    expect(Object.keys(host.capacity)).toEqual(['cpu', 'memory', 'disk', 'nvidia.com/gpu', 'pods']);
  });

  it("leaves out the host group labels metalslice wrote (the plan's output), and keeps every other label", () => {
    const labels = { 'group.metalslice.io/prod.web': 'true', 'metalslice.io/pool': 'x', 'example.com/group.metalslice.io': 'y', zone: 'a' };
    expect(hostFromNode(node('bm-01', { cpu: '4', memory: '8Gi' }, labels)).labels).toEqual({
      'example.com/group.metalslice.io': 'y',
      'metalslice.io/pool': 'x',
      zone: 'a',
    });
  });

  it('keeps the host groups apart from the labels: group keys at "true" that a config may hold, sorted', () => {
    const labels = {
      'group.metalslice.io/prod.web': 'true',
      'group.metalslice.io/prod.auto.db': 'true',
      // Not a group of metalslice's: another value (the VMs select "true"), and a key the config schema refuses.
      'group.metalslice.io/prod.batch': 'yes',
      'group.metalslice.io/-bad': 'true',
      zone: 'a',
    };
    const host = hostFromNode(node('bm-01', { cpu: '4', memory: '8Gi' }, labels));
    expect(host.hostGroups).toEqual(['group.metalslice.io/prod.auto.db', 'group.metalslice.io/prod.web']);
    expect(host.labels).toEqual({ zone: 'a' });
    // A Node in no group gets no field, so an inventory of a fleet not yet grouped reads as before.
    expect('hostGroups' in hostFromNode(node('bm-02', { cpu: '4', memory: '8Gi' }, { zone: 'a' }))).toBe(false);
  });

  it('reads back every key hostGroupLabel writes, a shortened long name too, and a config refuses any other by path and fix', () => {
    const name = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,60}[a-z0-9])?$/);
    fc.assert(
      fc.property(name, name, fc.boolean(), (cluster, pool, auto) => {
        const key = hostGroupLabel(cluster, pool, auto ? 'auto' : 'elastic');
        expect(hostFromNode(node('bm-01', { cpu: '4', memory: '8Gi' }, { [key]: 'true' })).hostGroups).toEqual([key]);
      }),
      { numRuns: 200, seed: 8 },
    );
    const host = { name: 'bm-01', capacity: { cpu: 4, memory: '8Gi' }, hostGroups: ['group.metalslice.io/prod.web', 'zone'] };
    let issues: readonly { path: string; message: string }[] = [];
    try {
      parseConfigText(JSON.stringify({ apiVersion: 'metalslice.io/v1alpha1', fleets: [{ name: 'f', hosts: [host] }] }), 'c.json');
    } catch (e) {
      issues = (e as MetalsliceError).issues;
    }
    expect(issues.map((i) => i.path)).toEqual(['fleets[0].hosts[0].hostGroups[1]']);
    expect(issues[0].message).toMatch(/host group label key .*: remove it, or run `metalslice inventory` again/);
  });

  it('falls back to allocatable when a node reports no capacity', () => {
    expect(hostFromNode({ metadata: { name: 'n' }, status: { allocatable: { cpu: '4', memory: '8Gi' } } }).capacity).toEqual({ cpu: '4', memory: '8Gi' });
  });
});

describe('hostFromBareMetalHost', () => {
  it('takes the inspected CPU count, RAM and the sum of the disks, with state', () => {
    expect(hostFromBareMetalHost(bmh('gpu-01'))).toEqual({
      name: 'gpu-01',
      labels: { class: 'gpu' },
      capacity: { cpu: '96', memory: '1Ti', disk: '3750748848Ki' },
      state: 'available',
    });
  });

  it('records the consumer (namespace/name of the claim) and the error, which make the host unusable', () => {
    const held = hostFromBareMetalHost(bmh('gpu-02', { state: 'provisioned', consumer: { name: 'prod-gpu-0', namespace: 'prod-metal' } }));
    expect(held.consumer).toBe('prod-metal/prod-gpu-0');
    expect(hostUnavailableReason(held)).toMatch(/held by prod-metal\/prod-gpu-0/);
    const broken = hostFromBareMetalHost(bmh('gpu-03', { state: 'registering', error: 'BMC unreachable' }));
    expect(broken.errorMessage).toBe('BMC unreachable');
    expect(hostUnavailableReason(broken)).toMatch(/in error: BMC unreachable/);
  });

  it('marks a host the operator has not reported on as unknown, never as available', () => {
    const fresh = hostFromBareMetalHost({ metadata: { name: 'new-01' } });
    expect(fresh).toEqual({ name: 'new-01', labels: {}, capacity: {}, state: UNKNOWN_HOST_STATE });
    expect(hostUnavailableReason(fresh)).toBeDefined();
  });
});

describe('buildInventory', () => {
  it('sorts hosts by name and merges a BareMetalHost that is also a Node', () => {
    const inv = buildInventory(
      [node('bm-02', { cpu: '32', memory: '128Gi' }, { zone: 'b' }), node('bm-01', { cpu: '64', memory: '256Gi' }, { class: 'node' })],
      [bmh('gpu-01'), bmh('bm-01', { state: 'externally provisioned', labels: { class: 'virt', rack: 'r1' } })],
    );
    expect(inv.hosts.map((h) => h.name)).toEqual(['bm-01', 'bm-02', 'gpu-01']);
    expect(inv.hosts[0]).toEqual({
      name: 'bm-01',
      labels: { class: 'node', rack: 'r1' },
      capacity: { cpu: '64', memory: '256Gi' },
      allocatable: { cpu: '64', memory: '256Gi' },
      state: 'externally provisioned',
    });
  });

  it('records what kube-scheduler reads of a Node: allocatable, taints, cordon and a Ready condition that is not True', () => {
    const host = hostFromNode({
      metadata: { name: 'cp-1' },
      spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], unschedulable: true },
      status: {
        capacity: { cpu: '16', memory: '64Gi', pods: '110' },
        allocatable: { cpu: '15500m', memory: '65433Mi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'Unknown' }],
      },
    });
    expect(host).toEqual({
      name: 'cp-1',
      labels: {},
      capacity: { cpu: '16', memory: '64Gi', pods: '110' },
      allocatable: { cpu: '15500m', memory: '65433Mi', pods: '110' },
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      unschedulable: true,
      ready: false,
    });
  });

  it("sums each Node's bound pods as kube-scheduler does, leaving out finished pods, and keeps virt-handler and metalslice's launcher pods apart", () => {
    const pod = (name: string, extra: Partial<PodObject['spec']>, labels: Record<string, string> = {}, phase = 'Running'): PodObject => ({
      metadata: { name, namespace: 'ns', labels },
      spec: { nodeName: 'bm-01', ...extra },
      status: { phase },
    });
    const requests = (cpu: string, memory: string) => ({ resources: { requests: { cpu, memory } } });
    const inv = buildInventory(
      [node('bm-01', { cpu: '64', memory: '256Gi' })],
      [],
      [
        // Containers summed; a plain init container counts only where it is larger; a limit alone is the request.
        pod('app', { containers: [requests('1', '1Gi'), { resources: { limits: { cpu: '500m', memory: '512Mi' } } }], initContainers: [requests('4', '1Gi')] }),
        // A sidecar (restartable init container) runs beside the containers: summed; the overhead is added.
        pod('mesh', {
          containers: [requests('1', '1Gi')],
          initContainers: [{ ...requests('250m', '256Mi'), restartPolicy: 'Always' }],
          overhead: { cpu: '10m' },
        }),
        pod('handler', { containers: [requests('10m', '325Mi')] }, { 'kubevirt.io': 'virt-handler' }),
        pod('done', { containers: [requests('30', '30Gi')] }, {}, 'Succeeded'),
        pod(
          'virt-launcher-w-0-abcde',
          { containers: [requests('2', '4Gi')] },
          { 'kubevirt.io': 'virt-launcher', 'metalslice.io/pool': 'w', 'kubevirt.io/vm': 'w-0' },
        ),
      ],
    );
    expect(inv.hosts[0].pods).toEqual({
      count: 3,
      // app: max(1.5 CPU of containers, 4 of its init container) = 4, 1.5Gi; mesh 1.26 CPU, 1.25Gi; handler 10m, 325Mi.
      requests: { cpu: '5270m', memory: '3141Mi' },
      virtHandler: true,
      virtualMachines: [{ name: 'ns/w-0', requests: { cpu: '2', memory: '4Gi' } }],
    });
  });

  it('is deterministic: the same objects in any order give the same bytes', () => {
    const nodes = [node('a', { cpu: '1', memory: '1Gi' }, { y: '1', x: '2' }), node('b', { cpu: '2', memory: '2Gi' })];
    const hosts = [bmh('c'), bmh('d', { state: 'provisioned', consumer: { name: 'x' } })];
    expect(stableJson(buildInventory([...nodes].reverse(), [...hosts].reverse()))).toBe(stableJson(buildInventory(nodes, hosts)));
  });

  it('writes a file readInventoryFile reads back as the same hosts', () => {
    const inv = buildInventory(
      [node('bm-01', { cpu: '64', memory: '256Gi', 'ephemeral-storage': '1Ti' })],
      [bmh('gpu-01', { state: 'provisioned', consumer: { name: 'c' }, error: 'x' })],
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inv-')), 'inventory.json');
    fs.writeFileSync(file, stableJson(inv));
    expect(readInventoryFile(file, 'fleets[0].hostsFile')).toEqual(inv.hosts);
  });
});

describe('runInventory', () => {
  it('fails with exit 2 (unreadable input) and says why when the kubeconfig cannot be read', async () => {
    const err: string[] = [];
    const code = await runInventory({ kubeconfig: '/nonexistent/kubeconfig' }, { stdout: () => undefined, stderr: (s) => err.push(s) });
    expect(code).toBe(2);
    expect(err.join('')).toMatch(/cannot read kubeconfig \/nonexistent\/kubeconfig/);
  });

  it('finds the kubeconfig as kubectl does: $KUBECONFIG (a list, merged) when --kubeconfig is not given', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kc-'));
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    fs.writeFileSync(
      a,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: first, context: {cluster: c, user: u}}]\ncurrent-context: first\n',
    );
    fs.writeFileSync(
      b,
      'apiVersion: v1\nkind: Config\nclusters: [{name: d, cluster: {server: "https://127.0.0.1:2"}}]\nusers: [{name: v, user: {}}]\ncontexts: [{name: second, context: {cluster: d, user: v}}]\n',
    );
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = `${a}${path.delimiter}${b}`;
    try {
      // A context from the second file is found (so both were read), and an unknown one lists both.
      const err: string[] = [];
      expect(await runInventory({ context: 'nope' }, { stdout: () => undefined, stderr: (s) => err.push(s) })).toBe(1);
      expect(err.join('')).toMatch(/no context "nope" in \$KUBECONFIG .*contexts: first, second/);
      const reached: string[] = [];
      expect(await runInventory({ context: 'second' }, { stdout: () => undefined, stderr: (s) => reached.push(s) })).toBe(1);
      expect(reached.join('')).toMatch(/reading https:\/\/127\.0\.0\.1:2 failed/);
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });

  it('fails with exit 1 naming the contexts there are when --context is unknown', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kc-')), 'kubeconfig');
    fs.writeFileSync(
      file,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: main, context: {cluster: c, user: u}}]\ncurrent-context: main\n',
    );
    const err: string[] = [];
    const code = await runInventory({ kubeconfig: file, context: 'other' }, { stdout: () => undefined, stderr: (s) => err.push(s) });
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/no context "other".*contexts: main/);
  });
});
