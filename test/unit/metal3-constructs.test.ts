import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { App, TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { CapacityPlan, TenantCluster } from '../../constructs';
import { HostSpec } from '../../constructs/core/input/model';
import { NodeProvider } from '../../constructs/node-provider';
import { PrivateNodePool, PrivateNodePoolProps } from '../../constructs/private-node-pool';
import { validateAgainstCrd } from '../support/crd-schema';
import { EXAMPLE_CA } from '../support/models';
import { drainDelta, isDrainKey, isNodeEndKey, isRolloutKey, rolloutDelta } from '../support/synth';
import { appliedManifest, inlineForEach } from '../support/stack-objects';

const image = { url: 'https://images.example.com/ubuntu-24.04.raw', checksum: 'b'.repeat(64), checksumType: 'sha256', format: 'raw' } as const;
const metalHost = (name: string, labels: Record<string, string> = {}): HostSpec => ({
  name,
  labels: { class: 'gpu', ...labels },
  state: 'available',
  capacity: { cpu: 64, memory: '512Gi', disk: '3840Gi' },
});

interface Options {
  count?: number;
  secondCluster?: boolean;
  hosts?: HostSpec[];
}

function build(app: App, options: Options = {}): TerraformStack {
  const stack = new TerraformStack(app, 'tenant');
  new KubernetesProvider(stack, 'kubernetes', { configPath: '/etc/metalslice/provider.kubeconfig' });
  new RandomProvider(stack, 'random');
  new CapacityPlan(stack, 'plan', { writeReport: false });
  const metal = new NodeProvider(stack, 'metal', {
    kind: 'metal3',
    hosts: options.hosts ?? [
      metalHost('gpu-01', { 'infrastructure.cluster.x-k8s.io/failure-domain': 'rack-1' }),
      metalHost('gpu-02'),
      metalHost('gpu-03'),
      metalHost('gpu-04'),
    ],
    hostNamespace: 'bm-pool',
    nodeTypes: [{ name: 'big', hostSelector: { matchLabels: { class: 'gpu' } } }],
  });
  const prod = new TenantCluster(stack, 'prod', {
    endpoint: 'https://10.0.0.10:6443',
    caCertificate: EXAMPLE_CA,
    kubeconfigPath: '/etc/metalslice/tenant.kubeconfig',
  });
  new PrivateNodePool(stack, 'metal-workers', { cluster: prod, provider: metal, nodeType: 'big', count: options.count ?? 2, image, labels: { tier: 'metal' } });
  if (options.secondCluster) {
    const dev = new TenantCluster(stack, 'dev', { endpoint: 'https://10.0.0.20:6443', caCertificate: EXAMPLE_CA });
    new PrivateNodePool(stack, 'dev-metal', { cluster: dev, provider: metal, nodeType: 'big', count: 1, image });
  }
  return stack;
}

type Synth = { resource: Record<string, Record<string, Record<string, unknown>>>; locals?: Record<string, string> };
const synth = (options: Options = {}): Synth => inlineForEach(JSON.parse(Testing.synth(build(Testing.app(), options))) as Synth);
/** The userData Secrets (kubectl_manifest) by name: the object, and the document its `userData` encodes (a local). */
function userDataSecrets(json: Synth): Map<string, { secret: { metadata: { name: string }; data: { userData: string } }; document: string }> {
  const out = new Map<string, { secret: { metadata: { name: string }; data: { userData: string } }; document: string }>();
  for (const r of Object.values(json.resource.kubectl_manifest ?? {})) {
    const secret = parse((r as { yaml_body: string }).yaml_body) as { kind: string; metadata: { name: string }; data: { userData: string } };
    if (secret.kind !== 'Secret') continue;
    const local = /^\$\{base64encode\(local\.([\w-]+)\)\}$/.exec(secret.data.userData)?.[1];
    out.set(secret.metadata.name, { secret, document: local !== undefined ? (json.locals?.[local] ?? '') : '' });
  }
  return out;
}
const manifests = (json: Synth, kind: string) =>
  Object.values(json.resource.kubernetes_manifest ?? {})
    .map((r) => appliedManifest(r.manifest) as unknown as { kind: string; metadata: { name: string; namespace: string }; spec: Record<string, unknown> })
    .filter((m) => m.kind === kind);

describe('PrivateNodePool synth', () => {
  it('claims one host per node, in the tenant node environment namespace, with its userData Secret and token', () => {
    const json = synth();
    const claims = manifests(json, 'HostClaim');
    expect(claims.map((c) => c.metadata.name)).toEqual(['prod-metal-workers-0', 'prod-metal-workers-1']);
    for (const c of claims) expect(validateAgainstCrd(c)).toEqual([]);
    expect(claims[0].metadata.namespace).toBe('prod-metal');
    expect(claims[0].spec).toMatchObject({
      hostSelector: { inNamespace: 'bm-pool', matchLabels: { class: 'gpu' } },
      userData: { name: 'prod-metal-workers-0-userdata', namespace: 'prod-metal' },
      poweredOn: true,
    });
    // The planned host's failure domain becomes the claim's preference; a host without one adds none.
    expect(claims[0].spec.failureDomain).toBe('rack-1');
    expect(claims[1].spec.failureDomain).toBeUndefined();
    // The userData Secret is applied server-side (kubectl_manifest), its document base64-encoded by Terraform.
    const userData = userDataSecrets(json).get('prod-metal-workers-0-userdata')!;
    expect(userData.secret).toMatchObject({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'prod-metal', labels: { 'app.kubernetes.io/managed-by': 'metalslice', 'metalslice.io/pool': 'metal-workers' } },
      type: 'Opaque',
    });
    expect(userData.secret).not.toHaveProperty('stringData');
    expect(userData.document).toMatch(/^#cloud-config\n/);
    expect(userData.document).toContain('tier=metal');
    // The token is a Terraform reference, never a literal.
    expect(userData.document).toMatch(/\$\{random_string\.[^}]+\.result\}\.\$\{random_password\.[^}]+\.result\}/);
    // The bootstrap token Secrets, in the tenant cluster's kube-system, applied server-side too.
    const tokens = Object.values(json.resource.kubectl_manifest as Record<string, { yaml_body: string }>).filter((r) =>
      /namespace: kube-system\n/.test(r.yaml_body),
    );
    expect(tokens).toHaveLength(2);
  });

  it('writes one HostDeployPolicy per host namespace admitting exactly the tenant namespaces that claim there', () => {
    const json = synth({ secondCluster: true });
    const policies = manifests(json, 'HostDeployPolicy');
    expect(policies).toHaveLength(1);
    expect(policies[0].metadata.namespace).toBe('bm-pool');
    expect(policies[0].spec).toEqual({ hostClaimNamespaces: { names: ['dev-metal', 'prod-metal'] } });
    expect(validateAgainstCrd(policies[0])).toEqual([]);
  });

  it('adds exactly one node when the count grows by one and changes nothing else', () => {
    const before = synth({ count: 2 });
    const after = synth({ count: 3 });
    const flat = (j: Synth) =>
      new Map(
        Object.entries(j.resource).flatMap(([type, byName]) =>
          Object.entries(byName).map(([name, body]) => [`${type}.${name}`, JSON.stringify(body)] as const),
        ),
      );
    const a = flat(before);
    const b = flat(after);
    const grew: string[] = [];
    for (const [k, v] of a) {
      // One pair of drain blocks (the one the new HostClaim hashes to) gains that node's instances, and nothing else:
      // its drain waits for the pair's node resources through a local, which gains the claim (checked below).
      if (isDrainKey(k) || isNodeEndKey(k)) {
        const delta = drainDelta(v, b.get(k)!);
        expect(delta.restUnchanged).toBe(true);
        expect(delta.dependsOn.every((d) => /^local\.[\w-]+_Removers-\d+_[0-9A-F]{8}$/.test(d))).toBe(true);
        if (delta.nodes.length > 0) grew.push(k);
        expect(delta.nodes).toEqual(delta.nodes.length > 0 ? ['prod-metal-workers-2'] : []);
      }
      // The pool's roll runs after the new node's claim, Secret and token too, and its node list (a provisioner
      // argument, no planned change) names it.
      else if (isRolloutKey(k))
        expect(rolloutDelta(v, b.get(k)!)).toEqual({
          dependsOn: [0, 1, 2].map(() => expect.stringContaining('prod-metal-workers-2')),
          nodes: ['prod-metal-workers-2'],
          restUnchanged: true,
        });
      else expect(b.get(k)).toBe(v);
    }
    // The drain and the end of one pair.
    const bucketOf = (k: string) => /_(?:Resource-|End-)(\d+)_[0-9A-F]{8}$/.exec(k)?.[1] ?? '0';
    expect(grew).toHaveLength(2);
    expect(new Set(grew.map(bucketOf)).size).toBe(1);
    const removers = Object.entries(after.locals ?? {}).find(([name]) => new RegExp(`_Removers-${bucketOf(grew[0])}_[0-9A-F]{8}$`).test(name));
    expect(String(removers?.[1])).toMatch(/kubernetes_manifest\.[\w-]*prod-metal-workers-2[\w-]*/);
    const added = [...b.keys()].filter((k) => !a.has(k));
    expect(added.every((k) => /prod-metal-workers-2/.test(k))).toBe(true);
    expect(added.map((k) => k.split('.')[0]).sort()).toEqual([
      'kubectl_manifest',
      'kubectl_manifest',
      'kubernetes_manifest',
      'random_password',
      'random_string',
    ]);
    // And one local: the new node's cloud-init document, which its userData Secret encodes (besides its pair's
    // locals, which name its claim, and are new if the pair was empty).
    const [la, lb] = [before.locals ?? {}, after.locals ?? {}];
    // (The pair's two maps of nodes, what its blocks' `for_each` reads, gain the node: drainDelta saw them inlined.)
    const b0 = bucketOf(grew[0]);
    const pairMaps = new RegExp(`^node-drains-[\\w-]+_(Resource|End)${b0 === '0' ? '' : `-${b0}`}Nodes_[0-9A-F]{8}$`);
    expect(Object.keys(la).filter((k) => pairMaps.test(k))).toHaveLength(2);
    for (const [k, v] of Object.entries(la)) if (k !== removers![0] && !pairMaps.test(k)) expect({ k, v: lb[k] }).toEqual({ k, v });
    const hub = /^node-drains-[\w-]+_(Removers|Ends)-\d+_[0-9A-F]{8}$/;
    expect(Object.keys(lb).filter((k) => !(k in la) && !hub.test(k))).toEqual([
      expect.stringMatching(/^metal-workers_prod-metal-workers-2_UserDataDocument_[0-9A-F]{8}$/),
    ]);
  });

  it('fails synth naming the free hosts when the pool claims more than there are', () => {
    const app = Testing.app();
    build(app, { count: 3, hosts: [metalHost('gpu-01'), metalHost('gpu-02')] });
    expect(() => app.synth()).toThrow(/tenant\/metal-workers[\s\S]*2[^\n]*free/);
  });
});

