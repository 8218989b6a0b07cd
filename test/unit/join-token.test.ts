import { describe, expect, it } from '@jest/globals';
import { Testing, TerraformStack } from 'cdktf';
import { ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../../constructs';
import { bootstrapTokenTtlProblem, bootstrapTokenTtlSeconds, DEFAULT_BOOTSTRAP_TOKEN_TTL } from '../../constructs/core/input/join-token';
import { EXAMPLE_CA } from '../support/models';

describe('bootstrap token lifetime', () => {
  it('defaults to a day', () => {
    expect(bootstrapTokenTtlSeconds(DEFAULT_BOOTSTRAP_TOKEN_TTL)).toBe(24 * 3600);
  });

  it('reads hours, minutes and seconds as Terraform timeadd() and the join module do', () => {
    expect(bootstrapTokenTtlSeconds('90m')).toBe(5400);
    expect(bootstrapTokenTtlSeconds('1h30m')).toBe(5400);
    expect(bootstrapTokenTtlSeconds('45s')).toBe(45);
    expect(bootstrapTokenTtlSeconds('1h0m30s')).toBe(3630);
  });

  it('refuses what is not a duration, and a lifetime of zero, saying how to write one', () => {
    for (const bad of ['', '24', '1d', '1.5h', '-1h', '24 h', 'PT24H']) {
      expect({ bad, problem: bootstrapTokenTtlProblem(bad) }).toEqual({
        bad,
        problem: expect.stringMatching(/is not a duration: write whole hours, minutes and seconds, like 24h, 90m or 1h30m/),
      });
    }
    expect(bootstrapTokenTtlProblem('0h0m')).toMatch(/would expire the token as it is made/);
    expect(bootstrapTokenTtlProblem('24h')).toBeUndefined();
  });

  it('an ElasticNodePool with a bad bootstrapTokenTtl fails in its constructor with its path', () => {
    const stack = new TerraformStack(Testing.app(), 'tenant');
    const fleet = ElasticFleet.fromInventory(stack, 'f', { hosts: [] });
    const quota = ElasticQuota.fromQuotaAttributes(stack, 'q', { fleet, organization: 'o', limits: {} });
    const cluster = new TenantCluster(stack, 'c', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    expect(() => new ElasticNodePool(stack, 'workers', { quota, cluster, shape: {}, count: 1, bootstrapTokenTtl: '1d' })).toThrow(
      /\[tenant\/workers\] bootstrapTokenTtl "1d" is not a duration: write whole hours, minutes and seconds, like 24h, 90m or 1h30m/,
    );
  });
});
