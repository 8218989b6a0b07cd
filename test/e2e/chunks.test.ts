// A pool past NODES_PER_CHUNK nodes on the test API server, in the stack-per-pool layout: its first 100 nodes are
// instances of the first chunk's resources, the 101st the first instance of the second chunk's
// (constructs/parts/vm-nodes.ts). Scaling across that boundary, up and back down, must change exactly the one
// node in `tofu plan` and in the API server: the other 100 VMs keep their UIDs, and the plan after each apply is
// empty. The synth test checks the addresses; this checks what OpenTofu plans from them and what gets applied.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NODES_PER_CHUNK } from '../../constructs/parts/vm-nodes';
import { binary, configAppEnv, expectOk, run, startCluster, synthConfigApp, TestCluster } from './harness';
import type { KubeDoc, KubeList } from '../support/kube-docs';

jest.setTimeout(1_200_000);

const NAMESPACE = 'acme-chunks';
const VMS = `/apis/kubevirt.io/v1/namespaces/${NAMESPACE}/virtualmachines`;
const HOSTS = Array.from({ length: 12 }, (_, i) => `bm-${String(i).padStart(2, '0')}`);
const BASE = 'metalslice';
const POOL = 'metalslice-pool-wide';

interface ResourceChange {
  address: string;
  type: string;
  change: { actions: string[] };
}

/** One fleet of 12 hosts, one quota, one pool of `count` one-CPU VMs with container disks. */
function config(count: number, server: string, ca: string): unknown {
  return {
    fleets: [{ name: 'fra1', hosts: HOSTS.map((name) => ({ name, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } })) }],
    quotas: [{ name: 'chunks', fleet: 'fra1', organization: 'acme', limits: { cpu: 256, memory: '256Gi', disk: '1Ti' }, maxVirtualMachines: 200 }],
    clusters: [{ name: 'prod', endpoint: server, caCertificate: ca }],
    nodePools: [{ name: 'wide', quota: 'chunks', cluster: 'prod', shape: { cpu: 1, memory: '1Gi' }, rootDisk: 'containerDisk', count }],
  };
}

