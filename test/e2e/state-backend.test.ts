// Two workstations, one fleet: two checkouts of the example config app (a stack per pool) share their states
// through OpenTofu's kubernetes backend on the provider cluster, as examples/provider/state-namespace.yaml sets
// it up. A deploy of a stack that another deploy holds waits for the lock (or fails naming the holder), then
// plans no change; deploys of different pool stacks hold their locks at the same time; a +1 in each pool from
// each workstation both land. Only the provider team's group reads the state; a tenant gets 403.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { EXAMPLE_CA } from '../support/models';
import { binary, CommandResult, DEFAULT_TENANT, expectOk, REPO_ROOT, run, startCluster, TestCluster } from './harness';
import type { KubeDoc, KubeList } from '../support/kube-docs';

jest.setTimeout(600_000);

const STATE_NS = 'metalslice-state';
const STATE_MANIFEST = path.join(REPO_ROOT, 'examples', 'provider', 'state-namespace.yaml');
const STACKS = ['metalslice', 'metalslice-pool-pool-a', 'metalslice-pool-pool-b'];
const VMS = '/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines';

interface LeaseDoc extends KubeDoc {
  spec: { holderIdentity?: string };
}

/** A tofu run whose output is watched while it runs and which can be answered (the apply approval prompt). */
interface Running {
  readonly output: () => string;
  readonly answer: (line: string) => void;
  readonly exited: () => boolean;
  readonly done: Promise<CommandResult & { endedAt: number }>;
}

