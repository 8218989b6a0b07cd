/**
 * Construct users get errors in their own terms: the construct path and the prop, every missing prop at
 * once, where the construct is made; never a TypeError from deep inside synth.
 */
import { describe, expect, it } from '@jest/globals';
import { TerraformStack, Testing } from 'cdktf';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import {
  CapacityPlan,
  ElasticFleet,
  ElasticFleetProps,
  ElasticNodePool,
  ElasticNodePoolProps,
  ElasticQuota,
  ElasticQuotaProps,
  MetalsliceError,
  NodeProvider,
  NodeProviderProps,
  TenantCluster,
  TenantClusterProps,
} from '../../constructs';
import { EXAMPLE_CA } from '../support/models';

function stack(): TerraformStack {
  const s = new TerraformStack(Testing.app(), 'app');
  new KubernetesProvider(s, 'k8s', {});
  new RandomProvider(s, 'random');
  new CapacityPlan(s, 'plan', { writeReport: false });
  return s;
}

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof MetalsliceError) return e.issues;
    throw e;
  }
  return [];
}

const fleet = (s: TerraformStack) => new ElasticFleet(s, 'fra1', { hosts: [{ name: 'h', capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } }] });

describe('construct props', () => {
  it('names every missing required prop by construct path, at once', () => {
    const s = stack();
    expect(issuesOf(() => new ElasticQuota(s, 'team-a', { organization: 'acme' } as unknown as ElasticQuotaProps))).toEqual([
      { path: 'app/team-a.fleet', message: 'fleet is required: the ElasticFleet this quota slices' },
      { path: 'app/team-a.limits', message: expect.stringContaining('limits is required') },
    ]);
    expect(issuesOf(() => new ElasticNodePool(s, 'workers', { count: 1 } as unknown as ElasticNodePoolProps)).map((i) => i.path)).toEqual([
      'app/workers.quota',
      'app/workers.cluster',
      'app/workers.shape',
    ]);
    expect(issuesOf(() => new TenantCluster(s, 'prod', {} as unknown as TenantClusterProps)).map((i) => i.path)).toEqual([
      'app/prod.endpoint',
      'app/prod.caCertificate',
    ]);
    expect(issuesOf(() => new NodeProvider(s, 'virt', { kind: 'kubevirt' } as unknown as NodeProviderProps)).map((i) => i.path)).toEqual([
      'app/virt.nodeTypes',
    ]);
    expect(issuesOf(() => new ElasticFleet(s, 'f2', undefined as unknown as ElasticFleetProps)).map((i) => i.path)).toEqual(['app/f2.hosts']);
  });

  it('reports a bad prop value at the construct path and prop, once', () => {
    const s = stack();
    const f = fleet(s);
    new ElasticQuota(s, 'team-a', { fleet: f, organization: 'acme', limits: { cpu: -1, memory: '10GB' } });
    let message = '';
    try {
      Testing.synth(s);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('app/team-a.limits.cpu: cpu must not be negative (got -1)');
    expect(message).toContain('app/team-a.limits.memory: "10GB" is not a Kubernetes quantity');
    expect(message).not.toMatch(/quotas\[0\]|Cannot read properties|Cannot convert undefined/);
    expect(message.match(/app\/team-a\.limits\.cpu/g)).toHaveLength(1);
  });

  it('builds a valid app without complaint', () => {
    const s = stack();
    const f = fleet(s);
    const q = new ElasticQuota(s, 'team-a', { fleet: f, organization: 'acme', limits: { cpu: 16, memory: '64Gi', disk: '200Gi' } });
    const c = new TenantCluster(s, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    new ElasticNodePool(s, 'workers', { quota: q, cluster: c, count: 1, shape: { cpu: 2, memory: '4Gi', disk: '20Gi' } });
    expect(() => Testing.synth(s)).not.toThrow();
  });
});
