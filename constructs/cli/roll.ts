/**
 * `metalslice roll-nodes --namespace NS --pool POOL --revision REV ...`: what a stack runs when a pool's revision
 * changes (constructs/parts/node-rollout.ts). By then Terraform has applied every VM of the pool at the new revision, and
 * KubeVirt holds each running VM's new spec staged; this replaces the running nodes, so nothing is lost on the way:
 *
 * 1. `maxSurge` surge VMs (`<pool>-<k>-surge`), made together: copies of a node still on the old revision's VM, now
 *    at the new one, each with that node's user data under its own name. It waits until each surge node is Ready in the
 *    tenant cluster.
 * 2. Nodes to replace (a VMI whose revision is not the VM's), `maxSurge + maxUnavailable` at a time, each in
 *    Cluster API's order: drained (`drain-node`: cordon, the Eviction API, no VolumeAttachment left), stopped
 *    (runStrategy Halted, as `virtctl stop`) until its VMI is gone, then its Node deleted; its root DataVolume and
 *    claim deleted (the claim too: one whose DataVolume CDI collected would otherwise be adopted again), and only
 *    once KubeVirt has made the fresh DataVolume on a new claim is it started again on the new revision
 *    (cloud-init and kubeadm join run again), and waited for until its Node is Ready.
 * 3. The surge nodes are drained, their VMs deleted, then their Nodes, then their Secrets, a batch at a time.
 *
 * The roll is the one writer of a stopped node's runStrategy: it labels the VM it stops (ROLL_STOPPED_LABEL) in the
 * same write, and the stack reads that label when it plans and applies such a VM as Halted
 * (constructs/parts/node-rollout.ts), so a deploy resumed after a roll was cut short (its state may not hold the
 * VMs it applied last) never starts a node the roll stopped.
 *
 * All state is in the clusters: the nodes to replace are found by each VMI's revision, the surge VMs by their
 * label. So a roll cut short (the workstation dies, an API server restarts) is finished by running it again, which
 * the next deploy does. Exit 0: every node runs the revision. Exit 1: a drain ran out of time, a node did not join
 * in time, or an API server refused; the message says which and what to do. Exit 2: bad options or kubeconfig.
 */
import { DEFAULT_JOIN_TIMEOUT, DEFAULT_POLL_INTERVAL_SECONDS, drainTimeoutSeconds } from '../core/input/disruption';
import { escapeText } from '../core/base/excerpt';
import {
  CLUSTER_LABEL,
  MANAGED_BY,
  POOL_LABEL,
  REPLACING_ANNOTATION,
  REVISION_ANNOTATION,
  ROLL_STOPPED_LABEL,
  SURGE_LABEL,
  surgeVmName,
  VM_NAME_LABEL,
  vmUserDataSecretName,
} from '../core/naming/derived';
import { checkCluster, DrainIo, reasonOf, removeNode } from './drain';
import { KubeApiError, KubeClient } from './kube/client';
import {
  byIndex,
  deleteSurgeSecret,
  FOREGROUND,
  inBatches,
  must,
  ok,
  patiently,
  readObject,
  RollError,
  RollOptions,
  runRoll,
  STOP_TIMEOUT_SECONDS,
  surgeUserData,
  TenantNodes,
  waitUntil,
} from './roll-common';

export type { RollOptions } from './roll-common';

const KUBEVIRT = '/apis/kubevirt.io/v1';
const CDI = '/apis/cdi.kubevirt.io/v1beta1';
/** A VirtualMachine as the roll reads and copies it. */
interface WireVm {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; uid?: string };
  spec: {
    runStrategy?: string;
    dataVolumeTemplates?: { metadata: { name: string }; spec: unknown }[];
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: { volumes?: Record<string, unknown>[] } & Record<string, unknown>;
    };
  };
  status?: { conditions?: { type?: string; status?: string }[] };
}

interface WireVmi {
  metadata?: { uid?: string; annotations?: Record<string, string>; deletionTimestamp?: string };
}

