// A node's first boot from an image without node software, proven in a real VM: the mirror node image
// (scripts/node-image.sh --variant mirror: no containerd, runc, kubelet or kubeadm) boots under QEMU with the user
// data metalslice renders for a `mirror` bootstrap. Its cloud-init points apt at the fleet's Kubernetes repository
// and proxy, installs containerd, kubelet and kubeadm at their pins, and the join script checks them and joins. The
// fleet's mirror is made here (test/boot/apt-mirror.ts): kubelet and kubeadm packages built from the toolchain's
// binaries in a signed repository, and one HTTP server that serves it and proxies deb.debian.org alone. The guest's
// network reaches the API server and that server, nothing else. Judged from the API server (the CSR by the bootstrap
// token, the Node by system:node:<name>, its versions, Ready) and from the mirror (what the node fetched, from where,
// and that nothing else was asked for): what one node of a roll downloads.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderBootstrapTokenSecret } from '../../constructs/render/secrets';
import type { KubeClient, TestCluster } from '../e2e/harness';
import { REPO_ROOT, startCluster } from '../e2e/harness';
import { AuditEvent, joinedAndReady, poll, randomToken, readAudit } from './api';
import { archivePackageVersion, buildKubernetesRepository, KubernetesRepository, Mirror, startMirror } from './apt-mirror';
import { bootVm, buildNodeImage, GUEST_API_SERVER, lastLines, NodeImage, Vm } from './qemu';
import { mirrorJoinCloudConfig } from './user-data';

jest.setTimeout(3_600_000);

const KUBERNETES = '1.34.4';
const REVISION = '1.1';
const NODE = 'team-a-mirror-0';
const LABELS = { 'metalslice.io/pool': 'mirror', 'metalslice.io/tenant': 'team-a', 'example.com/tier': 'gold' } as const;
const TAINTS = [{ key: 'metalslice.io/dedicated', value: 'mirror', effect: 'NoSchedule' as const }];
/** Where the guest reaches the fleet's mirror and proxy (forwarded to the mirror on this machine). */
const GUEST_MIRROR = '10.0.2.101:80';
/** The distribution's archive, the only host the proxy forwards to. */
const ARCHIVE_HOST = 'deb.debian.org';
// TCG emulates every instruction: apt's index reads, dpkg's unpacking and the join take many minutes.
const BOOT_TIMEOUT_MS = 45 * 60_000;

interface PodStatusDoc {
  status: { phase?: string; containerStatuses?: { state: { running?: { startedAt: string } } }[] };
}

/** The toolchain's binary on PATH (scripts/test-boot.sh puts the toolchain there). */
function onPath(name: string): string {
  return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
}

