// Isolation, as the tenants' own credentials see it on the real API server: after the example app is applied,
// each organisation's users (client certificates, as the quota's consumers name them) reach their own quota
// namespace and nothing of another tenant's: not its VMs, not its cloud-init Secrets (which hold the join
// token), not the node environments where HostClaims live. A config whose cluster and provider names would
// make two tenants share a namespace is refused before anything is applied.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exampleStackEnv, expectOk, REPO_ROOT, startCluster, synthExampleApp, TestCluster, tofu } from './harness';
import type { KubeDoc, KubeList } from '../support/kube-docs';
import { parsePlanJson } from '../support/plan-json';

jest.setTimeout(1_200_000);

const STACKS = ['provider', 'consumer'] as const;
const VMS = '/apis/kubevirt.io/v1';

const vm = (ns: string, name: string) => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachine',
  metadata: { name, namespace: ns },
  spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {}, resources: { requests: { memory: '1Gi' } } } } } },
});
const hostClaim = (ns: string) => ({ apiVersion: 'metal3.io/v1alpha1', kind: 'HostClaim', metadata: { name: 'grab', namespace: ns }, spec: { online: true } });

describe('e2e: tenants are isolated, as their own credentials see it', () => {
  let cluster: TestCluster;
  let work: string;
  const stackDir = (stack: string) => path.join(work, 'cdktf.out', 'stacks', stack);

  beforeAll(async () => {
    cluster = await startCluster({ kubevirt: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-isolation-'));
    const env = exampleStackEnv(cluster, { CDKTF_OUTDIR: path.join(work, 'cdktf.out') });
    await synthExampleApp(work, env);
    for (const stack of STACKS) {
      expectOk(`init ${stack}`, await tofu(stackDir(stack), ['init', '-input=false', '-no-color']));
      if (stack === 'consumer') for (const ns of ['acme-team-a', 'acme-team-b', 'globex-research']) await cluster.waitForQuotaStatus(ns, 'metalslice', 90_000);
      expectOk(`apply ${stack}`, await tofu(stackDir(stack), ['apply', '-auto-approve', '-input=false', '-no-color']));
    }
  });

  afterAll(async () => {
    for (const stack of [...STACKS].reverse())
      if (work && fs.existsSync(path.join(stackDir(stack), 'terraform.tfstate')))
        await tofu(stackDir(stack), ['destroy', '-auto-approve', '-input=false', '-no-color']);
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("another organisation's user reaches its own quota namespace and nothing of acme's", async () => {
    // research's consumers default to the group named after its organisation, globex.
    const globex = cluster.client(cluster.tenantKubeconfig('globex-dev', ['globex']));
    // Its identity works: it may make a VM where its quota is...
    expect((await globex.create(`${VMS}/namespaces/globex-research/virtualmachines`, vm('globex-research', 'own'))).status).toBe(201);
    expect((await globex.delete(`${VMS}/namespaces/globex-research/virtualmachines/own`)).status).toBe(200);
    // ...and nowhere else: not acme's VMs, not acme's cloud-init Secrets (each holds a join token).
    const userData = (await cluster.client().get<KubeList<KubeDoc>>('/api/v1/namespaces/acme-team-a/secrets')).body.items
      .map((s) => s.metadata.name)
      .filter((n) => n.endsWith('-cloudinit'));
    expect(userData.length).toBeGreaterThan(0);
    const denied: [string, Promise<{ status: number }>][] = [
      ['list acme VMs', globex.get(`${VMS}/namespaces/acme-team-a/virtualmachines`)],
      ['create a VM in acme-team-a', globex.create(`${VMS}/namespaces/acme-team-a/virtualmachines`, vm('acme-team-a', 'sneaky'))],
      ['list acme Secrets', globex.get('/api/v1/namespaces/acme-team-a/secrets')],
      ...userData.map((name): [string, Promise<{ status: number }>] => [`read ${name}`, globex.get(`/api/v1/namespaces/acme-team-a/secrets/${name}`)]),
      ['list the node environment', globex.get('/api/v1/namespaces/team-a-prod-virt/secrets')],
      [
        'create a HostClaim in the node environment',
        globex.create('/apis/metal3.io/v1alpha1/namespaces/team-a-prod-virt/hostclaims', hostClaim('team-a-prod-virt')),
      ],
      [
        'create a HostClaim in its own quota namespace',
        globex.create('/apis/metal3.io/v1alpha1/namespaces/globex-research/hostclaims', hostClaim('globex-research')),
      ],
      ['read the bootstrap tokens', globex.get('/api/v1/namespaces/kube-system/secrets')],
    ];
    for (const [what, request] of denied) expect({ what, status: (await request).status }).toEqual({ what, status: 403 });
  });

  it("acme's consumer cannot reach globex's namespace or another acme quota it is not a consumer of", async () => {
    const acme = cluster.client(cluster.tenantKubeconfig('tenant-acme', ['metalslice:tenants']));
    expect((await acme.get(`${VMS}/namespaces/acme-team-a/virtualmachines`)).status).toBe(200);
    for (const ns of ['globex-research', 'acme-team-b']) {
      expect({ ns, status: (await acme.get(`/api/v1/namespaces/${ns}/secrets`)).status }).toEqual({ ns, status: 403 });
      expect({ ns, status: (await acme.create(`${VMS}/namespaces/${ns}/virtualmachines`, vm(ns, 'sneaky'))).status }).toEqual({ ns, status: 403 });
      expect({ ns, status: (await acme.create(`/apis/metal3.io/v1alpha1/namespaces/${ns}/hostclaims`, hostClaim(ns))).status }).toEqual({ ns, status: 403 });
    }
  });

  it('the default-deny NetworkPolicy was accepted by the API server in the node environment', async () => {
    // The example app's one node environment (its VMs' launcher pods run in the quota namespace; the
    // environment holds what the tenant must not reach).
    for (const ns of ['team-a-prod-virt']) {
      expect((await cluster.client().get(`/api/v1/namespaces/${ns}`)).status).toBe(200);
      const policies = (
        await cluster
          .client()
          .get<KubeList<{ spec: { podSelector: object; policyTypes: string[]; ingress?: unknown; egress?: unknown } }>>(
            `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`,
          )
      ).body.items;
      expect({
        ns,
        policies: policies.map((p) => ({
          podSelector: p.spec.podSelector,
          policyTypes: [...p.spec.policyTypes].sort(),
          ingress: p.spec.ingress ?? [],
          egress: p.spec.egress ?? [],
        })),
      }).toEqual({
        ns,
        policies: [{ podSelector: {}, policyTypes: ['Egress', 'Ingress'], ingress: [], egress: [] }],
      });
    }
  });

  it('a config whose names would make two tenants share a namespace is refused before anything is applied, naming both', () => {
    const dir = fs.mkdtempSync(path.join(work, 'collide-'));
    const example = fs
      .readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8')
      .replace('hostsFile: inventory/fra1.json', `hostsFile: ${path.join(REPO_ROOT, 'examples', 'inventory', 'fra1.json')}`);
    const ca = fs
      .readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n');
    const extra = `  - name: team\n    endpoint: https://10.0.0.20:6443\n    caCertificate: |\n${ca}\n`;
    const config = example
      .replace(/^clusters:\n/m, `clusters:\n${extra}`)
      .replace(
        /^nodeProviders:\n/m,
        'nodeProviders:\n  - {name: a-prod-virt, kind: kubevirt, fleet: fra1, nodeTypes: [{name: tiny, resources: {cpu: 1, memory: 2Gi}}]}\n',
      )
      .replace(
        /^autoNodes:\n/m,
        'autoNodes:\n  - {cluster: team, provider: a-prod-virt, quota: team-b, dynamic: [{name: other-burst, limits: {nodes: "1"}}]}\n',
      );
    fs.writeFileSync(path.join(dir, 'c.yaml'), config);
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'metalslice'), 'plan', path.join(dir, 'c.yaml'), '--json'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    const { errors } = parsePlanJson(run.stdout);
    // Cluster team-a-prod with provider virt, and cluster team with provider a-prod-virt: both "team-a-prod-virt".
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toMatch(/^namespace "team-a-prod-virt" would belong to both /);
    expect(errors[0].message).toContain('the node environment of cluster "team-a-prod" and provider "virt"');
    expect(errors[0].message).toContain('the node environment of cluster "team" and provider "a-prod-virt"');
  });
});
