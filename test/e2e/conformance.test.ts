// Conformance: for the same claim (node type, pool, cluster), the per-claim node template applied with
// OpenTofu and the constructs' synth (applied with OpenTofu too) create the same
// VirtualMachine / HostClaim on a real kube-apiserver, field by field, names and namespaces aside; and the
// join module writes the same cloud-config document as the constructs.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing, TerraformStack } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { parse } from 'yaml';
import { CapacityPlan, ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../../constructs';
import { NodeProvider } from '../../constructs/node-provider';
import { PrivateNodePool } from '../../constructs/private-node-pool';
import { caCertHash, renderJoinCloudConfig } from '../../constructs/render/cloud-init';
import type { NodeBootstrap } from '../../constructs/core/input/model';
import { EXAMPLE_CA } from '../support/models';
import { copyTerraformTree, expectOk, startCluster, TestCluster, tofu } from './harness';
import type { HostClaimDoc, SecretDoc, VirtualMachineDoc } from '../support/kube-docs';
import { appliedManifest, appliedYaml, instancesByAddress, stackObjects } from '../support/stack-objects';
import { KUBECTL_PROVIDER } from '../../constructs/plumbing/kubectl';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { nodeTemplateVars } from '../../constructs/render/node-template';

jest.setTimeout(900_000);

const K8S_PROVIDER_VERSION = process.env.METALSLICE_KUBERNETES_PROVIDER_VERSION ?? '3.2.1';
const KUBECTL_PROVIDER_VERSION = process.env.METALSLICE_KUBECTL_PROVIDER_VERSION ?? KUBECTL_PROVIDER.version;
const TEMPLATE_NS = 'conform-template';

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  spec: Record<string, unknown>;
};

/** An object of a synthesized stack and the resource type that applies it. */
interface Synthesized {
  readonly via: string;
  readonly manifest: Manifest;
  readonly resource: Record<string, unknown>;
}

/** The objects of a kind in a synthesized stack, with the resource that applies each. */
function synthesizedManifests(stack: TerraformStack, kind: string): Synthesized[] {
  const json = JSON.parse(Testing.synth(stack)) as { resource: Record<string, Record<string, Record<string, unknown>>> };
  // Each instance of a pool's resources (a node's VM, Secrets) with its own arguments, as Terraform evaluates them.
  const instances = instancesByAddress<Record<string, unknown>>(json);
  return stackObjects(json)
    .filter((o) => o.object.kind === kind)
    .map((o) => {
      const via = o.address.slice(0, o.address.indexOf('.'));
      const { depends_on: _waits, ...resource } = instances.get(o.address)!;
      // A VM's runStrategy reads its pool's stopped VMs, and a HostClaim its pool's claims not at the revision and its
      // holds (data sources not copied here): as applied with none of them.
      if (typeof resource.yaml_body === 'string') resource.yaml_body = appliedYaml(resource.yaml_body);
      if (typeof resource.manifest === 'string') resource.manifest = appliedManifest(resource.manifest);
      return { via, manifest: o.object as unknown as Manifest, resource };
    });
}

/** Applies synthesized objects as the constructs do: each with its own resource type and arguments, in a Terraform JSON config. */
async function applyManifests(dir: string, kubeconfig: string, objects: readonly Synthesized[]): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const resource: Record<string, Record<string, unknown>> = {};
  objects.forEach((o, i) => ((resource[o.via] ??= {})[`m${i}`] = o.resource));
  const config = {
    terraform: {
      required_providers: {
        kubernetes: { source: 'kubernetes', version: K8S_PROVIDER_VERSION },
        kubectl: { source: KUBECTL_PROVIDER.source, version: KUBECTL_PROVIDER_VERSION },
      },
    },
    provider: { kubernetes: [{ config_path: kubeconfig }], kubectl: [{ config_path: kubeconfig, load_config_file: true }] },
    resource,
  };
  fs.writeFileSync(path.join(dir, 'main.tf.json'), JSON.stringify(config, null, 2));
  expectOk('init', await tofu(dir, ['init', '-input=false', '-no-color']));
  expectOk('apply', await tofu(dir, ['apply', '-auto-approve', '-input=false', '-no-color']));
}

async function applyTemplate(dir: string, kubeconfig: string, vcluster: Record<string, unknown>): Promise<void> {
  fs.writeFileSync(path.join(dir, 'claim.tfvars.json'), JSON.stringify({ vcluster }));
  expectOk('init', await tofu(dir, ['init', '-input=false', '-no-color']));
  expectOk(
    'apply',
    await tofu(dir, ['apply', '-auto-approve', '-var-file=claim.tfvars.json', `-var=kubeconfig_path=${kubeconfig}`, '-input=false', '-no-color']),
  );
}

