/**
 * VmNodes: the virtual worker nodes of one pool, as five resources per chunk of NODES_PER_CHUNK nodes. Each is a
 * `for_each` keyed by Node name: the VirtualMachines, their cloud-init Secrets (kubeadm join) beside them, and the
 * bootstrap tokens (a `random_string` id, a `random_password` secret, their Secret in the tenant cluster's
 * kube-system).
 *
 * Why `for_each` and not five resources per node: Terraform records, for every instance in the state, the resources
 * it depends on. The drain of each node (node-drain.ts) must depend on the resource of its VM; with a resource per
 * node, every drain instance recorded every VM of its stack, and the state grew with the square of the nodes (72 MB
 * and 2.9 GiB of tofu at 1,000 nodes in one stack). Here a drain records one address per chunk.
 *
 * Why chunks and not one `for_each` per pool: OpenTofu's own work per instance grows with the size of its
 * `for_each` (it evaluates the whole map again for each instance) and with what the instance depends on, so one
 * `for_each` of N nodes costs N². A chunk bounds both; a pool of up to NODES_PER_CHUNK nodes is one chunk, at the
 * addresses 0.6 gave it. Within a chunk, the VMs wait for their Secrets through one local (addresses.ts).
 *
 * Scaling by one adds or removes exactly one key of each resource of the pool's last chunk. The per-node text (the
 * VM and the cloud-init document) is rendered at synth into a local map per chunk keyed like the resources; the
 * Secret and token bodies are one template over `each.key`. The token never enters `for_each` (a sensitive value
 * may not): the document refers to its own node's token instances by key.
 *
 * A stack deployed by metalslice 0.2 to 0.5 has these as five resources per node (VmNode, vm-node.ts). `moved`
 * blocks, one per node and resource, take each of them to its key in the first chunk (0.6's address), and one more
 * from there to a later chunk's, in the first deploy, so no VM, Secret or token is made again. With the 0.1 and 0.2
 * context keys, the resources of those releases' types are forgotten and taken over as before (kubectl.ts), at
 * their new addresses.
 */
import { ITerraformDependable, TerraformElement, TerraformLocal, TerraformStack } from 'cdktf';
import { Construct, Node } from 'constructs';
import { stringify } from 'yaml';
import { DEFAULT_BOOTSTRAP_TOKEN_TTL, bootstrapTokenTtlProblem } from '../core/input/join-token';
import { Taint } from '../core/input/model';
import { vmUserDataSecretName } from '../core/naming/derived';
import { KubectlManifest, KubectlProvider } from '../plumbing/kubectl';
import { adoptsFromManifest, adoptsTokenSecrets } from '../plumbing/user-data-secret';
import { Password } from '../providers/random/password';
import { StringResource } from '../providers/random/string-resource';
import { renderJoinCloudConfig } from '../render/cloud-init';
import { KUBEVIRT_API_VERSION } from '../render/kubevirt';
import { KubeObject, POOL_LABEL } from '../render/labels';
import { renderBootstrapTokenSecret } from '../render/secrets';
import { ITenantCluster } from '../tenant-cluster';
import { AddressBlocks, addressOf, forEachOf, hub, idsInStack, instance, MadeAtSynth, PerNodeAddresses } from './addresses';
import { NodeDrains } from './node-drain';
import type { NodeRollout } from './node-rollout';

/** A bootstrap token's id: 6 characters of `[a-z0-9]` (kubeadm's format; the random provider's arguments). */
export const TOKEN_ID_CHARS = { length: 6, upper: false, special: false, lower: true, numeric: true } as const;

/** A bootstrap token's secret: 16 characters of `[a-z0-9]`. */
export const TOKEN_SECRET_CHARS = { ...TOKEN_ID_CHARS, length: 16 } as const;

/** A bootstrap token's ttl, `ttl` or the default; throws, naming `scope`'s path, when it is not a Terraform duration. */
export function checkedTokenTtl(scope: Construct, ttl: string | undefined): string {
  const checked = ttl ?? DEFAULT_BOOTSTRAP_TOKEN_TTL;
  const problem = bootstrapTokenTtlProblem(checked);
  if (problem) throw new Error(`[${scope.node.path}] bootstrap token ttl ${problem}`);
  return checked;
}

