/**
 * The `metalslice` command. Exit codes: 0 valid and everything fits; 1 invalid input or it does not fit
 * (every problem listed); 2 usage error.
 */
import { KUBEVIRT_VERSION } from '../core/kubevirt/launcher';
import * as fs from 'fs';
import * as path from 'path';
import { Command, CommanderError, Option } from 'commander';
import { loadConfigSource, STDIN_NAME } from '../core/input/config';
import { DEFAULT_JOIN_TIMEOUT } from '../core/input/disruption';
import { issueWhere, MetalsliceError, UnreadableInputError } from '../core/base/errors';
import { escapeText } from '../core/base/excerpt';
import { planModel, PlanReport } from '../core/plan';
import { labelKeyProblem } from '../core/naming/kube-names';
import configSchema from '../../schema/metalslice-config.schema.json';
import {
  diffPlans,
  PlanChanges,
  planJson,
  planYaml,
  readPlanFile,
  renderGithubAnnotations,
  renderPlanMarkdown,
  renderPlanText,
  rollProblems,
  stableJson,
} from '../core/report';
import { NodeTemplateVarsOptions, runNodeTemplateVars } from './node-template';
import { addNodeCommands } from './node-commands';
import { runPack } from './pack';
import type { VerifyCliOptions } from './verify';
import { STATUS_FORMATS, StatusFormat } from '../status/formats';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Terminal width for text tables. @default - no limit */
  readonly columns?: number;
  /** Colour the text output (a TTY without NO_COLOR). @default false */
  readonly color?: boolean;
}

const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  // https://no-color.org: any non-empty NO_COLOR turns colour off.
  color: process.stdout.isTTY === true && !process.env.NO_COLOR,
};

/** A Markdown comment's default size: under GitHub's 65,536 characters, with room for a header the CI adds. */
const DEFAULT_MAX_CHARS = 60_000;

/** The formats `plan` and `report` print (`-o`); `github`: workflow commands that annotate a pull request. */
const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'yaml', 'github'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How `plan` and `report` print: a format, with the Markdown size limit. */
interface OutputOptions {
  json?: boolean;
  markdown?: boolean;
  output?: OutputFormat;
  previous?: string;
  maxChars?: number;
  fullReport?: string;
}

function usage(message: string): CommanderError {
  return new CommanderError(2, 'metalslice.usage', message);
}

function parseMaxChars(v: string): number {
  if (!/^\d+$/.test(v)) throw usage(`--max-chars must be a whole number of characters, or 0 for no limit (got "${v}"); e.g. --max-chars 60000`);
  return Number(v);
}

function parseFailureDomain(v: string): string {
  const problem = labelKeyProblem(v);
  if (problem) throw usage(`--failure-domain must be a host label key such as topology.kubernetes.io/zone or rack (got "${v}": ${problem})`);
  return v;
}

/** The format asked for: `-o`, or the older `--json` / `--markdown` (commander refuses two at once). */
function formatOf(opts: OutputOptions): OutputFormat {
  return opts.output ?? (opts.json ? 'json' : opts.markdown ? 'markdown' : 'text');
}

/** Checks what commander cannot: --max-chars and --full-report only shape Markdown. */
function checkOutputOptions(opts: OutputOptions): void {
  if ((opts.maxChars !== undefined || opts.fullReport !== undefined) && formatOf(opts) !== 'markdown') {
    throw usage(`${opts.maxChars !== undefined ? '--max-chars' : '--full-report'} bounds the Markdown report: add --markdown (or -o markdown)`);
  }
}

/** Prints the report in the format asked for. */
function printReport(report: PlanReport, changes: PlanChanges | undefined, opts: OutputOptions, io: Io): void {
  switch (formatOf(opts)) {
    case 'json':
      return io.stdout(planJson(report, changes));
    case 'yaml':
      return io.stdout(planYaml(report, changes));
    case 'markdown':
      return io.stdout(renderPlanMarkdown(report, changes, { maxChars: opts.maxChars ?? DEFAULT_MAX_CHARS, fullReport: opts.fullReport }));
    case 'github':
      return io.stdout(renderGithubAnnotations(report, { cwd: process.cwd(), workspace: process.env.GITHUB_WORKSPACE }));
    case 'text':
      return io.stdout(renderPlanText(report, changes, { width: io.columns, color: io.color }));
  }
}

/**
 * A file that cannot be read is a usage error (exit 2), said on standard error; a person gets no report (it
 * would say the plan does not fit), a machine (`json`, `yaml`) still gets the document it parses.
 */
