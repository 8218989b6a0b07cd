/**
 * Readable units in every message: a problem or warning that names memory, disk or hugepages says it in
 * binary units (`76.7 Gi`), CPU in quantities Kubernetes takes (`10.025`, `500m`), never a raw byte count
 * (`82309958085`). Checked over every example, the vcluster.yaml conformance corpus, and variants of them
 * made not to fit in each way the planner reports (a list of message kinds the variants must reach keeps
 * the corpus honest).
 */
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import { amount, amounts } from '../../constructs/core/base/units';
import { corpusCatalogue, corpusFiles, corpusModel } from '../support/vcluster-corpus';
import { fleet, hosts, model, pool, quota, REPO_ROOT, roomForVms } from '../support/models';

type Mutable<T> = T extends readonly (infer U)[] ? Mutable<U>[] : T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;
type Config = Mutable<MetalsliceConfig>;

const examples = fs
  .readdirSync(path.join(REPO_ROOT, 'examples'))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => ({ name: `examples/${f}`, config: loadConfigFile(path.join(REPO_ROOT, 'examples', f)) as Config }));
const catalogue = corpusCatalogue();
const corpus = corpusFiles().map((f) => ({ name: f.name, config: corpusModel(f, catalogue) as Config }));

// Six hosts a spread cannot prove for two live-migrating pools (as in plan.test.ts): kube-scheduler's worst case.
const spread: { name: string; config: Config } = {
  name: 'six hosts, two spread pools',
  config: model({
    fleets: [fleet('f', hosts(6, roomForVms({ cpu: 16, memory: '64Gi', disk: '1Ti' })), { reservedPerHost: { cpu: 1, memory: '2Gi' } })],
    quotas: [quota('q', 'f', { cpu: 90, memory: '372Gi', disk: '6Ti' }, { liveMigrations: 0 })],
    nodePools: [
      pool('big', 'q', { cpu: 7, memory: '8Gi', disk: '20Gi' }, 7, { vm: { evictionStrategy: 'LiveMigrate' } }),
      pool('tiny', 'q', { cpu: 1, memory: '2Gi', disk: '20Gi' }, 6, { vm: { evictionStrategy: 'LiveMigrate' } }),
    ],
  }) as Config,
};

const clone = (c: Config): Config => structuredClone(c);
/** A limit times `num / den` (a limit that is not a quantity stays as written: its own problem says so). */
function scaled(limits: Record<string, string | number>, names: readonly string[], num: bigint, den: bigint): void {
  for (const r of names) {
    if (limits[r] === undefined) continue;
    try {
      const q = Quantity.parse(String(limits[r]));
      limits[r] = Quantity.fromNano((q.nano * num) / den, q.format).toString();
    } catch {
      // left as written
    }
  }
}

/** Ways to make a config not fit, each aimed at one kind of problem or warning. */
const VARIANTS: Record<string, (c: Config) => void> = {
  'every pool 20 times its count': (c) => c.nodePools?.forEach((p) => (p.count = p.count * 20)),
  'quotas at a tenth of their limits': (c) => c.quotas?.forEach((q) => scaled(q.limits as Record<string, string | number>, ['cpu', 'memory', 'disk'], 1n, 10n)),
  'quotas 10 times their limits': (c) => c.quotas?.forEach((q) => scaled(q.limits as Record<string, string | number>, ['cpu', 'memory'], 10n, 1n)),
  'a reservation bigger than every host': (c) => c.fleets?.forEach((f) => (f.reservedPerHost = { cpu: 1, memory: '64Ti' })),
  'no reservation': (c) => c.fleets?.forEach((f) => delete f.reservedPerHost),
  'hugepages of 1Gi on odd memory': (c) =>
    c.nodePools?.forEach((p) => {
      p.shape = { ...p.shape, memory: '1536Mi' };
      p.vm = { ...(p.vm ?? {}), hugepages: '1Gi' };
    }),
  'hugepages of 1Gi under memory overcommit': (c) => {
    c.fleets?.forEach((f) => (f.memoryOvercommit = 150));
    c.nodePools?.forEach((p) => (p.vm = { ...(p.vm ?? {}), hugepages: '1Gi' }));
  },
  'many live migrations': (c) => c.quotas?.forEach((q) => (q.liveMigrations = 40)),
  'pools spread over an odd count': (c) => c.nodePools?.forEach((p) => ((p.count = p.count * 3 + 1), delete p.placement)),
  'a tiny memory shape': (c) => c.nodePools?.forEach((p) => (p.shape = { ...p.shape, memory: '100Mi' })),
  'dynamic pools with tiny limits': (c) => c.autoNodes?.forEach((a) => a.dynamic?.forEach((d) => (d.limits = { cpu: 1, memory: '1Gi' }))),
  'dynamic pools without limits': (c) => c.autoNodes?.forEach((a) => a.dynamic?.forEach((d) => delete d.limits)),
  'static auto-node pools of 300': (c) => c.autoNodes?.forEach((a) => a.static?.forEach((s) => (s.quantity = 300))),
};

