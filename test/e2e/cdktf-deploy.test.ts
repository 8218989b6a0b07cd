// The workstation path itself: `cdktf deploy` and `cdktf destroy` of the example app with OpenTofu
// (TERRAFORM_BINARY_NAME=tofu), against a real kube-apiserver.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exampleStackEnv, expectOk, REPO_ROOT, run, startCluster, TestCluster } from './harness';
import type { KubeDoc, KubeList, NamespaceDoc, ResourceQuotaDoc } from '../support/kube-docs';

jest.setTimeout(1_200_000);

const VMS = '/apis/kubevirt.io/v1';

describe('e2e: cdktf deploy and destroy with OpenTofu', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;

  // `providers lock` asks the registry for every platform's checksums; offline, `tofu init` from the mirror
  // has already written the lock file for this one.
  const cdktf = (args: string[]) => run(path.join(REPO_ROOT, 'node_modules', '.bin', 'cdktf'), args, { cwd: work, env, timeoutMs: 600_000 });

  beforeAll(async () => {
    // With KubeVirt's defaulting imitated (it rewrites VM specs on admission), as a real cluster would.
    cluster = await startCluster({ kubevirt: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-cdktf-'));
    // A project directory of its own, so state and cdktf.out stay out of the repository.
    const tsx = path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    fs.writeFileSync(
      path.join(work, 'cdktf.json'),
      JSON.stringify({
        language: 'typescript',
        app: `"${process.execPath}" "${tsx}" "${path.join(REPO_ROOT, 'examples', 'app.ts')}"`,
        sendCrashReports: 'false',
      }),
    );
    env = exampleStackEnv(cluster, { TERRAFORM_BINARY_NAME: 'tofu', CI: 'true' });
  });

  afterAll(async () => {
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('deploys the provider and consumer stacks, then destroys them', async () => {
    expectOk('cdktf deploy provider', await cdktf(['deploy', 'provider', '--auto-approve', '--skip-provider-lock']));
    const api = cluster.client();
    // The quota controller must account the new quotas before the API server admits the VMs they count.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const rq = (await api.get<ResourceQuotaDoc>('/api/v1/namespaces/acme-team-a/resourcequotas/metalslice')).body;
      if (rq.status?.used && Object.keys(rq.spec.hard).every((k) => k in (rq.status?.used ?? {}))) break;
      if (Date.now() > deadline) throw new Error('quota not accounted after 90s');
      await new Promise((r) => setTimeout(r, 500));
    }
    expectOk('cdktf deploy consumer', await cdktf(['deploy', 'consumer', '--auto-approve', '--skip-provider-lock']));
    const vms = (await api.get<KubeList<KubeDoc>>(`${VMS}/namespaces/acme-team-a/virtualmachines`)).body.items;
    expect(vms.map((v: { metadata: { name: string } }) => v.metadata.name)).toEqual(
      expect.arrayContaining(['team-a-workers-0', 'team-a-highmem-1', 'team-a-prod-base-0']),
    );
    expect(fs.existsSync(path.join(work, 'cdktf.out', 'stacks', 'consumer', 'metalslice-plan.json'))).toBe(true);

    expectOk('cdktf destroy consumer', await cdktf(['destroy', 'consumer', '--auto-approve', '--skip-provider-lock']));
    expectOk('cdktf destroy provider', await cdktf(['destroy', 'provider', '--auto-approve', '--skip-provider-lock']));
    expect((await api.get<KubeList<KubeDoc>>(`${VMS}/virtualmachines`)).body.items).toEqual([]);
    const ns = await api.get<NamespaceDoc>('/api/v1/namespaces/acme-team-a');
    expect(ns.status === 404 || ns.body.status?.phase === 'Terminating').toBe(true);
  });
});