function unreadableInput(e: UnreadableInputError, opts: OutputOptions, io: Io): number {
  io.stderr(e.issues.map((i) => `error: ${issueWhere(i)}: ${i.message}\n`).join(''));
  const format = formatOf(opts);
  if (format === 'json' || format === 'yaml') {
    printReport({ ok: false, kubevirtVersion: KUBEVIRT_VERSION, errors: e.issues, warnings: [], fleets: [], quotas: [], pools: [] }, undefined, opts, io);
  }
  return 2;
}

/**
 * The previous plan's changes, or its problem added to the report's errors. A previous plan that cannot be
 * read at all throws UnreadableInputError: a usage error, said before any report is printed.
 */
function withPrevious(report: PlanReport, previous: string | undefined): { report: PlanReport; changes?: PlanChanges } {
  if (!previous) return { report };
  try {
    const changes = diffPlans(readPlanFile(previous), report);
    // A roll the running fleet cannot take (its old nodes bigger than the new plan counts) fails the plan, as a
    // surge that does not fit the plan at rest does.
    const problems = rollProblems(changes, report);
    return { report: problems.length > 0 ? { ...report, ok: false, errors: [...report.errors, ...problems] } : report, changes };
  } catch (e) {
    if (!(e instanceof MetalsliceError) || e instanceof UnreadableInputError) throw e;
    return { report: { ...report, ok: false, errors: [...report.errors, ...e.issues] } };
  }
}

/** withPrevious, or the usage error of a previous plan that cannot be read (exit 2, no report). */
function comparedOrUnreadable(report: PlanReport, opts: OutputOptions, io: Io): { report: PlanReport; changes?: PlanChanges } | number {
  try {
    return withPrevious(report, opts.previous);
  } catch (e) {
    if (e instanceof UnreadableInputError) return unreadableInput(e, opts, io);
    throw e;
  }
}

function runPlan(file: string, opts: OutputOptions & { failureDomain?: string }, io: Io): number {
  checkOutputOptions(opts);
  let report: PlanReport;
  try {
    const { config, sources } = loadConfigSource(file);
    const planned = planModel(config, { failureDomain: opts.failureDomain }).report;
    report = { ...planned, errors: sources.locateAll(planned.errors), warnings: sources.locateAll(planned.warnings) };
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    if (e instanceof UnreadableInputError) return unreadableInput(e, opts, io);
    report = { ok: false, kubevirtVersion: KUBEVIRT_VERSION, errors: e.issues, warnings: [], fleets: [], quotas: [], pools: [] };
  }
  const compared = comparedOrUnreadable(report, opts, io);
  if (typeof compared === 'number') return compared;
  printReport(compared.report, compared.changes, opts, io);
  if (formatOf(opts) === 'text' && !compared.report.ok)
    io.stderr(`metalslice: ${compared.report.errors.length} problem(s) in ${file === '-' ? STDIN_NAME : escapeText(file)}\n`);
  return compared.report.ok ? 0 : 1;
}

/** `metalslice report PLAN.json`: a plan written by synth (or `plan --json`), printed for people. */
function runReport(file: string, opts: OutputOptions, io: Io): number {
  checkOutputOptions(opts);
  let report: PlanReport;
  try {
    report = readPlanFile(file);
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    io.stderr(`error: ${e.issues.map((i) => `${i.path}: ${i.message}`).join('\n')}\n`);
    return 2;
  }
  const compared = comparedOrUnreadable(report, opts, io);
  if (typeof compared === 'number') return compared;
  printReport(compared.report, compared.changes, opts, io);
  return compared.report.ok ? 0 : 1;
}

/** The version in package.json (one level above dist/ when compiled, or the repo root from source). */
function packageVersion(): string {
  for (const dir of [path.join(__dirname, '..', '..', '..'), path.join(__dirname, '..', '..')]) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'metalslice' && pkg.version) return pkg.version;
    }
  }
  return 'unknown';
}

const PLAN_EXAMPLES = `
Exit codes: 0 everything fits; 1 invalid or does not fit (every problem listed, at file:line:column); 2 usage error.

Examples:
  metalslice plan examples/metalslice.yaml
  metalslice plan metalslice.yaml -o json > plan.json
  metalslice plan metalslice.yaml --markdown --previous base-plan.json
  metalslice plan metalslice.yaml -o github      (one ::error annotation per problem, in GitHub Actions)
  cat metalslice.yaml | metalslice plan -
`;

