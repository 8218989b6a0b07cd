/**
 * The two cdktf apps the synth benchmark compares. Both emit the same Terraform resources (same types,
 * same counts): `metalsliceApp` through the constructs (planned at synth), `bareApp` written by hand
 * with every manifest inline and no planning, the floor that cdktf itself sets.
 */
import { App, Fn, TerraformStack } from 'cdktf';
import { stringify } from 'yaml';
import { KubectlManifest } from '../constructs/plumbing/kubectl';
import { TerraformData } from '../constructs/plumbing/terraform-data';
import { NamespaceV1 } from '../constructs/providers/kubernetes/namespace-v1';
import { KubernetesProvider } from '../constructs/providers/kubernetes/provider';
import { RoleBindingV1 } from '../constructs/providers/kubernetes/role-binding-v1';
import { RoleV1 } from '../constructs/providers/kubernetes/role-v1';
import { SecretV1 } from '../constructs/providers/kubernetes/secret-v1';
import { Password } from '../constructs/providers/random/password';
import { RandomProvider } from '../constructs/providers/random/provider';
import { StringResource } from '../constructs/providers/random/string-resource';
import { CapacityPlan, ElasticFleet, ElasticNodePool, ElasticQuota, TenantCluster } from '../constructs';
import { clusterSpecs, fleetHosts, quotasFor, RESERVED_PER_HOST, synthPools, tenantCa } from './scale-fixtures';

export interface SynthSize {
  readonly hosts: number;
  readonly quotas: number;
  readonly pools: number;
  readonly perPool: number;
  readonly clusters: number;
}

export const SYNTH_SIZE: SynthSize = { hosts: 1000, quotas: 50, pools: 100, perPool: 50, clusters: 10 };

function instance(size: SynthSize) {
  const pools = synthPools(size.pools, size.perPool, size.clusters);
  const { quotas, quotaOf } = quotasFor(pools, size.quotas, 'bench');
  return { hosts: fleetHosts(size.hosts).hosts, pools, quotas, quotaOf, clusters: clusterSpecs(size.clusters, tenantCa()) };
}

/** The fleet, quotas, tenant clusters and elastic node pools as metalslice constructs. */
export function metalsliceApp(outdir: string, size: SynthSize = SYNTH_SIZE): App {
  const { hosts, pools, quotas, quotaOf, clusters } = instance(size);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'bench');
  new KubernetesProvider(stack, 'kubernetes', { configPath: '~/.kube/config' });
  new RandomProvider(stack, 'random');
  new CapacityPlan(stack, 'plan');
  const fleet = new ElasticFleet(stack, 'bench', { hosts, reservedPerHost: RESERVED_PER_HOST });
  const quotaConstructs = new Map(quotas.map((q) => [q.name, new ElasticQuota(stack, q.name, { fleet, organization: q.organization, limits: q.limits })]));
  const clusterConstructs = new Map(
    clusters.map((c) => [
      c.name,
      new TenantCluster(stack, c.name, { endpoint: c.endpoint, caCertificate: c.caCertificate, kubernetesVersion: c.kubernetesVersion }),
    ]),
  );
  pools.forEach((pool, i) => {
    new ElasticNodePool(stack, pool.name, {
      quota: quotaConstructs.get(quotaOf[i])!,
      cluster: clusterConstructs.get(pool.cluster)!,
      shape: pool.shape,
      count: pool.count,
      placement: pool.placement,
    });
  });
  return app;
}

const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'metalslice' };

