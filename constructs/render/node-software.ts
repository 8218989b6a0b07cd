/**
 * The part of a node's `#cloud-config` that a cluster's bootstrap (core/input/model.ts NodeBootstrap) decides: where
 * containerd, kubelet and kubeadm come from, at which versions, through which proxy, and the script that checks the
 * versions and joins. cloud-init's own modules do what they are made for (`apt` for the mirror, its signing key and
 * the proxy; `packages` for pinned installs); the script (`/usr/local/sbin/metalslice-join`) does the rest, and stops
 * before it joins, saying why on the console, when the node software is not the pinned one.
 *
 * Every value put in the script was held by core/input/bootstrap.ts to the characters its kind can have, and is
 * quoted besides.
 */
import { DEFAULT_PACKAGE_REVISION, kubernetesMinorOf } from '../core/input/bootstrap';
import type { NodeBootstrap } from '../core/input/model';

/** Where the join document puts the script that checks the node software and joins. */
export const JOIN_SCRIPT_PATH = '/usr/local/sbin/metalslice-join';

/**
 * The steps that add pkgs.k8s.io's repository of a Kubernetes minor to apt: its key fetched (through `proxy`, if
 * given) into a keyring, its source line, the package lists read. A node with no bootstrap runs them too.
 */
export function upstreamRepositorySteps(minor: string, proxy?: string): string[][] {
  const repo = `https://pkgs.k8s.io/core:/stable:/v${minor}/deb/`;
  const keyring = '/etc/apt/keyrings/kubernetes-apt-keyring.gpg';
  const curl = `curl -fsSL${proxy !== undefined ? ` --proxy ${shellQuote(proxy)}` : ''} ${repo}Release.key | gpg --dearmor --yes -o ${keyring}`;
  return [
    ['mkdir', '-p', '-m', '0755', '/etc/apt/keyrings'],
    ['sh', '-c', curl],
    ['sh', '-c', `echo "deb [signed-by=${keyring}] ${repo} /" > /etc/apt/sources.list.d/kubernetes.list`],
    ['apt-get', 'update'],
  ];
}

/** The proxy for https:// URLs: its own, else the http one. */
const httpsProxy = (bootstrap: NodeBootstrap): string | undefined => bootstrap.proxy?.https ?? bootstrap.proxy?.http;

/** `value` quoted for sh: single quotes, a single quote in it closed, escaped and opened again. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** What the bootstrap adds to a node's `#cloud-config`. */
export interface NodeSoftwareConfig {
  /** Top-level keys of the document (`apt`, `package_update`, `packages`). */
  readonly keys: Record<string, unknown>;
  /** More files to write (the join script, the proxy's containerd drop-in). */
  readonly files: readonly Record<string, unknown>[];
  /** runcmd entries after the kernel modules and sysctls (the key fetch of `internet`, then the join script). */
  readonly runcmd: readonly (readonly string[])[];
}

/** The no-proxy list: the user's, the API server's host, and this machine's own addresses. */
function noProxy(bootstrap: NodeBootstrap, apiServerHost: string): string {
  return [...new Set([...(bootstrap.proxy?.noProxy ?? []), apiServerHost, 'localhost', '127.0.0.1'])].join(',');
}

/** containerd's systemd drop-in with the proxy: image pulls go through it. */
function containerdProxyFile(bootstrap: NodeBootstrap, apiServerHost: string): Record<string, unknown> {
  const proxy = bootstrap.proxy!;
  const https = httpsProxy(bootstrap);
  const lines = [
    '[Service]',
    ...(proxy.http !== undefined ? [`Environment="HTTP_PROXY=${proxy.http}"`] : []),
    ...(https !== undefined ? [`Environment="HTTPS_PROXY=${https}"`] : []),
    `Environment="NO_PROXY=${noProxy(bootstrap, apiServerHost)}"`,
  ];
  return { path: '/etc/systemd/system/containerd.service.d/http-proxy.conf', permissions: '0644', content: `${lines.join('\n')}\n` };
}

/** cloud-init's `apt` settings: the mirror's sources and key, the proxy, apt's own settings. */
function aptSettings(bootstrap: NodeBootstrap): Record<string, unknown> {
  const repos = bootstrap.repositories;
  // The image's own sources stay unless a distribution mirror replaces them (cloud-init then writes them anew from
  // its template for the image's distribution); said either way, since a user data `apt` replaces the image's.
  const apt: Record<string, unknown> = { preserve_sources_list: repos?.distribution === undefined };
  if (repos?.distribution !== undefined) apt.primary = [{ arches: ['default'], uri: repos.distribution }];
  if (repos?.security !== undefined) apt.security = [{ arches: ['default'], uri: repos.security }];
  if (repos !== undefined) apt.sources = { kubernetes: { source: `deb [signed-by=$KEY_FILE] ${repos.kubernetes} /`, key: repos.kubernetesKey } };
  if (bootstrap.proxy?.http !== undefined) apt.http_proxy = bootstrap.proxy.http;
  const https = httpsProxy(bootstrap);
  if (https !== undefined) apt.https_proxy = https;
  apt.conf = aptConf(bootstrap);
  return apt;
}

/** A no-proxy entry apt can take: one host name or address (apt knows no domains, wildcards or CIDRs). */
const PLAIN_HOST = /^[A-Za-z0-9][A-Za-z0-9.-]*$|^[0-9A-Fa-f:]+$/;

