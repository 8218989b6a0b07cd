/**
 * The commands a stack runs on a tenant's nodes, day 2: drain-node and remove-node (a node's end), roll-nodes and
 * roll-hosts (a pool's roll); and wait-quota, which a stack runs on the provider cluster before the VMs a new quota
 * counts. Each runs from a provisioner of the stack (constructs/parts/node-drain.ts, node-rollout.ts,
 * constructs/quota.ts) and can be run by hand.
 */
import { Command, Option } from 'commander';
import {
  DEFAULT_DRAIN_TIMEOUT,
  DEFAULT_HOST_JOIN_TIMEOUT,
  DEFAULT_JOIN_TIMEOUT,
  DEFAULT_POLL_INTERVAL_SECONDS,
  DEFAULT_QUOTA_INTERVAL_SECONDS,
  DEFAULT_QUOTA_TIMEOUT,
} from '../core/input/disruption';
import type { DrainIo } from './drain';

const DRAIN_EXAMPLES = `
Exit codes: 0 drained (and the Node deleted, without --keep-node), or never there; 1 not drained in time (a pod
or a volume still there is named), or the API server refused; run it again to carry on; 2 usage error.
A stack runs it with --keep-node before it deletes a node's VM or HostClaim, and remove-node after;
METALSLICE_DRAIN=skip in the deploy's environment deletes without either (a tenant cluster that is gone).

Examples:
  metalslice drain-node team-a-workers-5 --kubeconfig ~/.kube/team-a-prod.config
  metalslice drain-node team-a-workers-5 --context team-a-prod --timeout 30m
`;

const REMOVE_NODE_EXAMPLES = `
Exit codes: 0 the Node is gone; 1 the API server refused; 2 usage error.
A stack runs it once a node's VM or HostClaim is gone: the last step of the node's end.

Examples:
  metalslice remove-node team-a-workers-5 --context team-a-prod
`;

const WAIT_QUOTA_EXAMPLES = `
Exit codes: 0 the quota is accounted (status.hard is spec.hard, status.used names every resource); 1 not in time
(each resource not yet accounted is named), or the API server refused; 2 usage error.
A stack runs it after it applies a quota, and when the quota's limits change, before the VMs the quota counts.

Examples:
  metalslice wait-quota metalslice --namespace acme-team-a --context provider
`;

const ROLL_EXAMPLES = `
Exit codes: 0 every node of the pool runs the revision; 1 a drain or a join ran out of time, or an API server
refused (the nodes replaced so far stay replaced; run it again to carry on); 2 usage error.
A stack runs it when a pool's revision changes, after its VMs are applied; METALSLICE_ROLL=skip in the deploy's
environment leaves the running nodes on their old revision.

Examples:
  metalslice roll-nodes --namespace acme-team-a --pool team-a-workers --cluster team-a-prod --revision 0123456789abcdef \\
    --max-surge 1 --max-unavailable 0 --drain-timeout 15m --cluster-ca-hash sha256:<hex> \\
    --context provider --tenant-context team-a-prod
`;

const ROLL_HOSTS_EXAMPLES = `
Exit codes: 0 every host of the pool runs the revision; 1 a drain, a release or a join ran out of time, or an API
server refused (the hosts replaced so far stay replaced; run it again to carry on); 2 usage error.
A stack runs it when a private pool's revision changes, after its claims are applied; METALSLICE_ROLL=skip in the
deploy's environment leaves the running hosts on their old revision.

Examples:
  metalslice roll-hosts --namespace team-a-prod-metal --pool gpu --cluster team-a-prod --revision 0123456789abcdef \\
    --claim '{"labels":{},"spec":{"image":{"url":"https://images.example/node.qcow2"}}}' \\
    --max-surge 1 --max-unavailable 0 --cluster-ca-hash sha256:<hex> --context provider --tenant-context team-a-prod
`;

