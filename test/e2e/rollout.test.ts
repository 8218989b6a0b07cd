// A fleet that changes: a pool of 3 nodes reshaped with maxSurge 1, then upgraded to another Kubernetes version,
// then reshaped again with the apply killed after its first replacement. The provider cluster runs KubeVirt's own
// virt-api and virt-controller (every VM admitted, every VMI made by KubeVirt, RestartRequired staged by KubeVirt),
// with CDI stood in for, so each node has a DataVolume root. The tenant cluster is the same API server: a node
// "joins" when its VMI is made (the guest below stands in for the VM booting and kubeadm join, which need a
// virt-handler and KVM). Everything is judged from the API server's watch events, in its own order.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { binary, configAppEnv, expectOk, run, startCluster, synthConfigApp, TestCluster } from './harness';
import { standInJoin } from './tenant-shop';
import type { KubeDoc, KubeList } from '../support/kube-docs';
import type { WatchEvent } from '../../constructs/verify/processes';

jest.setTimeout(1_800_000);

const VMS = '/apis/kubevirt.io/v1/namespaces/acme-frontend/virtualmachines';
const VMIS = '/apis/kubevirt.io/v1/namespaces/acme-frontend/virtualmachineinstances';
const POOL = ['web-0', 'web-1', 'web-2'];

interface Vm extends KubeDoc {
  spec: {
    runStrategy?: string;
    template: { metadata?: { annotations?: Record<string, string> }; spec: { domain: { memory?: { guest?: string } } } };
  };
  status?: { conditions?: { type: string; status: string }[] };
}
interface Vmi extends KubeDoc {
  spec: { domain: { memory?: { guest?: string } } };
}

/** The config: one fleet of 3 hosts, a quota that holds the pool, its migration room and one surge VM, one pool of 3. */
function config(caPem: string, server: string, memory: string, kubernetesVersion: string): string {
  const host = (name: string) => ({ name, capacity: { cpu: 32, memory: '128Gi', disk: '2Ti' } });
  return stringify({
    apiVersion: 'metalslice.io/v1alpha1',
    fleets: [{ name: 'lab', hosts: [host('h1'), host('h2'), host('h3')] }],
    quotas: [
      {
        name: 'frontend',
        fleet: 'lab',
        organization: 'acme',
        limits: { cpu: 24, memory: '140Gi', disk: '200Gi' },
        maxVirtualMachines: 4,
        consumers: ['tenant-acme'],
      },
    ],
    clusters: [{ name: 'shop', endpoint: server, kubernetesVersion, caCertificate: caPem }],
    nodePools: [{ name: 'web', quota: 'frontend', cluster: 'shop', shape: { cpu: 4, memory, disk: '20Gi' }, count: 3, rollout: { maxSurge: 1 } }],
  });
}

/** What the API server recorded, in its order (one etcd: resourceVersions are one sequence). */
interface Recorded {
  readonly kind: string;
  readonly type: string;
  readonly name: string;
  readonly rv: number;
  readonly uid: string;
  readonly revision?: string;
  /** A VM's runStrategy. */
  readonly runStrategy?: string;
}

