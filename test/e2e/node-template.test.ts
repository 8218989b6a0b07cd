// The HCL side, end to end: every module and node template is `tofu fmt` clean and valid; a node template
// is applied once per claim (as vCluster Platform does, with `vcluster` passed as a variable) and destroyed
// when the claim goes away, leaving nothing behind. Objects are applied server-side: a VM whose create answer was
// lost is taken over, and so is one a claim applied with 0.10's template (its VM or HostClaim a kubernetes_manifest).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyTerraformTree, expectOk, REPO_ROOT, startCluster, TestCluster, tofu } from './harness';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { nodeTemplateVars } from '../../constructs/render/node-template';
import type { HostClaimDoc, SecretDoc, VirtualMachineDoc } from '../support/kube-docs';
import { asRelease010 } from '../support/module-layout';

jest.setTimeout(900_000);

const ROOTS = ['modules/join', 'modules/kubevirt-node', 'modules/metal3-node', 'node-templates/kubevirt', 'node-templates/metal3'];

/** A claim as the platform passes it: the node claim, its node type and provider, the tenant and the user data. */
function claim(nodeName: string, nodeType: Record<string, unknown>, userData: string): Record<string, unknown> {
  return {
    vcluster: {
      name: nodeName,
      namespace: 'vcluster-prod',
      userData,
      requirements: {},
      properties: {},
      nodeClaim: { metadata: { name: nodeName, namespace: 'p-acme' }, spec: { providerRef: 'metalslice' } },
      nodeType,
      nodeProvider: { metadata: { name: 'metalslice' } },
      instance: { metadata: { name: 'prod', namespace: 'p-acme' } },
    },
  };
}

