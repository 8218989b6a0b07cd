// The Metal3 objects the constructs render, accepted by a real kube-apiserver serving the upstream CRDs;
// and the API server's own validation is live (a wrong value is refused, not silently kept). A static pool
// on a metal3 provider in a tenant's vcluster.yaml makes the same objects as a privateNodePools entry.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { loadConfigFile } from '../../constructs';
import type { KubeObject } from '../../constructs/render/labels';
import { renderHostClaim, renderHostClaimUserDataSecret, renderHostDeployPolicy } from '../../constructs/render/metal3';
import { REPO_ROOT, startCluster, TestCluster } from './harness';
import { synthConfigObjects } from '../support/stack-objects';
import { CORPUS_DIR } from '../support/vcluster-corpus';
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
    const badChecksum = { ...base, spec: { ...base.spec, image: { url: 'https://x/os', checksum: 'abc', checksumType: 'crc32' } } };
    const res = await admin.create<Status>(`${METAL3}/prod-metal/hostclaims`, badChecksum);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/checksumType.*Unsupported value: "crc32"/);
    const { poweredOn: _dropped, ...withoutPower } = base.spec;
    const res2 = await admin.create<Status>(`${METAL3}/prod-metal/hostclaims`, { ...base, spec: withoutPower });
    expect(res2.status).toBe(422);
    expect(res2.body.message).toMatch(/poweredOn: Required value/);
  });
});

// A tenant's own vcluster.yaml, as vCluster documents bare-metal nodes: a static pool on a metal3 provider.
const VCLUSTER_YAML = fs.readFileSync(path.join(CORPUS_DIR, '086-docs-metal3-static-gpu.yaml'), 'utf8');

const IMAGE = { url: 'https://images.example.com/ubuntu-24.04-server.raw', checksum: 'c'.repeat(64), checksumType: 'sha256' } as const;

function metal3Config(dir: string, pools: string): string {
  const ca = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8');
  const file = path.join(dir, 'metalslice.yaml');
  fs.writeFileSync(
    file,
    stringify({
      clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: ca }],
      nodeProviders: [
        {
          name: 'metal3-provider',
          kind: 'metal3',
          hostNamespace: 'metal3',
          properties: {
            'metal3.vcluster.com/image-url': IMAGE.url,
            'metal3.vcluster.com/image-checksum': IMAGE.checksum,
            'metal3.vcluster.com/image-checksum-type': IMAGE.checksumType,
          },
          hosts: ['dgx-0', 'dgx-1', 'dgx-2'].map((name) => ({
            name,
            labels: { role: 'gpu' },
            state: 'available',
            capacity: { cpu: 112, memory: '2Ti', 'nvidia.com/gpu': 8 },
          })),
          nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { role: 'gpu' } } }],
        },
      ],
    }) + pools,
  );
  return file;
}

/** The Metal3 objects and namespaces a config synthesizes, sorted. */
function metalObjects(configFile: string): KubeObject[] {
  return synthConfigObjects(loadConfigFile(configFile))
    .filter((o) => ['HostClaim', 'HostDeployPolicy', 'Namespace'].includes(o.kind))
    .sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
}

describe("a vcluster.yaml's static metal3 pool on a real API server", () => {
  let cluster: TestCluster;
  let dir: string;

  beforeAll(async () => {
    cluster = await startCluster({ controllerManager: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-metal3-vcluster-'));
  });

  afterAll(async () => {
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives the HostClaims a privateNodePools entry gives for the same nodes, and the API server keeps every field', async () => {
    fs.mkdirSync(path.join(dir, 'vc'));
    fs.mkdirSync(path.join(dir, 'private'));
    fs.writeFileSync(path.join(dir, 'vc', 'prod.vcluster.yaml'), VCLUSTER_YAML);
    const fromVcluster = metalObjects(metal3Config(path.join(dir, 'vc'), stringify({ vclusters: [{ cluster: 'prod', file: 'prod.vcluster.yaml' }] })));
    const fromPrivate = metalObjects(
      metal3Config(
        path.join(dir, 'private'),
        stringify({ privateNodePools: [{ name: 'gpu-nodes', cluster: 'prod', provider: 'metal3-provider', nodeType: 'gpu-node', count: 2, image: IMAGE }] }),
      ),
    );
    expect(fromVcluster.filter((o) => o.kind === 'HostClaim').map((o) => o.metadata.name)).toEqual(['prod-gpu-nodes-0', 'prod-gpu-nodes-1']);
    expect(fromVcluster).toEqual(fromPrivate);

    const admin = cluster.client();
    expect((await admin.create('/api/v1/namespaces', { metadata: { name: 'metal3' } })).status).toBe(201);
    // Namespaces first, as Terraform orders them (the claims depend on their node environment namespace).
    const inOrder = [...fromVcluster.filter((o) => o.kind === 'Namespace'), ...fromVcluster.filter((o) => o.kind !== 'Namespace')];
    for (const object of inOrder) {
      const namespace = object.metadata.namespace;
      const at =
        object.kind === 'Namespace' ? '/api/v1/namespaces' : `${METAL3}/${namespace}/${object.kind === 'HostClaim' ? 'hostclaims' : 'hostdeploypolicies'}`;
      const created = await admin.create<HostClaimDoc>(at, object);
      expect({ kind: object.kind, name: object.metadata.name, status: created.status }).toEqual({ kind: object.kind, name: object.metadata.name, status: 201 });
      // Nothing pruned or defaulted away: what comes back is what was sent.
      if (object.kind !== 'Namespace') expect(created.body.spec).toEqual(object.spec);
    }
  });
});