/** A cloud-config of the same size and shape as a real join document, as a hand-written template. */
function bareCloudConfig(nodeName: string, endpoint: string, token: string, pool: string, quota: string, cluster: string): string {
  const repo = 'https://pkgs.k8s.io/core:/stable:/v1.33/deb/';
  const keyring = '/etc/apt/keyrings/kubernetes-apt-keyring.gpg';
  return `#cloud-config
hostname: ${nodeName}
fqdn: ${nodeName}
write_files:
  - path: /etc/modules-load.d/kubernetes.conf
    permissions: "0644"
    content: |
      overlay
      br_netfilter
  - path: /etc/sysctl.d/99-kubernetes.conf
    permissions: "0644"
    content: |
      net.bridge.bridge-nf-call-iptables = 1
      net.bridge.bridge-nf-call-ip6tables = 1
      net.ipv4.ip_forward = 1
  - path: /etc/kubernetes/kubeadm-join.yaml
    permissions: "0600"
    owner: root:root
    content: |
      apiVersion: kubeadm.k8s.io/v1beta4
      kind: JoinConfiguration
      discovery:
        bootstrapToken:
          apiServerEndpoint: ${endpoint.replace('https://', '')}
          token: ${token}
          caCertHashes:
            - sha256:0000000000000000000000000000000000000000000000000000000000000000
      nodeRegistration:
        name: ${nodeName}
        criSocket: unix:///run/containerd/containerd.sock
        kubeletExtraArgs:
          - name: node-labels
            value: metalslice.io/cluster=${cluster},metalslice.io/node-type=${pool},metalslice.io/pool=${pool},metalslice.io/quota=${quota},node.kubernetes.io/instance-type=${pool}
        taints: []
package_update: true
packages:
  - apt-transport-https
  - ca-certificates
  - curl
  - gpg
  - containerd
runcmd:
  - [modprobe, overlay]
  - [modprobe, br_netfilter]
  - [sysctl, --system]
  - [mkdir, -p, -m, "0755", /etc/apt/keyrings]
  - [sh, -c, "curl -fsSL ${repo}Release.key | gpg --dearmor --yes -o ${keyring}"]
  - [sh, -c, "echo \\"deb [signed-by=${keyring}] ${repo} /\\" > /etc/apt/sources.list.d/kubernetes.list"]
  - [apt-get, update]
  - [apt-get, install, -y, kubelet, kubeadm]
  - [apt-mark, hold, kubelet, kubeadm]
  - [sh, -c, "mkdir -p /etc/containerd && containerd config default | sed \\"s/SystemdCgroup = false/SystemdCgroup = true/\\" > /etc/containerd/config.toml"]
  - [systemctl, restart, containerd]
  - [systemctl, enable, --now, kubelet]
  - [kubeadm, join, --config, /etc/kubernetes/kubeadm-join.yaml]
`;
}

/** A VirtualMachine of the same structure as the rendered one, written inline. */
function bareVm(
  nodeName: string,
  namespace: string,
  pool: string,
  quota: string,
  cluster: string,
  shape: { cpu: number; memory: string; disk: string },
  host: string | undefined,
) {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: {
      name: nodeName,
      namespace,
      labels: { ...MANAGED_BY, 'metalslice.io/pool': pool, 'metalslice.io/quota': quota, 'metalslice.io/cluster': cluster, 'metalslice.io/node-type': pool },
    },
    spec: {
      runStrategy: 'Always',
      dataVolumeTemplates: [
        {
          metadata: { name: `${nodeName}-root` },
          spec: {
            source: { registry: { url: 'docker://quay.io/containerdisks/ubuntu:24.04' } },
            storage: { resources: { requests: { storage: shape.disk } } },
          },
        },
      ],
      template: {
        metadata: { labels: { 'metalslice.io/pool': pool, 'metalslice.io/quota': quota, 'metalslice.io/cluster': cluster, 'kubevirt.io/vm': nodeName } },
        spec: {
          domain: {
            cpu: { cores: shape.cpu, sockets: 1, threads: 1 },
            memory: { guest: shape.memory },
            resources: { requests: { cpu: String(shape.cpu), memory: shape.memory } },
            devices: {
              disks: [
                { name: 'rootdisk', disk: { bus: 'virtio' } },
                { name: 'cloudinit', disk: { bus: 'virtio' } },
              ],
              interfaces: [{ name: 'default', masquerade: {} }],
            },
          },
          networks: [{ name: 'default', pod: {} }],
          ...(host !== undefined
            ? {
                affinity: {
                  nodeAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: {
                      nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [host] }] }],
                    },
                  },
                },
              }
            : {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    topologyKey: 'kubernetes.io/hostname',
                    whenUnsatisfiable: 'ScheduleAnyway',
                    labelSelector: { matchLabels: { 'metalslice.io/pool': pool } },
                  },
                ],
              }),
          terminationGracePeriodSeconds: 180,
          volumes: [
            { name: 'rootdisk', dataVolume: { name: `${nodeName}-root` } },
            { name: 'cloudinit', cloudInitNoCloud: { secretRef: { name: `${nodeName}-cloudinit` } } },
          ],
        },
      },
    },
  };
}