const REPORT_EXAMPLES = `
Examples:
  metalslice report cdktf.out/stacks/provider/metalslice-plan.json
  metalslice report plan.json --markdown --max-chars 60000 --full-report "the plan-review artifact"
  metalslice report plan.json -o github
`;

const ROOT_EXAMPLES = `
Every subcommand takes --help, with examples. A file that cannot be read (missing, a directory, no
permission) is a usage error: exit 2, said on standard error, nothing else written.

Examples:
  metalslice plan examples/metalslice.yaml
  metalslice report cdktf.out/stacks/provider/metalslice-plan.json --markdown
  metalslice verify examples/metalslice.yaml --order shuffled
`;

const PACK_EXAMPLES = `
Exit codes: 0 packed (one JSON line: bins and the bin of each item); 1 not a valid .vbp instance; 2 usage error
or a file that cannot be read.

Examples:
  metalslice pack instance.vbp
  metalslice pack instance.vbp --time-limit-ms 10000
  cat instance.vbp | metalslice pack -
`;

const VERIFY_EXAMPLES = `
Exit codes: 0 the plan is valid and every launcher pod bound; 1 a problem in the plan or a pod left pending;
2 usage error or a file that cannot be read.

Examples:
  metalslice verify examples/metalslice.yaml
  metalslice verify metalslice.yaml --order shuffled --seed 7 --json
  metalslice verify metalslice.yaml --snapshot provider-snapshot.json
  metalslice verify metalslice.yaml --from-cluster --context provider
  metalslice verify examples/metalslice.yaml --kubevirt
`;

const NODE_TEMPLATE_VARS_EXAMPLES = `
Exit codes: 0 written; 1 the config or its plan has problems (nothing written); 2 usage error, a config that
cannot be read, or an output that cannot be written.

Examples:
  metalslice node-template-vars metalslice.yaml --provider virt
  metalslice node-template-vars metalslice.yaml --provider virt --out node-templates/kubevirt/vm-types.auto.tfvars.json
`;

const INVENTORY_EXAMPLES = `
Exit codes: 0 written; 1 the cluster could not be read or an object not converted; 2 usage error.

Examples:
  metalslice inventory --out inventory/fra1.json
  metalslice inventory --context provider --out inventory/fra1.json --snapshot provider-snapshot.json
`;

const SCHEMA_EXAMPLES = `
Examples:
  metalslice schema > metalslice-config.schema.json
  # first line of a config, for the YAML language server (VS Code, Neovim, IntelliJ):
  # yaml-language-server: $schema=./node_modules/metalslice/schema/metalslice-config.schema.json
`;

function outputOption(): Option {
  return new Option(
    '-o, --output <format>',
    'output format: text (default, for a terminal), json, markdown, yaml, or github (workflow-command annotations)',
  ).choices(OUTPUT_FORMATS);
}

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it. */
export async function main(rawArgv: readonly string[], io: Io = processIo): Promise<number> {
  // --debug, anywhere: print the stack trace of an internal error (a bug), which is otherwise one line.
  const debug = rawArgv.includes('--debug');
  const argv = rawArgv.filter((a) => a !== '--debug');
  try {
    return await run(argv, io);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    io.stderr(
      debug
        ? `metalslice: internal error:\n${err.stack ?? err.message}\n`
        : `metalslice: internal error: ${err.message.split('\n')[0]} (rerun with --debug for the stack trace, and report it)\n`,
    );
    return 70;
  }
}

