// `metalslice verify` end to end: plans replayed on a real etcd + kube-apiserver + kube-scheduler + KWOK.
// One control plane for the whole file; each case resets it. Needs the toolchain (scripts/test-e2e.sh).
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import * as path from 'path';
import {
  extraVmOf,
  fullFleetConfig,
  drainFleetConfig,
  migrationFleetConfig,
  mixedSpreadConfig,
  mixedSpreadKeptConfig,
  scaleConfig,
  spreadScaleConfig,
} from '../../bench/verify-fixtures';
import { main } from '../../constructs/cli/main';
import { loadConfigFile } from '../../constructs/core/input/config';
import { Plan, planModel } from '../../constructs/core/plan';
import { ControlPlane, startControlPlane } from '../../constructs/verify/control-plane';
import { verifyPlan, VerifyResult } from '../../constructs/verify/verify';

jest.setTimeout(900_000);

/** A Pod with the scheduler's verdict. */
interface PodStatusDoc extends PodDoc {
  readonly status?: { readonly conditions?: readonly { readonly type?: string; readonly status?: string; readonly message?: string }[] };
}

/** The fields of a Pod this file reads. */
interface PodDoc {
  readonly metadata: { readonly name: string; readonly namespace: string; readonly labels: Record<string, string> };
  readonly spec: { readonly nodeName?: string } & Record<string, unknown>;
}

const EXAMPLE = path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml');

/** The hosts a VM's pool may use: its group's, or the whole fleet's. */
function groupOf(plan: Plan, vm: string): readonly string[] {
  const planned = plan.vms.find((v) => v.name === vm)!;
  return planned.hostGroup?.hosts ?? plan.fleets[0].hosts.map((h) => h.name);
}

function describeResult(name: string, r: VerifyResult): string {
  const pending = r.pending.map((p) => `  ${p.namespace}/${p.vm} (pool ${p.pool}, planned on ${p.plannedHost}): ${p.reason}`).join('\n');
  return `${name}: ${r.bound}/${r.vms} bound (${r.order}), seconds ${JSON.stringify(r.seconds)}, ${r.movedFromPlan} off-plan${pending ? `\n${pending}` : ''}`;
}

