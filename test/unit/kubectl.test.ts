import { describe, expect, it } from '@jest/globals';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { TerraformStack, Testing } from 'cdktf';
import { KUBECTL_PROVIDER, KubectlManifest, KubectlProvider } from '../../constructs';

interface Synth {
  terraform: { required_providers: Record<string, { source: string; version: string }> };
  provider?: Record<string, Record<string, unknown>[]>;
  resource: { kubectl_manifest: Record<string, Record<string, unknown>> };
}

/** A stack with the given kubernetes providers and one kubectl_manifest. */
function synth(setUp: (stack: TerraformStack) => void): Synth {
  const stack = new TerraformStack(Testing.app(), 's');
  setUp(stack);
  new KubectlManifest(stack, 'vm', { yamlBody: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' });
  return JSON.parse(Testing.synth(stack)) as Synth;
}

describe('the kubectl provider and kubectl_manifest', () => {
  it('connect where the default kubernetes provider connects, without reading a kubeconfig it does not name', () => {
    const json = synth((s) => {
      new KubernetesProvider(s, 'k8s', { host: 'https://10.0.0.1:6443', clusterCaCertificate: 'CA', clientCertificate: 'CERT', clientKey: 'KEY' });
      new KubernetesProvider(s, 'tenant', { alias: 'tenant', host: 'https://10.9.9.9:6443', token: 'other' });
    });
    expect(json.provider?.kubectl).toEqual([
      { host: 'https://10.0.0.1:6443', cluster_ca_certificate: 'CA', client_certificate: 'CERT', client_key: 'KEY', load_config_file: false },
    ]);
    expect(json.terraform.required_providers.kubectl).toEqual({ source: KUBECTL_PROVIDER.source, version: KUBECTL_PROVIDER.constraint });
  });

  it('read the kubeconfig, context and exec plugin the kubernetes provider names', () => {
    const json = synth((s) => {
      new KubernetesProvider(s, 'k8s', {
        configPath: '/etc/kubeconfig',
        configContext: 'fleet',
        exec: [{ apiVersion: 'client.authentication.k8s.io/v1', command: 'login', args: ['--x'] }],
      });
    });
    expect(json.provider?.kubectl).toEqual([
      {
        config_path: '/etc/kubeconfig',
        config_context: 'fleet',
        exec: { api_version: 'client.authentication.k8s.io/v1', command: 'login', args: ['--x'] },
        load_config_file: true,
      },
    ]);
  });

  it("reuse a stack's own kubectl provider instead of declaring a second one", () => {
    const json = synth((s) => {
      new KubernetesProvider(s, 'k8s', { configPath: '/a' });
      KubectlProvider.of(s);
      KubectlProvider.of(s);
    });
    expect(json.provider?.kubectl).toHaveLength(1);
  });

  it('apply with server-side apply, take back hand-changed fields, and wait for deletion', () => {
    const json = synth((s) => new KubernetesProvider(s, 'k8s', {}));
    const [resource] = Object.values(json.resource.kubectl_manifest);
    expect(resource).toMatchObject({ yaml_body: expect.stringContaining('kind: ConfigMap'), server_side_apply: true, force_conflicts: true, wait: true });
    // No connection in the kubernetes provider: both read the environment (KUBE_CONFIG_PATH).
    expect(json.provider?.kubectl).toEqual([{}]);
  });

  it('leave the wait for deletion out when told (a Secret: its destroy ends when the API server has deleted it)', () => {
    const stack = new TerraformStack(Testing.app(), 's');
    new KubernetesProvider(stack, 'k8s', {});
    new KubectlManifest(stack, 'secret', { yamlBody: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n', waitForDeletion: false });
    new KubectlManifest(stack, 'map', { yamlBody: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' });
    const json = JSON.parse(Testing.synth(stack)) as Synth;
    expect([json.resource.kubectl_manifest.secret.wait, json.resource.kubectl_manifest.map.wait]).toEqual([false, true]);
  });

  it('mask the fields asked for, and forget a former resource type at the same address without destroying it', () => {
    const stack = new TerraformStack(Testing.app(), 's');
    new KubernetesProvider(stack, 'k8s', {});
    new KubectlManifest(stack, 'secret', {
      yamlBody: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n',
      sensitiveFields: ['data'],
      forgetPrevious: 'kubernetes_secret_v1',
    });
    const json = JSON.parse(Testing.synth(stack)) as Synth & { removed: unknown[]; import?: unknown };
    expect(json.resource.kubectl_manifest.secret).toMatchObject({ sensitive_fields: ['data'], server_side_apply: true });
    expect(json.removed).toEqual([{ from: 'kubernetes_secret_v1.secret', lifecycle: { destroy: false } }]);
    // Nothing to import: the create applies over the existing object.
    expect(json.import).toBeUndefined();
  });

  it("mirror an aliased kubernetes provider (a tenant cluster's) under its alias, once, beside the stack's own", () => {
    let tenant: KubernetesProvider | undefined;
    const json = synth((s) => {
      new KubernetesProvider(s, 'k8s', { configPath: '/etc/provider.kubeconfig' });
      tenant = new KubernetesProvider(s, 'tenant', { alias: 'tenant-shop', configPath: '/etc/tenant.kubeconfig', configContext: 'shop' });
      const mirror = KubectlProvider.mirroring(tenant);
      expect(KubectlProvider.mirroring(tenant)).toBe(mirror);
      new KubectlManifest(s, 'token', { yamlBody: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: t\n', provider: mirror });
    });
    expect(json.provider?.kubectl).toEqual([
      { alias: 'tenant-shop', config_path: '/etc/tenant.kubeconfig', config_context: 'shop', load_config_file: true },
      { config_path: '/etc/provider.kubeconfig', load_config_file: true },
    ]);
    expect(json.resource.kubectl_manifest.token.provider).toBe('kubectl.tenant-shop');
    expect(json.resource.kubectl_manifest.vm.provider).toBeUndefined();
  });

  it("mirror the stack's own kubernetes provider (a tenant cluster given it) with the stack's own kubectl provider, never a second unaliased one", () => {
    const json = synth((s) => {
      const own = new KubernetesProvider(s, 'k8s', { configPath: '/etc/provider.kubeconfig' });
      const before = KubectlProvider.of(s);
      expect(KubectlProvider.mirroring(own)).toBe(before);
    });
    expect(json.provider?.kubectl).toEqual([{ config_path: '/etc/provider.kubeconfig', load_config_file: true }]);
  });

  it('refuse HCL output when they take objects over: it would drop the removed blocks', () => {
    const stack = new TerraformStack(Testing.app(), 'hcl-adopt');
    new KubernetesProvider(stack, 'k8s', {});
    new KubectlManifest(stack, 'secret', { yamlBody: 'kind: Secret', forgetPrevious: 'kubernetes_secret_v1' });
    expect(() => {
      Testing.synthHcl(stack);
    }).toThrow(/hcl-adopt\/secret: taking objects over from an earlier metalslice .* needs JSON output/);
    // JSON output keeps them.
    expect((JSON.parse(Testing.synth(stack)) as { removed?: unknown[] }).removed).toHaveLength(1);
  });

  it('keep every argument in HCL output', () => {
    const stack = new TerraformStack(Testing.app(), 'hcl');
    new KubernetesProvider(stack, 'k8s', { configPath: '/etc/kubeconfig' });
    new KubectlManifest(stack, 'vm', { yamlBody: 'kind: ConfigMap' });
    const hcl: string = String(Testing.synthHcl(stack));
    expect(hcl).toMatch(/provider "kubectl" \{[^}]*config_path\s*=\s*"\/etc\/kubeconfig"[^}]*load_config_file\s*=\s*true/s);
    const resource = /resource "kubectl_manifest" "vm" \{([^}]*)\}/.exec(hcl)?.[1] ?? '';
    for (const line of ['yaml_body = "kind: ConfigMap"', 'server_side_apply = true', 'force_conflicts = true', 'wait = true']) expect(resource).toContain(line);
  });
});
