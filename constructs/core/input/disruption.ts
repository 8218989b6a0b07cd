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
