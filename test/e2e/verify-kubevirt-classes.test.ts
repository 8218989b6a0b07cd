// `verify --kubevirt` lets virt-controller render one launcher pod per class and makes the others from it. This
// proves that shortcut on a fleet small enough to render whole: the same plan is replayed twice on one control
// plane, once with virt-controller rendering every VM's launcher pod, once by classes, and each VM's two pods
// must be equal field for field once the fields the API server, the scheduler or chance wrote are set aside.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { ControlPlane, startControlPlane } from '../../constructs/verify/control-plane';
import { classLauncherPod, LauncherIdentity, LauncherPodDoc, launcherVmiUid } from '../../constructs/verify/kubevirt-classes';
import { verifyPlan } from '../../constructs/verify/verify';

jest.setTimeout(1_200_000);

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml');

/**
 * The README example plus two pools: one pinned in a second quota (so a second namespace, and one class whose VMs
 * are pinned to different hosts) and one more spread shape. 15 concrete VMs in 5 pools.
 */
function fleet(): ReturnType<typeof planModel> {
  const config = loadConfigFile(EXAMPLE);
  const nodePools = [
    ...(config.nodePools ?? []),
    { name: 'team-b-db', quota: 'team-b', cluster: 'team-a-prod', shape: { cpu: 4, memory: '12Gi', disk: '60Gi' }, count: 2, placement: 'planned' },
    { name: 'team-a-small', quota: 'team-a', cluster: 'team-a-prod', shape: { cpu: 2, memory: '4Gi', disk: '40Gi' }, count: 3 },
  ];
  return planModel({ ...config, nodePools } as typeof config);
}

/** KubeVirt's base for `--qemu-timeout` (virt-controller's default) and its random jitter's range, in seconds. */
const QEMU_TIMEOUT_BASE = 240;
const QEMU_TIMEOUT_JITTER = 120;

/**
 * A launcher pod with what virt-controller did not decide from the VM set aside, each for a stated reason:
 * - metadata.name: `generateName` plus 5 random characters the API server draws (generateName itself is compared);
 * - metadata.uid, resourceVersion, creationTimestamp, generation, managedFields: the API server's, per write;
 * - status and spec.nodeName: the scheduler's and KWOK's (the pinned VMs' nodes are compared apart);
 * - the VMI's uid, wherever it is (owner reference, `kubevirt.io/created-by`, `--uid`, the console log's path): the
 *   API server's, per VMI; a class-made pod has a stand-in uid of its VM's own;
 * - the value of `--qemu-timeout`: virt-controller draws it at random per pod (base plus up to 120 s of jitter),
 *   so it is checked to be in that range and then set aside.
 */
function normalized(pod: LauncherPodDoc): unknown {
  const uid = launcherVmiUid(pod);
  expect(uid).toMatch(/^[0-9a-f-]{36}$/);
  expect(pod.metadata.name?.startsWith(pod.metadata.generateName ?? '<none>')).toBe(true);
  const { name: _n, uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, managedFields: _m, ...metadata } = pod.metadata;
  const { nodeName: _node, ...spec } = pod.spec ?? {};
  const { status: _s, ...rest } = pod;
  const text = JSON.stringify({ ...rest, metadata, spec })
    .split(uid as string)
    .join('<vmi-uid>');
  const timeouts = [...text.matchAll(/"--qemu-timeout","(\d+)s"/g)].map((m) => Number(m[1]));
  expect(timeouts).toHaveLength(1);
  expect(timeouts[0]).toBeGreaterThanOrEqual(QEMU_TIMEOUT_BASE);
  expect(timeouts[0]).toBeLessThan(QEMU_TIMEOUT_BASE + QEMU_TIMEOUT_JITTER);
  return JSON.parse(text.replace(/"--qemu-timeout","\d+s"/, '"--qemu-timeout","<random>"'));
}

/** Every launcher pod, whole, by `namespace/vm`. */
async function launcherPods(cp: ControlPlane): Promise<Map<string, LauncherPodDoc>> {
  const res = await cp.request<{ items: LauncherPodDoc[] }>('GET', '/api/v1/pods?labelSelector=kubevirt.io%3Dvirt-launcher');
  return new Map(res.body.items.map((p) => [`${p.metadata.namespace}/${p.metadata.labels?.['vm.kubevirt.io/name']}`, p]));
}

describe('verify --kubevirt by launcher pod classes', () => {
  let cp: ControlPlane;

  beforeAll(async () => {
    cp = await startControlPlane({ kubevirt: true });
  });

  afterAll(async () => {
    await cp?.stop();
  });

  test('each class-made launcher pod equals the one virt-controller renders for its VM, field for field up to the names', async () => {
    const plan = fleet();
    expect(plan.ok).toBe(true);
    const concrete = plan.vms.filter((vm) => vm.concrete);
    const pools = new Set(concrete.map((vm) => vm.poolPath));
    expect(concrete.length).toBeGreaterThanOrEqual(15);
    expect(new Set(concrete.map((vm) => vm.namespace)).size).toBeGreaterThanOrEqual(2);

    const every = await verifyPlan(plan, { controlPlane: cp, kubevirt: true, kubevirtEveryVm: true });
    const reference = await launcherPods(cp);
    const classes = await verifyPlan(plan, { controlPlane: cp, kubevirt: true });
    const made = await launcherPods(cp);

    for (const r of [every, classes]) {
      expect(r.pending).toEqual([]);
      expect(r.bound).toBe(concrete.length);
    }
    expect(every.renderedByVirtController).toBe(concrete.length);
    // One class per pool here: a pool's VMs differ only in name, namespace and host pin.
    expect(classes.renderedByVirtController).toBe(pools.size);
    expect([...made.keys()].sort()).toEqual([...reference.keys()].sort());

    for (const vm of concrete) {
      const key = `${vm.namespace}/${vm.name}`;
      const theirs = reference.get(key);
      const ours = made.get(key);
      expect({ key, pod: ours && normalized(ours) }).toEqual({ key, pod: theirs && normalized(theirs) });
      if (vm.placement === 'planned') expect({ key, node: ours?.spec?.nodeName }).toEqual({ key, node: vm.host });
    }
  });

  test("the comparison tells classes apart: a pod made from another pool's VM differs from virt-controller's", async () => {
    // Were the class key to leave out a field in which two pools' VMs differ (shape, labels, placement, taints),
    // their VMs would share a class, and the pod made from the other pool's VM would be the one compared above.
    const plan = fleet();
    await verifyPlan(plan, { controlPlane: cp, kubevirt: true, kubevirtEveryVm: true });
    const reference = await launcherPods(cp);
    const concrete = plan.vms.filter((vm) => vm.concrete);
    const identity = (vm: (typeof concrete)[number]): LauncherIdentity => ({
      name: vm.name,
      namespace: vm.namespace,
      ...(vm.placement === 'planned' && vm.host !== undefined ? { host: vm.host } : {}),
    });
    let pairs = 0;
    for (const vm of concrete) {
      for (const other of concrete.filter((o) => o.poolPath !== vm.poolPath)) {
        const theirs = reference.get(`${vm.namespace}/${vm.name}`) as LauncherPodDoc;
        const fromOther = classLauncherPod(reference.get(`${other.namespace}/${other.name}`) as LauncherPodDoc, identity(other), identity(vm));
        expect(normalized({ ...fromOther, metadata: { ...fromOther.metadata, name: `${fromOther.metadata.generateName}xxxxx` } })).not.toEqual(
          normalized(theirs),
        );
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(0);
  });
});
