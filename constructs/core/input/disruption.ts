/**
 * How a pool's nodes are taken away: the drain that comes before a node's VM or HostClaim is deleted. The
 * durations are written as bootstrap token lifetimes are (whole hours, minutes and seconds: 10m, 1h30m), so one
 * parser reads both.
 */
import { MAX_POLL_INTERVAL_SECONDS, MAX_ROLLOUT_NODES } from '../base/bounds';
import { describeValue } from '../base/excerpt';
import { bootstrapTokenTtlSeconds } from './join-token';

/**
 * How long a node's drain may take unless its pool says otherwise: long enough for PodDisruptionBudgets to let
 * pods go one by one on a busy node, short enough that a stuck drain stops the deploy the same working hour.
 */
export const DEFAULT_DRAIN_TIMEOUT = '15m';

/** The pod annotation that keeps a pod (and so its node) from being disrupted, as Karpenter reads it. */
export const DO_NOT_DISRUPT_ANNOTATION = 'karpenter.sh/do-not-disrupt';

/** A drain timeout in seconds, or undefined when it is not a duration (10m, 1h30m, 90s). */
export function drainTimeoutSeconds(timeout: string): number | undefined {
  return bootstrapTokenTtlSeconds(timeout);
}

/**
 * How long a replaced or surge node may take to be Ready in its tenant cluster unless the roll says otherwise: a
 * boot, cloud-init and a kubeadm join, with room for a slow image pull.
 */
export const DEFAULT_JOIN_TIMEOUT = '15m';

/**
 * How long a private node's host may take to be released (Metal3 deprovisions and cleans it) and, once claimed
 * again, to be Ready: each of those takes minutes on a real server, and more with a slow firmware or a large disk.
 */
export const DEFAULT_HOST_JOIN_TIMEOUT = '1h';

/** What is wrong with a duration, `zero` saying what a zero one leaves no time for; undefined when it is fine. */
function durationProblem(timeout: string, zero: string): string | undefined {
  const seconds = drainTimeoutSeconds(timeout);
  if (seconds === undefined) return `${describeValue(timeout)} is not a duration: write whole hours, minutes and seconds, like 15m or 1h30m`;
  if (seconds === 0) return `${describeValue(timeout)} ${zero}`;
  return undefined;
}

/** What is wrong with a drain timeout, with the fix; undefined when it is fine. */
export function drainTimeoutProblem(timeout: string): string | undefined {
  return durationProblem(timeout, 'gives the drain no time: give it at least the longest PodDisruptionBudget wait, like 15m');
}

/** What is wrong with a join timeout (how long a replaced node may take to be Ready), with the fix; undefined when it is fine. */
export function joinTimeoutProblem(timeout: string): string | undefined {
  return durationProblem(timeout, `gives a node no time to boot and join: give it at least a boot and a kubeadm join, like ${DEFAULT_JOIN_TIMEOUT}`);
}

/** Seconds between two reads while a drain or a roll waits, unless the command says otherwise. */
export const DEFAULT_POLL_INTERVAL_SECONDS = 2;

/**
 * How long a stack waits for the quota controller to account a new or changed quota (metalslice wait-quota) unless
 * told otherwise: its first count comes within seconds, and a CRD it has not seen yet within its discovery resync.
 */
export const DEFAULT_QUOTA_TIMEOUT = '5m';

/** What is wrong with how long a stack waits for a quota to be accounted, with the fix; undefined when it is fine. */
export function quotaTimeoutProblem(timeout: string): string | undefined {
  return durationProblem(timeout, `gives the quota controller no time to account the quota: give it at least its first count, like ${DEFAULT_QUOTA_TIMEOUT}`);
}

/** Seconds between two reads of a quota while a stack waits for it to be accounted. */
export const DEFAULT_QUOTA_INTERVAL_SECONDS = 1;

/** What is wrong with the seconds between two reads of a wait; undefined when it is fine. */
export function pollIntervalProblem(seconds: number): string | undefined {
  return Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_POLL_INTERVAL_SECONDS
    ? undefined
    : `must be a number of seconds above 0 and at most ${MAX_POLL_INTERVAL_SECONDS} (got ${describeValue(seconds)})`;
}

/**
 * How a pool's nodes are replaced when a change cannot reach a running node in place (shape, node type, image,
 * Kubernetes version, user data): at most `maxSurge` nodes above the pool's count at any moment, at most
 * `maxUnavailable` of its nodes out of service. Cluster API's MachineDeployment defaults, so a roll never lowers
 * the pool's capacity unless the pool says it may.
 */
export interface RolloutSpec {
  /** Extra nodes made before old ones go. @default 1 */
  readonly maxSurge?: number;
  /** Nodes that may be out of service at once. @default 0 */
  readonly maxUnavailable?: number;
}

/** The surge and unavailability a pool rolls with unless it says otherwise. */
export const DEFAULT_ROLLOUT = { maxSurge: 1, maxUnavailable: 0 } as const;

/** How a rollout's two settings are written where they are read: a config's fields, or a command's options. */
export interface RolloutNames {
  readonly maxSurge: string;
  readonly maxUnavailable: string;
  /** A setting with a value, as it is written there (`maxSurge: 1`, `--max-surge 1`). */
  readonly set: (name: string, value: number) => string;
}

/** A rollout's settings as a config (and a construct's props) write them. */
export const ROLLOUT_FIELDS: RolloutNames = { maxSurge: 'maxSurge', maxUnavailable: 'maxUnavailable', set: (name, value) => `${name}: ${value}` };

/**
 * What is wrong with a pool's rollout, as `[field, problem]` pairs with the fix; empty when it is fine. `names`
 * says how the settings are written where they were read (the config's fields, or `roll-nodes`' options); the
 * field of each pair is the config's.
 */
export function rolloutProblems(rollout: RolloutSpec | undefined, names: RolloutNames = ROLLOUT_FIELDS): [field: string, problem: string][] {
  if (rollout === undefined) return [];
  const problems: [string, string][] = [];
  for (const field of ['maxSurge', 'maxUnavailable'] as const) {
    const value = rollout[field];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0 && value <= MAX_ROLLOUT_NODES))
      problems.push([field, `${describeValue(value)} is not a whole number of nodes from 0 to ${MAX_ROLLOUT_NODES}`]);
  }
  const surge = rollout.maxSurge ?? DEFAULT_ROLLOUT.maxSurge;
  const unavailable = rollout.maxUnavailable ?? DEFAULT_ROLLOUT.maxUnavailable;
  if (problems.length === 0 && surge === 0 && unavailable === 0)
    problems.push([
      'maxUnavailable',
      `is 0 with ${names.maxSurge} 0: no node could ever be replaced; allow one surge node (${names.set(names.maxSurge, 1)}) or one node out of service (${names.set(names.maxUnavailable, 1)})`,
    ]);
  return problems;
}
