/**
 * A cluster's node bootstrap (`clusters[].bootstrap`): its types, what is wrong with one, what of it makes a node
 * (the pins a pool's revision hashes), and how the plan names it. Every value checked here ends up in a shell
 * script or an apt source line of a node's user data, so each is held to the characters its kind can have; a URL
 * may carry no credential (the user data is readable by whoever reads the node's Secret, and it is in the synth
 * output).
 */
import type { PlanIssue } from '../base/errors';
import { excerpt } from '../base/excerpt';

/** How a node gets its node software: what the user data installs, or checks the image carries. */
export type NodeBootstrapMode = 'preinstalled' | 'mirror' | 'internet';

/**
 * A cluster's node software, pinned. `preinstalled`: the image carries containerd, kubelet and kubeadm, and the
 * user data only checks their versions and joins (a node whose image holds other versions stops before it joins,
 * saying so on its console). `mirror`: the packages come from repositories inside the fleet (`repositories`),
 * through `proxy` if set. `internet`: from pkgs.k8s.io and the distribution's own archive. The pins are part of
 * every pool's revision: changing one rolls the cluster's pools.
 */
export interface NodeBootstrap {
  /** Where the node software comes from. */
  readonly mode: NodeBootstrapMode;
  /** The exact Kubernetes version of kubelet and kubeadm, `1.34.4`; its minor is the cluster's `kubernetesVersion`. */
  readonly kubernetes: string;
  /**
   * containerd's version. `mirror` and `internet`: the exact package version to install (`apt-cache policy
   * containerd` on the mirror), required. `preinstalled`: the version `containerd --version` prints, checked at
   * boot. @default - preinstalled: not checked
   */
  readonly containerd?: string;
  /** `mirror` and `internet`: the kubelet and kubeadm package revision, as in `1.34.4-1.1`. @default "1.1" */
  readonly packageRevision?: string;
  /**
   * `mirror` and `internet`: the pod sandbox (pause) image containerd runs, from a registry the nodes reach.
   * @default - containerd's own default (registry.k8s.io)
   */
  readonly sandboxImage?: string;
  /** `mirror`: the repositories inside the fleet. */
  readonly repositories?: NodePackageRepositories;
  /** `mirror` and `internet`: the HTTP(S) proxy apt and containerd go through. @default - none */
  readonly proxy?: NodeProxy;
}

/** The package repositories a `mirror` bootstrap installs from (no credentials: the URLs end up in user data). */
export interface NodePackageRepositories {
  /** The distribution's archive (a Debian or Ubuntu mirror), in place of the image's own sources. @default - the image's sources */
  readonly distribution?: string;
  /** The distribution's security archive. @default - the image's sources */
  readonly security?: string;
  /** The Kubernetes packages: a flat repository laid out as pkgs.k8s.io's `core:/stable:/v<minor>/deb/`. */
  readonly kubernetes: string;
  /** The public key (ASCII-armored PGP) that signs `kubernetes`. */
  readonly kubernetesKey: string;
}

/** An HTTP(S) proxy for a node's package downloads and image pulls. */
export interface NodeProxy {
  /** The proxy for `http://` URLs, `http://proxy.internal:3128`. @default - none */
  readonly http?: string;
  /** The proxy for `https://` URLs. @default - the `http` proxy */
  readonly https?: string;
  /** Hosts, domains and CIDRs reached directly; the tenant API server is always added. @default - none */
  readonly noProxy?: readonly string[];
}

/** pkgs.k8s.io's revision of a Kubernetes package build: `1.34.4-1.1`. */
export const DEFAULT_PACKAGE_REVISION = '1.1';