/** A fleet of one host and a kubevirt provider with the type `small` the claim below names. */
const SMALL_MODEL: MetalsliceConfig = {
  fleets: [{ name: 'fra1', hosts: [{ name: 'bm-01', capacity: { cpu: 16, memory: '64Gi' } }], hostSelector: { 'metalslice.io/fleet': 'fra1' } }],
  nodeProviders: [{ name: 'metalslice', kind: 'kubevirt', fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi' } }] }],
};

describe('modules and node templates', () => {
  let cluster: TestCluster;
  let work: string;

  beforeAll(async () => {
    // KubeVirt's admission defaulting imitated, as on a real cluster (the VM shape is made for it).
    cluster = await startCluster({ kubevirt: true });
    work = copyTerraformTree(fs.mkdtempSync(path.join(cluster.dir, 'hcl-')));
    for (const ns of ['acme-team-a', 'prod-metal']) expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('formats clean (tofu fmt -check) and validates (tofu validate) every module and node template', async () => {
    for (const dir of ['modules', 'node-templates'])
      expectOk(`fmt -check ${dir}`, await tofu(path.join(work, dir), ['fmt', '-check', '-recursive', '-diff', '-no-color']));
    for (const root of ROOTS) {
      const dir = path.join(work, root);
      expectOk(`init ${root}`, await tofu(dir, ['init', '-backend=false', '-input=false', '-no-color']));
      expectOk(`validate ${root}`, await tofu(dir, ['validate', '-no-color']));
    }
  });

  it('keeps provider blocks out of the reusable modules and in the node templates', () => {
    for (const root of ROOTS) {
      const text = fs
        .readdirSync(path.join(REPO_ROOT, root))
        .filter((f) => f.endsWith('.tf'))
        .map((f) => fs.readFileSync(path.join(REPO_ROOT, root, f), 'utf8'))
        .join('\n');
      expect({ root, provider: /^provider\s+"/m.test(text) }).toEqual({ root, provider: root.startsWith('node-templates/') });
    }
  });

  it("applies the kubevirt template for one claim with 0.10's module, takes its VM over on upgrade, takes over the user data Secret and the VM a lost create left, and destroys it when the claim goes away", async () => {
    const dir = path.join(work, 'node-templates', 'kubevirt');
    const moduleDir = path.join(work, 'modules', 'kubevirt-node');
    asRelease010(moduleDir, 'virtual_machine');
    const nodeType = {
      metadata: { name: 'small' },
      spec: {
        resources: { cpu: '2', memory: '4Gi' },
        properties: { 'metalslice.io/namespace': 'acme-team-a', 'metalslice.io/quota': 'team-a' },
      },
    };
    fs.writeFileSync(path.join(dir, 'claim.tfvars.json'), JSON.stringify(claim('prod-small-7', nodeType, '#cloud-config\nhostname: prod-small-7\n')));
    // The VM of type `small` as metalslice renders it, written beside the template as a provider team would.
    const vars = nodeTemplateVars(planModel(SMALL_MODEL), SMALL_MODEL, 'metalslice');
    if (!vars.ok) throw new Error(JSON.stringify(vars.errors));
    fs.writeFileSync(path.join(dir, 'vm-types.auto.tfvars.json'), JSON.stringify(vars.vars));
    const env = ['-var-file=claim.tfvars.json', `-var=kubeconfig_path=${cluster.adminKubeconfig}`, '-input=false', '-no-color'];
    expectOk('init', await tofu(dir, ['init', '-input=false', '-no-color']));
    // A create whose answer was lost (an API server crash) left the user data Secret in the cluster and not in the
    // state: the apply takes it over (server-side), never stops on "already exists".
    const secretPath = '/api/v1/namespaces/acme-team-a/secrets/prod-small-7-cloudinit';
    const lost = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'prod-small-7-cloudinit' },
      type: 'Opaque',
      data: { userdata: Buffer.from('#cloud-config\n').toString('base64') },
    };
    expect((await cluster.client().create('/api/v1/namespaces/acme-team-a/secrets', lost)).status).toBe(201);
    const lostUid = (await cluster.client().get<SecretDoc>(secretPath)).body.metadata.uid;
    expectOk('apply (0.10)', await tofu(dir, ['apply', '-auto-approve', ...env]));
    expect((await cluster.client().get<SecretDoc>(secretPath)).body.metadata.uid).toBe(lostUid);
    const vmPath = '/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines/prod-small-7';
    const old = await cluster.client().get<VirtualMachineDoc>(vmPath);
    expect(old.status).toBe(200);

    // The upgrade: 0.10's kubernetes_manifest forgotten, the VM taken over server-side (KubeVirt's admission runs
    // again on that write); its UID kept.
    fs.cpSync(path.join(REPO_ROOT, 'modules', 'kubevirt-node'), moduleDir, { recursive: true });
    expectOk('apply (upgrade)', await tofu(dir, ['apply', '-auto-approve', ...env]));
    const vm = await cluster.client().get<VirtualMachineDoc>(vmPath);
    expect(vm.body.metadata.uid).toBe(old.body.metadata.uid);
    expect(vm.body.metadata.labels).toMatchObject({
      'metalslice.io/cluster': 'prod',
      'metalslice.io/quota': 'team-a',
      'metalslice.io/node-type': 'small',
      'metalslice.io/pool': 'small',
    });
    const spec = vm.body.spec.template.spec;
    expect(spec.domain.cpu).toEqual({ cores: 2, sockets: 1, threads: 1 });
    expect(spec.domain.resources.requests).toEqual({ cpu: '2', memory: '4Gi' });
    expect(spec.nodeSelector).toEqual({ 'metalslice.io/fleet': 'fra1' });
    // No disk in the type: the root disk is the container disk itself.
    expect(spec.volumes[0]).toEqual({ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/ubuntu:24.04' } });
    expect(vm.body.spec.dataVolumeTemplates).toBeUndefined();
    const secret = await cluster.client().get<SecretDoc>('/api/v1/namespaces/acme-team-a/secrets/prod-small-7-cloudinit');
    expect(Buffer.from(secret.body.data.userdata, 'base64').toString()).toBe('#cloud-config\nhostname: prod-small-7\n');

    const replan = await tofu(dir, ['plan', '-detailed-exitcode', ...env]);
    if (replan.code !== 0) throw new Error(`plan after apply is not clean (exit ${replan.code})\n${replan.stdout}\n${replan.stderr}`);

    // A VM create whose answer was lost: the VM is in the cluster, not in the state. The next apply takes it over.
    expectOk('state rm', await tofu(dir, ['state', 'rm', '-no-color', 'module.node.kubectl_manifest.virtual_machine']));
    expectOk('apply after a lost create', await tofu(dir, ['apply', '-auto-approve', ...env]));
    expect((await cluster.client().get<VirtualMachineDoc>(vmPath)).body.metadata.uid).toBe(vm.body.metadata.uid);
    const clean = await tofu(dir, ['plan', '-detailed-exitcode', ...env]);
    expect({ code: clean.code, out: clean.code === 0 ? '' : clean.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });

    expectOk('destroy', await tofu(dir, ['destroy', '-auto-approve', ...env]));
    expect((await cluster.client().get(vmPath)).status).toBe(404);
    expect((await cluster.client().get('/api/v1/namespaces/acme-team-a/secrets/prod-small-7-cloudinit')).status).toBe(404);
  });

  it("applies the metal3 template for claims with 0.10's module; 0.11's takes a HostClaim over on upgrade (UID kept, nothing else planned), and releases one it never applied when its claim goes away", async () => {
    const dir = path.join(work, 'node-templates', 'metal3');
    // A second claim, its own state (the platform keeps one per claim), ended by 0.11's template without an apply.
    const other = path.join(work, 'node-templates', 'metal3-other');
    fs.cpSync(dir, other, { recursive: true });
    const nodeType = {
      metadata: { name: 'gpu-node' },
      spec: {
        properties: {
          'metalslice.io/namespace': 'prod-metal',
          'metalslice.io/pool': 'gpu',
          'metalslice.io/host-selector': 'class=gpu',
          'metalslice.io/host-namespace': 'metal3',
          'metalslice.io/image-url': 'https://images.example.com/ubuntu-24.04.raw',
          'metalslice.io/image-checksum': 'c'.repeat(64),
          'metalslice.io/image-checksum-type': 'sha256',
          'metalslice.io/image-format': 'raw',
        },
      },
    };
    fs.writeFileSync(path.join(dir, 'claim.tfvars.json'), JSON.stringify(claim('prod-gpu-3', nodeType, '#cloud-config\nhostname: prod-gpu-3\n')));
    fs.writeFileSync(path.join(other, 'claim.tfvars.json'), JSON.stringify(claim('prod-gpu-4', nodeType, '#cloud-config\nhostname: prod-gpu-4\n')));
    const env = ['-var-file=claim.tfvars.json', `-var=kubeconfig_path=${cluster.adminKubeconfig}`, '-input=false', '-no-color'];
    // The claim as 0.10's template applied it: its HostClaim a kubernetes_manifest.
    const moduleDir = path.join(work, 'modules', 'metal3-node');
    asRelease010(moduleDir, 'host_claim');
    for (const d of [dir, other]) {
      expectOk('init', await tofu(d, ['init', '-input=false', '-no-color']));
      expectOk('apply (0.10)', await tofu(d, ['apply', '-auto-approve', ...env]));
    }
    const otherPath = '/apis/metal3.io/v1alpha1/namespaces/prod-metal/hostclaims/prod-gpu-4';
    expect((await cluster.client().get(otherPath)).status).toBe(200);
    const claimPath = '/apis/metal3.io/v1alpha1/namespaces/prod-metal/hostclaims/prod-gpu-3';
    const before = await cluster.client().get<HostClaimDoc>(claimPath);
    expect(before.status).toBe(200);
    const state = async () => (await tofu(dir, ['state', 'list', '-no-color'])).stdout.trim().split('\n').sort();
    expect(await state()).toContain('module.node.kubernetes_manifest.host_claim');

    // The upgrade: the old resource forgotten, the claim taken over server-side; nothing destroyed, nothing else.
    fs.cpSync(path.join(REPO_ROOT, 'modules', 'metal3-node'), moduleDir, { recursive: true });
    // A claim that goes away before any apply of 0.11: its destroy deletes what 0.10 made (the removed block only
    // forgets in an apply), so no host stays claimed for a tenant that is gone.
    expectOk('destroy (0.10 state, 0.11 template)', await tofu(other, ['destroy', '-auto-approve', ...env]));
    expect((await cluster.client().get(otherPath)).status).toBe(404);
    expect((await cluster.client().get('/api/v1/namespaces/prod-metal/secrets/prod-gpu-4-userdata')).status).toBe(404);
    const upgrade = await tofu(dir, ['plan', ...env]);
    expectOk('plan (upgrade)', upgrade);
    expect(upgrade.stdout).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy, 1 to forget\./);
    expect(upgrade.stdout).toMatch(/# module\.node\.kubernetes_manifest\.host_claim will be removed from the OpenTofu state but will not be destroyed/);
    expectOk('apply (upgrade)', await tofu(dir, ['apply', '-auto-approve', ...env]));
    expect(await state()).toEqual(['module.node.kubectl_manifest.host_claim', 'module.node.kubectl_manifest.user_data']);
    const after = await cluster.client().get<HostClaimDoc>(claimPath);
    expect(after.body.metadata.uid).toBe(before.body.metadata.uid);
    const clean = await tofu(dir, ['plan', '-detailed-exitcode', ...env]);
    expect({ code: clean.code, out: clean.code === 0 ? '' : clean.stdout.slice(-3000) }).toEqual({ code: 0, out: '' });

    const hc = await cluster.client().get<HostClaimDoc>(claimPath);
    expect(hc.status).toBe(200);
    expect(hc.body.spec).toEqual({
      hostSelector: { inNamespace: 'metal3', matchLabels: { class: 'gpu' } },
      image: { url: 'https://images.example.com/ubuntu-24.04.raw', checksum: 'c'.repeat(64), checksumType: 'sha256', format: 'raw' },
      userData: { name: 'prod-gpu-3-userdata', namespace: 'prod-metal' },
      poweredOn: true,
    });
    const secret = await cluster.client().get<SecretDoc>('/api/v1/namespaces/prod-metal/secrets/prod-gpu-3-userdata');
    expect(Buffer.from(secret.body.data.userData, 'base64').toString()).toBe('#cloud-config\nhostname: prod-gpu-3\n');

    expectOk('destroy', await tofu(dir, ['destroy', '-auto-approve', ...env]));
    expect((await cluster.client().get('/apis/metal3.io/v1alpha1/namespaces/prod-metal/hostclaims/prod-gpu-3')).status).toBe(404);
    expect((await cluster.client().get('/api/v1/namespaces/prod-metal/secrets/prod-gpu-3-userdata')).status).toBe(404);
  });
});
