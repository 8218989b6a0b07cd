/** Plan reports for people (Markdown, for pull requests) and machines (stable JSON). */
import { PlanReport } from './plan';

/** JSON with a trailing newline; key order is the order the report builds them in, which is fixed. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

function resources(r: Record<string, string>): string {
  const entries = Object.entries(r);
  return entries.length === 0 ? '-' : entries.map(([k, v]) => `${k} ${v}`).join(', ');
}

export function renderPlanMarkdown(report: PlanReport, changes?: PlanChanges): string {
  const out: string[] = ['# metalslice capacity plan', '', report.ok ? 'Everything fits.' : `**${report.errors.length} problem(s): nothing fits until they are fixed.**`, ''];
  if (report.errors.length > 0) {
    out.push('## Problems', '', ...report.errors.map((e) => `- \`${e.path}\`: ${e.message}`), '');
  }
  if (report.warnings.length > 0) {
    out.push('## Warnings', '', ...report.warnings.map((e) => `- \`${e.path}\`: ${e.message}`), '');
  }
  if (report.fleets.length > 0) {
    out.push('## Fleets', '', table(['fleet', 'hosts', 'capacity', 'quota limits', 'allocated', 'free'], report.fleets.map((f) => [f.name, String(f.hosts), resources(f.capacity), resources(f.quotaLimits), resources(f.allocated), resources(f.free)])), '');
  }
  if (report.quotas.length > 0) {
    out.push('## Quotas', '', table(['quota', 'organization', 'fleet', 'namespace', 'limits', 'allocated', 'VMs'], report.quotas.map((q) => [q.name, q.organization, q.fleet, q.namespace, resources(q.limits), resources(q.allocated), String(q.virtualMachines)])), '');
  }
  if (report.pools.length > 0) {
    out.push(
      '## Pools',
      '',
      table(
        ['pool', 'kind', 'cluster', 'node type', 'nodes', 'shape', 'per node with overhead'],
        report.pools.map((p) => [p.name, p.kind, p.cluster, p.nodeType, String(p.nodes.length), resources(p.shape), resources(p.footprint)]),
      ),
      '',
      ...report.pools.flatMap((p) => (p.preview ? [`- preview of \`${p.name}\`: ${p.preview.summary}`, ''] : [])),
      '## Placement',
      '',
      table(
        ['node', 'pool', 'host'],
        report.pools.flatMap((p) => p.nodes.map((n) => [n.name, p.name, n.host ?? '(not placed)'])),
      ),
      '',
    );
  }
  if (changes) {
    out.push('## Changes since the previous plan', '');
    if (changes.added.length + changes.removed.length + changes.moved.length === 0) out.push('No node changes.');
    for (const n of changes.added) out.push(`- added \`${n}\``);
    for (const n of changes.removed) out.push(`- removed \`${n}\``);
    for (const m of changes.moved) out.push(`- moved \`${m.node}\` from ${m.from ?? '(unplaced)'} to ${m.to ?? '(unplaced)'}`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** What changed between two plans: nodes added, removed, or moved to another host. */
export interface PlanChanges {
  readonly added: string[];
  readonly removed: string[];
  readonly moved: { node: string; from: string | null; to: string | null }[];
}

export function diffPlans(before: PlanReport, after: PlanReport): PlanChanges {
  const index = (r: PlanReport) => new Map((r.pools ?? []).flatMap((p) => p.nodes.map((n) => [`${p.name}/${n.name}`, n.host] as const)));
  const a = index(before);
  const b = index(after);
  return {
    added: [...b.keys()].filter((k) => !a.has(k)).sort(),
    removed: [...a.keys()].filter((k) => !b.has(k)).sort(),
    moved: [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)).sort().map((k) => ({ node: k, from: a.get(k) ?? null, to: b.get(k) ?? null })),
  };
}
