// A private (Metal3) pool whose Kubernetes version changes: its hosts are replaced one at a time through drains, a
// free matching host claimed first as the surge. The provider cluster serves the upstream Metal3 CRDs; Metal3 is
// stood in for below (a claim powered on binds a host and its node joins; a claim deleted keeps Metal3's finalizer
// until its host is "deprovisioned"). The tenant cluster is the same API server. Judged from its watch events.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { binary, configAppEnv, expectOk, REPO_ROOT, run, startCluster, synthConfigApp, TestCluster } from './harness';
import { standInJoin } from './tenant-shop';
import type { KubeDoc, KubeList } from '../support/kube-docs';
import type { WatchEvent } from '../../constructs/verify/processes';

jest.setTimeout(1_800_000);

const NAMESPACE = 'shop-metal';
const CLAIMS = `/apis/metal3.io/v1alpha1/namespaces/${NAMESPACE}/hostclaims`;
const POOL = ['shop-gpu-0', 'shop-gpu-1'];
const SURGE = 'shop-gpu-0-surge';
/** Metal3's own finalizer on a bound claim, which it removes once the host is deprovisioned. */
const METAL3_FINALIZER = 'hostclaim.metal3.io';
const IMAGE = { url: 'https://images.example.com/node-24.04.raw', checksum: 'c'.repeat(64), checksumType: 'sha256' };

interface Claim extends KubeDoc {
  metadata: KubeDoc['metadata'] & { labels?: Record<string, string>; finalizers?: string[]; deletionTimestamp?: string };
  spec: { poweredOn?: boolean; image?: { url?: string } };
}

/** Three GPU hosts, two claimed by the pool: one free for the surge. */
function config(caPem: string, server: string, kubernetesVersion: string): string {
  return stringify({
    apiVersion: 'metalslice.io/v1alpha1',
    clusters: [{ name: 'shop', endpoint: server, kubernetesVersion, caCertificate: caPem }],
    nodeProviders: [
      {
        name: 'metal',
        kind: 'metal3',
        hostNamespace: 'metal3',
        hosts: ['bm-0', 'bm-1', 'bm-2'].map((name) => ({ name, labels: { role: 'gpu' }, state: 'available', capacity: { cpu: 64, memory: '512Gi' } })),
        nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { role: 'gpu' } } }],
      },
    ],
    privateNodePools: [{ name: 'gpu', cluster: 'shop', provider: 'metal', nodeType: 'gpu-node', count: 2, image: IMAGE, drainTimeout: '2m' }],
  });
}

interface Recorded {
  readonly kind: string;
  readonly type: string;
  readonly name: string;
  readonly rv: number;
  readonly uid: string;
  readonly revision?: string;
  readonly deleting: boolean;
  /** A HostClaim's spec.poweredOn. */
  readonly on?: boolean;
}

