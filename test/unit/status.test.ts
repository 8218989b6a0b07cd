// `metalslice status`: the running fleet against the plan. A fleet is built from the plan as the clusters would
// hold it once deployed and converged, then changed one way at a time; each change must be named with its reason
// and fix, and nothing else. Every format keeps what a cluster sent inert; the JSON Schema holds the JSON.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import Ajv from 'ajv';
import type { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { compareFleet } from '../../constructs/status/compare';
import { firstDifference } from '../../constructs/status/drift';
import { expectedOf, Expected } from '../../constructs/status/expected';
import { promLabel, statusJson, statusMarkdown, statusPrometheus, statusText } from '../../constructs/status/formats';
import type { FleetStatus, Observed, ProviderView } from '../../constructs/status/types';
import { main } from '../../constructs/cli/main';
import * as os from 'os';
import { EXAMPLE_CA } from '../support/models';

const REPO = path.resolve(__dirname, '..', '..');

async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}
const AT = new Date('2026-11-29T10:00:00Z');
const EARLIER = '2026-11-29T09:00:00Z';

function config(count = 3): MetalsliceConfig {
  return {
    fleets: [{ name: 'lab', hosts: ['h1', 'h2', 'h3'].map((name) => ({ name, capacity: { cpu: 32, memory: '128Gi', disk: '2Ti' } })) }],
    quotas: [{ name: 'frontend', fleet: 'lab', organization: 'acme', limits: { cpu: 24, memory: '140Gi', disk: '200Gi' }, maxVirtualMachines: 5 }],
    clusters: [{ name: 'shop', endpoint: 'https://10.0.0.1:6443', caCertificate: EXAMPLE_CA, kubernetesVersion: '1.34' }],
    nodePools: [{ name: 'web', quota: 'frontend', cluster: 'shop', shape: { cpu: 4, memory: '16Gi', disk: '20Gi' }, count, rollout: { maxSurge: 1 } }],
  };
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
interface Cond {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}
/** An object as a test writes the clusters' lists: the fields status reads, loosely. */
interface Obj {
  metadata: Record<string, unknown> & { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec: {
    template?: { metadata: { annotations: Record<string, string> }; spec: { domain: Record<string, unknown> } };
    nodeName?: string;
    unschedulable?: boolean;
    hard?: Record<string, string>;
    containers?: unknown[];
  };
  status: {
    conditions?: Cond[];
    allocatable?: Record<string, string>;
    used?: Record<string, string>;
    printableStatus?: string;
    ready?: boolean;
    phase?: string;
    nodeName?: string;
    nodeInfo?: Record<string, string>;
  };
}

/** The clusters as a converged deploy leaves them: every VM running at its revision on its host, every Node Ready. */
function converged(expected: Expected): {
  provider: { vms: Obj[]; vmis: Obj[]; launchers: Obj[]; quotas: Obj[]; nodes: Obj[]; hostClaims?: Obj[]; dataVolumes?: Obj[] };
  tenant: Obj[];
} {
  const vms: Obj[] = [];
  const vmis: Obj[] = [];
  const launchers: Obj[] = [];
  const tenant: Obj[] = [];
  let i = 0;
  for (const pool of expected.pools) {
    for (const node of pool.nodes) {
      const host = node.plannedHost ?? `h${(i++ % 3) + 1}`;
      const vm = clone(node.vm) as unknown as Obj;
      vm.metadata.creationTimestamp = EARLIER;
      vm.status = { printableStatus: 'Running', ready: true };
      vms.push(vm);
      const template = vm.spec.template!;
      vmis.push({
        metadata: { name: node.name, namespace: pool.namespace, creationTimestamp: EARLIER, annotations: { ...template.metadata.annotations } },
        spec: {},
        status: { phase: 'Running', nodeName: host },
      });
      launchers.push({
        metadata: {
          name: `virt-launcher-${node.name}-abcde`,
          namespace: pool.namespace,
          creationTimestamp: EARLIER,
          labels: { 'kubevirt.io': 'virt-launcher', 'vm.kubevirt.io/name': node.name },
        },
        spec: { nodeName: host, containers: [{ resources: { requests: { cpu: '400m', memory: '17Gi' } } }] },
        status: { phase: 'Running' },
      });
      tenant.push({
        metadata: { name: node.name },
        spec: {},
        status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: EARLIER }], nodeInfo: { kubeletVersion: 'v1.34.4' } },
      });
    }
  }
  const quotas: Obj[] = expected.quotas.map((q) => ({
    metadata: { name: 'metalslice', namespace: q.namespace },
    spec: { hard: { ...q.hard } },
    status: { used: { ...q.use } },
  }));
  const nodes: Obj[] = expected.fleets.flatMap((f) =>
    f.hosts.map((h) => ({
      metadata: { name: h },
      spec: {},
      status: { allocatable: { cpu: '32', memory: '128Gi' }, conditions: [{ type: 'Ready', status: 'True' }] },
    })),
  );
  // Root disks imported; one already collected by CDI after its import, as CDI does: still fine.
  const dataVolumes: Obj[] = vms.slice(1).flatMap((vm) =>
    ((vm.spec as { dataVolumeTemplates?: { metadata: { name: string } }[] }).dataVolumeTemplates ?? []).map((t) => ({
      metadata: { name: t.metadata.name, namespace: vm.metadata.namespace },
      spec: {},
      status: { phase: 'Succeeded' },
    })),
  );
  return { provider: { vms, vmis, launchers, quotas, nodes, dataVolumes }, tenant };
}