function startTofu(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(binary('tofu'), args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let exited = false;
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const done = new Promise<CommandResult & { endedAt: number }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      exited = true;
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), endedAt: Date.now() });
    });
  });
  return {
    output: () => Buffer.concat(out).toString('utf8') + Buffer.concat(err).toString('utf8'),
    answer: (line) => child.stdin.write(`${line}\n`),
    exited: () => exited,
    done,
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('e2e: two workstations share locked per-stack state in the kubernetes backend', () => {
  let cluster: TestCluster;
  let work: string;
  let tofuEnv: NodeJS.ProcessEnv;
  /** Each stack's backend block, as both checkouts first synthesized it. */
  let firstBackends: Map<string, string>;
  const checkouts = ['ws1', 'ws2'];
  const dirOf = (ws: string) => path.join(work, ws);
  const stackDir = (ws: string, stack: string) => path.join(dirOf(ws), 'cdktf.out', 'stacks', stack);
  const tf = (ws: string, stack: string, args: string[]) => run(binary('tofu'), args, { cwd: stackDir(ws, stack), env: tofuEnv, timeoutMs: 300_000 });
  const lease = async (stack: string) =>
    (await cluster.client().get<LeaseDoc>(`/apis/coordination.k8s.io/v1/namespaces/${STATE_NS}/leases/lock-tfstate-default-${stack}`)).body;
  const vmNames = async () => (await cluster.client().get<KubeList<KubeDoc>>(VMS)).body.items.map((v) => v.metadata.name).sort();

  function writeConfig(ws: string, counts: { a: number; b: number }): void {
    const config = {
      fleets: [{ name: 'f1', hosts: ['bm-01', 'bm-02'].map((name) => ({ name, capacity: { cpu: 32, memory: '128Gi', disk: '1Ti' } })) }],
      quotas: [
        { name: 'team-a', fleet: 'f1', organization: 'acme', limits: { cpu: 16, memory: '32Gi' }, maxVirtualMachines: 8, consumers: [DEFAULT_TENANT.user] },
      ],
      clusters: [{ name: 'prod', endpoint: cluster.server, caCertificate: EXAMPLE_CA }],
      nodePools: [
        { name: 'pool-a', quota: 'team-a', cluster: 'prod', shape: { cpu: 1, memory: '1Gi' }, rootDisk: 'containerDisk', count: counts.a },
        { name: 'pool-b', quota: 'team-a', cluster: 'prod', shape: { cpu: 1, memory: '1Gi' }, rootDisk: 'containerDisk', count: counts.b },
      ],
    };
    fs.writeFileSync(path.join(dirOf(ws), 'metalslice.json'), JSON.stringify(config));
  }

  /** `cdktf synth` of the example config app in a checkout; returns each stack's backend block. */
  async function synth(ws: string): Promise<Map<string, string>> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CHECKPOINT_DISABLE: '1',
      CDKTF_OUTDIR: path.join(dirOf(ws), 'cdktf.out'),
      KUBE_CONFIG_PATH: cluster.adminKubeconfig,
      METALSLICE_CONFIG: path.join(dirOf(ws), 'metalslice.json'),
      METALSLICE_LAYOUT: 'stack-per-pool',
    };
    delete env.METALSLICE_STATE; // the example's default: the kubernetes backend
    const r = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], {
      cwd: dirOf(ws),
      env,
      timeoutMs: 120_000,
    });
    expectOk(`synth ${ws}`, r);
    const backends = new Map<string, string>();
    for (const stack of STACKS) {
      const json = JSON.parse(fs.readFileSync(path.join(stackDir(ws, stack), 'cdk.tf.json'), 'utf8')) as { terraform: { backend: unknown } };
      backends.set(stack, JSON.stringify(json.terraform.backend));
    }
    return backends;
  }

  beforeAll(async () => {
    cluster = await startCluster({ kubevirtNamespace: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-state-'));
    // What the provider team applies once, before the first deploy: the state namespace and its RBAC.
    const api = cluster.client();
    for (const doc of parseAllDocuments(fs.readFileSync(STATE_MANIFEST, 'utf8')).map((d) => d.toJSON() as KubeDoc & { kind: string })) {
      const collection =
        doc.kind === 'Namespace' ? '/api/v1/namespaces' : `/apis/rbac.authorization.k8s.io/v1/namespaces/${doc.metadata.namespace}/${doc.kind.toLowerCase()}s`;
      expect({ kind: doc.kind, status: (await api.create(collection, doc)).status }).toEqual({ kind: doc.kind, status: 201 });
    }
    // The tenant cluster is the example's CA, not the test API server: its nodes go without a drain.
    tofuEnv = { ...process.env, CHECKPOINT_DISABLE: '1', KUBE_CONFIG_PATH: cluster.adminKubeconfig, METALSLICE_DRAIN: 'skip' };
    delete tofuEnv.TF_PLUGIN_CACHE_DIR;
    delete tofuEnv.TF_INPUT;
    delete tofuEnv.TF_IN_AUTOMATION;
    for (const ws of checkouts) {
      fs.mkdirSync(dirOf(ws));
      writeConfig(ws, { a: 1, b: 1 });
    }
  });

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('gives every stack its own state key, the same in both checkouts', async () => {
    const [one, two] = [await synth('ws1'), await synth('ws2')];
    expect([...two]).toEqual([...one]);
    firstBackends = one;
    for (const stack of STACKS) {
      expect(JSON.parse(one.get(stack)!)).toEqual({ kubernetes: { namespace: STATE_NS, secret_suffix: stack } });
    }
    for (const ws of checkouts) for (const stack of STACKS) expectOk(`init ${ws} ${stack}`, await tf(ws, stack, ['init', '-input=false', '-no-color']));
    // init made one (empty) state per stack, not one per checkout.
    const secrets = (await cluster.client().get<KubeList<KubeDoc>>(`/api/v1/namespaces/${STATE_NS}/secrets?labelSelector=tfstate%3Dtrue`)).body.items;
    expect(secrets.map((s) => s.metadata.name).sort()).toEqual(STACKS.map((s) => `tfstate-default-${s}`).sort());
  });

  it('a second deploy of a stack the first holds fails naming the holder, or waits for it and then plans no change', async () => {
    // Workstation 1 sits at the approval prompt: it holds the base stack's lock.
    const first = startTofu(stackDir('ws1', 'metalslice'), ['apply', '-no-color'], tofuEnv);
    await until('ws1 at the approval prompt', () => first.output().includes('Enter a value:') || first.exited());
    expect(first.output()).toMatch(/Plan: \d+ to add, 0 to change, 0 to destroy/);
    const held = await lease('metalslice');
    const holder = held.spec.holderIdentity;
    expect(holder).toMatch(/^[0-9a-f-]{36}$/);
    const info = JSON.parse(held.metadata.annotations?.['app.terraform.io/lock-info'] ?? '{}') as { ID?: string; Operation?: string; Who?: string };
    expect(info).toMatchObject({ ID: holder, Operation: 'OperationTypeApply' });

    // Without waiting: refused, naming the lock and who holds it.
    const refused = await tf('ws2', 'metalslice', ['apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=0s']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error acquiring the state lock');
    expect(refused.stderr).toContain(`ID:        ${holder}`);
    expect(refused.stderr).toContain(`Who:       ${info.Who}`);

    // With -lock-timeout: workstation 2 waits while workstation 1 holds the lock.
    const second = startTofu(stackDir('ws2', 'metalslice'), ['apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=240s'], tofuEnv);
    await new Promise((r) => setTimeout(r, 4_000));
    expect(second.exited()).toBe(false);
    expect((await lease('metalslice')).spec.holderIdentity).toBe(holder);
    first.answer('yes');
    const [a, b] = [await first.done, await second.done];
    expectOk('ws1 apply', a);
    expect(a.stdout).toMatch(/Apply complete! Resources: [1-9]\d* added, 0 changed, 0 destroyed/);
    expectOk('ws2 apply', b);
    expect(b.stdout).toContain('No changes.');
    expect(b.endedAt).toBeGreaterThanOrEqual(a.endedAt);
    expect((await lease('metalslice')).spec.holderIdentity).toBeUndefined();
  });

  it('deploys of two pool stacks from two checkouts hold their locks at once, and both land', async () => {
    const a = startTofu(stackDir('ws1', 'metalslice-pool-pool-a'), ['apply', '-no-color'], tofuEnv);
    const b = startTofu(stackDir('ws2', 'metalslice-pool-pool-b'), ['apply', '-no-color'], tofuEnv);
    await until('both at the approval prompt', () => [a, b].every((r) => r.output().includes('Enter a value:') || r.exited()));
    // Both stacks are locked at the same moment: different states never wait for each other.
    const holders = [(await lease('metalslice-pool-pool-a')).spec.holderIdentity, (await lease('metalslice-pool-pool-b')).spec.holderIdentity];
    expect(holders.every((h) => typeof h === 'string')).toBe(true);
    expect(holders[0]).not.toBe(holders[1]);
    a.answer('yes');
    b.answer('yes');
    for (const r of [await a.done, await b.done]) expectOk('pool apply', r);
    expect(await vmNames()).toEqual(['pool-a-0', 'pool-b-0']);
  });

  it('a +1 in pool-a on one workstation and in pool-b on the other, at the same time, both land; keys unchanged', async () => {
    writeConfig('ws1', { a: 2, b: 1 });
    writeConfig('ws2', { a: 1, b: 2 });
    const [one, two] = [await synth('ws1'), await synth('ws2')];
    expect([...one]).toEqual([...firstBackends]);
    expect([...two]).toEqual([...firstBackends]);
    const [a, b] = await Promise.all([
      tf('ws1', 'metalslice-pool-pool-a', ['apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=120s']),
      tf('ws2', 'metalslice-pool-pool-b', ['apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=120s']),
    ]);
    expectOk('+1 pool-a from ws1', a);
    expectOk('+1 pool-b from ws2', b);
    expect(await vmNames()).toEqual(['pool-a-0', 'pool-a-1', 'pool-b-0', 'pool-b-1']);

    // After a `git pull` a checkout holds both changes: every stack plans no change against the shared states.
    writeConfig('ws1', { a: 2, b: 2 });
    await synth('ws1');
    for (const stack of STACKS) {
      const plan = await tf('ws1', stack, ['plan', '-detailed-exitcode', '-input=false', '-no-color', '-lock-timeout=60s']);
      expect({ stack, code: plan.code, out: plan.code === 0 ? '' : plan.stdout.slice(-2000) }).toEqual({ stack, code: 0, out: '' });
    }
    const secrets = (await cluster.client().get<KubeList<KubeDoc>>(`/api/v1/namespaces/${STATE_NS}/secrets?labelSelector=tfstate%3Dtrue`)).body.items;
    expect(secrets).toHaveLength(STACKS.length);
  });

  it('only the provider team reads the state: a tenant with rights in its own namespace gets 403 on every state object', async () => {
    const binding = parseAllDocuments(fs.readFileSync(STATE_MANIFEST, 'utf8'))
      .map((d) => d.toJSON() as KubeDoc & { kind: string; subjects?: { kind: string; name: string }[] })
      .find((d) => d.kind === 'RoleBinding');
    const group = binding?.subjects?.find((s) => s.kind === 'Group')?.name;
    expect(group).toBeDefined();
    const provider = cluster.client(cluster.tenantKubeconfig('pat', [group!]));
    const tenant = cluster.client(cluster.tenantKubeconfig());
    const secret = `/api/v1/namespaces/${STATE_NS}/secrets/tfstate-default-metalslice-pool-pool-a`;
    // The tenant identity is live and holds its quota's Role (it reads its nodes' cloud-init Secrets)...
    expect((await tenant.get('/api/v1/namespaces/acme-team-a/secrets')).status).toBe(200);
    // ...and cannot read, list or lock any state.
    expect((await tenant.get(secret)).status).toBe(403);
    expect((await tenant.get(`/api/v1/namespaces/${STATE_NS}/secrets`)).status).toBe(403);
    expect((await tenant.get(`/apis/coordination.k8s.io/v1/namespaces/${STATE_NS}/leases/lock-tfstate-default-metalslice`)).status).toBe(403);
    // The provider team's group reads the state, which holds the nodes' bootstrap tokens.
    const read = await provider.get<{ data?: Record<string, string> }>(secret);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body.data ?? {})).toEqual(['tfstate']);
  });
});
