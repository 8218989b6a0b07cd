/**
 * Writes every output a refactor must keep byte-identical into one directory, so two runs compare with
 * `diff -r`: the plan (JSON and text) of each example config, the plan JSON and synthesized objects of each
 * vcluster.yaml conformance file (planned against the suite's catalogue), the plan JSON of every scale instance
 * the benchmarks plan (bench:scale's 100 and 1,000 hosts, bench:verify's configs), and the synthesized stacks of
 * the example apps (examples/app.ts; examples/config-app.ts in both layouts).
 *
 *   npx tsx test/support/plan-snapshot.ts /tmp/before   # then change the code, and
 *   npx tsx test/support/plan-snapshot.ts /tmp/after && diff -r /tmp/before /tmp/after
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { main } from '../../constructs/cli/main';
import { MetalsliceError } from '../../constructs/core/base/errors';
import type { MetalsliceConfig } from '../../constructs/core/input/model';
import { planModel } from '../../constructs/core/plan';
import { planJson } from '../../constructs/core/report';
import { REPO_ROOT } from './models';
import { synthConfigObjects } from './stack-objects';
import { corpusCatalogue, corpusFiles, corpusModel } from './vcluster-corpus';
import { planInstance } from '../../bench/scale-fixtures';
import {
  drainFleetConfig,
  fullFleetConfig,
  migrationFleetConfig,
  mixedSpreadConfig,
  mixedSpreadKeptConfig,
  scaleConfig,
  spreadScaleConfig,
} from '../../bench/verify-fixtures';

function write(out: string, relative: string, text: string): void {
  const file = path.join(out, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Runs the CLI in process and keeps its exit code, standard output and standard error. */
async function cli(argv: string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), columns: 100, color: false });
  return `exit ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`;
}

async function examples(out: string): Promise<void> {
  const dir = path.join(REPO_ROOT, 'examples');
  for (const name of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const file = path.join('examples', name);
    write(out, `examples/${name}.plan.json`, await cli(['plan', file, '--json']));
    write(out, `examples/${name}.plan.txt`, await cli(['plan', file]));
    write(out, `examples/${name}.plan.md`, await cli(['plan', file, '--markdown']));
  }
}

function conformance(out: string): void {
  const catalogue = corpusCatalogue();
  for (const file of corpusFiles()) {
    let text: string;
    try {
      const planned = planModel(corpusModel(file, catalogue));
      text = planJson(planned.report);
      if (planned.report.ok)
        write(out, `conformance/${file.name}.objects.json`, `${JSON.stringify(synthConfigObjects(corpusModel(file, catalogue)), null, 2)}\n`);
    } catch (e) {
      if (!(e instanceof MetalsliceError)) throw e;
      text = `refused:\n${e.message}\n`;
    }
    write(out, `conformance/${file.name}.plan.json`, text);
  }
}

/** The instances the benchmarks plan, up to 10,000 VMs: a refactor of the planner must not change one of their plans. */
function scaleInstances(out: string): void {
  const instances: Record<string, MetalsliceConfig> = {
    'scale-100-hosts': planInstance(100).model,
    'scale-1000-hosts': planInstance(1000).model,
    'verify-spread-100-hosts': spreadScaleConfig(100),
    'verify-pinned-100-hosts': scaleConfig(100, 10),
    'verify-spread-1000-hosts': spreadScaleConfig(1000),
    'verify-pinned-1000-hosts': scaleConfig(1000, 50),
    'verify-mixed-spread': mixedSpreadConfig(),
    'verify-mixed-spread-kept': mixedSpreadKeptConfig(),
    'verify-full-fleet': fullFleetConfig(),
    'verify-migration-fleet': migrationFleetConfig(),
    'verify-drain-fleet': drainFleetConfig(),
  };
  for (const [name, model] of Object.entries(instances)) write(out, `scale/${name}.plan.json`, planJson(planModel(model).report));
}

/** Synthesizes an example app as `cdktf synth` does, into `out/<name>`; every file it writes is kept. */
function synthApp(out: string, name: string, app: string, env: Record<string, string> = {}): void {
  const outdir = path.join(out, name);
  fs.mkdirSync(outdir, { recursive: true });
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(REPO_ROOT, 'examples', app)], {
    cwd: REPO_ROOT,
    env: { ...process.env, CHECKPOINT_DISABLE: '1', CDKTF_OUTDIR: outdir, ...env },
    stdio: 'pipe',
  });
  // cdktf's manifest keeps stack traces of its warnings: where node_modules is on this machine is not output.
  const manifest = path.join(outdir, 'manifest.json');
  if (fs.existsSync(manifest)) fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace(/\(\/[^()]*\/node_modules\//g, '(<node_modules>/'));
}

async function snapshot(out: string): Promise<void> {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  await examples(out);
  conformance(out);
  scaleInstances(out);
  synthApp(out, 'synth/app', 'app.ts');
  synthApp(out, 'synth/config-app-one-stack', 'config-app.ts');
  synthApp(out, 'synth/config-app-stack-per-pool', 'config-app.ts', { METALSLICE_LAYOUT: 'stack-per-pool' });
}

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: npx tsx test/support/plan-snapshot.ts OUTPUT_DIR\n');
  process.exit(2);
}
snapshot(path.resolve(target)).then(
  () => process.stdout.write(`plan snapshot written to ${target}\n`),
  (e: unknown) => {
    process.stderr.write(`plan snapshot failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
