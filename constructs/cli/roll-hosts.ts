/**
 * `metalslice roll-hosts --namespace NS --pool POOL --revision REV --claim JSON ...`: what a stack runs when a private
 * (Metal3) pool's revision changes (constructs/parts/node-rollout.ts). A bare-metal node takes its image and user
 * data once, when Metal3 provisions its host, so a new revision means a new machine: the claim is released (Metal3
 * deprovisions and cleans the host) and claimed again at the revision.
 *
 * The stack leaves every claim not at the pool's revision as it is (it applies such a claim as it reads it), so this
 * is the one writer of a claim's revision: nothing reprovisions a host the roll has not drained.
 *
 * 1. `maxSurge` surge claims (`<cluster>-<pool>-<k>-surge`) first, on free matching hosts the plan proved, each
 *    with a copy of a node's user data under its own name; each waited for until its Node is Ready.
 * 2. Each claim not at the revision, `maxSurge + maxUnavailable` at a time, in Cluster API's order: marked,
 *    drained (`drain-node`: cordon, the Eviction API, no VolumeAttachment left), its user data Secret labelled
 *    ROLL_STOPPED_LABEL, the claim deleted and waited for until Metal3 has released the host, the Node deleted,
 *    the Secret's label removed, the claim made again at the revision, and its Node waited for until Ready.
 * 3. The surge claims are drained, deleted, then their Nodes, then their Secrets.
 *
 * A roll cut short between the claim's delete and its new claim leaves the Secret labelled: the next deploy makes
 * the claim again powered off (it reads the label when it plans), and this roll removes the old Node before it powers
 * the claim on. Exit codes as roll-nodes: 0 done, 1 a drain, release or join ran out of time or an API server
 * refused, 2 bad options or kubeconfig.
 */
import { DEFAULT_POLL_INTERVAL_SECONDS, drainTimeoutSeconds, DEFAULT_JOIN_TIMEOUT } from '../core/input/disruption';
import {
  CLUSTER_LABEL,
  hostClaimUserDataSecretName,
  MANAGED_BY,
  POOL_LABEL,
  REPLACING_ANNOTATION,
  REVISION_LABEL,
  ROLL_STOPPED_LABEL,
  SURGE_LABEL,
  surgeVmName,
} from '../core/naming/derived';
import { escapeText } from '../core/base/excerpt';
import { isRecord } from '../core/base/records';
import { METAL3_API_VERSION, USER_DATA_KEY } from '../render/metal3';
import { checkCluster, DrainIo, removeNode } from './drain';
import { KubeClient } from './kube/client';
import {
  byIndex,
  deleteSurgeSecret,
  FOREGROUND,
  must,
  patiently,
  readObject,
  RollError,
  RollOptions,
  runRoll,
  surgeUserData,
  TenantNodes,
  waitUntil,
} from './roll-common';

/** What `roll-hosts` takes: roll-nodes' options and the pool's claim at the revision. */
export interface HostRollOptions extends RollOptions {
  /**
   * The pool's HostClaim at the revision as the stack renders it, less what is a node's own (JSON): `labels` and
   * `spec` (`hostSelector`, `image`, `poweredOn`). The roll adds each node's name, user data Secret and failure domain.
   */
  readonly claim: string;
}

/** The pool-level part of a claim, as the stack passes it. */
interface ClaimTemplate {
  readonly labels: Record<string, string>;
  readonly spec: Record<string, unknown> & { image: { url: string }; poweredOn?: boolean };
}

/** A HostClaim as the roll reads it. */
interface WireClaim {
  metadata: { name: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { image?: { url?: string }; failureDomain?: string; poweredOn?: boolean; userData?: { name?: string } };
}

interface WireSecret {
  metadata?: { labels?: Record<string, string> };
  data?: Record<string, string>;
}

/** The claim template, or what is wrong with it. */
export function parseClaimTemplate(text: string): ClaimTemplate | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  if (!isRecord(value) || !isRecord(value.labels) || !isRecord(value.spec)) return 'must be an object with labels and spec';
  if (!Object.values(value.labels).every((v) => typeof v === 'string')) return 'labels must be strings';
  const image = value.spec.image;
  if (!isRecord(image) || typeof image.url !== 'string' || image.url === '') return 'spec.image.url must be a URL';
  if (value.spec.poweredOn !== undefined && typeof value.spec.poweredOn !== 'boolean') return 'spec.poweredOn must be true or false';
  for (const key of ['userData', 'failureDomain', 'consumerRef']) if (key in value.spec) return `spec.${key} is a node's own: leave it out`;
  return value as unknown as ClaimTemplate;
}

