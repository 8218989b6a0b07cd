/**
 * The plan review as a document: what it says and in which order, independent of how it is printed. Text
 * (terminal) and Markdown (pull requests) render these blocks; the order puts what a reviewer decides on
 * first: the verdict, N+1 headroom, what changed, problems and warnings, then the tables, longest last.
 */
import { issueWhere, PlanIssue } from '../base/errors';
import type { PlanReport } from '../plan/types';
import { Quantity } from '../base/quantity';
import { resourceNames } from '../base/resources';
import type { PlanChanges } from '../plan/change/diff';
import { summarizeChanges } from './changes';
import { hostChart, topologyDiagram } from './diagrams';
import { columnUnit, count, DisplayUnit, inUnit, percent, unitHeader, usageCell } from '../base/units';

/** How a line should stand out (colour in a terminal, an emoji in Markdown). */
export type Tone = 'ok' | 'warning' | 'error' | 'change' | 'plain';

export interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
}

export type Block =
  | { readonly kind: 'title'; readonly text: string }
  | { readonly kind: 'heading'; readonly text: string }
  /** Kept whole whatever the size limit: the verdict, problems, warnings, the summary of changes. */
  | { readonly kind: 'lines'; readonly items: readonly string[]; readonly tone: Tone; readonly bullets: boolean }
  /** May be folded and cut to fit a size limit. */
  | { readonly kind: 'table'; readonly name: string; readonly columns: readonly Column[]; readonly rows: readonly (readonly string[])[] }
  /** Markdown only: GitHub draws it. */
  | { readonly kind: 'mermaid'; readonly name: string; readonly code: string };

type Report = PlanReport;
type Fleet = Report['fleets'][number];

const q = (s: string | undefined): Quantity => Quantity.parse(s ?? '0');

/** The resources worth a column: what fleets and quotas are sized in (not pods or ephemeral storage). */
function shownResources(...maps: readonly Readonly<Record<string, string>>[]): string[] {
  return resourceNames(...maps.map((m) => Object.fromEntries(Object.keys(m).map((k) => [k, Quantity.ZERO])))).filter(
    (r) => r !== 'pods' && r !== 'ephemeral-storage',
  );
}

/** Columns of used/limit cells, one per resource, each in one unit chosen from the column's limits. */
function usageColumns<T>(
  items: readonly T[],
  resources: readonly string[],
  used: (t: T) => Readonly<Record<string, string>>,
  limit: (t: T) => Readonly<Record<string, string>>,
): { columns: Column[]; cells: (t: T) => string[] } {
  // The limits choose the unit: the used side reads as a share of them.
  const units = new Map<string, DisplayUnit>(
    resources.map((r) => [
      r,
      columnUnit(
        r,
        items.map((t) => q(limit(t)[r])),
      ),
    ]),
  );
  return {
    columns: resources.map((r) => ({ header: `${unitHeader(r, units.get(r)!)} used / limit`, align: 'left' as const })),
    cells: (t) => resources.map((r) => (limit(t)[r] === undefined && used(t)[r] === undefined ? '-' : usageCell(q(used(t)[r]), q(limit(t)[r]), units.get(r)!))),
  };
}

function verdict(r: Report): Block {
  if (!r.ok)
    return {
      kind: 'lines',
      tone: 'error',
      bullets: false,
      items: [
        `${count(r.errors.length)} problem${r.errors.length === 1 ? '' : 's'}: the plan does not fit, and nothing is deployed until ${r.errors.length === 1 ? 'it is' : 'they are'} fixed.`,
      ],
    };
  const vms = r.pools.reduce((n, p) => n + p.nodes.length, 0);
  const scope = `${count(vms)} node${vms === 1 ? '' : 's'} in ${r.pools.length} pool${r.pools.length === 1 ? '' : 's'}, ${r.quotas.length} quota${r.quotas.length === 1 ? '' : 's'}, ${r.fleets.length} fleet${r.fleets.length === 1 ? '' : 's'}`;
  if (r.warnings.length > 0)
    return {
      kind: 'lines',
      tone: 'warning',
      bullets: false,
      items: [`Fits, with ${r.warnings.length} warning${r.warnings.length === 1 ? '' : 's'} to read below (${scope}).`],
    };
  return { kind: 'lines', tone: 'ok', bullets: false, items: [`Everything fits (${scope}).`] };
}

