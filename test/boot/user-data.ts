// The user data of a node booted from the "preinstalled" image (containerd, kubelet and kubeadm already on it), as
// metalslice renders it for a cluster whose bootstrap is `{ mode: 'preinstalled', kubernetes }`: the kernel and
// kubeadm configured, the image's node software checked against the pins, then the join. And of a node booted
// from the "mirror" image, for a bootstrap `{ mode: 'mirror', ... }`: the same after apt installed the pins.
import { renderJoinCloudConfig } from '../../constructs/render/cloud-init';
import { kubernetesMinorOf } from '../../constructs/core/input/bootstrap';
import type { NodeBootstrap, Taint } from '../../constructs/core/input/model';

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

/** The document metalslice renders for a node of a cluster with `bootstrap`. */
function joinCloudConfig(o: Omit<PreinstalledJoinOptions, 'containerd'>, bootstrap: NodeBootstrap): string {
  return renderJoinCloudConfig({
    nodeName: o.nodeName,
    endpoint: o.endpoint,
    caCertificate: o.caCertificate,
    token: o.token,
    kubernetesVersion: kubernetesMinorOf(o.kubernetes)!,
    bootstrap,
    labels: o.labels,
    taints: o.taints,
  });
}

/** The `#cloud-config` document of a node of the preinstalled image. */
export function preinstalledJoinCloudConfig(o: PreinstalledJoinOptions): string {
  return joinCloudConfig(o, { mode: 'preinstalled', kubernetes: o.kubernetes, ...(o.containerd !== undefined ? { containerd: o.containerd } : {}) });
}

export interface MirrorJoinOptions extends Omit<PreinstalledJoinOptions, 'containerd'> {
  /** containerd's exact package version, as the distribution's archive serves it. */
  readonly containerd: string;
  /** The Kubernetes repository as the node reaches it (a flat repository), and its ASCII-armored signing key. */
  readonly repository: { readonly url: string; readonly key: string };
  /** The HTTP proxy apt (and containerd) go through, `http://host:port`. */
  readonly proxy: string;
  /** Hosts reached directly, not through the proxy (the fleet's own repository). */
  readonly noProxy: readonly string[];
  /** containerd's pod sandbox image. */
  readonly sandboxImage: string;
}

/**
 * The `#cloud-config` document of a node of the mirror image (no node software on it), as metalslice renders it for a
 * cluster whose bootstrap is `{ mode: 'mirror', ... }`: apt pointed at the fleet's Kubernetes repository and proxy,
 * the pinned packages installed, then the same check and join.
 */
export function mirrorJoinCloudConfig(o: MirrorJoinOptions): string {
  return joinCloudConfig(o, {
    mode: 'mirror',
    kubernetes: o.kubernetes,
    containerd: o.containerd,
    sandboxImage: o.sandboxImage,
    repositories: { kubernetes: o.repository.url, kubernetesKey: o.repository.key },
    proxy: { http: o.proxy, noProxy: o.noProxy },
  });
}
