/**
 * Deploy benchmark: what a user waits for in `cdktf deploy` and in a pull request's plan, at fleet size.
 * Against the test control plane (etcd, kube-apiserver with the upstream CRDs and KubeVirt's defaulting
 * imitated, from the cached toolchain) and the cached OpenTofu and providers, for fleets of 100 and 1,000
 * VMs (pools of 50), side by side in one run:
 *   - resources per VM (from the +1 plan: what one more node adds);
 *   - `tofu apply` from empty, a no-op `tofu plan`, and a `tofu plan` after scaling one pool by one (which must add
 *     that node's instances and change nothing else but, where the pool has a host group, its label on the one
 *     more host the group takes);
 *   - wall and CPU time (tofu and its providers), peak RSS (the largest of tofu and its providers);
 *   - the states' bytes and the dependencies their instances record, per VM, after the apply;
 * for these layouts:
 *   - `per-pool`: metalslice's layout for large fleets (`addConfigStacks`: fleets and quotas in one stack, a
 *     stack per node pool, VMs as `kubectl_manifest`); after a change only the stacks whose synthesized
 *     configuration changed are planned;
 *   - `one-stack`: the same config with `addConfig` in one stack;
 *   - `one-stack-per-node`: `one-stack` with every node of a pool as five resources of its own, as 0.2 to 0.5
 *     wrote them (each node's drain then records every VM of the stack: the state grows with the square);
 *   - `per-pool-manifest`: `per-pool` with every VM as a `kubernetes_manifest`, as the constructs emitted them
 *     before (what the resource type alone changes);
 *   - `per-pool-files`: `per-pool` with each pool's map of VM bodies and of user data documents read from a JSON file
 *     beside the stack instead of written as template strings (bench/file-locals.ts says why);
 *   - `baseline`: one stack with one `kubernetes_manifest` per VM and per Secret (the one-stack synth with every
 *     VM and Secret turned into a manifest), default settings.
 *
 *   npm run bench:deploy [-- --sizes 100,1000] [--layouts per-pool,one-stack,per-pool-manifest,per-pool-files,baseline] [--large-layouts per-pool,baseline]
 *                        [--parallelism 10,30] [--stacks-at-once 1,4] [--tofu-memory-limits off,400MiB] [--tofu default,/path/to/tofu]
 *                        [--skip-noop] [--json]
 *
 * With --json the last line is one JSON object with the ratios the goals are stated in. Needs the toolchain
 * (npm run setup). Takes about an hour at both sizes on 2 cores; not part of `npm test`.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { binary, REPO_ROOT, run, startCluster, TestCluster } from '../test/e2e/harness';
import { toFileLocals } from './file-locals';
import { kubectlToManifests, ManifestLayoutStack, toManifests, toRelease05 } from '../test/support/manifest-layout';
import { hostGroupLabel } from '../constructs/core/naming/derived';
import { judgePlusOne, PlusOneJudgement, ResourceChange } from './plus-one';

const PER_POOL = 50;
/** The +1 plan's file in each stack it plans, read back by `tofu show -json`. */
const PLUS_ONE_PLAN = 'plus-one.tfplan';
type Layout = 'per-pool' | 'one-stack' | 'one-stack-per-node' | 'per-pool-manifest' | 'per-pool-files' | 'baseline';

interface Measure {
  /** Wall time of the step: the base stack, then the pool stacks up to `--stacks-at-once` of them at a time. */
  readonly wallS: number;
  /** User + system CPU of tofu and its providers. */
  readonly cpuS: number;
  /** The largest resident set of tofu or one of its providers, MiB. */
  readonly peakRssMiB: number;
  /** Stacks run. */
  readonly stacks: number;
}

