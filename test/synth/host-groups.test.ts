// Host groups as Node labels: a pool confined to some of its fleet's hosts selects its group's label, and the
// fleet writes that label on exactly those hosts' Nodes; regrouping changes labels only, never a VM.
import { describe, expect, it } from '@jest/globals';
import { TerraformStack, Testing } from 'cdktf';
import { addConfig, CapacityPlan, ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../../constructs';
import { planModel } from '../../constructs/core/plan';
import { hostGroupLabel } from '../../constructs/core/naming/derived';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { hostGroupFieldManager } from '../../constructs/parts/host-group-labels';
import { diffPlans } from '../../constructs/core/plan/change/diff';
import { summarizeChanges } from '../../constructs/core/report/changes';
import { buildReplay, buildSnapshotReplay } from '../../constructs/verify/replay';
import { SNAPSHOT_API_VERSION, SNAPSHOT_KIND } from '../../constructs/core/hosts/snapshot';
import { KubernetesProvider } from '../../constructs/providers/kubernetes/provider';
import { RandomProvider } from '../../constructs/providers/random/provider';
import { EXAMPLE_CA, fleet, hosts, model, pool, quota, roomForVms } from '../support/models';
import { inlineForEach, stackObjects } from '../support/stack-objects';

const host16 = roomForVms({ cpu: 16, memory: '64Gi', disk: '1Ti' });

/**
 * 7 VMs of 7 vCPUs and 6 of 1 on `hostCount` hosts of 15 CPUs: fleet-wide, kube-scheduler could put 3 big VMs
 * on one host, so the plan confines big (and, with a seventh host, tiny) to groups.
 */
function groupedModel(hostCount: number, big: number): MetalsliceConfig {
  return model({
    fleets: [fleet('f', hosts(hostCount, host16), { reservedPerHost: { cpu: 1, memory: '2Gi' } })],
    quotas: [quota('q', 'f', { cpu: 14 * hostCount, memory: '300Gi', disk: '6Ti' }, { liveMigrations: 0 })],
    nodePools: [pool('big', 'q', { cpu: 7, memory: '8Gi', disk: '20Gi' }, big), pool('tiny', 'q', { cpu: 1, memory: '2Gi', disk: '20Gi' }, 6)],
  });
}

interface LabelsResource {
  readonly for_each: Record<string, Record<string, string>>;
  readonly field_manager: string;
  readonly kind: string;
  readonly api_version: string;
  readonly labels: string;
  readonly metadata: { readonly name: string };
  readonly force: boolean;
}

function synth(config: MetalsliceConfig): { labels: LabelsResource[]; vms: Map<string, string>; objects: ReturnType<typeof stackObjects> } {
  const stack = new TerraformStack(Testing.app(), 'tenant');
  new KubernetesProvider(stack, 'kubernetes', { configPath: '/etc/metalslice/provider.kubeconfig' });
  new RandomProvider(stack, 'random');
  new CapacityPlan(stack, 'plan', { writeReport: false });
  addConfig(stack, config);
  const json = inlineForEach(JSON.parse(Testing.synth(stack)) as { resource: Record<string, Record<string, unknown>> });
  const objects = stackObjects(json);
  const vms = new Map(objects.filter((o) => o.object.kind === 'VirtualMachine').map((o) => [o.object.metadata.name, JSON.stringify(o.object)]));
  return { labels: Object.values(json.resource.kubernetes_labels ?? {}) as LabelsResource[], vms, objects };
}

type VmSpec = { template: { spec: { nodeSelector?: Record<string, string>; affinity?: unknown } } };
const specOf = (objects: ReturnType<typeof stackObjects>, name: string) =>
  (objects.find((o) => o.object.kind === 'VirtualMachine' && o.object.metadata.name === name)!.object as unknown as { spec: VmSpec }).spec.template.spec;

describe('host groups as Node labels', () => {
  it("labels exactly the group's hosts, and the grouped VMs select the label instead of listing hosts", () => {
    const config = groupedModel(6, 7);
    const plan = planModel(config);
    const group = plan.vms.find((vm) => vm.pool === 'big')!.hostGroup!;
    expect(group.hosts).toHaveLength(5);
    expect(group.label).toBe('group.metalslice.io/prod.big');
    const { labels, objects } = synth(config);
    expect(labels).toHaveLength(1);
    const [resource] = labels;
    expect(resource).toMatchObject({ api_version: 'v1', kind: 'Node', metadata: { name: '${each.key}' }, labels: '${each.value}', force: true });
    expect(resource.field_manager).toBe(hostGroupFieldManager('tenant', 'f'));
    // One instance per host of the group, each with the group's label; the sixth host (tiny's, pinned) has none.
    expect(resource.for_each).toEqual(Object.fromEntries(group.hosts!.map((h) => [h, { [group.label!]: 'true' }])));
    for (let i = 0; i < 7; i++) {
      const spec = specOf(objects, `big-${i}`);
      expect(spec.nodeSelector).toEqual({ [group.label!]: 'true' });
      expect(spec.affinity).toBeUndefined();
      expect(JSON.stringify(spec)).not.toContain('bm-0');
    }
    // A pinned VM keeps its host affinity and selects no group.
    const tiny = specOf(objects, 'tiny-0');
    expect(JSON.stringify(tiny.affinity)).toContain('kubernetes.io/hostname');
    expect(tiny.nodeSelector).toBeUndefined();
  });

  it('a regroup changes host labels, and no VM that stays', () => {
    // A seventh host and an eighth big VM: big keeps bm-01..05 and tiny spreads over bm-06 and bm-07; an eighth
    // host and a ninth big VM: bm-06 moves from tiny's group to big's and bm-08 joins tiny's.
    const before = synth(groupedModel(7, 8));
    const after = synth(groupedModel(8, 9));
    const big = hostGroupLabel('prod', 'big');
    const tiny = hostGroupLabel('prod', 'tiny');
    const on = (hostNames: string[], label: string) => Object.fromEntries(hostNames.map((h) => [h, label]));
    const flat = (r: LabelsResource) => Object.fromEntries(Object.entries(r.for_each).map(([h, l]) => [h, Object.keys(l).join(',')]));
    expect(flat(before.labels[0])).toEqual({ ...on(['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-05'], big), ...on(['bm-06', 'bm-07'], tiny) });
    expect(flat(after.labels[0])).toEqual({ ...on(['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-05', 'bm-06'], big), ...on(['bm-07', 'bm-08'], tiny) });
    // Every VM of the first plan is byte-identical in the second: the regroup moved labels, not VMs.
    expect([...after.vms.keys()].filter((name) => !before.vms.has(name))).toEqual(['big-8']);
    for (const [name, body] of before.vms) expect(after.vms.get(name)).toBe(body);
  });

  it('a pool spread over the whole fleet selects no group and no Node is labelled', () => {
    const { labels, objects } = synth(groupedModel(8, 8));
    expect(labels[0].for_each).toEqual({});
    expect(specOf(objects, 'big-0').nodeSelector).toBeUndefined();
  });

  it('a long cluster and pool name give a label key the API server takes: name part at most 63 characters, stable', () => {
    const key = hostGroupLabel('c'.repeat(63), `${'p'.repeat(60)}-x`);
    const name = key.slice(key.indexOf('/') + 1);
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/);
    expect(hostGroupLabel('c'.repeat(63), `${'p'.repeat(60)}-x`)).toBe(key);
    expect(hostGroupLabel('c'.repeat(63), `${'p'.repeat(60)}-y`)).not.toBe(key);
    expect(hostGroupFieldManager('s'.repeat(200), 'f').length).toBeLessThanOrEqual(128);
  });

  it('plan --previous names the hosts that change group, and counts no node as moved or replaced by it', () => {
    const changes = diffPlans(planModel(groupedModel(7, 8)).report, planModel(groupedModel(8, 9)).report);
    expect(changes.regrouped).toEqual([
      { pool: 'big', cluster: 'prod', label: hostGroupLabel('prod', 'big'), joined: ['bm-06'], left: [] },
      { pool: 'tiny', cluster: 'prod', label: hostGroupLabel('prod', 'tiny'), joined: ['bm-08'], left: ['bm-06'] },
    ]);
    expect(changes.replaced).toEqual([]);
    expect(changes.added).toEqual(['big/big-8']);
    const text = summarizeChanges(changes);
    expect(text).toContain(
      `pool tiny: host group (label ${hostGroupLabel('prod', 'tiny')}) bm-08 joins, bm-06 leaves: Node labels only, no VM is moved (one already on a host that leaves stays there until it restarts)`,
    );
    // A pool that goes from the whole fleet to a group gains the selector; the reverse drops it.
    const confined = diffPlans(planModel(groupedModel(8, 8)).report, planModel(groupedModel(8, 9)).report).regrouped;
    expect(confined?.find((g) => g.pool === 'big')).toMatchObject({
      selector: 'confined',
      left: [],
      joined: ['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-05', 'bm-06'],
    });
    const released = diffPlans(planModel(groupedModel(8, 9)).report, planModel(groupedModel(8, 8)).report).regrouped;
    expect(released?.find((g) => g.pool === 'big')).toMatchObject({ selector: 'released', joined: [] });
    // The same plan twice: nothing regrouped.
    expect(diffPlans(planModel(groupedModel(7, 8)).report, planModel(groupedModel(7, 8)).report).regrouped).toEqual([]);
  });

  it("verify's replay labels its Nodes as the deploy does: the plan's groups set, stale keys of its pools gone, others kept", () => {
    const plan = planModel(groupedModel(7, 8));
    const big = hostGroupLabel('prod', 'big');
    const tiny = hostGroupLabel('prod', 'tiny');
    const labelsOf = (nodes: readonly { metadata: { name: string; labels: Record<string, string> } }[]) =>
      Object.fromEntries(nodes.map((n) => [n.metadata.name, Object.keys(n.metadata.labels).filter((k) => k.startsWith('group.metalslice.io/'))]));
    expect(labelsOf(buildReplay(plan).nodes)).toEqual({
      ...Object.fromEntries(['bm-01', 'bm-02', 'bm-03', 'bm-04', 'bm-05'].map((h) => [h, [big]])),
      'bm-06': [tiny],
      'bm-07': [tiny],
    });
    // A live cluster labelled by an older plan (bm-07 in big's group) and another stack (its own pool's key).
    const other = hostGroupLabel('prod', 'elsewhere');
    const node = (name: string, labels: Record<string, string>) => ({
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
      status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } },
    });
    const snapshot = {
      apiVersion: SNAPSHOT_API_VERSION,
      kind: SNAPSHOT_KIND,
      nodes: plan.fleets[0].hosts.map((h) => node(h.name, h.name === 'bm-07' ? { [big]: 'true', [other]: 'true' } : {})),
      pods: [],
    } as const;
    const live = labelsOf(buildSnapshotReplay(plan, snapshot).nodes);
    expect(live['bm-07']).toEqual([other, tiny]);
    expect(live['bm-01']).toEqual([big]);
  });

  it('a fleet imported into a consumer stack writes no Node label: its grouped pool keeps the host list', () => {
    // The same two pools as the first case, declared as constructs on a fleet the provider team manages.
    const stack = new TerraformStack(Testing.app(), 'consumer');
    new KubernetesProvider(stack, 'kubernetes', { configPath: '/etc/metalslice/provider.kubeconfig' });
    new RandomProvider(stack, 'random');
    new CapacityPlan(stack, 'plan', { writeReport: false });
    const f = ElasticFleet.fromInventory(stack, 'f', { hosts: hosts(6, host16), reservedPerHost: { cpu: 1, memory: '2Gi' } });
    const q = new ElasticQuota(stack, 'q', { fleet: f, organization: 'acme', limits: { cpu: 84, memory: '300Gi', disk: '6Ti' }, liveMigrations: 0 });
    const cluster = new TenantCluster(stack, 'prod', { endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA, kubeconfigPath: '/etc/t.kubeconfig' });
    new ElasticNodePool(stack, 'big', { quota: q, cluster, shape: { cpu: 7, memory: '8Gi', disk: '20Gi' }, count: 7 });
    new ElasticNodePool(stack, 'tiny', { quota: q, cluster, shape: { cpu: 1, memory: '2Gi', disk: '20Gi' }, count: 6 });
    const json = JSON.parse(Testing.synth(stack)) as { resource: Record<string, unknown> };
    expect(json.resource.kubernetes_labels).toBeUndefined();
    const group = CapacityPlan.require(stack)
      .plannedVms()
      .find((vm) => vm.pool === 'big')!.hostGroup!;
    expect(group.hosts).toHaveLength(5);
    const spec = specOf(stackObjects(json), 'big-0');
    expect(spec.nodeSelector).toBeUndefined();
    expect(spec.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: group.hosts }] }],
        },
      },
    });
  });
});
