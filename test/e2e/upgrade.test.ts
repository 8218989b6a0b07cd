// Upgrading from metalslice 0.1, whose VirtualMachines were `kubernetes_manifest` resources and user data Secrets
// `kubernetes_secret_v1` ones, to `kubectl_manifest`: with the adopt context key set for one deploy, every running
// VM is taken over in place (imported, the old resource forgotten), every user data Secret too (the old resource
// forgotten, the Secret applied server-side), none is destroyed or recreated, and the next plan without the key is
// empty.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADOPT_MANIFEST_VMS_CONTEXT } from '../../constructs';
import { exampleStackEnv, expectOk, startCluster, synthExampleApp, TestCluster, tofu } from './harness';
import type { KubeDoc, KubeList, SecretDoc, VirtualMachineDoc } from '../support/kube-docs';
import { findSecrets, generatedSecrets } from '../support/secret-scan';
import { toManifests } from '../support/manifest-layout';

jest.setTimeout(900_000);

const VMS = '/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines';
const SECRETS = '/api/v1/namespaces/acme-team-a/secrets';
const USER_DATA = /^kubectl_manifest\.[\w-]+_UserData_[0-9A-F]{8}$/;

interface PlannedChange {
  address: string;
  change: { actions: string[]; importing?: unknown };
}