// A VM marked REPLACING_ANNOTATION `<revision>:stopping` (the VM stopped, or started again by the deploy on its old
// disk) by a roll cut short is replaced again; one marked `<revision>:started` is waited for until its node joins.

/** Whether KubeVirt holds a new spec of the VM staged until it restarts. */
function restartRequired(vm: WireVm): boolean {
  return (vm.status?.conditions ?? []).some((c) => c.type === 'RestartRequired' && c.status === 'True');
}

/** The surge copy of a VM: its own name, labels, user data Secret and DataVolumes. */
function surgeCopy(source: WireVm, name: string, pool: string, secret: string): WireVm {
  const spec = structuredClone(source.spec);
  const renamed = new Map<string, string>();
  for (const t of spec.dataVolumeTemplates ?? []) {
    const next = t.metadata.name.startsWith(`${source.metadata.name}-`)
      ? `${name}${t.metadata.name.slice(source.metadata.name.length)}`
      : `${name}-${t.metadata.name}`;
    renamed.set(t.metadata.name, next);
    t.metadata.name = next;
  }
  spec.template.spec.volumes = (spec.template.spec.volumes ?? []).map((v) => {
    const dv = v.dataVolume as { name?: string } | undefined;
    if (dv?.name !== undefined && renamed.has(dv.name)) return { ...v, dataVolume: { ...dv, name: renamed.get(dv.name) } };
    if (v.cloudInitNoCloud !== undefined) return { ...v, cloudInitNoCloud: { secretRef: { name: secret } } };
    return v;
  });
  spec.template.metadata = { ...spec.template.metadata, labels: { ...spec.template.metadata?.labels, [VM_NAME_LABEL]: name } };
  spec.runStrategy = 'Always';
  return {
    metadata: { name, namespace: source.metadata.namespace, labels: { ...source.metadata.labels, [SURGE_LABEL]: pool } },
    spec,
  };
}

/** The user data Secret a VM boots with. */
function userDataSecretOf(vm: WireVm): string | undefined {
  for (const v of vm.spec.template.spec.volumes ?? []) {
    const ref = (v.cloudInitNoCloud as { secretRef?: { name?: string } } | undefined)?.secretRef?.name;
    if (typeof ref === 'string') return ref;
  }
  return undefined;
}

/** One roll: the clients, the options, and what it says. */
class Roll {
  private readonly vms: string;
  private readonly vmis: string;
  /** The mark of a VM the roll has started on the revision (REPLACING_ANNOTATION). */
  private readonly started: string;
  private readonly interval: number;
  private readonly joinSeconds: number;
  /** The pool's Nodes in the tenant cluster: drained, waited for. */
  private readonly nodes: TenantNodes;

  constructor(
    private readonly provider: KubeClient,
    private readonly tenant: KubeClient,
    private readonly opts: RollOptions,
    private readonly io: DrainIo,
  ) {
    this.vms = `${KUBEVIRT}/namespaces/${encodeURIComponent(opts.namespace)}/virtualmachines`;
    this.vmis = `${KUBEVIRT}/namespaces/${encodeURIComponent(opts.namespace)}/virtualmachineinstances`;
    this.started = `${opts.revision}:started`;
    // The options were checked (optionsProblem): both timeouts are durations.
    this.interval = opts.interval ?? DEFAULT_POLL_INTERVAL_SECONDS;
    this.joinSeconds = drainTimeoutSeconds(opts.joinTimeout ?? DEFAULT_JOIN_TIMEOUT)!;
    this.nodes = new TenantNodes(tenant, opts, io);
  }

  private say(text: string): void {
    this.io.stdout(`roll-nodes: ${text}\n`);
  }

  private async vmi(name: string): Promise<WireVmi | undefined> {
    return readObject<WireVmi>(this.provider, `${this.vmis}/${encodeURIComponent(name)}`, `VirtualMachineInstance ${name}`);
  }

