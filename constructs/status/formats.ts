/**
 * `metalslice status` printed: kubectl-like tables (`-o wide` adds a row per node), JSON, Markdown for a pull
 * request or a deploy's summary, and Prometheus' text format for a node exporter's textfile collector. Every
 * string a cluster sent is escaped for the format it lands in: a Node name or an event message stays inert.
 */
import { stableJson } from '../core/report';
import { markdownCell, terminalText } from '../core/report/escape';
import { PROBLEM_REASONS } from './compare';
import { quantity } from './objects';
import type { FleetStatus, NodeStatus, PoolStatus, StatusProblem } from './types';

/** The formats `status -o` prints. */
export const STATUS_FORMATS = ['text', 'wide', 'json', 'markdown', 'prometheus'] as const;
/** One of them. */
export type StatusFormat = (typeof STATUS_FORMATS)[number];

/** Most problems the Markdown lists (the count is always given). */
const MAX_MARKDOWN_PROBLEMS = 100;

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = rows.map((r) => r.map(terminalText));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('   ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n');
}

function count(n: number | null): string {
  return n === null ? '-' : String(n);
}

/** How long ago, as kubectl prints an age: 45s, 12m, 3h, 5d. */
export function age(since: string | undefined, at: Date): string {
  const t = since === undefined ? NaN : Date.parse(since);
  if (!Number.isFinite(t)) return '-';
  const s = Math.max(0, Math.floor((at.getTime() - t) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.floor(s / 60)}m` : s < 172800 ? `${Math.floor(s / 3600)}h` : `${Math.floor(s / 86400)}d`;
}

function poolRows(pools: readonly PoolStatus[]): string[][] {
  return pools.map((p) => [p.cluster, p.name, p.kind, count(p.desired), String(p.existing), String(p.ready), String(p.upToDate), String(p.available)]);
}

function tenantWord(n: NodeStatus): string {
  const t = n.tenantNode;
  if (!t) return 'Unknown';
  if (!t.joined) return 'NotJoined';
  return [t.ready ? 'Ready' : 'NotReady', ...(t.cordoned ? [t.draining ? 'Draining' : 'Cordoned'] : [])].join(',');
}

function nodeRows(status: FleetStatus, at: Date): string[][] {
  return status.pools.flatMap((p) =>
    p.nodes.map((n) => [
      n.name,
      p.name,
      n.machine,
      n.instance ?? '-',
      n.plannedHost ?? '*',
      n.host ?? '-',
      n.revision === p.revision && (n.runningRevision === undefined || n.runningRevision === n.revision) ? 'current' : (n.runningRevision ?? n.revision ?? '-'),
      tenantWord(n),
      n.tenantNode?.kubeletVersion ?? '-',
      age(n.created, at),
    ]),
  );
}

/** A problem's object as both tables name it: `Kind namespace/name`, and its cluster unless it is the provider. */
function objectLabel(p: StatusProblem): string {
  const { kind, namespace, name, cluster } = p.object;
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}${cluster === 'provider' ? '' : ` (cluster ${cluster})`}`;
}

function problemLines(problems: readonly StatusProblem[], at: Date): string {
  return problems
    .map((p) => {
      const where = objectLabel(p);
      const lines = [`${p.reason}  ${where}${p.since ? `  since ${age(p.since, at)}` : ''}`, `  ${p.message}`];
      if (p.evidence) lines.push(`  evidence: ${p.evidence}`);
      lines.push(`  fix: ${p.remedy}`);
      return lines.map(terminalText).join('\n');
    })
    .join('\n');
}

/** The tables for people: pools, quotas, hosts, problems; `wide` adds a row per node. */
export function statusText(status: FleetStatus, wide: boolean): string {
  const at = new Date(status.observedAt);
  const out: string[] = [];
  out.push(table(['CLUSTER', 'POOL', 'KIND', 'DESIRED', 'EXISTING', 'READY', 'UP-TO-DATE', 'AVAILABLE'], poolRows(status.pools)));
  if (wide) out.push(table(['NODE', 'POOL', 'VM', 'VMI', 'PLANNED-HOST', 'HOST', 'REVISION', 'TENANT-NODE', 'KUBELET', 'AGE'], nodeRows(status, at)));
  if (status.quotas.length > 0)
    out.push(
      table(
        ['QUOTA', 'NAMESPACE', 'RESOURCE', 'USED', 'PLANNED-USE', 'HARD'],
        status.quotas.flatMap((q) => Object.keys(q.planned).map((k) => [q.name, q.namespace, k, q.used[k] ?? '-', q.plannedUse[k] ?? '-', q.hard[k] ?? '-'])),
      ),
    );
  if (status.fleets.length > 0)
    out.push(
      table(
        ['FLEET', 'HOSTS', 'SEEN', 'USABLE', 'NOT-READY', 'CORDONED', 'CAN-LOSE-ANY-HOST'],
        status.fleets.map((f) => [
          f.name,
          String(f.inventory),
          String(f.seen),
          String(f.usable),
          String(f.notReady.length),
          String(f.cordoned.length),
          f.canLoseAnyHost ? 'yes' : 'no',
        ]),
      ),
    );
  out.push(
    status.converged ? 'converged: the running fleet is what the plan says' : `${status.problems.length} problem(s):\n${problemLines(status.problems, at)}`,
  );
  return `${out.join('\n\n')}\n`;
}

/** The fleet now, in Markdown: for a pull request's report or a deploy's summary. */
export function statusMarkdown(status: FleetStatus): string {
  const at = new Date(status.observedAt);
  const cell = (s: string) => markdownCell(s);
  const row = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const out = [
    `### Fleet status: ${status.converged ? '✅ converged' : `❌ ${status.problems.length} problem(s)`}`,
    '',
    `Read at ${status.observedAt}.`,
    '',
    '| Cluster | Pool | Kind | Desired | Existing | Ready | Up to date | Available |',
    '|---|---|---|--:|--:|--:|--:|--:|',
    ...poolRows(status.pools).map(row),
  ];
  const shown = status.problems.slice(0, MAX_MARKDOWN_PROBLEMS);
  if (shown.length > 0) {
    out.push('', '| Problem | Object | Since | What | Fix |', '|---|---|---|---|---|');
    for (const p of shown)
      out.push(row([p.reason, objectLabel(p), p.since ? age(p.since, at) : '-', p.evidence ? `${p.message}. ${p.evidence}` : p.message, p.remedy]));
    if (status.problems.length > shown.length)
      out.push('', `${status.problems.length - shown.length} more problem(s): run \`metalslice status\` for all of them.`);
  }
  return `${out.join('\n')}\n`;
}

/** A Prometheus label value: backslash, double quote and newline escaped, as the text format asks. */
export function promLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function metric(lines: string[], name: string, help: string, samples: readonly [Record<string, string>, number][]): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
  for (const [labels, value] of samples) {
    const l = Object.entries(labels).map(([k, v]) => `${k}="${promLabel(v)}"`);
    lines.push(`${name}${l.length > 0 ? `{${l.join(',')}}` : ''} ${Number.isFinite(value) ? value : 'NaN'}`);
  }
}

