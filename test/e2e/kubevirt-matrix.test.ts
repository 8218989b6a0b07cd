// Every combination the plan accepts is one KubeVirt accepts, charged exactly as KubeVirt charges it; every
// combination it refuses, KubeVirt refuses too. KubeVirt's own code judges (the oracle: its mutating and
// validating webhooks, VM controller and launcher renderer) a generated matrix of VM options, rendered by
// metalslice's one renderer as every road writes them.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { Quantity } from '../../constructs/core/base/quantity';
import { oracleBinary } from '../oracles/kubevirt-launcher/generate-goldens';
import { buildCase } from '../support/kubevirt-cases';
import { MATRIX_SIZE, matrixSpecs } from '../support/kubevirt-matrix';

interface OracleCase {
  readonly error?: string;
  readonly memoryOverhead?: string;
  readonly podRequests?: Record<string, string | number>;
}
const VIRT_DEVICES = ['devices.kubevirt.io/kvm', 'devices.kubevirt.io/tun', 'devices.kubevirt.io/vhost-net'];

describe('the VM option matrix, judged by KubeVirt', () => {
  it(`${MATRIX_SIZE} combinations: the plan refuses exactly what KubeVirt refuses and charges exactly what it charges`, () => {
    const cases = matrixSpecs().map(buildCase);
    const input = JSON.stringify({ cases: cases.map((c) => ({ name: c.name, kubevirt: c.input.kubevirt, vm: c.input.vm })) });
    const out = JSON.parse(execFileSync(oracleBinary(), [], { input, encoding: 'utf8', maxBuffer: 256 << 20 })) as { cases: OracleCase[] };
    const wrong: string[] = [];
    let accepted = 0;
    cases.forEach((c, i) => {
      const kubevirt = out.cases[i];
      const spec = JSON.stringify({ vm: (c.input.vm.spec as { template: unknown }).template, kubevirt: c.input.kubevirt.spec });
      if ('refused' in c.planned) {
        if (kubevirt.error === undefined)
          wrong.push(`${c.name}: the plan refuses (${c.planned.refused.map((r) => r.message).join('; ')}) what KubeVirt accepts: ${spec}`);
        return;
      }
      if (kubevirt.error !== undefined) {
        wrong.push(`${c.name}: the plan accepts what KubeVirt refuses (${kubevirt.error}): ${spec}`);
        return;
      }
      accepted += 1;
      const theirs = Object.entries(kubevirt.podRequests ?? {}).filter(([k]) => !/(Milli|Bytes)$/.test(k) && !VIRT_DEVICES.includes(k));
      const ours = c.planned.launcher.requests;
      const differs = [
        ...theirs
          .filter(([k, v]) => !ours[k] || ours[k].nano !== Quantity.parse(String(v)).nano)
          .map(([k, v]) => `${k}: KubeVirt ${v}, plan ${ours[k]?.toString() ?? '-'}`),
        ...Object.keys(ours)
          .filter((k) => !theirs.some(([t]) => t === k))
          .map((k) => `${k}: plan ${ours[k].toString()}, KubeVirt none`),
      ];
      if (c.planned.launcher.memoryOverhead.nano !== Quantity.parse(kubevirt.memoryOverhead!).nano)
        differs.push(`overhead: KubeVirt ${kubevirt.memoryOverhead}, plan ${c.planned.launcher.memoryOverhead.toString()}`);
      if (differs.length > 0) wrong.push(`${c.name}: charged differently (${differs.join('; ')}): ${spec}`);
    });
    process.stdout.write(`KubeVirt matrix: ${cases.length} combinations, ${accepted} accepted and charged, ${cases.length - accepted} refused\n`);
    expect(wrong).toEqual([]);
    // The matrix must exercise both sides, or it proves nothing.
    expect(accepted).toBeGreaterThan(MATRIX_SIZE / 4);
    expect(cases.length - accepted).toBeGreaterThan(MATRIX_SIZE / 10);
  }, 900_000);
});
