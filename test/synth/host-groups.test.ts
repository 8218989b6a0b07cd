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
    // Nine hosts, ten big VMs: big's group is six hosts (two VMs each), tiny's the three others. An eleventh big
    // VM needs a seventh host, and the fleet has none spare: big takes bm-09 from tiny (the hosts each pool tries
    // first come from its own order of the fleet's hosts, groups.ts).
    const before = synth(groupedModel(9, 10));
    const after = synth(groupedModel(9, 11));
    const big = hostGroupLabel('prod', 'big');
    const tiny = hostGroupLabel('prod', 'tiny');
    const on = (hostNames: string[], label: string) => Object.fromEntries(hostNames.map((h) => [h, label]));
    const flat = (r: LabelsResource) => Object.fromEntries(Object.entries(r.for_each).map(([h, l]) => [h, Object.keys(l).join(',')]));
    const bigHosts = ['bm-02', 'bm-04', 'bm-05', 'bm-06', 'bm-07', 'bm-08'];
    expect(flat(before.labels[0])).toEqual({ ...on(bigHosts, big), ...on(['bm-01', 'bm-03', 'bm-09'], tiny) });
    expect(flat(after.labels[0])).toEqual({ ...on([...bigHosts, 'bm-09'], big), ...on(['bm-01', 'bm-03'], tiny) });
    // Every VM of the first plan is byte-identical in the second: the regroup moved labels, not VMs.
    expect([...after.vms.keys()].filter((name) => !before.vms.has(name))).toEqual(['big-10']);
    for (const [name, body] of before.vms) expect(after.vms.get(name)).toBe(body);
  });

  it("a pool scaled by one labels one more host with its own group and leaves every other host's labels", () => {
    // Eleven pools of 1-CPU VMs on hosts offering 8: spread fleet-wide, nine could meet on one host, so each pool
    // gets a group of its own. Growing pool p0 by one must add its label to one host and change nothing else
    // (with hosts packed fullest first, p0's extra host shifted three other pools' groups).
    const counts = [2, 2, 2, 3, 2, 3, 3, 2, 2, 2, 2];
    const grown = (extra: number) =>
      model({
        fleets: [fleet('f', hosts(20, roomForVms({ cpu: 8, memory: '64Gi', disk: '1Ti' })))],
        quotas: [quota('q', 'f', { cpu: 140, memory: '200Gi', disk: '1Ti' })],
        nodePools: counts.map((n, i) => pool(`p${i}`, 'q', { cpu: 1, memory: '1Gi' }, n + (i === 0 ? extra : 0), { rootDisk: 'containerDisk' })),
      });
    const before = synth(grown(0)).labels[0].for_each;
    const after = synth(grown(1)).labels[0].for_each;
    expect(Object.keys(before).length).toBeGreaterThan(4);
    const changed = Object.keys({ ...before, ...after }).filter((h) => JSON.stringify(before[h]) !== JSON.stringify(after[h]));
    expect(changed).toHaveLength(1);
    const [host] = changed;
    expect(after[host]).toEqual({ ...before[host], [hostGroupLabel('prod', 'p0')]: 'true' });
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
    const changes = diffPlans(planModel(groupedModel(9, 10)).report, planModel(groupedModel(9, 11)).report);
    expect(changes.regrouped).toEqual([
      { pool: 'big', cluster: 'prod', label: hostGroupLabel('prod', 'big'), joined: ['bm-09'], left: [] },
      { pool: 'tiny', cluster: 'prod', label: hostGroupLabel('prod', 'tiny'), joined: [], left: ['bm-09'] },
    ]);
    expect(changes.replaced).toEqual([]);
    expect(changes.added).toEqual(['big/big-10']);
    const text = summarizeChanges(changes);
    expect(text).toContain(
      `pool tiny: host group (label ${hostGroupLabel('prod', 'tiny')}) bm-09 leaves: Node labels only, no VM is moved (one already on a host that leaves stays there until it restarts)`,
    );
    // A pool that goes from the whole fleet to a group gains the selector; the reverse drops it.
    const confined = diffPlans(planModel(groupedModel(8, 8)).report, planModel(groupedModel(8, 9)).report).regrouped;
    expect(confined?.find((g) => g.pool === 'big')).toMatchObject({
      selector: 'confined',
      left: [],
      joined: ['bm-02', 'bm-04', 'bm-05', 'bm-06', 'bm-07', 'bm-08'],
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
      ...Object.fromEntries(['bm-02', 'bm-04', 'bm-05', 'bm-06', 'bm-07'].map((h) => [h, [big]])),
      'bm-01': [tiny],
      'bm-03': [tiny],
    });
    // A live cluster labelled by an older plan (bm-03 in big's group) and another stack (its own pool's key).
    const other = hostGroupLabel('prod', 'elsewhere');
    const node = (name: string, labels: Record<string, string>) => ({
      metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
      status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } },
    });
    const snapshot = {
      apiVersion: SNAPSHOT_API_VERSION,
      kind: SNAPSHOT_KIND,
      nodes: plan.fleets[0].hosts.map((h) => node(h.name, h.name === 'bm-03' ? { [big]: 'true', [other]: 'true' } : {})),
      pods: [],
    } as const;
    const live = labelsOf(buildSnapshotReplay(plan, snapshot).nodes);
    expect(live['bm-03']).toEqual([other, tiny]);
    expect(live['bm-02']).toEqual([big]);
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
