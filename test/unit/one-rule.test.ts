/**
 * Validation owned by the core and asked by the constructs (issue 29): a rule that a config and a
 * construct can both break is refused with one message, whichever way it was written. Each case builds
 * the same mistake twice, as a config the plan reads and as constructs, and compares the two messages.
 */
import { describe, expect, it } from '@jest/globals';
import { Testing, TerraformStack } from 'cdktf';
import * as fc from 'fast-check';
import { ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../../constructs';
import { validateConfigShape } from '../../constructs/core/input/config-schema';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { HostSpec, MetalsliceConfig, NodeProviderSpec, TAINT_EFFECTS } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { schemaIssues } from '../../constructs/core/input/vcluster-schema';
import { NodeProvider } from '../../constructs/node-provider';
import { PrivateNodePool } from '../../constructs/private-node-pool';
import { cluster, EXAMPLE_CA, fleet, hosts, model, pool, quota, roomForVms } from '../support/models';

const image = { url: 'https://images.example.com/ubuntu-24.04.raw', checksum: 'b'.repeat(64), checksumType: 'sha256', format: 'raw' } as const;
const metalHost: HostSpec = { name: 'gpu-01', labels: { class: 'gpu' }, state: 'available', capacity: { cpu: 64, memory: '512Gi', disk: '3840Gi' } };
const providers: NodeProviderSpec[] = [
  { name: 'metal', kind: 'metal3', hosts: [metalHost], nodeTypes: [{ name: 'big', hostSelector: { matchLabels: { class: 'gpu' } } }] },
  { name: 'virt', kind: 'kubevirt', fleet: 'f', nodeTypes: [{ name: 'big', resources: { cpu: 4, memory: '16Gi' } }] },
];
const elasticFleet = fleet('f', hosts(2, roomForVms({ cpu: 16, memory: '64Gi', disk: '1Ti' })));

/** The plan's message at `path` (there must be exactly one), and every path it reported. */
function planMessage(config: MetalsliceConfig, path: string): { message: string | undefined; paths: string[] } {
  const plan = planModel(config);
  const at = plan.errors.filter((e) => e.path === path);
  expect(at.length).toBeLessThanOrEqual(1);
  return { message: at[0]?.message, paths: plan.errors.map((e) => e.path) };
}

/** A construct's error without its `[construct/path] ` prefix. */
function constructMessage(make: () => unknown): string {
  try {
    make();
  } catch (e) {
    return (e as Error).message.replace(/^\[[^\]]*\] /, '');
  }
  throw new Error('the construct was built without complaint');
}

/** A private pool of `count` hosts on `provider`, as a config and as constructs. */
function privatePool(provider: 'metal' | 'virt', count: unknown): { config: MetalsliceConfig; construct: () => unknown } {
  const config = model({
    fleets: [elasticFleet],
    nodeProviders: providers,
    privateNodePools: [{ name: 'gpus', cluster: 'prod', provider, nodeType: 'big', count: count as number, image }],
  });
  const construct = () => {
    const stack = new TerraformStack(Testing.app(), 's');
    const spec = providers.find((p) => p.name === provider)!;
    const fleetConstruct = ElasticFleet.fromInventory(stack, 'f', { hosts: [] });
    const nodeProvider = new NodeProvider(stack, provider, { ...spec, fleet: spec.kind === 'kubevirt' ? fleetConstruct : undefined });
    const tenant = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    return new PrivateNodePool(stack, 'gpus', { cluster: tenant, provider: nodeProvider, nodeType: 'big', count: count as number, image });
  };
  return { config, construct };
}

/** Counts that are not a pool size: fractions, negatives, past the bound, not numbers at all. */
const badCount = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  fc.integer({ max: -1 }),
  fc.integer({ min: 5001, max: 1_000_000 }),
  // (null reads as a missing prop to a construct: requireProps words that one.)
  fc.constantFrom<unknown>('3', true, Number.NaN),
);

