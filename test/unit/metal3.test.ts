import { describe, expect, it } from '@jest/globals';
import { planModel } from '../../constructs/core/plan';
import { HostSpec, NodeProviderSpec, PrivateNodePoolSpec } from '../../constructs/core/input/model';
import {
  hostImageProblem,
  HOST_DEPLOY_POLICY_NAME,
  renderHostClaim,
  renderHostClaimUserDataSecret,
  renderHostDeployPolicy,
} from '../../constructs/render/metal3';
import { validateAgainstCrd } from '../support/crd-schema';
import { cluster } from '../support/models';

const image = { url: 'https://images.example.com/ubuntu-24.04.qcow2', checksum: 'a'.repeat(64), checksumType: 'sha256', format: 'qcow2' } as const;

function claim(extra: Partial<Parameters<typeof renderHostClaim>[0]> = {}) {
  return renderHostClaim({
    nodeName: 'prod-gpu-0',
    namespace: 'prod-metal',
    pool: 'gpu',
    cluster: 'prod',
    nodeType: 'gpu-node',
    hostSelector: { matchLabels: { class: 'gpu' } },
    hostNamespace: 'metal3',
    image,
    userDataSecret: 'prod-gpu-0-userdata',
    ...extra,
  });
}

describe('renderHostClaim', () => {
  it('claims a host of the node type in the host pool namespace, with the image and the user data Secret', () => {
    const hc = claim();
    expect(hc).toEqual({
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'HostClaim',
      metadata: {
        name: 'prod-gpu-0',
        namespace: 'prod-metal',
        labels: {
          'app.kubernetes.io/managed-by': 'metalslice',
          'metalslice.io/pool': 'gpu',
          'metalslice.io/cluster': 'prod',
          'metalslice.io/node-type': 'gpu-node',
        },
      },
      spec: {
        hostSelector: { inNamespace: 'metal3', matchLabels: { class: 'gpu' } },
        image: { url: image.url, checksum: image.checksum, checksumType: 'sha256', format: 'qcow2' },
        userData: { name: 'prod-gpu-0-userdata', namespace: 'prod-metal' },
        poweredOn: true,
      },
    });
    expect(validateAgainstCrd(hc)).toEqual([]);
  });

  it('is valid against the upstream CRD with match expressions of every operator (values always present)', () => {
    const hc = claim({
      hostSelector: {
        matchLabels: { class: 'gpu' },
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a', 'b'] },
          { key: 'retired', operator: 'DoesNotExist' },
          { key: 'rack', operator: 'Exists' },
        ],
      },
      failureDomain: 'rack-7',
      poweredOn: false,
    });
    expect(validateAgainstCrd(hc)).toEqual([]);
    const spec = hc.spec as { hostSelector: { matchExpressions: { values: string[] }[] }; failureDomain: string; poweredOn: boolean };
    expect(spec.hostSelector.matchExpressions.map((e) => e.values)).toEqual([['a', 'b'], [], []]);
    expect(spec.failureDomain).toBe('rack-7');
    expect(spec.poweredOn).toBe(false);
  });

  it('lets Metal3 detect the checksum algorithm when none is given, and omits the checksum of a live ISO', () => {
    const detected = claim({ image: { url: image.url, checksum: 'abc' } }).spec as { image: Record<string, string> };
    expect(detected.image).toEqual({ url: image.url, checksum: 'abc', checksumType: 'auto' });
    const iso = claim({ image: { url: 'https://images.example.com/live.iso', checksum: '', format: 'live-iso' } });
    expect((iso.spec as { image: Record<string, string> }).image).toEqual({ url: 'https://images.example.com/live.iso', format: 'live-iso' });
    expect(validateAgainstCrd(iso)).toEqual([]);
  });

  it('looks in every admitting namespace when no host namespace is given', () => {
    const hc = claim({ hostNamespace: undefined });
    expect((hc.spec as { hostSelector: Record<string, unknown> }).hostSelector).toEqual({ matchLabels: { class: 'gpu' } });
  });
});

