import * as path from 'path';
import { parse } from 'yaml';
import { loadConfigFile } from '../../constructs/core/config';
import { planModel } from '../../constructs/core/plan';
import { Quantity } from '../../constructs/core/quantity';
import { caCertHash, renderJoinCloudConfig, selfSettableLabels } from '../../constructs/render/cloud-init';
import { renderKubeVirt, renderVirtualMachine } from '../../constructs/render/kubevirt';
import { renderConsumerRole, renderConsumerRoleBinding, renderQuotaNamespace, renderResourceQuota } from '../../constructs/render/quota';
import { renderBootstrapTokenSecret, renderUserDataSecret } from '../../constructs/render/secrets';
import { cloudInitSchemaCheck } from '../support/cloud-init';
import { validateCoreObject } from '../support/core-schema';
import { validateAgainstCrd } from '../support/crd-schema';
import { EXAMPLE_CA, REPO_ROOT } from '../support/models';

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

  it('KubeVirt CR validates against the upstream CRD', () => {
    expect(validateAgainstCrd(renderKubeVirt(plan.fleets[0]))).toEqual([]);
  });

  it.each(['spread', 'planned'])('a VirtualMachine (%s placement) validates against the upstream CRD', (placement) => {
    for (const pool of plan.pools) {
      const vm = renderVirtualMachine({
        pool: { ...pool, spec: { ...pool.spec, placement: placement as 'spread' | 'planned' } },
        nodeName: pool.nodes[0].name,
        host: placement === 'planned' ? pool.nodes[0].host : undefined,
        cpuAllocationRatio: 1,
        userDataSecret: `${pool.nodes[0].name}-cloudinit`,
      });
      expect(validateAgainstCrd(vm)).toEqual([]);
    }
  });

  it('a containerDisk VM with a GPU validates too', () => {
    const pool = { ...plan.pools[0], spec: { ...plan.pools[0].spec, rootDisk: 'containerDisk' as const }, shape: { ...plan.pools[0].shape, 'nvidia.com/gpu': Quantity.parse('1') } };
    const vm = renderVirtualMachine({ pool, nodeName: 'gpu-0', cpuAllocationRatio: 1, userDataSecret: 'gpu-0-cloudinit' });
    expect(validateAgainstCrd(vm)).toEqual([]);
    expect(JSON.stringify(vm)).toContain('"deviceName":"nvidia.com/gpu"');
  });

  it('the VM requests exactly the CPU and memory the plan counted', () => {
    const pool = plan.pools[0];
    const vm = renderVirtualMachine({ pool, nodeName: 'x', cpuAllocationRatio: 1, userDataSecret: 's' }) as unknown as {
      spec: { template: { spec: { domain: { resources: { requests: { cpu: string; memory: string } }; cpu: { cores: number } } } } };
    };
    expect(vm.spec.template.spec.domain.resources.requests).toEqual({ cpu: '8', memory: '32Gi' });
    expect(vm.spec.template.spec.domain.cpu.cores).toBe(8);
  });

  it('a VM that the validator should reject is rejected (the check has teeth)', () => {
    const vm = renderVirtualMachine({ pool: plan.pools[0], nodeName: 'x', cpuAllocationRatio: 1, userDataSecret: 's' });
    const broken = JSON.parse(JSON.stringify(vm));
    broken.spec.template.spec.domain.cpu.cores = 'lots';
    expect(validateAgainstCrd(broken)).not.toEqual([]);
  });

  it('quota objects validate as core Kubernetes objects', () => {
    for (const quota of plan.quotas) {
      for (const obj of [renderQuotaNamespace(quota), renderResourceQuota(quota), renderConsumerRole(quota), renderConsumerRoleBinding(quota)]) {
        expect(validateCoreObject(obj)).toEqual([]);
      }
    }
  });

  it('the ResourceQuota holds the plan\'s line, VM count included', () => {
    const rq = renderResourceQuota(plan.quotas[0]) as unknown as { spec: { hard: Record<string, string> } };
    expect(rq.spec.hard).toEqual({ 'count/virtualmachines.kubevirt.io': '40', 'requests.cpu': '256', 'requests.memory': '1Ti', 'requests.storage': '8Ti' });
  });

  it('secrets validate as core Kubernetes objects', () => {
    expect(validateCoreObject(renderUserDataSecret('n-cloudinit', 'ns', 'p', joinDocument()))).toEqual([]);
    expect(validateCoreObject(renderBootstrapTokenSecret({ tokenId: 'abcdef', tokenSecret: '0123456789abcdef', expiration: '2030-01-01T00:00:00Z', description: 'd' }))).toEqual([]);
    expect(validateCoreObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' }, stringData: { a: 1 } })).not.toEqual([]);
  });

  it('every join document passes cloud-init\'s own schema check', () => {
    for (const pool of plan.pools) {
      const result = cloudInitSchemaCheck(joinDocument(pool));
      expect(result.output).toMatch(/^Valid/m);
      expect(result.ok).toBe(true);
    }
  });

  it('cloud-init\'s schema check rejects a broken document (the check has teeth)', () => {
    expect(cloudInitSchemaCheck('#cloud-config\nruncmd: 42\npackages: {a: 1}\n').ok).toBe(false);
  });

  it('joins with kubeadm v1beta4, the CA hash and the node labels, never a node-role label', () => {
    const doc = parse(joinDocument()) as { write_files: { path: string; content: string }[]; runcmd: string[][] };
    const join = parse(doc.write_files.find((f) => f.path === '/etc/kubernetes/kubeadm-join.yaml')!.content);
    expect(join.apiVersion).toBe('kubeadm.k8s.io/v1beta4');
    expect(join.discovery.bootstrapToken).toEqual({ apiServerEndpoint: '10.0.0.10:6443', token: FAKE_TOKEN, caCertHashes: [caCertHash(EXAMPLE_CA)] });
    expect(join.nodeRegistration.kubeletExtraArgs).toEqual([{ name: 'node-labels', value: 'metalslice.io/pool=team-a-workers,node.kubernetes.io/instance-type=team-a-workers' }]);
    expect(doc.runcmd.at(-1)).toEqual(['kubeadm', 'join', '--config', '/etc/kubernetes/kubeadm-join.yaml']);
    expect(JSON.stringify(doc)).toContain('https://pkgs.k8s.io/core:/stable:/v1.33/deb/');
  });

  it('drops labels a kubelet may not set on itself', () => {
    expect(selfSettableLabels({ 'node-role.kubernetes.io/worker': '', 'kubernetes.io/foo': 'x', 'a.io/b': 'c', 'topology.kubernetes.io/zone': 'z' })).toEqual({ 'a.io/b': 'c', 'topology.kubernetes.io/zone': 'z' });
  });

  it('hashes the CA public key as kubeadm does (sha256 of the SubjectPublicKeyInfo)', () => {
    expect(caCertHash(EXAMPLE_CA)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