describe('one rule, one message: the plan and the constructs ask the core', () => {
  it('a private pool on a provider that is not metal3: the same refusal, at the pool provider', () => {
    const { config, construct } = privatePool('virt', 1);
    const planned = planMessage(config, 'privateNodePools[0].provider');
    expect(planned.message).toBe('provider "virt" is of kind kubevirt; private node pools claim whole bare-metal hosts: use a metal3 provider');
    expect(constructMessage(construct)).toBe(planned.message);
  });

  it('a private pool count that is not a number of hosts: the same refusal, at count and nowhere else', () => {
    fc.assert(
      fc.property(badCount, (count) => {
        const { config, construct } = privatePool('metal', count);
        const planned = planMessage(config, 'privateNodePools[0].count');
        expect(planned.message).toMatch(/^count must be a whole number of hosts from 0 to 5,000 \(got /);
        // The static pool the private pool is planned as does not report the count again under its own field.
        expect(planned.paths.filter((p) => p.startsWith('privateNodePools[0].') && p !== 'privateNodePools[0].count')).toEqual([]);
        expect(constructMessage(construct)).toBe(planned.message);
      }),
      { numRuns: 40 },
    );
  });

  it('an elastic pool count that is not a number of nodes: the same refusal from the plan and from ElasticNodePool', () => {
    fc.assert(
      fc.property(badCount, (count) => {
        const config = model({
          fleets: [elasticFleet],
          quotas: [quota('q', 'f', { cpu: 8, memory: '32Gi', disk: '200Gi' })],
          nodePools: [pool('workers', 'q', { cpu: 2, memory: '4Gi', disk: '20Gi' }, count as number)],
        });
        const planned = planMessage(config, 'nodePools[0].count');
        expect(planned.message).toMatch(/^must be a whole number of nodes from 0 to 5,000 \(got /);
        const built = constructMessage(() => {
          const stack = new TerraformStack(Testing.app(), 's');
          const f = ElasticFleet.fromInventory(stack, 'f', { hosts: [] });
          const q = ElasticQuota.fromQuotaAttributes(stack, 'q', { fleet: f, organization: 'o', limits: {} });
          const c = new TenantCluster(stack, 'prod', { endpoint: cluster().endpoint, caCertificate: EXAMPLE_CA });
          return new ElasticNodePool(stack, 'workers', { quota: q, cluster: c, shape: { cpu: 2, memory: '4Gi', disk: '20Gi' }, count: count as number });
        });
        expect(built).toBe(`count ${planned.message}`);
      }),
      { numRuns: 40 },
    );
  });

  it('taint effects: the config schema and the plan accept exactly the same effects', () => {
    const withTaint = (effect: string): MetalsliceConfig =>
      model({
        fleets: [elasticFleet],
        quotas: [quota('q', 'f', { cpu: 8, memory: '32Gi', disk: '200Gi' })],
        nodePools: [pool('workers', 'q', { cpu: 2, memory: '4Gi', disk: '20Gi' }, 1, { taints: [{ key: 'dedicated', effect: effect as 'NoSchedule' }] })],
      });
    const schemaRefuses = (config: MetalsliceConfig): boolean => {
      try {
        validateConfigShape(JSON.parse(JSON.stringify(config)));
        return false;
      } catch (e) {
        if (!(e instanceof MetalsliceError)) throw e;
        return e.issues.some((i) => i.path === 'nodePools[0].taints[0].effect');
      }
    };
    const planRefuses = (config: MetalsliceConfig): boolean => planModel(config).errors.some((e) => e.path === 'nodePools[0].taints[0].effect');
    for (const effect of TAINT_EFFECTS)
      expect({ effect, schema: schemaRefuses(withTaint(effect)), plan: planRefuses(withTaint(effect)) }).toEqual({ effect, schema: false, plan: false });
    fc.assert(
      fc.property(
        fc
          .oneof(fc.string(), fc.constantFrom('noschedule', 'NoSchedule ', 'NoExecution', 'Prefer'))
          .filter((s) => !(TAINT_EFFECTS as readonly string[]).includes(s)),
        (effect) => {
          const config = withTaint(effect);
          expect({ effect, schema: schemaRefuses(config), plan: planRefuses(config) }).toEqual({ effect, schema: true, plan: true });
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a wrong type reads the same in a metalslice config and in a vcluster.yaml', () => {
    const configIssue = (() => {
      try {
        validateConfigShape({ nodePools: [{ name: 'w', quota: 'q', cluster: 'c', shape: {}, count: 'three' }] });
      } catch (e) {
        return (e as MetalsliceError).issues.find((i) => i.path === 'nodePools[0].count');
      }
      return undefined;
    })();
    const vclusterIssue = schemaIssues({ integrations: { metricsServer: { apiService: { service: { port: 'three' } } } } }, '').find((i) =>
      i.path.endsWith('service.port'),
    );
    expect(configIssue?.message).toBe('must be a whole number (got "three")');
    expect(vclusterIssue?.message).toBe(configIssue?.message);
  });
});
