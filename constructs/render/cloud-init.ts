/**
 * The cloud-init document that turns a fresh VM or bare-metal host into a node of a tenant cluster:
 * kernel modules and sysctls, the node software (containerd, kubelet and kubeadm: pinned and from where the
 * cluster's bootstrap says, render/node-software.ts; unpinned from pkgs.k8s.io without one), then `kubeadm join`
 * with bootstrap-token discovery pinned to the cluster CA's public key hash.
 */
import { createHash, X509Certificate } from 'crypto';
import { parse as parseYaml, stringify } from 'yaml';
import type { NodeBootstrap, Taint } from '../core/input/model';
import { nodeSoftware, upstreamRepositorySteps } from './node-software';

export interface JoinDocumentOptions {
  /** The node's name in the tenant cluster (also its hostname). */
  readonly nodeName: string;
  /** The tenant API server, `https://host:port`. */
  readonly endpoint: string;
  /** The tenant cluster CA (PEM); only its public key hash goes into the document. */
  readonly caCertificate: string;
  /** The bootstrap token `<id>.<secret>`; from Terraform, never a literal in synth output. */
  readonly token: string;
  /** Kubernetes minor version of the packages, e.g. `1.33` (what an unpinned node installs the newest patch of). */
  readonly kubernetesVersion: string;
  /** Where the node software comes from, pinned. @default - unpinned, from the internet */
  readonly bootstrap?: NodeBootstrap;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
}

/**
 * The kubelet's graceful node shutdown: the second line when a drain cannot run (KubeVirt stops a VM, a host is
 * powered off, a drain ran out of time and the VM was deleted by hand). On the guest's shutdown (KubeVirt's ACPI
 * signal) the kubelet holds it and ends the pods, critical pods last, each within its own grace period. The whole
 * must end within the VM's terminationGracePeriodSeconds (180 s, render/kubevirt.ts), after which KubeVirt kills
 * the guest: 150 s leaves the operating system 30 s to stop.
 */
export const KUBELET_SHUTDOWN = { gracePeriodSeconds: 150, criticalPodsSeconds: 30 } as const;

/** Where the join document writes kubeadm's JoinConfiguration. */
const JOIN_CONFIGURATION_PATH = '/etc/kubernetes/kubeadm-join.yaml';

/** Where kubeadm join reads its patches; the kubelet's configuration patch lands there (kubeadm's `kubeletconfiguration` target). */
export const KUBEADM_PATCHES_DIR = '/etc/kubernetes/patches';

/** The merge patch kubeadm applies to the KubeletConfiguration it writes for the node. */
export const KUBELET_CONFIGURATION_PATCH = `shutdownGracePeriod: ${KUBELET_SHUTDOWN.gracePeriodSeconds}s\nshutdownGracePeriodCriticalPods: ${KUBELET_SHUTDOWN.criticalPodsSeconds}s\n`;

// Thousands of nodes share a handful of cluster CAs; parsing each certificate once keeps synth fast.
const caHashes = new Map<string, string>();

/** `sha256:<hex>` of the CA's SubjectPublicKeyInfo, as kubeadm's discovery.bootstrapToken.caCertHashes wants. */
export function caCertHash(pem: string): string {
  let hash = caHashes.get(pem);
  if (hash === undefined) {
    const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
    hash = `sha256:${createHash('sha256').update(spki).digest('hex')}`;
    caHashes.set(pem, hash);
  }
  return hash;
}

