// The join, proven: kubeadm consumes what metalslice renders. The example consumer stack is applied with
// OpenTofu to a control plane made joinable the way `kubeadm init` leaves one (cluster-info signed by the
// bootstrap signer, the bootstrap RBAC, kubeadm-config and kubelet-config); a node's user-data Secret is read
// back as the cluster stores it, cloud-init's own write_files writes its JoinConfiguration, and kubeadm (built
// from the same Kubernetes version as the API server) validates it, discovers the cluster with its token and CA
// hash, and joins: a real kubelet with containerd where the machine allows, else the kubelet's part emulated.
// Then the token's lifecycle, as the API server sees the token Secrets: expiry, renewal on the next apply
// without touching the VM, and revocation when the node goes.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { cloudInitWriteFiles } from '../support/cloud-init';
import {
  binary,
  emulateKubeletJoin,
  exampleStackEnv,
  expectOk,
  KubeadmNode,
  realKubeletUnavailable,
  run,
  startCluster,
  startKubeadmNode,
  synthExampleApp,
  TestCluster,
  tofu,
} from './harness';
import type { JoinConfiguration, KubeDoc, KubeList, NodeDoc, SecretDoc, VirtualMachineDoc } from '../support/kube-docs';

jest.setTimeout(1_800_000);

const STACKS = ['provider', 'consumer'] as const;
const NAMESPACE = 'acme-team-a';
const VMS = `/apis/kubevirt.io/v1/namespaces/${NAMESPACE}/virtualmachines`;
const TOKENS = '/api/v1/namespaces/kube-system/secrets';
const MANAGED = 'labelSelector=app.kubernetes.io/managed-by%3Dmetalslice';
// On a real node cloud-init's /etc/sysctl.d/99-kubernetes.conf sets it; this machine is not that node, and the
// test does not change the machine's routing.
const IGNORED_PREFLIGHT = ['FileContent--proc-sys-net-ipv4-ip_forward'];
// The node the real kubelet joins as: a pool with a taint, so labels and taints both show.
const KUBELET_NODE = 'team-a-highmem-0';
// The node the lifecycle tests add with a short-lived token.
const SHORT_LIVED = 'team-a-workers-6';
const SHORT_TTL_SECONDS = 60;

interface TokenSecret {
  metadata: { name: string; creationTimestamp: string; uid: string };
  type: string;
  data: Record<string, string>;
}

const decode = (b64: string): string => Buffer.from(b64, 'base64').toString('utf8');

