// A cluster's node bootstrap: every setting's user data passes cloud-init's own schema check; the join script it
// writes, run as the node would run it (cloud-init's write_files, then sh), joins only on the pinned node software
// and says why otherwise; the pins are in each pool's revision and where packages come from is not; a URL with a
// credential or a private key is refused at its path, with nothing of it repeated, and never reaches a document.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { planModel } from '../../constructs/core/plan';
import type { ClusterSpec, NodeBootstrap } from '../../constructs/core/input/model';
import { bootstrapProblems } from '../../constructs/core/input/bootstrap';
import { renderJoinCloudConfig } from '../../constructs/render/cloud-init';
import { JOIN_SCRIPT_PATH } from '../../constructs/render/node-software';
import { cloudInitSchemaCheck, cloudInitWriteFiles } from '../support/cloud-init';
import { cluster, EXAMPLE_CA, fleet, hosts, model, pool, quota } from '../support/models';

const KEY = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGMHmisBEADcP4WBUzpn8NMe8sTqA2dI2s3P6L5oF5tgJq9nF6YJjD0\n=x4Jk\n-----END PGP PUBLIC KEY BLOCK-----\n';
const PREINSTALLED: NodeBootstrap = { mode: 'preinstalled', kubernetes: '1.34.4', containerd: '1.6.20~ds1' };
const MIRROR: NodeBootstrap = {
  mode: 'mirror',
  kubernetes: '1.34.4',
  containerd: '1.6.20~ds1-1+deb12u3',
  sandboxImage: 'registry.internal/pause:3.10',
  repositories: {
    distribution: 'http://mirror.internal/debian',
    security: 'http://mirror.internal/debian-security',
    kubernetes: 'http://mirror.internal/kubernetes/v1.34/deb/',
    kubernetesKey: KEY,
  },
  proxy: { http: 'http://proxy.internal:3128', noProxy: ['.internal', '10.0.0.0/8'] },
};
const INTERNET: NodeBootstrap = { mode: 'internet', kubernetes: '1.34.4', containerd: '1.7.24-1', proxy: { https: 'http://proxy.internal:3128' } };
const SETTINGS: Record<string, NodeBootstrap | undefined> = { unpinned: undefined, preinstalled: PREINSTALLED, mirror: MIRROR, internet: INTERNET };

const document = (bootstrap: NodeBootstrap | undefined, nodeName = 'workers-0'): string =>
  renderJoinCloudConfig({
    nodeName,
    endpoint: 'https://10.0.0.10:6443',
    caCertificate: EXAMPLE_CA,
    token: 'abcdef.0123456789abcdef',
    kubernetesVersion: '1.34',
    labels: { 'metalslice.io/pool': 'workers' },
    taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    bootstrap,
  });

/** A fleet with one pool on cluster `prod` whose spec is `extra`. */
function planWith(extra: Partial<ClusterSpec>) {
  return planModel(
    model({
      fleets: [fleet('f', hosts(2, { cpu: 64, memory: '256Gi', disk: '2Ti' }))],
      quotas: [quota('q', 'f', { cpu: 32, memory: '64Gi', disk: '1Ti' })],
      clusters: [cluster('prod', extra)],
      nodePools: [pool('workers', 'q', { cpu: 4, memory: '8Gi', disk: '50Gi' }, 2)],
    }),
  );
}