describe('boot (mirror): a node without node software installs the pins from the fleet mirror and joins', () => {
  let image: NodeImage;
  let repository: KubernetesRepository;
  let mirror: Mirror;
  let cluster: TestCluster;
  let api: KubeClient;
  let work: string;
  let vm: Vm | undefined;
  /** containerd's package version the archive serves the image's sources today. */
  let containerd: string;
  const timings: Record<string, number> = {};
  const suiteStart = Date.now();

  beforeAll(async () => {
    const t0 = Date.now();
    image = await buildNodeImage('mirror');
    timings.imageMs = Date.now() - t0;
    expect(image.variant).toBe('mirror');
    // METALSLICE_BOOT_DIR keeps the VM's console, seed and disk after the run (the run's temp dir is removed).
    const keep = process.env.METALSLICE_BOOT_DIR;
    if (keep) fs.mkdirSync(keep, { recursive: true });
    work = fs.mkdtempSync(path.join(keep ?? os.tmpdir(), 'metalslice-boot-mirror-'));

    const kubelet = onPath('kubelet');
    const kubeadm = onPath('kubeadm');
    expect(execFileSync(kubelet, ['--version'], { encoding: 'utf8' }).trim()).toBe(`Kubernetes v${KUBERNETES}`);
    // The kubelet's unit and kubeadm's drop-in, the same files the preinstalled image carries.
    const shared = (name: string): string => fs.readFileSync(path.join(REPO_ROOT, 'scripts', 'node-image', name), 'utf8');
    repository = buildKubernetesRepository({
      dir: path.join(work, 'kubernetes-repository'),
      binaries: { kubelet, kubeadm },
      kubernetes: KUBERNETES,
      revision: REVISION,
      files: {
        kubelet: [{ path: '/usr/lib/systemd/system/kubelet.service', content: shared('kubelet.service') }],
        kubeadm: [{ path: '/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf', content: shared('10-kubeadm.conf') }],
      },
    });
    expect(repository.version).toBe(`${KUBERNETES}-${REVISION}`);
    // Packages the archive served once are kept across runs (they never change); every run counts what the guest took.
    const cache = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'metalslice', 'apt-mirror');
    mirror = await startMirror(repository, [ARCHIVE_HOST], cache);
    // containerd pinned to the exact package the archive serves now, read through a second instance of the mirror
    // (same cache), so the first one counts what the guest alone took. The image recorded the one it was built
    // against; a point release since then changes it, and the pin follows the archive.
    const reader = await startMirror(repository, [ARCHIVE_HOST], cache);
    try {
      containerd = await archivePackageVersion(reader.port, `http://${ARCHIVE_HOST}/debian`, 'bookworm', 'containerd');
    } finally {
      await reader.close();
    }
    console.log(`mirror boot: the archive serves containerd ${containerd} (the image was built when it served ${image.containerdPackage})`);

    cluster = await startCluster({
      crdDir: null,
      joinable: true,
      audit: { requestBodies: [{ group: 'certificates.k8s.io', resources: ['certificatesigningrequests'] }] },
      extraServingSans: [`IP:${GUEST_API_SERVER.host}`],
      clusterInfoServer: `https://${GUEST_API_SERVER.host}:${GUEST_API_SERVER.port}`,
      kubeletCgroupDriver: 'systemd',
    });
    api = cluster.client();
  });

  afterAll(async () => {
    await vm?.kill();
    if (process.env.METALSLICE_BOOT_DIR && cluster?.auditLog && work) fs.copyFileSync(cluster.auditLog, path.join(work, 'audit.log'));
    await cluster?.stop();
    await mirror?.close();
    timings.suiteMs = Date.now() - suiteStart;
    console.log(`mirror boot timings (ms): ${JSON.stringify(timings)}`);
    if (mirror) fs.writeFileSync(path.join(work, 'mirror-requests.txt'), `${mirror.stats.requests.join('\n')}\n`);
    if (work && !process.env.METALSLICE_BOOT_DIR) fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs containerd, kubelet and kubeadm at their pins through the mirror, joins with the bootstrap token, and is Ready', async () => {
    const t = randomToken();
    const expiration = new Date(Date.now() + 2 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const secret = renderBootstrapTokenSecret({ tokenId: t.id, tokenSecret: t.secret, expiration, description: 'mirror boot test node' });
    expect((await api.create('/api/v1/namespaces/kube-system/secrets', secret)).status).toBe(201);

    expect(containerd).toMatch(/^[0-9][^\s-]*-[^\s]+$/);
    const userData = mirrorJoinCloudConfig({
      nodeName: NODE,
      endpoint: `https://${GUEST_API_SERVER.host}:${GUEST_API_SERVER.port}`,
      caCertificate: fs.readFileSync(cluster.caFile, 'utf8'),
      token: `${t.id}.${t.secret}`,
      kubernetes: KUBERNETES,
      containerd,
      repository: { url: `http://${GUEST_MIRROR.replace(/:80$/, '')}/kubernetes/`, key: repository.publicKey },
      proxy: `http://${GUEST_MIRROR}`,
      // The fleet's own repository is reached directly; only the distribution's archive goes through the proxy.
      noProxy: [GUEST_MIRROR.replace(/:80$/, '')],
      // The image's own pause image (imported once containerd is installed): nothing is pulled from a registry.
      sandboxImage: image.pauseImage,
      labels: LABELS,
      taints: TAINTS,
    });
    // cloud-init's own schema check, as the guest's cloud-init will read it.
    const file = path.join(work, `${NODE}.user-data`);
    fs.writeFileSync(file, userData);
    execFileSync('cloud-init', ['schema', '--config-file', file], { stdio: 'pipe' });

    vm = await bootVm({
      image,
      userData,
      hostname: NODE,
      apiServerPort: Number(new URL(cluster.server).port),
      forwards: [{ guest: GUEST_MIRROR, hostPort: mirror.port }],
      dir: path.join(work, NODE),
    });
    const booted = vm;
    const consoleTail = (): string => `console (${booted.consoleLog}):\n${lastLines(booted.console(), 60)}`;

    // The guest's only network: QEMU's restricted user network with the two forwards (API server, mirror).
    const netdev = fs.readFileSync(path.join(work, NODE, 'qemu.args'), 'utf8').match(/"(user,id=n0,[^"]*)"/)?.[1] ?? '';
    expect(netdev.split(',')).toEqual([
      'user',
      'id=n0',
      'restrict=on',
      `guestfwd=tcp:${GUEST_API_SERVER.host}:${GUEST_API_SERVER.port}-cmd:socat STDIO TCP4:127.0.0.1:${new URL(cluster.server).port}`,
      `guestfwd=tcp:${GUEST_MIRROR}-cmd:socat STDIO TCP4:127.0.0.1:${mirror.port}`,
    ]);

    const { node, joinedMs, readyMs } = await joinedAndReady(booted, api, NODE, { joinMs: BOOT_TIMEOUT_MS, readyMs: 15 * 60_000 }, consoleTail);
    timings.bootToJoinedMs = joinedMs;
    timings.bootToNodeReadyMs = readyMs;
    const final = await booted.waitForConsole(/Cloud-init v\. \S+ finished at/, 10 * 60_000);
    timings.bootToCloudInitFinalMs = final.afterMs;

    expect(node.status.nodeInfo.kubeletVersion).toBe(`v${KUBERNETES}`);
    // containerd reports its upstream version: the package's, less the Debian revision and the repack suffix
    // (1.6.20~ds1-1+deb12u3 is containerd 1.6.20).
    const upstream = containerd.replace(/-[^-]+$/, '').replace(/[~+](ds|dfsg)[0-9]*$/, '');
    expect(node.status.nodeInfo.containerRuntimeVersion).toBe(`containerd://${upstream}`);
    expect(node.status.nodeInfo.kernelVersion).toBe(image.kernelVersion);
    expect(node.metadata.labels).toMatchObject(LABELS);
    expect(node.spec.taints).toEqual(expect.arrayContaining(TAINTS.map((taint) => expect.objectContaining(taint))));

    const events: AuditEvent[] = readAudit(cluster.auditLog!);
    const csrCreates = events.filter(
      (e) => e.verb === 'create' && e.objectRef?.resource === 'certificatesigningrequests' && e.user.username === `system:bootstrap:${t.id}`,
    );
    expect(csrCreates.map((e) => e.responseStatus?.code)).toContain(201);
    expect(csrCreates[0].user.groups).toContain('system:bootstrappers:kubeadm:default-node-token');
    const nodeCreates = events.filter((e) => e.verb === 'create' && e.objectRef?.resource === 'nodes' && e.objectRef.subresource === undefined);
    expect(nodeCreates.map((e) => ({ user: e.user.username, name: e.objectRef?.name, code: e.responseStatus?.code }))).toEqual([
      { user: `system:node:${NODE}`, name: NODE, code: 201 },
    ]);

    // From the mirror: the Kubernetes packages from the fleet's repository, asked for directly (the host is in
    // noProxy: a request line with a path, not a proxy's absolute URL), the distribution's through the proxy to
    // deb.debian.org, nothing refused, and no recommended package (criu, which runc recommends) fetched.
    const { stats } = mirror;
    const served = (re: RegExp): string[] => stats.requests.filter((r) => re.test(r));
    // The repository's Packages names each file as dpkg-scanpackages wrote it, `./kubelet_…deb`.
    const version = repository.version;
    expect(served(new RegExp(`/kubernetes/(\\./)?kubelet_${version}_amd64\\.deb -> 200$`))).toHaveLength(1);
    expect(served(new RegExp(`/kubernetes/(\\./)?kubeadm_${version}_amd64\\.deb -> 200$`))).toHaveLength(1);
    expect(served(/\/kubernetes\/InRelease -> 200$/).length).toBeGreaterThan(0);
    // apt escapes some of a version's characters in the URL ('+', '~'); the version has no epoch in a file name.
    const containerdDeb = `containerd_${containerd.replace(/^[0-9]+:/, '')}_amd64.deb -> 200`;
    expect(served(new RegExp(`^GET http://${ARCHIVE_HOST}/debian/pool/main/c/containerd/`)).map((r) => decodeURIComponent(r))).toEqual([
      expect.stringContaining(containerdDeb),
    ]);
    expect(served(new RegExp(`^GET http://${ARCHIVE_HOST}/debian/dists/bookworm/InRelease -> 200$`)).length).toBeGreaterThan(0);
    // Every request was for the repository or the archive; none was refused (no other host, no CONNECT).
    expect(stats.refused).toEqual([]);
    expect(stats.requests.filter((r) => !/^GET (\/kubernetes\/|http:\/\/deb\.debian\.org\/debian\/)/.test(r))).toEqual([]);
    expect(served(/^GET \/kubernetes\/InRelease -> 200$/).length).toBeGreaterThan(0);
    expect(served(/criu/)).toEqual([]);

    // What one node downloaded: indexes and packages, from the repository and through the proxy.
    const repositoryPackages = ['kubelet', 'kubeadm'].reduce((n, p) => n + fs.statSync(path.join(repository.dir, `${p}_${version}_amd64.deb`)).size, 0);
    const download = {
      totalBytes: stats.repositoryBytes + stats.proxiedBytes,
      packageBytes: stats.packageBytes + repositoryPackages,
      indexBytes: stats.repositoryBytes - repositoryPackages + stats.proxiedBytes - stats.packageBytes,
      kubernetesRepositoryBytes: stats.repositoryBytes,
      distributionBytes: stats.proxiedBytes,
      requests: stats.requests.length,
    };
    console.log(`mirror boot: one node downloaded ${JSON.stringify(download)}\n${stats.requests.join('\n')}`);
    expect(download.packageBytes).toBeGreaterThan(0);
  });

  it("runs a pod with the sandbox and workload images the node's own containerd imported", async () => {
    expect(vm).toBeDefined();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'workload', namespace: 'default' },
      spec: {
        nodeName: NODE,
        automountServiceAccountToken: false,
        tolerations: TAINTS.map((taint) => ({ key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect })),
        containers: [{ name: 'workload', image: image.workloadImage, imagePullPolicy: 'Never' }],
      },
    };
    expect((await api.create('/api/v1/namespaces/default/pods', pod)).status).toBe(201);
    await poll(
      'pod workload Running',
      10 * 60_000,
      async () => {
        const r = await api.get<PodStatusDoc>('/api/v1/namespaces/default/pods/workload');
        return r.body.status.phase === 'Running' && r.body.status.containerStatuses?.[0]?.state.running ? r.body : undefined;
      },
      () => lastLines(vm!.console(), 60),
    );
    timings.bootToPodRunningMs = Date.now() - vm!.startedAt;
  });
});
