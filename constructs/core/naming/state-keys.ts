/**
 * Where each stack's Terraform state lives: the one owner of the rule that turns a stack's name into the key of
 * its state in a shared backend, and of the limits each backend puts on that key. The key is the stack's name
 * behind a fixed prefix, nothing else: two stacks never share a key, and a stack keeps its key in every synth
 * (adding or removing a pool moves no other stack's state).
 */
import { excerpt } from '../base/excerpt';
import { dns1123SubdomainProblem } from './kube-names';

/**
 * The namespace the kubernetes backend keeps states in unless told otherwise. It is the platform's: no quota or
 * node environment may take it, since a tenant's Role there would read every state (and the bootstrap tokens in it).
 */
export const DEFAULT_STATE_NAMESPACE = 'metalslice-state';

/** The backends metalslice keys by stack name. */
export type StateBackendKind = 'kubernetes' | 's3' | 'pg';

/**
 * The OpenTofu/Terraform workspace metalslice's stacks use. The kubernetes backend puts it in the state
 * Secret's name (`tfstate-<workspace>-<secret_suffix>`).
 */
export const STATE_WORKSPACE = 'default';

// Postgres truncates identifiers to NAMEDATALEN - 1 bytes: two longer schema names could become one.
const PG_IDENTIFIER_BYTES = 63;
// S3 object keys are at most 1024 bytes of UTF-8.
const S3_KEY_BYTES = 1024;

/**
 * The key of the state of the stack named `stackName`: the kubernetes backend's `secret_suffix`, the S3 object
 * key, or the pg backend's `schema_name`.
 */
export function stateKey(kind: StateBackendKind, stackName: string, keyPrefix: string): string {
  return kind === 's3' ? `${keyPrefix}${stackName}.tfstate` : `${keyPrefix}${stackName}`;
}

/** The name of the Secret the kubernetes backend keeps a state in (OpenTofu's `createSecretName`). */
export function kubernetesStateSecretName(secretSuffix: string): string {
  return `tfstate-${STATE_WORKSPACE}-${secretSuffix}`;
}

/** The name of the Lease that locks that state (OpenTofu's `createLeaseName`). */
export function kubernetesStateLeaseName(secretSuffix: string): string {
  return `lock-${kubernetesStateSecretName(secretSuffix)}`;
}

/** Why `key` cannot key a state in a `kind` backend, or undefined when it can. */
export function stateKeyProblem(kind: StateBackendKind, key: string): string | undefined {
  switch (kind) {
    case 'kubernetes':
      return kubernetesSuffixProblem(key);
    case 's3':
      if (key.startsWith('/')) return `the S3 key ${excerpt(key)} starts with "/", which the s3 backend refuses: drop the leading "/" from keyPrefix`;
      if (Buffer.byteLength(key) > S3_KEY_BYTES) return `the S3 key is ${Buffer.byteLength(key)} bytes long; S3 allows at most ${S3_KEY_BYTES}`;
      return undefined;
    case 'pg':
      if (Buffer.byteLength(key) > PG_IDENTIFIER_BYTES) {
        return `the pg schema name ${excerpt(key)} is ${Buffer.byteLength(key)} bytes long; Postgres cuts identifiers at ${PG_IDENTIFIER_BYTES}, so two stacks could share a schema: shorten the stack's name or keyPrefix`;
      }
      return undefined;
  }
}

/**
 * The kubernetes backend writes the suffix into the Secret's name (`tfstate-default-<suffix>`, a DNS-1123
 * subdomain, which OpenTofu checks only when it first reads or writes the state) and into the Secret's and
 * the Lease's `tfstateSecretSuffix` label (a label value: at most 63 characters, which the API server refuses
 * at the first apply). Both are checked here, at synth.
 */
function kubernetesSuffixProblem(suffix: string): string | undefined {
  const problem = dns1123SubdomainProblem(suffix, 63);
  if (problem === undefined) return undefined;
  return `the kubernetes backend's secret_suffix ${excerpt(suffix)} ${problem}: it names the state Secret (tfstate-${STATE_WORKSPACE}-<suffix>) and is the value of its tfstateSecretSuffix label; shorten or rename the stack (or keyPrefix)`;
}