/** `https://10.0.0.10:6443/` -> `10.0.0.10:6443` (kubeadm wants host:port). */
export function apiServerEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port || '443'}`;
}

/** Labels a kubelet may set on its own Node (NodeRestriction rejects node-role.kubernetes.io and most of kubernetes.io). */
export function selfSettableLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  const allowedKubernetesIo = new Set([
    'kubernetes.io/hostname',
    'kubernetes.io/arch',
    'kubernetes.io/os',
    'node.kubernetes.io/instance-type',
    'topology.kubernetes.io/zone',
    'topology.kubernetes.io/region',
  ]);
  const out: Record<string, string> = {};
  for (const key of Object.keys(labels).sort()) {
    const prefix = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
    const restricted = prefix === 'kubernetes.io' || prefix === 'k8s.io' || prefix.endsWith('.kubernetes.io') || prefix.endsWith('.k8s.io');
    const allowed = !restricted || allowedKubernetesIo.has(key) || prefix === 'kubelet.kubernetes.io' || prefix === 'node.kubernetes.io';
    if (allowed && !key.startsWith('node-role.kubernetes.io/')) out[key] = labels[key];
  }
  return out;
}

/** The kubeadm JoinConfiguration (v1beta4) the node joins with. */
export function renderJoinConfiguration(options: JoinDocumentOptions): Record<string, unknown> {
  const labels = selfSettableLabels(options.labels);
  const nodeLabels = Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return {
    apiVersion: 'kubeadm.k8s.io/v1beta4',
    kind: 'JoinConfiguration',
    discovery: {
      bootstrapToken: {
        apiServerEndpoint: apiServerEndpoint(options.endpoint),
        token: options.token,
        caCertHashes: [caCertHash(options.caCertificate)],
      },
    },
    nodeRegistration: {
      name: options.nodeName,
      criSocket: 'unix:///run/containerd/containerd.sock',
      kubeletExtraArgs: nodeLabels === '' ? [] : [{ name: 'node-labels', value: nodeLabels }],
      taints: (options.taints ?? []).map((t) => ({ key: t.key, ...(t.value !== undefined ? { value: t.value } : {}), effect: t.effect })),
    },
    patches: { directory: KUBEADM_PATCHES_DIR },
  };
}

/** What every join document runs first: the kernel modules loaded and the sysctls applied that its files set. */
const KERNEL_STEPS: readonly string[][] = [
  ['modprobe', 'overlay'],
  ['modprobe', 'br_netfilter'],
  ['sysctl', '--system'],
];

/** The files every join document writes: kernel modules, sysctls, the JoinConfiguration and the kubelet's patch. */
function joinFiles(options: JoinDocumentOptions): Record<string, unknown>[] {
  return [
    { path: '/etc/modules-load.d/kubernetes.conf', permissions: '0644', content: 'overlay\nbr_netfilter\n' },
    {
      path: '/etc/sysctl.d/99-kubernetes.conf',
      permissions: '0644',
      content: 'net.bridge.bridge-nf-call-iptables = 1\nnet.bridge.bridge-nf-call-ip6tables = 1\nnet.ipv4.ip_forward = 1\n',
    },
    {
      path: JOIN_CONFIGURATION_PATH,
      permissions: '0600',
      owner: 'root:root',
      content: stringify(renderJoinConfiguration(options), { lineWidth: 0 }),
    },
    { path: `${KUBEADM_PATCHES_DIR}/kubeletconfiguration+merge.yaml`, permissions: '0644', content: KUBELET_CONFIGURATION_PATCH },
  ];
}

/** The join document of a cluster with a bootstrap: its node software pinned, from where the bootstrap says. */
function renderPinnedJoinCloudConfig(options: JoinDocumentOptions, bootstrap: NodeBootstrap): string {
  const software = nodeSoftware(bootstrap, new URL(options.endpoint).hostname.replace(/^\[|\]$/g, ''), JOIN_CONFIGURATION_PATH);
  const config = {
    hostname: options.nodeName,
    fqdn: options.nodeName,
    write_files: [...joinFiles(options), ...software.files],
    ...software.keys,
    runcmd: [...KERNEL_STEPS, ...software.runcmd],
  };
  return `#cloud-config\n${stringify(config, { lineWidth: 0 })}`;
}

/** The whole `#cloud-config` document. */
export function renderJoinCloudConfig(options: JoinDocumentOptions): string {
  if (options.bootstrap !== undefined) return renderPinnedJoinCloudConfig(options, options.bootstrap);
  const config = {
    hostname: options.nodeName,
    fqdn: options.nodeName,
    write_files: joinFiles(options),
    package_update: true,
    packages: ['apt-transport-https', 'ca-certificates', 'curl', 'gpg', 'containerd'],
    runcmd: [
      ...KERNEL_STEPS,
      ...upstreamRepositorySteps(options.kubernetesVersion),
      ['apt-get', 'install', '-y', 'kubelet', 'kubeadm'],
      ['apt-mark', 'hold', 'kubelet', 'kubeadm'],
      ['sh', '-c', 'mkdir -p /etc/containerd && containerd config default | sed "s/SystemdCgroup = false/SystemdCgroup = true/" > /etc/containerd/config.toml'],
      ['systemctl', 'restart', 'containerd'],
      ['systemctl', 'enable', '--now', 'kubelet'],
      ['kubeadm', 'join', '--config', '/etc/kubernetes/kubeadm-join.yaml'],
    ],
  };
  return `#cloud-config\n${stringify(config, { lineWidth: 0 })}`;
}

/**
 * A node's join document for another node name: what a roll's surge VM boots with (a copy of the node it stands
 * in for, joining under its own name). Only the hostname, the FQDN and the JoinConfiguration's node name change;
 * the token, CA pin, labels and taints stay. Throws when the document is not one `renderJoinCloudConfig` wrote.
 */
export function renameJoinCloudConfig(document: string, nodeName: string): string {
  const header = '#cloud-config\n';
  if (!document.startsWith(header)) throw new Error('the user data is not a #cloud-config document');
  const config = parseYaml(document.slice(header.length)) as {
    hostname?: unknown;
    fqdn?: unknown;
    write_files?: { path?: unknown; content?: unknown }[];
  } | null;
  const file = Array.isArray(config?.write_files) ? config.write_files.find((f) => f.path === JOIN_CONFIGURATION_PATH) : undefined;
  if (!config || typeof file?.content !== 'string') throw new Error(`the user data writes no ${JOIN_CONFIGURATION_PATH}`);
  const join = parseYaml(file.content) as { kind?: unknown; nodeRegistration?: Record<string, unknown> } | null;
  if (join?.kind !== 'JoinConfiguration' || typeof join.nodeRegistration !== 'object') throw new Error(`${JOIN_CONFIGURATION_PATH} holds no JoinConfiguration`);
  join.nodeRegistration.name = nodeName;
  file.content = stringify(join, { lineWidth: 0 });
  config.hostname = nodeName;
  config.fqdn = nodeName;
  return `${header}${stringify(config, { lineWidth: 0 })}`;
}
