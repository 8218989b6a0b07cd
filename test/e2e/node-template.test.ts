// The HCL side, end to end: every module and node template is `tofu fmt` clean and valid; a node template
// is applied once per claim (as vCluster Platform does, with `vcluster` passed as a variable) and destroyed
// when the claim goes away, leaving nothing behind.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyTerraformTree, expectOk, REPO_ROOT, startCluster, TestCluster, tofu } from './harness';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { nodeTemplateVars } from '../../constructs/render/node-template';
import type { HostClaimDoc, SecretDoc, VirtualMachineDoc } from '../support/kube-docs';

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

  it('applies the kubevirt template for one claim (taking over a user data Secret a lost create left) and destroys it when the claim goes away', async () => {
    const dir = path.join(work, 'node-templates', 'kubevirt');
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
    expectOk('apply', await tofu(dir, ['apply', '-auto-approve', ...env]));
    expect((await cluster.client().get<SecretDoc>(secretPath)).body.metadata.uid).toBe(lostUid);

    const vm = await cluster.client().get<VirtualMachineDoc>('/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines/prod-small-7');
    expect(vm.status).toBe(200);
    expect(vm.body.metadata.labels).toMatchObject({
      'metalslice.io/cluster': 'prod',
      'metalslice.io/quota': 'team-a',
      'metalslice.io/node-type': 'small',
      'metalslice.io/pool': 'small',
    });
    const spec = vm.body.spec.template.spec;
    expect(spec.domain.cpu).toEqual({ cores: 2, sockets: 1, threads: 1 });
    // kubernetes_manifest writes an int-or-string quantity that parses as a number as a number.
    expect({ ...spec.domain.resources.requests, cpu: String(spec.domain.resources.requests?.cpu) }).toEqual({ cpu: '2', memory: '4Gi' });
    expect(spec.nodeSelector).toEqual({ 'metalslice.io/fleet': 'fra1' });
    // No disk in the type: the root disk is the container disk itself.
    expect(spec.volumes[0]).toEqual({ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/ubuntu:24.04' } });
    expect(vm.body.spec.dataVolumeTemplates).toBeUndefined();
    const secret = await cluster.client().get<SecretDoc>('/api/v1/namespaces/acme-team-a/secrets/prod-small-7-cloudinit');
    expect(Buffer.from(secret.body.data.userdata, 'base64').toString()).toBe('#cloud-config\nhostname: prod-small-7\n');

    const replan = await tofu(dir, ['plan', '-detailed-exitcode', ...env]);
    if (replan.code !== 0) throw new Error(`plan after apply is not clean (exit ${replan.code})\n${replan.stdout}\n${replan.stderr}`);

    expectOk('destroy', await tofu(dir, ['destroy', '-auto-approve', ...env]));
    expect((await cluster.client().get('/apis/kubevirt.io/v1/namespaces/acme-team-a/virtualmachines/prod-small-7')).status).toBe(404);
    expect((await cluster.client().get('/api/v1/namespaces/acme-team-a/secrets/prod-small-7-cloudinit')).status).toBe(404);
  });

  it('applies the metal3 template for one claim and destroys it when the claim goes away', async () => {
    const dir = path.join(work, 'node-templates', 'metal3');
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
    const env = ['-var-file=claim.tfvars.json', `-var=kubeconfig_path=${cluster.adminKubeconfig}`, '-input=false', '-no-color'];
    expectOk('init', await tofu(dir, ['init', '-input=false', '-no-color']));
    expectOk('apply', await tofu(dir, ['apply', '-auto-approve', ...env]));

    const hc = await cluster.client().get<HostClaimDoc>('/apis/metal3.io/v1alpha1/namespaces/prod-metal/hostclaims/prod-gpu-3');
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
