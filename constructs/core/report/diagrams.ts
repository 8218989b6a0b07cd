/**
 * Pictures for pull requests, as Mermaid (GitHub draws it): fleets -> quotas -> pools, and each fleet's host
 * use as an xychart. Both stay small whatever the plan's size: many pools of one quota become one box, many
 * hosts become a histogram.
 */
import { mermaidLabel } from './escape';
import type { PlanReport } from '../plan/types';
import { Quantity } from '../base/quantity';
import { percent } from '../base/units';

/** Past this many pools the diagram draws one box per quota ("12 pools, 340 nodes"). */
const MAX_POOL_BOXES = 30;
/** Past this many hosts the chart is a histogram of hosts by use. */
const MAX_HOST_BARS = 40;

/** Mermaid label text: no quotes or brackets that would end the label. */
function label(text: string): string {
  return mermaidLabel(text);
}

function usePct(used: Readonly<Record<string, string>>, limit: Readonly<Record<string, string>>, res: string): string {
  return percent(Quantity.parse(used[res] ?? '0'), Quantity.parse(limit[res] ?? '0')) ?? '-';
}

/** fleet -> quota -> pool, with the use of each fleet and quota; private (metal3) pools hang off their provider. */
export function topologyDiagram(r: PlanReport): string {
  const lines = ['flowchart LR'];
  r.fleets.forEach((f, i) =>
    lines.push(
      `  f${i}["fleet ${label(f.name)}<br/>${f.hosts} hosts, cpu ${usePct(f.allocated, f.capacity, 'cpu')}%, memory ${usePct(f.allocated, f.capacity, 'memory')}%"]`,
    ),
  );
  const fleetId = new Map(r.fleets.map((f, i) => [f.name, `f${i}`]));
  r.quotas.forEach((x, i) => {
    lines.push(
      `  q${i}["quota ${label(x.name)} · ${label(x.organization)}<br/>cpu ${usePct(x.allocated, x.limits, 'cpu')}%, memory ${usePct(x.allocated, x.limits, 'memory')}%"]`,
    );
    if (fleetId.has(x.fleet)) lines.push(`  ${fleetId.get(x.fleet)} --> q${i}`);
  });
  lines.push(...poolBoxes(r));
  return lines.join('\n');
}

function poolBoxes(r: PlanReport): string[] {
  const quotaId = new Map(r.quotas.map((x, i) => [x.name, `q${i}`]));
  const lines: string[] = [];
  const parentOf = (p: PlanReport['pools'][number]): string => {
    if (p.quota !== undefined && quotaId.has(p.quota)) return quotaId.get(p.quota)!;
    const id = `v${label(p.provider ?? 'none').replace(/[^A-Za-z0-9]/g, '_')}`;
    if (!lines.some((l) => l.startsWith(`  ${id}[`))) lines.push(`  ${id}["provider ${label(p.provider ?? '(none)')}"]`);
    return id;
  };
  if (r.pools.length <= MAX_POOL_BOXES) {
    r.pools.forEach((p, i) => {
      const parent = parentOf(p);
      lines.push(`  p${i}["pool ${label(p.name)}<br/>${p.nodes.length} x ${label(p.nodeType || '-')}"]`, `  ${parent} --> p${i}`);
    });
    return lines;
  }
  const byParent = new Map<string, { pools: number; nodes: number }>();
  for (const p of r.pools) {
    const parent = parentOf(p);
    const agg = byParent.get(parent) ?? { pools: 0, nodes: 0 };
    byParent.set(parent, { pools: agg.pools + 1, nodes: agg.nodes + p.nodes.length });
  }
  [...byParent].forEach(([parent, agg], i) => lines.push(`  g${i}["${agg.pools} pools<br/>${agg.nodes} nodes"]`, `  ${parent} --> g${i}`));
  return lines;
}

/** Per host (or, for big fleets, hosts per 10 % band of use): cpu as bars, memory as a line. */
export function hostChart(f: PlanReport['fleets'][number]): string {
  const hosts = f.hostUsage ?? [];
  const pct = (h: (typeof hosts)[number], res: string) => {
    const p = usePct(h.used, h.allocatable, res);
    return p === '-' ? 0 : p === '<1' ? 1 : Number(p);
  };
  if (hosts.length <= MAX_HOST_BARS) {
    return [
      'xychart-beta',
      `  title "Fleet ${label(f.name)}: cpu (bars) and memory (line) used, % of each host's allocatable"`,
      `  x-axis [${hosts.map((h) => `"${label(h.name)}"`).join(', ')}]`,
      '  y-axis "% used" 0 --> 100',
      `  bar [${hosts.map((h) => pct(h, 'cpu')).join(', ')}]`,
      `  line [${hosts.map((h) => pct(h, 'memory')).join(', ')}]`,
    ].join('\n');
  }
  const bands = (res: string) => {
    const n = Array.from({ length: 10 }, () => 0);
    for (const h of hosts) n[Math.min(9, Math.floor(pct(h, res) / 10))]++;
    return n;
  };
  return [
    'xychart-beta',
    `  title "Fleet ${label(f.name)}: hosts by use, cpu (bars) and memory (line)"`,
    `  x-axis "% of allocatable used" [${Array.from({ length: 10 }, (_, i) => `"${i * 10}-${i === 9 ? 100 : i * 10 + 9}"`).join(', ')}]`,
    `  y-axis "hosts" 0 --> ${hosts.length}`,
    `  bar [${bands('cpu').join(', ')}]`,
    `  line [${bands('memory').join(', ')}]`,
  ].join('\n');
}
