// The launcher-pod goldens the unit tests compare the planner with must be KubeVirt's word, not ours: rerun
// KubeVirt's own code (the oracle, built by the toolchain) on what metalslice renders today and compare.
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import { GOLDEN_FILE, oracleBinary, runOracle } from '../oracles/kubevirt-launcher/generate-goldens';

describe('KubeVirt launcher goldens', () => {
  it("are exactly what KubeVirt v1.9.0's code renders for the VMs metalslice writes", () => {
    const fresh = runOracle(oracleBinary());
    const golden = fs.readFileSync(GOLDEN_FILE, 'utf8');
    expect((JSON.parse(fresh) as { cases: unknown[] }).cases.length).toBeGreaterThanOrEqual(20);
    expect(fresh).toBe(golden);
  }, 900_000);
});
