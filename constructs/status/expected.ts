/**
 * What the plan says runs: each pool's nodes with the host the plan put them on, the revision they must carry
 * and the VirtualMachine the stack applies for them (rendered as the constructs render it), each quota's
 * ResourceQuota, and each fleet's hosts. compare.ts compares the clusters with this.
 */
import type { Plan } from '../core/plan';
import { nodeEnvironmentNamespace, vmUserDataSecretName } from '../core/naming/derived';
import { renderVirtualMachine } from '../render/kubevirt';
import { resourceQuotaHard, resourceQuotaKey, VM_COUNT_QUOTA_KEY } from '../render/quota';
import type { KubeObject } from '../render/labels';

/** One node the plan declares. */
export interface ExpectedNode {
  /** Its name: the VM's or HostClaim's, and its tenant Node's. */
  readonly name: string;
  /** The host the plan put it on (null: the scheduler picks among the pool's hosts). */
  readonly plannedHost: string | null;
  /** The VirtualMachine the stack applies. @default - none (a HostClaim) */
  readonly vm?: KubeObject;
}

/** One pool as the plan declares it. */
export interface ExpectedPool {
  /** The pool's name. */
  readonly name: string;
  /** The tenant cluster its nodes join. */
  readonly cluster: string;
  /** `elastic`, `static`, `dynamic` or `private`. */
  readonly kind: 'elastic' | 'static' | 'dynamic' | 'private';
  /** Its VMs are VirtualMachines; else HostClaims. */
  readonly machine: 'VirtualMachine' | 'HostClaim';
  /** The namespace of its VMs or HostClaims. */
  readonly namespace: string;
  /** The revision each VM (or HostClaim, as its label) carries. @default - none */
  readonly revision?: string;
  /** Its nodes; none for a dynamic pool (its autoscaler names them). */
  readonly nodes: readonly ExpectedNode[];
}

/** A quota's ResourceQuota as the plan writes and counts it. */
export interface ExpectedQuota {
  /** The quota's name. */
  readonly name: string;
  /** Its namespace. */
  readonly namespace: string;
  /** spec.hard as the stack writes it. */
  readonly hard: Readonly<Record<string, string>>;
  /** status.used as the ResourceQuota counts it when every planned VM runs. */
  readonly use: Readonly<Record<string, string>>;
}

/** A fleet's hosts. */
export interface ExpectedFleet {
  /** The fleet's name. */
  readonly name: string;
  /** The hosts of the inventory the plan counts on (not those it left out as unusable). */
  readonly hosts: readonly string[];
}

/** The whole expectation. */
export interface Expected {
  /** Every pool with VMs or HostClaims, in the plan's order. */
  readonly pools: readonly ExpectedPool[];
  /** Every quota's ResourceQuota. */
  readonly quotas: readonly ExpectedQuota[];
  /** Every fleet's hosts. */
  readonly fleets: readonly ExpectedFleet[];
  /** Every namespace the plan's VMs and HostClaims live in: a VM of the fleet found there that no pool planned is an orphan. */
  readonly namespaces: ReadonlySet<string>;
}

/**
 * What the ResourceQuota counts as used when every planned VM runs, under the keys it limits: the report's
 * allocation (what the quota ledger charged, exact quantities) and the VM count.
 */
function quotaUse(allocated: Readonly<Record<string, string>>, vms: number, hard: Readonly<Record<string, string>>): Record<string, string> {
  const use: Record<string, string> = {};
  for (const [name, value] of Object.entries(allocated)) if (resourceQuotaKey(name) in hard) use[resourceQuotaKey(name)] = value;
  if (VM_COUNT_QUOTA_KEY in hard) use[VM_COUNT_QUOTA_KEY] = String(vms);
  return use;
}

/** The plan's pools, quotas and fleets as status compares them. */
export function expectedOf(plan: Plan): Expected {
  const selectorOf = new Map(plan.fleets.map((f) => [f.name, f.spec.hostSelector]));
  const pools: ExpectedPool[] = [];
  const vmPools = [
    ...plan.pools.map((p) => ({
      kind: 'elastic' as const,
      name: p.name,
      cluster: p.cluster,
      path: p.path,
      namespace: p.namespace,
      vms: p.vms,
    })),
    ...plan.autoPools
      .filter((p) => p.providerKind === 'kubevirt' && p.quota !== undefined)
      .map((p) => {
        const quota = plan.quotas.find((q) => q.name === p.quota);
        return { kind: p.mode, name: p.name, cluster: p.cluster, path: p.path, namespace: quota?.namespace ?? '', vms: p.vms ?? [] };
      }),
  ];
  for (const p of vmPools) {
    const revision = plan.rollouts.get(p.path)?.revision;
    const made = p.vms.filter((vm) => vm.concrete && vm.madeByNodeTemplate !== true);
    const nodes = made.map((vm) => ({
      name: vm.name,
      plannedHost: vm.placement === 'planned' ? (vm.host ?? null) : null,
      vm: renderVirtualMachine(vm, { userDataSecret: vmUserDataSecretName(vm.name), hostSelector: selectorOf.get(vm.fleet), revision }),
    }));
    // A pool whose nodes a node template or an autoscaler makes is counted, not listed node by node.
    const listed = p.kind !== 'dynamic' && made.length === p.vms.filter((vm) => vm.concrete).length;
    pools.push({
      kind: listed ? p.kind : 'dynamic',
      name: p.name,
      cluster: p.cluster,
      machine: 'VirtualMachine',
      namespace: p.namespace,
      revision,
      nodes: listed ? nodes : [],
    });
  }
  for (const { spec, pool } of plan.privatePools) {
    const namespace = nodeEnvironmentNamespace({ cluster: spec.cluster, provider: spec.provider });
    const revision = plan.rollouts.get(pool.path)?.revision;
    pools.push({
      kind: 'private',
      name: spec.name,
      cluster: spec.cluster,
      machine: 'HostClaim',
      namespace,
      ...(revision !== undefined ? { revision } : {}),
      nodes: pool.nodes.map((n) => ({ name: n.name, plannedHost: n.host ?? null })),
    });
  }
  const quotas = plan.quotas.map((q) => {
    const hard = resourceQuotaHard(q);
    const allocated = plan.report.quotas.find((r) => r.name === q.name)?.allocated ?? {};
    const vms = plan.vms.filter((vm) => vm.concrete && vm.quota === q.name).length;
    return { name: q.name, namespace: q.namespace, hard, use: quotaUse(allocated, vms, hard) };
  });
  // The hosts the plan counts on; those it already left out (cordoned, NotReady, tainted) are no news.
  const fleets = plan.fleets.map((f) => ({ name: f.name, hosts: f.hosts.map((h) => h.name).sort() }));
  const namespaces = new Set(pools.map((p) => p.namespace).filter((n) => n !== ''));
  return { pools, quotas, fleets, namespaces };
}