/** The object with what may differ between the two (namespace, server-set metadata) taken out. */
function comparable(obj: { metadata: { labels?: Record<string, string> }; spec: unknown }, namespace: string): unknown {
  // KubeVirt's VM mutator gives every new VM its own random firmware serial and UUID: not part of what was rendered.
  const text = JSON.stringify(obj.spec)
    .split(`"namespace":"${namespace}"`)
    .join('"namespace":"<ns>"')
    .replace(/"(serial|uuid)":"[0-9a-f-]{36}"/g, '"$1":"<assigned by KubeVirt>"')
    // A pool's revision, which its rollout replaces nodes by: a node template's VM (or HostClaim) is made once per
    // claim and rolled by vCluster Platform, not by metalslice, so it carries none.
    .replace(/,"metalslice\.io\/revision":"[0-9a-f]{16}"/g, '');
  const { 'metalslice.io/revision': _revision, ...labels } = obj.metadata.labels ?? {};
  return { labels: obj.metadata.labels === undefined ? undefined : labels, spec: JSON.parse(text) as unknown };
}

function newStack(kubeconfig: string): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'conformance');
  new KubernetesProvider(stack, 'kubernetes', { configPath: kubeconfig });
  new RandomProvider(stack, 'random');
  new CapacityPlan(stack, 'plan', { writeReport: false });
  return stack;
}