function headroomLine(f: Fleet): { text: string; ok: boolean } | undefined {
  const h = f.headroom;
  if (!h) return undefined;
  const parts: string[] = [];
  const worst = (l: readonly { name: string; stranded: number }[]) =>
    l
      .slice(0, 3)
      .map((c) => `${c.name} (${c.stranded} VM${c.stranded === 1 ? '' : 's'} stranded)`)
      .join(', ') + (l.length > 3 ? ` and ${l.length - 3} more` : '');
  parts.push(
    h.hosts.ok
      ? `fleet ${f.name} can lose any one of its ${h.hosts.checked} hosts`
      : `fleet ${f.name} cannot lose ${h.hosts.critical.length} of its ${h.hosts.checked} hosts: ${worst(h.hosts.critical)}`,
  );
  const d = h.failureDomain;
  if (d && d.checked === 0) parts.push(`no host has the label ${d.label}`);
  else if (d) parts.push(d.ok ? `any one ${d.label} of ${d.checked}` : `cannot lose ${d.label} ${worst(d.critical)}`);
  const ok = h.hosts.ok && (d?.ok ?? true);
  return { text: `N+1: ${parts.join('; ')}${h.required ? ' (required)' : ''}.`, ok };
}

function headroomLines(r: Report): Block[] {
  const lines = r.fleets.map(headroomLine).filter((l): l is { text: string; ok: boolean } => l !== undefined);
  if (lines.length === 0) return [];
  return [{ kind: 'lines', tone: lines.every((l) => l.ok) ? 'ok' : 'warning', bullets: false, items: lines.map((l) => l.text) }];
}

function issueBlocks(r: Report): Block[] {
  const out: Block[] = [];
  const issue = (e: PlanIssue) => `\`${issueWhere(e)}\`: ${e.message}`;
  if (r.errors.length > 0) out.push({ kind: 'heading', text: 'Problems' }, { kind: 'lines', tone: 'error', bullets: true, items: r.errors.map(issue) });
  if (r.warnings.length > 0) out.push({ kind: 'heading', text: 'Warnings' }, { kind: 'lines', tone: 'warning', bullets: true, items: r.warnings.map(issue) });
  return out;
}

function changeBlocks(c: PlanChanges | undefined): Block[] {
  if (!c) return [];
  return [
    { kind: 'heading', text: 'Changes since the previous plan' },
    { kind: 'lines', tone: 'change', bullets: true, items: summarizeChanges(c) },
  ];
}

function fleetBlocks(r: Report): Block[] {
  if (r.fleets.length === 0) return [];
  const resources = shownResources(...r.fleets.map((f) => f.capacity));
  const usage = usageColumns(
    r.fleets,
    resources,
    (f) => f.allocated,
    (f) => f.capacity,
  );
  const reserve = r.fleets.map((f) => {
    const shares = shownResources(f.quotaLimits).map((res) => `${res} ${percent(q(f.quotaLimits[res]), q(f.capacity[res])) ?? '-'}%`);
    return `Quotas on ${f.name} reserve ${shares.length > 0 ? shares.join(', ') : 'nothing'} of its capacity.`;
  });
  return [
    { kind: 'heading', text: 'Fleets' },
    {
      kind: 'table',
      name: 'fleets',
      columns: [{ header: 'fleet', align: 'left' }, { header: 'hosts', align: 'right' }, ...usage.columns],
      rows: r.fleets.map((f) => [f.name, String(f.hosts), ...usage.cells(f)]),
    },
    { kind: 'lines', tone: 'plain', bullets: false, items: reserve },
  ];
}

function quotaBlocks(r: Report): Block[] {
  if (r.quotas.length === 0) return [];
  const resources = shownResources(...r.quotas.map((x) => x.limits));
  const usage = usageColumns(
    r.quotas,
    resources,
    (x) => x.allocated,
    (x) => x.limits,
  );
  const columns: Column[] = [
    { header: 'quota', align: 'left' },
    { header: 'organization', align: 'left' },
    { header: 'fleet', align: 'left' },
    { header: 'VMs', align: 'right' },
    ...usage.columns,
  ];
  return [
    { kind: 'heading', text: 'Quotas' },
    { kind: 'table', name: 'quotas', columns, rows: r.quotas.map((x) => [x.name, x.organization, x.fleet, String(x.virtualMachines), ...usage.cells(x)]) },
  ];
}