/** The join script a document writes, run with stand-ins for the node's binaries printing `versions`. */
function runJoinScript(doc: string, versions: { kubelet: string; kubeadm: string; containerd: string; dpkg?: string }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-join-script-'));
  try {
    const root = path.join(dir, 'root');
    cloudInitWriteFiles(doc, root);
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    const calls = path.join(dir, 'calls');
    const stub = (name: string, body: string) => fs.writeFileSync(path.join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${calls}\n${body}\n`, { mode: 0o755 });
    stub('kubelet', `echo '${versions.kubelet}'`);
    stub('kubeadm', `[ "$1" = version ] && echo '${versions.kubeadm}'; exit 0`);
    stub('containerd', `echo '${versions.containerd}'`);
    stub('dpkg', versions.dpkg === undefined ? 'exit 1' : `echo 'Package: containerd'; echo 'Version: ${versions.dpkg}'`);
    stub('systemctl', 'exit 0');
    const script = path.join(root, JOIN_SCRIPT_PATH);
    const mode = fs.statSync(script).mode & 0o777;
    const run = spawnSync('/bin/sh', [script], { env: { PATH: `${bin}:/usr/bin:/bin` }, encoding: 'utf8' });
    const called = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [];
    return { code: run.status, stderr: run.stderr, mode, called };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('node bootstrap: the user data of each setting', () => {
  it.each(Object.keys(SETTINGS))("%s passes cloud-init's own schema check", (name) => {
    const result = cloudInitSchemaCheck(document(SETTINGS[name]));
    expect(result.output).toMatch(/^Valid/m);
    expect(result.ok).toBe(true);
  });

  it('preinstalled installs nothing and reaches no repository; mirror installs the pins from the mirror only; internet from pkgs.k8s.io', () => {
    const pre = parse(document(PREINSTALLED)) as Record<string, unknown>;
    expect(pre.packages).toBeUndefined();
    expect(pre.package_update).toBeUndefined();
    expect(pre.apt).toBeUndefined();
    expect(document(PREINSTALLED)).not.toMatch(/https?:\/\//);
    const mirror = parse(document(MIRROR)) as { packages: unknown; apt: Record<string, unknown>; runcmd: string[][] };
    expect(mirror.packages).toEqual([
      ['containerd', '1.6.20~ds1-1+deb12u3'],
      ['kubelet', '1.34.4-1.1'],
      ['kubeadm', '1.34.4-1.1'],
    ]);
    expect(mirror.apt).toMatchObject({
      preserve_sources_list: false,
      primary: [{ arches: ['default'], uri: 'http://mirror.internal/debian' }],
      sources: { kubernetes: { source: 'deb [signed-by=$KEY_FILE] http://mirror.internal/kubernetes/v1.34/deb/ /', key: KEY } },
      http_proxy: 'http://proxy.internal:3128',
    });
    expect(document(MIRROR)).not.toMatch(/pkgs\.k8s\.io|curl/);
    const internet = parse(document(INTERNET)) as { runcmd: string[][] };
    expect(internet.runcmd).toContainEqual(['apt-get', 'install', '-y', 'kubelet=1.34.4-1.1', 'kubeadm=1.34.4-1.1']);
    expect(internet.runcmd.flat().join(' ')).toContain("--proxy 'http://proxy.internal:3128' https://pkgs.k8s.io/core:/stable:/v1.34/deb/Release.key");
  });

  it("containerd goes through the proxy, and the API server's host never does", () => {
    const files = (parse(document(MIRROR)) as { write_files: { path: string; content: string }[] }).write_files;
    const dropIn = files.find((f) => f.path === '/etc/systemd/system/containerd.service.d/http-proxy.conf')!;
    expect(dropIn.content).toContain('Environment="HTTPS_PROXY=http://proxy.internal:3128"');
    expect(dropIn.content).toContain('Environment="NO_PROXY=.internal,10.0.0.0/8,10.0.0.10,localhost,127.0.0.1"');
  });

  it('apt installs no recommended package, and reaches a no-proxy host directly (apt takes single hosts, not domains or CIDRs)', () => {
    const bootstrap: NodeBootstrap = {
      ...MIRROR,
      proxy: { http: 'http://proxy.internal:3128', noProxy: ['.internal', '10.0.0.0/8', 'mirror.internal', '10.0.2.101'] },
    };
    const apt = (parse(document(bootstrap)) as { apt: { conf: string } }).apt;
    expect(apt.conf.split('\n')).toEqual([
      'APT::Install-Recommends "false";',
      'Acquire::http::Proxy::mirror.internal "DIRECT";',
      'Acquire::https::Proxy::mirror.internal "DIRECT";',
      'Acquire::http::Proxy::10.0.2.101 "DIRECT";',
      'Acquire::https::Proxy::10.0.2.101 "DIRECT";',
      '',
    ]);
    expect((parse(document(INTERNET)) as { apt: { conf: string } }).apt.conf).toBe('APT::Install-Recommends "false";\n');
  });

  it('a pinned document holds no Terraform template opener of its own (the token is the only expression)', () => {
    for (const bootstrap of [PREINSTALLED, MIRROR, INTERNET]) expect(document(bootstrap)).not.toMatch(/[$%]\{/);
  });

  it('a cluster without a bootstrap keeps the document it had: no join script, packages from pkgs.k8s.io', () => {
    const doc = document(undefined);
    expect(doc).not.toContain(JOIN_SCRIPT_PATH);
    expect(doc).toContain('https://pkgs.k8s.io/core:/stable:/v1.34/deb/');
  });
});

describe('node bootstrap: the join script, run as the node runs it', () => {
  const matching = {
    kubelet: 'Kubernetes v1.34.4',
    kubeadm: 'v1.34.4',
    containerd: 'containerd github.com/containerd/containerd 1.6.20~ds1 1.6.20~ds1-1+deb12u3',
  };

  it('joins on the pinned versions: containerd and the kubelet started, then kubeadm join with the written configuration', () => {
    const run = runJoinScript(document(PREINSTALLED), matching);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.mode).toBe(0o700);
    expect(run.called.slice(-2)).toEqual(['systemctl enable --now containerd kubelet', 'kubeadm join --config /etc/kubernetes/kubeadm-join.yaml']);
  });

  it('takes an upstream containerd printing its version with a v', () => {
    const run = runJoinScript(document({ ...PREINSTALLED, containerd: '1.7.24' }), {
      ...matching,
      containerd: 'containerd github.com/containerd/containerd/v2 v1.7.24 88bf19b2',
    });
    expect(run.code).toBe(0);
  });

  it.each([
    ['kubelet', { kubelet: 'Kubernetes v1.34.3' }, 'metalslice: kubelet is Kubernetes v1.34.3, the cluster pins v1.34.4; this node does not join'],
    ['kubeadm', { kubeadm: 'v1.35.0' }, 'metalslice: kubeadm is v1.35.0, the cluster pins v1.34.4; this node does not join'],
    [
      'containerd',
      { containerd: 'containerd github.com/containerd/containerd 1.6.200' },
      'containerd is containerd github.com/containerd/containerd 1.6.200, the cluster pins 1.6.20~ds1',
    ],
  ])('stops before the join when the image has another %s, saying so', (_, other, message) => {
    const run = runJoinScript(document(PREINSTALLED), { ...matching, ...other });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.called.some((c) => c.startsWith('kubeadm join') || c.startsWith('systemctl'))).toBe(false);
  });

  it('a mirror node whose containerd package is not the pin stops before it writes anything', () => {
    const run = runJoinScript(document(MIRROR), { ...matching, dpkg: '1.6.20~ds1-1+deb12u1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('metalslice: containerd is 1.6.20~ds1-1+deb12u1, the cluster pins 1.6.20~ds1-1+deb12u3');
    expect(run.called.filter((c) => !/^(kubelet|kubeadm version|dpkg)/.test(c))).toEqual([]);
  });
});

describe('node bootstrap: the plan', () => {
  const revisionOf = (extra: Partial<ClusterSpec>) => {
    const plan = planWith(extra);
    expect(plan.errors).toEqual([]);
    const revision = plan.rollouts.get(plan.pools[0].path)?.revision;
    expect(revision).toMatch(/^[0-9a-f]{16}$/);
    return revision;
  };

  it('a pin is part of every pool revision; where the packages come from is not', () => {
    const base = revisionOf({ bootstrap: MIRROR });
    expect(revisionOf({ bootstrap: { ...MIRROR, kubernetes: '1.34.5' } })).not.toBe(base);
    expect(revisionOf({ bootstrap: { ...MIRROR, containerd: '1.6.20~ds1-1+deb12u4' } })).not.toBe(base);
    expect(revisionOf({ bootstrap: { ...MIRROR, packageRevision: '1.2' } })).not.toBe(base);
    expect(revisionOf({ bootstrap: { ...MIRROR, mode: 'internet', repositories: undefined } })).not.toBe(base);
    expect(revisionOf({ bootstrap: { ...MIRROR, repositories: { ...MIRROR.repositories!, kubernetes: 'http://other.internal/k8s/' } } })).toBe(base);
    expect(revisionOf({ bootstrap: { ...MIRROR, proxy: undefined } })).toBe(base);
    expect(revisionOf({ bootstrap: undefined })).not.toBe(base);
  });

  it("takes the cluster's Kubernetes minor from the pin, and refuses a pin of another minor at its path", () => {
    expect(planWith({ bootstrap: PREINSTALLED }).clusters[0].kubernetesVersion).toBe('1.34');
    expect(planWith({ kubernetesVersion: '1.33', bootstrap: PREINSTALLED }).errors).toEqual([
      expect.objectContaining({ path: 'clusters[0].bootstrap.kubernetes', message: expect.stringContaining('pin a 1.33.x release') }),
    ]);
  });

  it("warns at the cluster when nothing is pinned, and the report names each pool's node software", () => {
    const unpinned = planWith({ bootstrap: undefined });
    expect(unpinned.warnings).toContainEqual(expect.objectContaining({ path: 'clusters[0].bootstrap', message: expect.stringContaining('is not set') }));
    expect(unpinned.report.clusters).toEqual([expect.objectContaining({ name: 'prod', bootstrap: 'unpinned' })]);
    const pinned = planWith({ bootstrap: PREINSTALLED });
    expect(pinned.warnings.filter((w) => w.path.startsWith('clusters'))).toEqual([]);
    expect(pinned.report.clusters).toEqual([
      {
        name: 'prod',
        kubernetesVersion: '1.34',
        bootstrap: 'preinstalled',
        kubernetes: '1.34.4',
        containerd: '1.6.20~ds1',
        nodeSoftware: 'preinstalled in the image: Kubernetes 1.34.4, containerd 1.6.20~ds1',
      },
    ]);
  });

  it.each([
    ['a mirror without repositories', { ...MIRROR, repositories: undefined }, 'clusters[0].bootstrap.repositories', 'is required for a mirror bootstrap'],
    ['internet without a containerd pin', { ...INTERNET, containerd: undefined }, 'clusters[0].bootstrap.containerd', 'is required for a internet bootstrap'],
    [
      'preinstalled with repositories',
      { ...PREINSTALLED, repositories: MIRROR.repositories },
      'clusters[0].bootstrap.repositories',
      'are for a mirror bootstrap',
    ],
    [
      'preinstalled with a package revision',
      { ...PREINSTALLED, packageRevision: '1.1' },
      'clusters[0].bootstrap.packageRevision',
      'a preinstalled image installs none',
    ],
    [
      'a private key',
      { ...MIRROR, repositories: { ...MIRROR.repositories!, kubernetesKey: '-----BEGIN PGP PRIVATE KEY BLOCK-----\nx\n' } },
      'clusters[0].bootstrap.repositories.kubernetesKey',
      'is a private key',
    ],
    [
      'a security mirror alone',
      { ...MIRROR, repositories: { ...MIRROR.repositories!, distribution: undefined } },
      'clusters[0].bootstrap.repositories.security',
      'set repositories.distribution too',
    ],
    ['a minor for a pin', { ...PREINSTALLED, kubernetes: '1.34' }, 'clusters[0].bootstrap.kubernetes', 'is not an exact Kubernetes version'],
    ['a containerd pin with a shell in it', { ...MIRROR, containerd: '1.7; rm -rf /' }, 'clusters[0].bootstrap.containerd', 'is not a package version'],
  ] as [string, NodeBootstrap, string, string][])('refuses %s at its path', (_, bootstrap, at, message) => {
    expect(planWith({ bootstrap }).errors).toContainEqual(expect.objectContaining({ path: at, message: expect.stringContaining(message) }));
  });

  it('a credential in any URL is refused at its path and never repeated', () => {
    const secret = 's3cr3t-Pa55';
    for (const [where, bootstrap] of [
      ['repositories.kubernetes', { ...MIRROR, repositories: { ...MIRROR.repositories!, kubernetes: `http://apt:${secret}@mirror.internal/k8s/` } }],
      ['repositories.distribution', { ...MIRROR, repositories: { ...MIRROR.repositories!, distribution: `https://u:${secret}@mirror.internal/debian` } }],
      ['proxy.http', { ...MIRROR, proxy: { http: `http://proxy:${secret}@proxy.internal:3128` } }],
      ['proxy.https', { ...INTERNET, proxy: { https: `http://${secret}@proxy.internal:3128` } }],
    ] as [string, NodeBootstrap][]) {
      const plan = planWith({ bootstrap });
      expect(plan.errors).toContainEqual(
        expect.objectContaining({ path: `clusters[0].bootstrap.${where}`, message: expect.stringContaining('holds a credential') }),
      );
      expect(JSON.stringify(plan.errors)).not.toContain(secret);
      expect(JSON.stringify(plan.report)).not.toContain(secret);
    }
  });

  it('never throws on hostile values, and never repeats a URL it refuses (fast-check)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.array(fc.string(), { maxLength: 3 }), (url, proxy, version, noProxy) => {
        const bootstrap: NodeBootstrap = {
          mode: 'mirror',
          kubernetes: version,
          containerd: version,
          repositories: { kubernetes: `http://x:${url}@m/`, kubernetesKey: url },
          proxy: { http: proxy, noProxy },
        };
        const problems = bootstrapProblems(bootstrap, 'clusters[0].bootstrap', undefined);
        expect(problems.find((p) => p.path === 'clusters[0].bootstrap.repositories.kubernetes')?.message ?? '').not.toContain(`x:${url}@`);
        // Whatever is accepted is safe in a shell script and a Terraform template.
        if (!problems.some((p) => p.path.endsWith('.proxy.http'))) expect(proxy).not.toMatch(/[\s"'`$\\;|&<>(){}]/);
      }),
    );
  });
});
