// Upgrading from metalslice 0.1, whose VirtualMachines were `kubernetes_manifest` resources and user data and
// bootstrap token Secrets `kubernetes_secret_v1` ones, to `kubectl_manifest`: with the adopt context key set for
// one deploy, every running VM is taken over in place (imported, the old resource forgotten), every Secret too (the
// old resource forgotten, the Secret applied server-side), none is destroyed or recreated, and the next plan
// without the key is empty. Then the same from metalslice 0.2, whose bootstrap token Secrets alone were still
// `kubernetes_secret_v1`, with its own key. Then from 0.2 to 0.5, whose nodes were five resources each: the stack's
// moved blocks take each to its instance of its pool's resources, with no key. Each later release's changes too, up to
// 0.9's: a user data or token Secret's destroy does not wait (changed in place). Last, the provider team's stack of
// 0.11, whose KubeVirt CR and ResourceQuotas were `kubernetes_manifest` resources, taken over with 0.12's key.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADOPT_MANIFEST_OBJECTS_CONTEXT, ADOPT_MANIFEST_VMS_CONTEXT, ADOPT_TOKEN_SECRETS_CONTEXT } from '../../constructs';
import { exampleStackEnv, expectOk, startCluster, synthExampleApp, TestCluster, tofu } from './harness';
import type { KubeDoc, KubeList, SecretDoc, VirtualMachineDoc } from '../support/kube-docs';
import { findSecrets, generatedSecrets } from '../support/secret-scan';
import { toManifests, toRelease02, toRelease05, toRelease06, toRelease08, toRelease11 } from '../support/manifest-layout';

jest.setTimeout(900_000);

const VMS = '/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines';
const SECRETS = '/api/v1/namespaces/acme-team-a/secrets';
// A pool's user data and token Secrets: one resource each, an instance per node (constructs/parts/vm-nodes.ts).
const USER_DATA = /^kubectl_manifest\.[\w-]+_nodes_UserData_[0-9A-F]{8}\["[a-z0-9-]+"\]$/;
const TOKEN = /^kubectl_manifest\.[\w-]+_nodes_BootstrapToken_[0-9A-F]{8}\["[a-z0-9-]+"\]$/;
// A node's drain and end: in the pair of drain blocks its pool's VMs hash to (constructs/parts/node-drain.ts).
const DRAIN = /^terraform_data\.node-drains-team-a-prod_(Resource-\d+_)?[0-9A-F]{8}\["[a-z0-9-]+"\]$/;
const END = /^terraform_data\.node-drains-team-a-prod_End(-\d+)?_[0-9A-F]{8}\["[a-z0-9-]+"\]$/;

interface PlannedChange {
  address: string;
  previous_address?: string;
  change: { actions: string[]; importing?: unknown; before?: { wait?: boolean; yaml_body?: string }; after?: { wait?: boolean; yaml_body?: string } };
}

/**
 * The changes that do something, apart from 0.9's one change in place: a user data or token Secret whose destroy
 * waited (0.2 to 0.8) and no longer does (`wait` from true to false, the object as it was). `secrets` gets those.
 */
function besidesWait(changes: PlannedChange[], secrets: PlannedChange[] = []): PlannedChange[] {
  const doing = changes.filter((c) => c.change.importing !== undefined || !['no-op', 'read'].includes(c.change.actions.join()));
  for (const c of doing) {
    const { before, after } = c.change;
    const waitOnly =
      (USER_DATA.test(c.address) || TOKEN.test(c.address)) &&
      c.change.actions.join() === 'update' &&
      before?.wait === true &&
      after?.wait === false &&
      before.yaml_body === after.yaml_body;
    if (waitOnly) secrets.push(c);
  }
  return doing.filter((c) => !secrets.includes(c));
}

/** The node a resource address is of: the key of a pool resource's instance, or the node in a 0.1-0.5 per-node address. */
function nodeOf(address: string): string {
  const key = /\["([a-z0-9-]+)"\]$/.exec(address);
  if (key) return key[1];
  const own = /^\w+\.[\w-]+?_([a-z0-9-]+-\d+)_(?:UserData_|Join_BootstrapToken_|Join_TokenId_|Join_TokenSecret_)?[0-9A-F]{8}$/.exec(address);
  if (!own) throw new Error(`no node in ${address}`);
  return own[1];
}