/** Props of a pool's VmNodes. */
export interface VmNodesProps {
  /** The tenant cluster the nodes join. */
  readonly cluster: ITenantCluster;
  /** The namespace of the VMs and their cloud-init Secrets (the quota's). */
  readonly namespace: string;
  /** The pool the nodes belong to (labels the cloud-init Secrets). */
  readonly poolName: string;
  /** How long a bootstrap token stays valid after it is made (hours, minutes, seconds). @default "24h" */
  readonly tokenTtl?: string;
  /** What the VMs must wait for in the same apply (their quota's accounted ResourceQuota). @default - nothing */
  readonly admission?: ITerraformDependable;
  /** What the cloud-init Secrets must wait for in the same apply (their quota's namespace). @default - nothing */
  readonly namespaceReady?: ITerraformDependable;
  /** How long a node's drain may take before its VM is deleted (hours, minutes, seconds). @default "15m" */
  readonly drainTimeout?: string;
  /** The roll of the pool: it runs after the VMs, Secrets and tokens are applied. @default - none */
  readonly rollout?: NodeRollout;
}

/** One node of a pool: what it joins with and its VirtualMachine (both resolved at synth). */
export interface VmNodeSpec {
  /** Node labels and taints set at join. */
  readonly join: () => { labels: Record<string, string>; taints?: readonly Taint[] };
  /** The VirtualMachine, given the name of its user-data Secret. */
  readonly vm: (userDataSecret: string) => KubeObject;
}

/**
 * How many nodes one set of a pool's resources holds. OpenTofu evaluates a resource's `for_each` again for each of
 * its instances, copies the resource's state for each instance it plans, and walks every instance's dependencies:
 * one `for_each` costs the square of its keys. A pool's nodes are in chunks of this many, in the order they are
 * numbered (`<pool>-<index>`), so the cost grows with the nodes, and scaling by one changes only the last chunk.
 */
export const NODES_PER_CHUNK = 100;

/** The resources' names (in a chunk's scope) of the kinds of a node's resources. */
type NodeResources = Record<'vms' | 'userData' | 'tokens' | 'tokenId' | 'tokenSecret', TerraformElement & { terraformResourceType: string }>;

/** The virtual worker nodes of one pool: five `for_each` resources keyed by Node name per chunk of its nodes. */
export class VmNodes extends Construct {
  private readonly names = new Set<string>();
  private readonly chunks: NodeChunk[] = [];
  private readonly props: VmNodesProps;
  private readonly ttl: string;

  constructor(scope: Construct, id: string, props: VmNodesProps) {
    super(scope, id);
    this.props = props;
    this.ttl = checkedTokenTtl(this, props.tokenTtl);
    // The first chunk is at the pool's `nodes` (the addresses of 0.6, whatever the pool's size); chunk k at `nodes/<k>`.
    this.chunks.push(new NodeChunk(this, props, this.ttl, undefined));
  }

  /** Adds node `nodeName` (in the order of the pool's numbering): its VM, cloud-init Secret and token are instances of its chunk's resources. */
  add(nodeName: string, node: VmNodeSpec): void {
    if (this.names.has(nodeName)) throw new Error(`[${this.node.path}] node "${nodeName}" is declared twice in pool "${this.props.poolName}"`);
    const k = Math.floor(this.names.size / NODES_PER_CHUNK);
    this.names.add(nodeName);
    while (this.chunks.length <= k) this.chunks.push(new NodeChunk(new Construct(this, String(this.chunks.length)), this.props, this.ttl, this.chunks[0]));
    const chunk = this.chunks[k];
    chunk.nodes.set(nodeName, node);
    // Before the VM goes (scaled down, pool removed, destroyed), its tenant Node is drained; after, it is deleted.
    NodeDrains.of(this, this.props.cluster).add(nodeName, chunk.vms, this.props.drainTimeout);
  }
}

/** One chunk of a pool's nodes: five `for_each` resources keyed by Node name, in `scope`. */
class NodeChunk {
  readonly nodes = new Map<string, VmNodeSpec>();
  /** The chunk's VirtualMachines. */
  readonly vms: KubectlManifest;
  private readonly resources: NodeResources;