function observe(world: ReturnType<typeof converged>, tenantError?: string): Observed {
  return {
    at: AT,
    provider: { ok: true, view: world.provider as unknown as ProviderView },
    tenants: new Map([['shop', tenantError ? { ok: false as const, error: tenantError } : { ok: true as const, view: world.tenant }]]),
  };
}

const expected = expectedOf(planModel(config()));
const judge = (world: ReturnType<typeof converged>, joinTimeoutSeconds = 900, tenantError?: string) =>
  compareFleet(expected, observe(world, tenantError), { joinTimeoutSeconds });
const reasons = (s: FleetStatus) => s.problems.map((p) => `${p.reason} ${p.object.name}`);

describe('status: the running fleet against the plan', () => {
  it('a converged fleet: no problem, every count at the desired, exit 0 material', () => {
    const s = judge(converged(expected));
    expect(s.problems).toEqual([]);
    expect(s.converged).toBe(true);
    expect(s.pools.map((p) => [p.name, p.desired, p.existing, p.ready, p.upToDate, p.available])).toEqual([['web', 3, 3, 3, 3, 3]]);
    expect(s.fleets[0]).toMatchObject({ inventory: 3, seen: 3, usable: 3, canLoseAnyHost: true });
  });

  const cases: [string, (w: ReturnType<typeof converged>) => void, string[]][] = [
    ['a VM that is gone', (w) => w.provider.vms.splice(1, 1), ['MachineMissing web-1']],
    [
      'a VM edited by hand (its CPU)',
      (w) => {
        const domain = w.provider.vms[0].spec.template!.spec.domain;
        domain.cpu = { ...(domain.cpu as object), cores: 9 };
      },
      ['Drifted web-0'],
    ],
    ['a label the stack writes changed', (w) => (w.provider.vms[2].metadata.labels!['metalslice.io/pool'] = 'other'), ['Drifted web-2']],
    [
      'a staged change: the instance runs another revision, KubeVirt says RestartRequired',
      (w) => {
        w.provider.vmis[1].metadata.annotations!['metalslice.io/revision'] = '0000000000000000';
        w.provider.vms[1].status.conditions = [
          { type: 'RestartRequired', status: 'True', lastTransitionTime: EARLIER, message: 'a non-live-updatable field was changed' },
        ];
      },
      ['RestartRequired web-1'],
    ],
    [
      'the VM still at an old revision',
      (w) => (w.provider.vms[0].spec.template!.metadata.annotations['metalslice.io/revision'] = 'feedfacefeedface'),
      ['RevisionNotApplied web-0'],
    ],
    ['a node a roll is replacing', (w) => (w.provider.vms[0].metadata.annotations = { 'metalslice.io/replacing': 'abc:stopping' }), ['Replacing web-0']],
    [
      'a node a roll cut short holds stopped: its VM Halted and labelled, no instance, no Node',
      (w) => {
        const vm = w.provider.vms[0];
        vm.metadata.annotations = { 'metalslice.io/replacing': 'abc:stopping' };
        vm.metadata.labels = { ...vm.metadata.labels, 'metalslice.io/stopped-by-roll': 'true' };
        (vm.spec as { runStrategy?: string }).runStrategy = 'Halted';
        vm.status = { printableStatus: 'Stopped' };
        w.provider.vmis.splice(0, 1);
        w.provider.launchers.splice(0, 1);
        w.tenant.splice(0, 1);
      },
      ['HeldByRoll web-0'],
    ],
    [
      'a launcher pod kube-scheduler cannot bind',
      (w) => {
        // A VM restarted: its new instance is on no host yet, its launcher pod unbound.
        delete w.provider.launchers[2].spec.nodeName;
        w.provider.vmis[2].status = { phase: 'Scheduling' };
        w.provider.launchers[2].status = {
          phase: 'Pending',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message: '0/3 nodes are available: 3 Insufficient memory.',
              lastTransitionTime: EARLIER,
            },
          ],
        };
      },
      ['LauncherPending virt-launcher-web-2-abcde'],
    ],
    [
      'a root disk CDI failed to import',
      (w) =>
        (w.provider.dataVolumes!.find((d) => d.metadata.name === 'web-1-root')!.status = {
          phase: 'Failed',
          conditions: [{ type: 'Running', status: 'False', message: 'Unable to connect to http data source: 404' }],
        }),
      ['DiskNotReady web-1-root'],
    ],
    ['a Node that left', (w) => w.tenant.splice(0, 1), ['NodeNotJoined web-0']],
    ['a Node NotReady', (w) => (w.tenant[1].status.conditions = [{ type: 'Ready', status: 'False', message: 'kubelet stopped' }]), ['NodeNotReady web-1']],
    ['a Node cordoned by hand', (w) => (w.tenant[1].spec.unschedulable = true), ['NodeCordoned web-1']],
    [
      'a Node cordoned for a drain',
      (w) => {
        w.tenant[1].spec.unschedulable = true;
        w.tenant[1].metadata.annotations = { 'metalslice.io/draining': 'x' };
      },
      ['Draining web-1'],
    ],
    [
      'a surge VM a killed roll left',
      (w) => {
        const surge = clone(w.provider.vms[0]);
        surge.metadata.name = 'web-0-surge';
        surge.metadata.labels!['metalslice.io/surge-of'] = 'web';
        w.provider.vms.push(surge);
      },
      ['SurgeLeftBehind web-0-surge'],
    ],
    [
      'a VM nobody planned',
      (w) =>
        w.provider.vms.push({ metadata: { name: 'stray', namespace: w.provider.vms[0].metadata.namespace, creationTimestamp: EARLIER }, spec: {}, status: {} }),
      ['Orphan stray'],
    ],
    ['a quota limit changed by hand', (w) => (w.provider.quotas[0].spec.hard!['requests.cpu'] = '100'), ['Drifted metalslice']],
    ['a quota that counts more than the plan', (w) => (w.provider.quotas[0].status.used!['requests.memory'] = '1Ti'), ['QuotaUseDiffers metalslice']],
    ['a quota gone', (w) => w.provider.quotas.splice(0, 1), ['QuotaMissing metalslice']],
    ['a host gone', (w) => w.provider.nodes.splice(2, 1), ['HostMissing h3']],
    ['a host cordoned', (w) => (w.provider.nodes[0].spec.unschedulable = true), ['HostCordoned h1']],
  ];

  it.each(cases)('%s: named, and nothing else', (_name, change, want) => {
    const world = converged(expected);
    change(world);
    const s = judge(world, 60);
    expect(reasons(s)).toEqual(want);
    expect(s.converged).toBe(false);
    for (const p of s.problems) expect(p.remedy.length).toBeGreaterThan(10);
  });

  it('a node a roll cut short holds stopped is not up to date, and its fix says what to do after a deploy with METALSLICE_ROLL=skip', () => {
    const running = converged(expected);
    const w = clone(running);
    const vm = w.provider.vms[1];
    vm.metadata.labels = { ...vm.metadata.labels, 'metalslice.io/stopped-by-roll': 'true' };
    (vm.spec as { runStrategy?: string }).runStrategy = 'Halted';
    w.provider.vmis.splice(1, 1);
    w.provider.launchers.splice(1, 1);
    w.tenant.splice(1, 1);
    const s = judge(w);
    expect(reasons(s)).toEqual(['HeldByRoll web-1']);
    expect(s.problems[0].evidence).toBe('its VM is labelled metalslice.io/stopped-by-roll=true and its runStrategy is Halted');
    expect(s.problems[0].remedy).toMatch(/without METALSLICE_ROLL=skip.*run metalslice roll-nodes for the pool/);
    expect(s.pools[0].upToDate).toBe(2);
    // Started again by hand while still labelled (it runs and has joined): the next deploy stops it again, and status says so.
    running.provider.vms[1].metadata.labels = { ...running.provider.vms[1].metadata.labels, 'metalslice.io/stopped-by-roll': 'true' };
    const started = judge(running);
    expect(reasons(started)).toEqual(['HeldByRoll web-1']);
    expect(started.problems[0].message).toContain('the next deploy stops it again');
    expect(started.problems[0].evidence).toContain('runStrategy is Always');
  });

  it('a VM that should run and has no instance is not converged (KubeVirt has not started it, or cannot)', () => {
    const world = converged(expected);
    world.provider.vmis.splice(0, 1);
    world.provider.vms[0].status = { printableStatus: 'CrashLoopBackOff' };
    const s = judge(world);
    expect(reasons(s)).toEqual(['InstanceMissing web-0']);
    expect(s.problems[0].message).toContain('CrashLoopBackOff');
    expect(s.pools[0].available).toBe(2);
  });

  it('revisions as roll-nodes judges them: an unmarked instance runs its VM unless KubeVirt staged a change', () => {
    const world = converged(expected);
    delete world.provider.vmis[0].metadata.annotations;
    expect(reasons(judge(world))).toEqual([]);
    world.provider.vms[1].status.conditions = [{ type: 'RestartRequired', status: 'True', message: 'a non-live-updatable field was changed' }];
    expect(reasons(judge(world))).toEqual(['RestartRequired web-1']);
  });

  it("a migration's target pod still unbound is no Pending VM: the instance runs on its host", () => {
    const world = converged(expected);
    const target = clone(world.provider.launchers[0]);
    target.metadata.name = 'virt-launcher-web-0-zzzzz';
    target.metadata.creationTimestamp = '2026-11-29T09:59:00Z';
    delete target.spec.nodeName;
    world.provider.launchers.push(target);
    expect(reasons(judge(world))).toEqual([]);
  });

  it("another stack's VMs and a controller's VMs are no orphans of this plan", () => {
    const world = converged(expected);
    const ns = world.provider.vms[0].metadata.namespace;
    world.provider.vms.push(
      {
        metadata: { name: 'theirs', namespace: 'other', labels: { 'app.kubernetes.io/managed-by': 'metalslice', 'metalslice.io/cluster': 'elsewhere' } },
        spec: {},
        status: {},
      },
      { metadata: { name: 'capi-md-abc', namespace: ns, ownerReferences: [{ kind: 'KubevirtMachine', name: 'm', controller: true }] }, spec: {}, status: {} },
    );
    expect(reasons(judge(world))).toEqual([]);
    world.provider.vms.push({
      metadata: { name: 'ours', namespace: 'other', labels: { 'app.kubernetes.io/managed-by': 'metalslice', 'metalslice.io/cluster': 'shop' } },
      spec: {},
      status: {},
    });
    expect(reasons(judge(world))).toEqual(['Orphan ours']);
  });

  it('a VM pinned to its host has nowhere to go: the fleet cannot lose that host, however much room the others have', () => {
    const world = converged(expected);
    expect(judge(world).fleets[0].canLoseAnyHost).toBe(true);
    const pinned = world.provider.launchers.find((p) => p.spec.nodeName === 'h1')!;
    (pinned.spec as Record<string, unknown>).affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['h1'] }] }] },
      },
    };
    const s = judge(world);
    expect(s.fleets[0]).toMatchObject({ canLoseAnyHost: false, critical: [{ host: 'h1', vms: 1, stranded: 1 }] });
    expect(reasons(s)).toEqual(['NoHostFailureHeadroom lab']);
  });

  it('a host NotReady: named with the VMs on it, and the fleet that can no longer lose a host says so', () => {
    const world = converged(expected);
    world.provider.nodes[0].status.conditions = [
      { type: 'Ready', status: 'False', lastTransitionTime: EARLIER, message: 'Kubelet stopped posting node status.' },
    ];
    // The two hosts left are nearly full: the VMs of either cannot move to the other.
    for (const n of world.provider.nodes.slice(1)) n.status.allocatable = { cpu: '1', memory: '20Gi' };
    const s = judge(world);
    expect(reasons(s)).toEqual(['HostNotReady h1', 'NoHostFailureHeadroom lab']);
    expect(s.problems[0].message).toContain('with 1 VM(s)');
    expect(s.fleets[0]).toMatchObject({ usable: 2, notReady: ['h1'], canLoseAnyHost: false });
  });

  it('a guest that has not joined yet waits; past the join timeout it never joined', () => {
    const world = converged(expected);
    world.tenant.splice(0, 1);
    world.provider.vmis[0].metadata.creationTimestamp = new Date(AT.getTime() - 30_000).toISOString();
    expect(reasons(judge(world, 60))).toEqual(['WaitingForNode web-0']);
    expect(reasons(judge(world, 10))).toEqual(['NodeNotJoined web-0']);
  });

  it('an unreadable tenant cluster is said once, its nodes Unknown, and the provider still compared', () => {
    const world = converged(expected);
    world.provider.vms.splice(0, 1);
    const s = judge(world, 900, 'cannot reach https://10.0.0.1:6443 (ECONNREFUSED)');
    expect(reasons(s)).toEqual(['ClusterUnreadable shop', 'MachineMissing web-0']);
    expect(s.pools[0].nodes[1].conditions.find((c) => c.type === 'Ready')).toEqual({ type: 'Ready', status: 'Unknown', reason: 'ClusterUnreadable' });
  });

  it('an unreadable provider: one problem, nothing else compared', () => {
    const s = compareFleet(expected, { at: AT, provider: { ok: false, error: 'HTTP 401' }, tenants: new Map() }, { joinTimeoutSeconds: 900 });
    expect(reasons(s)).toEqual(['ClusterUnreadable provider']);
    expect(s.pools).toEqual([]);
  });

  it('objects of the wrong shape (a hostile or broken API server) read as absent, never a crash', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (a, b, c) => {
        const world = converged(expected);
        world.provider.vms[0] = { metadata: a, spec: b, status: c } as Obj;
        world.provider.vmis[1] = { metadata: world.provider.vmis[1].metadata, spec: a, status: b } as Obj;
        world.provider.launchers.push({ metadata: b, spec: c, status: a } as Obj);
        world.provider.nodes[2] = { metadata: world.provider.nodes[2].metadata, spec: c, status: a } as Obj;
        world.provider.quotas[0] = { metadata: world.provider.quotas[0].metadata, spec: b, status: c } as Obj;
        world.provider.dataVolumes![0] = { metadata: world.provider.dataVolumes![0].metadata, spec: a, status: c } as Obj;
        world.tenant.push({ metadata: c, spec: a, status: b } as Obj);
        const hold = { metadata: { name: 'web-0-roll-hold', namespace: 'acme-frontend', labels: a }, spec: b, status: c } as Obj;
        const s = judge({ ...world, provider: { ...world.provider, holds: [hold, { metadata: b, spec: c, status: a } as Obj] } } as typeof world);
        // The VM that is no VM is missing; every format still prints.
        expect(reasons(s)).toContain('MachineMissing web-0');
        for (const out of [statusText(s, true), statusMarkdown(s), statusPrometheus(s), statusJson(s)]) expect(out.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('status: drift is a field the stack writes holding another value', () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), tie('object'), fc.array(tie('value'), { maxLength: 3 })),
    object: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('value'), { maxKeys: 4 }),
  }));

  it('what the server adds beside the written fields is not drift', () => {
    fc.assert(
      fc.property(json.object, fc.string({ minLength: 1 }), json.value, (written, key, added) => {
        const live = { ...clone(written), ...(key in written ? {} : { [key]: added }) };
        expect(firstDifference(written, live, '')).toBeUndefined();
      }),
    );
  });

  it('a written leaf changed is found, at its path', () => {
    expect(firstDifference({ spec: { a: [{ b: 1 }, { c: 'x' }] } }, { spec: { a: [{ b: 1 }, { c: 'y', d: 2 }] } }, '')).toEqual({
      path: '.spec.a[1].c',
      expected: 'x',
      actual: 'y',
    });
    expect(firstDifference({ m: { 'kubevirt.io/x': 'a' } }, { m: {} }, '')).toEqual({ path: '.m["kubevirt.io/x"]', expected: 'a', actual: undefined });
  });

  it('quantities compare by value, as the API server may write them in another form', () => {
    expect(firstDifference({ memory: '1Gi', cpu: 4 }, { memory: '1024Mi', cpu: '4' }, '')).toBeUndefined();
    expect(firstDifference({ memory: '1Gi' }, { memory: '1025Mi' }, '')).toEqual({ path: '.memory', expected: '1Gi', actual: '1025Mi' });
  });
});

