import { describe, expect, test } from '@jest/globals';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { PlannedVm } from '../../constructs/core/vm/vm';
import { renderVirtualMachine } from '../../constructs/render/kubevirt';
import {
  abstractIdentity,
  classLauncherPod,
  concretizeIdentity,
  LauncherIdentity,
  launcherClassKey,
  LauncherPodDoc,
  standInVmiUid,
} from '../../constructs/verify/kubevirt-classes';

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml');

describe('launcher pod classes', () => {
  const plan = planModel(loadConfigFile(EXAMPLE));
  const concrete = plan.vms.filter((vm) => vm.concrete);
  const identity = (vm: PlannedVm): LauncherIdentity => ({
    name: vm.name,
    namespace: vm.namespace,
    ...(vm.placement === 'planned' && vm.host !== undefined ? { host: vm.host } : {}),
  });
  const keyOf = (vm: PlannedVm): string => launcherClassKey(renderVirtualMachine(vm, { userDataSecret: 's' }), identity(vm));

  test('the VMs of one pool share a class, pinned to different hosts or not; different pools do not', () => {
    const pools = new Map<string, Set<string>>();
    for (const vm of concrete) pools.set(vm.poolPath, (pools.get(vm.poolPath) ?? new Set()).add(keyOf(vm)));
    for (const keys of pools.values()) expect(keys.size).toBe(1);
    const pinned = concrete.filter((vm) => vm.placement === 'planned');
    expect(new Set(pinned.map((vm) => vm.host)).size).toBeGreaterThan(1);
    expect(new Set([...pools.values()].map((keys) => [...keys][0])).size).toBe(pools.size);
  });

  test('a VM that differs in anything but its name, namespace and host pin is in another class', () => {
    const vm = concrete.find((v) => v.placement === 'planned') as PlannedVm;
    const twin = (edit: Partial<PlannedVm>): string => keyOf({ ...vm, ...edit });
    expect(twin({ name: `${vm.name}x`, namespace: 'elsewhere', host: 'another-host' })).toBe(keyOf(vm));
    for (const edit of [
      { pool: 'other-pool' },
      { quota: 'other-quota' },
      { cluster: 'other-cluster' },
      { nodeType: 'other-type' },
      { placement: 'spread' as const },
      { guest: { ...vm.guest, cores: vm.guest.cores + 1 } },
    ]) {
      expect({ edit, same: twin(edit as Partial<PlannedVm>) === keyOf(vm) }).toEqual({ edit, same: false });
    }
  });

  test('a VM whose name KubeVirt cuts or hashes is a class of its own', () => {
    const vm = concrete[0];
    const long = { ...vm, name: 'n'.repeat(64) } as PlannedVm;
    expect(keyOf(long)).toBe(`alone:${vm.namespace}/${long.name}`);
    expect(keyOf({ ...vm, name: 'a.b' })).toBe(`alone:${vm.namespace}/a.b`);
  });

  test('tokens go both ways: a rendered VM abstracted and made concrete again is itself, and another of its class', () => {
    const [a, b] = concrete.filter((vm) => vm.poolPath === concrete.find((v) => v.placement === 'planned')?.poolPath);
    const rendered = (vm: PlannedVm): unknown => renderVirtualMachine(vm, { userDataSecret: 's' });
    expect(concretizeIdentity(abstractIdentity(rendered(a), identity(a)), identity(a))).toEqual(rendered(a));
    expect(concretizeIdentity(abstractIdentity(rendered(a), identity(a)), identity(b))).toEqual(rendered(b));
  });

  test("a class pod: the representative's pod with the VM's names, host, a stand-in VMI uid and no server fields", () => {
    const rep: LauncherIdentity = { name: 'p-0', namespace: 'ns-a', host: 'h1' };
    const uid = '11111111-2222-3333-4444-555555555555';
    const pod: LauncherPodDoc = {
      metadata: {
        name: 'virt-launcher-p-0-abcde',
        generateName: 'virt-launcher-p-0-',
        namespace: 'ns-a',
        uid: 'pod-uid',
        resourceVersion: '7',
        labels: { 'vm.kubevirt.io/name': 'p-0', 'kubevirt.io/created-by': uid },
        ownerReferences: [{ kind: 'VirtualMachineInstance', uid, controller: true }],
      },
      spec: { nodeName: 'h1', hostname: 'p-0', affinity: { values: ['h1', 'h10'] }, args: ['--uid', uid, '--namespace', 'ns-a'] },
      status: { phase: 'Pending' },
    };
    const made = classLauncherPod(pod, rep, { name: 'p-1', namespace: 'ns-b', host: 'h2' });
    const standIn = standInVmiUid('ns-b', 'p-1');
    expect(standIn).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(made).toEqual({
      metadata: {
        generateName: 'virt-launcher-p-1-',
        namespace: 'ns-b',
        labels: { 'vm.kubevirt.io/name': 'p-1', 'kubevirt.io/created-by': standIn },
        ownerReferences: [{ kind: 'VirtualMachineInstance', uid: standIn, controller: true }],
      },
      spec: { hostname: 'p-1', affinity: { values: ['h2', 'h10'] }, args: ['--uid', standIn, '--namespace', 'ns-b'] },
    });
  });
});
