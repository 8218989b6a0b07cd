// The Metal3 objects the constructs render, accepted by a real kube-apiserver serving the upstream CRDs;
// and the API server's own validation is live (a wrong value is refused, not silently kept).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { renderHostClaim, renderHostClaimUserDataSecret, renderHostDeployPolicy } from '../../constructs/render/metal3';
import { startCluster, TestCluster } from './harness';
import type { HostClaimDoc, SecretDoc, Status } from '../support/kube-docs';

jest.setTimeout(600_000);

const METAL3 = '/apis/metal3.io/v1alpha1/namespaces';

describe('Metal3 objects on a real API server', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startCluster({ controllerManager: false });
    for (const ns of ['metal3', 'prod-metal']) expect((await cluster.client().create('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('accepts a HostClaim, its userData Secret and the HostDeployPolicy, and keeps every field', async () => {
    const admin = cluster.client();
    const secret = renderHostClaimUserDataSecret('prod-gpu-0-userdata', 'prod-metal', 'gpu', '#cloud-config\n');
    const claim = renderHostClaim({
      nodeName: 'prod-gpu-0',
      namespace: 'prod-metal',
      pool: 'gpu',
      cluster: 'prod',
      nodeType: 'gpu-node',
      hostSelector: { matchLabels: { class: 'gpu' }, matchExpressions: [{ key: 'retired', operator: 'DoesNotExist' }] },
      hostNamespace: 'metal3',
      image: { url: 'https://images.example.com/os.qcow2', checksum: 'e'.repeat(64), format: 'qcow2' },
      userDataSecret: 'prod-gpu-0-userdata',
      failureDomain: 'rack-1',
    });
    const policy = renderHostDeployPolicy({ hostNamespace: 'metal3', tenantNamespaces: ['prod-metal'] });

    expect((await admin.create('/api/v1/namespaces/prod-metal/secrets', secret)).status).toBe(201);
    const created = await admin.create<HostClaimDoc>(`${METAL3}/prod-metal/hostclaims`, claim);
    expect(created.status).toBe(201);
    // Nothing pruned: what comes back is what was sent.
    expect(created.body.spec).toEqual(claim.spec);
    const createdPolicy = await admin.create<HostClaimDoc>(`${METAL3}/metal3/hostdeploypolicies`, policy);
    expect(createdPolicy.status).toBe(201);
    expect(createdPolicy.body.spec).toEqual({ hostClaimNamespaces: { names: ['prod-metal'] } });
    const stored = await admin.get<SecretDoc>(`/api/v1/namespaces/prod-metal/secrets/prod-gpu-0-userdata`);
    expect(Buffer.from(stored.body.data.userData, 'base64').toString()).toBe('#cloud-config\n');
  });

  it('refuses a HostClaim with a checksum type the CRD does not allow, or without poweredOn', async () => {
    const admin = cluster.client();
    const base = renderHostClaim({
      nodeName: 'bad-0',
      namespace: 'prod-metal',
      pool: 'gpu',
      cluster: 'prod',
      nodeType: 'gpu-node',
      hostSelector: { matchLabels: { class: 'gpu' } },
      image: { url: 'https://images.example.com/os.qcow2', checksum: 'abc' },
      userDataSecret: 'x',
    });
    const badChecksum = { ...base, spec: { ...(base.spec as object), image: { url: 'https://x/os', checksum: 'abc', checksumType: 'crc32' } } };
    const res = await admin.create<Status>(`${METAL3}/prod-metal/hostclaims`, badChecksum);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/checksumType.*Unsupported value: "crc32"/);
    const { poweredOn: _dropped, ...withoutPower } = base.spec as Record<string, unknown>;
    const res2 = await admin.create<Status>(`${METAL3}/prod-metal/hostclaims`, { ...base, spec: withoutPower });
    expect(res2.status).toBe(422);
    expect(res2.body.message).toMatch(/poweredOn: Required value/);
  });
});