describe('status: every format keeps what a cluster sent inert', () => {
  const hostile = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `${s}\u001b[31m|<img src=x>\n# x`);

  function withHostile(name: string, message: string): FleetStatus {
    const world = converged(expected);
    world.provider.vms.push({ metadata: { name, namespace: world.provider.vms[0].metadata.namespace, creationTimestamp: EARLIER }, spec: {}, status: {} });
    world.tenant[0].status.conditions = [{ type: 'Ready', status: 'False', message }];
    return judge(world);
  }

  it('text: no control character reaches the terminal', () => {
    fc.assert(
      fc.property(hostile, hostile, (name, message) => {
        const out = statusText(withHostile(name, message), true);
        expect(out.replace(/\n/g, '')).not.toMatch(new RegExp('[\\u0000-\\u001f\\u007f-\\u009f]'));
      }),
    );
  });

  it('Markdown: each problem stays one table row, no markup', () => {
    fc.assert(
      fc.property(hostile, hostile, (name, message) => {
        const s = withHostile(name, message);
        const rows = statusMarkdown(s)
          .split('\n')
          .filter((l) => l.startsWith('| Orphan') || l.startsWith('| NodeNotReady'));
        expect(rows.length).toBe(2);
        for (const r of rows) {
          // Five cells: six pipes no backslash escapes, and no tag.
          expect(r.match(/(?<!\\)\|/g)?.length).toBe(6);
          expect(r).not.toMatch(/<img/);
        }
      }),
    );
  });

  it('Prometheus: every line is a comment or a sample of the exposition format, whatever the names', () => {
    expect(promLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    fc.assert(
      fc.property(hostile, (name) => {
        const s = withHostile(name, 'x');
        s.pools[0].name = name;
        for (const line of statusPrometheus(s).trimEnd().split('\n'))
          expect(line).toMatch(/^(# (HELP|TYPE) .*|[a-z_]+(\{([a-z_]+="([^"\\\n]|\\.)*",?)*\})? (-?[\d.e+]+|NaN))$/);
      }),
    );
  });

  it('JSON: the published schema holds every state, and refuses a reason it does not know', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'schema', 'metalslice-status.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    const world = converged(expected);
    world.provider.vms.splice(0, 1);
    world.provider.nodes[0].spec.unschedulable = true;
    for (const s of [judge(converged(expected)), judge(world), judge(world, 900, 'unreachable'), withHostile('x\u2028y', 'z')]) {
      const doc = JSON.parse(statusJson(s)) as FleetStatus;
      expect(validate(doc) ? [] : validate.errors).toEqual([]);
    }
    const bad = JSON.parse(statusJson(judge(world))) as FleetStatus;
    bad.problems[0].reason = 'Whatever';
    expect(validate(bad)).toBe(false);
  });
});

describe('metalslice status (the command)', () => {
  it('a config that cannot be read, or an option that is wrong: exit 2, the path and the fix, nothing on standard output', async () => {
    const missing = await runCli(['status', '/nonexistent/metalslice.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('/nonexistent/metalslice.yaml');
    const wrong = await runCli(['status', path.join(REPO, 'examples', 'metalslice.yaml'), '--join-timeout', 'soon']);
    expect({ code: wrong.code, out: wrong.stdout }).toEqual({ code: 2, out: '' });
    expect(wrong.stderr).toContain('--join-timeout "soon" is not a duration');
  });

  it('a provider cluster that cannot be reached: exit 2, said as a problem, in JSON too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-status-'));
    const kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: abc}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    const r = await runCli(['status', path.join(REPO, 'examples', 'metalslice.yaml'), '--kubeconfig', kubeconfig, '-o', 'json']);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as FleetStatus;
    expect(doc.clusters.filter((c) => !c.read).map((c) => c.name)).toEqual(expect.arrayContaining(['provider']));
    expect(doc.problems[0]).toMatchObject({ reason: 'ClusterUnreadable', object: { name: 'provider' } });
    expect(r.stdout).not.toContain('abc');
  });

  it("the holds' list refused with 403 (an identity that may not list ConfigMaps): the rest is read and compared; any other refusal of it: unreadable", async () => {
    const statusWith = async (holdsAnswer: number) => {
      const seen: string[] = [];
      const server = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        seen.push(url.pathname);
        res.setHeader('Content-Type', 'application/json');
        res.statusCode = url.pathname === '/api/v1/configmaps' ? holdsAnswer : 200;
        res.end(JSON.stringify(res.statusCode === 200 ? { items: [], metadata: {} } : { kind: 'Status', code: res.statusCode, message: 'refused' }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-status-'));
      try {
        const kubeconfig = path.join(dir, 'kubeconfig');
        const server_ = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
        fs.writeFileSync(
          kubeconfig,
          `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${server_}"}}]\nusers: [{name: u, user: {token: abc}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n`,
        );
        const c = config();
        const file = path.join(dir, 'metalslice.json');
        fs.writeFileSync(file, JSON.stringify({ ...c, clusters: c.clusters!.map((k) => ({ ...k, kubeconfigPath: kubeconfig })) }));
        const r = await runCli(['status', file, '--kubeconfig', kubeconfig, '-o', 'json']);
        return { code: r.code, doc: JSON.parse(r.stdout) as FleetStatus, seen };
      } finally {
        server.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    };
    const forbidden = await statusWith(403);
    expect(forbidden.seen).toContain('/api/v1/configmaps');
    expect(forbidden.doc.clusters.every((c) => c.read)).toBe(true);
    // Nothing runs on the fake: the plan's VMs are missing, said as problems (exit 1), not as a cluster unread.
    expect({ code: forbidden.code, unreadable: forbidden.doc.problems.filter((p) => p.reason === 'ClusterUnreadable') }).toEqual({ code: 1, unreadable: [] });
    expect(forbidden.doc.problems.map((p) => p.reason)).toContain('MachineMissing');
    const failing = await statusWith(500);
    expect(failing.code).toBe(2);
    expect(failing.doc.problems[0]).toMatchObject({ reason: 'ClusterUnreadable', object: { name: 'provider' } });
  });
});

describe('status: private nodes against their revision', () => {
  const privateConfig: MetalsliceConfig = {
    clusters: [{ name: 'shop', endpoint: 'https://10.0.0.1:6443', caCertificate: EXAMPLE_CA, kubernetesVersion: '1.34' }],
    nodeProviders: [
      {
        name: 'metal',
        kind: 'metal3',
        hosts: ['bm-0', 'bm-1', 'bm-2'].map((name) => ({ name, labels: { role: 'gpu' }, state: 'available', capacity: { cpu: 64, memory: '512Gi' } })),
        nodeTypes: [{ name: 'gpu-node', hostSelector: { matchLabels: { role: 'gpu' } } }],
      },
    ],
    privateNodePools: [
      {
        name: 'gpu',
        cluster: 'shop',
        provider: 'metal',
        nodeType: 'gpu-node',
        count: 2,
        image: { url: 'https://images.example/n.raw', checksum: 'c'.repeat(64) },
      },
    ],
  };
  const hostExpected = expectedOf(planModel(privateConfig));
  const pool = hostExpected.pools[0];
  /** The clusters as a converged deploy leaves the pool: each claim at the revision, each Node Ready. */
  const world = () => ({
    provider: {
      vms: [],
      vmis: [],
      launchers: [],
      quotas: [],
      nodes: [],
      hostClaims: pool.nodes.map((n): Obj => ({
        metadata: { name: n.name, namespace: pool.namespace, creationTimestamp: EARLIER, labels: { 'metalslice.io/revision': pool.revision ?? '' } },
        spec: {},
        status: {},
      })),
    },
    tenant: pool.nodes.map((n): Obj => ({
      metadata: { name: n.name },
      spec: {},
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: EARLIER }] },
    })),
  });
  const judgeHosts = (w: ReturnType<typeof world>) => compareFleet(hostExpected, observe(w), { joinTimeoutSeconds: 900 });

  it('claims at the revision: nothing to say; one at another revision, or one a roll is replacing, is named', () => {
    expect(pool.revision).toMatch(/^[0-9a-f]{16}$/);
    expect(reasons(judgeHosts(world()))).toEqual([]);
    const behind = world();
    behind.provider.hostClaims[1].metadata.labels = { 'metalslice.io/revision': '0000000000000000' };
    const said = judgeHosts(behind);
    expect(reasons(said)).toEqual(['RevisionNotApplied shop-gpu-1']);
    expect(said.problems[0].message).toContain(`its HostClaim carries revision 0000000000000000, the plan ${pool.revision}`);
    const rolling = world();
    rolling.provider.hostClaims[0].metadata.annotations = { 'metalslice.io/replacing': `${pool.revision}:started` };
    expect(reasons(judgeHosts(rolling))).toEqual(['Replacing shop-gpu-0']);
  });

  /** The clusters while a roll cut short holds shop-gpu-0: its hold there, its claim made again powered off, no Node. */
  const heldWorld = (holdLabels: Record<string, string>) => {
    const w = world();
    w.provider.hostClaims[0].metadata.annotations = { 'metalslice.io/replacing': `${pool.revision}:stopping` };
    w.provider.hostClaims[0].metadata.creationTimestamp = '2026-11-29T08:00:00Z';
    w.tenant.splice(0, 1);
    const hold: Obj = {
      metadata: { name: 'shop-gpu-0-roll-hold', namespace: pool.namespace, creationTimestamp: EARLIER, labels: holdLabels },
      spec: {},
      status: {},
    };
    return { ...w, provider: { ...w.provider, holds: [hold] } };
  };

  it('a node a roll cut short holds: said as held, by its hold, with the fix that resumes the roll; never as a node that failed to join', () => {
    const holdLabels = { 'metalslice.io/pool': 'gpu', 'metalslice.io/stopped-by-roll': 'true' };
    const said = judgeHosts(heldWorld(holdLabels));
    expect(reasons(said)).toEqual(['HeldByRoll shop-gpu-0']);
    expect(said.problems[0].evidence).toContain('shop-gpu-0-roll-hold');
    expect(said.problems[0].message).toContain('its claim was made again powered off');
    expect(said.problems[0].remedy).toMatch(/without METALSLICE_ROLL=skip.*run metalslice roll-hosts for the pool/);
    // Held before its claim is released (the old claim, at the old revision, still there), and after (no claim).
    const releasing = heldWorld(holdLabels);
    releasing.provider.hostClaims[0].metadata.labels = { 'metalslice.io/revision': '0000000000000000' };
    const early = judgeHosts(releasing);
    expect(reasons(early)).toEqual(['HeldByRoll shop-gpu-0']);
    expect(early.problems[0].message).toContain('its old claim is still there');
    const released = heldWorld(holdLabels);
    released.provider.hostClaims.splice(0, 1);
    const gone = judgeHosts(released);
    expect(reasons(gone)).toEqual(['MachineMissing shop-gpu-0', 'HeldByRoll shop-gpu-0']);
    expect(gone.problems[1].message).toContain('its host was released');
    // Another pool's ConfigMap of that name, or none (the reader may not list ConfigMaps): not a hold of this node.
    const noHold = (w: ReturnType<typeof heldWorld>) => ({ ...w, provider: { ...w.provider, holds: undefined } });
    expect(reasons(judgeHosts(heldWorld({ 'metalslice.io/pool': 'other', 'metalslice.io/stopped-by-roll': 'true' })))).toEqual([
      'Replacing shop-gpu-0',
      'NodeNotJoined shop-gpu-0',
    ]);
    expect(reasons(judgeHosts(noHold(heldWorld({}))))).toEqual(['Replacing shop-gpu-0', 'NodeNotJoined shop-gpu-0']);
  });
});
