/**
 * How a pool's nodes are taken away: the drain that comes before a node's VM or HostClaim is deleted. The
 * durations are written as bootstrap token lifetimes are (whole hours, minutes and seconds: 10m, 1h30m), so one
 * parser reads both.
 */
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

/** What is wrong with a drain timeout, with the fix; undefined when it is fine. */
export function drainTimeoutProblem(timeout: string): string | undefined {
  const seconds = drainTimeoutSeconds(timeout);
  if (seconds === undefined) return `${describeValue(timeout)} is not a duration: write whole hours, minutes and seconds, like 15m or 1h30m`;
  if (seconds === 0) return `${describeValue(timeout)} gives the drain no time: give it at least the longest PodDisruptionBudget wait, like 15m`;
  return undefined;
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

/** What is wrong with a pool's rollout, as `[field, problem]` pairs with the fix; empty when it is fine. */
export function rolloutProblems(rollout: RolloutSpec | undefined): [field: string, problem: string][] {
  if (rollout === undefined) return [];
  const problems: [string, string][] = [];
  for (const field of ['maxSurge', 'maxUnavailable'] as const) {
    const value = rollout[field];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0 && value <= 1000))
      problems.push([field, `${describeValue(value)} is not a whole number of nodes from 0 to 1000`]);
  }
  const surge = rollout.maxSurge ?? DEFAULT_ROLLOUT.maxSurge;
  const unavailable = rollout.maxUnavailable ?? DEFAULT_ROLLOUT.maxUnavailable;
  if (problems.length === 0 && surge === 0 && unavailable === 0)
    problems.push([
      'maxUnavailable',
      'is 0 with maxSurge 0: no node could ever be replaced; allow one surge node (maxSurge: 1) or one node out of service (maxUnavailable: 1)',
    ]);
  return problems;
}