describe('hostImageProblem', () => {
  it('accepts an image with a checksum, and a live ISO or OCI image without one', () => {
    expect(hostImageProblem(image)).toBeUndefined();
    expect(hostImageProblem({ url: 'https://x/live.iso', checksum: '', format: 'live-iso' })).toBeUndefined();
    expect(hostImageProblem({ url: 'oci://registry.example.com/os:1', checksum: '' })).toBeUndefined();
  });

  it('rejects a disk image without a checksum and a URL that is not one, saying what to give', () => {
    expect(hostImageProblem({ url: 'https://x/os.qcow2', checksum: '' })).toMatch(/checksum is required.*sha256/);
    expect(hostImageProblem({ url: 'ubuntu.qcow2', checksum: 'abc' })).toMatch(/http\(s\) or oci URL.*"ubuntu.qcow2"/);
  });
});

describe('renderHostClaimUserDataSecret', () => {
  it('puts the cloud-config under the userData key the baremetal-operator reads', () => {
    expect(renderHostClaimUserDataSecret('n-userdata', 'ns', 'gpu', '#cloud-config\n')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'n-userdata', namespace: 'ns', labels: { 'app.kubernetes.io/managed-by': 'metalslice', 'metalslice.io/pool': 'gpu' } },
      type: 'Opaque',
      stringData: { userData: '#cloud-config\n' },
    });
  });
});

describe('renderHostDeployPolicy', () => {
  it('admits exactly the tenant namespaces, by name, sorted and once each', () => {
    const policy = renderHostDeployPolicy({ hostNamespace: 'metal3', tenantNamespaces: ['team-b-metal', 'prod-metal', 'team-b-metal'] });
    expect(policy).toEqual({
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'HostDeployPolicy',
      metadata: { name: HOST_DEPLOY_POLICY_NAME, namespace: 'metal3', labels: { 'app.kubernetes.io/managed-by': 'metalslice' } },
      spec: { hostClaimNamespaces: { names: ['prod-metal', 'team-b-metal'] } },
    });
    expect(validateAgainstCrd(policy)).toEqual([]);
  });
});

describe('private node pools in the plan', () => {
  const metalHost = (name: string, extra: Partial<HostSpec> = {}): HostSpec => ({
    name,
    labels: { class: 'gpu' },
    state: 'available',
    capacity: { cpu: 96, memory: '1Ti', disk: '3840Gi' },
    ...extra,
  });
  const metal = (hosts: HostSpec[]): NodeProviderSpec => ({
    name: 'metal',
    kind: 'metal3',
    hosts,
    nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { class: 'gpu' } } }],
  });
  const privatePool = (count: number): PrivateNodePoolSpec => ({ name: 'gpu', cluster: 'prod', provider: 'metal', nodeType: 'gpu-node', count, image });

  it('gives every node of a private pool its own free host', () => {
    const plan = planModel({
      clusters: [cluster()],
      nodeProviders: [metal([metalHost('gpu-01'), metalHost('gpu-02'), metalHost('gpu-03', { consumer: 'other' })])],
      privateNodePools: [privatePool(2)],
    });
    expect(plan.errors).toEqual([]);
    const pool = plan.autoPools.find((p) => p.name === 'gpu' && p.mode === 'static');
    expect(pool?.nodes.map((n) => [n.name, n.host])).toEqual([
      ['prod-gpu-0', 'gpu-01'],
      ['prod-gpu-1', 'gpu-02'],
    ]);
  });

  it('rejects a private pool of 3 when the node type has 2 free hosts, naming the free count', () => {
    const plan = planModel({
      clusters: [cluster()],
      nodeProviders: [metal([metalHost('gpu-01'), metalHost('gpu-02'), metalHost('gpu-03', { state: 'provisioned', consumer: 'other' })])],
      privateNodePools: [privatePool(3)],
    });
    expect(plan.ok).toBe(false);
    expect(plan.errors.map((e) => `${e.path}: ${e.message}`).join('\n')).toMatch(/privateNodePools\[0\][\s\S]*2 [^\n]*free/);
  });
});
