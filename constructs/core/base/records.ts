/**
 * The one test of "a JSON object": what every reader of parsed input (a config, a snapshot, a vcluster.yaml, a
 * kubeconfig, an API server's answer) asks before it reads a field.
 */

/** A plain object: not null, not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
