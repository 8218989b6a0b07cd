/**
 * What changed since a previous plan, in words: the short lines a review starts with (plain text; each format adds
 * its own marks). What changed is decided by core/plan/change/diff.ts; this file only says it.
 */
import { Quantity } from '../base/quantity';
import { readable, readableDelta } from '../base/units';
import { hasChanges, type HostGroupChange, type PlanChanges, type PoolChange, type ResourceDelta } from '../plan/change/diff';
import { HOSTS_RESOURCE, peakInHosts } from '../plan/change/host-rollout';

function deltaText(d: ResourceDelta): string {
  return Object.entries(d)
    .map(([name, q]) => `${name} ${readableDelta(name, Quantity.parse(q))}`)
    .join(', ');
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

/**
 * `surge 1 on bm-c07, then 1 at a time; quota peak cpu 100 cores, memory 525 Gi`; a pool of whole hosts, whose
 * peak is counted in hosts: `...; peak 5 hosts held`.
 */
function rollText(r: NonNullable<PoolChange['roll']>): string {
  const surge = r.maxSurge > 0 ? `surge ${r.maxSurge}${r.surgeHosts.length > 0 ? ` on ${r.surgeHosts.join(', ')}` : ''}` : 'no surge';
  const at = `${surge}, ${r.maxSurge + r.maxUnavailable} at a time${r.maxUnavailable > 0 ? `, ${r.maxUnavailable} out of service` : ''}`;
  if (peakInHosts(r.peak)) return `${at}; peak ${r.peak[HOSTS_RESOURCE]} hosts held`;
  const peak = Object.entries(r.peak)
    .filter(([name]) => name === 'cpu' || name === 'memory')
    .map(([name, q]) => `${name} ${readable(name, Quantity.parse(q))}`)
    .join(', ');
  return `${at}; quota peak ${peak}`;
}

function poolLine(p: PoolChange): string {
  const parts = [`${p.before} → ${p.after} nodes`];
  if (p.added > 0) parts.push(`${p.added} added`);
  if (p.removed > 0) parts.push(`${p.removed} removed`);
  if (p.moved > 0) parts.push(`${p.moved} moved to another host`);
  if (p.shape) {
    const what = Object.keys(p.shape.after)
      .map((k) => `${k} ${p.shape!.before[k]} → ${p.shape!.after[k]}`)
      .join(', ');
    parts.push(`shape ${what}`);
  }
  if (p.replaced > 0) parts.push(`${p.replaced} replaced${p.roll ? ` (${rollText(p.roll)})` : ''}`);
  if (p.roll?.problem !== undefined)
    parts.push(
      `the roll does not fit: ${p.roll.problem}; ${p.roll.fits ? `{maxSurge: ${p.roll.fits.maxSurge}, maxUnavailable: ${p.roll.fits.maxUnavailable}} does` : 'no roll does'}`,
    );
  if (p.nodeType) parts.push(`node type ${p.nodeType.before} → ${p.nodeType.after}`);
  return `pool ${p.pool}: ${parts.join(', ')}`;
}

/** `pool web: host group (label group.metalslice.io/shop.web) bm-07 joins, bm-03 leaves; Node labels only, ...`. */
function groupLine(g: HostGroupChange): string {
  const hosts = (list: readonly string[], verb: string) => (list.length === 0 ? [] : [`${list.join(', ')} ${list.length === 1 ? `${verb}s` : verb}`]);
  const what = [...hosts(g.joined, 'join'), ...hosts(g.left, 'leave')].join(', ');
  const label = g.label !== undefined ? ` (label ${g.label})` : '';
  const selector =
    g.selector === 'confined'
      ? "; its VMs' nodeSelector gains the label, which KubeVirt stages (RestartRequired) until each VM next starts"
      : g.selector === 'released'
        ? "; its VMs' nodeSelector drops the label, which KubeVirt stages (RestartRequired) until each VM next starts"
        : '';
  return `pool ${g.pool}: host group${label} ${what}: Node labels only, no VM is moved (one already on a host that leaves stays there until it restarts)${selector}`;
}

/** The change in short lines, most important first; plain text (each format adds its own marks). */
export function summarizeChanges(c: PlanChanges): string[] {
  if (!hasChanges(c)) return ['No changes since the previous plan.'];
  const lines: string[] = [];
  if (c.ok.before !== c.ok.after) lines.push(c.ok.after ? 'The previous plan failed; this one fits.' : 'The previous plan fitted; this one does not.');
  const replaced = c.replaced ?? [];
  lines.push(
    `nodes: ${c.added.length} added, ${c.removed.length} removed, ${replaced.length} replaced, ${c.moved.length} moved${c.nodeTypes.length > 0 ? `, ${c.nodeTypes.length} changed node type` : ''}`,
  );
  lines.push(...c.pools.map(poolLine));
  if (replaced.length > 0)
    lines.push(
      `${replaced.length} running node(s) cannot take the change in place: the deploy replaces each (surge nodes join first, then each old node is drained and restarted on the new revision), pool after pool (README "Changing a fleet")`,
    );
  lines.push(...(c.regrouped ?? []).map(groupLine));
  for (const q of c.quotas) {
    if (q.status !== 'changed') lines.push(`quota ${q.quota} ${q.status}`);
    if (Object.keys(q.limits).length > 0) lines.push(`quota ${q.quota} limits: ${deltaText(q.limits)}`);
    if (Object.keys(q.allocated).length > 0) lines.push(`quota ${q.quota} allocated: ${deltaText(q.allocated)}`);
  }
  for (const f of c.fleets) {
    const hosts = f.hosts.before !== f.hosts.after ? `hosts ${f.hosts.before} → ${f.hosts.after} (${signed(f.hosts.after - f.hosts.before)})` : '';
    const capacity = Object.keys(f.capacity).length > 0 ? `capacity ${deltaText(f.capacity)}` : '';
    lines.push(`fleet ${f.fleet}${f.status !== 'changed' ? ` ${f.status}` : ''}: ${[hosts, capacity].filter(Boolean).join('; ')}`);
  }
  if (c.cost.delta !== 0) lines.push(`cost: ${c.cost.before} → ${c.cost.after} (${signed(c.cost.delta)}, vCluster cost units)`);
  return lines;
}