  /**
   * Whether the node runs the revision. Not when a replacement of it was cut short (it is marked, or stopped); yes
   * when it has no VMI yet (a new VM starts on its template). A VMI from before revisions were written runs the
   * revision unless KubeVirt staged a change for it, and is stamped so (a later revision then replaces it).
   */
  private async current(vm: WireVm): Promise<boolean> {
    const mark = vm.metadata.annotations?.[REPLACING_ANNOTATION];
    if ((mark !== undefined && mark !== this.started) || vm.spec.runStrategy === 'Halted') return false;
    const vmi = await this.vmi(vm.metadata.name);
    if (vmi === undefined || vmi.metadata?.deletionTimestamp !== undefined) return true;
    const running = vmi.metadata?.annotations?.[REVISION_ANNOTATION];
    if (running !== undefined) return running === this.opts.revision;
    if (restartRequired(vm)) return false;
    const stamp = { metadata: { annotations: { [REVISION_ANNOTATION]: this.opts.revision } } };
    const res = await this.provider.send('PATCH', `${this.vmis}/${encodeURIComponent(vm.metadata.name)}`, stamp, 'application/merge-patch+json');
    if (!ok(res)) this.say(`could not mark VMI ${vm.metadata.name} with revision ${this.opts.revision} (HTTP ${res.status}, ${reasonOf(res)})`);
    return true;
  }

  /** A running VMI of the revision, made from the VM's template (not the one of `oldUid`). */
  private async waitRevision(name: string, oldUid: string | undefined): Promise<void> {
    await waitUntil(`VirtualMachineInstance ${name} at revision ${this.opts.revision}`, this.joinSeconds, this.interval, async () => {
      const vmi = await this.vmi(name);
      return vmi !== undefined && vmi.metadata?.uid !== oldUid && vmi.metadata?.annotations?.[REVISION_ANNOTATION] === this.opts.revision;
    });
  }

  /**
   * Stops the VM, deletes its Node once the VMI is gone, gives it a fresh root disk, starts it on the revision its
   * template now holds once that disk exists, and waits for it to join.
   */
  private async restart(vm: WireVm): Promise<void> {
    const name = vm.metadata.name;
    const vmPath = `${this.vms}/${encodeURIComponent(name)}`;
    const before = await this.vmi(name);
    // What the fresh disk needs is readable before the node stops (a 403 on claims stops the roll here, the node serving).
    for (const t of vm.spec.dataVolumeTemplates ?? [])
      await readObject(this.provider, this.claimPath(t.metadata.name), `PersistentVolumeClaim ${t.metadata.name}`, 'get and delete');
    // Labelled in the same write: a deploy that plans while the roll is cut short applies it as Halted too.
    await must(this.provider, 'PATCH', vmPath, `stop VM ${name}`, { metadata: { labels: { [ROLL_STOPPED_LABEL]: 'true' } }, spec: { runStrategy: 'Halted' } });
    await waitUntil(`VirtualMachineInstance ${name} gone`, STOP_TIMEOUT_SECONDS, this.interval, async () => (await this.vmi(name)) === undefined);
    // The machine is gone: its Node goes now, never before (a guest never runs on without its Node).
    await removeNode(this.tenant, name, this.io);
    for (const t of vm.spec.dataVolumeTemplates ?? []) await this.freshDisk(t.metadata.name);
    await must(this.provider, 'PATCH', vmPath, `start VM ${name}`, {
      metadata: { labels: { [ROLL_STOPPED_LABEL]: null }, annotations: { [REPLACING_ANNOTATION]: this.started } },
      spec: { runStrategy: 'Always' },
    });
    await this.waitRevision(name, before?.metadata?.uid);
    await this.nodes.joined(name);
    this.say(`${name} replaced: revision ${this.opts.revision}, Ready`);
  }

  /** Where a root disk's claim is: the claim of DataVolume `name`, of that name. */
  private claimPath(name: string): string {
    return `/api/v1/namespaces/${encodeURIComponent(this.opts.namespace)}/persistentvolumeclaims/${encodeURIComponent(name)}`;
  }

