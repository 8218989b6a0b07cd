// The verdicts the vcluster.yaml conformance test holds metalslice to must be vCluster's word, not ours:
// rerun vCluster's own config validation (the oracle, built by the toolchain) on the corpus and compare.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { oracleBinary, runOracle } from '../oracles/vcluster-config/generate-goldens';
import { CORPUS_GOLDEN } from '../support/vcluster-corpus';

describe('vcluster.yaml conformance goldens', () => {
  it("are exactly what vCluster v0.36.1's code says of every corpus file", () => {
    const fresh = runOracle(oracleBinary());
    expect((JSON.parse(fresh) as { files: unknown[] }).files.length).toBeGreaterThanOrEqual(60);
    expect(fresh).toBe(fs.readFileSync(CORPUS_GOLDEN, 'utf8'));
  }, 900_000);
});