class HostRoll {
  private readonly claims: string;
  private readonly secrets: string;
  private readonly started: string;
  private readonly interval: number;
  private readonly joinSeconds: number;
  /** The pool's Nodes in the tenant cluster: drained, waited for. */
  private readonly nodes: TenantNodes;

  constructor(
    private readonly provider: KubeClient,
    private readonly tenant: KubeClient,
    private readonly opts: HostRollOptions,
    private readonly template: ClaimTemplate,
    private readonly io: DrainIo,
  ) {
    const ns = encodeURIComponent(opts.namespace);
    this.claims = `/apis/${METAL3_API_VERSION}/namespaces/${ns}/hostclaims`;
    this.secrets = `/api/v1/namespaces/${ns}/secrets`;
    this.started = `${opts.revision}:started`;
    this.interval = opts.interval ?? DEFAULT_POLL_INTERVAL_SECONDS;
    this.joinSeconds = drainTimeoutSeconds(opts.joinTimeout ?? DEFAULT_JOIN_TIMEOUT)!;
    this.nodes = new TenantNodes(tenant, opts, io);
  }

  private say(text: string): void {
    this.io.stdout(`roll-hosts: ${text}\n`);
  }

  private claimPath(name: string): string {
    return `${this.claims}/${encodeURIComponent(name)}`;
  }

  private secretPath(name: string): string {
    return `${this.secrets}/${encodeURIComponent(name)}`;
  }

  /** The claim of node `name` at the revision, as the stack renders it. */
  private claimAt(name: string, failureDomain: string | undefined, extraLabels: Record<string, string> = {}): unknown {
    return {
      apiVersion: METAL3_API_VERSION,
      kind: 'HostClaim',
      metadata: {
        name,
        namespace: this.opts.namespace,
        labels: { ...this.template.labels, ...extraLabels, [REVISION_LABEL]: this.opts.revision },
        annotations: { [REPLACING_ANNOTATION]: this.started },
      },
      spec: {
        ...this.template.spec,
        userData: { name: hostClaimUserDataSecretName(name), namespace: this.opts.namespace },
        ...(failureDomain !== undefined ? { failureDomain } : {}),
      },
    };
  }

  /** Labels (or unlabels) a node's user data Secret: while labelled, the stack makes its claim powered off. */
  private async holdSecret(node: string, held: boolean): Promise<void> {
    await must(
      this.provider,
      'PATCH',
      this.secretPath(hostClaimUserDataSecretName(node)),
      `${held ? 'label' : 'unlabel'} Secret ${hostClaimUserDataSecretName(node)}`,
      {
        metadata: { labels: { [ROLL_STOPPED_LABEL]: held ? 'true' : null } },
      },
    );
  }

  /** Deletes a claim and waits until Metal3 has released its host (the claim is gone). */
  private async release(name: string): Promise<void> {
    await must(this.provider, 'DELETE', this.claimPath(name), `delete HostClaim ${name}`, FOREGROUND);
    await waitUntil(`HostClaim ${name} released (its host deprovisioned)`, this.joinSeconds, this.interval, async () => {
      return (await readObject<WireClaim>(this.provider, this.claimPath(name), `HostClaim ${name}`)) === undefined;
    });
  }

  /** Replaces one node's host: drained, released, its Node deleted, claimed again at the revision, joined. */
  private async replace(claim: WireClaim): Promise<void> {
    const name = claim.metadata.name;
    this.say(`replacing ${name}`);
    // What the new claim needs is readable before the node goes (a refusal stops the roll here, the node serving).
    await readObject(this.provider, this.secretPath(hostClaimUserDataSecretName(name)), `Secret ${hostClaimUserDataSecretName(name)}`, 'get and patch');
    await must(this.provider, 'PATCH', this.claimPath(name), `mark HostClaim ${name} as being replaced`, {
      metadata: { annotations: { [REPLACING_ANNOTATION]: `${this.opts.revision}:stopping` } },
    });
    await this.nodes.drain(name, 'its host');
    // Labelled before the claim goes: a deploy resumed from here makes the claim again powered off.
    await this.holdSecret(name, true);
    await this.release(name);
    // The machine is gone: its Node goes now, never before.
    await removeNode(this.tenant, name, this.io);
    // Unlabelled before the new claim: a deploy that plans after this makes it as the stack renders it.
    await this.holdSecret(name, false);
    await must(this.provider, 'POST', this.claims, `create HostClaim ${name} at revision ${this.opts.revision}`, this.claimAt(name, claim.spec?.failureDomain));
    await this.nodes.joined(name);
    await this.unmark(name);
    this.say(`${name} replaced: revision ${this.opts.revision}, Ready`);
  }