describe(`e2e: a pool across its chunk boundary (${NODES_PER_CHUNK} nodes)`, () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const stackDir = (stack: string) => path.join(work, 'cdktf.out', 'stacks', stack);
  const tf = (stack: string, args: string[]) => run(binary('tofu'), args, { cwd: stackDir(stack), env, timeoutMs: 600_000 });

  beforeAll(async () => {
    cluster = await startCluster({ kubevirtNamespace: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-chunks-'));
    // The nodes go without a drain: this is about the addresses OpenTofu plans, the drains have their own tests.
    env = configAppEnv(cluster, path.join(work, 'cdktf.out'), {
      METALSLICE_CONFIG: path.join(work, 'config.json'),
      METALSLICE_LAYOUT: 'stack-per-pool',
      METALSLICE_DRAIN: 'skip',
    });
    // The hosts as Nodes of the provider cluster, as a real fleet has them (a plan that groups hosts labels them).
    for (const name of HOSTS) expect((await cluster.client().create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } })).status).toBe(201);
  });

  // No destroy: the control plane goes with everything on it (a destroy of the pool's 100 nodes would add about two
  // minutes, nearly all of it the provider's wait for each VM).
  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** Synthesizes the config with a pool of `count` nodes; returns the stacks whose configuration changed. */
  async function synth(count: number): Promise<string[]> {
    const stacks = () => (fs.existsSync(stackDir('')) ? fs.readdirSync(stackDir('')).sort() : []);
    const read = (s: string) => fs.readFileSync(path.join(stackDir(s), 'cdk.tf.json'), 'utf8');
    const before = new Map(stacks().map((s) => [s, read(s)]));
    fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify(config(count, cluster.server, fs.readFileSync(cluster.caFile, 'utf8'))));
    await synthConfigApp(work, env, 300_000);
    expect(stacks()).toEqual([BASE, POOL]);
    return stacks().filter((s) => before.get(s) !== read(s));
  }

  /** The pool stack's planned changes other than no-ops and reads, from `tofu show -json` of the saved plan. */
  async function planned(): Promise<ResourceChange[]> {
    const plan = await tf(POOL, ['plan', '-detailed-exitcode', '-input=false', '-no-color', '-out=tfplan']);
    expect(plan.code).toBe(2);
    const shown = await tf(POOL, ['show', '-json', '-no-color', 'tfplan']);
    expectOk('show', shown);
    const changes = (JSON.parse(shown.stdout) as { resource_changes?: ResourceChange[] }).resource_changes ?? [];
    return changes.filter((c) => !['no-op', 'read'].includes(c.change.actions.join()));
  }

  async function expectPlansEmpty(): Promise<void> {
    for (const stack of [BASE, POOL]) {
      const again = await tf(stack, ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
      expect({ stack, code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ stack, code: 0, out: '' });
    }
  }

  /** The pool's VirtualMachines in the API server, by name, with their UIDs. */
  async function vms(): Promise<Map<string, string | undefined>> {
    const items = (await cluster.client().get<KubeList<KubeDoc>>(VMS)).body.items;
    return new Map(items.map((vm) => [vm.metadata.name, vm.metadata.uid]));
  }

  const names = (n: number) => Array.from({ length: n }, (_, i) => `wide-${i}`).sort();
  // A node's five resources (VM, user data Secret, token Secret, id and secret) in chunk `k` of the pool: the first
  // chunk at `wide/nodes`, a later one at `wide/nodes/<k>` (logical ids `wide_nodes_[<k>_][<part>_]<hash>`, the VMs without a part).
  const inChunk = (address: string) => {
    const chunk = /\.wide_nodes_(?:(\d+)_)?(?:[A-Za-z]+_)?[0-9A-F]{8}\[/.exec(address);
    return chunk ? (chunk[1] ?? '0') : undefined;
  };
  const keyOf = (address: string) => /\["([^"]+)"\]$/.exec(address)?.[1];

  it('plans and applies the 101st node as the second chunk alone, and takes it away again, every other VM untouched', async () => {
    await synth(NODES_PER_CHUNK);
    for (const stack of [BASE, POOL]) {
      expectOk(`init ${stack}`, await tf(stack, ['init', '-input=false', '-no-color']));
      expectOk(`apply ${stack}`, await tf(stack, ['apply', '-auto-approve', '-input=false', '-no-color']));
    }
    const full = await vms();
    expect([...full.keys()].sort()).toEqual(names(NODES_PER_CHUNK));
    await expectPlansEmpty();

    // One node more: the pool's stack alone changes, by the new node's instances, all of them created.
    expect(await synth(NODES_PER_CHUNK + 1)).toEqual([POOL]);
    const up = await planned();
    const node = `wide-${NODES_PER_CHUNK}`;
    expect(up.map((c) => ({ key: keyOf(c.address), actions: c.change.actions.join() }))).toEqual(up.map(() => ({ key: node, actions: 'create' })));
    // Its VM, user data Secret and token (Secret, id, secret) in the second chunk; its drain and end in a drain pair.
    const own = up.filter((c) => inChunk(c.address) !== undefined);
    expect(own.map((c) => inChunk(c.address))).toEqual(['1', '1', '1', '1', '1']);
    expect(own.map((c) => c.type).sort()).toEqual(['kubectl_manifest', 'kubectl_manifest', 'kubectl_manifest', 'random_password', 'random_string']);
    expect(up.filter((c) => inChunk(c.address) === undefined).map((c) => c.type)).toEqual(['terraform_data', 'terraform_data']);
    expectOk('apply +1', await tf(POOL, ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    const grown = await vms();
    expect([...grown.keys()].sort()).toEqual(names(NODES_PER_CHUNK + 1));
    for (const [name, uid] of full) expect({ name, uid: grown.get(name) }).toEqual({ name, uid });
    await expectPlansEmpty();

    // Back to 100: exactly that node's instances go, and its VM with them.
    expect(await synth(NODES_PER_CHUNK)).toEqual([POOL]);
    const down = await planned();
    expect(down.map((c) => ({ key: keyOf(c.address), actions: c.change.actions.join() }))).toEqual(up.map(() => ({ key: node, actions: 'delete' })));
    expect(down.map((c) => c.address).sort()).toEqual(up.map((c) => c.address).sort());
    expectOk('apply -1', await tf(POOL, ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    expect((await cluster.client().get(`${VMS}/${node}`)).status).toBe(404);
    expect(await vms()).toEqual(full);
    await expectPlansEmpty();
  });
});