describe('node templates conform to the constructs', () => {
  let cluster: TestCluster;
  let work: string;

  beforeAll(async () => {
    // KubeVirt's admission defaulting imitated, as on a real cluster (the VM shape is made for it).
    cluster = await startCluster({ kubevirt: true });
    work = copyTerraformTree(fs.mkdtempSync(path.join(cluster.dir, 'conform-')));
    for (const ns of ['acme-team-a', 'prod-metal', TEMPLATE_NS])
      expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('creates the same VirtualMachine from the kubevirt template as from an ElasticNodePool', async () => {
    const stack = newStack(cluster.adminKubeconfig);
    const fleet = new ElasticFleet(stack, 'fra1', {
      hosts: [{ name: 'bm-01', labels: { pool: 'virt' }, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } }],
      hostSelector: { pool: 'virt' },
    });
    const quota = new ElasticQuota(stack, 'team-a', { fleet, organization: 'acme', limits: { cpu: 16, memory: '64Gi', disk: '500Gi' } });
    const prod = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    new ElasticNodePool(stack, 'small', { quota, cluster: prod, shape: { cpu: 2, memory: '4Gi', disk: '20Gi' }, count: 1 });
    const [fromConstructs] = synthesizedManifests(stack, 'VirtualMachine');
    expect(fromConstructs.manifest.metadata.namespace).toBe('acme-team-a');
    const nodeName = fromConstructs.manifest.metadata.name;
    await applyManifests(path.join(work, 'constructs-vm'), cluster.adminKubeconfig, [fromConstructs]);

    // The template's VM data, as a provider team writes it with `metalslice node-template-vars`: the same
    // fleet and the type `small` of the pool's shape on a kubevirt provider.
    const typeModel: MetalsliceConfig = {
      fleets: [
        {
          name: 'fra1',
          hosts: [{ name: 'bm-01', labels: { pool: 'virt' }, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } }],
          hostSelector: { pool: 'virt' },
        },
      ],
      nodeProviders: [{ name: 'virt', kind: 'kubevirt', fleet: 'fra1', nodeTypes: [{ name: 'small', resources: { cpu: 2, memory: '4Gi', disk: '20Gi' } }] }],
    };
    const vars = nodeTemplateVars(planModel(typeModel), typeModel, 'virt');
    if (!vars.ok) throw new Error(JSON.stringify(vars.errors));
    fs.writeFileSync(path.join(work, 'node-templates', 'kubevirt', 'vm-types.auto.tfvars.json'), JSON.stringify(vars.vars));
    await applyTemplate(path.join(work, 'node-templates', 'kubevirt'), cluster.adminKubeconfig, {
      name: nodeName,
      namespace: 'vcluster-prod',
      userData: '#cloud-config\n',
      nodeClaim: { metadata: { name: nodeName } },
      nodeType: {
        metadata: { name: 'small' },
        spec: {
          resources: { cpu: '2', memory: '4Gi', disk: '20Gi' },
          properties: {
            'metalslice.io/namespace': TEMPLATE_NS,
            'metalslice.io/quota': 'team-a',
            'metalslice.io/pool': 'small',
          },
        },
      },
      instance: { metadata: { name: 'prod' } },
    });

    const vms = '/apis/kubevirt.io/v1/namespaces';
    const a = await cluster.client().get<VirtualMachineDoc>(`${vms}/acme-team-a/virtualmachines/${nodeName}`);
    const b = await cluster.client().get<VirtualMachineDoc>(`${vms}/${TEMPLATE_NS}/virtualmachines/${nodeName}`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(comparable(b.body, TEMPLATE_NS)).toEqual(comparable(a.body, 'acme-team-a'));
    // The comparison covers the fields that matter: the data volume, the requests and the user data Secret.
    expect(a.body.spec.dataVolumeTemplates?.[0].spec.storage.resources.requests.storage).toBe('20Gi');
    expect(a.body.spec.template.spec.volumes[1].cloudInitNoCloud?.secretRef?.name).toBe(`${nodeName}-cloudinit`);
  });

  it('creates the same HostClaim from the metal3 template as from a PrivateNodePool', async () => {
    const stack = newStack(cluster.adminKubeconfig);
    const metal = new NodeProvider(stack, 'metal', {
      kind: 'metal3',
      hostNamespace: 'metal3',
      hosts: [{ name: 'gpu-01', labels: { class: 'gpu' }, state: 'available', capacity: { cpu: 96, memory: '1Ti', disk: '3840Gi' } }],
      nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }],
    });
    const prod = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    const image = { url: 'https://images.example.com/ubuntu-24.04.raw', checksum: 'd'.repeat(64), checksumType: 'sha256', format: 'raw' } as const;
    new PrivateNodePool(stack, 'gpu', { cluster: prod, provider: metal, nodeType: 'gpu-node', count: 1, image });
    const [fromConstructs] = synthesizedManifests(stack, 'HostClaim');
    expect(fromConstructs.manifest.metadata.namespace).toBe('prod-metal');
    const nodeName = fromConstructs.manifest.metadata.name;
    await applyManifests(path.join(work, 'constructs-hc'), cluster.adminKubeconfig, [fromConstructs]);

    await applyTemplate(path.join(work, 'node-templates', 'metal3'), cluster.adminKubeconfig, {
      name: nodeName,
      namespace: 'vcluster-prod',
      userData: '#cloud-config\n',
      nodeClaim: { metadata: { name: nodeName } },
      nodeType: {
        metadata: { name: 'gpu-node' },
        spec: {
          properties: {
            'metalslice.io/namespace': TEMPLATE_NS,
            'metalslice.io/pool': 'gpu',
            'metalslice.io/host-selector': 'class=gpu',
            'metalslice.io/host-namespace': 'metal3',
            'metalslice.io/image-url': image.url,
            'metalslice.io/image-checksum': image.checksum,
            'metalslice.io/image-checksum-type': image.checksumType,
            'metalslice.io/image-format': image.format,
          },
        },
      },
      instance: { metadata: { name: 'prod' } },
    });

    const claims = '/apis/metal3.io/v1alpha1/namespaces';
    const a = await cluster.client().get<HostClaimDoc>(`${claims}/prod-metal/hostclaims/${nodeName}`);
    const b = await cluster.client().get<HostClaimDoc>(`${claims}/${TEMPLATE_NS}/hostclaims/${nodeName}`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(comparable(b.body, TEMPLATE_NS)).toEqual(comparable(a.body, 'prod-metal'));
    expect(a.body.spec.userData).toEqual({ name: `${nodeName}-userdata`, namespace: 'prod-metal' });
  });

  it('writes the same join cloud-config from the join module as the constructs render, for every bootstrap, and registers its token', async () => {
    const dir = path.join(work, 'join-root');
    fs.mkdirSync(dir);
    const labels = { 'metalslice.io/pool': 'small', 'node.kubernetes.io/instance-type': 'small', 'node-role.kubernetes.io/worker': '', tier: 'a' };
    const taints = [
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const },
      { key: 'spot', effect: 'PreferNoSchedule' as const },
    ];
    // Each bootstrap as the config takes it, and as the module takes it (snake_case).
    const key =
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGMHmisBEADcP4WBUzpn8NMe8sTqA2dI2s3P6L5oF5tgJq9nF6YJjD0\n=x4Jk\n-----END PGP PUBLIC KEY BLOCK-----\n';
    const proxy = { http: 'http://proxy.internal:3128', noProxy: ['.internal', '10.0.0.0/8', 'mirror.internal'] };
    const bootstraps: Record<string, NodeBootstrap | undefined> = {
      join: undefined,
      preinstalled: { mode: 'preinstalled', kubernetes: '1.33.7', containerd: 'v1.7.24', proxy },
      mirror: {
        mode: 'mirror',
        kubernetes: '1.33.7',
        containerd: '1.7.24-1',
        sandboxImage: 'registry.internal/pause:3.10',
        repositories: {
          distribution: 'http://mirror.internal/debian',
          security: 'http://mirror.internal/debian-security',
          kubernetes: 'http://mirror.internal/k8s/',
          kubernetesKey: key,
        },
        proxy,
      },
      internet: { mode: 'internet', kubernetes: '1.33.7', containerd: '1.7.24-1', packageRevision: '1.2', proxy: { https: 'http://proxy.internal:3128' } },
    };
    const forModule = (b: NodeBootstrap) => ({
      mode: b.mode,
      kubernetes: b.kubernetes,
      containerd: b.containerd,
      package_revision: b.packageRevision,
      sandbox_image: b.sandboxImage,
      repositories: b.repositories && {
        distribution: b.repositories.distribution,
        security: b.repositories.security,
        kubernetes: b.repositories.kubernetes,
        kubernetes_key: b.repositories.kubernetesKey,
      },
      proxy: b.proxy && { http: b.proxy.http, https: b.proxy.https, no_proxy: b.proxy.noProxy },
    });
    const modules = Object.fromEntries(
      Object.entries(bootstraps).map(([name, bootstrap]) => [
        name,
        {
          source: '../modules/join',
          node_name: `prod-small-${name}`,
          cluster_endpoint: 'https://10.0.0.10:6443',
          cluster_ca_cert_hash: caCertHash(EXAMPLE_CA),
          kubernetes_version: '1.33',
          node_labels: labels,
          node_taints: taints,
          ...(bootstrap ? { bootstrap: forModule(bootstrap) } : {}),
        },
      ]),
    );
    const config = {
      terraform: {
        required_providers: {
          kubernetes: { source: 'kubernetes', version: K8S_PROVIDER_VERSION },
          kubectl: { source: KUBECTL_PROVIDER.source, version: KUBECTL_PROVIDER_VERSION },
        },
      },
      // The token Secret is applied server-side (kubectl_manifest): the same cluster through the kubectl provider.
      provider: { kubernetes: [{ config_path: cluster.adminKubeconfig }], kubectl: [{ config_path: cluster.adminKubeconfig, load_config_file: true }] },
      module: modules,
      output: {
        ...Object.fromEntries(
          Object.keys(bootstraps).flatMap((name) => [
            [`${name}_cloud_config`, { value: `\${module.${name}.cloud_config}`, sensitive: true }],
            [`${name}_token`, { value: `\${module.${name}.token}`, sensitive: true }],
          ]),
        ),
        token_secret_name: { value: '${module.join.token_secret_name}' },
      },
    };
    fs.writeFileSync(path.join(dir, 'main.tf.json'), JSON.stringify(config, null, 2));
    expectOk('init', await tofu(dir, ['init', '-input=false', '-no-color']));
    expectOk('apply', await tofu(dir, ['apply', '-auto-approve', '-input=false', '-no-color']));
    const out = await tofu(dir, ['output', '-json']);
    expectOk('output', out);
    const outputs = JSON.parse(out.stdout) as Record<string, { value: string }>;
    const token = outputs.join_token.value;
    expect(token).toMatch(/^[a-z0-9]{6}\.[a-z0-9]{16}$/);

    // The same document: equal as YAML, the kubeadm JoinConfiguration inside it included.
    const deep = (doc: string) => {
      const parsed = parse(doc) as { write_files: { path: string; content: string }[] };
      return { ...parsed, write_files: parsed.write_files.map((f) => (f.path.endsWith('.yaml') ? { ...f, content: parse(f.content) as unknown } : f)) };
    };
    for (const [name, bootstrap] of Object.entries(bootstraps)) {
      const expected = renderJoinCloudConfig({
        nodeName: `prod-small-${name}`,
        endpoint: 'https://10.0.0.10:6443',
        caCertificate: EXAMPLE_CA,
        token: outputs[`${name}_token`].value,
        kubernetesVersion: '1.33',
        labels,
        taints,
        bootstrap,
      });
      const fromModule = outputs[`${name}_cloud_config`].value;
      expect(fromModule.startsWith('#cloud-config\n')).toBe(true);
      expect({ name, document: deep(fromModule) }).toEqual({ name, document: deep(expected) });
    }

    const secret = await cluster.client().get<SecretDoc>(`/api/v1/namespaces/kube-system/secrets/${outputs.token_secret_name.value}`);
    expect(secret.status).toBe(200);
    expect(secret.body.type).toBe('bootstrap.kubernetes.io/token');
    const data = Object.fromEntries(Object.entries(secret.body.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(`${data['token-id']}.${data['token-secret']}`).toBe(token);
    expect(data['auth-extra-groups']).toBe('system:bootstrappers:kubeadm:default-node-token');
  });
});
