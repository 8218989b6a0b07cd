import { describe, expect, it } from '@jest/globals';
import * as path from 'path';
import { parse } from 'yaml';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { caCertHash, renderJoinCloudConfig, selfSettableLabels } from '../../constructs/render/cloud-init';
import { renderKubeVirt, renderVirtualMachine } from '../../constructs/render/kubevirt';
import { renderConsumerRole, renderConsumerRoleBinding, renderQuotaNamespace, renderResourceQuota } from '../../constructs/render/quota';
import { renderBootstrapTokenSecret, renderUserDataSecret } from '../../constructs/render/secrets';
import { cloudInitSchemaCheck } from '../support/cloud-init';
import { validateCoreObject } from '../support/core-schema';
import { validateAgainstCrd } from '../support/crd-schema';
import { EXAMPLE_CA, REPO_ROOT } from '../support/models';
import { setAt } from '../support/json-tree';
import { defined } from '../support/defined';
import type { JoinConfiguration } from '../support/kube-docs';

const plan = planModel(loadConfigFile(path.join(REPO_ROOT, 'examples', 'metalslice.yaml')));
const FAKE_TOKEN = 'abcdef.0123456789abcdef';

function joinDocument(pool = plan.pools[0]) {
  return renderJoinCloudConfig({
    nodeName: pool.nodes[0].name,
    endpoint: 'https://10.0.0.10:6443',
    caCertificate: EXAMPLE_CA,
    token: FAKE_TOKEN,
    kubernetesVersion: '1.33',
    labels: { 'metalslice.io/pool': pool.name, 'node-role.kubernetes.io/worker': '', 'node.kubernetes.io/instance-type': pool.nodeType },
    taints: pool.spec.taints,
  });
}