describe('metalslice verify', () => {
  let cp: ControlPlane;

  beforeAll(async () => {
    cp = await startControlPlane();
  });

  afterAll(async () => {
    await cp?.stop();
  });

  /** Replays the plan in deploy order and shuffled: every VM bound. The shuffled replay's pods stay. */
  async function bindInBothOrders(plan: Plan): Promise<void> {
    for (const order of ['deploy', 'shuffled'] as const) {
      const r = await verifyPlan(plan, { controlPlane: cp, order, seed: 11 });
      console.log(describeResult(`host groups, ${order}`, r));
      expect(r.pending).toEqual([]);
      expect(r.bound).toBe(plan.vms.length);
    }
  }

  /**
   * Drains the host holding the most launcher pods: cordons it (with the node lifecycle controller's
   * unschedulable taint, which this control plane does not add by itself), then moves its VMs one at a time
   * as KubeVirt migrates them: the migration target's launcher pod is a new pod the scheduler places while
   * the source still runs on the cordoned host, and the source goes when the target is bound. Stops at the
   * first VM that finds no host (the migration waits).
   */
  async function drainBusiestHost(): Promise<{ drained: string; moved: { vm: string; node?: string; reason?: string }[] }> {
    const listed = await cp.request<{ items: PodDoc[] }>('GET', '/api/v1/pods?labelSelector=kubevirt.io%3Dvirt-launcher');
    const byHost = new Map<string, PodDoc[]>();
    for (const pod of listed.body.items) byHost.set(pod.spec.nodeName!, [...(byHost.get(pod.spec.nodeName!) ?? []), pod]);
    const [drained, pods] = [...byHost.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0];
    const cordon = await cp.request(
      'PATCH',
      `/api/v1/nodes/${drained}`,
      { spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } },
      'application/merge-patch+json',
    );
    expect(cordon.status).toBe(200);
    const moved: { vm: string; node?: string; reason?: string }[] = [];
    for (const pod of pods) {
      const { nodeName: _source, ...spec } = pod.spec;
      const name = `${pod.metadata.name}-target`;
      const target = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: pod.metadata.namespace, labels: pod.metadata.labels }, spec };
      expect((await cp.request('POST', `/api/v1/namespaces/${pod.metadata.namespace}/pods`, target)).status).toBe(201);
      const vm = pod.metadata.labels['vm.kubevirt.io/name'];
      let got: PodStatusDoc | undefined;
      // 10 s for the scheduler to bind it, and up to 60 s while it has not yet said why not: it may share the cores
      // with another e2e file's control plane.
      const refused = (p?: PodStatusDoc) => (p?.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False');
      for (let i = 0; i < 240 && !got?.spec.nodeName && (i < 40 || !refused(got)); i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 250));
        got = (await cp.request<PodStatusDoc>('GET', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${name}`)).body;
      }
      const node = got?.spec.nodeName;
      moved.push({ vm, ...(node ? { node } : { reason: got?.status?.conditions?.map((c) => c.message).join('; ') }) });
      if (!node) break;
      expect((await cp.request('DELETE', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}?gracePeriodSeconds=0`)).status).toBe(200);
    }
    console.log(`drained ${drained} (${pods.length} VMs): ${JSON.stringify(moved)}`);
    return { drained, moved };
  }

  /** Brings a drained host back: schedulable, its taint gone. Nothing moves back to it. */
  async function uncordon(host: string): Promise<void> {
    const patch = { spec: { unschedulable: false, taints: null } };
    expect((await cp.request('PATCH', `/api/v1/nodes/${host}`, patch, 'application/merge-patch+json')).status).toBe(200);
  }

  test('the example binds 100 % in deploy and shuffled order', async () => {
    const plan = planModel(loadConfigFile(EXAMPLE));
    expect(plan.ok).toBe(true);
    const concrete = plan.vms.filter((vm) => vm.concrete).length;
    for (const order of ['deploy', 'shuffled'] as const) {
      const r = await verifyPlan(plan, { controlPlane: cp, order, seed: 3 });
      console.log(describeResult('example', r));
      expect(r.vms).toBe(concrete);
      expect(r.pending).toEqual([]);
      expect(r.bound).toBe(concrete);
    }
  });

  test("KWOK plays no pod status (a bound pod stays Pending), and ends a pod's graceful deletion as a kubelet would", async () => {
    const r = await verifyPlan(planModel(loadConfigFile(EXAMPLE)), { controlPlane: cp, order: 'deploy' });
    expect(r.pending).toEqual([]);
    type PodWithStatus = PodDoc & { readonly status?: { readonly phase?: string; readonly podIP?: string } };
    const listed = await cp.request<{ items: PodWithStatus[] }>('GET', '/api/v1/pods?labelSelector=kubevirt.io%3Dvirt-launcher');
    const bound = listed.body.items.filter((p) => p.spec.nodeName);
    expect(bound).toHaveLength(r.bound);
    expect(bound.map((p) => [p.status?.phase, p.status?.podIP])).toEqual(bound.map(() => ['Pending', undefined]));
    // A graceful deletion (the pod's own 30 s): only a kubelet ends it, here KWOK's one pod stage, well inside the grace.
    const url = `/api/v1/namespaces/${bound[0].metadata.namespace}/pods/${bound[0].metadata.name}`;
    expect((await cp.request('DELETE', url)).status).toBe(200);
    let status = 200;
    for (let i = 0; i < 60 && status !== 404; i++) {
      await new Promise((done) => setTimeout(done, 250));
      status = (await cp.request('GET', url)).status;
    }
    expect(status).toBe(404);
  });

  test("a plan-rejected extra VM on a full fleet stays Pending with the scheduler's reason", async () => {
    const plan = planModel(fullFleetConfig());
    expect(plan.ok).toBe(true);
    const extra = extraVmOf(plan, 'fill');
    // The planner refuses the extra VM: plan it in to check.
    const refused = planModel({ ...fullFleetConfig(), nodePools: [{ ...fullFleetConfig().nodePools![0], count: 5 }] });
    expect(refused.ok).toBe(false);
    const r = await verifyPlan(plan, { controlPlane: cp, extraVms: [extra] });
    console.log(describeResult('full fleet + 1', r));
    expect(r.vms).toBe(5);
    expect(r.bound).toBe(4);
    // Pods are created concurrently: whichever of the five comes last finds no room.
    expect(r.pending).toHaveLength(1);
    expect(['fill-0', 'fill-1', 'fill-2', 'fill-3', extra.name]).toContain(r.pending[0].vm);
    expect(r.pending[0].reason).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu/);
  });

  test('1,000 VMs on 100 hosts bind 100 %: fleet-wide spread pools (shuffled) and many small pools the plan pins', async () => {
    for (const [name, config, order] of [
      ['1,000 VMs, spread', spreadScaleConfig(100), 'shuffled'],
      ['1,000 VMs, pinned by the spread proof', scaleConfig(100, 10), 'deploy'],
    ] as const) {
      const t0 = Date.now();
      const plan = planModel(config);
      const planSeconds = (Date.now() - t0) / 1000;
      expect(plan.errors).toEqual([]);
      const r = await verifyPlan(plan, { controlPlane: cp, planSeconds, order, seed: 7 });
      console.log(describeResult(name, r));
      expect(r.vms).toBe(1000);
      expect(r.pending).toEqual([]);
      expect(r.bound).toBe(1000);
    }
  });

  test('spread pools of mixed sizes, large VMs created last, bind fully and stay spread', async () => {
    const plan = planModel(mixedSpreadKeptConfig());
    expect(plan.errors).toEqual([]);
    expect(plan.vms.every((vm) => vm.placement === 'spread')).toBe(true);
    for (const order of ['deploy', 'shuffled'] as const) {
      const r = await verifyPlan(plan, { controlPlane: cp, order, concurrency: 1 });
      console.log(describeResult(`mixed spread kept, ${order}`, r));
      expect(r.pending.map((p) => `${p.vm}: ${p.reason}`)).toEqual([]);
      expect(r.bound).toBe(36);
    }
  });

  test('where an even spread cannot hold, the plan pins, and the pins are what makes kube-scheduler agree', async () => {
    const plan = planModel(mixedSpreadConfig());
    expect(plan.errors).toEqual([]);
    expect(plan.vms.every((vm) => vm.placement === 'planned')).toBe(true);
    const pinned = await verifyPlan(plan, { controlPlane: cp, order: 'deploy', concurrency: 1 });
    console.log(describeResult('mixed spread, pinned by the plan', pinned));
    expect(pinned.pending).toEqual([]);
    expect(pinned.bound).toBe(22);
    // The same VMs as declared (spread), small ones first: the scheduler strands large ones.
    const declared = { ...plan, vms: plan.vms.map((vm) => ({ ...vm, placement: 'spread' as const })) };
    const spread = await verifyPlan(declared, { controlPlane: cp, order: 'deploy', concurrency: 1 });
    console.log(describeResult('mixed spread, as declared', spread));
    expect(spread.pending.length).toBeGreaterThan(0);
    expect(spread.pending.every((p) => p.pool === 'large')).toBe(true);
  });

  test("host groups: every pool keeps live migration, binds in deploy and shuffled order, and a drained host's VMs move inside their groups", async () => {
    const plan = planModel(migrationFleetConfig());
    expect(plan.errors).toEqual([]);
    expect(plan.vms.every((vm) => vm.placement === 'spread' && vm.eviction.strategy === 'LiveMigrate' && vm.hostGroup)).toBe(true);
    await bindInBothOrders(plan);
    const { drained, moved } = await drainBusiestHost();
    // What this plan proves: the first VM off any drained host has a target in its group (not every VM: the
    // plan warns each pool so)...
    expect(moved[0].node).toBeDefined();
    // ...and every VM that moves stays in its group, off the drained host.
    for (const m of moved.filter((x) => x.node)) {
      expect(m.node).not.toBe(drained);
      expect(groupOf(plan, m.vm)).toContain(m.node);
    }
  });

  test('with a whole-drain proof, a rolling drain moves every VM of each drained host inside its group, none left waiting', async () => {
    const plan = planModel(drainFleetConfig());
    expect(plan.errors).toEqual([]);
    expect(plan.warnings).toEqual([]);
    expect(plan.vms.every((vm) => vm.placement === 'spread' && vm.eviction.strategy === 'LiveMigrate' && vm.hostGroup?.wholeDrain)).toBe(true);
    await bindInBothOrders(plan);
    // Three hosts in turn, each the busiest at its turn (moved VMs stay where they went): drained, emptied,
    // brought back.
    for (let round = 0; round < 3; round++) {
      const { drained, moved } = await drainBusiestHost();
      expect(moved.length).toBeGreaterThan(0);
      expect(moved.filter((m) => !m.node)).toEqual([]);
      for (const m of moved) {
        expect(m.node).not.toBe(drained);
        expect(groupOf(plan, m.vm)).toContain(m.node);
      }
      await uncordon(drained);
    }
  });

  test('the CLI: usage errors exit 2', async () => {
    const err: string[] = [];
    const io = { stdout: () => undefined, stderr: (t: string) => err.push(t) };
    expect(await main(['verify'], io)).toBe(2);
    expect(await main(['verify', EXAMPLE, '--order', 'sideways'], io)).toBe(2);
    expect(await main(['verify', EXAMPLE, '--seed', 'x'], io)).toBe(2);
  });

  test('the CLI: --json on the example exits 0 with every VM bound', async () => {
    const out: string[] = [];
    const code = await main(['verify', EXAMPLE, '--json'], { stdout: (t) => out.push(t), stderr: () => undefined });
    const r = JSON.parse(out.join('')) as VerifyResult & { ok: boolean };
    expect(code).toBe(0);
    expect(r.ok).toBe(true);
    expect(r.bound).toBe(r.vms);
    expect(r.pending).toEqual([]);
    expect(Object.keys(r.seconds).sort()).toEqual(['plan', 'schedule', 'start']);
  });
});