interface Result {
  readonly layout: Layout;
  readonly vms: number;
  /** OpenTofu's -parallelism (its default is 10). */
  readonly parallelism: number;
  /**
   * Pool stacks run at the same time (1: one after another, as `cdktf deploy` runs metalslice's, each depending on the
   * one before); more measures what deploying them concurrently would buy.
   */
  readonly stacksAtOnce: number;
  /** The Go memory limit tofu ran with (`GOMEMLIMIT`), or `off`: Go's default, the heap may grow to twice what is live. */
  readonly tofuMemoryLimit: string;
  /** The tofu binary (`default`: the toolchain's, on PATH; else its path). */
  readonly tofu: string;
  /** Its version, as `tofu version -json` prints it. */
  readonly tofuVersion: string;
  readonly stacks: number;
  readonly resourcesPerVm: number;
  /** Bytes of the stacks' states after the apply, per VM, as compact JSON (whatever indentation the local backend writes). */
  readonly stateBytesPerVm: number;
  /** Dependencies the states record (every instance's `dependencies`, summed), per VM. */
  readonly dependenciesPerVm: number;
  readonly apply: Measure;
  readonly noop: Measure;
  readonly plusOne: Measure;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function log(message: string): void {
  process.stderr.write(`bench:deploy ${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** The fleet's hosts: one per 10 VMs, at least 10. */
function hostNames(vms: number): string[] {
  return Array.from({ length: Math.max(10, vms / 10) }, (_, i) => `bm-${String(i).padStart(4, '0')}`);
}

/** The config: one fleet, one quota per size and layout (its own namespace), pools of 50 small VMs. */
function config(vms: number, quota: string, ca: string, server: string, extra: number): unknown {
  const pools = vms / PER_POOL;
  return {
    fleets: [
      {
        name: 'fra1',
        hosts: hostNames(vms).map((name) => ({
          name,
          capacity: { cpu: 64, memory: '256Gi', disk: '2Ti' },
        })),
      },
    ],
    quotas: [
      { name: quota, fleet: 'fra1', organization: 'bench', limits: { cpu: vms * 2, memory: `${vms * 2}Gi`, disk: '1Ti' }, maxVirtualMachines: vms + 10 },
    ],
    clusters: [{ name: 'prod', endpoint: server, caCertificate: ca }],
    nodePools: Array.from({ length: pools }, (_, i) => ({
      name: `${quota}-p${String(i).padStart(3, '0')}`,
      quota,
      cluster: 'prod',
      shape: { cpu: 1, memory: '1Gi' },
      rootDisk: 'containerDisk',
      count: PER_POOL + (i === 0 ? extra : 0),
    })),
  };
}

let timedRuns = 0;

/**
 * Runs a command under GNU time: wall, CPU of it and every descendant it waited for, and their peak RSS.
 * Asynchronous: KubeVirt's defaulting webhook is served by this process and must keep answering.
 */
export async function timed(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string; wallS: number; cpuS: number; peakRssMiB: number }> {
  const out = path.join(os.tmpdir(), `bench-time-${process.pid}-${++timedRuns}`);
  const r = await run('/usr/bin/time', ['-q', '-f', '%e %U %S %M', '-o', out, command, ...args], { cwd, env });
  const [wall, user, sys, rssKiB] = fs.readFileSync(out, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  fs.rmSync(out, { force: true });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, wallS: wall, cpuS: user + sys, peakRssMiB: rssKiB / 1024 };
}

/** A step's measure: its wall time as the clock saw it (stacks may overlap), its stacks' CPU summed. */
function measure(wallS: number, parts: readonly { cpuS: number; peakRssMiB: number }[]): Measure {
  return {
    wallS: round(wallS),
    cpuS: round(parts.reduce((s, p) => s + p.cpuS, 0)),
    peakRssMiB: round(Math.max(0, ...parts.map((p) => p.peakRssMiB))),
    stacks: parts.length,
  };
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * An HCL expression for a Terraform JSON template string: a lone `${...}` is its expression; otherwise a quoted
 * template whose literal parts are escaped and whose `${...}` interpolations stay as written.
 */
function hclExpression(template: string): string {
  const parts: { literal: boolean; text: string }[] = [];
  let i = 0;
  while (i < template.length) {
    const start = template.indexOf('${', i);
    if (start < 0 || template[start - 1] === '$') {
      parts.push({ literal: true, text: template.slice(i, start < 0 ? undefined : start + 2) });
      if (start < 0) break;
      i = start + 2;
      continue;
    }
    if (start > i) parts.push({ literal: true, text: template.slice(i, start) });
    // The matching brace, skipping braces inside quoted strings of the expression.
    let depth = 0;
    let j = start + 2;
    let quoted = false;
    for (; j < template.length; j++) {
      const c = template[j];
      if (quoted) {
        if (c === '\\') j++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        if (depth === 0) break;
        depth--;
      }
    }
    parts.push({ literal: false, text: template.slice(start, j + 1) });
    i = j + 1;
  }
  if (parts.length === 1 && !parts[0].literal) return parts[0].text.slice(2, -1);
  const escape = (t: string) => t.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return `"${parts.map((p) => (p.literal ? escape(p.text) : p.text)).join('')}"`;
}

/** The parts of a synthesized stack (cdk.tf.json) the baseline rewrites. */
interface StackJson extends ManifestLayoutStack {
  resource: ManifestLayoutStack['resource'] & {
    kubernetes_secret_v1?: Record<string, SecretResource>;
    kubernetes_manifest?: Record<string, unknown>;
  };
}
interface SecretResource {
  provider?: string;
  depends_on?: string[];
  lifecycle?: unknown;
  metadata: unknown;
  type?: string;
  data: Record<string, string>;
}

/** The baseline: every VM and every kubernetes_secret_v1 of a synthesized stack becomes a kubernetes_manifest. */
export function toBaseline(file: string): void {
  const tf = JSON.parse(fs.readFileSync(file, 'utf8')) as StackJson;
  kubectlToManifests(tf);
  const secrets = tf.resource.kubernetes_secret_v1 ?? {};
  delete tf.resource.kubernetes_secret_v1;
  const manifests = (tf.resource.kubernetes_manifest ??= {});
  for (const [id, s] of Object.entries(secrets)) {
    const data = Object.fromEntries(Object.entries(s.data).map(([k, v]) => [k, `\${base64encode(${hclExpression(v)})}`]));
    manifests[id] = {
      ...(s.provider ? { provider: s.provider } : {}),
      ...(s.depends_on ? { depends_on: s.depends_on } : {}),
      // The token's expiration is stamped at creation, as the Secret's ignore_changes does.
      ...(s.lifecycle ? { lifecycle: { ignore_changes: ['manifest'] } } : {}),
      manifest: { apiVersion: 'v1', kind: 'Secret', metadata: s.metadata, type: s.type, data },
    };
  }
  fs.writeFileSync(file, JSON.stringify(tf, null, 2));
}

/** How a layout is run: tofu's -parallelism, pool stacks at a time, tofu's Go memory limit, and which tofu. */
interface Setting {
  readonly parallelism: number;
  readonly stacksAtOnce: number;
  /** `GOMEMLIMIT` for tofu (and its providers), e.g. `400MiB`; `off` leaves Go's default. */
  readonly tofuMemoryLimit: string;
  /** The tofu binary: `default` (the toolchain's, on PATH) or a path, to compare OpenTofu releases in one run. */
  readonly tofu: string;
}

const DEFAULT_SETTING: Setting = { parallelism: 10, stacksAtOnce: 1, tofuMemoryLimit: 'off', tofu: 'default' };

/** The tofu binary of a setting's `tofu`. */
function tofuBinary(tofu: string): string {
  return tofu === 'default' ? binary('tofu') : tofu;
}

/**
 * The version tofu `tofu` (a Setting's `tofu`) reports (`tofu version -json`), asked once per binary before anything
 * is measured: a path that is no tofu stops the bench at once, saying so.
 */
async function tofuVersionOf(tofu: string): Promise<string> {
  const command = tofuBinary(tofu);
  let version: unknown;
  try {
    const r = await run(command, ['version', '-json'], { env: { ...process.env, CHECKPOINT_DISABLE: '1' } });
    version = r.code === 0 ? (JSON.parse(r.stdout) as { terraform_version?: unknown }).terraform_version : undefined;
  } catch {
    version = undefined;
  }
  if (typeof version !== 'string') throw new Error(`--tofu: "${tofu}" is not default or the path of a tofu binary (\`version -json\` did not say its version)`);
  return version;
}

/** Go's `GOMEMLIMIT` syntax: a whole number of bytes with an optional binary unit. */
const GO_MEMORY_LIMIT = /^\d+(B|KiB|MiB|GiB|TiB)?$/;

class LayoutRun {
  private readonly work: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly quota: string;

  constructor(
    private readonly cluster: TestCluster,
    private readonly layout: Layout,
    private readonly vms: number,
    private readonly setting = DEFAULT_SETTING,
    private readonly withNoop = true,
  ) {
    const { parallelism, stacksAtOnce, tofuMemoryLimit, tofu } = setting;
    const short = { 'per-pool': 'pp', 'one-stack': 'os', 'one-stack-per-node': 'on', baseline: 'bl', 'per-pool-manifest': 'pm', 'per-pool-files': 'pf' }[
      layout
    ];
    const limit = tofuMemoryLimit === 'off' ? '' : `m${tofuMemoryLimit.toLowerCase()}`;
    // Another tofu than the toolchain's: its own quota name, from the path's digest (names stay DNS labels).
    const other = tofu === 'default' ? '' : `t${createHash('sha256').update(tofu).digest('hex').slice(0, 6)}`;
    this.quota = `${short}${vms}${parallelism === 10 ? '' : `x${parallelism}`}${stacksAtOnce === 1 ? '' : `s${stacksAtOnce}`}${limit}${other}`;
    this.work = fs.mkdtempSync(path.join(os.tmpdir(), `metalslice-bench-${this.quota}-`));
    this.env = {
      ...process.env,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_INPUT: '0',
      KUBE_CONFIG_PATH: cluster.adminKubeconfig,
      // One workstation: the state stays in a local file, as the layouts measured before shared state.
      METALSLICE_STATE: 'local',
      CDKTF_OUTDIR: path.join(this.work, 'cdktf.out'),
      METALSLICE_CONFIG: path.join(this.work, 'config.json'),
      METALSLICE_LAYOUT: layout.startsWith('per-pool') ? 'stack-per-pool' : 'one-stack',
    };
    delete this.env.TF_PLUGIN_CACHE_DIR;
    // The control plane keeps its own environment; only tofu and its providers get the limit.
    if (tofuMemoryLimit === 'off') delete this.env.GOMEMLIMIT;
    else this.env.GOMEMLIMIT = tofuMemoryLimit;
  }

  private stacksDir(): string {
    return path.join(this.work, 'cdktf.out', 'stacks');
  }

  /** Stacks in deploy order: the stack of fleets and quotas first. */
  private stacks(): string[] {
    const all = fs.readdirSync(this.stacksDir()).sort();
    return [...all.filter((s) => !s.includes('-pool-')), ...all.filter((s) => s.includes('-pool-'))];
  }

  private async synth(extra: number): Promise<void> {
    fs.writeFileSync(
      path.join(this.work, 'config.json'),
      JSON.stringify(config(this.vms, this.quota, fs.readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8'), this.cluster.server, extra)),
    );
    const r = await run(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', 'config-app.ts')], {
      cwd: this.work,
      env: this.env,
    });
    if (r.code !== 0) throw new Error(`synth failed: ${r.stderr.slice(-2000)}`);
    if (this.layout === 'baseline') for (const s of this.stacks()) toBaseline(path.join(this.stacksDir(), s, 'cdk.tf.json'));
    if (this.layout === 'per-pool-manifest') for (const s of this.stacks()) toManifests(path.join(this.stacksDir(), s, 'cdk.tf.json'));
    if (this.layout === 'one-stack-per-node') for (const s of this.stacks()) toRelease05(path.join(this.stacksDir(), s, 'cdk.tf.json'));
    if (this.layout === 'per-pool-files') for (const s of this.stacks()) toFileLocals(path.join(this.stacksDir(), s));
  }

  private async tofu(stack: string, args: readonly string[], okCodes: readonly number[] = [0]) {
    const r = await timed(tofuBinary(this.setting.tofu), args, path.join(this.stacksDir(), stack), this.env);
    if (!okCodes.includes(r.code)) throw new Error(`tofu ${args[0]} in ${stack} exited ${r.code}: ${r.stdout.slice(-2000)}${r.stderr.slice(-2000)}`);
    return r;
  }

  /**
   * Runs `args` in each stack: the stacks the pool stacks depend on first, then the pool stacks, up to
   * `stacksAtOnce` of them at a time (each starts as soon as one finishes).
   */
  private async each(stacks: readonly string[], args: readonly string[], okCodes: readonly number[] = [0]) {
    const started = process.hrtime.bigint();
    const out: Awaited<ReturnType<LayoutRun['tofu']>>[] = [];
    const pools = stacks.filter((s) => s.includes('-pool-'));
    for (const s of stacks.filter((s) => !pools.includes(s))) out.push(await this.tofu(s, args, okCodes));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < pools.length) out.push(await this.tofu(pools[next++], args, okCodes));
    };
    await Promise.all(Array.from({ length: Math.min(this.setting.stacksAtOnce, pools.length) }, worker));
    return { wallS: Number(process.hrtime.bigint() - started) / 1e9, runs: out };
  }

  async run(): Promise<Omit<Result, 'tofuVersion'>> {
    log(`${this.layout} ${this.vms} VMs: synth and init`);
    await this.synth(0);
    const stacks = this.stacks();
    await this.each(stacks, ['init', '-input=false', '-no-color']);
    await this.hostNodes();
    log(`${this.layout} ${this.vms} VMs: apply from empty (${stacks.length} stacks, ${this.setting.stacksAtOnce} at once)`);
    const par = `-parallelism=${this.setting.parallelism}`;
    const applied = await this.each(stacks, ['apply', '-auto-approve', '-input=false', '-no-color', par]);
    const apply = measure(applied.wallS, applied.runs);
    const recorded = this.stateRecords(stacks);
    let noop = measure(0, []);
    if (this.withNoop) {
      log(`${this.layout} ${this.vms} VMs: no-op plan`);
      const noops = await this.each(stacks, ['plan', '-detailed-exitcode', '-input=false', '-no-color', '-lock=false', par]);
      noop = measure(noops.wallS, noops.runs);
    }
    log(`${this.layout} ${this.vms} VMs: +1 node, plan what changed`);
    const before = new Map(stacks.map((s) => [s, fs.readFileSync(path.join(this.stacksDir(), s, 'cdk.tf.json'), 'utf8')]));
    await this.synth(1);
    const changed = this.stacks().filter((s) => before.get(s) !== fs.readFileSync(path.join(this.stacksDir(), s, 'cdk.tf.json'), 'utf8'));
    const planned = await this.each(changed, ['plan', '-detailed-exitcode', '-input=false', '-no-color', '-lock=false', par, `-out=${PLUS_ONE_PLAN}`], [2]);
    const plans = planned.runs;
    const counts = plans.map((p) => /Plan: (\d+) to add, (\d+) to change, (\d+) to destroy/.exec(p.stdout));
    const grown = hostGroupLabel('prod', `${this.quota}-p000`, 'elastic');
    const checked = await Promise.all(changed.map((s) => this.plusOneChanges(s, grown)));
    const unexpected = checked.flatMap((c) => c.unexpected);
    if (counts.some((c) => !c) || unexpected.length > 0)
      throw new Error(`${this.layout}: the +1 plan changes more than the node: ${unexpected.join(', ')}\n${plans.map((p) => p.stdout.slice(-600)).join('\n')}`);
    const labelled = checked.reduce((n, c) => n + c.labelled, 0);
    if (labelled > 0) log(`${this.layout} ${this.vms} VMs: +1 node, its pool's host group takes ${labelled} more host(s)`);
    // The node's own instances: what the plans add, less the Node label instances of hosts new to any group.
    const resourcesPerVm = counts.reduce((n, c) => n + Number(c![1]), 0) - checked.reduce((n, c) => n + c.labelCreates, 0);
    return {
      layout: this.layout,
      vms: this.vms,
      ...this.setting,
      stacks: stacks.length,
      resourcesPerVm,
      stateBytesPerVm: Math.round(recorded.bytes / this.vms),
      dependenciesPerVm: round(recorded.dependencies / this.vms),
      apply,
      noop,
      plusOne: measure(planned.wallS, plans),
    };
  }

  /** A stack's +1 plan, judged by `judgePlusOne` from what `tofu show -json` prints of the saved plan. */
  private async plusOneChanges(stack: string, grownLabel: string): Promise<PlusOneJudgement> {
    const shown = await this.tofu(stack, ['show', '-json', '-no-color', PLUS_ONE_PLAN]);
    return judgePlusOne((JSON.parse(shown.stdout) as { resource_changes?: ResourceChange[] }).resource_changes ?? [], grownLabel);
  }

  /**
   * The fleet's hosts as Nodes of the provider cluster, as a real fleet has them: a plan that confines spread pools
   * to host groups (it does at 1,000 hosts) labels their Nodes in the base stack.
   */
  private async hostNodes(): Promise<void> {
    const api = this.cluster.client();
    for (const name of hostNames(this.vms)) {
      const r = await api.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } });
      if (r.status !== 201 && r.status !== 409) throw new Error(`creating Node ${name}: HTTP ${r.status}`);
    }
  }

  /** What the stacks' states hold after the apply: their bytes, and the dependencies their instances record. */
  private stateRecords(stacks: readonly string[]): { bytes: number; dependencies: number } {
    let [bytes, dependencies] = [0, 0];
    for (const s of stacks) {
      // The local backend keeps a stack's state beside the app, as cdktf does (`terraform.<stack>.tfstate`).
      const file = path.join(this.work, `terraform.${s}.tfstate`);
      const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { resources?: { instances?: { dependencies?: unknown[] }[] }[] };
      // Compact: OpenTofu 1.12's local backend indents its state file, 1.10's did not; the bytes are the state's.
      bytes += Buffer.byteLength(JSON.stringify(state));
      for (const r of state.resources ?? []) for (const i of r.instances ?? []) dependencies += i.dependencies?.length ?? 0;
    }
    return { bytes, dependencies };
  }

  /**
   * Removes what this layout made, so the next layout starts from the same cluster: the fleet's KubeVirt CR
   * (one per cluster) and the quota's namespace, waiting until the namespace is gone.
   */
  async cleanUp(): Promise<void> {
    const api = this.cluster.client();
    await api.delete('/apis/kubevirt.io/v1/namespaces/kubevirt/kubevirts/kubevirt');
    const namespace = `/api/v1/namespaces/bench-${this.quota}`;
    await api.delete(namespace);
    const deadline = Date.now() + 900_000;
    while ((await api.get(namespace)).status !== 404) {
      if (Date.now() > deadline) throw new Error(`${namespace} was not deleted within 15 minutes`);
      await new Promise((r) => setTimeout(r, 2000));
    }
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}