/** Prometheus' text exposition format: gauges a textfile collector serves, one sample per pool, quota key, fleet and reason. */
export function statusPrometheus(status: FleetStatus): string {
  const quantityValue = (q: string) => quantity(q)?.toNumber() ?? NaN;
  const lines: string[] = [];
  metric(lines, 'metalslice_status_converged', 'Whether the running fleet is what the plan says (1) or not (0).', [[{}, status.converged ? 1 : 0]]);
  metric(lines, 'metalslice_status_observed_timestamp_seconds', 'When the clusters were read.', [[{}, Date.parse(status.observedAt) / 1000]]);
  metric(
    lines,
    'metalslice_cluster_readable',
    'Whether status could read the cluster.',
    status.clusters.map((c) => [{ cluster: c.name, role: c.role }, c.read ? 1 : 0]),
  );
  const states = ['desired', 'existing', 'ready', 'up_to_date', 'available'] as const;
  metric(
    lines,
    'metalslice_pool_nodes',
    "A pool's nodes by state, as Cluster API counts a MachineDeployment's machines (desired is absent for a dynamic pool).",
    status.pools.flatMap((p) => {
      const v = { desired: p.desired, existing: p.existing, ready: p.ready, up_to_date: p.upToDate, available: p.available };
      return states.filter((s) => v[s] !== null).map((s) => [{ cluster: p.cluster, pool: p.name, state: s }, v[s]!] as [Record<string, string>, number]);
    }),
  );
  metric(
    lines,
    'metalslice_quota',
    "A quota's ResourceQuota: hard and used as the API server has them, planned as the plan writes and counts them.",
    status.quotas.flatMap((q) =>
      Object.keys(q.planned).flatMap((k) =>
        (
          [
            ['hard', q.hard[k]],
            ['used', q.used[k]],
            ['planned_hard', q.planned[k]],
            ['planned_use', q.plannedUse[k]],
          ] as const
        )
          .filter(([, v]) => v !== undefined)
          .map(([kind, v]) => [{ quota: q.name, namespace: q.namespace, resource: k, kind }, quantityValue(v)] as [Record<string, string>, number]),
      ),
    ),
  );
  metric(
    lines,
    'metalslice_fleet_hosts',
    "A fleet's hosts by state against the inventory.",
    status.fleets.flatMap((f) =>
      (
        [
          ['inventory', f.inventory],
          ['seen', f.seen],
          ['usable', f.usable],
          ['not_ready', f.notReady.length],
          ['cordoned', f.cordoned.length],
        ] as const
      ).map(([state, v]) => [{ fleet: f.name, state }, v] as [Record<string, string>, number]),
    ),
  );
  metric(
    lines,
    'metalslice_fleet_can_lose_any_host',
    'Whether the fleet as it runs can lose any one host with every VM finding room on the others.',
    status.fleets.map((f) => [{ fleet: f.name }, f.canLoseAnyHost ? 1 : 0]),
  );
  const byReason = new Map<string, number>(PROBLEM_REASONS.map((r) => [r, 0]));
  for (const p of status.problems) byReason.set(p.reason, (byReason.get(p.reason) ?? 0) + 1);
  metric(
    lines,
    'metalslice_problems',
    'Problems status found, by reason.',
    [...byReason].map(([reason, n]) => [{ reason }, n]),
  );
  return `${lines.join('\n')}\n`;
}

/** `-o json`: the FleetStatus document (schema/metalslice-status.schema.json). */
export function statusJson(status: FleetStatus): string {
  return stableJson(status);
}