/** Message kinds the corpus must reach, one per place that names an amount (so a new variant is not idle). */
const REACHED: readonly RegExp[] = [
  /does not fit quota .*memory: needs \d/,
  /the launcher pod requests cpu \S+, memory [\d.]+ \w+\) cannot be placed on fleet/,
  /quotas on fleet .* of memory with this one, but the fleet has /,
  /reserves more .* than host .* has allocatable \(/,
  /give no allocatable .*\(less virt-handler's \S+ CPU and [\d.]+ \w+ memory/,
  /is not a whole number of 1Gi hugepages/,
  /KubeVirt refuses it: with the fleet's memoryOvercommit/,
  /no room to live-migrate its VMs: .*\(cpu|memory /,
  /kube-scheduler could (leave VMs|put up to)/,
  /a node needs at least 256Mi of memory to boot \(got 100 Mi\)/,
  /static pool "\S+" \(\S+\) does not fit quota .*: needs \d/,
  /dynamic pool "\S+" \(\S+\) at its limits does not fit quota .*: needs \d/,
  /no limits: Karpenter may grow the pool until quota .* left/,
  /limits \(.*\) are below every matching node type/,
  /these pods need /,
];

function messagesOf(config: Config): string[] {
  const report = planModel(config).report;
  return [...report.errors, ...report.warnings].map((m) => `${m.path}: ${m.message}`);
}

describe('readable units in every problem and warning', () => {
  const all: { source: string; message: string }[] = [];
  for (const base of [...examples, ...corpus, spread]) {
    all.push(...messagesOf(base.config).map((message) => ({ source: base.name, message })));
    for (const [variant, mutate] of Object.entries(VARIANTS)) {
      const config = clone(base.config);
      mutate(config);
      all.push(...messagesOf(config).map((message) => ({ source: `${base.name} (${variant})`, message })));
    }
  }

  it('the corpus reaches every kind of message that names an amount', () => {
    expect(REACHED.filter((kind) => !all.some((m) => kind.test(m.message))).map(String)).toEqual([]);
    expect(all.length).toBeGreaterThan(500);
  });

  it('no message carries a raw byte count', () => {
    // Seven digits or more in a row is a byte count (or millicores) nobody reads.
    const raw = all.filter((m) => /\d{7,}/.test(m.message));
    expect(raw.slice(0, 5)).toEqual([]);
  });
});

describe('amount: the one formatter messages use', () => {
  const bytes = (n: bigint) => Quantity.fromBytes(n);
  it('writes bytes in binary units to three significant digits, exact values whole', () => {
    expect(amount('memory', bytes(82309958085n))).toBe('76.7 Gi');
    expect(amount('memory', Quantity.parse('64Gi'))).toBe('64 Gi');
    expect(amount('disk', Quantity.parse('8Ti'))).toBe('8 Ti');
    expect(amount('hugepages-1Gi', Quantity.parse('3Gi'))).toBe('3 Gi');
    expect(amount('memory', bytes(512n))).toBe('512 B');
  });
  it('rounds a bound down, so the value named is one that fits', () => {
    // 10.996 Gi: "at most 11.0 Gi" would be more than there is.
    const q = Quantity.parse('11259Mi');
    expect(amount('memory', q)).toBe('11.0 Gi');
    expect(amount('memory', q, true)).toBe('10.9 Gi');
  });
  it('writes CPU exactly, as Kubernetes takes it: millicores under a core, cores from one', () => {
    expect(amount('cpu', Quantity.parse('500m'))).toBe('500m');
    expect(amount('cpu', Quantity.parse('8'))).toBe('8');
    expect(amount('cpu', Quantity.parse('10025m'))).toBe('10.025');
    expect(amount('cpu', Quantity.parse('4002500m'))).toBe('4002.5');
    expect(amount('cpu', Quantity.parse('-1500m'))).toBe('-1.5');
    // A fraction of a millicore rounds up, as the API server does.
    expect(amount('cpu', Quantity.fromNano(1_000_000_001n))).toBe('1.001');
    for (const text of ['500m', '8', '10.025', '4002.5']) expect(Quantity.parse(text).eq(Quantity.parse(amount('cpu', Quantity.parse(text))))).toBe(true);
  });
  it('names amounts in resource order, zeros left out unless asked for', () => {
    const v = { memory: bytes(82309958085n), cpu: Quantity.parse('10025m'), disk: Quantity.ZERO };
    expect(amounts(v)).toBe('cpu 10.025, memory 76.7 Gi');
    expect(amounts(v, ['memory', 'disk'], ': ')).toBe('memory: 76.7 Gi, disk: 0 B');
  });
});
