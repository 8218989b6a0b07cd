// A node's first boot, proven in a real VM: the preinstalled node image (scripts/node-image.sh) boots under
// QEMU (software emulation, offline) with a NoCloud seed holding the node's user data as metalslice renders it
// for a cluster whose bootstrap is preinstalled (kubelet, kubeadm and containerd pinned), and its own cloud-init,
// containerd, kubelet and kubeadm join the e2e control plane through a single port forward. Everything is judged
// by what the API server recorded (its audit log and its objects): the kubelet's CSR made with the bootstrap
// token, the Node it registered with the pool's labels and taints, Ready; a pod run on it; and on the ACPI
// power button (as KubeVirt stops a VM) the kubelet's graceful node shutdown ending that pod within its grace
// period. Boots whose pins the image does not meet (another Kubernetes patch release, another containerd) stop
// before the join, say why on the console, and no Node registers.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { renderBootstrapTokenSecret } from '../../constructs/render/secrets';
import type { KubeClient, TestCluster } from '../e2e/harness';
import { startCluster } from '../e2e/harness';
import { AuditEvent, joinedAndReady, NodeStatusDoc, poll, randomToken, readAudit } from './api';
import { bootVm, buildNodeImage, GUEST_API_SERVER, lastLines, NodeImage, Vm } from './qemu';
import { preinstalledJoinCloudConfig } from './user-data';

jest.setTimeout(3_600_000);

const KUBERNETES = '1.34.4';
const NODE = 'team-a-boot-0';
const REFUSED_NODE = 'team-a-boot-1';
const LABELS = { 'metalslice.io/pool': 'boot', 'metalslice.io/tenant': 'team-a', 'example.com/tier': 'gold' } as const;
const TAINTS = [{ key: 'metalslice.io/dedicated', value: 'boot', effect: 'NoSchedule' as const }];
const POD = 'workload';
const GRACE_SECONDS = 30;
// The workload takes this long to stop after SIGTERM: longer than logind lets a shutdown wait by default (5 s),
// so the pod ends well only if the kubelet raised logind's InhibitDelayMaxSec and held the shutdown.
const STOP_DELAY_SECONDS = 10;
// TCG emulates every instruction: a boot to a Ready node takes minutes, not seconds.
const BOOT_TIMEOUT_MS = 20 * 60_000;

interface PodStatusDoc {
  status: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];
    containerStatuses?: {
      name: string;
      state: {
        running?: { startedAt: string };
        terminated?: { exitCode: number; reason?: string; message?: string; startedAt?: string; finishedAt?: string };
      };
    }[];
  };
}

