// The config path in one apply: the example YAML as a single stack, so quotas and the VMs they count are
// created together. VMs wait for the quota controller to account their quota (a real race otherwise).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { binary, expectOk, REPO_ROOT, run, startCluster, TestCluster, tofu } from './harness';

jest.setTimeout(1_200_000);

const VMS = '/apis/kubevirt.io/v1';

describe('e2e: the example config as one stack', () => {
  let cluster: TestCluster;
  let work: string;
  const stackDir = () => path.join(work, 'cdktf.out', 'stacks', 'from-config');

  beforeAll(async () => {
    cluster = await startCluster({ kubevirtDefaulting: true });
    // What installing KubeVirt and Metal3 leaves behind: their namespaces.
    for (const name of ['kubevirt', 'metal3']) expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-config-'));
  });

  afterAll(async () => {
    if (work && fs.existsSync(path.join(stackDir(), '.terraform'))) await tofu(stackDir(), ['destroy', '-auto-approve', '-input=false', '-no-color']);
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('creates quotas, VMs, auto-node pools and HostClaims in one apply, re-plans clean, and destroys', async () => {
    const env = { ...process.env, CHECKPOINT_DISABLE: '1', CDKTF_OUTDIR: path.join(work, 'cdktf.out'), KUBE_CONFIG_PATH: cluster.adminKubeconfig };
    expectOk('synth', await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], { cwd: work, env, timeoutMs: 120_000 }));
    const tf = (args: string[]) => run(binary('tofu'), args, { cwd: stackDir(), env, timeoutMs: 600_000 });
    expectOk('init', await tf(['init', '-input=false', '-no-color']));
    expectOk('apply', await tf(['apply', '-auto-approve', '-input=false', '-no-color']));

    const api = cluster.client();
    const vms = (await api.get(`${VMS}/namespaces/acme-team-a/virtualmachines`)).body.items as { metadata: { name: string } }[];
    expect(vms.map((v) => v.metadata.name).sort()).toEqual(
      ['team-a-highmem-0', 'team-a-highmem-1', 'team-a-prod-base-0', 'team-a-prod-base-1', 'team-a-workers-0', 'team-a-workers-1', 'team-a-workers-2', 'team-a-workers-3', 'team-a-workers-4', 'team-a-workers-5'].sort(),
    );
    const claims = (await api.get('/apis/metal3.io/v1alpha1/namespaces/team-a-prod-metal/hostclaims')).body.items as { metadata: { name: string } }[];
    expect(claims.map((c) => c.metadata.name).sort()).toEqual(['team-a-prod-train-0', 'team-a-prod-train-1']);
    const rq = (await api.get('/api/v1/namespaces/acme-team-a/resourcequotas/metalslice')).body;
    expect(rq.status.used['count/virtualmachines.kubevirt.io']).toBe('10');

    const again = await tf(['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });

    expectOk('destroy', await tf(['destroy', '-auto-approve', '-input=false', '-no-color']));
    expect((await api.get(`${VMS}/virtualmachines`)).body.items).toEqual([]);
    expect((await api.get('/apis/metal3.io/v1alpha1/hostclaims')).body.items).toEqual([]);
  });
});