  /**
   * Deletes the root DataVolume `name` of a stopped VM and its claim, and waits until KubeVirt has made the
   * DataVolume again from the VM's template (it does for a halted VM) and the old claim is gone. The claim is
   * deleted by name too: CDI may have collected a DataVolume that finished (its claim stays, no longer its
   * dependent), and a new DataVolume adopts a claim of its name, so the node would boot its old disk.
   */
  private async freshDisk(name: string): Promise<void> {
    const dvPath = `${CDI}/namespaces/${encodeURIComponent(this.opts.namespace)}/datavolumes/${encodeURIComponent(name)}`;
    const claimPath = this.claimPath(name);
    /** The DataVolume (`dv`) or the claim: its uid and the uids of its owners. */
    const read = async (dv: boolean): Promise<{ uid?: string; owners: string[] } | undefined> => {
      type Meta = { metadata?: { uid?: string; ownerReferences?: { uid?: string }[] } };
      const found = await readObject<Meta>(this.provider, dv ? dvPath : claimPath, `${dv ? 'DataVolume' : 'PersistentVolumeClaim'} ${name}`);
      return found && { uid: found.metadata?.uid, owners: (found.metadata?.ownerReferences ?? []).map((o) => o.uid ?? '') };
    };
    const [oldDv, oldClaim] = [await read(true), await read(false)];
    // A claim its DataVolume does not own (CDI collected the DataVolume, and the one made again adopted it) goes
    // first, and is waited for: once the DataVolume is gone KubeVirt makes it again, which would adopt it again.
    if (oldClaim !== undefined && (oldDv === undefined || !oldClaim.owners.includes(oldDv.uid ?? ''))) {
      await must(this.provider, 'DELETE', claimPath, `delete PersistentVolumeClaim ${name} (the old root disk)`);
      await waitUntil(
        `PersistentVolumeClaim ${name} (the old root disk) deleted`,
        STOP_TIMEOUT_SECONDS,
        this.interval,
        async () => (await read(false))?.uid !== oldClaim.uid,
      );
    }
    // In the foreground: the DataVolume goes only once its claim has gone (its protection lets it go once no pod mounts it).
    if (oldDv !== undefined) await must(this.provider, 'DELETE', dvPath, `delete DataVolume ${name} (the old root disk)`, FOREGROUND);
    await waitUntil(`the old root disk ${name} deleted and made again`, STOP_TIMEOUT_SECONDS, this.interval, async () => {
      const [dv, claim] = [await read(true), await read(false)];
      // KubeVirt makes the new DataVolume for the halted VM once the old one is gone; its claim is CDI's to make.
      return dv !== undefined && dv.uid !== oldDv?.uid && (claim === undefined || claim.uid !== oldClaim?.uid);
    });
  }

  private async replace(vm: WireVm): Promise<void> {
    const vmPath = `${this.vms}/${encodeURIComponent(vm.metadata.name)}`;
    this.say(`replacing ${vm.metadata.name}`);
    await must(this.provider, 'PATCH', vmPath, `mark VM ${vm.metadata.name} as being replaced`, {
      metadata: { annotations: { [REPLACING_ANNOTATION]: `${this.opts.revision}:stopping` } },
    });
    await this.nodes.drain(vm.metadata.name, 'it');
    await this.restart(vm);
    await this.unmark(vm.metadata.name);
  }

  private async unmark(name: string): Promise<void> {
    await must(this.provider, 'PATCH', `${this.vms}/${encodeURIComponent(name)}`, `unmark VM ${name}`, {
      metadata: { annotations: { [REPLACING_ANNOTATION]: null } },
    });
  }

