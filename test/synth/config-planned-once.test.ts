import { beforeEach, describe, expect, it, jest as jestApi } from '@jest/globals';
import * as path from 'path';
import { TerraformStack, Testing } from 'cdktf';
import { addConfig, addConfigStacks, CapacityPlan, ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../../constructs';
import { offeredConfigPlan } from '../../constructs/plumbing/config-plan';
import { loadConfigFile } from '../../constructs/core/input/config';
import * as planning from '../../constructs/core/plan';
import { stableJson } from '../../constructs/core/report';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { EXAMPLE_CA, hosts, REPO_ROOT } from '../support/models';
import { contributedModel } from '../support/contributed-model';
import { stackObjects } from '../support/stack-objects';
import { corpusCatalogue, corpusFiles, corpusModel } from '../support/vcluster-corpus';

// The global jest: @swc/jest hoists its jest.mock above the imports (not the imported one's).
declare const jest: typeof jestApi;
type Planning = typeof import('../../constructs/core/plan');

// Every planModel call of the constructs goes through this counting wrapper.
jest.mock('../../constructs/core/plan', () => {
  const actual = jest.requireActual<Planning>('../../constructs/core/plan');
  return { ...actual, planModel: jest.fn(actual.planModel) };
});
const planModel = planning.planModel as unknown as ReturnType<typeof jestApi.fn>;

const config = () => loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'));

function setUpStack(stack: TerraformStack): void {
  new KubernetesProvider(stack, 'kubernetes', {});
  new RandomProvider(stack, 'random');
}

function configStack(props: { failureDomain?: string } = {}): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'from-config');
  setUpStack(stack);
  new CapacityPlan(stack, 'plan', { writeReport: false, ...props });
  addConfig(stack, config());
  return stack;
}

function vmNames(stack: TerraformStack): string[] {
  return stackObjects(Testing.synth(stack))
    .map((o) => o.object)
    .filter((o) => o.kind === 'VirtualMachine')
    .map((o) => o.metadata.name)
    .sort();
}

describe('a config is planned once per synth', () => {
  beforeEach(() => {
    planModel.mockClear();
  });

  it('plans a config app once: the CapacityPlan takes the plan addConfig made', () => {
    const stack = configStack();
    expect(vmNames(stack)).toHaveLength(10);
    expect(planModel).toHaveBeenCalledTimes(1);
  });

  it('plans a config laid out in a stack per pool once', () => {
    const app = Testing.app();
    const { base } = addConfigStacks(app, config(), { setUpStack, plan: { writeReport: false } });
    app.synth();
    expect(CapacityPlan.require(base).plan().ok).toBe(true);
    expect(planModel).toHaveBeenCalledTimes(1);
  });

  it('plans a hand-written app once', () => {
    const stack = new TerraformStack(Testing.app(), 'tenant');
    setUpStack(stack);
    new CapacityPlan(stack, 'plan', { writeReport: false });
    const fleet = new ElasticFleet(stack, 'fleet', { hosts: hosts(2, { cpu: 32, memory: '128Gi', disk: '1Ti' }) });
    const quota = new ElasticQuota(stack, 'team', { fleet, organization: 'acme', limits: { cpu: 16, memory: '64Gi', disk: '500Gi' } });
    const cluster = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
    new ElasticNodePool(stack, 'workers', { quota, cluster, shape: { cpu: 4, memory: '16Gi', disk: '40Gi' }, count: 2 });
    expect(vmNames(stack)).toEqual(['workers-0', 'workers-1']);
    expect(planModel).toHaveBeenCalledTimes(1);
  });

  it('plans a config app with constructs beyond the config again, from all its constructs', () => {
    const stack = configStack();
    const quota = stack.node.findChild('team-b') as ElasticQuota;
    const cluster = stack.node.findChild('team-a-prod') as TenantCluster;
    new ElasticNodePool(stack, 'extra', { quota, cluster, shape: { cpu: 2, memory: '4Gi', disk: '20Gi' }, count: 1 });
    const names = vmNames(stack);
    expect(names).toHaveLength(11);
    expect(names).toContain('extra-0');
    expect(
      CapacityPlan.require(stack)
        .plan()
        .pools.map((p) => p.path),
    ).toContain('from-config/extra');
    expect(planModel).toHaveBeenCalledTimes(2);
  });

  it('plans once with the failure domain of the CapacityPlan that covers the config already', () => {
    const stack = configStack({ failureDomain: 'topology.kubernetes.io/zone' });
    expect(CapacityPlan.require(stack).plan().report.fleets[0].headroom?.failureDomain?.label).toBe('topology.kubernetes.io/zone');
    expect(planModel).toHaveBeenCalledTimes(1);
  });

  it("plans once with addConfigStacks' failure domain", () => {
    const app = Testing.app();
    const { base } = addConfigStacks(app, config(), { setUpStack, plan: { writeReport: false, failureDomain: 'topology.kubernetes.io/zone' } });
    expect(CapacityPlan.require(base).plan().report.fleets[0].headroom?.failureDomain?.label).toBe('topology.kubernetes.io/zone');
    expect(planModel).toHaveBeenCalledTimes(1);
  });

  it('plans again when a CapacityPlan with a failure domain comes after addConfig, which planned without one', () => {
    const stack = new TerraformStack(Testing.app(), 'from-config');
    setUpStack(stack);
    addConfig(stack, config());
    new CapacityPlan(stack, 'plan', { writeReport: false, failureDomain: 'topology.kubernetes.io/zone' });
    expect(CapacityPlan.require(stack).plan().report.fleets[0].headroom?.failureDomain?.label).toBe('topology.kubernetes.io/zone');
    expect(planModel).toHaveBeenCalledTimes(2);
  });
});

