/**
 * The plan review: readable numbers, the three formats (golden files for the examples), the JSON Schema,
 * diff first, the size bound of a PR comment at 10,000 VMs, and N+1 headroom.
 */
import { describe, expect, it } from '@jest/globals';
import Ajv from 'ajv';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { scaleConfig } from '../../bench/verify-fixtures';
import { loadConfigFile } from '../../constructs/core/input/config';
import { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel, PlanReport } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/base/quantity';
import { diffPlans, planJson, renderPlanMarkdown, renderPlanText } from '../../constructs/core/report';
import { columnUnit, inUnit, percent, readable, threeDigits } from '../../constructs/core/base/units';
import { expectGolden } from '../support/golden';
import { EXAMPLE_CA } from '../support/models';
import { setAt } from '../support/json-tree';

const REPO = path.join(__dirname, '..', '..');
const EXAMPLES = ['metalslice.yaml', 'does-not-fit.yaml'];
const planOf = (file: string): PlanReport => planModel(loadConfigFile(path.join(REPO, 'examples', file))).report;
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('readable numbers', () => {
  it.each([
    ['memory', '9908608Mi', '9.45 Ti'],
    ['memory', '462464Mi', '452 Gi'],
    ['disk', '75400Gi', '73.6 Ti'],
    ['memory', '32Gi', '32 Gi'],
    ['memory', '1536Mi', '1.5 Gi'],
    ['memory', '34801585857', '32.4 Gi'],
    ['memory', '500', '500 B'],
    ['cpu', '2k', '2000 cores'],
    ['cpu', '8005m', '8.01 cores'],
    ['cpu', '1', '1 core'],
    ['cpu', '500m', '0.5 cores'],
    ['nvidia.com/gpu', '8', '8'],
    ['pods', '110', '110'],
  ])('%s %s reads as %s', (name, exact, shown) => {
    expect(readable(name, Quantity.parse(exact))).toBe(shown);
  });

  it('keeps three significant digits, and trailing zeros only when it rounded', () => {
    expect([threeDigits(10025n, 1000n), threeDigits(9996n, 1000n), threeDigits(4412n, 10000n), threeDigits(488n, 1000000n), threeDigits(1252n, 1n)]).toEqual([
      '10.0',
      '10.0',
      '0.441',
      '0.000488',
      '1252',
    ]);
  });

  it('is within half a unit of the third digit of the exact value (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 1n << 62n }), (bytes) => {
        const q = Quantity.fromBytes(bytes);
        const [value, unit] = readable('memory', q).split(' ');
        const factor = { B: 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 }[unit]!;
        const exact = Number(bytes) / factor;
        expect(exact).toBeGreaterThanOrEqual(1);
        expect(Math.abs(Number(value) - exact) / exact).toBeLessThanOrEqual(0.005 + 1e-12);
      }),
    );
  });

  it('gives a column one unit, the one most of its values read in', () => {
    const unit = columnUnit(
      'memory',
      ['32Gi', '128Gi', '4Gi', '1Ti'].map((s) => Quantity.parse(s)),
    );
    expect(unit.label).toBe('Gi');
    expect(inUnit(Quantity.parse('1Ti'), unit)).toBe('1024');
  });

  it('never shows a share that is not full as 100 %, nor one above zero as 0 %', () => {
    expect([
      percent(Quantity.parse('999'), Quantity.parse('1000')),
      percent(Quantity.parse('1'), Quantity.parse('1000')),
      percent(Quantity.parse('1000'), Quantity.parse('1000')),
    ]).toEqual(['99', '<1', '100']);
  });
});

