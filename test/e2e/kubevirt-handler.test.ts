// KubeVirt's own per-host pod, from KubeVirt's own code: the oracle renders the virt-handler DaemonSet that
// virt-operator installs for the KubeVirt CR metalslice deploys, and the plan must charge every host exactly
// what that pod requests, and treat it as the launcher pods do (virt-handler tolerates nothing that keeps
// launcher pods off a host, so the figures are per host VMs can use).
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { virtHandlerRequests } from '../../constructs/core/kubevirt/handler';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { formatResources } from '../../constructs/core/base/resources';
import { renderKubeVirt } from '../../constructs/render/kubevirt';
import { oracleBinary } from '../oracles/kubevirt-launcher/generate-goldens';

interface HandlerOut {
  readonly kubevirtVersion: string;
  readonly virtHandler: { readonly podRequests: Record<string, string | number>; readonly error?: string };
}

describe("KubeVirt's virt-handler pod", () => {
  it('is charged to every host exactly as KubeVirt v1.9.0 renders it for the fleet metalslice deploys', () => {
    const plan = planModel(loadConfigFile(path.resolve(__dirname, '..', '..', 'examples', 'metalslice.yaml')));
    const kubevirt = renderKubeVirt(plan.fleets[0], plan.vms);
    const input = JSON.stringify({ cases: [], virtHandler: kubevirt });
    const out = JSON.parse(execFileSync(oracleBinary(), [], { input, encoding: 'utf8' })) as HandlerOut;
    expect(out.virtHandler.error).toBeUndefined();
    expect(out.kubevirtVersion).toBe('v1.9.0');
    const { cpu, memory } = out.virtHandler.podRequests;
    const ours = formatResources(virtHandlerRequests());
    expect({ cpu: ours.cpu, memory: ours.memory, pods: ours.pods }).toEqual({ cpu, memory, pods: '1' });
    // Every usable host of the example gives VMs its Node's allocatable less reservedPerHost and exactly that pod.
    for (const host of plan.fleets[0].hosts) {
      expect(formatResources(host.taken.virtHandler)).toEqual(ours);
    }
  });
});