/**
 * apt's own settings: no recommended packages (a node installs exactly the pins and what they depend on), and the
 * no-proxy hosts reached directly. cloud-init's proxy setting is apt's global one, and apt reads no NO_PROXY list:
 * an in-fleet repository named in noProxy would otherwise be asked for through the proxy.
 */
function aptConf(bootstrap: NodeBootstrap): string {
  const direct = bootstrap.proxy ? (bootstrap.proxy.noProxy ?? []).filter((entry) => PLAIN_HOST.test(entry)) : [];
  const lines = [
    'APT::Install-Recommends "false";',
    ...direct.flatMap((host) => [`Acquire::http::Proxy::${host} "DIRECT";`, `Acquire::https::Proxy::${host} "DIRECT";`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The script: the node software checked against the pins, containerd configured where it was installed, then the join. */
function joinScript(bootstrap: NodeBootstrap, joinConfiguration: string): string {
  const k8s = `v${bootstrap.kubernetes}`;
  const packages = bootstrap.mode !== 'preinstalled';
  const lines = [
    '#!/bin/sh',
    `# metalslice: this node's software must be the cluster's pins (bootstrap ${bootstrap.mode}); then it joins.`,
    'set -eu',
    'stop() { echo "metalslice: $*; this node does not join (README \\"Node software\\")" >&2; exit 1; }',
    'found=$(kubelet --version 2>/dev/null || echo missing)',
    `[ "$found" = ${shellQuote(`Kubernetes ${k8s}`)} ] || stop "kubelet is $found, the cluster pins ${k8s}"`,
    'found=$(kubeadm version -o short 2>/dev/null || echo missing)',
    `[ "$found" = ${shellQuote(k8s)} ] || stop "kubeadm is $found, the cluster pins ${k8s}"`,
  ];
  if (bootstrap.containerd !== undefined) {
    const pin = shellQuote(bootstrap.containerd);
    if (packages) {
      lines.push(
        // No `${` in the script: the document is a Terraform template (its token is an expression).
        "found=$(dpkg -s containerd 2>/dev/null | sed -n 's/^Version: //p')",
        '[ -n "$found" ] || found=missing',
        `[ "$found" = ${pin} ] || stop "containerd is $found, the cluster pins ${bootstrap.containerd}"`,
      );
    } else {
      // `containerd --version` prints its name, its module and its version (Debian's: two versions): the pin is one word.
      lines.push(
        'found=$(containerd --version 2>/dev/null || echo missing)',
        `case " $found " in *" "${pin}" "*|*" v"${pin}" "*) ;; *) stop "containerd is $found, the cluster pins ${bootstrap.containerd}" ;; esac`,
      );
    }
  }
  if (packages || bootstrap.proxy !== undefined) {
    const sandbox = bootstrap.sandboxImage === undefined ? '' : ` -e ${shellQuote(`s#sandbox_image = .*#sandbox_image = "${bootstrap.sandboxImage}"#`)}`;
    // Installed here: containerd's config made (systemd's cgroups). Either way its proxy drop-in is read.
    if (packages)
      lines.push(
        'mkdir -p /etc/containerd',
        `containerd config default | sed -e 's/SystemdCgroup = false/SystemdCgroup = true/'${sandbox} > /etc/containerd/config.toml`,
      );
    lines.push('systemctl daemon-reload', 'systemctl restart containerd');
  }
  lines.push('systemctl enable --now containerd kubelet', `exec kubeadm join --config ${joinConfiguration}`);
  return `${lines.join('\n')}\n`;
}

/** What `bootstrap` adds to the join document of a node joining the API server at `apiServerHost`. */
export function nodeSoftware(bootstrap: NodeBootstrap, apiServerHost: string, joinConfiguration: string): NodeSoftwareConfig {
  const files: Record<string, unknown>[] = [];
  if (bootstrap.proxy !== undefined) files.push(containerdProxyFile(bootstrap, apiServerHost));
  files.push({ path: JOIN_SCRIPT_PATH, permissions: '0700', owner: 'root:root', content: joinScript(bootstrap, joinConfiguration) });
  const run = [JOIN_SCRIPT_PATH];
  if (bootstrap.mode === 'preinstalled') return { keys: {}, files, runcmd: [run] };
  const version = `${bootstrap.kubernetes}-${bootstrap.packageRevision ?? DEFAULT_PACKAGE_REVISION}`;
  const keys: Record<string, unknown> = {
    apt: aptSettings(bootstrap),
    package_update: true,
    packages: [
      ['containerd', bootstrap.containerd!],
      ['kubelet', version],
      ['kubeadm', version],
    ],
  };
  const hold = ['apt-mark', 'hold', 'containerd', 'kubelet', 'kubeadm'];
  if (bootstrap.mode === 'mirror') return { keys, files, runcmd: [hold, run] };
  // internet: pkgs.k8s.io's key fetched (through the proxy, if any), its source added, then the pinned packages.
  // cloud-init's packages module runs after runcmd is written but before it runs: the Kubernetes packages are
  // installed here, once their source is known, and containerd by the module.
  return {
    keys: { ...keys, packages: [['containerd', bootstrap.containerd!], 'apt-transport-https', 'ca-certificates', 'curl', 'gpg'] },
    files,
    runcmd: [
      // The pin was checked (core/input/bootstrap.ts): it has a minor.
      ...upstreamRepositorySteps(kubernetesMinorOf(bootstrap.kubernetes)!, httpsProxy(bootstrap)),
      ['apt-get', 'install', '-y', `kubelet=${version}`, `kubeadm=${version}`],
      hold,
      run,
    ],
  };
}
