/**
 * NodeDrains: a node's end, in Cluster API's order, on every road a stack deletes one (a pool scaled down, a pool
 * removed, `cdktf destroy`): drained, volumes detached, machine (VM or HostClaim) gone, then its Node.
 *
 * Terraform runs a destroy-time provisioner only while its resource block is in the configuration, and scaling a
 * pool down removes exactly the blocks of the nodes that go. So the provisioners do not live in a node's blocks:
 * each stack holds, per tenant cluster, DRAIN_BUCKETS pairs of `terraform_data` with an instance per node of that
 * cluster in the stack (`for_each`, keyed by Node name), a node in the pair its node resource (its chunk of a pool's
 * VMs, or its HostClaim) hashes to. A node that goes loses only its instances; the blocks, and their provisioners,
 * stay. (One pair for a stack of 1,000 nodes would make OpenTofu's work per instance grow with the stack: see
 * vm-nodes.ts.)
 * - The drain depends on its pair's node resources (through one local, addresses.ts), so Terraform destroys it, and
 *   so runs
 *   `metalslice drain-node --keep-node` (constructs/cli/drain.ts: cordon, evictions through the Eviction API, no
 *   VolumeAttachment left for the node), before it deletes the node's VM or HostClaim.
 * - The end is depended on by its pair's node resources, so Terraform destroys it after the VM or HostClaim is gone (a
 *   foreground delete: the VMI went first), and so runs `metalslice remove-node`, which deletes the Node.
 *
 * Each runs with the tenant cluster's kubeconfig and context, the ones its provider alias reads. A drain that runs
 * out of time (a pod, or a volume that will not detach) fails the destroy: nothing is deleted, the instances stay
 * in the state, and the next deploy drains again where it stopped. A VM delete that fails leaves a cordoned,
 * drained Node that says what it is, never a guest without its Node.
 */
import { createHash } from 'node:crypto';
import { dependable, TerraformResource, TerraformStack } from 'cdktf';
import { TerraformData } from '../plumbing/terraform-data';
import { KUBECONFIG_FROM_ENVIRONMENT, metalsliceGuards } from '../plumbing/metalslice-command';
import { Construct } from 'constructs';
import { AddressBlocks, addressOf, forEachOf, hub, idsInStack, instance, PerNodeAddresses } from './addresses';
import { DEFAULT_DRAIN_TIMEOUT, drainTimeoutProblem } from '../core/input/disruption';
import { caCertHash } from '../render/cloud-init';

/** What a drain needs of a tenant cluster (a TenantCluster, or its handle in another stack). */
export interface DrainedCluster {
  /** The cluster's name, as pools refer to it. */
  readonly clusterName: string;
  /** The tenant CA (PEM): the drain checks the kubeconfig reaches the cluster with this CA. */
  readonly caCertificate: string;
  /** The kubeconfig the tenant provider reads. @default - KUBE_CONFIG_PATH */
  readonly kubeconfigPath?: string;
  /** The kubeconfig context. @default - KUBE_CTX, else the current context */
  readonly kubeconfigContext?: string;
}

/** What one node's drain needs: its timeout, and how to reach its tenant cluster. */
interface DrainInput {
  readonly timeout: string;
  readonly kubeconfig: string;
  readonly context: string;
  /** The tenant CA's hash, as the join pins it: the drain checks the kubeconfig reaches that cluster. */
  readonly ca_hash: string;
  /**
   * `after-machine`: the Node is deleted by the node's end, once its machine is gone. A drain instance deployed by
   * metalslice 0.2 has no such key, and deletes the Node itself (its node has no end instance in the state).
   */
  readonly node_end?: string;
}

/** What a node's end needs: how to reach its tenant cluster. */
type EndInput = Omit<DrainInput, 'timeout' | 'node_end'>;

/** The value of DrainInput.node_end that leaves the Node to the node's end. */
const NODE_END_AFTER_MACHINE = 'after-machine';

/**
 * A command on one tenant Node, for `sh -c`: skipped with METALSLICE_DRAIN=skip, refused when metalslice is not on
 * PATH (`instead` says what to do), run with the cluster's kubeconfig and context (else KUBE_CONFIG_PATH and
 * KUBE_CTX). It reads only what a destroy-time provisioner may: `each.key` and `self` (the instance's own input, as
 * the state holds it), through the environment, so nothing in a name or a path is ever parsed by the shell. `$${`
 * is Terraform's escape for a literal `${`.
 */
