import { describe, expect, test } from '@jest/globals';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import { buildReplay, creationOrder, KUBEVIRT_DEVICES, KWOK_NODE_LABEL, launcherPodName, seededShuffle } from '../../constructs/verify/replay';
import { renderVirtualMachine } from '../../constructs/render/kubevirt';
import { launcherScheduling } from '../../constructs/core/kubevirt/launcher';
import type { RenderedVm } from '../support/kube-docs';

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml');

describe('verify replay', () => {
  const plan = planModel(loadConfigFile(EXAMPLE));
  const replay = buildReplay(plan);
  const concrete = plan.vms.filter((vm) => vm.concrete);

  test("one Node per fleet host, with the Node's capacity, its allocatable less reservedPerHost, KubeVirt devices, and virt-handler bound to it", () => {
    const hosts = plan.fleets.flatMap((f) => f.hosts);
    expect(replay.nodes.map((n) => n.metadata.name)).toEqual(hosts.map((h) => h.name));
    for (const [i, node] of replay.nodes.entries()) {
      const host = hosts[i];
      expect(node.metadata.labels['kubernetes.io/hostname']).toBe(host.name);
      expect(node.metadata.labels[KWOK_NODE_LABEL]).toBe('kwok');
      for (const [k, v] of Object.entries(host.labels)) expect(node.metadata.labels[k]).toBe(v);
      expect(node.spec.taints).toBeUndefined();
      expect(node.status.capacity.cpu).toBe(host.capacity.cpu.toString());
      expect(node.status.capacity.memory).toBe(host.capacity.memory.toString());
      // What kube-scheduler sees free on the Node once virt-handler is bound is what the plan gave VMs.
      const bound = replay.boundPods.filter((p) => p.spec.nodeName === host.name);
      expect(bound.map((p) => p.metadata.labels?.['kubevirt.io'])).toEqual(['virt-handler']);
      const requests = (bound[0].spec.containers[0] as { resources: { requests: Record<string, string> } }).resources.requests;
      const free = (r: 'cpu' | 'memory') => Quantity.parse(node.status.allocatable[r]).sub(Quantity.parse(requests[r]));
      expect(free('cpu').eq(host.allocatable.cpu)).toBe(true);
      expect(free('memory').eq(host.allocatable.memory)).toBe(true);
      expect(Quantity.parse(node.status.allocatable.pods).sub(Quantity.fromUnits(1)).eq(host.allocatable.pods)).toBe(true);
      expect(node.status.allocatable.disk).toBeUndefined();
      for (const d of KUBEVIRT_DEVICES) expect(node.status.allocatable[d]).toBe('1000');
    }
  });

  test('hosts no VM can use are still Nodes, as the node lifecycle controller shows them: cordoned, tainted, NotReady (not kept alive by KWOK)', () => {
    const h = (name: string, extra: object) => ({ name, capacity: { cpu: 16, memory: '64Gi' }, allocatable: { cpu: 16, memory: '64Gi' }, ...extra });
    const m = planModel({
      fleets: [
        {
          name: 'f',
          hosts: [
            h('cordoned', { unschedulable: true }),
            h('tainted', { taints: [{ key: 'maintenance', effect: 'NoExecute' }] }),
            h('down', { ready: false }),
            h('busy', { pods: { count: 12, requests: { cpu: 3, memory: '6Gi' }, virtHandler: true } }),
          ],
        },
      ],
    });
    expect(m.fleets[0].hosts.map((x) => x.name)).toEqual(['busy']);
    const r = buildReplay(m);
    const node = (name: string) => r.nodes.find((n) => n.metadata.name === name)!;
    expect(node('cordoned').spec).toEqual({ taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }], unschedulable: true });
    expect(node('tainted').spec.taints).toEqual([{ key: 'maintenance', effect: 'NoExecute' }]);
    expect(node('down').spec.taints!.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
    ]);
    expect(node('down').metadata.labels[KWOK_NODE_LABEL]).toBeUndefined();
    expect(node('down').status.conditions).toEqual([{ type: 'Ready', status: 'False' }]);
    // What already runs on "busy" stands as one bound pod, and the Node has 11 pod slots fewer for the other 11.
    const busy = r.boundPods.filter((p) => p.spec.nodeName === 'busy');
    expect(busy.map((p) => p.metadata.name)).toEqual(['existing-busy']);
    expect((busy[0].spec.containers[0] as { resources: { requests: Record<string, string> } }).resources.requests).toEqual({ cpu: '3', memory: '6Gi' });
    expect(node('busy').status.allocatable.pods).toBe('99');
  });

  test('one Pod per concrete VM with the rendered scheduling fields and the launcher requests', () => {
    expect(replay.pods).toHaveLength(concrete.length);
    expect(concrete.length).toBeLessThan(plan.vms.length); // the example has dynamic pools: never rendered
    for (const [i, pod] of replay.pods.entries()) {
      const vm = concrete[i];
      const o = pod.object;
      expect(o.metadata.namespace).toBe(vm.namespace);
      expect(o.metadata.name).toBe(launcherPodName(vm.namespace, vm.name));
      expect(o.metadata.name).toMatch(new RegExp(`^virt-launcher-${vm.name}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(o.spec.schedulerName).toBe('default-scheduler');
      const rendered = renderVirtualMachine(vm, { userDataSecret: 'x', hostSelector: plan.fleets[0].spec.hostSelector }) as unknown as RenderedVm;
      const spec = rendered.spec.template.spec;
      // Exactly what virt-controller makes of the VM's fields (checked against KubeVirt in kubevirt-launcher.test.ts).
      const scheduling = launcherScheduling(spec);
      expect(o.spec.nodeSelector).toEqual(scheduling.nodeSelector);
      expect(o.spec.affinity).toEqual(scheduling.affinity);
      expect(o.spec.topologySpreadConstraints).toEqual(spec.topologySpreadConstraints);
      expect(o.spec.tolerations).toEqual(spec.tolerations);
      for (const [k, v] of Object.entries(rendered.spec.template.metadata.labels)) expect(o.metadata.labels[k]).toBe(v);
      expect(o.metadata.labels['kubevirt.io']).toBe('virt-launcher');
      expect(o.spec.containers).toHaveLength(1);
      const res = o.spec.containers[0].resources;
      expect(res.requests.cpu).toBe(vm.launcher.requests.cpu.toString());
      expect(res.requests.memory).toBe(vm.launcher.requests.memory.toString());
      for (const d of KUBEVIRT_DEVICES) expect(res.limits[d]).toBe('1');
      if (vm.placement === 'planned') {
        expect(o.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0].matchExpressions?.[0].values).toEqual([
          vm.host,
        ]);
      } else {
        expect(o.spec.topologySpreadConstraints).toHaveLength(1);
      }
    }
    expect(new Set(replay.pods.map((p) => p.object.metadata.name)).size).toBe(replay.pods.length);
    expect(replay.namespaces).toEqual(['kubevirt', ...new Set(concrete.map((vm) => vm.namespace))]);
    expect(replay.pods.some((p) => p.placement === 'planned')).toBe(true);
  });

  test('pod names are deterministic', () => {
    expect(launcherPodName('ns', 'vm-1')).toBe(launcherPodName('ns', 'vm-1'));
    expect(launcherPodName('ns', 'vm-1')).not.toBe(launcherPodName('ns', 'vm-2'));
    expect(buildReplay(plan).pods.map((p) => p.object.metadata.name)).toEqual(replay.pods.map((p) => p.object.metadata.name));
  });

  test('deploy order: pools in plan order, VMs by index', () => {
    const reversed = [...replay.pods].reverse();
    const order = creationOrder(reversed, 'deploy');
    const pools: string[] = [];
    for (const p of order) if (pools[pools.length - 1] !== p.poolPath) pools.push(p.poolPath);
    expect(new Set(pools).size).toBe(pools.length); // each pool contiguous
    for (let i = 1; i < order.length; i++) {
      if (order[i].poolPath === order[i - 1].poolPath) expect(order[i].index).toBeGreaterThan(order[i - 1].index);
    }
    expect(creationOrder(replay.pods, 'deploy').map((p) => p.vm)).toEqual(concrete.map((vm) => vm.name));
  });

  test('shuffled order is a seeded permutation', () => {
    const a = creationOrder(replay.pods, 'shuffled', 7).map((p) => p.vm);
    const b = creationOrder(replay.pods, 'shuffled', 7).map((p) => p.vm);
    const c = creationOrder(replay.pods, 'shuffled', 8).map((p) => p.vm);
    expect(a).toEqual(b);
    expect([...a].sort()).toEqual(replay.pods.map((p) => p.vm).sort());
    expect(a).not.toEqual(c);
    const xs = Array.from({ length: 100 }, (_, i) => i);
    const s = seededShuffle(xs, 42);
    expect(s).toEqual(seededShuffle(xs, 42));
    expect([...s].sort((x, y) => x - y)).toEqual(xs);
    expect(s).not.toEqual(xs);
  });
});
