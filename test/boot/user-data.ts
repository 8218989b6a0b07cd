// The user data of a node booted from the "preinstalled" image (containerd, kubelet and kubeadm already on it):
// it only configures the kernel and kubeadm, checks the image carries the pinned Kubernetes version, and joins.
// Until constructs/render/cloud-init.ts renders this mode (renderJoinCloudConfig with
// `bootstrap: { mode: 'preinstalled', kubernetes }`), the first-boot test writes it here, in the shape that
// renderer is to produce; swap this function for it when it lands.
import { stringify } from 'yaml';
import { KUBELET_CONFIGURATION_PATCH, KUBEADM_PATCHES_DIR, renderJoinConfiguration } from '../../constructs/render/cloud-init';
import type { Taint } from '../../constructs/core/input/model';

export interface PreinstalledJoinOptions {
  readonly nodeName: string;
  /** The API server as the node reaches it, `https://host:port`. */
  readonly endpoint: string;
  /** The cluster CA (PEM); only its public key hash goes into the document. */
  readonly caCertificate: string;
  /** `<id>.<secret>` */
  readonly token: string;
  /** The Kubernetes version the image must carry, e.g. `1.34.4` (kubelet and kubeadm `v1.34.4`). */
  readonly kubernetes: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
}

const JOIN_SCRIPT = '/usr/local/sbin/metalslice-join';
const JOIN_CONFIGURATION = '/etc/kubernetes/kubeadm-join.yaml';

/** The join script: refuses an image whose kubelet or kubeadm is not the pinned version, else starts the node and joins. */
function joinScript(kubernetes: string): string {
  const want = `v${kubernetes}`;
  return [
    '#!/bin/sh',
    '# Joins this node with the kubelet and kubeadm its image carries, when they are the version the pool pins.',
    'set -eu',
    `want=${want}`,
    'found=$(kubelet --version 2>/dev/null || true)',
    'if [ "$found" != "Kubernetes $want" ]; then',
    '  echo "metalslice: kubelet: expected Kubernetes $want, found ${found:-no kubelet}; not joining" >&2',
    '  exit 1',
    'fi',
    'found=$(kubeadm version -o short 2>/dev/null || true)',
    'if [ "$found" != "$want" ]; then',
    '  echo "metalslice: kubeadm: expected $want, found ${found:-no kubeadm}; not joining" >&2',
    '  exit 1',
    'fi',
    'systemctl enable --now containerd kubelet',
    `kubeadm join --config ${JOIN_CONFIGURATION}`,
    '',
  ].join('\n');
}

/** The `#cloud-config` document of a node of the preinstalled image. */
export function preinstalledJoinCloudConfig(o: PreinstalledJoinOptions): string {
  const config = {
    hostname: o.nodeName,
    fqdn: o.nodeName,
    write_files: [
      { path: '/etc/modules-load.d/kubernetes.conf', permissions: '0644', content: 'overlay\nbr_netfilter\n' },
      {
        path: '/etc/sysctl.d/99-kubernetes.conf',
        permissions: '0644',
        content: 'net.bridge.bridge-nf-call-iptables = 1\nnet.bridge.bridge-nf-call-ip6tables = 1\nnet.ipv4.ip_forward = 1\n',
      },
      {
        path: JOIN_CONFIGURATION,
        permissions: '0600',
        owner: 'root:root',
        content: stringify(
          renderJoinConfiguration({
            nodeName: o.nodeName,
            endpoint: o.endpoint,
            caCertificate: o.caCertificate,
            token: o.token,
            kubernetesVersion: o.kubernetes,
            labels: o.labels,
            taints: o.taints,
          }),
          { lineWidth: 0 },
        ),
      },
      { path: `${KUBEADM_PATCHES_DIR}/kubeletconfiguration+merge.yaml`, permissions: '0644', content: KUBELET_CONFIGURATION_PATCH },
      { path: JOIN_SCRIPT, permissions: '0700', owner: 'root:root', content: joinScript(o.kubernetes) },
    ],
    runcmd: [['modprobe', 'overlay'], ['modprobe', 'br_netfilter'], ['sysctl', '--system'], [JOIN_SCRIPT]],
  };
  return `#cloud-config\n${stringify(config, { lineWidth: 0 })}`;
}