describe('golden reports of the examples', () => {
  it.each(EXAMPLES)('%s: text, Markdown and JSON', (file) => {
    const report = planOf(file);
    const base = file.replace(/\.yaml$/, '');
    expectGolden(`${base}.txt`, renderPlanText(report, undefined, { width: 120 }));
    expectGolden(`${base}.md`, renderPlanMarkdown(report));
    expectGolden(`${base}.json`, planJson(report));
  });

  it.each(EXAMPLES.flatMap((file) => [60, 80, 200].map((width) => [file, width] as const)))(
    '%s at %i columns: every pool, quota, fleet and host name whole, every line within the width or one unbreakable word',
    (file, width) => {
      const report = planOf(file);
      const text = renderPlanText(report, undefined, { width });
      expectGolden(`${file.replace(/\.yaml$/, '')}.${width}.txt`, text);
      expect(text).not.toContain('…');
      const words = new Set(text.split(/[\s,()]+/));
      const names = [...report.pools.map((p) => p.name), ...report.quotas.map((q) => q.name), ...report.fleets.map((f) => f.name)];
      for (const name of names) expect(words).toContain(name);
      for (const line of text.split('\n')) if (line.length > width) expect(line.trim()).not.toContain(' ');
    },
  );

  it('keeps exact quantities in the JSON, with readable ones beside them', () => {
    const fleet = planOf('metalslice.yaml').fleets[0];
    // 8 x 512Gi and 6 x 1Ti less 100Mi (the kubelets' eviction threshold), 8Gi reserved and virt-handler's 325Mi each.
    expect(fleet.capacity.memory).toBe('10365122Mi');
    expect(fleet.human.capacity.memory).toBe('9.88 Ti');
    expect(Quantity.parse(fleet.allocated.memory).nano).toBeGreaterThan(0n);
  });

  it('puts one resource per column and never a raw byte count in the Markdown', () => {
    const md = renderPlanMarkdown(planOf('metalslice.yaml'));
    expect(md).toContain('| fleet | hosts | cpu (cores) used / limit | memory (Ti) used / limit | disk (Ti) used / limit |');
    expect(md).not.toMatch(/\b\d{7,}\b/);
    expect(md).not.toMatch(/Everything fits/); // the example has a warning: the verdict must not hide it
  });

  it('sizes text tables to the terminal and colours only when asked', () => {
    const report = planOf('metalslice.yaml');
    const narrow = renderPlanText(report, undefined, { width: 80 });
    const tableLines = narrow.split('\n').filter((l) => !l.startsWith('  ') && !/^[!✓✗~A-Z]/.test(l));
    expect(Math.max(...tableLines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(narrow).not.toContain('\u001b[');
    expect(renderPlanText(report, undefined, { color: true })).toContain('\u001b[33m! Fits, with 2 warnings');
  });
});

describe('the JSON Schema of the plan (schema/metalslice-plan.schema.json)', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'schema', 'metalslice-plan.schema.json'), 'utf8')) as object;
  const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
  const configs = fs.readdirSync(path.join(REPO, 'examples')).filter((f) => /\.ya?ml$/.test(f));

  it.each(configs)('validates the plan of examples/%s', (file) => {
    const report = JSON.parse(planJson(planOf(file))) as unknown;
    expect(validate(report) ? [] : validate.errors).toEqual([]);
  });

  it('validates a plan with changes and failure-domain headroom', () => {
    const after = planModel(headroomConfig(), { failureDomain: 'rack' }).report;
    const before = clone(after);
    before.pools[0].nodes[0].host = 'elsewhere';
    const doc = JSON.parse(planJson(after, diffPlans(before, after))) as unknown;
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
  });

  it('refuses a plan with a quantity that is not exact', () => {
    const report = JSON.parse(planJson(planOf('metalslice.yaml'))) as unknown;
    setAt(report, ['fleets', 0, 'capacity', 'memory'], '9.45 Ti');
    expect(validate(report)).toBe(false);
  });
});

