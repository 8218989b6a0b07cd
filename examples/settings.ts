/**
 * Where the example stacks deploy. Everything has an offline default so `cdktf synth` needs nothing;
 * the e2e tests point the variables at their own kube-apiserver.
 */
import * as fs from 'fs';
import * as path from 'path';
import { readInventoryFile } from '../constructs/core/config';
import { HostSpec } from '../constructs/core/model';

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
  /** Scale the static auto-node pool. */
  baseNodes: Number(process.env.METALSLICE_EXAMPLE_BASE_NODES ?? '2'),
};
