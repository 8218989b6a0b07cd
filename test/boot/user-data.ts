// The user data of a node booted from the "preinstalled" image (containerd, kubelet and kubeadm already on it), as
// metalslice renders it for a cluster whose bootstrap is `{ mode: 'preinstalled', kubernetes }`: the kernel and
// kubeadm configured, the image's node software checked against the pins, then the join.
import { renderJoinCloudConfig } from '../../constructs/render/cloud-init';
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
  /** The containerd version the image must carry, as `containerd --version` prints it. @default - not checked */
  readonly containerd?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
}

/** The `#cloud-config` document of a node of the preinstalled image. */
export function preinstalledJoinCloudConfig(o: PreinstalledJoinOptions): string {
  return renderJoinCloudConfig({
    nodeName: o.nodeName,
    endpoint: o.endpoint,
    caCertificate: o.caCertificate,
    token: o.token,
    kubernetesVersion: o.kubernetes.replace(/\.[0-9]+$/, ''),
    bootstrap: { mode: 'preinstalled', kubernetes: o.kubernetes, ...(o.containerd !== undefined ? { containerd: o.containerd } : {}) },
    labels: o.labels,
    taints: o.taints,
  });
}
