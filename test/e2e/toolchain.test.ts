// Proves the e2e toolchain end to end: a real kube-apiserver with the shared CRDs, OpenTofu with the
// kubernetes and random providers from the offline mirror applying a cdktf-shaped JSON config that creates a
// KubeVirt VirtualMachine, a clean re-plan, a destroy; and the two ways the API server enforces a tenant
// slice: RBAC (an unbound tenant cannot create VMs) and ResourceQuota (count/virtualmachines.kubevirt.io).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandResult, expectOk, startCluster, TestCluster, tofu } from './harness';
import type { ApiResourceList, SecretDoc, Status, VirtualMachineDoc } from '../support/kube-docs';

jest.setTimeout(900_000);

const K8S_PROVIDER_VERSION = process.env.METALSLICE_KUBERNETES_PROVIDER_VERSION ?? '3.2.1';
const RANDOM_PROVIDER_VERSION = process.env.METALSLICE_RANDOM_PROVIDER_VERSION ?? '3.9.0';
const VMS = '/apis/kubevirt.io/v1';

/** The annotation KubeVirt v1.9.0's VM mutator adds to the template's metadata on create (amd64, q35). */
const PCI_TOPOLOGY = { 'kubevirt.io/pci-topology-version': 'v3' };

/** A KubeVirt VM in the shape the constructs emit: vCPUs as cores and as requests.cpu, containerDisk root,
 * cloud-init NoCloud user data from a Secret, and KubeVirt's PCI topology annotation in the template's metadata
 * (what KubeVirt's defaulting adds there; without it kubernetes_manifest fails with "inconsistent result"). */
function virtualMachine(name: string, namespace: string, secretName: string, templateMetadata?: object | null): Record<string, unknown> {
  const vm = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name, namespace, labels: { 'metalslice.io/pool': 'workers' } },
    spec: {
      runStrategy: 'Always',
      template: {
        metadata: templateMetadata ?? { labels: { 'kubevirt.io/vm': name, 'metalslice.io/pool': 'workers' }, annotations: PCI_TOPOLOGY },
        spec: {
          domain: {
            cpu: { cores: 2 },
            resources: { requests: { cpu: '2', memory: '4Gi' } },
            devices: {
              disks: [
                { name: 'root', disk: { bus: 'virtio' } },
                { name: 'cloudinit', disk: { bus: 'virtio' } },
              ],
            },
          },
          volumes: [
            { name: 'root', containerDisk: { image: 'quay.io/containerdisks/ubuntu:24.04' } },
            { name: 'cloudinit', cloudInitNoCloud: { secretRef: { name: secretName } } },
          ],
        },
      },
    },
  };
  if (templateMetadata === null) {
    const { metadata: _dropped, ...template } = vm.spec.template;
    return { ...vm, spec: { ...vm.spec, template } };
  }
  return vm;
}

