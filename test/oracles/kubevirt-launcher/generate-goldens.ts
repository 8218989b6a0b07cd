/**
 * Regenerates test/golden/kubevirt-launcher.json: every case of test/support/kubevirt-cases.ts, rendered by
 * metalslice, run through KubeVirt's own code by the oracle. Usage (from the repo root):
 *   npx tsx test/oracles/kubevirt-launcher/generate-goldens.ts [--check]
 * --check compares instead of writing and exits 1 on any difference (the e2e suite runs it).
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { writeOrCheckGolden } from '../golden-file';
import { goldenCases } from '../../support/kubevirt-cases';

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const GOLDEN_FILE = path.join(ROOT, 'test', 'golden', 'kubevirt-launcher.json');

/** The oracle binary, built (once, cached) by scripts/kubevirt-oracle.sh. */
export function oracleBinary(): string {
  return execFileSync('bash', [path.join(ROOT, 'scripts', 'kubevirt-oracle.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .pop()!;
}

/** The golden document: what metalslice renders, and what KubeVirt makes of it. */
export function runOracle(binary: string): string {
  const cases = goldenCases();
  const input = JSON.stringify({ cases: cases.map((c) => ({ name: c.name, kubevirt: c.input.kubevirt, vm: c.input.vm })) });
  const out = JSON.parse(execFileSync(binary, [], { input, encoding: 'utf8', maxBuffer: 64 << 20 })) as {
    kubevirtVersion: string;
    cases: Record<string, unknown>[];
  };
  const golden = {
    source: "test/oracles/kubevirt-launcher (KubeVirt's own webhooks, VM controller and launcher renderer) on the cases of test/support/kubevirt-cases.ts",
    kubevirtVersion: out.kubevirtVersion,
    cases: cases.map((c, i) => ({ name: c.name, input: c.input, kubevirt: out.cases[i] })),
  };
  return `${JSON.stringify(golden, null, 1)}\n`;
}

if (require.main === module) writeOrCheckGolden(GOLDEN_FILE, runOracle(oracleBinary()), "KubeVirt's code");
