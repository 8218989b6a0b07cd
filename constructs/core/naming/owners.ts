/**
 * Every name metalslice derives from the names people write (namespaces, VM names and the Secret and
 * DataVolume names that follow them, construct ids of a config) must belong to one owner only: two
 * tenants whose names concatenate to the same string (`team` + `a-virt`, `team-a` + `virt`) must never
 * share a namespace. Each derived name is claimed by its owner here; a second owner is an error that
 * names both.
 */
import { reservedNamespaceProblem } from './tenancy';
import { IssueCollector } from '../base/errors';
import { AutoNodesSpec, MetalsliceConfig } from '../input/model';
import { nodeEnvironmentNamespace } from './derived';

/** What the VM name check reads of a planned VM (vm/vm.ts PlannedVm): its name, where it lives, who declared it. */
export interface NamedVm {
  readonly name: string;
  readonly namespace: string;
  /** Only VMs that exist now (not a dynamic pool's worst case) hold a name. */
  readonly concrete: boolean;
  /** elastic, static or dynamic (vm/vm.ts VmOrigin). */
  readonly origin: string;
  readonly pool: string;
  readonly cluster: string;
  readonly poolPath: string;
}

interface Owner {
  /** Who the name belongs to, in the user's words: `quota "team-a"`. */
  readonly who: string;
  /** Where that owner is written. */
  readonly path: string;
  /** Owners of one shareable class (the fleet's KubeVirt namespace, a metal3 host namespace) may share a name. */
  readonly shareable?: string;
}

/** One namespace of names (e.g. namespaces of the provider cluster, VMs of one namespace). */
class NameSpace {
  private readonly owners = new Map<string, Owner>();

  constructor(
    private readonly what: string,
    private readonly issues: IssueCollector,
    private readonly fix: string,
  ) {}

  claim(name: string, owner: Owner): void {
    const first = this.owners.get(name);
    if (first === undefined) {
      this.owners.set(name, owner);
      return;
    }
    if (first.who === owner.who) return;
    if (first.shareable !== undefined && first.shareable === owner.shareable) return;
    this.issues.add(owner.path, `${this.what} "${name}" would belong to both ${first.who} (${first.path}) and ${owner.who}: ${this.fix}`);
  }
}

export interface DerivedNamesInput {
  readonly model: MetalsliceConfig;
  /** Quota name -> its namespace and path, as the foundation resolved them. */
  readonly quotas: ReadonlyMap<string, { readonly namespace: string; readonly path: string }>;
  /** The (cluster, provider) pairs that get a node environment, with the path of the first pool using it. */
  readonly environments: readonly { readonly cluster: string; readonly provider: string; readonly path: string }[];
  readonly vms: readonly NamedVm[];
  /** The config's construct ids matter (the config is turned into constructs by name); a construct app picks its own ids. */
  readonly configIds: boolean;
  readonly pathOf: (kind: keyof MetalsliceConfig, index: number) => string;
}

/** Namespaces on the provider cluster: tenants' (quotas, node environments) are exclusive. */
function claimNamespaces(input: DerivedNamesInput, issues: IssueCollector): void {
  const namespaces = new NameSpace('namespace', issues, "rename one of them (or set the quota's namespace explicitly)");
  (input.model.fleets ?? []).forEach((f, i) => {
    if (f.namespace !== undefined)
      namespaces.claim(f.namespace, { who: `fleet "${f.name}" (KubeVirt)`, path: `${input.pathOf('fleets', i)}.namespace`, shareable: 'kubevirt' });
  });
  (input.model.nodeProviders ?? []).forEach((p, i) => {
    if (p.kind === 'metal3')
      namespaces.claim(p.hostNamespace ?? 'metal3', {
        who: `the host pool of provider "${p.name}"`,
        path: `${input.pathOf('nodeProviders', i)}.hostNamespace`,
        shareable: 'metal3-hosts',
      });
  });
  for (const [name, q] of input.quotas) {
    const reserved = reservedNamespaceProblem(q.namespace);
    if (reserved !== undefined) issues.add(`${q.path}.namespace`, reserved);
    namespaces.claim(q.namespace, { who: `quota "${name}"`, path: `${q.path}.namespace` });
  }
  for (const env of input.environments) {
    const namespace = nodeEnvironmentNamespace(env);
    const reserved = reservedNamespaceProblem(namespace);
    if (reserved !== undefined) issues.add(env.path, `the node environment of cluster "${env.cluster}" and provider "${env.provider}": ${reserved}`);
    namespaces.claim(namespace, { who: `the node environment of cluster "${env.cluster}" and provider "${env.provider}"`, path: env.path });
  }
}

/** VM names within each namespace (their cloud-init Secret and root DataVolume are named after them). */
function claimVmNames(input: DerivedNamesInput, issues: IssueCollector): void {
  const byNamespace = new Map<string, NameSpace>();
  for (const vm of input.vms) {
    if (!vm.concrete) continue;
    let names = byNamespace.get(vm.namespace);
    if (!names) byNamespace.set(vm.namespace, (names = new NameSpace(`VM name in namespace ${vm.namespace}`, issues, 'rename one of the pools')));
    names.claim(vm.name, { who: `${vm.origin} pool "${vm.pool}"${vm.origin === 'elastic' ? '' : ` of cluster "${vm.cluster}"`}`, path: vm.poolPath });
  }
}

/** The construct id of an autoNodes entry in a config app: a vcluster.yaml's entries apart from the config's own. */
export function autoNodesConstructId(entry: AutoNodesSpec): string {
  return entry.source !== undefined ? `${entry.cluster}-${entry.provider}-vcluster` : `${entry.cluster}-${entry.provider}`;
}

/** The construct ids a config becomes (from-config.ts): one stack scope for every kind. */
export function claimConfigIds(model: MetalsliceConfig, issues: IssueCollector, pathOf: (kind: keyof MetalsliceConfig, index: number) => string): void {
  const ids = new NameSpace(
    'name',
    issues,
    'names become Terraform resource addresses in one stack, so each must be unique across fleets, quotas, clusters, node pools, providers and private node pools: rename one',
  );
  const kinds = ['fleets', 'quotas', 'clusters', 'nodePools', 'nodeProviders', 'privateNodePools'] as const;
  const singular: Record<(typeof kinds)[number], string> = {
    fleets: 'fleet',
    quotas: 'quota',
    clusters: 'cluster',
    nodePools: 'node pool',
    nodeProviders: 'node provider',
    privateNodePools: 'private node pool',
  };
  for (const kind of kinds) {
    (model[kind] ?? []).forEach((item, i) =>
      ids.claim((item as { name: string }).name, { who: `${singular[kind]} "${(item as { name: string }).name}"`, path: `${pathOf(kind, i)}.name` }),
    );
  }
  (model.autoNodes ?? []).forEach((a, i) => {
    const path = a.source?.entry ?? pathOf('autoNodes', i);
    // Two pairs whose id strings meet also meet in their node environment's namespace: reported there, once.
    ids.claim(autoNodesConstructId(a), {
      who: `the auto nodes of cluster "${a.cluster}" on provider "${a.provider}" at ${path}`,
      path,
      shareable: 'auto-nodes',
    });
  });
}

/** Claims every derived name; collisions become issues naming both owners. */
export function checkDerivedNames(input: DerivedNamesInput, issues: IssueCollector): void {
  claimNamespaces(input, issues);
  claimVmNames(input, issues);
  if (input.configIds) claimConfigIds(input.model, issues, input.pathOf);
}