/** The commands about plans: plan, report and schema. `done` receives the exit code. */
function addPlanCommands(program: Command, io: Io, done: (code: number) => void): void {
  program
    .command('plan')
    .description('validate and plan a config (YAML or JSON): every quota and pool must fit, down to the host of each VM')
    .argument('<config>', 'the config file, or - to read it from standard input')
    .addOption(outputOption())
    .addOption(
      new Option('--json', 'print the plan as one JSON object (schema/metalslice-plan.schema.json); same as -o json').conflicts(['markdown', 'output']),
    )
    .addOption(new Option('--markdown', 'print the plan as Markdown (for pull requests); same as -o markdown').conflicts(['json', 'output']))
    .option('--previous <plan.json>', 'start with what changed since a previous plan (metalslice-plan.json or --json output)')
    .option('--max-chars <n>', `with --markdown: at most this many characters, long tables cut (default ${DEFAULT_MAX_CHARS}; 0: no limit)`, parseMaxChars)
    .option('--full-report <where>', 'with --markdown: where readers find the full report, named when rows are left out')
    .option('--failure-domain <label>', 'N+1 headroom also per value of this host label (a rack or zone): can the fleet lose any one?', parseFailureDomain)
    .addHelpText('after', PLAN_EXAMPLES)
    .action((config: string, opts: OutputOptions & { failureDomain?: string }) => {
      done(runPlan(config, opts, io));
    });

  program
    .command('report')
    .description('print a plan written by cdktf synth (metalslice-plan.json) or `plan --json`, as text, Markdown or JSON')
    .argument('<plan.json>', 'the plan, or - to read it from standard input')
    .addOption(outputOption())
    .addOption(new Option('--json', 'print the plan as one JSON object; same as -o json').conflicts(['markdown', 'output']))
    .addOption(new Option('--markdown', 'print the plan as Markdown (for pull requests); same as -o markdown').conflicts(['json', 'output']))
    .option('--previous <plan.json>', 'start with what changed since a previous plan')
    .option('--max-chars <n>', `with --markdown: at most this many characters (default ${DEFAULT_MAX_CHARS}; 0: no limit)`, parseMaxChars)
    .option('--full-report <where>', 'with --markdown: where readers find the full report')
    .addHelpText('after', REPORT_EXAMPLES)
    .action((planFile: string, opts: OutputOptions) => {
      done(runReport(planFile, opts, io));
    });

  program
    .command('schema')
    .description('print the JSON Schema of the config (schema/metalslice-config.schema.json), for editors and other validators')
    .addHelpText('after', SCHEMA_EXAMPLES)
    .action(() => {
      io.stdout(stableJson(configSchema));
    });
}