describe('e2e: upgrading VMs and user data Secrets from kubernetes_manifest and kubernetes_secret_v1 to kubectl_manifest', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const stackDir = (stack: string) => path.join(work, 'cdktf.out', 'stacks', stack);

  beforeAll(async () => {
    cluster = await startCluster({ kubevirt: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-upgrade-'));
    env = exampleStackEnv(cluster, { CDKTF_OUTDIR: path.join(work, 'cdktf.out') });
  });

  afterAll(async () => {
    if (work && cluster) {
      for (const stack of ['consumer', 'provider']) {
        if (fs.existsSync(path.join(stackDir(stack), 'terraform.tfstate')))
          await tofu(stackDir(stack), ['destroy', '-auto-approve', '-input=false', '-no-color']);
      }
    }
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  async function uids(): Promise<Map<string, string | undefined>> {
    const items = (await cluster.client().get<KubeList<VirtualMachineDoc>>(VMS)).body.items;
    return new Map(items.map((vm) => [vm.metadata.name, vm.metadata.uid]));
  }

  /** The nodes' user data Secrets (`<node>-cloudinit`) and their UIDs. */
  async function userDataUids(): Promise<Map<string, string | undefined>> {
    const items = (await cluster.client().get<KubeList<KubeDoc>>(SECRETS)).body.items.filter((s) => s.metadata.name.endsWith('-cloudinit'));
    return new Map(items.map((s) => [s.metadata.name, s.metadata.uid]));
  }

  async function planned(stack: string): Promise<PlannedChange[]> {
    const plan = await tofu(stackDir(stack), ['plan', '-input=false', '-no-color', '-out=tfplan']);
    expectOk('plan', plan);
    // Nothing secret in what the plan prints: no token, nor a user data Secret's encoded document.
    const state = await tofu(stackDir(stack), ['show', '-json']);
    expectOk('show state', state);
    const secrets = (await cluster.client().get<KubeList<SecretDoc>>(SECRETS)).body.items.flatMap((s) => Object.values(s.data ?? {}));
    expect(findSecrets(plan.stdout + plan.stderr, [...generatedSecrets(state.stdout), ...secrets.filter((v) => v.length > 40)])).toEqual([]);
    const show = await tofu(stackDir(stack), ['show', '-json', 'tfplan']);
    expectOk('show', show);
    return ((JSON.parse(show.stdout) as { resource_changes?: PlannedChange[] }).resource_changes ?? []).filter(
      (c) => c.change.importing !== undefined || !(c.change.actions.length === 1 && ['no-op', 'read'].includes(c.change.actions[0])),
    );
  }

  it('takes every running VM and user data Secret over in one deploy: no object destroyed or made again, each keeps its UID', async () => {
    // metalslice 0.1: the same stacks with each VM a kubernetes_manifest.
    await synthExampleApp(work, env);
    toManifests(path.join(stackDir('consumer'), 'cdk.tf.json'));
    for (const stack of ['provider', 'consumer']) {
      expectOk(`init ${stack}`, await tofu(stackDir(stack), ['init', '-input=false', '-no-color']));
      expectOk(`apply ${stack}`, await tofu(stackDir(stack), ['apply', '-auto-approve', '-input=false', '-no-color']));
      // The API server refuses objects a new quota counts until the quota controller has accounted it.
      if (stack === 'provider') for (const ns of ['acme-team-a', 'acme-team-b', 'globex-research']) await cluster.waitForQuotaStatus(ns, 'metalslice', 90_000);
    }
    const before = await uids();
    expect(before.size).toBeGreaterThan(0);
    const secretsBefore = await userDataUids();
    expect(secretsBefore.size).toBe(before.size);

    // This release, told to adopt (for one deploy, as the README's upgrade note says).
    await synthExampleApp(work, { ...env, CDKTF_CONTEXT_JSON: JSON.stringify({ [ADOPT_MANIFEST_VMS_CONTEXT]: true }) });
    expectOk('init', await tofu(stackDir('consumer'), ['init', '-input=false', '-no-color']));
    const changes = await planned('consumer');
    const vmChanges = changes.filter((c) => c.address.startsWith('kubectl_manifest.') && !USER_DATA.test(c.address));
    expect(vmChanges).toHaveLength(before.size);
    expect(vmChanges.every((c) => c.change.importing !== undefined)).toBe(true);
    // Each user data Secret: its kubernetes_secret_v1 forgotten (not destroyed), and a kubectl_manifest at the same
    // address created, which applies server-side over the existing Secret.
    const forgotten = changes.filter((c) => c.address.startsWith('kubernetes_secret_v1.') && c.address.includes('_UserData_'));
    expect(forgotten.map((c) => c.address.replace(/^kubernetes_secret_v1\./, 'kubectl_manifest.')).sort()).toEqual(
      changes
        .filter((c) => USER_DATA.test(c.address))
        .map((c) => c.address)
        .sort(),
    );
    expect(forgotten).toHaveLength(secretsBefore.size);
    expect(forgotten.every((c) => c.change.actions.join() === 'forget')).toBe(true);
    // Nothing is destroyed: the VMs are imported (and brought to the new resource's arguments in place: their
    // template gains its revision, which restarts nothing). Only each node's drain and each pool's rollout are
    // created (0.1 had neither); the rollouts find every node current (a VMI from before revisions is current
    // unless KubeVirt staged a change), so none is replaced.
    expect(changes.filter((c) => c.change.actions.includes('delete'))).toEqual([]);
    const created = changes.filter((c) => c.change.actions.includes('create')).map((c) => c.address);
    expect(created.filter((a) => USER_DATA.test(a))).toHaveLength(secretsBefore.size);
    const drains = created.filter((a) => /^terraform_data\.node-drains-team-a-prod_[0-9A-F]{8}\["[a-z0-9-]+"\]$/.test(a));
    expect(drains).toHaveLength(before.size);
    expect(created.filter((a) => !drains.includes(a) && !USER_DATA.test(a)).sort()).toEqual([
      expect.stringMatching(/^terraform_data\.team-a-highmem_rollout_[0-9A-F]{8}$/),
      expect.stringMatching(/^terraform_data\.team-a-prod-virt_base_rollout_[0-9A-F]{8}$/),
      expect.stringMatching(/^terraform_data\.team-a-workers_rollout_[0-9A-F]{8}$/),
    ]);
    expectOk('apply', await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    expect(await uids()).toEqual(before);
    expect(await userDataUids()).toEqual(secretsBefore);

    // The next release build without the key plans nothing.
    await synthExampleApp(work, env);
    const again = await tofu(stackDir('consumer'), ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  });
});
