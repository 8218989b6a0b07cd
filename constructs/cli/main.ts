/**
 * The `metalslice` command. Exit codes: 0 valid and everything fits; 1 invalid input or it does not fit
 * (every problem listed); 2 usage error.
 */
import { KUBEVIRT_VERSION } from '../core/kubevirt/launcher';
import * as fs from 'fs';
import * as path from 'path';
import { Command, CommanderError, Option } from 'commander';
import { loadConfigFile } from '../core/config';
import { MetalsliceError, UnreadableInputError } from '../core/errors';
import { planModel, PlanReport } from '../core/plan';
import { diffPlans, renderPlanMarkdown, stableJson } from '../core/report';
import { runInventory } from './inventory';
import { runPack } from './pack';
import { runVerify } from './verify';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

function readPreviousReport(file: string): PlanReport {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as PlanReport;
  } catch (e) {
    throw new MetalsliceError([{ path: file, message: `cannot read the previous plan (${(e as Error).message.split('\n')[0]}): pass a metalslice-plan.json or \`metalslice plan --json\` output` }]);
  }
}

async function runPlan(file: string, opts: { json?: boolean; markdown?: boolean; previous?: string }, io: Io): Promise<number> {
  let report: PlanReport;
  let unreadable = false;
  try {
    const config = loadConfigFile(file);
    report = planModel(config).report;
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    unreadable = e instanceof UnreadableInputError;
    report = { ok: false, kubevirtVersion: KUBEVIRT_VERSION, errors: e.issues, warnings: [], fleets: [], quotas: [], pools: [] };
  }
  let changes;
  if (opts.previous) {
    try {
      changes = diffPlans(readPreviousReport(opts.previous), report);
    } catch (e) {
      if (!(e instanceof MetalsliceError)) throw e;
      report = { ...report, ok: false, errors: [...report.errors, ...e.issues] };
    }
  }
  if (opts.json) {
    io.stdout(stableJson(changes ? { ...report, changes } : report));
  } else if (opts.markdown) {
    io.stdout(renderPlanMarkdown(report, changes));
  } else {
    io.stdout(renderPlanMarkdown(report, changes));
    if (!report.ok) io.stderr(`metalslice: ${report.errors.length} problem(s) in ${file}\n`);
  }
  return report.ok ? 0 : unreadable ? 2 : 1;
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

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it. */
export async function main(rawArgv: readonly string[], io: Io = processIo): Promise<number> {
  // --debug, anywhere: print the stack trace of an internal error (a bug), which is otherwise one line.
  const debug = rawArgv.includes('--debug');
  const argv = rawArgv.filter((a) => a !== '--debug');
  try {
    return await run(argv, io);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    io.stderr(debug ? `metalslice: internal error:\n${err.stack ?? err.message}\n` : `metalslice: internal error: ${err.message.split('\n')[0]} (rerun with --debug for the stack trace, and report it)\n`);
    return 70;
  }
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  let exitCode = 0;
  const program = new Command('metalslice')
    .description('Slice bare-metal capacity into KubeVirt VMs, quotas and node pools for tenant clusters, and prove it fits.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .showHelpAfterError('(run metalslice --help for usage)');

  program
    .command('plan')
    .description('validate and plan a config (YAML or JSON): every quota and pool must fit, down to the host of each VM')
    .argument('<config>', 'the config file')
    .addOption(new Option('--json', 'print the plan as one JSON object').conflicts('markdown'))
    .addOption(new Option('--markdown', 'print the plan as Markdown (for pull requests)').conflicts('json'))
    .option('--previous <plan.json>', 'show what changed since a previous plan (metalslice-plan.json or --json output)')
    .action(async (config: string, opts: { json?: boolean; markdown?: boolean; previous?: string }) => {
      exitCode = await runPlan(config, opts, io);
    });

  program
    .command('pack')
    .description('vector bin packing of a VPSolver .vbp instance with the planner\'s placement engine')
    .argument('<file>', 'the .vbp file')
    .option('--time-limit-ms <n>', 'time budget in milliseconds', (v) => {
      if (!/^\d+$/.test(v) || Number(v) <= 0) throw new CommanderError(2, 'metalslice.usage', `--time-limit-ms must be a positive whole number of milliseconds (got "${v}")`);
      return Number(v);
    })
    .action(async (file: string, opts: { timeLimitMs?: number }) => {
      exitCode = await runPack(file, { timeLimitMs: opts.timeLimitMs }, io);
    });

  program
    .command('verify')
    .description('plan a config, then replay the plan on a real control plane (etcd, kube-apiserver, kube-scheduler, KWOK nodes) and count the launcher pods that bind')
    .argument('<config>', 'the config file')
    .option('--json', 'print the result as one JSON object')
    .addOption(new Option('--order <order>', 'pod creation order').choices(['deploy', 'shuffled']).default('deploy'))
    .option('--seed <n>', 'seed of the shuffled order', (v) => {
      if (!/^\d+$/.test(v)) throw new CommanderError(2, 'metalslice.usage', `--seed must be a whole number (got "${v}")`);
      return Number(v);
    })
    .action(async (config: string, opts: { json?: boolean; order: 'deploy' | 'shuffled'; seed?: number }) => {
      exitCode = await runVerify(config, opts, io);
    });

  program
    .command('inventory')
    .description('read Nodes and BareMetalHosts from a cluster and write the inventory file that fleets (hostsFile) and metal3 providers use')
    .option('--kubeconfig <file>', 'kubeconfig of the provider cluster (default: as kubectl, $KUBECONFIG then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .option('--out <file>', 'write the inventory here instead of standard output')
    .action(async (opts: { kubeconfig?: string; context?: string; out?: string }) => {
      exitCode = await runInventory(opts, io);
    });

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
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