describe('e2e: upgrading VMs and Secrets from kubernetes_manifest and kubernetes_secret_v1 to kubectl_manifest', () => {
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

  /** The nodes' bootstrap token Secrets (the tenant cluster's kube-system; here the same API server) and their UIDs. */
  async function tokenUids(): Promise<Map<string, string | undefined>> {
    const items = (
      await cluster.client().get<KubeList<KubeDoc>>('/api/v1/namespaces/kube-system/secrets?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dmetalslice')
    ).body.items;
    return new Map(items.map((s) => [s.metadata.name, s.metadata.uid]));
  }

  /** Each old Secret resource forgotten (not destroyed), and its node's instance of the pool's kubectl_manifest created. */
  function takenOver(changes: PlannedChange[], kind: RegExp, created: RegExp): string[] {
    const forgotten = changes.filter((c) => c.address.startsWith('kubernetes_secret_v1.') && kind.test(c.address));
    expect(forgotten.every((c) => c.change.actions.join() === 'forget')).toBe(true);
    expect(forgotten.map((c) => nodeOf(c.address)).sort()).toEqual(
      changes
        .filter((c) => created.test(c.address) && c.change.actions.join() === 'create')
        .map((c) => nodeOf(c.address))
        .sort(),
    );
    return forgotten.map((c) => c.address);
  }

  /** The nodes' user data Secrets (`<node>-cloudinit`) and their UIDs. */
  async function userDataUids(): Promise<Map<string, string | undefined>> {
    const items = (await cluster.client().get<KubeList<KubeDoc>>(SECRETS)).body.items.filter((s) => s.metadata.name.endsWith('-cloudinit'));
    return new Map(items.map((s) => [s.metadata.name, s.metadata.uid]));
  }

  /** The plan of `stack` (saved as tfplan): every resource change and what tofu printed, checked to print nothing secret. */
  async function plannedAll(stack: string): Promise<{ changes: PlannedChange[]; stdout: string }> {
    const plan = await tofu(stackDir(stack), ['plan', '-input=false', '-no-color', '-out=tfplan']);
    expectOk('plan', plan);
    // Nothing secret in what the plan prints: no token, nor a user data Secret's encoded document.
    const state = await tofu(stackDir(stack), ['show', '-json']);
    expectOk('show state', state);
    const secrets = (await cluster.client().get<KubeList<SecretDoc>>(SECRETS)).body.items.flatMap((s) => Object.values(s.data ?? {}));
    expect(findSecrets(plan.stdout + plan.stderr, [...generatedSecrets(state.stdout), ...secrets.filter((v) => v.length > 40)])).toEqual([]);
    const show = await tofu(stackDir(stack), ['show', '-json', 'tfplan']);
    expectOk('show', show);
    return { changes: (JSON.parse(show.stdout) as { resource_changes?: PlannedChange[] }).resource_changes ?? [], stdout: plan.stdout };
  }

  /** The changes of {@link plannedAll} that do something: imports, and every action but no-op and read. */
  async function planned(stack: string): Promise<PlannedChange[]> {
    return (await plannedAll(stack)).changes.filter(
      (c) => c.change.importing !== undefined || !(c.change.actions.length === 1 && ['no-op', 'read'].includes(c.change.actions[0])),
    );
  }

  /** The UIDs of the nodes' VMs, user data Secrets and token Secrets. */
  async function nodeUids(): Promise<Map<string, string | undefined>[]> {
    return [await uids(), await userDataUids(), await tokenUids()];
  }

  /**
   * A fresh fleet as an earlier release wrote it: the consumer stack destroyed (its nodes drained and ended),
   * synthesized, rewritten by `layout` and applied. Returns its nodes' UIDs ({@link nodeUids}).
   */
  async function freshFleet(release: string, layout: (file: string) => void): Promise<Map<string, string | undefined>[]> {
    expectOk('destroy', await tofu(stackDir('consumer'), ['destroy', '-auto-approve', '-input=false', '-no-color']));
    await synthExampleApp(work, env);
    layout(path.join(stackDir('consumer'), 'cdk.tf.json'));
    expectOk(`init ${release}`, await tofu(stackDir('consumer'), ['init', '-input=false', '-no-color']));
    expectOk(`apply ${release}`, await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color']));
    return nodeUids();
  }

  /** The consumer stack's next plan is empty (exit 0 with -detailed-exitcode). */
  async function expectNextPlanEmpty(): Promise<void> {
    const again = await tofu(stackDir('consumer'), ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  }

  /**
   * The plan holds nothing that does something but (0.9) each node's user data and token Secret, changed in place
   * so that its destroy does not wait; applied, every node's objects keep their UIDs and the next plan is empty.
   */
  async function expectOnlyWaitsChanged(changes: PlannedChange[], stdout: string, before: Map<string, string | undefined>[]): Promise<void> {
    const waits: PlannedChange[] = [];
    expect(besidesWait(changes, waits).map((c) => c.address)).toEqual([]);
    const nodes = [...before[0].keys()].sort();
    for (const secret of [USER_DATA, TOKEN])
      expect({
        secret: secret.source,
        nodes: waits
          .filter((c) => secret.test(c.address))
          .map((c) => nodeOf(c.address))
          .sort(),
      }).toEqual({ secret: secret.source, nodes });
    expect(stdout).toMatch(new RegExp(`Plan: 0 to add, ${2 * nodes.length} to change, 0 to destroy`));
    expectOk('apply', await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    expect(await nodeUids()).toEqual(before);
    await expectNextPlanEmpty();
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
    const tokensBefore = await tokenUids();
    expect(tokensBefore.size).toBe(before.size);

    // This release, told to adopt (for one deploy, as the README's upgrade note says).
    await synthExampleApp(work, { ...env, CDKTF_CONTEXT_JSON: JSON.stringify({ [ADOPT_MANIFEST_VMS_CONTEXT]: true }) });
    expectOk('init', await tofu(stackDir('consumer'), ['init', '-input=false', '-no-color']));
    const changes = await planned('consumer');
    const vmChanges = changes.filter((c) => c.address.startsWith('kubectl_manifest.') && !USER_DATA.test(c.address) && !TOKEN.test(c.address));
    expect(vmChanges).toHaveLength(before.size);
    expect(vmChanges.every((c) => c.change.importing !== undefined)).toBe(true);
    // Each user data Secret: its kubernetes_secret_v1 forgotten (not destroyed), and a kubectl_manifest at the same
    // address created, which applies server-side over the existing Secret.
    // Each user data and bootstrap token Secret: its kubernetes_secret_v1 forgotten (not destroyed), and a
    // kubectl_manifest at the same address created, which applies server-side over the existing Secret.
    expect(takenOver(changes, /_UserData_/, USER_DATA)).toHaveLength(secretsBefore.size);
    expect(takenOver(changes, /_Join_BootstrapToken_/, TOKEN)).toHaveLength(tokensBefore.size);
    // Nothing is destroyed: the VMs are imported (and brought to the new resource's arguments in place: their
    // template gains its revision, which restarts nothing). Only each node's drain and end and each pool's rollout
    // are created (0.1 had none); the rollouts find every node current (a VMI from before revisions is current
    // unless KubeVirt staged a change), so none is replaced.
    expect(changes.filter((c) => c.change.actions.includes('delete'))).toEqual([]);
    const created = changes.filter((c) => c.change.actions.includes('create')).map((c) => c.address);
    expect(created.filter((a) => USER_DATA.test(a))).toHaveLength(secretsBefore.size);
    expect(created.filter((a) => TOKEN.test(a))).toHaveLength(tokensBefore.size);
    expect(created.filter((a) => DRAIN.test(a))).toHaveLength(before.size);
    expect(created.filter((a) => END.test(a))).toHaveLength(before.size);
    expect(created.filter((a) => ![USER_DATA, TOKEN, DRAIN, END].some((r) => r.test(a))).sort()).toEqual([
      expect.stringMatching(/^terraform_data\.team-a-highmem_rollout_[0-9A-F]{8}$/),
      expect.stringMatching(/^terraform_data\.team-a-prod-virt_base_rollout_[0-9A-F]{8}$/),
      expect.stringMatching(/^terraform_data\.team-a-workers_rollout_[0-9A-F]{8}$/),
    ]);
    expectOk('apply', await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    expect(await nodeUids()).toEqual([before, secretsBefore, tokensBefore]);

    // The next release build without the key plans nothing.
    await synthExampleApp(work, env);
    await expectNextPlanEmpty();
  });

  it('takes every bootstrap token Secret of a 0.2 fleet over in one deploy with its key: nothing destroyed or made again, and the next plan empty', async () => {
    // A fresh 0.2 fleet.
    const before = await freshFleet('0.2', toRelease02);
    const [vms, , tokens] = before;
    expect(tokens.size).toBe(vms.size);

    await synthExampleApp(work, { ...env, CDKTF_CONTEXT_JSON: JSON.stringify({ [ADOPT_TOKEN_SECRETS_CONTEXT]: true }) });
    expectOk('init', await tofu(stackDir('consumer'), ['init', '-input=false', '-no-color']));
    const changes = await planned('consumer');
    expect(takenOver(changes, /_Join_BootstrapToken_/, TOKEN)).toHaveLength(tokens.size);
    expect(changes.filter((c) => c.change.actions.includes('delete'))).toEqual([]);
    // Created: the token Secrets' kubectl_manifests and each node's end; updated in place: each node's drain (it
    // leaves the Node to the node's end now), nothing else.
    const created = changes.filter((c) => c.change.actions.includes('create')).map((c) => c.address);
    expect(created.filter((a) => !TOKEN.test(a) && !END.test(a))).toEqual([]);
    expect(created.filter((a) => END.test(a))).toHaveLength(vms.size);
    // 0.9: and each user data Secret's destroy no longer waits.
    const waits: PlannedChange[] = [];
    const updated = besidesWait(changes, waits)
      .filter((c) => c.change.actions.join() === 'update')
      .map((c) => c.address);
    expect(updated.filter((a) => !DRAIN.test(a))).toEqual([]);
    expect(waits.filter((c) => USER_DATA.test(c.address))).toHaveLength(vms.size);
    expect(waits).toHaveLength(vms.size);
    expectOk('apply', await tofu(stackDir('consumer'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));
    expect(await nodeUids()).toEqual(before);

    await synthExampleApp(work, env);
    await expectNextPlanEmpty();
  });

  it('moves every node of a 0.2 to 0.5 fleet (five resources each) to its pool resources in one deploy: nothing made again, every UID kept, the next plan empty', async () => {
    // A fresh fleet as 0.2 to 0.5 wrote its nodes: a VM, a user data Secret, a token Secret, its id and secret each.
    const before = await freshFleet('0.5', toRelease05);
    const [vms, secrets, tokens] = before;
    expect([secrets.size, tokens.size]).toEqual([vms.size, vms.size]);

    // This release, with no key: the moved blocks of the stack do it.
    await synthExampleApp(work, env);
    const { changes, stdout } = await plannedAll('consumer');
    // Every node's five resources moved to their instances (and drains and ends to their pair of blocks).
    const moved = changes.filter((c) => c.previous_address !== undefined && !DRAIN.test(c.address) && !END.test(c.address));
    expect(moved).toHaveLength(5 * vms.size);
    for (const c of moved) expect({ node: nodeOf(c.address), was: nodeOf(c.previous_address!) }).toEqual({ node: nodeOf(c.address), was: nodeOf(c.address) });
    // Nothing planned but those moves, and (0.9) each user data and token Secret's destroy no longer waiting.
    await expectOnlyWaitsChanged(changes, stdout, before);
  });

  it("moves a 0.6 fleet's drains and ends to the pair of drain blocks of their pool: nothing made again, every UID kept, the next plan empty", async () => {
    // A fresh fleet as 0.6 wrote it: one pair of drain blocks for the cluster, dependencies named directly.
    const before = await freshFleet('0.6', toRelease06);
    await synthExampleApp(work, env);
    const { changes, stdout } = await plannedAll('consumer');
    const moved = changes.filter((c) => c.previous_address !== undefined);
    // Only drains and ends move, each keeping its node's key, from the first pair to another.
    expect(moved.length).toBeGreaterThan(0);
    for (const c of moved) {
      expect({ address: c.address, drainOrEnd: DRAIN.test(c.address) || END.test(c.address) }).toEqual({ address: c.address, drainOrEnd: true });
      expect(nodeOf(c.previous_address!)).toBe(nodeOf(c.address));
      expect(c.previous_address).toMatch(/^terraform_data\.node-drains-team-a-prod_(End_)?[0-9A-F]{8}\[/);
    }
    // Nothing planned but those moves, and (0.9) each user data and token Secret's destroy no longer waiting.
    await expectOnlyWaitsChanged(changes, stdout, before);
  });

  it("changes a 0.8 fleet's user data and token Secrets in place, so that their destroy does not wait: nothing else planned, every UID kept, the next plan empty", async () => {
    const before = await freshFleet('0.8', toRelease08);
    await synthExampleApp(work, env);
    const { changes, stdout } = await plannedAll('consumer');
    await expectOnlyWaitsChanged(changes, stdout, before);
  });

  it("takes a 0.11 provider stack's KubeVirt CR and ResourceQuotas over in one deploy with its key: each keeps its UID, each quota's accounting is made, nothing else changes, the next plan empty", async () => {
    const QUOTA_NAMESPACES = ['acme-team-a', 'acme-team-b', 'globex-research'];
    const objectUids = async (): Promise<Record<string, string | undefined>> => {
      const api = cluster.client();
      const kubevirts = (await api.get<KubeList<KubeDoc>>('/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts')).body.items;
      const out: Record<string, string | undefined> = Object.fromEntries(kubevirts.map((k) => [`KubeVirt ${k.metadata.name}`, k.metadata.uid]));
      for (const ns of QUOTA_NAMESPACES)
        out[`ResourceQuota ${ns}`] = (await api.get<KubeDoc>(`/api/v1/namespaces/${ns}/resourcequotas/metalslice`)).body.metadata.uid;
      return out;
    };
    // The provider stack made afresh as 0.11 wrote it (the consumer stack's VMs gone first: they are in its quotas).
    for (const stack of ['consumer', 'provider'])
      expectOk(`destroy ${stack}`, await tofu(stackDir(stack), ['destroy', '-auto-approve', '-input=false', '-no-color']));
    await synthExampleApp(work, env);
    toRelease11(path.join(stackDir('provider'), 'cdk.tf.json'));
    expectOk('init 0.11', await tofu(stackDir('provider'), ['init', '-input=false', '-no-color']));
    expectOk('apply 0.11', await tofu(stackDir('provider'), ['apply', '-auto-approve', '-input=false', '-no-color']));
    const before = await objectUids();
    expect(Object.keys(before)).toHaveLength(4);

    await synthExampleApp(work, { ...env, CDKTF_CONTEXT_JSON: JSON.stringify({ [ADOPT_MANIFEST_OBJECTS_CONTEXT]: true }) });
    expectOk('init', await tofu(stackDir('provider'), ['init', '-input=false', '-no-color']));
    const changes = await planned('provider');
    // Each kubernetes_manifest forgotten (not destroyed), and a kubectl_manifest at the same address created, which
    // applies server-side over the existing object; each quota's accounting created; nothing else.
    const forgotten = changes.filter((c) => c.address.startsWith('kubernetes_manifest.'));
    expect(forgotten.map((c) => c.change.actions.join())).toEqual(Object.keys(before).map(() => 'forget'));
    const created = changes.filter((c) => c.change.actions.join() === 'create').map((c) => c.address);
    expect(created.filter((a) => a.startsWith('kubectl_manifest.')).sort()).toEqual(
      forgotten.map((c) => c.address.replace(/^kubernetes_manifest\./, 'kubectl_manifest.')).sort(),
    );
    expect(
      created
        .filter((a) => !a.startsWith('kubectl_manifest.'))
        .map((a) => a.replace(/_[0-9A-F]{8}$/, ''))
        .sort(),
    ).toEqual(['research', 'team-a', 'team-b'].map((q) => `terraform_data.${q}_Accounted`));
    expect(changes.filter((c) => !forgotten.includes(c) && !created.includes(c.address))).toEqual([]);
    const apply = await tofu(stackDir('provider'), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']);
    expectOk('apply', apply);
    // The accounting ran wait-quota, which found each quota accounted (the quota controller had done it long before).
    for (const ns of QUOTA_NAMESPACES) expect(apply.stdout).toContain(`wait-quota: ResourceQuota ${ns}/metalslice is accounted`);
    expect(await objectUids()).toEqual(before);

    // The next release build without the key plans nothing.
    await synthExampleApp(work, env);
    const again = await tofu(stackDir('provider'), ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    expect({ code: again.code, out: again.code === 0 ? '' : again.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });
  });
});
