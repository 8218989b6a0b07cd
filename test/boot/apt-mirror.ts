/**
 * What a `mirror` bootstrap reaches inside an air-gapped fleet, made on this machine for the first-boot test:
 *
 * - a Kubernetes package repository laid out as pkgs.k8s.io's (a flat repository: `Packages`, and `InRelease`
 *   signed with a key made for the run), holding kubelet and kubeadm packages built with dpkg-deb from the
 *   toolchain's own binaries (the same build as the API server), with the systemd unit and kubeadm drop-in the
 *   node image uses;
 * - one HTTP server that serves that repository and is also the fleet's HTTP proxy: it forwards requests for the
 *   distribution's archive (deb.debian.org only) and refuses every other host, counting what each guest took.
 *   Packages and by-hash indexes it forwarded are kept under the cache directory (they never change); release
 *   files are fetched each time.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

/** A signed flat repository of kubelet and kubeadm. */
export interface KubernetesRepository {
  /** Its directory (served as the repository's root). */
  readonly dir: string;
  /** The ASCII-armored public key that signs its InRelease. */
  readonly publicKey: string;
  /** The packages' version, `1.34.4-1.1`. */
  readonly version: string;
}

/** What a package of the repository holds besides its binary. */
export interface PackageFile {
  /** Path in the node's root filesystem. */
  readonly path: string;
  /** Its content. */
  readonly content: string;
}

/** What to build the repository from. */
export interface RepositoryOptions {
  /** The directory to build it in (made). */
  readonly dir: string;
  /** kubelet and kubeadm binaries. */
  readonly binaries: { readonly kubelet: string; readonly kubeadm: string };
  /** The Kubernetes version, `1.34.4`. */
  readonly kubernetes: string;
  /** The package revision, `1.1`. */
  readonly revision: string;
  /** Files each package installs besides its binary (the kubelet's unit; kubeadm's kubelet drop-in). */
  readonly files: { readonly kubelet: readonly PackageFile[]; readonly kubeadm: readonly PackageFile[] };
}

/** Builds one package with dpkg-deb: its binary in /usr/bin, its files, a control file. */
function buildPackage(work: string, name: string, version: string, binary: string, files: readonly PackageFile[], depends: string | undefined): string {
  const root = path.join(work, `${name}-root`);
  fs.mkdirSync(path.join(root, 'DEBIAN'), { recursive: true });
  fs.mkdirSync(path.join(root, 'usr', 'bin'), { recursive: true });
  fs.copyFileSync(binary, path.join(root, 'usr', 'bin', name));
  fs.chmodSync(path.join(root, 'usr', 'bin', name), 0o755);
  for (const file of files) {
    const target = path.join(root, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content, { mode: 0o644 });
  }
  const control = [
    `Package: ${name}`,
    `Version: ${version}`,
    'Architecture: amd64',
    'Maintainer: metalslice tests <tests@metalslice.invalid>',
    ...(depends ? [`Depends: ${depends}`] : []),
    `Description: ${name} ${version}, built for metalslice's first-boot test from the toolchain's binary`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(root, 'DEBIAN', 'control'), control);
  const deb = `${name}_${version}_amd64.deb`;
  execFileSync('dpkg-deb', ['--build', '--root-owner-group', '-Zgzip', root, path.join(work, 'repo', deb)], { stdio: 'pipe' });
  return deb;
}

