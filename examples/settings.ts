/**
 * Where the example stacks deploy. Everything has an offline default so `cdktf synth` needs nothing;
 * the e2e tests point the variables at their own kube-apiserver.
 */
import * as fs from 'fs';
import * as path from 'path';
import { readInventoryFile } from '../constructs/core/input/config';
import { excerpt } from '../constructs/core/base/excerpt';
import { HostSpec } from '../constructs/core/input/model';
import { StateBackend } from '../constructs/plumbing/state-backend';

export const EXAMPLES_DIR = __dirname.endsWith(`${path.sep}dist${path.sep}examples`) ? path.resolve(__dirname, '../../examples') : __dirname;

/** The embedded inventory of the example fleet: 8 compute hosts and 6 dense hosts. */
export function exampleHosts(): readonly HostSpec[] {
  return readInventoryFile(path.join(EXAMPLES_DIR, 'inventory', 'fra1.json'), 'examples/inventory/fra1.json');
}

/** The example tenant cluster's CA (a throwaway CA made for the example; its key was never kept). */
export function exampleCaCertificate(): string {
  const override = process.env.METALSLICE_TENANT_CA_FILE;
  return fs.readFileSync(override ?? path.join(EXAMPLES_DIR, 'team-a-prod-ca.crt'), 'utf8');
}

/**
 * Where the example stacks keep their state: `METALSLICE_STATE=kubernetes` (the default) in Secrets of the
 * `metalslice-state` namespace (`METALSLICE_STATE_NAMESPACE`) on the provider cluster, reached through
 * `configPath` (or `KUBE_CONFIG_PATH` when none is given), shared by every workstation and locked while a deploy
 * runs; `local` keeps cdktf's local state file (one workstation only; the e2e tests that need no shared state).
 */
export function exampleStateBackend(configPath?: string): StateBackend | undefined {
  const kind = process.env.METALSLICE_STATE ?? 'kubernetes';
  if (kind === 'local') return undefined;
  if (kind !== 'kubernetes') {
    process.stderr.write(`metalslice: METALSLICE_STATE must be kubernetes or local (got ${excerpt(kind)})\n`);
    process.exit(2);
  }
  return StateBackend.kubernetes({ namespace: process.env.METALSLICE_STATE_NAMESPACE || undefined, configPath });
}

export const settings = {
  /** kubeconfig of the provider cluster (KubeVirt, Metal3). */
  providerKubeconfig: process.env.METALSLICE_PROVIDER_KUBECONFIG ?? '~/.kube/config',
  /** kubeconfig of the tenant cluster (bootstrap tokens). */
  tenantKubeconfig: process.env.METALSLICE_TENANT_KUBECONFIG ?? '~/.kube/team-a-prod.config',
  tenantEndpoint: process.env.METALSLICE_TENANT_ENDPOINT ?? 'https://10.0.0.10:6443',
  /** Scale the example's worker pool (the e2e tests do +1 / -1). */
  workers: Number(process.env.METALSLICE_EXAMPLE_WORKERS ?? '6'),
  /** The worker pool's bootstrap token lifetime (the join e2e test shortens it to see tokens expire). @default "24h" */
  workerTokenTtl: process.env.METALSLICE_EXAMPLE_TOKEN_TTL || undefined,
  /** How long a worker's drain may take (the e2e tests shorten it to see a volume that never detaches stop a deploy). @default "15m" */
  workerDrainTimeout: process.env.METALSLICE_EXAMPLE_DRAIN_TIMEOUT || undefined,
  /** Scale the static auto-node pool. */
  baseNodes: Number(process.env.METALSLICE_EXAMPLE_BASE_NODES ?? '2'),
};