/** The tools beside planning: pack, verify, node-template-vars and inventory. `done` receives the exit code. */
function addToolCommands(program: Command, io: Io, done: (code: number) => void): void {
  program
    .command('pack')
    .description("vector bin packing of a VPSolver .vbp instance with the planner's placement engine")
    .argument('<file>', 'the .vbp file, or - to read it from standard input')
    .option('--time-limit-ms <n>', 'time budget in milliseconds', (v) => {
      if (!/^\d+$/.test(v) || Number(v) <= 0)
        throw new CommanderError(2, 'metalslice.usage', `--time-limit-ms must be a positive whole number of milliseconds (got "${v}")`);
      return Number(v);
    })
    .addHelpText('after', PACK_EXAMPLES)
    .action(async (file: string, opts: { timeLimitMs?: number }) => {
      done(await runPack(file, { timeLimitMs: opts.timeLimitMs }, io));
    });

  program
    .command('verify')
    .description(
      'plan a config, then replay the plan on a real control plane (etcd, kube-apiserver, kube-scheduler, KWOK nodes) and count the launcher pods that bind',
    )
    .argument('<config>', 'the config file')
    .option('--json', 'print the result as one JSON object')
    .addOption(new Option('--order <order>', 'pod creation order').choices(['deploy', 'shuffled']).default('deploy'))
    .option('--seed <n>', 'seed of the shuffled order', (v) => {
      if (!/^\d+$/.test(v)) throw new CommanderError(2, 'metalslice.usage', `--seed must be a whole number (got "${v}")`);
      return Number(v);
    })
    .option('--snapshot <file>', "replay on this snapshot of the provider cluster (metalslice inventory --snapshot) instead of the plan's own hosts")
    .option('--from-cluster', 'take the snapshot from the provider cluster now (read only: nothing is written there)')
    .option('--kubeconfig <file>', 'with --from-cluster: kubeconfig of the provider cluster (default: as kubectl)')
    .option('--context <name>', 'with --from-cluster: kubeconfig context')
    .option(
      '--kubevirt',
      "every rendered VirtualMachine through KubeVirt's own virt-api (admission), and launcher pods as KubeVirt's own virt-controller renders them, one per class of VMs alike up to name, namespace and host pin (built by scripts/toolchain.sh)",
    )
    .addHelpText('after', VERIFY_EXAMPLES)
    .action(async (config: string, opts: VerifyCliOptions) => {
      // Loaded by the subcommands that use them: the Kubernetes client and the control plane stay out of every other start.
      const { runVerify } = await import('./verify');
      done(await runVerify(config, opts, io));
    });

  program
    .command('node-template-vars')
    .description(
      "write the VMs node-templates/kubevirt makes for a kubevirt provider's node types and pools (vm-types.auto.tfvars.json beside the template): the same specs the constructs render",
    )
    .argument('<config>', 'the config file')
    .requiredOption('--provider <name>', 'the kubevirt node provider the template serves')
    .option('--out <file>', 'write here (replaced whole) instead of standard output, e.g. node-templates/kubevirt/vm-types.auto.tfvars.json')
    .addHelpText('after', NODE_TEMPLATE_VARS_EXAMPLES)
    .action((config: string, opts: NodeTemplateVarsOptions) => {
      done(runNodeTemplateVars(config, opts, io));
    });

  program
    .command('inventory')
    .description('read Nodes and BareMetalHosts from a cluster and write the inventory file that fleets (hostsFile) and metal3 providers use')
    .option('--kubeconfig <file>', 'kubeconfig of the provider cluster (default: as kubectl, $KUBECONFIG then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .option('--out <file>', 'write the inventory here instead of standard output')
    .option(
      '--snapshot <file>',
      'also write a snapshot of the Nodes and the pods bound to them, for metalslice verify --snapshot (no Secret, no container command or environment)',
    )
    .addHelpText('after', INVENTORY_EXAMPLES)
    .action(async (opts: { kubeconfig?: string; context?: string; out?: string; snapshot?: string }) => {
      const { runInventory } = await import('./inventory');
      done(await runInventory(opts, io));
    });
}

const STATUS_EXAMPLES = `
Exit codes: 0 converged (every cluster read, nothing differs from the plan); 1 a problem found (each named with
its evidence and its fix); 2 a cluster or the config could not be read (what could be read is still printed;
nothing when the config cannot be).
It only reads: lists of VirtualMachines, VirtualMachineInstances, launcher pods, DataVolumes, HostClaims,
ResourceQuotas and Nodes on the provider cluster, and the ConfigMaps labelled metalslice.io/stopped-by-roll=true
there (the holds of rolls cut short; left out when it may not list ConfigMaps), and Nodes on each tenant cluster
(the config's kubeconfigPath and kubeconfigContext).

Examples:
  metalslice status metalslice.yaml
  metalslice status metalslice.yaml -o wide --kubeconfig ~/.kube/provider
  metalslice status metalslice.yaml -o json > status.json   # schema/metalslice-status.schema.json
  metalslice status metalslice.yaml -o prometheus > /var/lib/node_exporter/metalslice.prom
  cdktf deploy && metalslice status metalslice.yaml --wait --timeout 20m
`;

/** \`status\`: the running fleet against the plan, read only. */
function addStatusCommand(program: Command, io: Io, done: (code: number) => void): void {
  program
    .command('status')
    .description(
      'read the provider and tenant clusters and compare them with the plan: each pool counted as Cluster API counts machines, each node, quota and host, every difference named with its fix; nothing is written',
    )
    .argument('<config>', 'metalslice.yaml (or - for standard input)')
    .addOption(new Option('-o, --output <format>', 'text, wide (a row per node), json, markdown or prometheus').choices(STATUS_FORMATS).default('text'))
    .option('--kubeconfig <file>', 'kubeconfig of the provider cluster (default: as kubectl, $KUBECONFIG then ~/.kube/config)')
    .option('--context <name>', "the provider cluster's kubeconfig context")
    .option('--join-timeout <duration>', 'how long a started node may take to be Ready before it is said never to have joined', DEFAULT_JOIN_TIMEOUT)
    .option('--wait', 'read again until the fleet has converged, or --timeout has passed')
    .option('--timeout <duration>', 'with --wait: how long to wait (10m, 1h)', '10m')
    .addOption(new Option('--interval <seconds>', 'with --wait: seconds between two readings').default(5).argParser(Number))
    .addHelpText('after', STATUS_EXAMPLES)
    .action(
      async (
        file: string,
        opts: { output: StatusFormat; kubeconfig?: string; context?: string; joinTimeout: string; wait?: boolean; timeout: string; interval: number },
      ) => {
        const { runStatus } = await import('./status');
        done(await runStatus(file, { ...opts, wait: opts.wait === true }, io));
      },
    );
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  let exitCode = 0;
  const program = new Command('metalslice')
    .description('Slice bare-metal capacity into KubeVirt VMs, quotas and node pools for tenant clusters, and prove it fits.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError('(run metalslice --help for usage)')
    .addHelpText('after', ROOT_EXAMPLES);

  const done = (code: number): void => {
    exitCode = code;
  };
  addPlanCommands(program, io, done);
  addToolCommands(program, io, done);
  addNodeCommands(program, io, done);
  addStatusCommand(program, io, done);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0) return 0;
      if (e.code === 'metalslice.usage') io.stderr(`error: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  return exitCode;
}