describe('diff first', () => {
  const after = planOf('metalslice.yaml');

  it('counts added, removed and moved nodes per pool', () => {
    const before = clone(after) as unknown as { pools: { name: string; nodes: { name: string; host: string | null; nodeType: string }[] }[] };
    const workers = before.pools.find((p) => p.name === 'team-a-workers')!;
    workers.nodes.pop(); // the new plan adds team-a-workers-5
    workers.nodes[0].host = 'bm-d01'; // ...moves team-a-workers-0 back to bm-c01
    before.pools.find((p) => p.name === 'base')!.nodes.push({ name: 'team-a-prod-base-2', host: 'bm-c03', nodeType: 'virt.small' }); // ...and removes a base node
    const c = diffPlans(before as unknown as PlanReport, after);
    expect(c.added).toEqual(['team-a-workers/team-a-workers-5']);
    expect(c.removed).toEqual(['base/team-a-prod-base-2']);
    expect(c.moved).toEqual([{ node: 'team-a-workers/team-a-workers-0', from: 'bm-d01', to: 'bm-c01' }]);
    expect(c.pools).toEqual([
      { pool: 'team-a-workers', before: 5, after: 6, added: 1, removed: 0, moved: 1, replaced: 0 },
      { pool: 'base', before: 3, after: 2, added: 0, removed: 1, moved: 0, replaced: 0 },
    ]);
  });

  it('shows quota limit and allocation deltas and the cost delta', () => {
    const before = clone(after) as unknown as {
      quotas: { name: string; limits: Record<string, string>; allocated: Record<string, string> }[];
      pools: { name: string; cost: number }[];
    };
    before.quotas[0].limits.memory = '512Gi';
    before.quotas[0].allocated.cpu = '76045m';
    before.pools[0].cost = 720;
    const c = diffPlans(before as unknown as PlanReport, after);
    expect(c.quotas).toEqual([{ quota: 'team-a', status: 'changed', limits: { memory: '512Gi' }, allocated: { cpu: '8005m' } }]);
    expect(c.cost).toEqual({ before: after.pools.reduce((t, p) => t + p.cost, 0) - 144, after: after.pools.reduce((t, p) => t + p.cost, 0), delta: 144 });
    const md = renderPlanMarkdown(after, c);
    expect(md).toContain('- quota team-a limits: memory +512 Gi');
    expect(md).toContain('- quota team-a allocated: cpu +8.01 cores');
    expect(md).toMatch(/- cost: [\d.]+ → [\d.]+ \(\+144, vCluster cost units\)/);
  });

  it('names node type changes, per pool and per node', () => {
    const before = clone(after) as unknown as { pools: { name: string; nodeType: string; nodes: { nodeType: string }[] }[] };
    const base = before.pools.find((p) => p.name === 'base')!;
    base.nodeType = 'virt.medium';
    base.nodes.forEach((n) => (n.nodeType = 'virt.medium'));
    const c = diffPlans(before as unknown as PlanReport, after);
    expect(c.pools).toEqual([
      { pool: 'base', before: 2, after: 2, added: 0, removed: 0, moved: 0, replaced: 0, nodeType: { before: 'virt.medium', after: 'virt.small' } },
    ]);
    expect(c.nodeTypes.map((t) => t.node)).toEqual(['base/team-a-prod-base-0', 'base/team-a-prod-base-1']);
    expect(renderPlanMarkdown(after, c)).toContain('- pool base: 2 → 2 nodes, node type virt.medium → virt.small');
  });

  it('puts the summary of changes before problems, warnings and tables', () => {
    const before = clone(after);
    (before.pools[0].nodes as unknown[]).pop();
    const md = renderPlanMarkdown(after, diffPlans(before, after));
    const order = ['## Changes since the previous plan', '## Warnings', '## Fleets', '## Changes, node by node', '## Placement'].map((h) => md.indexOf(h));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(renderPlanText(after, diffPlans(before, after)).split('\n').slice(0, 8).join('\n')).toContain('Changes since the previous plan:');
  });

  it('says so when nothing changed', () => {
    expect(renderPlanMarkdown(after, diffPlans(clone(after), after))).toContain('- No changes since the previous plan.');
  });
});