/** What a stack runs on a tenant's nodes: drain-node, remove-node, roll-nodes and roll-hosts. `done` receives the exit code. */
export function addNodeCommands(program: Command, io: DrainIo, done: (code: number) => void): void {
  program
    .command('drain-node')
    .description(
      "cordon a tenant Node, evict its pods through the Eviction API (PodDisruptionBudgets honoured, DaemonSet and mirror pods left, karpenter.sh/do-not-disrupt pods never evicted), wait until no volume is attached to it, then delete the Node (or, with --keep-node, leave it for remove-node): what a stack runs before it deletes a node's VM or HostClaim",
    )
    .argument('<node>', 'the Node name in the tenant cluster')
    .option('--kubeconfig <file>', 'kubeconfig of the tenant cluster (default: as kubectl, $KUBECONFIG then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .option(
      '--timeout <duration>',
      'how long the drain may take before it stops with the pods still there (hours, minutes, seconds: 15m, 1h30m)',
      DEFAULT_DRAIN_TIMEOUT,
    )
    .option(
      '--cluster-ca-hash <sha256:hex>',
      "refuse unless the kubeconfig reaches the cluster with this CA (its kube-public/cluster-info), as a node's join pins it",
    )
    .option('--keep-node', 'leave the drained Node (cordoned) for remove-node, which deletes it once its machine is gone')
    .addOption(
      new Option('--interval <seconds>', 'seconds between two rounds of evictions').default(DEFAULT_POLL_INTERVAL_SECONDS).argParser(Number).hideHelp(),
    )
    .addHelpText('after', DRAIN_EXAMPLES)
    .action(async (node: string, opts: import('./drain').DrainOptions) => {
      const { runDrainNode } = await import('./drain');
      done(await runDrainNode(node, opts, io));
    });

  program
    .command('remove-node')
    .description("delete a tenant Node whose VM or HostClaim is gone: the last step of a node's end, after drain-node --keep-node")
    .argument('<node>', 'the Node name in the tenant cluster')
    .option('--kubeconfig <file>', 'kubeconfig of the tenant cluster (default: as kubectl, $KUBECONFIG then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .option('--cluster-ca-hash <sha256:hex>', 'refuse unless the kubeconfig reaches the cluster with this CA (its kube-public/cluster-info)')
    .addHelpText('after', REMOVE_NODE_EXAMPLES)
    .action(async (node: string, opts: import('./drain').RemoveNodeOptions) => {
      const { runRemoveNode } = await import('./drain');
      done(await runRemoveNode(node, opts, io));
    });
  program
    .command('wait-quota')
    .description(
      'wait until the quota controller has accounted a ResourceQuota (status.hard is its spec.hard, status.used names every resource): until then the API server refuses what the quota counts',
    )
    .argument('<name>', 'the ResourceQuota name')
    .option('--namespace <namespace>', 'the namespace of the ResourceQuota')
    .option('--timeout <duration>', 'how long to wait (10m, 1h30m, 90s)', DEFAULT_QUOTA_TIMEOUT)
    .option('--kubeconfig <file>', 'kubeconfig of the provider cluster (default: as kubectl, $KUBECONFIG then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .addOption(new Option('--interval <seconds>', 'seconds between two reads').default(DEFAULT_QUOTA_INTERVAL_SECONDS).argParser(Number).hideHelp())
    .addHelpText('after', WAIT_QUOTA_EXAMPLES)
    .action(async (name: string, opts: import('./wait-quota').WaitQuotaOptions) => {
      const { runWaitQuota } = await import('./wait-quota');
      done(await runWaitQuota(name, opts, io));
    });
  addRollCommands(program, io, done);
}

/** A pool's roll onto a new revision: roll-nodes (VMs) and roll-hosts (HostClaims). */
function addRollCommands(program: Command, io: DrainIo, done: (code: number) => void): void {
  program
    .command('roll-nodes')
    .description(
      "replace the running nodes of a pool that are not on its revision: surge nodes join first, then each old node is drained, stopped and started on the new revision with a fresh root disk, then the surge goes: what a stack runs when a pool's revision changes",
    )
    .requiredOption('--namespace <name>', "the namespace of the pool's VMs (its quota's)")
    .requiredOption('--pool <name>', 'the pool')
    .requiredOption('--cluster <name>', "the tenant cluster the pool's nodes join")
    .addOption(
      new Option('--nodes <names>', "the pool's nodes as the deploy declares them, comma-separated (other VMs of the pool are left alone)").argParser(
        (v: string) => v.split(',').filter((n) => n !== ''),
      ),
    )
    .requiredOption('--revision <hex>', "the revision every node must run (the plan's rollout.revision)")
    .addOption(new Option('--max-surge <n>', 'surge VMs made before old nodes go').argParser(Number).makeOptionMandatory())
    .addOption(new Option('--max-unavailable <n>', 'nodes out of service at once beside the surge').argParser(Number).makeOptionMandatory())
    .option('--drain-timeout <duration>', "how long one node's drain may take (15m, 1h30m)", DEFAULT_DRAIN_TIMEOUT)
    .option('--join-timeout <duration>', 'how long a restarted or surge node may take to be Ready in the tenant cluster', DEFAULT_JOIN_TIMEOUT)
    .requiredOption('--cluster-ca-hash <sha256:hex>', "the tenant cluster's CA hash, as the nodes' join pins it")
    .option('--kubeconfig <file>', 'kubeconfig of the provider cluster, where the VMs are (default: as kubectl)')
    .option('--context <name>', "the provider cluster's kubeconfig context")
    .option('--tenant-kubeconfig <file>', 'kubeconfig of the tenant cluster, where the Nodes are (default: as kubectl)')
    .option('--tenant-context <name>', "the tenant cluster's kubeconfig context")
    .addOption(
      new Option('--interval <seconds>', 'seconds between two reads while waiting').default(DEFAULT_POLL_INTERVAL_SECONDS).argParser(Number).hideHelp(),
    )
    .addHelpText('after', ROLL_EXAMPLES)
    .action(async (opts: import('./roll-common').RollOptions) => {
      const { runRollNodes } = await import('./roll');
      done(await runRollNodes(opts, io));
    });

  program
    .command('roll-hosts')
    .description(
      "replace the hosts of a private (Metal3) pool whose HostClaims are not at its revision: surge hosts join first, then each old node is drained, its claim released (Metal3 cleans the host) and made again at the revision, its Node deleted in between; then the surge goes: what a stack runs when a private pool's revision changes",
    )
    .requiredOption('--namespace <name>', "the namespace of the pool's HostClaims (its node environment)")
    .requiredOption('--pool <name>', 'the pool')
    .requiredOption('--cluster <name>', "the tenant cluster the pool's nodes join")
    .addOption(
      new Option('--nodes <names>', "the pool's nodes as the deploy declares them, comma-separated (other claims of the pool are left alone)").argParser(
        (v: string) => v.split(',').filter((n) => n !== ''),
      ),
    )
    .requiredOption('--revision <hex>', "the revision every node must run (the plan's rollout.revision)")
    .requiredOption('--claim <json>', "the pool's HostClaim at the revision less a node's own fields: {labels, spec: {hostSelector, image, poweredOn}}")
    .addOption(new Option('--max-surge <n>', 'surge hosts claimed before old nodes go').argParser(Number).makeOptionMandatory())
    .addOption(new Option('--max-unavailable <n>', 'nodes out of service at once beside the surge').argParser(Number).makeOptionMandatory())
    .option('--drain-timeout <duration>', "how long one node's drain may take (15m, 1h30m)", DEFAULT_DRAIN_TIMEOUT)
    .option('--join-timeout <duration>', 'how long a host may take to be released, and a new one to be Ready in the tenant cluster', DEFAULT_HOST_JOIN_TIMEOUT)
    .requiredOption('--cluster-ca-hash <sha256:hex>', "the tenant cluster's CA hash, as the nodes' join pins it")
    .option('--kubeconfig <file>', 'kubeconfig of the provider cluster, where the HostClaims are (default: as kubectl)')
    .option('--context <name>', "the provider cluster's kubeconfig context")
    .option('--tenant-kubeconfig <file>', 'kubeconfig of the tenant cluster, where the Nodes are (default: as kubectl)')
    .option('--tenant-context <name>', "the tenant cluster's kubeconfig context")
    .addOption(
      new Option('--interval <seconds>', 'seconds between two reads while waiting').default(DEFAULT_POLL_INTERVAL_SECONDS).argParser(Number).hideHelp(),
    )
    .addHelpText('after', ROLL_HOSTS_EXAMPLES)
    .action(async (opts: import('./roll-hosts').HostRollOptions) => {
      const { runRollHosts } = await import('./roll-hosts');
      done(await runRollHosts(opts, io));
    });
}
