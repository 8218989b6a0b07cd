/** Runs the example app the way `cdktf synth` does (a child process), into a fresh output directory. */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from './models';
import { inlineForEach, instancesByAddress } from './stack-objects';

export function synthExample(env: Record<string, string> = {}): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-synth-'));
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'app.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, CHECKPOINT_DISABLE: '1', CDKTF_OUTDIR: outdir, ...env },
    stdio: 'pipe',
  });
  return outdir;
}

/** Every file under `dir`, relative path -> content. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.set(path.relative(dir, full), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

type Resources = Record<string, Record<string, { '//'?: { metadata: { path: string } } }>>;

/** `type.name` -> resource JSON, from a cdk.tf.json. */
export function resourcesOf(stackJson: string): Map<string, { path: string; body: string }> {
  // A resource's `for_each` as the map its local holds: what a test compares of a resource is its instances' keys.
  const resources = inlineForEach(JSON.parse(stackJson) as { resource: Resources; locals?: Record<string, unknown> }).resource;
  const out = new Map<string, { path: string; body: string }>();
  for (const [type, byName] of Object.entries(resources)) {
    for (const [name, body] of Object.entries(byName)) out.set(`${type}.${name}`, { path: body['//']!.metadata.path, body: JSON.stringify(body) });
  }
  return out;
}

/**
 * What one stack's node-drain or node-end resource (constructs/parts/node-drain.ts) gained between two synths, and
 * whether nothing else of it changed.
 */
export function drainDelta(before: string, after: string): { nodes: string[]; dependsOn: string[]; restUnchanged: boolean } {
  type Drain = { for_each: Record<string, unknown>; depends_on?: string[] };
  const [a, b] = [JSON.parse(before) as Drain, JSON.parse(after) as Drain];
  const nodes = Object.keys(b.for_each).filter((k) => !(k in a.for_each));
  const dependsOn = (b.depends_on ?? []).filter((d) => !(a.depends_on ?? []).includes(d));
  const rest = {
    ...b,
    for_each: Object.fromEntries(Object.entries(b.for_each).filter(([k]) => !nodes.includes(k))),
    ...(b.depends_on ? { depends_on: b.depends_on.filter((d) => !dependsOn.includes(d)) } : {}),
  };
  return { nodes, dependsOn, restUnchanged: JSON.stringify(rest) === JSON.stringify(a) };
}

/**
 * `type.name` (or `type.name["key"]` for an instance of a `for_each`) -> the instance's arguments as Terraform
 * evaluates them for its key (stack-objects.ts `resourceInstances`), from a cdk.tf.json.
 */
export function instancesOf(stackJson: string): Map<string, { path: string; body: string }> {
  const instances = instancesByAddress<{ '//'?: { metadata: { path: string } } }>(JSON.parse(stackJson) as object);
  return new Map([...instances].map(([address, body]) => [address, { path: body['//']!.metadata.path, body: JSON.stringify(body) }]));
}

/** The `moved` blocks of a cdk.tf.json, as `from -> to`. */
export function movesOf(stackJson: string): string[] {
  return ((JSON.parse(stackJson) as { moved?: { from: string; to: string }[] }).moved ?? []).map((m) => `${m.from} -> ${m.to}`);
}

/** Whether a resource key is a stack's node-end resource (a node's Node deleted once its machine is gone). */
export const isNodeEndKey = (key: string): boolean => /^terraform_data\.node-drains-.+_End(-\d+)?_[0-9A-F]{8}(\["[^"]+"\])?$/.test(key);

/** Whether a resource key is a stack's node-drain resource. */
export const isDrainKey = (key: string): boolean => key.startsWith('terraform_data.node-drains-') && !isNodeEndKey(key);

/** Whether a resource key is a pool's rollout (constructs/parts/node-rollout.ts). */
export const isRolloutKey = (key: string): boolean => /^terraform_data\..+_rollout_[0-9A-F]{8}$/.test(key);

/**
 * What a pool's rollout gained between two synths: the `depends_on` entries it gained (a node's VM, user data and
 * token, which it runs after), the nodes its provisioner gained, and whether nothing else changed. Terraform's plan
 * shows neither `depends_on` nor a provisioner's arguments, so a rollout that gained only these is unchanged in
 * `tofu plan`.
 */
export function rolloutDelta(before: string, after: string): { dependsOn: string[]; nodes: string[]; restUnchanged: boolean } {
  type Rollout = { depends_on: string[]; provisioner: { 'local-exec': { environment: Record<string, string> } }[] };
  const [a, b] = [JSON.parse(before) as Rollout, JSON.parse(after) as Rollout];
  const dependsOn = b.depends_on.filter((d) => !a.depends_on.includes(d));
  const nodesOf = (r: Rollout) => r.provisioner[0]['local-exec'].environment.METALSLICE_NODES.split(',');
  const nodes = nodesOf(b).filter((n) => !nodesOf(a).includes(n));
  // The node list is the provisioner's argument (no planned change): with the new node taken out, the rest is the same.
  const rest = JSON.parse(JSON.stringify(b)) as Rollout;
  rest.depends_on = b.depends_on.filter((d) => !dependsOn.includes(d));
  rest.provisioner[0]['local-exec'].environment.METALSLICE_NODES = nodesOf(b)
    .filter((n) => !nodes.includes(n))
    .join(',');
  return { dependsOn, nodes, restUnchanged: JSON.stringify(rest) === JSON.stringify(a) };
}