/** Guest and on-host (with KubeVirt's overhead) per node, in one unit per column. */
function poolBlocks(r: Report): Block[] {
  if (r.pools.length === 0) return [];
  const resources = shownResources(...r.pools.map((p) => p.shape));
  const units = new Map(
    resources.map((res) => [
      res,
      columnUnit(
        res,
        r.pools.flatMap((p) => [q(p.shape[res]), q(p.footprint[res])]),
      ),
    ]),
  );
  const cell = (p: Report['pools'][number], res: string) => {
    const guest = p.shape[res];
    const host = p.footprint[res];
    if (guest === undefined && host === undefined) return '-';
    const g = inUnit(q(guest), units.get(res)!);
    const h = inUnit(q(host), units.get(res)!);
    return host === undefined || g === h ? g : `${g} (${h})`;
  };
  const columns: Column[] = [
    { header: 'pool', align: 'left' },
    { header: 'kind', align: 'left' },
    { header: 'cluster', align: 'left' },
    { header: 'node type', align: 'left' },
    { header: 'nodes', align: 'right' },
    ...resources.map((res) => ({ header: unitHeader(res, units.get(res)!), align: 'right' as const })),
    { header: 'cost', align: 'right' },
  ];
  const previews = r.pools.flatMap((p) => (p.preview ? [`preview of \`${p.name}\`: ${previewText(p.preview)}`] : []));
  return [
    { kind: 'heading', text: 'Pools' },
    {
      kind: 'lines',
      tone: 'plain',
      bullets: false,
      items: ["Per node: the guest, and in brackets what it takes from its host with KubeVirt's launcher pod overhead. Cost in vCluster's cost units."],
    },
    {
      kind: 'table',
      name: 'pools',
      columns,
      rows: r.pools.map((p) => [
        p.name,
        p.kind,
        p.cluster,
        p.nodeType,
        String(p.nodes.length),
        ...resources.map((res) => cell(p, res)),
        typeof p.cost === 'number' ? String(p.cost) : '-',
      ]),
    },
    ...(previews.length > 0 ? [{ kind: 'lines' as const, tone: 'plain' as const, bullets: true, items: previews }] : []),
    ...groupLines(r),
    ...nodeSoftwareLines(r),
  ];
}

/** Where each tenant cluster's nodes get containerd, kubelet and kubeadm, and which pools that is. */
function nodeSoftwareLines(r: Report): Block[] {
  const clusters = (r.clusters ?? []).filter((c) => r.pools.some((p) => p.cluster === c.name));
  if (clusters.length === 0) return [];
  const items = clusters.map((c) => {
    const pools = r.pools.filter((p) => p.cluster === c.name).map((p) => `\`${p.name}\``);
    return `node software of ${pools.join(', ')} (cluster \`${c.name}\`): ${c.nodeSoftware}`;
  });
  return [{ kind: 'lines', tone: 'plain', bullets: true, items }];
}

/** Where kube-scheduler may put each KubeVirt pool's VMs, and the room they have to migrate on a drain. */
function groupLines(r: Report): Block[] {
  const pools = r.pools.filter((p) => p.launcher && p.nodes.length > 0);
  if (pools.length === 0) return [];
  const columns: Column[] = [
    { header: 'pool', align: 'left' },
    { header: 'placement', align: 'left' },
    { header: 'hosts', align: 'right' },
    { header: 'most per host', align: 'right' },
    { header: 'migration targets', align: 'right' },
    { header: 'whole drain', align: 'left' },
    { header: 'group', align: 'left' },
  ];
  const rows = pools.map((p) => {
    const l = p.launcher!;
    const g = l.group;
    const hosts = g?.hosts;
    const shown = hosts ? (hosts.length > 8 ? `${hosts.slice(0, 8).join(', ')} and ${hosts.length - 8} more` : hosts.join(', ')) : g ? 'the whole fleet' : '-';
    return [
      p.name,
      l.placement === 'planned' ? 'pinned' : hosts ? 'group' : 'spread',
      g ? String(g.size) : '-',
      g ? String(g.perHost) : '-',
      g ? String(g.migrationTargets) : '-',
      g ? (g.wholeDrain ? 'yes' : 'no') : '-',
      shown,
    ];
  });
  return [
    {
      kind: 'lines',
      tone: 'plain',
      bullets: false,
      items: [
        'Placement: pinned VMs stay on their planned host (a drain shuts them down); spread ones go where kube-scheduler puts them in their group, never more than the most per host. Migration targets: hosts of the group certain, whatever kube-scheduler chose, to take a VM of any drained host of the group (0: a drain may wait for room). Whole drain: yes when, whatever kube-scheduler chose, every VM of any one drained host has room in its group.',
      ],
    },
    { kind: 'table', name: 'pool placement', columns, rows },
  ];
}

/** A dynamic pool's preview, with what its lower bound means. */
function previewText(p: NonNullable<Report['pools'][number]['preview']>): string {
  const gap = p.lowerBound > 0 ? Math.round(((p.cost - p.lowerBound) / p.lowerBound) * 100) : 0;
  return `${p.summary}. The lower bound is proven: no mix of the matching node types can hold these pods for less, so this mix costs at most ${gap}% more than the cheapest possible one.`;
}

