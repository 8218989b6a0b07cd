/** Small models for planner tests, built from readable parts. */
import * as fs from 'fs';
import * as path from 'path';
import { virtHandlerRequests } from '../../constructs/core/kubevirt/handler';
import { Quantity } from '../../constructs/core/base/quantity';
import { ClusterSpec, FleetSpec, HostSpec, MetalsliceConfig, NodePoolSpec, QuotaSpec } from '../../constructs/core/input/model';

export const REPO_ROOT = path.resolve(__dirname, '../..');
export const EXAMPLE_CA = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'team-a-prod-ca.crt'), 'utf8');

export function hosts(n: number, capacity: HostSpec['capacity'], prefix = 'bm'): HostSpec[] {
  return Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${String(i + 1).padStart(2, '0')}`, capacity }));
}

export function fleet(name: string, hostList: HostSpec[], extra: Partial<FleetSpec> = {}): FleetSpec {
  return { name, hosts: hostList, ...extra };
}

export function quota(name: string, fleetName: string, limits: QuotaSpec['limits'], extra: Partial<QuotaSpec> = {}): QuotaSpec {
  return { name, fleet: fleetName, organization: 'acme', limits, ...extra };
}

/** A cluster whose nodes' software is pinned (preinstalled in their image), as a team would declare one. */
export function cluster(name = 'prod', extra: Partial<ClusterSpec> = {}): ClusterSpec {
  const pinned = `${extra.kubernetesVersion ?? '1.33'}.7`;
  return { name, endpoint: 'https://10.0.0.10:6443', caCertificate: EXAMPLE_CA, bootstrap: { mode: 'preinstalled', kubernetes: pinned }, ...extra };
}

export function pool(name: string, quotaName: string, shape: NodePoolSpec['shape'], count: number, extra: Partial<NodePoolSpec> = {}): NodePoolSpec {
  return { name, quota: quotaName, cluster: 'prod', shape, count, ...extra };
}

export function model(parts: MetalsliceConfig): MetalsliceConfig {
  return { clusters: [cluster()], ...parts };
}

/** A quantity of cpu or memory plus what KubeVirt's virt-handler takes of it on every host: a host that offers VMs exactly `room`. */
export function plusVirtHandler(resource: 'cpu' | 'memory', room: string | number): string {
  return Quantity.parse(room).add(virtHandlerRequests()[resource]).toString();
}

/** A host capacity whose cpu and memory offer VMs exactly these, once virt-handler has its share. */
export function roomForVms(capacity: { cpu: string | number; memory: string | number } & Record<string, string | number>): Record<string, string | number> {
  return { ...capacity, cpu: plusVirtHandler('cpu', capacity.cpu), memory: plusVirtHandler('memory', capacity.memory) };
}