/** The repository's Release file: what apt checks every index against. */
function releaseFile(repo: string, indexes: readonly string[]): string {
  const lines = ['Origin: metalslice-test', 'Label: metalslice-test', 'Architectures: amd64', `Date: ${new Date().toUTCString()}`, 'SHA256:'];
  for (const index of indexes) {
    const data = fs.readFileSync(path.join(repo, index));
    lines.push(` ${createHash('sha256').update(data).digest('hex')} ${data.length} ${index}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Builds the signed repository; its key is made for this run and thrown away with `dir`. */
export function buildKubernetesRepository(options: RepositoryOptions): KubernetesRepository {
  const version = `${options.kubernetes}-${options.revision}`;
  const repo = path.join(options.dir, 'repo');
  fs.mkdirSync(repo, { recursive: true });
  buildPackage(options.dir, 'kubelet', version, options.binaries.kubelet, options.files.kubelet, undefined);
  buildPackage(options.dir, 'kubeadm', version, options.binaries.kubeadm, options.files.kubeadm, `kubelet (= ${version})`);
  const packages = execFileSync('dpkg-scanpackages', ['--multiversion', '.', '/dev/null'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  fs.writeFileSync(path.join(repo, 'Packages'), packages);
  execFileSync('gzip', ['-9', '-k', '-n', 'Packages'], { cwd: repo });
  fs.writeFileSync(path.join(repo, 'Release'), releaseFile(repo, ['Packages', 'Packages.gz']));
  const gnupg = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-gnupg-'));
  try {
    const gpg = (args: string[]) =>
      execFileSync('gpg', ['--homedir', gnupg, '--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    gpg(['--quick-gen-key', 'metalslice test mirror <mirror@metalslice.invalid>', 'ed25519', 'sign', '1d']);
    gpg(['--clearsign', '--digest-algo', 'SHA256', '--output', path.join(repo, 'InRelease'), path.join(repo, 'Release')]);
    const publicKey = gpg(['--armor', '--export', 'mirror@metalslice.invalid']);
    return { dir: repo, publicKey, version };
  } finally {
    fs.rmSync(gnupg, { recursive: true, force: true });
  }
}

/** What the mirror served and refused. */
export interface MirrorStats {
  /** Bytes served from the Kubernetes repository. */
  repositoryBytes: number;
  /** Bytes forwarded from the distribution's archive (from the cache or upstream). */
  proxiedBytes: number;
  /** Bytes of packages (`.deb`) among them. */
  packageBytes: number;
  /** Every request the mirror answered, `METHOD url -> status`. */
  readonly requests: string[];
  /** Hosts (and CONNECT targets) it refused. */
  readonly refused: string[];
}

/** A running mirror and proxy. */
export interface Mirror {
  /** The port it listens on, on 127.0.0.1. */
  readonly port: number;
  /** What it served so far. */
  readonly stats: MirrorStats;
  /** Stops it. */
  close(): Promise<void>;
}

/** Whether a forwarded URL never changes (a package, or an index addressed by its hash). */
const immutable = (url: URL): boolean => url.pathname.endsWith('.deb') || url.pathname.includes('/by-hash/');

function fetchUpstream(url: URL): Promise<{ status: number; body: Buffer; type?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, body: Buffer.concat(chunks), type: res.headers['content-type'] }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * Starts the mirror: the repository under `/kubernetes/` (as a direct request or through the proxy, by any host
 * name), and a forward proxy to `allowed` hosts only.
 */
export async function startMirror(repository: KubernetesRepository, allowed: readonly string[], cacheDir: string): Promise<Mirror> {
  const stats: MirrorStats = { repositoryBytes: 0, proxiedBytes: 0, packageBytes: 0, requests: [], refused: [] };
  fs.mkdirSync(cacheDir, { recursive: true });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse, status: number, body: Buffer | string, type = 'application/octet-stream') => {
    stats.requests.push(`${req.method} ${req.url} -> ${status}`);
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://mirror.invalid');
      if (url.pathname.startsWith('/kubernetes/')) {
        const file = path.join(repository.dir, path.normalize(url.pathname.slice('/kubernetes/'.length)));
        if (!file.startsWith(repository.dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return answer(req, res, 404, 'not found\n', 'text/plain');
        const body = fs.readFileSync(file);
        stats.repositoryBytes += body.length;
        return answer(req, res, 200, body);
      }
      if (!/^https?:\/\//.test(req.url ?? '') || !allowed.includes(url.hostname)) {
        stats.refused.push(url.hostname || String(req.url));
        return answer(req, res, 403, `metalslice test mirror: ${url.hostname} is not reachable from the fleet\n`, 'text/plain');
      }
      const cached = path.join(cacheDir, createHash('sha256').update(url.href).digest('hex'));
      let body: Buffer;
      let status = 200;
      if (immutable(url) && fs.existsSync(cached)) body = fs.readFileSync(cached);
      else {
        const fetched = await fetchUpstream(url);
        ({ status, body } = fetched);
        if (status === 200 && immutable(url)) fs.writeFileSync(cached, body);
      }
      if (status === 200) {
        stats.proxiedBytes += body.length;
        if (url.pathname.endsWith('.deb')) stats.packageBytes += body.length;
      }
      return answer(req, res, status, body);
    })().catch((e: unknown) => answer(req, res, 502, `metalslice test mirror: ${(e as Error).message}\n`, 'text/plain'));
  });
  // HTTPS through the proxy is a CONNECT: the fleet's mirror answers plain HTTP only, as apt's mirrors do.
  server.on('connect', (req: http.IncomingMessage, socket: import('node:net').Socket) => {
    stats.refused.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return { port, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A GET through the proxy on 127.0.0.1:`proxyPort`, as apt sends one (the absolute URL as the request target). */
function getThroughProxy(proxyPort: number, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: proxyPort, path: url }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${url} through the proxy: ${res.statusCode}`))));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * The version of `pkg` a Debian archive serves today for `suite`'s main amd64, read through the proxy as apt on a node
 * reads it: the release file, then the package index it names (by hash, checked), decompressed with xz.
 */
export async function archivePackageVersion(proxyPort: number, archive: string, suite: string, pkg: string): Promise<string> {
  const base = `${archive.replace(/\/$/, '')}/dists/${suite}/`;
  const release = (await getThroughProxy(proxyPort, `${base}InRelease`)).toString('utf8');
  const sha256 = release.slice(release.indexOf('\nSHA256:'));
  const entry = / ([0-9a-f]{64}) +[0-9]+ main\/binary-amd64\/Packages\.xz\n/.exec(sha256);
  if (!entry) throw new Error(`${base}InRelease names no main/binary-amd64/Packages.xz`);
  const index = await getThroughProxy(proxyPort, `${base}main/binary-amd64/by-hash/SHA256/${entry[1]}`);
  if (createHash('sha256').update(index).digest('hex') !== entry[1]) throw new Error(`${suite}'s package index does not match its release file`);
  const packages = execFileSync('xz', ['-dc'], { input: index, maxBuffer: 512 * 1024 * 1024 }).toString('utf8');
  const stanza = packages.split('\n\n').find((s) => s.startsWith(`Package: ${pkg}\n`));
  const version = stanza && /^Version: (\S+)$/m.exec(stanza)?.[1];
  if (!version) throw new Error(`${archive} ${suite} main serves no ${pkg}`);
  return version;
}