function headroomBlocks(r: Report): Block[] {
  const rows = r.fleets.flatMap((f) => {
    const h = f.headroom;
    if (!h) return [];
    const hosts = h.hosts.critical.map((c) => [f.name, 'host', c.name, String(c.vms), String(c.stranded)]);
    const domains = (h.failureDomain?.critical ?? []).map((c) => [
      f.name,
      `${h.failureDomain!.label} (${c.hosts} hosts)`,
      c.name,
      String(c.vms),
      String(c.stranded),
    ]);
    return [...hosts, ...domains];
  });
  if (rows.length === 0) return [];
  const columns: Column[] = [
    { header: 'fleet', align: 'left' },
    { header: 'lost', align: 'left' },
    { header: 'name', align: 'left' },
    { header: 'VMs on it', align: 'right' },
    { header: 'VMs stranded', align: 'right' },
  ];
  return [
    { kind: 'heading', text: 'N+1 headroom: losses that strand VMs' },
    {
      kind: 'lines',
      tone: 'plain',
      bullets: false,
      items: ['If this host (or failure domain) is lost, the other hosts have no room for this many of its VMs, as the placement engine re-places them.'],
    },
    { kind: 'table', name: 'critical hosts', columns, rows },
  ];
}

function hostBlocks(r: Report): Block[] {
  const hosts = r.fleets.flatMap((f) => (f.hostUsage ?? []).map((h) => ({ fleet: f.name, ...h })));
  if (hosts.length === 0) return [];
  const resources = shownResources(...hosts.map((h) => h.allocatable));
  const usage = usageColumns(
    hosts,
    resources,
    (h) => h.used,
    (h) => h.allocatable,
  );
  const columns: Column[] = [{ header: 'host', align: 'left' }, { header: 'fleet', align: 'left' }, { header: 'VMs', align: 'right' }, ...usage.columns];
  return [
    { kind: 'heading', text: 'Hosts' },
    { kind: 'table', name: 'hosts', columns, rows: hosts.map((h) => [h.name, h.fleet, String(h.vms), ...usage.cells(h)]) },
  ];
}

function pictureBlocks(r: Report): Block[] {
  if (r.fleets.length === 0 && r.pools.length === 0) return [];
  const charts = r.fleets.flatMap((f) =>
    (f.hostUsage ?? []).length > 0 ? [{ kind: 'mermaid' as const, name: `host chart of ${f.name}`, code: hostChart(f) }] : [],
  );
  return [{ kind: 'heading', text: 'Picture' }, { kind: 'mermaid', name: 'fleets, quotas and pools', code: topologyDiagram(r) }, ...charts];
}

function changedNodeBlocks(c: PlanChanges | undefined): Block[] {
  if (!c) return [];
  const rows = [
    ...c.added.map((n) => ['added', n, '', '']),
    ...c.removed.map((n) => ['removed', n, '', '']),
    ...c.moved.map((m) => ['moved', m.node, m.from ?? '(not placed)', m.to ?? '(not placed)']),
    ...c.nodeTypes.map((t) => ['node type', t.node, t.before, t.after]),
  ];
  if (rows.length === 0) return [];
  const columns: Column[] = [
    { header: 'change', align: 'left' },
    { header: 'pool/node', align: 'left' },
    { header: 'before', align: 'left' },
    { header: 'after', align: 'left' },
  ];
  return [
    { kind: 'heading', text: 'Changes, node by node' },
    { kind: 'table', name: 'changed nodes', columns, rows },
  ];
}

function placementBlocks(r: Report): Block[] {
  // A static pool with neither fleet nor hosts is a terraform provider's: vCluster Platform makes its nodes elsewhere.
  const nowhere = (p: Report['pools'][number]) => (p.kind === 'static' && p.fleet === undefined ? '(made by vCluster Platform)' : '(not placed)');
  const rows = r.pools.flatMap((p) => p.nodes.map((n) => [n.name, p.name, n.nodeType ?? p.nodeType, n.host ?? nowhere(p)]));
  if (rows.length === 0) return [];
  const columns: Column[] = [
    { header: 'node', align: 'left' },
    { header: 'pool', align: 'left' },
    { header: 'node type', align: 'left' },
    { header: 'host', align: 'left' },
  ];
  return [
    { kind: 'heading', text: 'Placement' },
    { kind: 'table', name: 'placement', columns, rows },
  ];
}

/** The whole review, in reading order. */
export function planDocument(report: PlanReport, changes?: PlanChanges): Block[] {
  return [
    { kind: 'title', text: 'metalslice capacity plan' },
    verdict(report),
    ...headroomLines(report),
    ...changeBlocks(changes),
    ...issueBlocks(report),
    ...fleetBlocks(report),
    ...quotaBlocks(report),
    ...poolBlocks(report),
    ...headroomBlocks(report),
    ...pictureBlocks(report),
    ...hostBlocks(report),
    ...changedNodeBlocks(changes),
    ...placementBlocks(report),
  ];
}