describe('PrivateNodePool props', () => {
  const base = (stack: TerraformStack): PrivateNodePoolProps => ({
    cluster: new TenantCluster(stack, 'c', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }),
    provider: new NodeProvider(stack, 'metal', {
      kind: 'metal3',
      hosts: [metalHost('gpu-01')],
      nodeTypes: [{ name: 'big', hostSelector: { matchLabels: { class: 'gpu' } } }, { name: 'loose' }],
    }),
    nodeType: 'big',
    count: 1,
    image,
  });
  const stack = () => new TerraformStack(Testing.app(), 's');

  it('rejects an unknown node type, listing the provider types', () => {
    const s = stack();
    expect(() => new PrivateNodePool(s, 'p', { ...base(s), nodeType: 'huge' })).toThrow(
      /\[s\/p\] provider "metal" has no node type "huge"; its types: big, loose/,
    );
  });

  it('rejects a node type without a host selector, a non-metal3 provider, a bad count and an image without checksum', () => {
    const s = stack();
    const props = base(s);
    expect(() => new PrivateNodePool(s, 'a', { ...props, nodeType: 'loose' })).toThrow(/has no hostSelector/);
    const virt = { providerName: 'virt', kind: 'kubevirt' as const, node: props.provider.node, with: props.provider.with.bind(props.provider) };
    expect(() => new PrivateNodePool(s, 'b', { ...props, provider: virt })).toThrow(/kind kubevirt; private node pools claim whole bare-metal hosts/);
    expect(() => new PrivateNodePool(s, 'c2', { ...props, count: 1.5 })).toThrow(/count must be a whole number of hosts/);
    expect(() => new PrivateNodePool(s, 'd', { ...props, image: { url: 'https://x/os.qcow2', checksum: '' } })).toThrow(/image.checksum is required/);
  });
});
