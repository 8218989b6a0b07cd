// `metalslice verify --kubevirt` end to end: the same plan replayed twice on one control plane, first with the
// launcher pods metalslice builds, then through KubeVirt's own virt-api (every VM admitted) and virt-controller
// (one launcher pod per class, the others made from it). Both must bind every pod, each VM's pod must ask kube-scheduler
// for the same CPU and memory, and VMs pinned by the plan must land on the same host.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as path from 'path';
import { main } from '../../constructs/cli/main';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import { ControlPlane, startControlPlane } from '../../constructs/verify/control-plane';
import { verifyPlan, VerifyResult } from '../../constructs/verify/verify';

jest.setTimeout(1_200_000);

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml');

/** The fields of a launcher pod this file reads. */
interface PodDoc {
  readonly metadata: { readonly namespace: string; readonly labels: Record<string, string> };
  readonly spec: {
    readonly nodeName?: string;
    readonly overhead?: Record<string, string>;
    readonly containers: readonly { readonly resources?: { readonly requests?: Record<string, string> } }[];
    readonly initContainers?: readonly { readonly restartPolicy?: string; readonly resources?: { readonly requests?: Record<string, string> } }[];
  };
}

/**
 * A pod's CPU (millicores) and memory (bytes) requests as kube-scheduler counts them: containers and sidecars
 * (init containers with `restartPolicy: Always`, as KubeVirt's guest-console-log) summed, other init containers
 * as a floor, plus overhead.
 */
function podRequests(pod: PodDoc): { cpuMilli: bigint; memory: bigint } {
  const of = (r: Record<string, string> | undefined, name: string, milli: boolean): bigint => {
    const q = r?.[name];
    if (q === undefined) return 0n;
    return milli ? Quantity.parse(q).ceilMillis() : Quantity.parse(q).ceilUnits();
  };
  const sum = (name: string, milli: boolean): bigint => {
    const inits = pod.spec.initContainers ?? [];
    const sidecars = inits.filter((c) => c.restartPolicy === 'Always');
    const containers = [...pod.spec.containers, ...sidecars].reduce((s, c) => s + of(c.resources?.requests, name, milli), 0n);
    const init = inits
      .filter((c) => c.restartPolicy !== 'Always')
      .reduce((m, c) => (of(c.resources?.requests, name, milli) > m ? of(c.resources?.requests, name, milli) : m), 0n);
    return (containers > init ? containers : init) + of(pod.spec.overhead, name, milli);
  };
  return { cpuMilli: sum('cpu', true), memory: sum('memory', false) };
}

/** Each VM's launcher pod, by `namespace/vm`: its requests and the node it was bound to. */
async function launcherPods(cp: ControlPlane): Promise<Map<string, { cpuMilli: bigint; memory: bigint; node?: string }>> {
  const res = await cp.request<{ items: PodDoc[] }>('GET', '/api/v1/pods?labelSelector=kubevirt.io%3Dvirt-launcher');
  return new Map(
    res.body.items.map((p) => [`${p.metadata.namespace}/${p.metadata.labels['vm.kubevirt.io/name']}`, { ...podRequests(p), node: p.spec.nodeName }]),
  );
}

function describeResult(name: string, r: VerifyResult): string {
  const pending = r.pending.map((p) => `  ${p.namespace}/${p.vm} (pool ${p.pool}): ${p.reason}`).join('\n');
  return `${name}: ${r.bound}/${r.vms} bound by ${r.launcherPodsBy}, seconds ${JSON.stringify(r.seconds)}${pending ? `\n${pending}` : ''}`;
}

describe('metalslice verify --kubevirt', () => {
  let cp: ControlPlane;

  beforeAll(async () => {
    cp = await startControlPlane({ kubevirt: true });
  });

  afterAll(async () => {
    await cp?.stop();
  });

  test("the README example: virt-controller's launcher pods bind like the replay's, with the same requests and pinned hosts", async () => {
    const plan = planModel(loadConfigFile(EXAMPLE));
    expect(plan.ok).toBe(true);
    const concrete = plan.vms.filter((vm) => vm.concrete);

    const replay = await verifyPlan(plan, { controlPlane: cp });
    console.log(describeResult('replay', replay));
    const replayPods = await launcherPods(cp);
    const kubevirt = await verifyPlan(plan, { controlPlane: cp, kubevirt: true });
    console.log(describeResult('kubevirt', kubevirt));
    const kubevirtPods = await launcherPods(cp);

    for (const r of [replay, kubevirt]) {
      expect(r.vms).toBe(concrete.length);
      expect(r.pending).toEqual([]);
      expect(r.bound).toBe(concrete.length);
    }
    expect(replay.launcherPodsBy).toBe('replay');
    expect(kubevirt.launcherPodsBy).toBe('virt-controller');
    expect([...kubevirtPods.keys()].sort()).toEqual(concrete.map((vm) => `${vm.namespace}/${vm.name}`).sort());
    for (const vm of concrete) {
      const key = `${vm.namespace}/${vm.name}`;
      const mine = replayPods.get(key);
      const theirs = kubevirtPods.get(key);
      // What kube-scheduler fits: the pod KubeVirt made asks for exactly what the replay's pod asked for.
      expect({ key, cpuMilli: theirs?.cpuMilli, memory: theirs?.memory }).toEqual({ key, cpuMilli: mine?.cpuMilli, memory: mine?.memory });
      if (vm.placement === 'planned' && vm.host !== undefined) expect({ key, node: theirs?.node }).toEqual({ key, node: vm.host });
    }

    // A reset after --kubevirt removes the VMs too: the next replay sees only its own launcher pods.
    const again = await verifyPlan(plan, { controlPlane: cp });
    expect(again.bound).toBe(concrete.length);
    expect((await cp.request<{ items: unknown[] }>('GET', '/apis/kubevirt.io/v1/virtualmachines')).body.items).toEqual([]);
    expect((await cp.request<{ items: unknown[] }>('GET', '/api/v1/pods?labelSelector=kubevirt.io%3Dvirt-launcher')).body.items).toHaveLength(concrete.length);
  });

  test('the CLI flag: --kubevirt --json says virt-controller made the pods (a control plane of its own)', async () => {
    let out = '';
    const code = await main(['verify', EXAMPLE, '--kubevirt', '--json'], {
      stdout: (t: string) => (out += t),
      stderr: () => undefined,
    });
    const r = JSON.parse(out) as VerifyResult & { ok: boolean };
    expect(r.launcherPodsBy).toBe('virt-controller');
    expect(r.ok).toBe(true);
    expect(code).toBe(0);
  });
});