/** The same resources written by hand: every value inline, nothing planned (pinned VMs name a fixed host). */
export function bareApp(outdir: string, size: SynthSize = SYNTH_SIZE): App {
  const { pools, quotas, quotaOf, clusters } = instance(size);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'bench');
  new KubernetesProvider(stack, 'kubernetes', { configPath: '~/.kube/config' });
  new RandomProvider(stack, 'random');
  new KubectlManifest(stack, 'fleet', {
    waitForDeletion: false,
    yamlBody: stringify({
      apiVersion: 'kubevirt.io/v1',
      kind: 'KubeVirt',
      metadata: { name: 'kubevirt', namespace: 'kubevirt', labels: { ...MANAGED_BY, 'metalslice.io/fleet': 'bench' } },
      spec: {
        certificateRotateStrategy: {},
        configuration: { developerConfiguration: { cpuAllocationRatio: 1, featureGates: [] }, vmRolloutStrategy: 'Stage' },
        customizeComponents: {},
        imagePullPolicy: 'IfNotPresent',
        workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate'] },
      },
    }),
  });
  const namespaces = new Map<string, string>();
  for (const q of quotas) {
    const namespace = `${q.organization}-${q.name}`;
    namespaces.set(q.name, namespace);
    const labels = { ...MANAGED_BY, 'metalslice.io/organization': q.organization, 'metalslice.io/quota': q.name };
    const ns = new NamespaceV1(stack, `${q.name}-ns`, { metadata: { name: namespace, labels } });
    // As metalslice applies it: server-side, and a terraform_data that waits until the quota controller has
    // accounted it (what the pools' objects wait for).
    const hard = { 'requests.cpu': String(q.limits.cpu), 'requests.memory': String(q.limits.memory), 'requests.storage': String(q.limits.disk) };
    const quota = new KubectlManifest(stack, `${q.name}-quota`, {
      waitForDeletion: false,
      dependsOn: [ns],
      yamlBody: stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'metalslice', namespace, labels }, spec: { hard } }),
    });
    new TerraformData(stack, `${q.name}-accounted`, {
      triggersReplace: { hard: JSON.stringify(hard) },
      input: { namespace, name: 'metalslice', kubeconfig: '~/.kube/config', context: '' },
      dependsOn: [quota],
      provisioners: [{ type: 'local-exec', interpreter: ['/bin/sh', '-c'], command: `metalslice wait-quota metalslice --namespace ${namespace}` }],
    });
    const role = new RoleV1(stack, `${q.name}-role`, {
      metadata: { name: 'metalslice-consumer', namespace: ns.metadata.name, labels },
      rule: [
        {
          apiGroups: ['kubevirt.io'],
          resources: ['virtualmachines', 'virtualmachineinstances'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
        },
        {
          apiGroups: ['subresources.kubevirt.io'],
          resources: ['virtualmachines/start', 'virtualmachines/stop', 'virtualmachines/restart', 'virtualmachineinstances/console'],
          verbs: ['get', 'update'],
        },
        { apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] },
        { apiGroups: [''], resources: ['resourcequotas'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    new RoleBindingV1(stack, `${q.name}-binding`, {
      metadata: { name: 'metalslice-consumer', namespace: ns.metadata.name, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.metadata.name },
      subject: [{ kind: 'Group', name: q.organization, apiGroup: 'rbac.authorization.k8s.io' }],
    });
  }
  const providers = new Map(clusters.map((c) => [c.name, new KubernetesProvider(stack, `tenant-${c.name}`, { alias: `tenant-${c.name}` })]));
  const endpoints = new Map(clusters.map((c) => [c.name, c.endpoint]));
  const chars = { length: 6, upper: false, special: false, lower: true, numeric: true };
  pools.forEach((pool, p) => {
    const quota = quotaOf[p];
    const namespace = namespaces.get(quota)!;
    const shape = { cpu: Number(pool.shape.cpu), memory: String(pool.shape.memory), disk: String(pool.shape.disk) };
    for (let i = 0; i < pool.count; i++) {
      const nodeName = `${pool.name}-${i}`;
      const tokenId = new StringResource(stack, `${nodeName}-token-id`, chars);
      const tokenSecret = new Password(stack, `${nodeName}-token-secret`, { ...chars, length: 16 });
      new SecretV1(stack, `${nodeName}-bootstrap`, {
        provider: providers.get(pool.cluster),
        metadata: { name: `bootstrap-token-${tokenId.result}`, namespace: 'kube-system', labels: { ...MANAGED_BY } },
        type: 'bootstrap.kubernetes.io/token',
        data: {
          description: `metalslice node ${nodeName}`,
          'token-id': tokenId.result,
          'token-secret': tokenSecret.result,
          expiration: Fn.timeadd(Fn.timestamp(), '24h'),
          'usage-bootstrap-authentication': 'true',
          'usage-bootstrap-signing': 'true',
          'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
        },
        lifecycle: { ignoreChanges: ['data'] },
      });
      const token = `${tokenId.result}.${tokenSecret.result}`;
      new SecretV1(stack, `${nodeName}-userdata`, {
        metadata: { name: `${nodeName}-cloudinit`, namespace, labels: { 'metalslice.io/pool': pool.name } },
        type: 'Opaque',
        data: { userdata: bareCloudConfig(nodeName, endpoints.get(pool.cluster)!, token, pool.name, quota, pool.cluster) },
      });
      const host = pool.placement === 'planned' ? `compute-${String(i).padStart(4, '0')}` : undefined;
      // As metalslice applies VMs: kubectl_manifest with the VM as YAML.
      new KubectlManifest(stack, `${nodeName}-vm`, {
        yamlBody: stringify(bareVm(nodeName, namespace, pool.name, quota, pool.cluster, shape, host), { lineWidth: 0 }),
      });
    }
  });
  return app;
}