  /** `first` is the pool's first chunk (undefined for the first): a node of this chunk was at its addresses in 0.6. */
  constructor(
    private readonly scope: Construct,
    private readonly props: VmNodesProps,
    ttl: string,
    private readonly first: NodeChunk | undefined,
  ) {
    const { cluster } = props;
    // Keyed by Node name (the value is the name again: what `for_each` needs is the keys).
    const each = forEachOf(scope, 'Nodes', () => Object.fromEntries([...this.nodes.keys()].map((n) => [n, n])));
    const tokenId = new StringResource(scope, 'TokenId', { ...TOKEN_ID_CHARS, forEach: each });
    const tokenSecret = new Password(scope, 'TokenSecret', { ...TOKEN_SECRET_CHARS, forEach: each });
    const [idAddress, secretAddress] = [addressOf(tokenId), addressOf(tokenSecret)];
    // Each token Secret reads its id and secret from a local, not from the two resources: OpenTofu decodes every
    // instance of a resource an expression names, for each instance that evaluates it (the square of the chunk).
    const results = (id: string, address: string) => new TerraformLocal(scope, id, `\${{ for k, r in ${address} : k => r.result }}`);
    const [ids, secrets] = [results('TokenIds', idAddress), results('TokenSecrets', secretAddress)];
    const token = renderBootstrapTokenSecret({
      tokenId: `\${local.${ids.friendlyUniqueId}[each.key]}`,
      tokenSecret: `\${local.${secrets.friendlyUniqueId}[each.key]}`,
      expiration: '${timeadd(timestamp(), ' + JSON.stringify(ttl) + ')}',
      description: 'metalslice node ${each.key}',
    });
    // Data as `data` (base64): the API server folds stringData in and never shows it. Each value is base64 of a
    // Terraform expression, written as one: `base64encode(...)` of what the template would have given.
    const encoded = Object.fromEntries(
      Object.entries(token.stringData as Record<string, string>).map(([k, v]) => [k, `\${base64encode(${templateExpression(v)})}`]),
    );
    const tokens = new KubectlManifest(scope, 'BootstrapToken', {
      forEach: each,
      provider: KubectlProvider.mirroring(cluster.provider),
      yamlBody: stringify({ apiVersion: 'v1', kind: 'Secret', metadata: token.metadata, type: token.type, data: encoded }, { lineWidth: 0 }),
      sensitiveFields: ['data'],
      waitForDeletion: false,
      // The expiration is stamped once, at creation; later plans must not move it (or show a change).
      lifecycle: { ignoreChanges: ['yaml_body'] },
    });
    // Each node's document refers to its own token instances by key: the map is sensitive, and stays out of for_each.
    const documents = new TerraformLocal(
      scope,
      'Documents',
      new MadeAtSynth(() => Object.fromEntries([...this.nodes].map(([name, node]) => [name, this.document(name, node, idAddress, secretAddress)]))),
    );
    const userData = new KubectlManifest(scope, 'UserData', {
      forEach: each,
      yamlBody: stringify(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: vmUserDataSecretName('${each.key}'), namespace: props.namespace, labels: { [POOL_LABEL]: props.poolName } },
          type: 'Opaque',
          data: { userdata: `\${base64encode(local.${documents.friendlyUniqueId}[each.key])}` },
        },
        { lineWidth: 0 },
      ),
      sensitiveFields: ['data'],
      waitForDeletion: false,
      dependsOn: waitFor(scope, props.namespaceReady),
    });
    const vmBodies = new TerraformLocal(
      scope,
      'VirtualMachines',
      new MadeAtSynth(() => Object.fromEntries([...this.nodes].map(([name, node]) => [name, this.virtualMachine(name, node)]))),
    );
    // kubectl_manifest, not kubernetes_manifest: plans stay a GET per VM at fleet scale (see plumbing/kubectl.ts). Its
    // Secrets before it, and so after it when it goes: a VM whose drain stops the deploy keeps what it boots from.
    // Through one local (addresses.ts), so that the apply graph has an edge per instance, not per pair of them.
    this.vms = new KubectlManifest(scope, 'Resource', {
      forEach: each,
      yamlBody: `\${local.${vmBodies.friendlyUniqueId}[each.key]}`,
      dependsOn: [...(waitFor(scope, props.admission) ?? []), hub(scope, 'Secrets', () => [userData, tokens])],
    });
    this.resources = { vms: this.vms, userData, tokens, tokenId, tokenSecret };
    new PerNodeAddresses(scope, 'Moves', () => this.moves());
    props.rollout?.after(this.vms, userData, tokens);
  }

  /** The cloud-init document of node `name`, its token a reference to its own instances of the token resources. */
  private document(name: string, node: VmNodeSpec, id: string, secret: string): string {
    return joinDocument(this.props.cluster, name, `\${${instance(id, name)}.result}.\${${instance(secret, name)}.result}`, node.join());
  }

  /** The VirtualMachine of node `name` as YAML, its runStrategy the roll's expression. */
  private virtualMachine(name: string, node: VmNodeSpec): string {
    return virtualMachineYaml(node.vm(vmUserDataSecretName(name)), this.props.rollout, name, `${this.scope.node.path}/${name}`);
  }

  /**
   * The blocks that take a node of this chunk from where an earlier release had it: from a stack of per-node
   * resources (metalslice 0.2 to 0.5, VmNode at `<pool>/<node>`) a `moved` block per node and resource to the first
   * chunk's key (0.6's address), and from there, in a later chunk, one more to this chunk's (Terraform follows the
   * chain); with the 0.1 and 0.2 context keys, `removed` blocks for the resources of those releases' types and
   * `import` blocks for the VMs 0.1 applied.
   */
  private moves(): AddressBlocks {
    const firstChunk = this.first ?? this;
    const nodesScope = firstChunk.scope;
    const stack = TerraformStack.of(nodesScope);
    const pool = idsInStack(nodesScope).slice(0, -1);
    const old = (node: string, ...path: string[]) =>
      stack.getLogicalId({ scopes: [stack, ...[...pool, node, ...path].map((id) => ({ node: { id } }))] } as unknown as Node);
    const fromManifest = adoptsFromManifest(nodesScope);
    const tokenSecrets = adoptsTokenSecrets(nodesScope);
    const blocks: AddressBlocks = { moved: [], import: [], removed: [] };
    for (const name of this.nodes.keys()) {
      const from: Record<keyof NodeResources, string[]> = {
        vms: [name, 'Resource'],
        userData: [name, 'UserData'],
        tokens: [name, 'Join', 'BootstrapToken'],
        tokenId: [name, 'Join', 'TokenId'],
        tokenSecret: [name, 'Join', 'TokenSecret'],
      };
      for (const key of Object.keys(from) as (keyof NodeResources)[]) {
        const [r, inFirst] = [this.resources[key], firstChunk.resources[key]];
        const id = old(...(from[key] as [string, ...string[]]));
        blocks.moved.push({ from: `${r.terraformResourceType}.${id}`, to: instance(addressOf(inFirst), name) });
        if (r !== inFirst) blocks.moved.push({ from: instance(addressOf(inFirst), name), to: instance(addressOf(r), name) });
        if (fromManifest && key === 'vms') {
          blocks.removed.push({ from: `kubernetes_manifest.${id}`, lifecycle: { destroy: false } });
          blocks.import.push({ to: instance(addressOf(r), name), id: `${KUBEVIRT_API_VERSION}//VirtualMachine//${name}//${this.props.namespace}` });
        }
        if ((fromManifest && key === 'userData') || (tokenSecrets && key === 'tokens'))
          blocks.removed.push({ from: `kubernetes_secret_v1.${id}`, lifecycle: { destroy: false } });
      }
    }
    return blocks;
  }
}