  /** A claim the stack made again powered off after a roll was cut short: its old Node goes, then it is powered on. */
  private async resume(claim: WireClaim): Promise<void> {
    const name = claim.metadata.name;
    this.say(`${name}: its replacement, cut short, carried on`);
    await removeNode(this.tenant, name, this.io);
    await this.holdSecret(name, false);
    await must(this.provider, 'PATCH', this.claimPath(name), `power on HostClaim ${name}`, {
      metadata: { annotations: { [REPLACING_ANNOTATION]: this.started } },
      spec: { poweredOn: this.template.spec.poweredOn ?? true },
    });
    await this.nodes.joined(name);
    await this.unmark(name);
  }

  private async unmark(name: string): Promise<void> {
    await must(this.provider, 'PATCH', this.claimPath(name), `unmark HostClaim ${name}`, { metadata: { annotations: { [REPLACING_ANNOTATION]: null } } });
  }

  /** Makes (or keeps, when an earlier run made it at this revision) surge claim `name`, with `source`'s user data. */
  private async surge(name: string, source: WireClaim, existing: WireClaim | undefined): Promise<void> {
    if (existing?.metadata.labels?.[REVISION_LABEL] === this.opts.revision) {
      this.say(`surge ${name} is there from an earlier run`);
      await this.nodes.joined(name);
      return;
    }
    if (existing) await this.removeSurge(name);
    const from = hostClaimUserDataSecretName(source.metadata.name);
    const read = await readObject<WireSecret>(this.provider, this.secretPath(from), `Secret ${from}`);
    if (read === undefined) throw new RollError(`Secret ${from} of HostClaim ${source.metadata.name} is not there to copy`);
    const userData = surgeUserData(read.data?.[USER_DATA_KEY], from, USER_DATA_KEY, name);
    const secret = hostClaimUserDataSecretName(name);
    await this.deleteSurgeSecret(secret);
    await must(this.provider, 'POST', this.secrets, `create Secret ${secret}`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secret, namespace: this.opts.namespace, labels: { ...MANAGED_BY, [POOL_LABEL]: this.opts.pool, [SURGE_LABEL]: this.opts.pool } },
      type: 'Opaque',
      data: { [USER_DATA_KEY]: userData },
    });
    await must(
      this.provider,
      'POST',
      this.claims,
      `create surge HostClaim ${name} (a free host of the node type must be there: the plan's rollout says whether one is)`,
      this.claimAt(name, undefined, { [SURGE_LABEL]: this.opts.pool }),
    );
    this.say(`surge ${name} claimed (user data of ${source.metadata.name}, revision ${this.opts.revision})`);
    await this.nodes.joined(name);
    await this.unmark(name);
    this.say(`surge ${name} Ready`);
  }

  private async removeSurge(name: string): Promise<void> {
    await this.nodes.drain(name, 'its host');
    await this.release(name);
    await removeNode(this.tenant, name, this.io);
    await this.deleteSurgeSecret(hostClaimUserDataSecretName(name));
    this.say(`surge ${name} drained and released`);
  }

  /** Deletes a surge's user data Secret (Secrets the roll did not make stop it). */
  private async deleteSurgeSecret(name: string): Promise<void> {
    await deleteSurgeSecret(this.provider, this.secretPath(name), name, this.opts.pool);
  }

  async run(): Promise<void> {
    const selector = `${POOL_LABEL}=${this.opts.pool},${CLUSTER_LABEL}=${this.opts.cluster}`;
    const all = await patiently(`a read of pool ${this.opts.pool}'s HostClaims`, this.interval, () =>
      this.provider.list<WireClaim>(this.claims, { labelSelector: selector }),
    );
    const surges = all.filter((c) => c.metadata.labels?.[SURGE_LABEL] === this.opts.pool);
    const declared = this.opts.nodes === undefined ? undefined : new Set(this.opts.nodes);
    const members = all
      .filter((c) => c.metadata.labels?.[SURGE_LABEL] === undefined && (declared === undefined || declared.has(c.metadata.name)))
      .sort(byIndex);
    const held = new Set(
      (
        await patiently(`a read of pool ${this.opts.pool}'s held Secrets`, this.interval, () =>
          this.provider.list<{ metadata: { name: string } }>(this.secrets, { labelSelector: `${POOL_LABEL}=${this.opts.pool},${ROLL_STOPPED_LABEL}=true` }),
        )
      ).map((s) => s.metadata.name),
    );
    const stale: WireClaim[] = [];
    const resumed: WireClaim[] = [];
    const joining: WireClaim[] = [];
    for (const claim of members) {
      const revision = claim.metadata.labels?.[REVISION_LABEL];
      const mark = claim.metadata.annotations?.[REPLACING_ANNOTATION];
      if (revision === undefined && claim.spec?.image?.url === this.template.spec.image.url && mark === undefined) {
        // A claim from before revisions were written, on the revision's image: stamped, not replaced.
        await must(this.provider, 'PATCH', this.claimPath(claim.metadata.name), `stamp HostClaim ${claim.metadata.name} with revision ${this.opts.revision}`, {
          metadata: { labels: { [REVISION_LABEL]: this.opts.revision } },
        });
        this.say(`${claim.metadata.name}: made before revisions were written, on the pool's image: stamped with revision ${this.opts.revision}`);
      } else if (revision !== this.opts.revision || (mark !== undefined && mark !== this.started)) stale.push(claim);
      else if (held.has(hostClaimUserDataSecretName(claim.metadata.name))) resumed.push(claim);
      else if (mark === this.started) joining.push(claim);
    }
    const ended = [...held].filter((secret) => !members.some((c) => hostClaimUserDataSecretName(c.metadata.name) === secret));
    if (stale.length + resumed.length + joining.length + surges.length + ended.length === 0) {
      this.say(`pool ${this.opts.pool}: all ${members.length} host(s) run revision ${this.opts.revision}`);
      return;
    }
    if (ended.length > 0)
      throw new RollError(
        `Secret(s) ${ended.join(', ')} are held by a roll for a node the deploy no longer declares: remove the label ${ROLL_STOPPED_LABEL} once its Node and HostClaim are gone`,
      );
    await checkCluster(this.tenant, this.opts.clusterCaHash);
    for (const claim of resumed) await this.resume(claim);
    for (const claim of joining) {
      await this.nodes.joined(claim.metadata.name);
      await this.unmark(claim.metadata.name);
    }
    const surgeCount = Math.min(this.opts.maxSurge, stale.length);
    this.say(
      `pool ${this.opts.pool}: ${stale.length} of ${members.length} host(s) to replace (${stale.map((c) => c.metadata.name).join(', ') || 'none'}), surge ${surgeCount}, ${surgeCount + this.opts.maxUnavailable} at a time`,
    );
    const surgeNames = Array.from({ length: surgeCount }, (_, k) => surgeVmName(`${this.opts.cluster}-${this.opts.pool}`, k));
    for (const claim of surges.filter((s) => !surgeNames.includes(s.metadata.name))) await this.removeSurge(claim.metadata.name);
    for (const [k, name] of surgeNames.entries())
      await this.surge(
        name,
        members[k % members.length],
        surges.find((s) => s.metadata.name === name),
      );
    const batch = Math.max(1, surgeCount + this.opts.maxUnavailable);
    for (let i = 0; i < stale.length; i += batch) await Promise.all(stale.slice(i, i + batch).map((c) => this.replace(c)));
    for (const name of surgeNames) await this.removeSurge(name);
    this.say(`pool ${this.opts.pool}: all ${members.length} host(s) run revision ${this.opts.revision}`);
  }
}

/** The command: checks the options and the claim, finds both clusters, rolls. */
export function runRollHosts(opts: HostRollOptions, io: DrainIo): Promise<number> {
  const template = parseClaimTemplate(opts.claim);
  const problem = typeof template === 'string' ? `--claim ${escapeText(template)}` : undefined;
  return runRoll('roll-hosts', 'hosts', opts, io, problem, (provider, tenant) => new HostRoll(provider, tenant, opts, template as ClaimTemplate, io));
}