describe('the plan a config app takes is the plan of its constructs', () => {
  const catalogue = corpusCatalogue();
  const configs = [{ name: 'metalslice.yaml', model: config() }, ...corpusFiles().map((f) => ({ name: f.name, model: corpusModel(f, catalogue) }))].filter(
    (c) => jest.requireActual<Planning>('../../constructs/core/plan').planModel(c.model).ok,
  );

  it.each(configs)('$name: the same report, its warnings at the constructs paths', ({ model }) => {
    const stack = new TerraformStack(Testing.app(), 'tenant');
    addConfig(stack, model);
    const { model: built, paths } = contributedModel(stack);
    const taken = offeredConfigPlan(stack, built, paths, undefined);
    const fresh = planning.planModel(built, { paths });
    if (taken !== undefined) expect(stableJson(taken.report)).toBe(stableJson(fresh.report));
  });

  it('takes the plan of every config that has no vcluster.yaml source, the example among them', () => {
    const taken = configs.filter(({ model }) => {
      const stack = new TerraformStack(Testing.app(), 'tenant');
      addConfig(stack, model);
      const { model: built, paths } = contributedModel(stack);
      return offeredConfigPlan(stack, built, paths, undefined) !== undefined;
    });
    expect(taken.map((c) => c.name)).toContain('metalslice.yaml');
    expect(taken.map((c) => c.name)).toEqual(configs.filter((c) => !(c.model.autoNodes ?? []).some((a) => a.source !== undefined)).map((c) => c.name));
  });
});

describe("a quota's liveMigrations, from a config or a construct", () => {
  it('is contributed by the quota addConfig makes, so the construct plan keeps the room the config asked for', () => {
    const base = config();
    const withNone = { ...base, quotas: base.quotas!.map((q) => ({ ...q, liveMigrations: 0 })) };
    const stack = new TerraformStack(Testing.app(), 'tenant');
    addConfig(stack, withNone);
    const { model, paths } = contributedModel(stack);
    expect(model.quotas!.map((q) => q.liveMigrations)).toEqual([0, 0, 0]);
    const planned = planning.planModel(model, { paths });
    expect(planned.report.quotas.map((q) => q.migrationHeadroom)).toEqual(planning.planModel(withNone).report.quotas.map((q) => q.migrationHeadroom));
    expect(planned.report.quotas[0].migrationHeadroom).toEqual({});
  });

  it('is a prop of ElasticQuota: with none, the plan keeps no room for a migration', () => {
    const headroom = (liveMigrations?: number) => {
      const stack = new TerraformStack(Testing.app(), 'tenant');
      const plan = new CapacityPlan(stack, 'plan', { writeReport: false });
      const fleet = new ElasticFleet(stack, 'fleet', { hosts: hosts(2, { cpu: 32, memory: '128Gi', disk: '1Ti' }) });
      const quota = new ElasticQuota(stack, 'team', { fleet, organization: 'acme', limits: { cpu: 16, memory: '64Gi', disk: '500Gi' }, liveMigrations });
      const cluster = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA });
      new ElasticNodePool(stack, 'workers', { quota, cluster, shape: { cpu: 4, memory: '16Gi', disk: '40Gi' }, count: 2 });
      return plan.plan().report.quotas[0].migrationHeadroom;
    };
    expect(headroom()).not.toEqual({});
    expect(headroom(0)).toEqual({});
  });
});

describe('a planned pool carries its VMs, node by node', () => {
  const plan = planning.planModel(config());

  it('gives each elastic pool its VMs in node order, placed as its nodes are', () => {
    expect(plan.pools.length).toBeGreaterThan(0);
    for (const pool of plan.pools) {
      expect(pool.vms.map((vm) => [vm.name, vm.host, vm.poolPath])).toEqual(pool.nodes.map((n) => [n.name, n.host, pool.path]));
    }
  });

  it('gives a static kubevirt pool its VMs by node, a dynamic one its VMs at the limits, whole hosts none', () => {
    const kinds = plan.autoPools.map((pool) => {
      if (pool.providerKind !== 'kubevirt') return `${pool.providerKind}:${pool.vms === undefined}`;
      if (pool.mode === 'static') expect(pool.vms?.map((vm) => [vm.name, vm.host, vm.concrete])).toEqual(pool.nodes.map((n) => [n.name, n.host, true]));
      else expect(pool.vms?.every((vm) => !vm.concrete && vm.poolPath === pool.path)).toBe(true);
      return `${pool.mode}:${pool.vms?.length}`;
    });
    expect(kinds).toEqual(expect.arrayContaining(['static:2', 'metal3:true']));
    expect(kinds.some((k) => /^dynamic:[1-9]/.test(k))).toBe(true);
  });
});