function tenantNodeCommand(step: string, instead: string, run: readonly string[]): string {
  return [...metalsliceGuards('METALSLICE_DRAIN', step, instead), ...KUBECONFIG_FROM_ENVIRONMENT, ...run].join('\n');
}

/** The drain: cordon, evictions, volumes detached; the Node left to the node's end (a 0.2 instance deletes it). */
const DRAIN_COMMAND = tenantNodeCommand('drain of $METALSLICE_NODE', 'delete $METALSLICE_NODE without a drain', [
  'keep=; [ "$${METALSLICE_NODE_END:-}" = ' + NODE_END_AFTER_MACHINE + ' ] && keep=--keep-node',
  'exec metalslice drain-node "$METALSLICE_NODE" --timeout "$METALSLICE_DRAIN_TIMEOUT" --cluster-ca-hash "$METALSLICE_CLUSTER_CA_HASH" $${cfg:+--kubeconfig "$cfg"} $${ctx:+--context "$ctx"} $keep',
]);

/** The node's end, once its machine is gone: the Node deleted. */
const END_COMMAND = tenantNodeCommand('removal of Node $METALSLICE_NODE', 'leave Node $METALSLICE_NODE', [
  'exec metalslice remove-node "$METALSLICE_NODE" --cluster-ca-hash "$METALSLICE_CLUSTER_CA_HASH" $${cfg:+--kubeconfig "$cfg"} $${ctx:+--context "$ctx"}',
]);

/**
 * How many pairs of drain and end blocks a tenant cluster has in each stack. A node resource (a chunk of a pool's
 * VMs, or a HostClaim) has its nodes' drains and ends in the pair its path hashes to: the blocks stay whatever the
 * stack holds (a destroy-time provisioner runs only while its block is there), and what one pair's instances
 * depend on, and are depended on by, is a sixteenth of the stack's nodes, not all of them.
 */
export const DRAIN_BUCKETS = 16;

/**
 * The pair of blocks of node resource `resource`: a number in [0, DRAIN_BUCKETS), from the sha256 of its path in its
 * stack (the same in one stack and in a stack per pool).
 */
export function drainBucketOf(resource: Construct): number {
  return createHash('sha256').update(idsInStack(resource).join('/')).digest().readUInt32BE(0) % DRAIN_BUCKETS;
}

/** One pair of drain and end blocks, and the nodes (keyed by Node name) and node resources in it. */
interface DrainBucket {
  readonly drains: TerraformData;
  readonly ends: TerraformData;
  readonly nodes: Map<string, DrainInput>;
  readonly removers: Set<TerraformResource>;
  /** `depends_on` of the removers: the ends of the bucket, as one local. */
  endsHub?: string;
}

/** The drains of one tenant cluster's nodes in one stack. */
export class NodeDrains extends Construct {
  /**
   * The drains of `cluster`'s nodes in `scope`'s stack, made on first use at the stack root. Each tenant cluster
   * handle makes it in its stack, so the blocks stay (with no instance) when the last pool of the cluster there
   * is scaled to 0 or removed, and the removed nodes' drains still run.
   */
  static of(scope: Construct, cluster: DrainedCluster): NodeDrains {
    const stack = TerraformStack.of(scope);
    const id = `node-drains-${cluster.clusterName}`;
    const existing = stack.node.tryFindChild(id);
    if (existing instanceof NodeDrains) return existing;
    return new NodeDrains(stack, id, cluster);
  }

  private readonly names = new Set<string>();
  private readonly buckets: DrainBucket[];
  private readonly cluster: DrainedCluster;

  private constructor(scope: Construct, id: string, cluster: DrainedCluster) {
    super(scope, id);
    this.cluster = cluster;
    // Bucket 0 is at the addresses of 0.6 and before (`Resource`, `End`); a node in another was there then.
    this.buckets = Array.from({ length: DRAIN_BUCKETS }, (_, b) => {
      const nodes = new Map<string, DrainInput>();
      const drains = this.perNode(b === 0 ? 'Resource' : `Resource-${b}`, nodes, (input) => input, DRAIN_COMMAND, {
        METALSLICE_DRAIN_TIMEOUT: '${self.input.timeout}',
        // A 0.2 instance's input has no node_end: its drain deletes the Node, as it did then.
        METALSLICE_NODE_END: '${try(self.input.node_end, "")}',
      });
      drains.dependsOn = [];
      const ends = this.perNode(
        b === 0 ? 'End' : `End-${b}`,
        nodes,
        (input): EndInput => ({ kubeconfig: input.kubeconfig, context: input.context, ca_hash: input.ca_hash }),
        END_COMMAND,
        {},
      );
      return { drains, ends, nodes, removers: new Set<TerraformResource>() };
    });
    new PerNodeAddresses(this, 'Moves', () => this.moves());
  }