describe('e2e toolchain', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    // KubeVirt's own virt-api admits every VM and virt-controller turns it into a launcher pod, as on a real cluster.
    cluster = await startCluster({ kubevirt: true });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('installs every shared CRD and the 20 of KubeVirt, established and discoverable', async () => {
    expect(cluster.crds).toContain('virtualmachines.kubevirt.io');
    expect(cluster.crds.length).toBeGreaterThanOrEqual(13 + 18);
    // virt-operator's generated CRDs, not only the two shared copies: virt-controller watches every kind.
    for (const crd of [
      'kubevirts.kubevirt.io',
      'virtualmachineinstances.kubevirt.io',
      'virtualmachineinstancemigrations.kubevirt.io',
      'migrationpolicies.migrations.kubevirt.io',
    ])
      expect(cluster.crds).toContain(crd);
    const res = await cluster.client().get<ApiResourceList>(VMS);
    expect(res.status).toBe(200);
    expect(res.body.resources.map((r) => r.name)).toEqual(expect.arrayContaining(['virtualmachines', 'virtualmachineinstances', 'kubevirts']));
  });

  it("admits VMs through KubeVirt's own virt-api: refuses one without a runStrategy, defaults the one it accepts", async () => {
    const admin = cluster.client();
    const vm = virtualMachine('admitted', 'default', 'ud') as { spec: Record<string, unknown> };
    const { runStrategy: _omitted, ...withoutRunStrategy } = vm.spec;
    const refused = await admin.create<Status>(`${VMS}/namespaces/default/virtualmachines?dryRun=All`, { ...vm, spec: withoutRunStrategy });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('admission webhook "virtualmachine-validator.kubevirt.io" denied the request');
    const admitted = await admin.create<VirtualMachineDoc & { spec: { template: { spec: { domain: { firmware?: { uuid?: string } } } } } }>(
      `${VMS}/namespaces/default/virtualmachines?dryRun=All`,
      vm,
    );
    expect(admitted.status).toBe(201);
    // KubeVirt's VM mutator: a firmware UUID and the PCI topology annotation, which the imitation never wrote.
    expect(admitted.body.spec.template.spec.domain.firmware?.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(admitted.body.spec.template.metadata.annotations).toEqual(PCI_TOPOLOGY);
  });

  it("turns a running VM into a VMI and a virt-launcher pod through KubeVirt's own virt-controller", async () => {
    const admin = cluster.client();
    expect((await admin.create(`${VMS}/namespaces/default/virtualmachines`, virtualMachine('launched', 'default', 'ud'))).status).toBe(201);
    let pods: { metadata: { name: string; labels?: Record<string, string> } }[] = [];
    for (let i = 0; i < 120 && pods.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await admin.get<{ items: typeof pods }>(
        '/api/v1/namespaces/default/pods?labelSelector=kubevirt.io%3Dvirt-launcher,vm.kubevirt.io%2Fname%3Dlaunched',
      );
      pods = res.body.items ?? [];
    }
    expect(pods).toHaveLength(1);
    expect(pods[0].metadata.name).toMatch(/^virt-launcher-launched-/);
    expect((await admin.get(`${VMS}/namespaces/default/virtualmachineinstances/launched`)).status).toBe(200);
  });

  it('applies, re-plans clean and destroys a namespace, a random password and a VirtualMachine with OpenTofu', async () => {
    const work = fs.mkdtempSync(path.join(cluster.dir, 'tf-'));
    const ns = 'acme-e2e';
    const config = {
      terraform: {
        required_providers: {
          kubernetes: { source: 'kubernetes', version: K8S_PROVIDER_VERSION },
          random: { source: 'random', version: RANDOM_PROVIDER_VERSION },
        },
      },
      provider: { kubernetes: [{ config_path: cluster.adminKubeconfig }], random: [{}] },
      resource: {
        kubernetes_namespace_v1: { tenant: { metadata: { name: ns } } },
        random_password: { join: { length: 24, special: false } },
        kubernetes_secret_v1: {
          userdata: {
            metadata: { name: 'node-0-userdata', namespace: '${kubernetes_namespace_v1.tenant.metadata[0].name}' },
            data: { userdata: '#cloud-config\npassword: ${random_password.join.result}\n' },
          },
        },
        kubernetes_manifest: {
          vm: {
            manifest: virtualMachine('node-0', '${kubernetes_namespace_v1.tenant.metadata[0].name}', '${kubernetes_secret_v1.userdata.metadata[0].name}'),
          },
        },
      },
    };
    fs.writeFileSync(path.join(work, 'cdk.tf.json'), JSON.stringify(config, null, 2));

    expectOk('init', await tofu(work, ['init', '-input=false', '-no-color']));
    expectOk('apply', await tofu(work, ['apply', '-auto-approve', '-input=false', '-no-color']));

    const { body: vm } = await cluster.client().get<VirtualMachineDoc>(`${VMS}/namespaces/${ns}/virtualmachines/node-0`);
    expect(vm.spec.runStrategy).toBe('Always');
    expect(vm.spec.template.spec.domain.cpu?.cores).toBe(2);
    // The provider sends an int-or-string value that parses as an integer as a JSON integer ("2" -> 2); KubeVirt's
    // mutator rewrites the spec from its Go types, which write a quantity as a string again. Plans stay clean.
    expect(vm.spec.template.spec.domain.resources.requests).toEqual({ cpu: '2', memory: '4Gi' });
    expect(vm.spec.template.spec.volumes[1].cloudInitNoCloud?.secretRef?.name).toBe('node-0-userdata');
    expect(vm.spec.template.spec.architecture).toBe('amd64'); // defaulted by KubeVirt's own VM mutator
    const secret = await cluster.client().get<SecretDoc>(`/api/v1/namespaces/${ns}/secrets/node-0-userdata`);
    expect(Buffer.from(secret.body.data.userdata, 'base64').toString()).toMatch(/^#cloud-config\npassword: [A-Za-z0-9]{24}\n$/);
    // No secret literal in the config: the password exists only in state and in the cluster.
    expect(fs.readFileSync(path.join(work, 'cdk.tf.json'), 'utf8')).not.toMatch(/password: [A-Za-z0-9]{24}/);

    const plan = await tofu(work, ['plan', '-detailed-exitcode', '-input=false', '-no-color']);
    if (plan.code !== 0) throw new Error(`plan after apply is not clean (exit ${plan.code})\n${plan.stdout}\n${plan.stderr}`);

    expectOk('destroy', await tofu(work, ['destroy', '-auto-approve', '-input=false', '-no-color']));
    expect((await cluster.client().get(`${VMS}/namespaces/${ns}/virtualmachines/node-0`)).status).toBe(404);
    expect((await cluster.client().get(`/api/v1/namespaces/${ns}`)).status).toBe(404);
  });

  it('forbids a tenant without a RoleBinding to create a VM, and allows it once bound', async () => {
    const admin = cluster.client();
    const ns = 'acme-rbac';
    expect((await admin.create('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    const tenant = cluster.client(cluster.tenantKubeconfig('tenant-acme', ['metalslice:tenants']));

    const denied = await tenant.create<Status>(`${VMS}/namespaces/${ns}/virtualmachines`, virtualMachine('vm-a', ns, 'ud'));
    expect(denied.status).toBe(403);
    expect(denied.body.reason).toBe('Forbidden');
    expect(denied.body.message).toContain('User "tenant-acme" cannot create resource "virtualmachines"');

    // The same identity succeeds once bound: the 403 above was authorization, not authentication.
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    expect(
      (
        await admin.create(`${rbac}/namespaces/${ns}/roles`, {
          metadata: { name: 'vm-editor' },
          rules: [{ apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], verbs: ['get', 'list', 'create', 'delete'] }],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await admin.create(`${rbac}/namespaces/${ns}/rolebindings`, {
          metadata: { name: 'acme-vm-editor' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'vm-editor' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'metalslice:tenants' }],
        })
      ).status,
    ).toBe(201);
    // RBAC changes reach the authorizer through an informer: allow a moment.
    let allowed = await tenant.create(`${VMS}/namespaces/${ns}/virtualmachines`, virtualMachine('vm-a', ns, 'ud'));
    for (let i = 0; i < 50 && allowed.status === 403; i++) {
      await new Promise((r) => setTimeout(r, 100));
      allowed = await tenant.create(`${VMS}/namespaces/${ns}/virtualmachines`, virtualMachine('vm-a', ns, 'ud'));
    }
    expect(allowed.status).toBe(201);
    // Still nothing outside the binding's namespace.
    expect((await tenant.get(`${VMS}/namespaces/default/virtualmachines`)).status).toBe(403);
  });

  it('rejects the second VM in a namespace whose ResourceQuota allows count/virtualmachines.kubevirt.io: 1', async () => {
    const admin = cluster.client();
    const ns = 'acme-quota';
    expect((await admin.create('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    expect(
      (
        await admin.create(`/api/v1/namespaces/${ns}/resourcequotas`, {
          metadata: { name: 'slice' },
          spec: { hard: { 'count/virtualmachines.kubevirt.io': '1' } },
        })
      ).status,
    ).toBe(201);
    // Admission refuses to count against a quota whose status the quota controller has not filled in yet.
    await cluster.waitForQuotaStatus(ns, 'slice');

    const first = await admin.create(`${VMS}/namespaces/${ns}/virtualmachines`, virtualMachine('vm-1', ns, 'ud'));
    expect(first.status).toBe(201);
    const second = await admin.create<Status>(`${VMS}/namespaces/${ns}/virtualmachines`, virtualMachine('vm-2', ns, 'ud'));
    expect(second.status).toBe(403);
    expect(second.body.message).toMatch(
      /exceeded quota: slice, requested: count\/virtualmachines\.kubevirt\.io=1, used: count\/virtualmachines\.kubevirt\.io=1, limited: count\/virtualmachines\.kubevirt\.io=1/,
    );
  });
  describe("kubernetes_manifest shape for a VirtualMachine under KubeVirt's own defaulting", () => {
    /** Applies one VM manifest with OpenTofu in a fresh namespace; returns apply, then (if it worked) plan. */
    async function applyShape(
      ns: string,
      templateMetadata: object | null,
      extra: object = {},
    ): Promise<{ apply: CommandResult; plan?: CommandResult; work: string }> {
      expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
      const work = fs.mkdtempSync(path.join(cluster.dir, 'tf-'));
      const write = (vm: object): void =>
        fs.writeFileSync(
          path.join(work, 'cdk.tf.json'),
          JSON.stringify({
            terraform: { required_providers: { kubernetes: { source: 'kubernetes', version: K8S_PROVIDER_VERSION } } },
            provider: { kubernetes: [{ config_path: cluster.adminKubeconfig }] },
            resource: { kubernetes_manifest: { vm: { manifest: vm, ...extra } } },
          }),
        );
      write(virtualMachine('vm', ns, 'ud', templateMetadata));
      expectOk('init', await tofu(work, ['init', '-input=false', '-no-color']));
      const apply = await tofu(work, ['apply', '-auto-approve', '-input=false', '-no-color']);
      if (apply.code !== 0) return { apply, work };
      return { apply, plan: await tofu(work, ['plan', '-detailed-exitcode', '-input=false', '-no-color']), work };
    }

    it('fails with "inconsistent result" when spec.template.metadata has labels only (KubeVirt adds an annotation there; provider bug, this test flags a fix)', async () => {
      const { apply } = await applyShape('shape-labels-only', { labels: { 'kubevirt.io/vm': 'vm' } });
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain('Provider produced inconsistent result after apply');
      expect(apply.stderr).toContain('wrong final value type');
    });

    it('is not fixed by computed_fields on spec.template.metadata', async () => {
      const { apply } = await applyShape(
        'shape-computed',
        { labels: { 'kubevirt.io/vm': 'vm' } },
        {
          computed_fields: ['metadata.labels', 'metadata.annotations', 'spec.template.metadata'],
        },
      );
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain('Provider produced inconsistent result after apply');
    });

    it('fails with `creationTimestamp: null` beside the labels: KubeVirt v1.9.0 drops that null (the old imitation added it)', async () => {
      const { apply } = await applyShape('shape-cts-null', { labels: { 'kubevirt.io/vm': 'vm' }, creationTimestamp: null });
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain('Provider produced inconsistent result after apply');
      expect(apply.stderr).toContain('"creationTimestamp" is');
    });

    it("applies, plans clean and updates in place with KubeVirt's PCI topology annotation beside the template labels", async () => {
      const { apply, plan, work } = await applyShape('shape-pci-topology', { labels: { 'kubevirt.io/vm': 'vm' }, annotations: PCI_TOPOLOGY });
      expectOk('apply', apply);
      expect(plan?.code).toBe(0);
      // A label change is an in-place update that stays consistent too.
      const config = JSON.parse(fs.readFileSync(path.join(work, 'cdk.tf.json'), 'utf8')) as {
        resource: { kubernetes_manifest: { vm: { manifest: { spec: { template: { metadata: { labels: Record<string, string> } } } } } } };
      };
      config.resource.kubernetes_manifest.vm.manifest.spec.template.metadata.labels['metalslice.io/pool'] = 'burst';
      fs.writeFileSync(path.join(work, 'cdk.tf.json'), JSON.stringify(config));
      expectOk('apply (update)', await tofu(work, ['apply', '-auto-approve', '-input=false', '-no-color']));
      expect((await tofu(work, ['plan', '-detailed-exitcode', '-input=false', '-no-color'])).code).toBe(0);
      const vm = await cluster.client().get<VirtualMachineDoc>(`${VMS}/namespaces/shape-pci-topology/virtualmachines/vm`);
      expect(vm.body.spec.template.metadata.labels['metalslice.io/pool']).toBe('burst');
      expectOk('destroy', await tofu(work, ['destroy', '-auto-approve', '-input=false', '-no-color']));
    });

    it('applies and plans clean with no spec.template.metadata at all', async () => {
      const { apply, plan } = await applyShape('shape-no-metadata', null);
      expectOk('apply', apply);
      expect(plan?.code).toBe(0);
    });
  });
});