describe('e2e: a private pool that changes rolls its hosts through drains, a free host first', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const events: Recorded[] = [];
  const stops: (() => void)[] = [];
  const stackDir = () => path.join(work, 'cdktf.out', 'stacks', 'from-config');
  const configFile = () => path.join(work, 'metalslice.yaml');

  /**
   * Metal3 and the hosts, stood in for: a claim powered on is bound (Metal3's finalizer), its host boots and joins
   * (a Ready Node with a pod); a claim being deleted is "deprovisioned" a moment later (the finalizer goes).
   */
  function standInMetal3(): void {
    const api = cluster.client();
    const joined = new Set<string>();
    const join = async (claim: Claim): Promise<void> => {
      const name = claim.metadata.name;
      await api.request('PATCH', `${CLAIMS}/${name}`, { metadata: { finalizers: [METAL3_FINALIZER] } }, 'application/merge-patch+json');
      await standInJoin(api, name, 'gpu', 'shop');
    };
    const releasing = new Set<string>();
    // Read every quarter second rather than watched: a stand-in must not miss a claim.
    const timer = setInterval(() => {
      void (async () => {
        const res = await api.get<KubeList<Claim>>(CLAIMS);
        for (const claim of res.status === 200 ? res.body.items : []) {
          const uid = claim.metadata.uid ?? '';
          if (claim.metadata.deletionTimestamp !== undefined) {
            if ((claim.metadata.finalizers ?? []).includes(METAL3_FINALIZER) && !releasing.has(uid)) {
              releasing.add(uid);
              setTimeout(() => {
                void api.request('PATCH', `${CLAIMS}/${claim.metadata.name}`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
              }, 1500);
            }
            continue;
          }
          if (claim.spec.poweredOn !== true || joined.has(uid)) continue;
          joined.add(uid);
          void join(claim);
        }
      })();
    }, 250);
    stops.push(() => clearInterval(timer));
  }

  function record(): void {
    const api = cluster.client();
    const watch = (kind: string, url: string) => {
      const w = api.watch<Claim>(url, (e: WatchEvent<Claim>) => {
        const m = e.object.metadata;
        events.push({
          kind,
          type: e.type,
          name: m.name,
          rv: Number(m.resourceVersion),
          uid: m.uid ?? '',
          revision: m.labels?.['metalslice.io/revision'],
          deleting: m.deletionTimestamp !== undefined,
          ...(kind === 'HostClaim' ? { on: e.object.spec.poweredOn === true } : {}),
        });
      });
      stops.push(() => w.stop());
    };
    watch('HostClaim', `${CLAIMS}?watch=1`);
    watch('Node', '/api/v1/nodes?watch=1');
    watch('Pod', '/api/v1/namespaces/shop/pods?watch=1');
    watch('Hold', `/api/v1/namespaces/${NAMESPACE}/configmaps?watch=1&labelSelector=metalslice.io%2Fstopped-by-roll`);
  }

  const synth = async (version: string) => {
    fs.writeFileSync(configFile(), config(fs.readFileSync(cluster.caFile, 'utf8'), cluster.server, version));
    await synthConfigApp(work, env);
  };
  const tf = (args: string[]) => run(binary('tofu'), args, { cwd: stackDir(), env, timeoutMs: 1_200_000 });
  const claims = async () => (await cluster.client().get<KubeList<Claim>>(CLAIMS)).body.items;
  const lastRv = () => Math.max(0, ...events.map((e) => e.rv));

  beforeAll(async () => {
    cluster = await startCluster();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-host-rollout-'));
    env = configAppEnv(cluster, path.join(work, 'cdktf.out'), { METALSLICE_CONFIG: configFile() });
    for (const name of ['shop', 'metal3']) expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
    record();
    standInMetal3();
    await synth('1.33');
    expectOk('init', await tf(['init', '-input=false', '-no-color']));
    expectOk('first apply', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));
    const deadline = Date.now() + 120_000;
    while ((await cluster.client().get<KubeList<KubeDoc>>('/api/v1/nodes?labelSelector=metalslice.io%2Fpool%3Dgpu')).body.items.length < 2) {
      if (Date.now() > deadline)
        throw new Error(
          `the pool's hosts never joined (claims: ${JSON.stringify(await claims())}, events: ${JSON.stringify(events)}):\n${cluster.logTail(30)}`,
        );
      await new Promise((r) => setTimeout(r, 500));
    }
  });

  afterAll(async () => {
    for (const stop of stops) stop();
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('plan --previous names the roll with its peak; the deploy drains each host, releases its claim, then deletes its Node, then claims again', async () => {
    const planFile = path.join(stackDir(), 'metalslice-plan.json');
    const previous = path.join(work, 'previous-plan.json');
    fs.copyFileSync(planFile, previous);
    const before = await claims();
    const oldRevision = before[0].metadata.labels?.['metalslice.io/revision'];
    expect(oldRevision).toMatch(/^[0-9a-f]{16}$/);
    const oldUids = new Map(before.map((c) => [c.metadata.name, c.metadata.uid ?? '']));
    const from = lastRv();

    await synth('1.34');
    const cli = path.join(REPO_ROOT, 'bin', 'metalslice');
    const planned = await run(cli, ['plan', configFile(), '--previous', previous], { cwd: work, env, timeoutMs: 120_000 });
    expectOk('plan --previous', planned);
    expect(planned.stdout).toContain('pool gpu: 2 → 2 nodes, 2 replaced (surge 1 on bm-2, 1 at a time; peak 3 hosts held)');

    // The plan leaves both claims as they are: the roll is the one writer of their revision.
    const tfPlan = await tf(['plan', '-input=false', '-no-color']);
    expectOk('plan', tfPlan);
    expect(tfPlan.stdout).toMatch(/terraform_data\.gpu_hosts_rollout_\w+ must be replaced/);
    expect(tfPlan.stdout).not.toMatch(/kubernetes_manifest\.gpu_shop-gpu-\d_\w+ (will be updated|must be replaced)/);

    const applied = await tf(['apply', '-auto-approve', '-input=false', '-no-color']);
    expectOk('upgrade', applied);
    expect(applied.stdout).toMatch(/roll-hosts: pool gpu: 2 of 2 host\(s\) to replace \(shop-gpu-0, shop-gpu-1\), surge 1, 1 at a time/);

    const after = await claims();
    expect(after.map((c) => c.metadata.name).sort()).toEqual(POOL);
    const newRevision = after[0].metadata.labels?.['metalslice.io/revision'];
    expect(newRevision).toMatch(/^[0-9a-f]{16}$/);
    expect(newRevision).not.toBe(oldRevision);
    const ordered = events.filter((e) => e.rv > from).sort((a, b) => a.rv - b.rv);
    for (const node of POOL) {
      const claim = after.find((c) => c.metadata.name === node)!;
      expect({ node, revision: claim.metadata.labels?.['metalslice.io/revision'], fresh: claim.metadata.uid !== oldUids.get(node) }).toEqual({
        node,
        revision: newRevision,
        fresh: true,
      });
      // Until its drain, nothing wrote the old claim's revision: it stayed as it was.
      const oldWrites = ordered.filter((e) => e.kind === 'HostClaim' && e.uid === oldUids.get(node));
      expect(oldWrites.every((e) => e.revision === oldRevision)).toBe(true);
      const podGone = ordered.find((e) => e.kind === 'Pod' && e.type === 'DELETED' && e.name === `app-on-${node}`);
      const released = ordered.find((e) => e.kind === 'HostClaim' && e.type === 'DELETED' && e.uid === oldUids.get(node));
      const nodeGone = ordered.find((e) => e.kind === 'Node' && e.type === 'DELETED' && e.name === node);
      const claimedAgain = ordered.find((e) => e.kind === 'HostClaim' && e.type === 'ADDED' && e.name === node);
      const joinedAgain = ordered.find((e) => e.kind === 'Node' && e.type === 'ADDED' && e.name === node);
      expect({ node, drained: !!podGone, released: !!released, removed: !!nodeGone, claimed: !!claimedAgain, joined: !!joinedAgain }).toEqual({
        node,
        drained: true,
        released: true,
        removed: true,
        claimed: true,
        joined: true,
      });
      // Cluster API's order: evicted, the machine gone (Metal3 released the host), the Node deleted, then claimed again.
      expect([podGone!.rv < released!.rv, released!.rv < nodeGone!.rv, nodeGone!.rv < claimedAgain!.rv, claimedAgain!.rv < joinedAgain!.rv]).toEqual([
        true,
        true,
        true,
        true,
      ]);
    }
    // The surge host joined before the first drain and was released after the last node joined again.
    const surgeJoined = ordered.find((e) => e.kind === 'Node' && e.type === 'ADDED' && e.name === SURGE)!;
    const firstDrain = Math.min(
      ...ordered.filter((e) => e.kind === 'Pod' && e.type === 'DELETED' && POOL.some((n) => e.name === `app-on-${n}`)).map((e) => e.rv),
    );
    const lastJoin = Math.max(...ordered.filter((e) => e.kind === 'Node' && e.type === 'ADDED' && POOL.includes(e.name)).map((e) => e.rv));
    const surgeReleased = ordered.find((e) => e.kind === 'HostClaim' && e.type === 'DELETED' && e.name === SURGE)!;
    expect({ surgeFirst: surgeJoined.rv < firstDrain, surgeLast: surgeReleased.rv > lastJoin }).toEqual({ surgeFirst: true, surgeLast: true });
    // Never more than three hosts claimed at once: the pool and one surge, the peak the plan proved.
    const live = new Set(POOL);
    let peak = live.size;
    for (const e of ordered.filter((x) => x.kind === 'HostClaim'))
      if (e.type === 'ADDED') peak = Math.max(peak, live.add(e.name).size);
      else if (e.type === 'DELETED') live.delete(e.name);
    expect(peak).toBe(3);
    // Nothing is left cordoned or held, and the next apply converges: its plan after that is empty.
    for (const node of POOL) {
      const n = (await cluster.client().get<{ spec?: { unschedulable?: boolean } }>(`/api/v1/nodes/${node}`)).body;
      expect({ node, cordoned: n.spec?.unschedulable === true }).toEqual({ node, cordoned: false });
    }
    // Each node was held while its claim was released, and no hold is left.
    for (const node of POOL) expect(ordered.some((e) => e.kind === 'Hold' && e.type === 'ADDED' && e.name === `${node}-roll-hold`)).toBe(true);
    const held = (await cluster.client().get<KubeList<KubeDoc>>(`/api/v1/namespaces/${NAMESPACE}/configmaps?labelSelector=metalslice.io%2Fstopped-by-roll`))
      .body.items;
    expect(held).toEqual([]);
    expectOk('apply after the roll', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
    // The claims the roll made are what the stack renders: the apply after it changed no spec.
    for (const c of await claims())
      expect({ name: c.metadata.name, image: c.spec.image?.url, on: c.spec.poweredOn }).toEqual({ name: c.metadata.name, image: IMAGE.url, on: true });
  });

  it('a roll killed once a host was released, applied again: the claim the deploy makes again stays powered off until the old Node is gone', async () => {
    const before = await claims();
    const oldUids = new Map(before.map((c) => [c.metadata.name, c.metadata.uid ?? '']));
    const from = lastRv();
    await synth('1.35');
    const child = spawn(binary('tofu'), ['apply', '-auto-approve', '-input=false', '-no-color'], { cwd: stackDir(), env, detached: true, stdio: 'ignore' });
    // Killed (the workstation dies) once the roll, holding a node (its ConfigMap), asked Metal3 to release its claim
    // (the claim's deletionTimestamp). Not at the hold itself: the claim's delete follows it by milliseconds, and a kill
    // in between leaves a claim that nothing releases (a roll run again replaces it as any other).
    let killed: string | undefined;
    const releasing = (e: Recorded) => e.kind === 'HostClaim' && e.deleting && e.rv > from && [...oldUids.values()].includes(e.uid) && POOL.includes(e.name);
    for (const end = Date.now() + 600_000; killed === undefined;) {
      killed = events.find(releasing)?.name;
      if (killed === undefined && Date.now() > end) throw new Error(`no host of the pool was released:\n${cluster.logTail(30)}`);
      if (killed === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // Metal3 finishes the release it was asked for; nothing claims the host again while no deploy runs.
    const deadline = Date.now() + 60_000;
    while ((await claims()).some((c) => c.metadata.uid === oldUids.get(killed))) {
      if (Date.now() > deadline) throw new Error(`the claim of ${killed} was not released`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const killedAt = lastRv();
    expect(POOL).toContain(killed);
    // Cut short where a guest could run on without its Node: the old Node is still there, cordoned, and no claim.
    expect((await cluster.client().get<{ spec?: { unschedulable?: boolean } }>(`/api/v1/nodes/${killed}`)).body.spec?.unschedulable).toBe(true);
    expect((await claims()).map((c) => c.metadata.name)).not.toContain(killed);

    expectOk('the apply again', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));
    const ordered = events.filter((e) => e.rv > killedAt).sort((a, b) => a.rv - b.rv);
    const remade = ordered.find((e) => e.kind === 'HostClaim' && e.type === 'ADDED' && e.name === killed)!;
    const oldNodeGone = ordered.find((e) => e.kind === 'Node' && e.type === 'DELETED' && e.name === killed)!;
    // The new claim's own events (its uid): the old claim's DELETED event, powered on, may reach the watch only after
    // the poll above saw it gone (a loaded machine), and so fall after killedAt.
    const poweredOn = ordered.find((e) => e.kind === 'HostClaim' && e.uid === remade?.uid && e.on)!;
    const joined = ordered.find((e) => e.kind === 'Node' && e.type === 'ADDED' && e.name === killed)!;
    // The deploy made the claim again powered off (it read the hold when it planned); the roll deleted the old Node,
    // then powered it on, and only then did its host join.
    expect({ remade: !!remade, off: remade?.on, oldNodeGone: !!oldNodeGone, poweredOn: !!poweredOn, joined: !!joined }).toEqual({
      remade: true,
      off: false,
      oldNodeGone: true,
      poweredOn: true,
      joined: true,
    });
    expect([remade.rv < oldNodeGone.rv, oldNodeGone.rv < poweredOn.rv, poweredOn.rv < joined.rv]).toEqual([true, true, true]);
    // Every host runs the new revision, Ready and not cordoned; nothing is held; the next plan is empty.
    const after = await claims();
    expect(new Set(after.map((c) => c.metadata.labels?.['metalslice.io/revision'])).size).toBe(1);
    expect(after.every((c) => !before.some((b) => b.metadata.uid === c.metadata.uid))).toBe(true);
    for (const node of POOL) {
      const n = (await cluster.client().get<{ spec?: { unschedulable?: boolean } }>(`/api/v1/nodes/${node}`)).body;
      expect({ node, cordoned: n.spec?.unschedulable === true }).toEqual({ node, cordoned: false });
    }
    const holds = (await cluster.client().get<KubeList<KubeDoc>>(`/api/v1/namespaces/${NAMESPACE}/configmaps?labelSelector=metalslice.io%2Fstopped-by-roll`))
      .body.items;
    expect(holds).toEqual([]);
    expectOk('apply after the roll', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));
    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  });
});