describe('boot: a node joins on its first boot and stops gracefully on the power button', () => {
  let image: NodeImage;
  let cluster: TestCluster;
  let api: KubeClient;
  let work: string;
  const vms: Vm[] = [];
  const timings: Record<string, number> = {};
  const suiteStart = Date.now();

  const audit = (): AuditEvent[] => readAudit(cluster.auditLog!);

  async function createToken(description: string): Promise<string> {
    const t = randomToken();
    const expiration = new Date(Date.now() + 2 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const secret = renderBootstrapTokenSecret({ tokenId: t.id, tokenSecret: t.secret, expiration, description });
    const created = await api.create('/api/v1/namespaces/kube-system/secrets', secret);
    expect(created.status).toBe(201);
    return `${t.id}.${t.secret}`;
  }

  function userData(nodeName: string, token: string, pins: { kubernetes: string; containerd?: string }): string {
    const doc = preinstalledJoinCloudConfig({
      nodeName,
      endpoint: `https://${GUEST_API_SERVER.host}:${GUEST_API_SERVER.port}`,
      caCertificate: fs.readFileSync(cluster.caFile, 'utf8'),
      token,
      ...pins,
      labels: LABELS,
      taints: TAINTS,
    });
    // cloud-init's own schema check, as the guest's cloud-init will read it.
    const file = path.join(work, `${nodeName}.user-data`);
    fs.writeFileSync(file, doc);
    execFileSync('cloud-init', ['schema', '--config-file', file], { stdio: 'pipe' });
    return doc;
  }

  const apiPort = (): number => Number(new URL(cluster.server).port);

  beforeAll(async () => {
    const t0 = Date.now();
    image = await buildNodeImage();
    timings.imageMs = Date.now() - t0;
    expect(image.kubeletVersion).toBe(`v${KUBERNETES}`);
    // METALSLICE_BOOT_DIR keeps the VMs' consoles, seeds and disks after the run (the run's temp dir is removed).
    const keep = process.env.METALSLICE_BOOT_DIR;
    if (keep) fs.mkdirSync(keep, { recursive: true });
    work = fs.mkdtempSync(path.join(keep ?? os.tmpdir(), 'metalslice-boot-'));
    cluster = await startCluster({
      crdDir: null,
      joinable: true,
      audit: {
        requestBodies: [
          { group: '', resources: ['pods/status', 'nodes/status'] },
          { group: 'certificates.k8s.io', resources: ['certificatesigningrequests'] },
        ],
      },
      extraServingSans: [`IP:${GUEST_API_SERVER.host}`],
      clusterInfoServer: `https://${GUEST_API_SERVER.host}:${GUEST_API_SERVER.port}`,
      kubeletCgroupDriver: 'systemd',
    });
    api = cluster.client();
  });

  afterAll(async () => {
    for (const vm of vms) await vm.kill();
    if (process.env.METALSLICE_BOOT_DIR && cluster?.auditLog && work) fs.copyFileSync(cluster.auditLog, path.join(work, 'audit.log'));
    await cluster?.stop();
    timings.suiteMs = Date.now() - suiteStart;
    console.log(`boot timings (ms): ${JSON.stringify(timings)}`);
    if (work && !process.env.METALSLICE_BOOT_DIR) fs.rmSync(work, { recursive: true, force: true });
  });

  it('joins with the bootstrap token, registers the Node with its pool labels and taints, Ready, runs a pod, and ends it gracefully on the power button', async () => {
    const token = await createToken('first-boot test node');
    const tokenId = token.split('.')[0];
    const vm = await bootVm({
      image,
      userData: userData(NODE, token, { kubernetes: KUBERNETES, containerd: image.containerdVersion }),
      hostname: NODE,
      apiServerPort: apiPort(),
      dir: path.join(work, NODE),
    });
    vms.push(vm);
    const consoleTail = (): string => `console (${vm.consoleLog}):\n${lastLines(vm.console(), 60)}`;

    // The join, as the console tells it; then as the API server recorded it.
    const { node, joinedMs, readyMs } = await joinedAndReady(vm, api, NODE, { joinMs: BOOT_TIMEOUT_MS, readyMs: 10 * 60_000 }, consoleTail);
    timings.bootToJoinedMs = joinedMs;
    timings.bootToNodeReadyMs = readyMs;
    const final = await vm.waitForConsole(/Cloud-init v\. \S+ finished at/, 10 * 60_000);
    timings.bootToCloudInitFinalMs = final.afterMs;
    expect(node.status.nodeInfo.kubeletVersion).toBe(`v${KUBERNETES}`);
    expect(node.status.nodeInfo.containerRuntimeVersion).toMatch(/^containerd:\/\/1\./);
    expect(node.status.nodeInfo.kernelVersion).toBe(image.kernelVersion);
    // The guest's address on QEMU's user network, where its kubelet serves.
    expect(node.status.addresses).toEqual(expect.arrayContaining([{ type: 'InternalIP', address: '10.0.2.15' }]));
    expect(node.metadata.labels).toMatchObject(LABELS);
    expect(node.spec.taints).toEqual(expect.arrayContaining(TAINTS.map((t) => expect.objectContaining(t))));

    const events = audit();
    const csrCreates = events.filter(
      (e) => e.verb === 'create' && e.objectRef?.resource === 'certificatesigningrequests' && e.user.username === `system:bootstrap:${tokenId}`,
    );
    expect(csrCreates.map((e) => e.responseStatus?.code)).toContain(201);
    expect(csrCreates[0].user.groups).toContain('system:bootstrappers:kubeadm:default-node-token');
    const nodeCreates = events.filter((e) => e.verb === 'create' && e.objectRef?.resource === 'nodes' && e.objectRef.subresource === undefined);
    expect(nodeCreates.map((e) => ({ user: e.user.username, name: e.objectRef?.name, code: e.responseStatus?.code }))).toEqual([
      { user: `system:node:${NODE}`, name: NODE, code: 201 },
    ]);

    // A pod bound to the node, from the image's own workload image (nothing is pulled).
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: POD, namespace: 'default' },
      spec: {
        nodeName: NODE,
        terminationGracePeriodSeconds: GRACE_SECONDS,
        automountServiceAccountToken: false,
        tolerations: TAINTS.map((t) => ({ key: t.key, operator: 'Equal', value: t.value, effect: t.effect })),
        containers: [
          {
            name: 'workload',
            image: image.workloadImage,
            imagePullPolicy: 'Never',
            env: [{ name: 'STOP_DELAY_SECONDS', value: String(STOP_DELAY_SECONDS) }],
          },
        ],
      },
    };
    expect((await api.create('/api/v1/namespaces/default/pods', pod)).status).toBe(201);
    const podPath = `/api/v1/namespaces/default/pods/${POD}`;
    await poll(
      `pod ${POD} Running`,
      10 * 60_000,
      async () => {
        const r = await api.get<PodStatusDoc>(podPath);
        return r.body.status.phase === 'Running' && r.body.status.containerStatuses?.[0]?.state.running ? r.body : undefined;
      },
      consoleTail,
    );
    timings.bootToPodRunningMs = Date.now() - vm.startedAt;

    // The power button, as KubeVirt presses it to stop a VM; the guest shuts down and QEMU exits.
    const pressedAt = Date.now();
    await vm.powerdown();
    const code = await vm.waitForExit(10 * 60_000);
    timings.powerButtonToPowerOffMs = Date.now() - pressedAt;
    expect(code).toBe(0);

    // The pod ended by the kubelet's graceful node shutdown: SIGTERM (the workload's termination message says
    // it got it), exit 0 within its grace period. As kubelet v1.34 records it: a pod whose containers all exit 0
    // stays Succeeded (the shutdown only turns a pod that is not Failed), and the shutdown's reason is the
    // DisruptionTarget condition (the pod-level reason and message are not in the status it writes then).
    const ended = (await api.get<PodStatusDoc>(podPath)).body.status;
    expect(ended.phase).toBe('Succeeded');
    expect(ended.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'TerminationByKubelet',
          message: 'Pod was terminated in response to imminent node shutdown.',
        }),
      ]),
    );
    const terminated = ended.containerStatuses?.[0]?.state.terminated;
    expect(terminated).toMatchObject({ exitCode: 0, reason: 'Completed', message: 'received SIGTERM\n' });
    const finishedAt = Date.parse(terminated!.finishedAt!);
    // Timestamps are whole seconds, the guest's clock against this machine's.
    expect(finishedAt - pressedAt).toBeGreaterThanOrEqual((STOP_DELAY_SECONDS - 1) * 1000);
    expect(finishedAt - pressedAt).toBeLessThan((GRACE_SECONDS + 2) * 1000);
    timings.powerButtonToContainerExitMs = finishedAt - pressedAt;

    const after = audit();
    const podStatusWrites = after.filter((e) => e.objectRef?.resource === 'pods' && e.objectRef.subresource === 'status' && e.objectRef.name === POD);
    const finalWrite = podStatusWrites.filter((e) => JSON.stringify(e.requestObject ?? {}).includes('imminent node shutdown'));
    expect(finalWrite.length).toBeGreaterThan(0);
    expect(finalWrite.map((e) => [e.user.username, e.responseStatus?.code])).toContainEqual([`system:node:${NODE}`, 200]);

    // The Node says it is shutting down: Ready false with the kubelet's shutdown message, and the Shutdown event.
    const down = (await api.get<NodeStatusDoc>(`/api/v1/nodes/${NODE}`)).body;
    const ready = down.status.conditions.find((c) => c.type === 'Ready');
    expect({ status: ready?.status, message: ready?.message }).toEqual({ status: 'False', message: expect.stringMatching(/node is shutting down/) });
    const nodeStatusWrites = after.filter(
      (e) =>
        e.objectRef?.resource === 'nodes' && e.objectRef.subresource === 'status' && JSON.stringify(e.requestObject ?? {}).includes('node is shutting down'),
    );
    expect(nodeStatusWrites.map((e) => e.user.username)).toContain(`system:node:${NODE}`);
    const nodeEvents = (
      await api.get<{ items: { reason: string; message: string; involvedObject: { kind: string; name: string } }[] }>(
        `/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3D${NODE}`,
      )
    ).body.items;
    expect(nodeEvents.map((e) => [e.reason, e.message])).toContainEqual(['Shutdown', 'Shutdown manager detected shutdown event']);
    timings.testCaseMs = Date.now() - vm.startedAt;
  });

  it.each([
    {
      what: 'Kubernetes',
      // The image carries v1.34.4; this node's user data pins another patch release.
      pins: () => ({ kubernetes: '1.34.3' }),
      says: () => `metalslice: kubelet is Kubernetes v${KUBERNETES}, the cluster pins v1.34.3; this node does not join`,
    },
    {
      what: 'containerd',
      pins: () => ({ kubernetes: KUBERNETES, containerd: '1.7.24' }),
      says: () => `metalslice: containerd is containerd github.com/containerd/containerd ${image.containerdVersion} `,
    },
  ])('refuses to join an image whose $what version is not the pinned one: says so on the console, no Node registers', async ({ what, pins, says }) => {
    const token = await createToken(`first-boot test node, wrong ${what}`);
    const tokenId = token.split('.')[0];
    const name = `${REFUSED_NODE}-${what.toLowerCase()}`;
    const vm = await bootVm({ image, userData: userData(name, token, pins()), hostname: name, apiServerPort: apiPort(), dir: path.join(work, name) });
    vms.push(vm);
    const refused = await vm.waitForConsole(/metalslice: [^\n]*/, BOOT_TIMEOUT_MS);
    expect(refused.match[0]).toContain(says());
    expect(refused.match[0]).toContain('this node does not join');
    await vm.waitForConsole(/Cloud-init v\. \S+ finished at/, 10 * 60_000);
    timings[`refused${what}BootToCloudInitFinalMs`] = Date.now() - vm.startedAt;
    expect(vm.console()).not.toMatch(/This node has joined the cluster|\[preflight\]/);
    await vm.powerdown();
    await vm.waitForExit(5 * 60_000);

    expect((await api.get(`/api/v1/nodes/${name}`)).status).toBe(404);
    const byToken = audit().filter((e) => e.user.username === `system:bootstrap:${tokenId}`);
    expect(byToken).toEqual([]);
  });
});