/** The cloud-init document that joins node `name` to `cluster` with `token` (a Terraform expression), labels and taints as `join` says. */
export function joinDocument(cluster: ITenantCluster, name: string, token: string, join: ReturnType<VmNodeSpec['join']>): string {
  return renderJoinCloudConfig({
    nodeName: name,
    endpoint: cluster.endpoint,
    caCertificate: cluster.caCertificate,
    token,
    kubernetesVersion: cluster.kubernetesVersion ?? '1.33',
    bootstrap: cluster.bootstrap,
    labels: join.labels,
    taints: join.taints,
  });
}

/**
 * `vm` as YAML. A node the roll has stopped stays stopped until the roll starts it on a fresh disk (its one writer):
 * its runStrategy is the roll's Terraform expression, put in as text so YAML never quotes (and escapes) it.
 */
export function virtualMachineYaml(vm: KubeObject, rollout: NodeRollout | undefined, name: string, path: string): string {
  const yaml = stringify(vm, { lineWidth: 0 });
  const runStrategy = rollout?.runStrategyOf(name);
  const line = `\n  runStrategy: ${String((vm.spec as { runStrategy?: unknown } | undefined)?.runStrategy)}\n`;
  if (runStrategy === undefined) return yaml;
  if (!yaml.includes(line)) throw new Error(`[${path}] the VM has no runStrategy line for the roll to own`);
  return yaml.replace(line, `\n  runStrategy: ${runStrategy}\n`);
}

/** A template's text as one Terraform expression: `"..."` with its `${...}` kept (the text holds no quote or backslash). */
function templateExpression(text: string): string {
  const whole = /^\$\{([^{}]*)\}$/.exec(text);
  if (whole) return whole[1];
  if (/["\\]/.test(text)) throw new Error(`a token Secret value cannot hold a quote or a backslash: ${text}`);
  return JSON.stringify(text);
}

/**
 * `dependsOn` for what the nodes wait for. In another stack (a stack per pool, see `addConfigStacks`), a resource
 * cannot depend on it: the nodes' stack is deployed after that stack instead.
 */
export function waitFor(scope: Construct, admission: ITerraformDependable | undefined): ITerraformDependable[] | undefined {
  if (!admission) return undefined;
  if (Construct.isConstruct(admission)) {
    const [own, theirs] = [TerraformStack.of(scope), TerraformStack.of(admission)];
    if (own !== theirs) {
      own.addDependency(theirs);
      return undefined;
    }
  }
  return [admission];
}