/** The largest resident set of tofu or a provider over the apply and the plans, MiB. */
function peak(r: Result): number {
  return Math.max(r.apply.peakRssMiB, r.noop.peakRssMiB, r.plusOne.peakRssMiB);
}

function table(results: readonly Result[]): string {
  const header = [
    'layout',
    'VMs',
    'par.',
    'stacks',
    'at once',
    'tofu mem limit',
    'tofu',
    'res/VM',
    'state B/VM',
    'deps/VM',
    'apply wall s',
    'apply cpu s',
    'no-op wall s',
    'no-op cpu s',
    '+1 wall s',
    '+1 cpu s',
    '+1 stacks',
    'peak RSS MiB',
  ];
  const rows = results.map((r) =>
    [
      r.layout,
      r.vms,
      r.parallelism,
      r.stacks,
      r.stacksAtOnce,
      r.tofuMemoryLimit,
      r.tofuVersion,
      r.resourcesPerVm,
      r.stateBytesPerVm,
      r.dependenciesPerVm,
      r.apply.wallS,
      r.apply.cpuS,
      r.noop.wallS,
      r.noop.cpuS,
      r.plusOne.wallS,
      r.plusOne.cpuS,
      r.plusOne.stacks,
      peak(r),
    ].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const sizes = (arg('--sizes') ?? '100,1000').split(',').map(Number);
  const layouts = (arg('--layouts') ?? 'per-pool,one-stack,baseline').split(',') as Layout[];
  // The layouts to run at the largest size (the baseline at 1,000 VMs alone takes well over an hour on 2 cores).
  const largeLayouts = (arg('--large-layouts')?.split(',') as Layout[] | undefined) ?? layouts;
  const json = process.argv.includes('--json');
  // No no-op plans (their stacks counted as 0): for a size whose apply alone is the hour measured.
  const skipNoop = process.argv.includes('--skip-noop');
  // OpenTofu -parallelism values to run each layout with (10, its default, unless told); the goals read the first.
  const parallelisms = (arg('--parallelism') ?? '10').split(',').map(Number);
  // Pool stacks at a time (1, as metalslice's chained pool stacks deploy, unless told); the goals read the first.
  const stacksAtOnces = (arg('--stacks-at-once') ?? '1').split(',').map(Number);
  if (![...parallelisms, ...stacksAtOnces].every((n) => Number.isInteger(n) && n > 0))
    throw new Error('--parallelism and --stacks-at-once take positive whole numbers, comma-separated (e.g. --stacks-at-once 1,4)');
  // tofu's Go memory limits (off: none, Go's default); the goals read the first.
  const memoryLimits = (arg('--tofu-memory-limits') ?? 'off').split(',');
  const badLimit = memoryLimits.find((m) => m !== 'off' && !GO_MEMORY_LIMIT.test(m));
  if (badLimit !== undefined) throw new Error(`--tofu-memory-limits: "${badLimit}" is not off or a Go memory limit such as 400MiB (GOMEMLIMIT's syntax)`);
  // tofu binaries (default: the toolchain's); the goals read the first.
  const tofus = (arg('--tofu') ?? 'default').split(',');
  const tofuVersions = new Map<string, string>();
  for (const tofu of tofus) tofuVersions.set(tofu, await tofuVersionOf(tofu));
  const settings = parallelisms.flatMap((parallelism) =>
    stacksAtOnces.flatMap((stacksAtOnce) =>
      memoryLimits.flatMap((tofuMemoryLimit) => tofus.map((tofu): Setting => ({ parallelism, stacksAtOnce, tofuMemoryLimit, tofu }))),
    ),
  );
  const cluster = await startCluster({ kubevirt: true });
  const results: Result[] = [];
  try {
    await cluster.client().create('/api/v1/namespaces', { metadata: { name: 'kubevirt' } });
    for (const vms of sizes) {
      for (const layout of vms === Math.max(...sizes) ? largeLayouts : layouts) {
        for (const setting of settings) {
          const layoutRun = new LayoutRun(cluster, layout, vms, setting, !skipNoop);
          results.push({ ...(await layoutRun.run()), tofuVersion: tofuVersions.get(setting.tofu)! });
          log(`\n${table(results)}`);
          await layoutRun.cleanUp();
        }
      }
    }
  } finally {
    await cluster.stop();
  }
  const isFirst = (r: Result) =>
    r.parallelism === settings[0].parallelism &&
    r.stacksAtOnce === settings[0].stacksAtOnce &&
    r.tofuMemoryLimit === settings[0].tofuMemoryLimit &&
    r.tofu === settings[0].tofu;
  const find = (layout: Layout, vms: number) => results.find((r) => r.layout === layout && r.vms === vms && isFirst(r));
  const ratio = (a?: number, b?: number) => (a === undefined || b === undefined || b === 0 ? null : round(a / b, 2));
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  const ours = (vms: number) => find(layouts[0], vms);
  const applySeconds = ours(large)?.apply.wallS ?? null;
  const summary = {
    ratios: {
      [`plusOne${large}vs${small}`]: ratio(ours(large)?.plusOne.wallS, ours(small)?.plusOne.wallS),
      [`noopBaselineVsOurs${large}`]: ratio(find('baseline', large)?.noop.wallS, ours(large)?.noop.wallS),
      [`applyBaselineVsOurs${large}`]: ratio(find('baseline', large)?.apply.wallS, ours(large)?.apply.wallS),
    },
    [`applySeconds${large}`]: applySeconds,
    // Each layout measured at both sizes: how its +1 plan and its state per VM grow from the small to the large.
    growth: Object.fromEntries(
      [...new Set(results.map((r) => r.layout))]
        .filter((l) => find(l, small) && find(l, large) && small !== large)
        .map((l) => [
          l,
          {
            plusOne: ratio(find(l, large)?.plusOne.wallS, find(l, small)?.plusOne.wallS),
            stateBytesPerVm: ratio(find(l, large)?.stateBytesPerVm, find(l, small)?.stateBytesPerVm),
          },
        ]),
    ),
    goals: { plusOneRatioAtMost: 1.5, noopRatioAtLeast: 5, applySecondsUnder: 600 },
    results,
  };
  process.stdout.write(`${table(results)}\n\n`);
  process.stdout.write(`ours (${layouts[0]}) +1 plan, ${large} vs ${small} VMs: ${summary.ratios[`plusOne${large}vs${small}`]}x (goal <= 1.5x)\n`);
  process.stdout.write(`no-op plan at ${large} VMs, baseline / ours: ${summary.ratios[`noopBaselineVsOurs${large}`]}x (goal >= 5x)\n`);
  process.stdout.write(`apply of ${large} VMs from empty: ${applySeconds ?? 'not measured'} s (goal < 600 s)\n`);
  // The run of the same layout, size and settings as r but for `key`, which takes its first value.
  const firsts = { stacksAtOnce: stacksAtOnces[0], tofuMemoryLimit: memoryLimits[0], tofu: tofus[0] };
  const against = (r: Result, key: keyof typeof firsts) =>
    results.find(
      (x) =>
        x.layout === r.layout &&
        x.vms === r.vms &&
        x.parallelism === r.parallelism &&
        (Object.keys(firsts) as (keyof typeof firsts)[]).every((k) => x[k] === (k === key ? firsts[k] : r[k])),
    );
  for (const r of results.filter((x) => x.stacksAtOnce !== firsts.stacksAtOnce && x.tofuMemoryLimit === firsts.tofuMemoryLimit)) {
    const first = against(r, 'stacksAtOnce');
    if (first)
      process.stdout.write(
        `${r.layout}, ${r.vms} VMs, apply with ${r.stacksAtOnce} pool stacks at once against ${first.stacksAtOnce}: ${r.apply.wallS} s against ${first.apply.wallS} s (${ratio(first.apply.wallS, r.apply.wallS)}x faster)\n`,
      );
  }
  for (const r of results.filter((x) => x.tofuMemoryLimit !== firsts.tofuMemoryLimit)) {
    const first = against(r, 'tofuMemoryLimit');
    if (first)
      process.stdout.write(
        `${r.layout}, ${r.vms} VMs, tofu's memory limit ${r.tofuMemoryLimit} against ${first.tofuMemoryLimit}: peak ${peak(r)} MiB against ${peak(first)} MiB, apply ${r.apply.wallS} s against ${first.apply.wallS} s (${ratio(r.apply.wallS, first.apply.wallS)}x the time, ${ratio(r.apply.cpuS, first.apply.cpuS)}x the CPU)\n`,
      );
  }
  for (const r of results.filter((x) => x.tofu !== firsts.tofu)) {
    const first = against(r, 'tofu');
    if (first)
      process.stdout.write(
        `${r.layout}, ${r.vms} VMs, OpenTofu ${r.tofuVersion} against ${first.tofuVersion}: apply ${r.apply.wallS} s against ${first.apply.wallS} s (${ratio(r.apply.wallS, first.apply.wallS)}x the time, ${ratio(r.apply.cpuS, first.apply.cpuS)}x the CPU), +1 plan ${r.plusOne.wallS} s against ${first.plusOne.wallS} s, peak ${peak(r)} MiB against ${peak(first)} MiB\n`,
      );
  }
  for (const [l, g] of Object.entries(summary.growth))
    process.stdout.write(`${l}, ${large} vs ${small} VMs: +1 plan ${g.plusOne}x (goal <= 1.5x), state bytes per VM ${g.stateBytesPerVm}x (goal <= 1.2x)\n`);
  if (json) process.stdout.write(`${JSON.stringify(summary)}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench:deploy: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
