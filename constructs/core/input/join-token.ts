/**
 * A node's bootstrap token lifetime. Terraform stamps the expiration once, at creation, as
 * `timeadd(timestamp(), ttl)`; the tenant's token cleaner deletes the token when it passes, and the next
 * apply registers it again (same token, new expiration), so the node's user data never changes.
 */

/** How long a node's bootstrap token is valid unless a pool says otherwise: a day to boot and join. */
export const DEFAULT_BOOTSTRAP_TOKEN_TTL = '24h';
import { describeValue } from '../base/excerpt';

// What modules/join's token_ttl accepts too: hours, minutes and seconds, each a whole number.
const TTL = /^(?:[0-9]+[hms])+$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1 };

/** The lifetime in seconds, or undefined when it is not a duration Terraform's timeadd() and the join module both take. */
export function bootstrapTokenTtlSeconds(ttl: string): number | undefined {
  if (!TTL.test(ttl)) return undefined;
  let seconds = 0;
  for (const [, count, unit] of ttl.matchAll(/([0-9]+)([hms])/g)) seconds += Number(count) * UNIT_SECONDS[unit];
  return seconds;
}

/** What is wrong with a bootstrap token lifetime, with the fix; undefined when it is fine. */
export function bootstrapTokenTtlProblem(ttl: string): string | undefined {
  const seconds = bootstrapTokenTtlSeconds(ttl);
  if (seconds === undefined) return `${describeValue(ttl)} is not a duration: write whole hours, minutes and seconds, like 24h, 90m or 1h30m`;
  if (seconds === 0) return `${describeValue(ttl)} would expire the token as it is made: give the node time to boot and join, like 24h`;
  return undefined;
}

/**
 * How a join pins its cluster's CA, and how a drain or a roll checks it reaches that cluster: `sha256:` and 64
 * lower-case hex digits of the CA's public key (kubeadm's discovery.bootstrapToken.caCertHashes).
 */
const CA_HASH = /^sha256:[0-9a-f]{64}$/;

/** What is wrong with a CA hash, with the form it must take; undefined when it is fine. */
export function caHashProblem(hash: string): string | undefined {
  return CA_HASH.test(hash) ? undefined : 'must be sha256: and 64 lower-case hex digits, as a kubeadm join pins a CA';
}