describe('e2e: nodes join with what metalslice renders', () => {
  let cluster: TestCluster;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let node: KubeadmNode | undefined;

  const stackDir = (stack: string) => path.join(work, 'cdktf.out', 'stacks', stack);

  const synth = (extra: Record<string, string> = {}): Promise<void> => synthExampleApp(work, { ...env, ...extra });

  async function planChanges(stack: string): Promise<{ address: string; actions: string }[]> {
    expectOk('plan', await tofu(stackDir(stack), ['plan', '-input=false', '-no-color', '-out=tfplan']));
    const show = await tofu(stackDir(stack), ['show', '-json', 'tfplan']);
    expectOk('show', show);
    return ((JSON.parse(show.stdout) as { resource_changes?: { address: string; change: { actions: string[] } }[] }).resource_changes ?? [])
      .map((c) => ({ address: c.address, actions: c.change.actions.join() }))
      .filter((c) => c.actions !== 'no-op' && c.actions !== 'read');
  }

  const applyPlan = async (stack: string) =>
    expectOk(`apply ${stack}`, await tofu(stackDir(stack), ['apply', '-auto-approve', '-input=false', '-no-color', 'tfplan']));

  /** The node's JoinConfiguration, written by cloud-init's write_files from the user-data Secret the cluster stores. */
  async function joinConfigurationOf(nodeName: string): Promise<{ file: string; config: JoinConfiguration; mode: number }> {
    const api = cluster.client();
    const vm = await api.get<VirtualMachineDoc>(`${VMS}/${nodeName}`);
    expect({ nodeName, status: vm.status }).toEqual({ nodeName, status: 200 });
    const volume = (vm.body.spec.template.spec.volumes as { cloudInitNoCloud?: { secretRef: { name: string } } }[]).find((v) => v.cloudInitNoCloud)!;
    const secret = await api.get<SecretDoc>(`/api/v1/namespaces/${NAMESPACE}/secrets/${volume.cloudInitNoCloud!.secretRef.name}`);
    expect(secret.status).toBe(200);
    const root = fs.mkdtempSync(path.join(work, `${nodeName}-root-`));
    cloudInitWriteFiles(decode(secret.body.data.userdata), root);
    const file = path.join(root, 'etc', 'kubernetes', 'kubeadm-join.yaml');
    const mode = fs.statSync(file).mode & 0o777;
    const config = parse(fs.readFileSync(file, 'utf8')) as JoinConfiguration;
    // kubeadm reads its patches where cloud-init wrote them: under this root, not the test machine's /etc.
    fs.writeFileSync(file, stringify(underRoot(config, root), { lineWidth: 0 }), { mode: 0o600 });
    return { file, config, mode };
  }

  /** The config with its patches directory under `root`, where cloud-init's write_files put the files. */
  function underRoot(config: JoinConfiguration, root: string): JoinConfiguration {
    const copy = structuredClone(config);
    if (copy.patches?.directory !== undefined) copy.patches.directory = path.join(root, copy.patches.directory);
    return copy;
  }

  /** A copy of a JoinConfiguration with one thing changed (and a short discovery timeout: these must fail). */
  function variant(name: string, config: JoinConfiguration, change: (c: JoinConfiguration) => void): string {
    const copy = underRoot(config, fs.mkdtempSync(path.join(work, `${name}-root-`)));
    if (copy.patches?.directory !== undefined) fs.mkdirSync(copy.patches.directory, { recursive: true });
    change(copy);
    copy.timeouts = { ...(copy.timeouts ?? {}), discovery: '15s' };
    const file = path.join(work, `${name}.yaml`);
    fs.writeFileSync(file, stringify(copy, { lineWidth: 0 }), { mode: 0o600 });
    return file;
  }

  /** `kubeadm join --dry-run`: discovery for real, nothing written to the machine; what it would write lands in its own dir. */
  async function joinDryRun(configFile: string): Promise<{ code: number; output: string; dir: string }> {
    const dir = fs.mkdtempSync(path.join(work, 'dry-run-'));
    const r = await run(binary('kubeadm'), ['join', '--config', configFile, '--dry-run', `--ignore-preflight-errors=${IGNORED_PREFLIGHT.join(',')}`], {
      env: { ...process.env, KUBEADM_JOIN_DRYRUN_DIR: dir },
      timeoutMs: 180_000,
    });
    return { code: r.code, output: r.stdout + r.stderr, dir };
  }

  /**
   * `kubeadm join phase preflight`: the preflight checks, then discovery and kubeadm-config read with the real
   * (not dry-run) client, authenticated by the bootstrap token; writes nothing. Unlike --dry-run, a token with no
   * signature is reported under its own id (dry-run swaps in a placeholder token once discovery misses).
   */
  async function joinPreflight(configFile: string): Promise<{ code: number; output: string }> {
    const r = await run(binary('kubeadm'), ['join', 'phase', 'preflight', '--config', configFile, `--ignore-preflight-errors=${IGNORED_PREFLIGHT.join(',')}`], {
      timeoutMs: 180_000,
    });
    return { code: r.code, output: r.stdout + r.stderr };
  }

  /**
   * kubeadm refuses a token the cluster has no signature for: the dry run fails at discovery, and preflight
   * (which keeps the real token) says which token ID it could not find.
   */
  async function expectTokenRefused(configFile: string, tokenId: string): Promise<void> {
    const dry = await joinDryRun(configFile);
    expect(dry.code).not.toBe(0);
    expect(dry.output).toMatch(/couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap/);
    const preflight = await joinPreflight(configFile);
    expect(preflight.code).not.toBe(0);
    expect(preflight.output).toContain(`could not find a JWS signature in the cluster-info ConfigMap for token ID "${tokenId}"`);
  }

  async function tokenSecrets(): Promise<TokenSecret[]> {
    const items = (await cluster.client().get<KubeList<TokenSecret>>(`${TOKENS}?${MANAGED}`)).body.items;
    return items.filter((s) => s.type === 'bootstrap.kubernetes.io/token');
  }

  const tokenIdOf = (config: JoinConfiguration) => config.discovery.bootstrapToken.token.split('.')[0];

  beforeAll(async () => {
    cluster = await startCluster({ joinable: true, kubevirt: true });
    // The version that validates and joins, in the test log; the API server is built from the same module.
    console.log(`kubeadm ${cluster.joinable!.kubeadmVersion} (${binary('kubeadm')}), control plane at ${cluster.joinable!.apiServerEndpoint}`);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-join-'));
    // The tenant cluster is the same joinable API server: tokens land in its kube-system, nodes join it.
    env = exampleStackEnv(cluster, { CDKTF_OUTDIR: path.join(work, 'cdktf.out') });
    await synth();
    for (const stack of STACKS) {
      expectOk(`init ${stack}`, await tofu(stackDir(stack), ['init', '-input=false', '-no-color']));
      expectOk(`apply ${stack}`, await tofu(stackDir(stack), ['apply', '-auto-approve', '-input=false', '-no-color']));
      if (stack === 'provider') await cluster.waitForQuotaStatus(NAMESPACE, 'metalslice', 90_000);
    }
  });

  afterAll(async () => {
    await node?.stop();
    await cluster?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('kubeadm config validate accepts the JoinConfiguration of every node, as cloud-init writes it', async () => {
    const vms = (await cluster.client().get<KubeList<KubeDoc>>(VMS)).body.items.map((v) => v.metadata.name).sort();
    // Six workers, two highmem nodes, two static auto-nodes.
    expect(vms).toHaveLength(10);
    for (const name of vms) {
      const { file, config, mode } = await joinConfigurationOf(name);
      expect({ name, mode: mode.toString(8) }).toEqual({ name, mode: '600' });
      expect(config.nodeRegistration.name).toBe(name);
      const r = await run(binary('kubeadm'), ['config', 'validate', '--config', file]);
      expect({ name, code: r.code, output: r.code === 0 ? '' : r.stdout + r.stderr }).toEqual({ name, code: 0, output: '' });
    }
  });

  it("kubeadm join --dry-run discovers the cluster with the node's token and CA hash, and would start the kubelet with the pool's labels and taints", async () => {
    const { file, config } = await joinConfigurationOf(KUBELET_NODE);
    expect(config.discovery.bootstrapToken.apiServerEndpoint).toBe(cluster.joinable!.apiServerEndpoint);
    const dry = await joinDryRun(file);
    expect({ code: dry.code, tail: dry.code === 0 ? '' : dry.output.slice(-3000) }).toEqual({ code: 0, tail: '' });
    expect(dry.output).toContain('This node has joined the cluster');
    // kubeadm's own rendering of the kubelet's flags from that JoinConfiguration.
    const flags = fs.readFileSync(path.join(dry.dir, 'kubeadm-flags.env'), 'utf8');
    const labels = config.nodeRegistration.kubeletExtraArgs.find((a) => a.name === 'node-labels')!.value;
    expect(labels).toContain('metalslice.io/pool=team-a-highmem');
    expect(flags).toContain(`--node-labels=${labels}`);
    expect(flags).toContain('--register-with-taints=metalslice.io/highmem:NoSchedule');
    expect(flags).toContain(`--hostname-override=${KUBELET_NODE}`);
    // kubeadm's own KubeletConfiguration with cloud-init's patch applied: graceful node shutdown, the second line
    // when a drain cannot run, within the VM's terminationGracePeriodSeconds.
    const kubelet = parse(fs.readFileSync(path.join(dry.dir, 'config.yaml'), 'utf8')) as Record<string, unknown>;
    expect({ grace: kubelet.shutdownGracePeriod, critical: kubelet.shutdownGracePeriodCriticalPods }).toEqual({ grace: '150s', critical: '30s' });

    // The same discovery with kubeadm's real client, then kubeadm-config read as the bootstrap token.
    const preflight = await joinPreflight(file);
    expect({ code: preflight.code, tail: preflight.code === 0 ? '' : preflight.output.slice(-3000) }).toEqual({ code: 0, tail: '' });
    expect(preflight.output).toContain('Reading configuration from the "kubeadm-config" ConfigMap');
  });

  it("refuses a CA hash that is not the cluster CA's", async () => {
    const { config } = await joinConfigurationOf('team-a-workers-0');
    const wrong = variant('wrong-ca-hash', config, (c) => {
      c.discovery.bootstrapToken.caCertHashes = [`sha256:${'0'.repeat(64)}`];
    });
    for (const r of [await joinDryRun(wrong), await joinPreflight(wrong)]) {
      expect(r.code).not.toBe(0);
      expect(r.output).toMatch(/cluster CA found in cluster-info ConfigMap is invalid: none of the public keys "sha256:[0-9a-f]{64}" are pinned/);
      expect(r.output).not.toContain('This node has joined the cluster');
    }
  });

  it('refuses a token the cluster does not know', async () => {
    const { config } = await joinConfigurationOf('team-a-workers-0');
    const unknownId = tokenIdOf(config) === 'zz0000' ? 'zz0001' : 'zz0000';
    const unknown = variant('unknown-token', config, (c) => {
      c.discovery.bootstrapToken.token = `${unknownId}.${c.discovery.bootstrapToken.token.split('.')[1]}`;
    });
    await expectTokenRefused(unknown, unknownId);
  });

  it("a node joins: TLS bootstrap with its token, CSR approved, Node registered with the pool's labels and taints", async () => {
    const { file, config } = await joinConfigurationOf(KUBELET_NODE);
    const labelsArg = config.nodeRegistration.kubeletExtraArgs.find((a) => a.name === 'node-labels')!.value;
    const labels = Object.fromEntries(labelsArg.split(',').map((kv) => kv.split('=') as [string, string]));
    const why = process.env.METALSLICE_E2E_EMULATE_KUBELET ? 'METALSLICE_E2E_EMULATE_KUBELET is set' : await realKubeletUnavailable();
    const api = cluster.client();
    if (why === undefined) {
      console.log(`join: a real kubelet (containerd, runc) started from the files kubeadm join writes, node ${KUBELET_NODE}`);
      node = await startKubeadmNode(file, { ignorePreflightErrors: IGNORED_PREFLIGHT });
      expect({ code: node.joinExitCode, output: node.joinExitCode === 0 ? '' : `${node.joinOutput.slice(-3000)}\n${node.logTail()}` }).toEqual({
        code: 0,
        output: '',
      });
      expect(node.joinOutput).toContain('This node has joined the cluster');
    } else {
      console.log(`join: the kubelet's part emulated with the bootstrap token, because ${why}`);
      const emulated = await emulateKubeletJoin(cluster, {
        token: config.discovery.bootstrapToken.token,
        nodeName: KUBELET_NODE,
        labels,
        taints: config.nodeRegistration.taints,
      });
      expect(emulated.node.status).toBe(201);
    }
    // The API server's record: the CSR came from this node's token and was approved and issued by the controllers.
    const tokenId = tokenIdOf(config);
    const csrs = (
      await api.get<
        KubeList<{
          spec: { username: string; groups: string[]; signerName: string };
          status: { conditions?: { type: string }[]; certificate?: string };
        }>
      >('/apis/certificates.k8s.io/v1/certificatesigningrequests')
    ).body.items;
    const csr = csrs.find((c) => c.spec.username === `system:bootstrap:${tokenId}`);
    expect(csr?.spec.groups).toEqual(expect.arrayContaining(['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token']));
    expect(csr?.spec.signerName).toBe('kubernetes.io/kube-apiserver-client-kubelet');
    expect(csr?.status.conditions?.map((c) => c.type)).toContain('Approved');
    expect(csr?.status.certificate).toBeTruthy();
    // The Node, registered by the node itself (NodeRestriction let it set exactly these labels).
    let registered: { metadata: { labels: Record<string, string> }; spec: { taints?: { key: string; effect: string }[] } } | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      const res = await api.get<NodeDoc>(`/api/v1/nodes/${KUBELET_NODE}`);
      if (res.status === 200) {
        registered = res.body;
        break;
      }
    }
    expect(registered).toBeDefined();
    expect(registered!.metadata.labels).toEqual(expect.objectContaining(labels));
    expect(registered!.metadata.labels).toEqual(
      expect.objectContaining({ 'metalslice.io/pool': 'team-a-highmem', 'node.kubernetes.io/instance-type': 'team-a-highmem' }),
    );
    expect(registered!.spec.taints).toEqual(expect.arrayContaining([{ key: 'metalslice.io/highmem', effect: 'NoSchedule' }]));
    await node?.stop();
    node = undefined;
  });

  describe('token lifecycle, as the API server sees the token Secrets', () => {
    it("every node's token is valid for 24h by default, one per node, matching its user data", async () => {
      const secrets = await tokenSecrets();
      expect(secrets).toHaveLength(10);
      for (const s of secrets) {
        const lifetime = Date.parse(decode(s.data.expiration)) - Date.parse(s.metadata.creationTimestamp);
        // Stamped by Terraform just before the API server creates the Secret.
        expect({ name: s.metadata.name, minutes: Math.round(lifetime / 60_000) }).toEqual({ name: s.metadata.name, minutes: 24 * 60 });
        expect(decode(s.data['usage-bootstrap-authentication'])).toBe('true');
        expect(decode(s.data['auth-extra-groups'])).toBe('system:bootstrappers:kubeadm:default-node-token');
      }
      const { config } = await joinConfigurationOf('team-a-workers-0');
      expect(secrets.map((s) => s.metadata.name)).toContain(`bootstrap-token-${tokenIdOf(config)}`);
    });

    let shortLived: { file: string; config: JoinConfiguration };
    let vmUid: string;

    it(`a token made with a ${SHORT_TTL_SECONDS}s lifetime lets the node join, then expires: the token cleaner deletes it and kubeadm refuses it`, async () => {
      // A seventh worker whose token lives 60 s; the other workers' tokens keep their stamped expiration.
      await synth({ METALSLICE_EXAMPLE_WORKERS: '7', METALSLICE_EXAMPLE_TOKEN_TTL: `${SHORT_TTL_SECONDS}s` });
      const changes = await planChanges('consumer');
      expect(changes.every((c) => c.actions === 'create' && c.address.includes(SHORT_LIVED))).toBe(true);
      await applyPlan('consumer');
      shortLived = await joinConfigurationOf(SHORT_LIVED);
      vmUid = (await cluster.client().get<KubeDoc>(`${VMS}/${SHORT_LIVED}`)).body.metadata.uid ?? '';
      const name = `bootstrap-token-${tokenIdOf(shortLived.config)}`;
      const secret = (await cluster.client().get<TokenSecret>(`${TOKENS}/${name}`)).body;
      const expiration = Date.parse(decode(secret.data.expiration));
      expect(Math.round((expiration - Date.parse(secret.metadata.creationTimestamp)) / 1000)).toBeGreaterThanOrEqual(SHORT_TTL_SECONDS - 2);

      const valid = await joinPreflight(shortLived.file);
      expect({ code: valid.code, tail: valid.code === 0 ? '' : valid.output.slice(-3000) }).toEqual({ code: 0, tail: '' });

      // The token cleaner deletes the Secret once it has expired.
      await new Promise((r) => setTimeout(r, Math.max(0, expiration - Date.now())));
      for (
        const deadline = Date.now() + 60_000;
        (await cluster.client().get(`${TOKENS}/${name}`)).status !== 404;
        await new Promise((r) => setTimeout(r, 1000))
      ) {
        if (Date.now() > deadline) throw new Error(`${name} still exists 60 s after it expired:\n${cluster.logTail(20)}`);
      }
      const expired = variant('expired-token', shortLived.config, () => undefined);
      await expectTokenRefused(expired, tokenIdOf(shortLived.config));
    });

    it('the next apply after expiry registers the token again, with a new expiration, without touching the VM', async () => {
      const changes = await planChanges('consumer');
      // Only the missing token Secret: not the VM, not its user data, not the random token itself.
      // The node's instance of its pool's token Secrets (constructs/parts/vm-nodes.ts).
      expect(changes).toEqual([{ address: expect.stringMatching(new RegExp(`_BootstrapToken_[0-9A-F]{8}\\["${SHORT_LIVED}"\\]$`)), actions: 'create' }]);
      await applyPlan('consumer');
      const name = `bootstrap-token-${tokenIdOf(shortLived.config)}`;
      const renewed = (await cluster.client().get(`${TOKENS}/${name}`)).body as TokenSecret;
      expect(Date.parse(decode(renewed.data.expiration))).toBeGreaterThan(Date.now());
      expect((await cluster.client().get<KubeDoc>(`${VMS}/${SHORT_LIVED}`)).body.metadata.uid).toBe(vmUid);
      // The user data the VM boots with is unchanged, and its token works again.
      expect((await joinConfigurationOf(SHORT_LIVED)).config).toEqual(shortLived.config);
      const preflight = await joinPreflight(shortLived.file);
      expect({ code: preflight.code, tail: preflight.code === 0 ? '' : preflight.output.slice(-3000) }).toEqual({ code: 0, tail: '' });
    });

    it('removing the node revokes its token', async () => {
      await synth();
      const changes = await planChanges('consumer');
      expect(changes.every((c) => c.actions === 'delete' && c.address.includes(SHORT_LIVED))).toBe(true);
      expect(changes.some((c) => c.address.includes('BootstrapToken'))).toBe(true);
      await applyPlan('consumer');
      const name = `bootstrap-token-${tokenIdOf(shortLived.config)}`;
      expect((await cluster.client().get(`${TOKENS}/${name}`)).status).toBe(404);
      expect((await tokenSecrets()).map((s) => s.metadata.name)).not.toContain(name);
      const preflight = await joinPreflight(variant('revoked-token', shortLived.config, () => undefined));
      expect(preflight.code).not.toBe(0);
      expect(preflight.output).toContain(`could not find a JWS signature in the cluster-info ConfigMap for token ID "${tokenIdOf(shortLived.config)}"`);
    });
  });
});