describe('rendered objects', () => {
  it('the example plan is valid', () => expect(plan.errors).toEqual([]));

  it("the kubelet's graceful node shutdown ends within the VM's termination grace period, leaving the guest time to stop", () => {
    const doc = parse(joinDocument()) as { write_files: { path: string; content: string }[] };
    const join = parse(doc.write_files.find((f) => f.path === '/etc/kubernetes/kubeadm-join.yaml')!.content) as { patches?: { directory: string } };
    // kubeadm reads the patch from the directory the JoinConfiguration names, by kubeadm's file-name rule.
    const patch = doc.write_files.find((f) => f.path === `${join.patches?.directory}/kubeletconfiguration+merge.yaml`);
    const kubelet = parse(patch!.content) as { shutdownGracePeriod: string; shutdownGracePeriodCriticalPods: string };
    const seconds = (d: string) => Number(/^(\d+)s$/.exec(d)![1]);
    const vm = renderVirtualMachine(plan.vms[0], { userDataSecret: 'x' }) as unknown as {
      spec: { template: { spec: { terminationGracePeriodSeconds: number } } };
    };
    const vmGrace = vm.spec.template.spec.terminationGracePeriodSeconds;
    expect(seconds(kubelet.shutdownGracePeriodCriticalPods)).toBeGreaterThan(0);
    expect(seconds(kubelet.shutdownGracePeriodCriticalPods)).toBeLessThan(seconds(kubelet.shutdownGracePeriod));
    expect(vmGrace - seconds(kubelet.shutdownGracePeriod)).toBeGreaterThanOrEqual(30);
  });

  it('KubeVirt CR validates against the upstream CRD', () => {
    expect(validateAgainstCrd(renderKubeVirt(plan.fleets[0], plan.vms))).toEqual([]);
  });

  it.each(['spread', 'planned'] as const)('every VM of the plan (%s placement) validates against the upstream CRD', (placement) => {
    const concrete = plan.vms.filter((vm) => vm.concrete);
    expect(concrete.length).toBeGreaterThan(0);
    for (const planned of concrete) {
      const vm = renderVirtualMachine({ ...planned, placement }, { userDataSecret: `${planned.name}-cloudinit` });
      expect(validateAgainstCrd(vm)).toEqual([]);
    }
  });

  it('VMs with every option KubeVirt users expect validate, and devices are GPUs or host devices by kind', () => {
    const vm0 = plan.vms[0];
    const gpu = { resourceName: 'nvidia.com/gpu', kind: 'gpu' as const, count: 1 };
    const nic = { resourceName: 'intel.com/e810_vf', kind: 'hostDevice' as const, count: 2 };
    const vm = renderVirtualMachine(
      {
        ...vm0,
        rootDisk: 'containerDisk',
        guest: {
          ...vm0.guest,
          sockets: 2,
          cores: 2,
          threads: 2,
          dedicatedCpus: true,
          isolateEmulatorThread: true,
          hugepages: '2Mi',
          ioThreads: 2,
          serialConsoleLog: false,
          graphics: false,
          devices: [gpu, nic],
        },
        eviction: { strategy: 'None', migratable: false, reason: 'pinned' },
      },
      { userDataSecret: 'gpu-0-cloudinit' },
    );
    expect(validateAgainstCrd(vm)).toEqual([]);
    const text = JSON.stringify(vm);
    expect(text).toContain('"gpus":[{"name":"gpu0","deviceName":"nvidia.com/gpu"}]');
    expect(text).toContain('"hostDevices":[{"name":"hostdev0","deviceName":"intel.com/e810_vf"},{"name":"hostdev1","deviceName":"intel.com/e810_vf"}]');
    expect(text).toContain('"evictionStrategy":"None"');
    expect(text).toContain('"supplementalPoolThreadCount":2');
  });

  it('the VM requests exactly the CPU and memory the plan counted', () => {
    const planned = plan.vms[0];
    const vm = renderVirtualMachine(planned, { userDataSecret: 's' }) as unknown as {
      spec: { template: { spec: { domain: { resources: { requests: { cpu: string; memory: string } }; cpu: { cores: number } } } } };
    };
    expect(vm.spec.template.spec.domain.resources.requests).toEqual({
      cpu: planned.vmiRequests.cpu!.toString(),
      memory: planned.vmiRequests.memory.toString(),
    });
    expect(vm.spec.template.spec.domain.cpu.cores).toBe(Number(planned.shape.cpu.ceilUnits()));
  });

  it('a VM that the validator should reject is rejected (the check has teeth)', () => {
    const vm = renderVirtualMachine(plan.vms[0], { userDataSecret: 's' });
    const broken = structuredClone(vm);
    setAt(broken, ['spec', 'template', 'spec', 'domain', 'cpu', 'cores'], 'lots');
    expect(validateAgainstCrd(broken)).not.toEqual([]);
  });

  it('quota objects validate as core Kubernetes objects', () => {
    for (const quota of plan.quotas) {
      for (const obj of [renderQuotaNamespace(quota), renderResourceQuota(quota), renderConsumerRole(quota), renderConsumerRoleBinding(quota)]) {
        expect(validateCoreObject(obj)).toEqual([]);
      }
    }
  });

  it("the ResourceQuota holds the plan's line, VM count included", () => {
    const rq = renderResourceQuota(plan.quotas[0]) as unknown as { spec: { hard: Record<string, string> } };
    expect(rq.spec.hard).toEqual({ 'count/virtualmachines.kubevirt.io': '40', 'requests.cpu': '256', 'requests.memory': '1Ti', 'requests.storage': '8Ti' });
  });

  it('secrets validate as core Kubernetes objects', () => {
    expect(validateCoreObject(renderUserDataSecret('n-cloudinit', 'ns', 'p', joinDocument()))).toEqual([]);
    expect(
      validateCoreObject(
        renderBootstrapTokenSecret({ tokenId: 'abcdef', tokenSecret: '0123456789abcdef', expiration: '2030-01-01T00:00:00Z', description: 'd' }),
      ),
    ).toEqual([]);
    expect(validateCoreObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' }, stringData: { a: 1 } })).not.toEqual([]);
  });

  it("every join document passes cloud-init's own schema check", () => {
    for (const pool of plan.pools) {
      const result = cloudInitSchemaCheck(joinDocument(pool));
      expect(result.output).toMatch(/^Valid/m);
      expect(result.ok).toBe(true);
    }
  });

  it("cloud-init's schema check rejects a broken document (the check has teeth)", () => {
    expect(cloudInitSchemaCheck('#cloud-config\nruncmd: 42\npackages: {a: 1}\n').ok).toBe(false);
  });

  it('joins with kubeadm v1beta4, the CA hash and the node labels, never a node-role label', () => {
    const doc = parse(joinDocument()) as { write_files: { path: string; content: string }[]; runcmd: string[][] };
    const join = parse(
      defined(
        doc.write_files.find((f) => f.path === '/etc/kubernetes/kubeadm-join.yaml'),
        'the join file',
      ).content,
    ) as JoinConfiguration;
    expect(join.apiVersion).toBe('kubeadm.k8s.io/v1beta4');
    expect(join.discovery.bootstrapToken).toEqual({ apiServerEndpoint: '10.0.0.10:6443', token: FAKE_TOKEN, caCertHashes: [caCertHash(EXAMPLE_CA)] });
    expect(join.nodeRegistration.kubeletExtraArgs).toEqual([
      { name: 'node-labels', value: 'metalslice.io/pool=team-a-workers,node.kubernetes.io/instance-type=team-a-workers' },
    ]);
    expect(doc.runcmd.at(-1)).toEqual(['kubeadm', 'join', '--config', '/etc/kubernetes/kubeadm-join.yaml']);
    expect(JSON.stringify(doc)).toContain('https://pkgs.k8s.io/core:/stable:/v1.33/deb/');
  });

  it('drops labels a kubelet may not set on itself', () => {
    expect(selfSettableLabels({ 'node-role.kubernetes.io/worker': '', 'kubernetes.io/foo': 'x', 'a.io/b': 'c', 'topology.kubernetes.io/zone': 'z' })).toEqual({
      'a.io/b': 'c',
      'topology.kubernetes.io/zone': 'z',
    });
  });

  it('hashes the CA public key as kubeadm does (sha256 of the SubjectPublicKeyInfo)', () => {
    expect(caCertHash(EXAMPLE_CA)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