  /**
   * A `terraform_data` with an instance per node of `nodes` (keyed by Node name, each `input` made from the node's
   * by `input`) whose destroy-time provisioner runs `command` with the node, its cluster's kubeconfig, context and
   * CA hash, and `extra` (more of the instance's input) in its environment.
   */
  private perNode(
    id: string,
    nodes: Map<string, DrainInput>,
    input: (node: DrainInput) => object,
    command: string,
    extra: Record<string, string>,
  ): TerraformData {
    const each = forEachOf(this, `${id}Nodes`, () => Object.fromEntries([...nodes].sort(byKey).map(([k, v]) => [k, input(v)])));
    return new TerraformData(this, id, {
      forEach: each,
      input: each.value as Record<string, string>,
      provisioners: [
        {
          type: 'local-exec',
          when: 'destroy',
          interpreter: ['/bin/sh', '-c'],
          command,
          environment: {
            METALSLICE_NODE: '${each.key}',
            METALSLICE_KUBECONFIG: '${self.input.kubeconfig}',
            METALSLICE_CONTEXT: '${self.input.context}',
            METALSLICE_CLUSTER_CA_HASH: '${self.input.ca_hash}',
            ...extra,
          },
        },
      ],
    });
  }

  /**
   * Drains `nodeName` before `removes` (its VM or HostClaim, or the resource of its chunk of a pool's VMs) is
   * deleted, and deletes its Node after. `timeout` is the pool's drainTimeout. Throws when the same Node name is
   * added twice in a stack.
   */
  add(nodeName: string, removes: TerraformResource, timeout = DEFAULT_DRAIN_TIMEOUT): void {
    const problem = drainTimeoutProblem(timeout);
    if (problem !== undefined) throw new Error(`[${removes.node.path}] drainTimeout ${problem}`);
    if (this.names.has(nodeName))
      throw new Error(`[${removes.node.path}] node "${nodeName}" is declared twice in tenant cluster "${this.cluster.clusterName}"`);
    this.names.add(nodeName);
    const b = drainBucketOf(removes);
    const bucket = this.buckets[b];
    bucket.nodes.set(nodeName, {
      timeout,
      kubeconfig: this.cluster.kubeconfigPath ?? '',
      context: this.cluster.kubeconfigContext ?? '',
      ca_hash: caCertHash(this.cluster.caCertificate),
      node_end: NODE_END_AFTER_MACHINE,
    });
    // A chunk of a pool's VMs is one resource for its nodes: it is depended on, and depends on the ends, once. Both
    // through a local, one vertex: the drains wait for the bucket's node resources, they for its ends.
    if (bucket.removers.has(removes)) return;
    if (bucket.removers.size === 0) (bucket.drains.dependsOn ??= []).push(dependable(hub(this, `Removers-${b}`, () => [...bucket.removers])));
    bucket.removers.add(removes);
    bucket.endsHub ??= dependable(hub(this, `Ends-${b}`, () => [bucket.ends]));
    removes.dependsOn = [...(removes.dependsOn ?? []), bucket.endsHub];
  }

  /** A node in a bucket other than 0 was at bucket 0's addresses (0.6 and before): its instances move. */
  private moves(): AddressBlocks {
    const [drains0, ends0] = [addressOf(this.buckets[0].drains), addressOf(this.buckets[0].ends)];
    const moved = this.buckets.slice(1).flatMap((bucket) =>
      [...bucket.nodes.keys()].sort().flatMap((name) => [
        { from: instance(drains0, name), to: instance(addressOf(bucket.drains), name) },
        { from: instance(ends0, name), to: instance(addressOf(bucket.ends), name) },
      ]),
    );
    return { moved, import: [], removed: [] };
  }
}

const byKey = <T>(a: [string, T], b: [string, T]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
