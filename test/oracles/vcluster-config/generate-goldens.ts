/**
 * Regenerates test/golden/vcluster-conformance.json: vCluster's own verdict (the oracle runs vCluster
 * v0.36.1's config parser and validation) on every file of test/conformance/vcluster. Usage (repo root):
 *   npx tsx test/oracles/vcluster-config/generate-goldens.ts [--check]
 * --check compares instead of writing and exits 1 on any difference (the e2e suite runs it).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { writeOrCheckGolden } from '../golden-file';
import { CORPUS_GOLDEN, corpusFiles } from '../../support/vcluster-corpus';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The oracle binary, built (once, cached) by scripts/vcluster-oracle.sh. */
export function oracleBinary(): string {
  return execFileSync('bash', [path.join(ROOT, 'scripts', 'vcluster-oracle.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .pop()!;
}

/** The golden document: each corpus file's verdict from vCluster's code. */
export function runOracle(binary: string): string {
  const files = corpusFiles();
  const input = JSON.stringify(files.map((f) => ({ name: f.name, yaml: f.text })));
  const schema = path.join(ROOT, 'vendor', 'vcluster', 'v0.36.1', 'values.schema.json');
  const verdicts = JSON.parse(execFileSync(binary, [schema], { input, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['pipe', 'pipe', 'ignore'] })) as Record<
    string,
    unknown
  >[];
  const golden = {
    source:
      "test/oracles/vcluster-config (vCluster v0.36.1's pkg/config.ParseConfigBytes, and its chart JSON Schema as Helm applies it) on test/conformance/vcluster/*.yaml",
    vclusterVersion: 'v0.36.1',
    files: verdicts,
  };
  return `${JSON.stringify(golden, null, 1)}\n`;
}

if (require.main === module) writeOrCheckGolden(CORPUS_GOLDEN, runOracle(oracleBinary()), "vCluster's code");