describe('e2e: a pool that changes rolls its nodes through drains, one surge at a time', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const events: Recorded[] = [];
  const stops: (() => void)[] = [];
  const stackDir = () => path.join(work, 'cdktf.out', 'stacks', 'from-config');
  const configFile = () => path.join(work, 'metalslice.yaml');

  /** The guest: each new VMI of the pool boots and joins, so its Node appears, Ready, with a pod on it. */
  function startGuests(): void {
    const api = cluster.client();
    const joined = new Set<string>();
    const join = async (vmi: KubeDoc): Promise<void> => void (await standInJoin(api, vmi.metadata.name, 'web', 'shop'));
    const w = api.watch<KubeDoc>(`${VMIS}?watch=1`, (e) => {
      const uid = e.object.metadata.uid ?? '';
      if (e.type === 'DELETED' || joined.has(uid) || (e.object.metadata as { deletionTimestamp?: string }).deletionTimestamp) return;
      joined.add(uid);
      void join(e.object);
    });
    stops.push(() => w.stop());
  }

  /** Records every event of the pool's VMs, VMIs, Nodes and pods. */
  function record(): void {
    const api = cluster.client();
    const watch = (kind: string, url: string) => {
      const w = api.watch<KubeDoc>(url, (e: WatchEvent<KubeDoc>) => {
        const m = e.object.metadata as KubeDoc['metadata'] & { uid?: string; annotations?: Record<string, string> };
        const runStrategy = (e.object as { spec?: { runStrategy?: string } }).spec?.runStrategy;
        events.push({
          kind,
          type: e.type,
          name: m.name,
          rv: Number(m.resourceVersion),
          uid: m.uid ?? '',
          revision: m.annotations?.['metalslice.io/revision'],
          ...(kind === 'VirtualMachine' ? { runStrategy } : {}),
        });
      });
      stops.push(() => w.stop());
    };
    watch('VirtualMachine', `${VMS}?watch=1`);
    watch('VirtualMachineInstance', `${VMIS}?watch=1`);
    watch('Node', '/api/v1/nodes?watch=1');
    watch('Pod', '/api/v1/namespaces/shop/pods?watch=1');
    watch('PersistentVolumeClaim', '/api/v1/persistentvolumeclaims?watch=1');
    watch('DataVolume', '/apis/cdi.kubevirt.io/v1beta1/datavolumes?watch=1');
  }

  const synth = async (memory: string, version: string) => {
    fs.writeFileSync(configFile(), config(fs.readFileSync(cluster.caFile, 'utf8'), cluster.server, memory, version));
    await synthConfigApp(work, env);
  };
  const tf = (args: string[]) => run(binary('tofu'), args, { cwd: stackDir(), env, timeoutMs: 1_200_000 });
  const apply = async (step: string) => {
    const started = Date.now();
    const r = await tf(['apply', '-auto-approve', '-input=false', '-no-color']);
    expectOk(step, r);
    return { out: r.stdout, seconds: (Date.now() - started) / 1000 };
  };
  const vms = async () => (await cluster.client().get<KubeList<Vm>>(VMS)).body.items;
  const vmis = async () => (await cluster.client().get<KubeList<Vmi>>(VMIS)).body.items;

  /** The most VMs of the pool that existed at once, from the VM events from `fromRv` on. */
  const peakVms = (fromRv: number): number => {
    const live = new Set<string>(POOL);
    let peak = live.size;
    for (const e of events.filter((x) => x.kind === 'VirtualMachine' && x.rv > fromRv).sort((a, b) => a.rv - b.rv)) {
      if (e.type === 'ADDED') live.add(e.name);
      if (e.type === 'DELETED') live.delete(e.name);
      peak = Math.max(peak, live.size);
    }
    return peak;
  };

  /**
   * Each node of the pool ended in Cluster API's order, in the API server's records: its pod evicted, then its old
   * VMI gone (the machine), then its Node deleted; its old root disk's claim gone before it started again.
   */
  const drainedFirst = (fromRv: number, oldUids: Map<string, string>): void => {
    for (const node of POOL) {
      const nodeGone = events.find((e) => e.kind === 'Node' && e.type === 'DELETED' && e.name === node && e.rv > fromRv);
      const vmiGone = events.find((e) => e.kind === 'VirtualMachineInstance' && e.type === 'DELETED' && e.uid === oldUids.get(node));
      const podGone = events.find((e) => e.kind === 'Pod' && e.type === 'DELETED' && e.name === `app-on-${node}` && e.rv > fromRv);
      expect({ node, drained: podGone !== undefined, stopped: vmiGone !== undefined, removed: nodeGone !== undefined }).toEqual({
        node,
        drained: true,
        stopped: true,
        removed: true,
      });
      expect({ node, podBeforeMachine: podGone!.rv < vmiGone!.rv, machineBeforeNode: vmiGone!.rv < nodeGone!.rv }).toEqual({
        node,
        podBeforeMachine: true,
        machineBeforeNode: true,
      });
      // The old root disk's claim was gone before the node started again: the new DataVolume made a new one.
      const claimGone = events.find(
        (e) => e.kind === 'PersistentVolumeClaim' && e.type === 'DELETED' && e.name.startsWith(`${node}-`) && !e.name.includes('surge') && e.rv > fromRv,
      );
      const restarted = events.find((e) => e.kind === 'VirtualMachineInstance' && e.type === 'ADDED' && e.name === node && e.rv > vmiGone!.rv);
      expect({ node, claimGone: claimGone !== undefined, restarted: restarted !== undefined }).toEqual({ node, claimGone: true, restarted: true });
      expect(claimGone!.rv).toBeLessThan(restarted!.rv);
      // Deleted in the foreground: the DataVolume went only once its claim had.
      // (The last deletion before it started again: a DataVolume CDI collected was deleted once before.)
      const volumeGone = events
        .filter((e) => e.kind === 'DataVolume' && e.type === 'DELETED' && e.name === claimGone!.name && e.rv > fromRv && e.rv < restarted!.rv)
        .pop();
      expect({ node, volumeAfterClaim: volumeGone !== undefined && claimGone!.rv < volumeGone.rv }).toEqual({ node, volumeAfterClaim: true });
      // Its Node was deleted before it started again: the Node that is Ready after is the one it joined with.
      expect(nodeGone!.rv).toBeLessThan(restarted!.rv);
    }
  };

  /** The roll as the API server recorded it, in resourceVersion order: what the closing note quotes. */
  const timeline = (fromRv: number): string =>
    events
      .filter((e) => e.rv > fromRv && e.type !== 'MODIFIED')
      .sort((a, b) => a.rv - b.rv)
      .map((e) => `  ${e.rv} ${e.kind} ${e.type} ${e.name}${e.revision ? ` (revision ${e.revision})` : ''}`)
      .join('\n') + '\n';
  const lastRv = () => Math.max(0, ...events.map((e) => e.rv));
  const uidsNow = async () => new Map((await vmis()).map((v) => [v.metadata.name, v.metadata.uid ?? '']));

  /** Every VM at the revision, no RestartRequired, its VMI made from it, each Node Ready, nothing cordoned, no surge left. */
  const converged = async (memory: string): Promise<string> => {
    const all = await vms();
    expect(all.map((v) => v.metadata.name).sort()).toEqual(POOL);
    const revision = all[0].spec.template.metadata?.annotations?.['metalslice.io/revision'];
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    for (const vm of all) {
      expect(vm.spec.template.metadata?.annotations?.['metalslice.io/revision']).toBe(revision);
      expect(vm.spec.template.spec.domain.memory?.guest).toBe(memory);
      expect(vm.spec.runStrategy).toBe('Always');
      expect((vm.status?.conditions ?? []).filter((c) => c.type === 'RestartRequired')).toEqual([]);
    }
    const instances = await vmis();
    expect(
      instances
        .map((v) => [
          v.metadata.name,
          (v.metadata as { annotations?: Record<string, string> }).annotations?.['metalslice.io/revision'],
          v.spec.domain.memory?.guest,
        ])
        .sort(),
    ).toEqual(POOL.map((n) => [n, revision, memory]));
    for (const node of POOL) {
      const n = (
        await cluster
          .client()
          .get<{ spec?: { unschedulable?: boolean }; status?: { conditions?: { type: string; status: string }[] } }>(`/api/v1/nodes/${node}`)
      ).body;
      expect({ node, ready: n.status?.conditions?.find((c) => c.type === 'Ready')?.status, cordoned: n.spec?.unschedulable === true }).toEqual({
        node,
        ready: 'True',
        cordoned: false,
      });
    }
    const secrets = (await cluster.client().get<KubeList<KubeDoc>>('/api/v1/namespaces/acme-frontend/secrets?labelSelector=metalslice.io%2Fsurge-of')).body
      .items;
    expect(secrets).toEqual([]);
    // The quota's ResourceQuota never refused a VM or a launcher pod.
    const refusals = (await cluster.client().get<KubeList<{ message?: string }>>('/api/v1/namespaces/acme-frontend/events')).body.items.filter((e) =>
      /exceeded quota/.test(e.message ?? ''),
    );
    expect(refusals).toEqual([]);
    return revision!;
  };

  beforeAll(async () => {
    // VirtualMachine writes are audited with their bodies: what each write set runStrategy to.
    cluster = await startCluster({ kubevirt: true, cdi: true, audit: { requestBodies: [{ group: 'kubevirt.io', resources: ['virtualmachines'] }] } });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-rollout-'));
    env = configAppEnv(cluster, path.join(work, 'cdktf.out'), { METALSLICE_CONFIG: configFile() });
    expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name: 'shop' } })).status).toBe(201);
    record();
    startGuests();
    await synth('16Gi', '1.33');
    expectOk('init', await tf(['init', '-input=false', '-no-color']));
    await apply('first apply');
    // Every node has joined before the first change.
    const deadline = Date.now() + 120_000;
    while ((await cluster.client().get<KubeList<KubeDoc>>('/api/v1/nodes?labelSelector=metalslice.io%2Fpool%3Dweb')).body.items.length < 3) {
      if (Date.now() > deadline) throw new Error(`the pool's nodes never joined:\n${cluster.logTail(30)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });

  // No destroy: the throwaway control plane goes with its state. Other suites prove destroy.
  afterAll(async () => {
    for (const stop of stops) stop();
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('(b) a reshape with maxSurge 1: never more than 4 VMs, each node drained before it restarts, every VMI on the new shape', async () => {
    const before = await converged('16Gi');
    const from = lastRv();
    const oldUids = await uidsNow();
    await synth('20Gi', '1.33');
    const { out, seconds } = await apply('reshape');
    expect(out).toMatch(/roll-nodes: pool web: 3 of 3 node\(s\) to replace \(web-0, web-1, web-2\), surge 1, 1 at a time/);
    const after = await converged('20Gi');
    expect(after).not.toBe(before);
    expect(peakVms(from)).toBe(4);
    drainedFirst(from, oldUids);
    // The surge joined before the first old node was drained.
    const surgeReady = events.find((e) => e.kind === 'Node' && e.name === 'web-0-surge' && e.rv > from)!;
    const firstDrain = Math.min(
      ...events.filter((e) => e.kind === 'Pod' && e.type === 'DELETED' && POOL.some((n) => e.name === `app-on-${n}`) && e.rv > from).map((e) => e.rv),
    );
    expect(surgeReady.rv).toBeLessThan(firstDrain);
    process.stdout.write(`rollout e2e: 3-node reshape applied in ${seconds.toFixed(1)} s\n${timeline(from)}`);
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  });

  it('(c) a kubernetesVersion change rolls the pool the same way, and each node boots the new version', async () => {
    const from = lastRv();
    const oldUids = await uidsNow();
    await synth('20Gi', '1.34');
    const { seconds } = await apply('upgrade');
    await converged('20Gi');
    expect(peakVms(from)).toBe(4);
    drainedFirst(from, oldUids);
    for (const node of POOL) {
      const secret = (await cluster.client().get<{ data: { userdata: string } }>(`/api/v1/namespaces/acme-frontend/secrets/${node}-cloudinit`)).body;
      expect(Buffer.from(secret.data.userdata, 'base64').toString('utf8')).toContain('/core:/stable:/v1.34/deb/');
    }
    process.stdout.write(`rollout e2e: 3-node Kubernetes upgrade applied in ${seconds.toFixed(1)} s\n`);
  });

  it('(e) an apply killed after its first replacement is finished by the next apply, with nothing lost', async () => {
    const from = lastRv();
    const oldUids = await uidsNow();
    await synth('24Gi', '1.34');
    const child = spawn(binary('tofu'), ['apply', '-auto-approve', '-input=false', '-no-color'], { cwd: stackDir(), env, detached: true, stdio: 'ignore' });
    // Killed (the workstation dies) once the first node runs the new revision.
    const deadline = Date.now() + 600_000;
    for (;;) {
      const replaced = events.find(
        (e) => e.kind === 'VirtualMachineInstance' && e.rv > from && POOL.includes(e.name) && e.uid !== oldUids.get(e.name) && e.type !== 'DELETED',
      );
      if (replaced) break;
      if (Date.now() > deadline) throw new Error(`no node was replaced:\n${cluster.logTail(30)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // A roll cut short: the surge still there, a node or two not yet replaced.
    expect((await vms()).map((v) => v.metadata.name)).toContain('web-0-surge');
    await apply('the apply again');
    await converged('24Gi');
    expect(peakVms(from)).toBe(4);
    drainedFirst(from, oldUids);
    // No node was lost: each of the pool's Nodes is there and Ready (converged), and each was replaced once.
    for (const node of POOL) {
      const made = events.filter((e) => e.kind === 'VirtualMachineInstance' && e.type === 'ADDED' && e.name === node && e.rv > from);
      expect({ node, made: made.length }).toEqual({ node, made: 1 });
    }
  });
  it("(f) a roll killed right after it stopped a node, applied again: nothing starts that node before its fresh disk exists (the roll is runStrategy's one writer), and a DataVolume CDI collected gets a fresh claim too", async () => {
    const api = cluster.client();
    const ns = '/api/v1/namespaces/acme-frontend';
    // CDI collected web-1's DataVolume (garbage collection of a finished import): the claim stays, no longer its
    // dependent, and the DataVolume KubeVirt makes again from the template adopts it.
    const claimOf = async (node: string) =>
      (await api.get<KubeList<KubeDoc & { metadata: { ownerReferences?: { kind: string }[] } }>>(`${ns}/persistentvolumeclaims`)).body.items.find(
        (c) => c.metadata.name.startsWith(`${node}-`) && !c.metadata.name.includes('surge'),
      );
    const collected = (await claimOf('web-1'))!;
    const orphan = { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Orphan' };
    expect((await api.request('DELETE', `/apis/cdi.kubevirt.io/v1beta1/namespaces/acme-frontend/datavolumes/${collected.metadata.name}`, orphan)).status).toBe(
      200,
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      const dv = await api.get<KubeDoc & { status?: { phase?: string } }>(
        `/apis/cdi.kubevirt.io/v1beta1/namespaces/acme-frontend/datavolumes/${collected.metadata.name}`,
      );
      const claim = await claimOf('web-1');
      // The DataVolume made again, Succeeded on the old claim, which it does not own.
      if (
        dv.status === 200 &&
        dv.body.status?.phase === 'Succeeded' &&
        claim !== undefined &&
        claim.metadata.uid === collected.metadata.uid &&
        !claim.metadata.ownerReferences?.some((o) => o.kind === 'DataVolume')
      )
        break;
      if (Date.now() > deadline) throw new Error(`the collected DataVolume was not made again on its old claim:\n${cluster.logTail(30)}`);
      await new Promise((r) => setTimeout(r, 500));
    }

    const from = lastRv();
    const oldUids = await uidsNow();
    const auditFrom = fs.readFileSync(cluster.auditLog!, 'utf8').split('\n').length;
    await synth('22Gi', '1.34');
    const child = spawn(binary('tofu'), ['apply', '-auto-approve', '-input=false', '-no-color'], { cwd: stackDir(), env, detached: true, stdio: 'ignore' });
    // Killed (the workstation dies) right after the roll stopped a node of the pool and its VMI went.
    let killed: string | undefined;
    for (const end = Date.now() + 600_000; killed === undefined;) {
      const halted = events.filter((e) => e.kind === 'VirtualMachine' && e.rv > from && POOL.includes(e.name) && e.runStrategy === 'Halted').map((e) => e.name);
      killed = halted.find((n) => events.some((e) => e.kind === 'VirtualMachineInstance' && e.type === 'DELETED' && e.uid === oldUids.get(n)));
      if (killed === undefined && Date.now() > end) throw new Error(`no node of the pool was stopped:\n${cluster.logTail(30)}`);
      if (killed === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const killedAt = lastRv();
    const vm = (await api.get<Vm>(`${VMS}/${killed}`)).body;
    // Cut short where the issue's run was: the node stopped, its VMI gone, not started again.
    expect({ killed, runStrategy: vm.spec.runStrategy }).toEqual({ killed, runStrategy: 'Halted' });
    await apply('the apply again');
    await converged('22Gi');
    process.stdout.write(`rollout e2e: a roll killed once ${killed} was stopped, then applied again\n${timeline(from)}`);

    // The audit log, in the API server's order (blocking mode: a line is written before the answer).
    type Audit = {
      verb: string;
      userAgent?: string;
      objectRef?: { resource?: string; subresource?: string; name?: string };
      responseStatus?: { code?: number };
      requestObject?: { spec?: { runStrategy?: string } };
    };
    const audit = fs
      .readFileSync(cluster.auditLog!, 'utf8')
      .split('\n')
      .slice(auditFrom)
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Audit];
        } catch {
          return [];
        }
      });
    const ok = (a: Audit) => (a.responseStatus?.code ?? 0) < 300;
    const writes = ['create', 'update', 'patch'];
    /** The first audit event from index `from` on that `matches`, or Infinity. */
    const first = (from: number, matches: (a: Audit) => boolean): number => {
      const found = audit.findIndex((a, i) => i >= from && ok(a) && matches(a));
      return found < 0 ? Infinity : found;
    };
    const vmWrite = (a: Audit) =>
      writes.includes(a.verb) && a.objectRef?.resource === 'virtualmachines' && a.objectRef.name === killed && a.objectRef.subresource === undefined;
    // From the roll's stop of the killed node on: the first write that set its runStrategy to a running value,
    // the fresh DataVolume KubeVirt made for it, and its first VMI.
    const halted = first(0, (a) => vmWrite(a) && a.requestObject?.spec?.runStrategy === 'Halted');
    const started = first(halted, (a) => vmWrite(a) && a.requestObject?.spec?.runStrategy !== undefined && a.requestObject.spec.runStrategy !== 'Halted');
    const freshDisk = first(
      halted,
      (a) =>
        a.verb === 'create' &&
        a.objectRef?.resource === 'datavolumes' &&
        a.objectRef.name?.startsWith(`${killed}-`) === true &&
        !a.objectRef.name.includes('surge'),
    );
    const firstVmi = first(halted, (a) => a.verb === 'create' && a.objectRef?.resource === 'virtualmachineinstances' && a.objectRef.name === killed);
    const said = audit
      .filter((x) => vmWrite(x) || (x.objectRef?.resource === 'virtualmachineinstances' && x.verb === 'create' && x.objectRef.name === killed))
      .map(
        (x) =>
          `${x.verb} ${x.objectRef?.resource} by ${x.userAgent ?? '?'}: runStrategy ${x.requestObject?.spec?.runStrategy ?? '-'} (${x.responseStatus?.code})`,
      )
      .join('\n');
    process.stdout.write(`rollout e2e: writes to ${killed} from the audit log:\n${said}\n`);
    expect([halted, started, freshDisk, firstVmi].map(Number.isFinite)).toEqual([true, true, true, true]);
    expect({ diskBeforeStart: freshDisk < started, startBeforeVmi: started < firstVmi }).toEqual({ diskBeforeStart: true, startBeforeVmi: true });
    // And the start was the roll's (metalslice's own client), not the deploy's apply of the VM.
    expect(audit[started].userAgent).toBe('metalslice');
    drainedFirst(from, oldUids);
    expect(peakVms(from)).toBe(4);
    // Only one VMI of that node was made after the kill: the one on the fresh disk.
    expect(events.filter((e) => e.kind === 'VirtualMachineInstance' && e.type === 'ADDED' && e.name === killed && e.rv > killedAt)).toHaveLength(1);

    // The collected DataVolume's old claim is gone, and web-1 runs on a claim of its own DataVolume.
    expect(events.some((e) => e.kind === 'PersistentVolumeClaim' && e.type === 'DELETED' && e.uid === collected.metadata.uid)).toBe(true);
    const fresh = (await claimOf('web-1'))!;
    expect(fresh.metadata.uid).not.toBe(collected.metadata.uid);
    expect(fresh.metadata.ownerReferences?.map((o) => o.kind)).toEqual(['DataVolume']);
  });
});