const KUBERNETES_PATCH = /^1\.([0-9]{1,3})\.([0-9]{1,3})$/;
/** A Debian package version (epoch, upstream version, revision): what `apt-get install name=VERSION` takes. */
const PACKAGE_VERSION = /^([0-9]{1,9}:)?[0-9][0-9A-Za-z.+~-]{0,127}$/;
/** A Debian package revision: the part after the last `-`. */
const PACKAGE_REVISION = /^[0-9A-Za-z.+~]{1,64}$/;
/** A version as `containerd --version` prints it: `1.7.24`, `v1.7.24`, `1.6.20~ds1`. */
const PRINTED_VERSION = /^v?[0-9][0-9A-Za-z.+~-]{0,127}$/;
/** A container image reference. */
const IMAGE_REFERENCE = /^[a-z0-9][a-z0-9._\-/:@]{0,254}$/;
/** A no-proxy entry: a host, `.domain`, `*.domain`, IP or CIDR. */
const NO_PROXY_ENTRY = /^[A-Za-z0-9*.][A-Za-z0-9.\-:/*[\]]{0,252}$/;
const PUBLIC_KEY = /^-----BEGIN PGP PUBLIC KEY BLOCK-----\r?\n[\s\S]+\r?\n-----END PGP PUBLIC KEY BLOCK-----\s*$/;

/** The Kubernetes minor of an exact version (`1.34.4` -> `1.34`); undefined when it is not one. */
export function kubernetesMinorOf(version: string): string | undefined {
  const m = KUBERNETES_PATCH.exec(version);
  return m ? `1.${Number(m[1])}` : undefined;
}

/**
 * What is wrong with a URL the user data would carry: not http(s), a credential in it, a character a source line
 * or a shell would read. Never repeats the URL: it may hold a password.
 */
function urlProblem(value: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not a URL: write the ${what} as http://HOST[:PORT]/PATH`;
  }
  if (url.username !== '' || url.password !== '')
    return `holds a credential (user or password before "@"): a node's user data is readable by whoever reads its Secret, and it is in the synth output and the plan; give a ${what} the fleet's network may reach without one (allow the nodes' addresses on it)`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `is a ${url.protocol.replace(/:$/, '')} URL: write the ${what} as http:// or https://`;
  if (url.search !== '' || url.hash !== '')
    return `has a query or fragment: write the ${what} without "?" or "#" (a token there would be a credential in the user data)`;
  if (/[\s"'`$\\;|&<>(){}]/.test(value))
    return `has a character a shell or an apt source line would read (space, quote, $, \\, ;, |, &, <, >, brackets): write the ${what} without it`;
  return undefined;
}

type Add = (path: string, message: string) => void;

/** Problems of the pins: the Kubernetes version against the cluster's minor, containerd's, the package revision, the sandbox image. */
function pinProblems(bootstrap: NodeBootstrap, kubernetesVersion: string | undefined, add: Add): void {
  const minor = kubernetesMinorOf(bootstrap.kubernetes);
  if (minor === undefined)
    add('.kubernetes', `${excerpt(bootstrap.kubernetes)} is not an exact Kubernetes version: write the kubelet and kubeadm release to pin, e.g. "1.34.4"`);
  else if (kubernetesVersion !== undefined && kubernetesVersion !== minor)
    add(
      '.kubernetes',
      `"${bootstrap.kubernetes}" is not a release of the cluster's kubernetesVersion "${kubernetesVersion}": pin a ${kubernetesVersion}.x release, or set kubernetesVersion to "${minor}" (or drop it: the pin's minor is taken)`,
    );
  const packages = bootstrap.mode !== 'preinstalled';
  if (bootstrap.containerd === undefined) {
    if (packages)
      add(
        '.containerd',
        `is required for a ${bootstrap.mode} bootstrap: pin the containerd package version the nodes install (apt-cache policy containerd), e.g. "1.7.24-1"`,
      );
  } else if (packages ? !PACKAGE_VERSION.test(bootstrap.containerd) : !PRINTED_VERSION.test(bootstrap.containerd)) {
    add(
      '.containerd',
      `${excerpt(bootstrap.containerd)} is not a ${packages ? 'package version (apt-cache policy containerd), e.g. "1.7.24-1"' : 'version as `containerd --version` prints it, e.g. "1.7.24"'}`,
    );
  }
  if (bootstrap.packageRevision !== undefined) {
    if (!packages) add('.packageRevision', 'is for a bootstrap that installs packages: a preinstalled image installs none, so drop it');
    else if (!PACKAGE_REVISION.test(bootstrap.packageRevision))
      add('.packageRevision', `${excerpt(bootstrap.packageRevision)} is not a package revision: write what follows the version's "-", e.g. "1.1"`);
  }
  if (bootstrap.sandboxImage !== undefined) {
    if (!packages) add('.sandboxImage', "is for a bootstrap that configures containerd: a preinstalled image's containerd config names its own, so drop it");
    else if (!IMAGE_REFERENCE.test(bootstrap.sandboxImage))
      add('.sandboxImage', `${excerpt(bootstrap.sandboxImage)} is not an image reference: write one the nodes can pull, e.g. "registry.internal/pause:3.10"`);
  }
}

/** Problems of the repositories: only a mirror has them, and it must; URLs without credentials; a public key. */
function repositoryProblems(bootstrap: NodeBootstrap, add: Add): void {
  const repos = bootstrap.repositories;
  if (bootstrap.mode === 'mirror' && repos === undefined)
    add('.repositories', 'is required for a mirror bootstrap: name the Kubernetes package repository inside the fleet and its signing key');
  if (bootstrap.mode !== 'mirror' && repos !== undefined)
    add(
      '.repositories',
      `are for a mirror bootstrap: set mode: mirror, or drop them (a ${bootstrap.mode} bootstrap ${bootstrap.mode === 'internet' ? 'installs from pkgs.k8s.io' : 'installs nothing'})`,
    );
  if (repos === undefined) return;
  for (const key of ['distribution', 'security', 'kubernetes'] as const) {
    const value = repos[key];
    const problem = value === undefined ? undefined : urlProblem(value, 'repository URL');
    if (problem) add(`.repositories.${key}`, problem);
  }
  if (repos.security !== undefined && repos.distribution === undefined)
    add('.repositories.security', "replaces the image's sources only with a distribution mirror: set repositories.distribution too, or drop security");
  if (/PRIVATE KEY/.test(repos.kubernetesKey))
    add('.repositories.kubernetesKey', 'is a private key: give the public key that signs the repository (gpg --armor --export KEYID), never the private one');
  else if (!PUBLIC_KEY.test(repos.kubernetesKey))
    add(
      '.repositories.kubernetesKey',
      'is not an ASCII-armored PGP public key: paste the output of gpg --armor --export KEYID, from -----BEGIN PGP PUBLIC KEY BLOCK----- to its END line',
    );
}

/** Problems of the proxy: URLs without credentials, and no-proxy entries a shell reads as they are. */
function proxyProblems(bootstrap: NodeBootstrap, add: Add): void {
  const proxy = bootstrap.proxy;
  if (proxy === undefined) return;
  for (const key of ['http', 'https'] as const) {
    const value = proxy[key];
    const problem = value === undefined ? undefined : urlProblem(value, 'proxy URL');
    if (problem) add(`.proxy.${key}`, problem);
  }
  if (proxy.http === undefined && proxy.https === undefined) add('.proxy', 'names no proxy: set http (and https, if it differs), or drop proxy');
  (proxy.noProxy ?? []).forEach((entry, i) => {
    if (!NO_PROXY_ENTRY.test(entry))
      add(`.proxy.noProxy[${i}]`, `${excerpt(entry)} is not a host, domain, IP or CIDR: write e.g. ".cluster.local" or "10.0.0.0/8"`);
  });
}

/** Problems of `bootstrap` (at `at`, the cluster's `bootstrap`), with the cluster's `kubernetesVersion` if it sets one. */
export function bootstrapProblems(bootstrap: NodeBootstrap, at: string, kubernetesVersion: string | undefined): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const add: Add = (path, message) => issues.push({ path: `${at}${path}`, message });
  pinProblems(bootstrap, kubernetesVersion, add);
  repositoryProblems(bootstrap, add);
  proxyProblems(bootstrap, add);
  return issues;
}

/** What of a bootstrap makes a node, as a pool's revision hashes it: the mode and the pins, not where packages come from. */
export function bootstrapPins(bootstrap: NodeBootstrap): Record<string, string | undefined> {
  const packages = bootstrap.mode !== 'preinstalled';
  return {
    mode: bootstrap.mode,
    kubernetes: bootstrap.kubernetes,
    containerd: bootstrap.containerd,
    packageRevision: packages ? (bootstrap.packageRevision ?? DEFAULT_PACKAGE_REVISION) : undefined,
    sandboxImage: bootstrap.sandboxImage,
  };
}

/** The bootstrap in a few words, for the plan: `preinstalled, Kubernetes 1.34.4, containerd 1.7.24`. */
export function describeBootstrap(bootstrap: NodeBootstrap | undefined, kubernetesVersion: string): string {
  if (bootstrap === undefined) return `internet, unpinned (Kubernetes ${kubernetesVersion}.x)`;
  const where = { preinstalled: 'preinstalled in the image', mirror: "from the fleet's mirror", internet: 'from the internet' }[bootstrap.mode];
  const proxy = bootstrap.proxy ? ', through a proxy' : '';
  return `${where}${proxy}: Kubernetes ${bootstrap.kubernetes}${bootstrap.containerd !== undefined ? `, containerd ${bootstrap.containerd}` : ''}`;
}
