/**
 * metalslice's launcher-pod accounting against KubeVirt's own: test/golden/kubevirt-launcher.json was made
 * by running KubeVirt's code (test/oracles/kubevirt-launcher) on exactly what metalslice renders for each
 * case. The e2e suite reruns the oracle and checks the goldens are current.
 */
import { describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUBEVIRT_VERSION, launcherScheduling } from '../../constructs/core/kubevirt/launcher';
import { Quantity } from '../../constructs/core/base/quantity';
import { goldenCases } from '../support/kubevirt-cases';
import { REPO_ROOT } from '../support/models';
import type { RenderedVm } from '../support/kube-docs';

interface OracleCase {
  readonly error?: string;
  readonly memoryOverhead?: string;
  readonly podRequests?: Record<string, string | number>;
  readonly scheduling?: Record<string, unknown>;
}
const golden = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'golden', 'kubevirt-launcher.json'), 'utf8')) as {
  kubevirtVersion: string;
  cases: { name: string; input: unknown; kubevirt: OracleCase }[];
};
const cases = goldenCases();
const byName = new Map(golden.cases.map((c) => [c.name, c]));
// What KubeVirt's device plugins add to every launcher pod; hosts offer 1000 of each (virt-handler).
const VIRT_DEVICES = ['devices.kubevirt.io/kvm', 'devices.kubevirt.io/tun', 'devices.kubevirt.io/vhost-net'];

describe(`launcher pods, against KubeVirt ${KUBEVIRT_VERSION}'s own code`, () => {
  it('the goldens come from the pinned KubeVirt version and cover at least 20 VM specs', () => {
    expect(golden.kubevirtVersion).toBe(KUBEVIRT_VERSION);
    expect(golden.cases.length).toBeGreaterThanOrEqual(20);
    expect(golden.cases.map((c) => c.name)).toEqual(cases.map((c) => c.name));
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: the goldens were made from what metalslice renders today', (name, c) => {
    // A renderer change must regenerate the goldens (npx tsx test/oracles/kubevirt-launcher/generate-goldens.ts).
    expect(JSON.parse(JSON.stringify(c.input))).toEqual(byName.get(name)!.input);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: the plan counts what KubeVirt renders, to the millicore and the byte', (name, c) => {
    const kubevirt = byName.get(name)!.kubevirt;
    if ('refused' in c.planned) {
      expect(kubevirt.error).toBeDefined();
      expect(c.planned.refused.length).toBeGreaterThan(0);
      return;
    }
    expect(kubevirt.error).toBeUndefined();
    const requests = kubevirt.podRequests!;
    const ours = c.planned.launcher.requests;
    const theirs = Object.fromEntries(Object.entries(requests).filter(([k]) => !/(Milli|Bytes)$/.test(k) && !VIRT_DEVICES.includes(k)));
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    for (const [resource, value] of Object.entries(theirs))
      expect(`${resource}=${ours[resource].nano}`).toBe(`${resource}=${Quantity.parse(String(value)).nano}`);
    expect(c.planned.launcher.memoryOverhead.nano).toBe(Quantity.parse(kubevirt.memoryOverhead!).nano);
    for (const d of VIRT_DEVICES) expect(requests[d]).toBe('1');
  });

  it.each(cases.filter((c) => !('refused' in c.planned)).map((c) => [c.name, c] as const))(
    '%s: the replay puts the scheduling fields on the launcher pod that KubeVirt does',
    (name, c) => {
      // verify's launcher pods (and so kube-scheduler's verdict) rest on this mirror of virt-controller.
      const theirs = byName.get(name)!.kubevirt.scheduling!;
      const ours = launcherScheduling((c.input.vm as unknown as RenderedVm).spec.template.spec);
      expect(ours.nodeSelector).toEqual(theirs.nodeSelector);
      expect(ours.affinity).toEqual(theirs.affinity);
      expect(ours.tolerations ?? null).toEqual(theirs.tolerations);
      expect(ours.topologySpreadConstraints ?? null).toEqual(theirs.topologySpreadConstraints);
    },
  );
});