describe('bounded for pull request comments', () => {
  const big = planModel(scaleConfig(1000, 50));

  it('holds 10,000 VMs under the default 60,000 characters, with summary, warnings and diff whole', () => {
    expect(big.vms.filter((vm) => vm.concrete)).toHaveLength(10_000);
    const before = clone(big.report);
    (before.pools[3].nodes as unknown[]).splice(0, 7);
    const changes = diffPlans(before, big.report);
    const full = renderPlanMarkdown(big.report, changes);
    const md = renderPlanMarkdown(big.report, changes, { maxChars: 60_000, fullReport: 'the plan-report artifact' });
    expect(full.length).toBeGreaterThan(500_000);
    expect(md.length).toBeLessThanOrEqual(60_000);
    for (const w of big.report.warnings) expect(md).toContain(w.message);
    expect(md).toContain(`- pool ${big.report.pools[3].name}: ${big.report.pools[3].nodes.length - 7} → ${big.report.pools[3].nodes.length} nodes, 7 added`);
    const leftOut = Number(
      /\*\*([\d,]+) rows left out to keep this within 60,000 characters\.\*\* The full report: the plan-report artifact\./.exec(md)?.[1].replace(/,/g, ''),
    );
    const rowsShown = md.split('\n').filter((l) => /^\| (?!---)/.test(l)).length - (md.match(/^\| [a-z].* \|\n\| ---/gm) ?? []).length;
    const rowsTotal = full.split('\n').filter((l) => /^\| (?!---)/.test(l)).length - (full.match(/^\| [a-z].* \|\n\| ---/gm) ?? []).length;
    expect(leftOut).toBe(rowsTotal - rowsShown);
    expect(md).toMatch(/_placement: all 10,000 rows left out here|<details><summary>placement: 10,000 rows<\/summary>/);
  });

  it('stays whole when it fits, and never exceeds any limit it is given (property)', () => {
    const report = planOf('metalslice.yaml');
    const full = renderPlanMarkdown(report);
    expect(renderPlanMarkdown(report, undefined, { maxChars: full.length })).toBe(full);
    fc.assert(
      fc.property(fc.integer({ min: 3_000, max: full.length }), (max) => {
        expect(renderPlanMarkdown(report, undefined, { maxChars: max }).length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 40 },
    );
  });
});

/** Three hosts: `big` alone can hold the 30-vCPU VM, so losing it strands that VM; the small ones cover each other. */
function headroomConfig(require = false): MetalsliceConfig {
  return {
    fleets: [
      {
        name: 'edge',
        requireHostFailureHeadroom: require,
        hosts: [
          { name: 'big', labels: { rack: 'r1' }, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } },
          { name: 'small-1', labels: { rack: 'r1' }, capacity: { cpu: 16, memory: '64Gi', disk: '1Ti' } },
          { name: 'small-2', labels: { rack: 'r2' }, capacity: { cpu: 16, memory: '64Gi', disk: '1Ti' } },
        ],
      },
    ],
    // Just under the fleet's sum, which virt-handler's share on each host leaves below 96 CPUs and 384Gi.
    quotas: [{ name: 'team', fleet: 'edge', organization: 'acme', limits: { cpu: 95, memory: '380Gi', disk: '3Ti' } }],
    clusters: [{ name: 'prod', endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA }],
    nodePools: [
      { name: 'db', quota: 'team', cluster: 'prod', shape: { cpu: 30, memory: '64Gi', disk: '100Gi' }, count: 1 },
      { name: 'web', quota: 'team', cluster: 'prod', shape: { cpu: 2, memory: '4Gi', disk: '20Gi' }, count: 3 },
    ],
  };
}

describe('N+1 headroom', () => {
  it('names the one host whose loss strands a VM, and how many', () => {
    const plan = planModel(headroomConfig());
    expect(plan.ok).toBe(true);
    const headroom = plan.report.fleets[0].headroom!;
    const vmsOnBig = plan.vms.filter((vm) => vm.host === 'big').length;
    expect(headroom.hosts).toEqual({ ok: false, checked: 3, critical: [{ name: 'big', hosts: 1, vms: vmsOnBig, stranded: 1 }] });
    expect(renderPlanMarkdown(plan.report)).toContain('N+1: fleet edge cannot lose 1 of its 3 hosts: big (1 VM stranded).');
  });

  it('is an error when the fleet requires it, at the fleet and naming the host', () => {
    const plan = planModel(headroomConfig(true));
    expect(plan.errors).toEqual([{ path: 'fleets[0].requireHostFailureHeadroom', message: expect.stringContaining('losing host "big" strands 1 of its') }]);
  });

  it('checks failure domains by label: losing rack r1 loses two hosts', () => {
    const domain = planModel(headroomConfig(), { failureDomain: 'rack' }).report.fleets[0].headroom!.failureDomain!;
    expect(domain.ok).toBe(false);
    expect(domain.checked).toBe(2);
    expect(domain.critical.map((c) => [c.name, c.hosts])).toEqual([['r1', 2]]);
  });

  it('says so when no host carries the failure-domain label, instead of "any one of 0"', () => {
    const plan = planModel(headroomConfig(), { failureDomain: 'rak' });
    expect(plan.warnings).toContainEqual({
      path: 'fleets[0].hosts',
      message: expect.stringContaining('no host of fleet "edge" has the failure-domain label "rak"'),
    });
    expect(
      planModel(headroomConfig(), { failureDomain: 'rack' })
        .warnings.map((w) => w.message)
        .join('\n'),
    ).not.toContain('failure-domain label');
    const md = renderPlanMarkdown(plan.report);
    expect(md).toContain('no host has the label rak');
    expect(md).not.toMatch(/of 0\b/);
  });

  it('passes once another host can take the big VM', () => {
    const config = headroomConfig(true);
    const spare = { name: 'big-2', labels: { rack: 'r2' }, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } };
    const plan = planModel({ ...config, fleets: [{ ...config.fleets![0], hosts: [...config.fleets![0].hosts!, spare] }] });
    expect(plan.errors).toEqual([]);
    expect(plan.report.fleets[0].headroom!.hosts).toEqual({ ok: true, checked: 4, critical: [] });
  });

  it('agrees with the sums: a loss is never critical when the displaced VMs are few and the others are empty (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 1, max: 4 }), (hosts, count) => {
        const config = headroomConfig();
        const fleet = {
          ...config.fleets![0],
          hosts: Array.from({ length: hosts }, (_, i) => ({ name: `h${i}`, capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' } })),
        };
        const plan = planModel({ ...config, fleets: [fleet], nodePools: [{ ...config.nodePools![1], count }] });
        // Each host holds 62 spare CPUs at most 4 small VMs use: any one host's VMs fit on another.
        expect(plan.report.fleets[0].headroom!.hosts.ok).toBe(true);
      }),
      { numRuns: 15 },
    );
  });
});
