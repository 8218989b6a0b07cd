import { describe, expect, test } from '@jest/globals';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/config';
import { planModel } from '../../constructs/core/plan';
import { buildReplay, creationOrder, KUBEVIRT_DEVICES, KWOK_NODE_LABEL, launcherPodName, seededShuffle } from '../../constructs/verify/replay';
import { renderVirtualMachine } from '../../constructs/render/kubevirt';
import { launcherScheduling } from '../../constructs/core/kubevirt/launcher';
import type { RenderedVm } from '../support/kube-docs';

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml');

describe('verify replay', () => {
  const plan = planModel(loadConfigFile(EXAMPLE));
  const replay = buildReplay(plan);
  const concrete = plan.vms.filter((vm) => vm.concrete);

  test('one Node per fleet host, taint-free, with allocatable as capacity and KubeVirt devices', () => {
    const hosts = plan.fleets.flatMap((f) => f.hosts);
    expect(replay.nodes.map((n) => n.metadata.name)).toEqual(hosts.map((h) => h.name));
    for (const [i, node] of replay.nodes.entries()) {
      const host = hosts[i];
      expect(node.metadata.labels['kubernetes.io/hostname']).toBe(host.name);
      expect(node.metadata.labels[KWOK_NODE_LABEL]).toBe('kwok');
      for (const [k, v] of Object.entries(host.labels)) expect(node.metadata.labels[k]).toBe(v);
      expect(node.spec.taints).toBeUndefined();
      expect(node.status.capacity).toEqual(node.status.allocatable);
      expect(node.status.allocatable.cpu).toBe(host.allocatable.cpu.toString());
      expect(node.status.allocatable.memory).toBe(host.allocatable.memory.toString());
      expect(node.status.allocatable.pods).toBe(host.allocatable.pods.toString());
      expect(node.status.allocatable.disk).toBeUndefined();
      for (const d of KUBEVIRT_DEVICES) expect(node.status.allocatable[d]).toBe('1000');
    }
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
    expect(replay.namespaces).toEqual([...new Set(concrete.map((vm) => vm.namespace))]);
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
