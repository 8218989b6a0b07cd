/**
 * Upper bounds on every number metalslice takes: the one owner of "bounds before work". Each is far beyond what
 * a real fleet reaches and low enough that the planner's cost, which grows with the number of VMs and hosts,
 * stays in seconds and hundreds of MiB. They are checked before anything is built: in CONFIG_SCHEMA (`maximum`,
 * `maxItems`), in core validation (for construct props) and in the constructs that loop over a count.
 */
import { describeValue } from './excerpt';

/** Hosts in one fleet or Metal3 provider: Kubernetes is tested to 5,000 nodes per cluster, and a fleet is in one cluster. */
export const MAX_HOSTS_PER_FLEET = 5_000;

/**
 * Nodes in one pool (`count`, `quantity`, `maxCapacity`, `limits.nodes`, `minNodes`): a tenant cluster is a
 * Kubernetes cluster too, so 5,000 nodes is its tested size.
 */
export const MAX_NODES_PER_POOL = 5_000;

/**
 * VMs and bare-metal nodes in one plan, over every pool: 5,000 hosts at 4 VMs each. The largest plan within
 * every bound (5,000 hosts, 20,000 VMs) took 30 s and 400 MiB when measured; 100,000 VMs took 13 s and 530 MiB
 * just to be refused by a quota, and 10^9 never finished.
 */
export const MAX_TOTAL_NODES = 20_000;

/** Concurrent live migrations of a quota: KubeVirt's own cluster-wide default is 5; 1,000 is beyond any network. */
export const MAX_LIVE_MIGRATIONS = 1_000;

/**
 * vCPUs per physical CPU (KubeVirt's cpuAllocationRatio; its default is 10). At 100, a vCPU requests 10m of a
 * core, already below what a VM can run on; above it a ratio is a typo (1e12 gives a VM 6m for all its vCPUs).
 */
export const MAX_CPU_ALLOCATION_RATIO = 100;

/** KubeVirt's memoryOvercommit percentage (100: none): 1,000 shows a guest ten times the memory it requests. */
export const MAX_MEMORY_OVERCOMMIT_PERCENT = 1_000;

/** Pods per host (kubelet maxPods; its default is 110, and Kubernetes tests to 110 per node): 2,500 is beyond any kubelet. */
export const MAX_PODS_PER_HOST = 2_500;

/** vCPU sockets or threads per core of one VM: QEMU's q35 machine holds at most 1,024 vCPUs. */
export const MAX_VCPU_TOPOLOGY = 1_024;

/** Pods of one kind in a dynamic pool's preview: each is simulated, and a preview is an example, not a load test. */
export const MAX_PREVIEW_PODS = 100_000;

/**
 * The largest CPU amount of any value (a host, a shape, a quota, a limit), in cores: 5,000 hosts of 200 cores
 * is a million; in millicores that is 10^9, exact in placement's double-precision integers. CPU is counted in millicores, so 1m is the smallest amount (Kubernetes rounds finer values up).
 */
export const MAX_CPU_CORES = 1_000_000;

/**
 * The largest byte amount (memory, disk, hugepages) of one machine (a host, a shape): 4 PiB. Placement counts
 * bytes in exact double-precision integers (below 2^53 = 8 PiB); no machine comes near (9Pi is a typo for 9Ti).
 * Quota and pool limits span a fleet, so they may hold MAX_HOSTS_PER_FLEET times as much (and as many units).
 */
export const MAX_BYTES = 4 * 1024 ** 5;

/** The largest amount of any other resource (GPUs, pods, devices) on one machine. */
export const MAX_UNITS = 1_000_000;

/** Items of a `metalslice pack` instance after expanding demands: each is placed, so 10^12 would never finish. */
export const MAX_PACK_ITEMS = 1_000_000;

/**
 * Nodes a roll may add (`maxSurge`) or take out of service (`maxUnavailable`) at once, in a pool's rollout and in
 * `metalslice roll-nodes`: a fifth of the largest pool; a batch beyond it is a typo, and each node of it is drained
 * and waited for concurrently.
 */
export const MAX_ROLLOUT_NODES = 1_000;

/** Seconds between two reads while a drain or a roll waits: above ten minutes a wait would outlast most timeouts. */
export const MAX_POLL_INTERVAL_SECONDS = 600;

/** A TCP port, as a cluster endpoint names one. */
export const MAX_PORT = 65_535;

/** A host name: a DNS-1123 subdomain is at most 253 characters, and a Node name is one. */
export const MAX_HOST_NAME_CHARS = 253;

/**
 * Why `value` is not a whole number from 0 to `max`, or undefined when it is. `what` names it in the message
 * (`count`, `quantity`), `unit` says what it counts (`nodes`).
 */
export function wholeNumberProblem(value: unknown, max: number, unit: string): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max) return undefined;
  const why = typeof value === 'number' && Number.isInteger(value) && value > max ? `, more than the ${max.toLocaleString('en-US')} metalslice plans` : '';
  return `must be a whole number of ${unit} from 0 to ${max.toLocaleString('en-US')} (got ${describeValue(value)}${why})`;
}

/**
 * Why `value` is not a pool's size (an elastic pool's count, a static pool's quantity, a private pool's
 * count of hosts, a dynamic pool's node bounds, a type's maxCapacity), or undefined when it is: a whole
 * number from 0 to MAX_NODES_PER_POOL. The plan and the constructs ask this one rule.
 */
export function poolSizeProblem(value: unknown, unit: 'nodes' | 'hosts' = 'nodes'): string | undefined {
  return wholeNumberProblem(value, MAX_NODES_PER_POOL, unit);
}

/**
 * Lists and maps nested in one input file (a config, an inventory, a plan): a config is about 8 deep, a plan 6.
 * Parsers and position lookups recurse once per level, so 5,000 levels (10 KB of brackets) overflowed the stack.
 */
export const MAX_NESTING_DEPTH = 100;

/** Items of one list of a config (fleets, quotas, pools, providers...): a plan holds at most MAX_TOTAL_NODES nodes. */
export const MAX_CONFIG_LIST_ITEMS = MAX_TOTAL_NODES;

/** Problems listed in one run: a file that is not a config at all breaks a rule per item; the first few hundred say what is wrong. */
export const MAX_LISTED_PROBLEMS = 300;

/**
 * Lists and maps in one plan JSON, counted before it is parsed: a plan has about 5 per node and host, so one of
 * MAX_TOTAL_NODES nodes and 5,000 hosts has about 130,000. A 3 MB plan of empty objects took 1.5 GB to refuse.
 */
export const MAX_PLAN_CONTAINERS = 500_000;

/**
 * Nodes in a cluster snapshot (`verify --snapshot`), and lists and maps in its file: each Node becomes a KWOK
 * node of the replay, and a snapshot is of one provider cluster (MAX_HOSTS_PER_FLEET hosts, up to 2,500 pods
 * each with about 10 maps).
 */
export const MAX_SNAPSHOT_NODES = MAX_HOSTS_PER_FLEET;
export const MAX_SNAPSHOT_CONTAINERS = 20_000_000;