  /** Makes (or keeps, when an earlier run made it at this revision) surge VM `name`, copied from `source`. */
  private async surge(name: string, source: WireVm, existing: WireVm | undefined): Promise<void> {
    if (existing?.spec.template.metadata?.annotations?.[REVISION_ANNOTATION] === this.opts.revision) {
      this.say(`surge ${name} is there from an earlier run`);
      await this.nodes.joined(name);
      return;
    }
    if (existing) await this.removeSurge(existing);
    const from = userDataSecretOf(source);
    if (from === undefined) throw new RollError(`VM ${source.metadata.name} boots with no cloud-init Secret to copy`);
    const secrets = `/api/v1/namespaces/${encodeURIComponent(this.opts.namespace)}/secrets`;
    const read = await this.provider.get(`${secrets}/${encodeURIComponent(from)}`);
    if (!ok(read)) throw new KubeApiError(`cannot read Secret ${from}: HTTP ${read.status}, ${reasonOf(read)}`, read.status);
    const userData = surgeUserData((read.body as { data?: Record<string, string> }).data?.userdata, from, 'userdata', name);
    const secret = vmUserDataSecretName(name);
    await this.deleteSurgeSecret(secret);
    await must(this.provider, 'POST', secrets, `create Secret ${secret}`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secret, namespace: this.opts.namespace, labels: { ...MANAGED_BY, [POOL_LABEL]: this.opts.pool, [SURGE_LABEL]: this.opts.pool } },
      type: 'Opaque',
      data: { userdata: userData },
    });
    await must(this.provider, 'POST', this.vms, `create surge VM ${name} (its quota must hold one more VM: the plan's rollout says whether it does)`, {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      ...surgeCopy(source, name, this.opts.pool, secret),
    });
    this.say(`surge ${name} created (a copy of ${source.metadata.name} at revision ${this.opts.revision})`);
    await this.nodes.joined(name);
    this.say(`surge ${name} Ready`);
  }

  private async removeSurge(vm: WireVm): Promise<void> {
    const name = vm.metadata.name;
    await this.nodes.drain(name, 'it');
    // In the foreground: the VM goes only once its VMI (and root disk) has.
    await must(this.provider, 'DELETE', `${this.vms}/${encodeURIComponent(name)}`, `delete surge VM ${name}`, FOREGROUND);
    await waitUntil(
      `surge VM ${name} deleted`,
      STOP_TIMEOUT_SECONDS,
      this.interval,
      async () => (await this.provider.get(`${this.vms}/${encodeURIComponent(name)}`)).status === 404,
    );
    await removeNode(this.tenant, name, this.io);
    const secret = userDataSecretOf(vm);
    if (secret !== undefined) await this.deleteSurgeSecret(secret);
    this.say(`surge ${name} drained and deleted`);
  }

  /** Deletes a surge's user data Secret (Secrets the roll did not make stop it). */
  private async deleteSurgeSecret(name: string): Promise<void> {
    const at = `/api/v1/namespaces/${encodeURIComponent(this.opts.namespace)}/secrets/${encodeURIComponent(name)}`;
    await deleteSurgeSecret(this.provider, at, name, this.opts.pool);
  }

  async run(): Promise<void> {
    const all = await patiently(`a read of pool ${this.opts.pool}'s VMs`, this.interval, () =>
      this.provider.list<WireVm>(this.vms, { labelSelector: `${POOL_LABEL}=${this.opts.pool},${CLUSTER_LABEL}=${this.opts.cluster}` }),
    );
    const surges = all.filter((vm) => vm.metadata.labels?.[SURGE_LABEL] === this.opts.pool);
    const declared = this.opts.nodes === undefined ? undefined : new Set(this.opts.nodes);
    const members = all
      .filter((vm) => vm.metadata.labels?.[SURGE_LABEL] === undefined && (declared === undefined || declared.has(vm.metadata.name)))
      .sort(byIndex);
    const behind = members.filter((vm) => vm.spec.template.metadata?.annotations?.[REVISION_ANNOTATION] !== this.opts.revision);
    if (behind.length > 0)
      throw new RollError(
        `VM ${behind[0].metadata.name} is at revision ${escapeText(behind[0].spec.template.metadata?.annotations?.[REVISION_ANNOTATION] ?? 'none')}, not ${this.opts.revision}: the deploy applies every VM of the pool before it rolls; deploy again`,
      );
    const stale: WireVm[] = [];
    for (const vm of members) if (!(await patiently(`a read of VM ${vm.metadata.name}'s instance`, this.interval, () => this.current(vm)))) stale.push(vm);
    // Started on the revision by a roll cut short before their Node joined: waited for below, then unmarked.
    const joining = members.filter((vm) => !stale.includes(vm) && vm.metadata.annotations?.[REPLACING_ANNOTATION] === this.started);
    // A surge's user data Secret outlives its VM and its Node (removeSurge): one whose VM is gone is a surge whose
    // end was cut short, its Node perhaps still there (cordoned, its guest gone).
    const secrets = `/api/v1/namespaces/${encodeURIComponent(this.opts.namespace)}/secrets`;
    const surgeSecrets = await patiently(`a read of pool ${this.opts.pool}'s surge Secrets`, this.interval, () =>
      this.provider.list<{ metadata: { name: string } }>(secrets, { labelSelector: `${SURGE_LABEL}=${this.opts.pool}` }),
    );
    const ended = surgeSecrets
      .map((s) => s.metadata.name)
      .filter((secret) => secret.endsWith(vmUserDataSecretName('')) && !surges.some((vm) => userDataSecretOf(vm) === secret));
    if (stale.length === 0 && surges.length === 0 && joining.length === 0 && ended.length === 0) {
      this.say(`pool ${this.opts.pool}: all ${members.length} node(s) run revision ${this.opts.revision}`);
      return;
    }
    // Only a roll with work to do reads the tenant cluster: first, that the kubeconfig reaches the one the nodes joined.
    await checkCluster(this.tenant, this.opts.clusterCaHash);
    // The nodes already on the revision (an earlier run replaced them) must have joined before another goes: a node
    // that cannot join on the new revision must not take the pool down one node per deploy.
    for (const vm of members.filter((m) => !stale.includes(m))) {
      const vmi = await this.vmi(vm.metadata.name);
      if (vmi?.metadata?.annotations?.[REVISION_ANNOTATION] === this.opts.revision) await this.nodes.joined(vm.metadata.name);
    }
    for (const vm of joining) await this.unmark(vm.metadata.name);
    for (const secret of ended) {
      const name = secret.slice(0, -vmUserDataSecretName('').length);
      await removeNode(this.tenant, name, this.io);
      await this.deleteSurgeSecret(secret);
      this.say(`surge ${name}: its end, cut short, finished (Node and Secret deleted)`);
    }
    const surgeCount = Math.min(this.opts.maxSurge, stale.length);
    this.say(
      `pool ${this.opts.pool}: ${stale.length} of ${members.length} node(s) to replace (${stale.map((v) => v.metadata.name).join(', ') || 'none'}), surge ${surgeCount}, ${surgeCount + this.opts.maxUnavailable} at a time`,
    );
    const surgeNames = Array.from({ length: surgeCount }, (_, k) => surgeVmName(this.opts.pool, k));
    for (const vm of surges.filter((s) => !surgeNames.includes(s.metadata.name))) await this.removeSurge(vm);
    // Surge k copies the pool's node k (at the revision now), pin and all: the VM whose host the plan proved has room.
    // The surge VMs are made, and waited for, together: one batch of boots, not maxSurge boots one after another.
    await inBatches([...surgeNames.keys()], Math.max(1, surgeCount), (k) =>
      this.surge(
        surgeNames[k],
        members[k % members.length],
        surges.find((s) => s.metadata.name === surgeNames[k]),
      ),
    );
    const batch = Math.max(1, surgeCount + this.opts.maxUnavailable);
    await inBatches(stale, batch, (vm) => this.replace(vm));
    // And ended together, a batch as the replacements were.
    const made =
      surgeNames.length === 0
        ? []
        : await this.provider.list<WireVm>(this.vms, { labelSelector: `${SURGE_LABEL}=${this.opts.pool},${CLUSTER_LABEL}=${this.opts.cluster}` });
    await inBatches(
      made.filter((s) => surgeNames.includes(s.metadata.name)),
      batch,
      (vm) => this.removeSurge(vm),
    );
    this.say(`pool ${this.opts.pool}: all ${members.length} node(s) run revision ${this.opts.revision}`);
  }
}

/** The command: checks the options, finds both clusters, rolls. */
export function runRollNodes(opts: RollOptions, io: DrainIo): Promise<number> {
  return runRoll('roll-nodes', 'nodes', opts, io, undefined, (provider, tenant) => new Roll(provider, tenant, opts, io));
}
