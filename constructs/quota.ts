/**
 * ElasticQuota: a CPU / memory / disk (and GPU) slice of a fleet for one organisation, enforced by a
 * ResourceQuota in the quota's own namespace, with RBAC for its consumers.
 */
import { ITerraformDependable, Lazy, Token } from 'cdktf';
import { NamespaceV1 } from './providers/kubernetes/namespace-v1';
import { RoleBindingV1 } from './providers/kubernetes/role-binding-v1';
import { RoleV1 } from './providers/kubernetes/role-v1';
import { Construct, IConstruct } from 'constructs';
import { CapacityPlan, IPlanContributor, ModelBuilder } from './capacity-plan';
import { QuotaSpec } from './core/input/model';
import { PlannedQuota } from './core/plan';
import { quotaNamespace, RESOURCE_QUOTA_NAME } from './core/naming/derived';
import { ResourceInput } from './core/base/resources';
import { IElasticFleet } from './fleet';
import { consumerSubjects, renderConsumerRole, renderQuotaNamespace, renderResourceQuota, resourceQuotaHard } from './render/quota';
import { requireProps } from './plumbing/props';
import { KubectlManifest } from './plumbing/kubectl';
import { literalYaml } from './plumbing/literal';
import { manifestTakenOver } from './plumbing/user-data-secret';
import { stackKubeconfig } from './plumbing/stack-provider';
import { KUBECONFIG_FROM_ENVIRONMENT, metalsliceGuards } from './plumbing/metalslice-command';
import { TerraformData } from './plumbing/terraform-data';

/** A quota, declared here or imported from the provider team's stack. */
export interface IElasticQuota extends IConstruct {
  /** The quota's name. */
  readonly quotaName: string;
  /** What objects the quota counts must wait for in the same apply (the accounted ResourceQuota); none when imported. */
  readonly admission?: ITerraformDependable;
  /** What objects in the quota's namespace that it does not count wait for in the same apply (the namespace); none when imported. */
  readonly namespaceReady?: ITerraformDependable;
  /** The namespace the quota's VMs live in. */
  readonly namespace: string;
  /** The fleet the quota is a slice of. */
  readonly fleet: IElasticFleet;
}

/** Props of an ElasticQuota. */
export interface ElasticQuotaProps {
  /** The fleet the quota is a slice of. */
  readonly fleet: IElasticFleet;
  /** The tenant organisation that owns the quota; by default its group may manage the VMs. */
  readonly organization: string;
  /** cpu, memory (required), disk (as requests.storage), extended resources such as nvidia.com/gpu. */
  readonly limits: ResourceInput;
  /** @default - the construct id */
  readonly name?: string;
  /** Most VMs in the quota (count/virtualmachines.kubevirt.io). @default - no count limit */
  readonly maxVirtualMachines?: number;
  /** @default - `<organization>-<name>` */
  readonly namespace?: string;
  /** Users, or groups as `group:NAME`, who may manage VMs in the namespace. @default - the organisation's group */
  readonly consumers?: readonly string[];
  /** Allow `system:` users and groups among consumers (refused otherwise); the plan warns. @default false */
  readonly allowSystemConsumers?: boolean;
  /**
   * Live migrations of the quota's VMs that may run at once: a migrating VM holds two launcher pods, both
   * counted by the ResourceQuota, so the plan keeps room for this many of its largest migratable VMs. @default 1
   */
  readonly liveMigrations?: number;
}

function toSpec(name: string, props: ElasticQuotaProps): QuotaSpec {
  return {
    name,
    fleet: props.fleet.fleetName,
    organization: props.organization,
    limits: props.limits,
    maxVirtualMachines: props.maxVirtualMachines,
    namespace: props.namespace,
    consumers: props.consumers,
    allowSystemConsumers: props.allowSystemConsumers,
    liveMigrations: props.liveMigrations,
  };
}

/** What a declared and an imported quota share: identity, namespace, and their part of the plan's model. */
abstract class QuotaBase extends Construct implements IElasticQuota, IPlanContributor {
  readonly quotaName: string;
  readonly namespace: string;
  readonly fleet: IElasticFleet;
  private readonly spec: QuotaSpec;

  constructor(scope: Construct, id: string, props: ElasticQuotaProps) {
    super(scope, id);
    requireProps(this, props, ['fleet', 'organization', 'limits'], {
      fleet: 'the ElasticFleet this quota slices',
      limits: 'at least cpu and memory, e.g. {cpu: 64, memory: "256Gi"}',
    });
    this.quotaName = props.name ?? id;
    this.fleet = props.fleet;
    this.spec = toSpec(this.quotaName, props);
    this.namespace = quotaNamespace({ namespace: props.namespace, organization: props.organization, name: this.quotaName });
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('quotas', this.spec, this);
  }
}

/** An Elastic Quota: a namespace, a ResourceQuota the plan proved fits the fleet, and RBAC for its consumers. */
export class ElasticQuota extends QuotaBase {
  /** The quota's ResourceQuota, once the quota controller has accounted it: what objects it counts wait for in the same apply. */
  readonly admission: ITerraformDependable;
  /** The quota's namespace: what objects it does not count (a node's cloud-init Secret) wait for in the same apply. */
  readonly namespaceReady: ITerraformDependable;

  /** A quota the provider team declared in its own stack: planned against, synthesizes nothing. */
  static fromQuotaAttributes(scope: Construct, id: string, props: ElasticQuotaProps): IElasticQuota {
    return new ImportedQuota(scope, id, props);
  }

  constructor(scope: Construct, id: string, props: ElasticQuotaProps) {
    super(scope, id, props);
    const planned = (): PlannedQuota => {
      const quota = CapacityPlan.require(this).plannedQuota(this.quotaName);
      if (!quota) throw new Error(`[${this.node.path}] quota "${this.quotaName}" is not in the plan`);
      return quota;
    };
    const labels = Token.asStringMap(Lazy.anyValue({ produce: () => renderQuotaNamespace(planned()).metadata.labels }));
    const ns = new NamespaceV1(this, 'Namespace', { metadata: { name: this.namespace, labels } });
    this.namespaceReady = ns;
    // Applied server-side: a create whose answer was lost leaves nothing the next apply stops on, and a plan does
    // not fetch the cluster's OpenAPI document for it. Nothing needs it gone first: its VMs go before it.
    const quota = new KubectlManifest(this, 'Resource', {
      yamlBody: Lazy.stringValue({ produce: () => literalYaml(renderResourceQuota(planned())) }),
      dependsOn: [ns],
      waitForDeletion: false,
      forgetPrevious: manifestTakenOver(this),
    });
    // The API server refuses every object a quota counts until the quota controller has accounted the quota, and
    // counts against the old limits until it has accounted a change: VMs in the same apply wait for this.
    this.admission = new QuotaAccounted(this, 'Accounted', quota, this.namespace, () => resourceQuotaHard(planned())).resource;
    // Lazy values reach Terraform as produced, so they are written in the provider's snake_case.
    const role = new RoleV1(this, 'ConsumerRole', {
      metadata: { name: 'metalslice-consumer', namespace: ns.metadata.name, labels },
      rule: Lazy.anyValue({
        produce: () =>
          (renderConsumerRole(planned()).rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[]).map((r) => ({
            api_groups: r.apiGroups,
            resources: r.resources,
            verbs: r.verbs,
          })),
      }),
    });
    new RoleBindingV1(this, 'ConsumerRoleBinding', {
      metadata: { name: 'metalslice-consumer', namespace: ns.metadata.name, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.metadata.name },
      subject: Lazy.anyValue({ produce: () => consumerSubjects(planned()).map((s) => ({ kind: s.kind, name: s.name, api_group: s.apiGroup })) }),
    });
  }
}

class ImportedQuota extends QuotaBase {}

/**
 * The command a quota's accounting runs, for `sh -c`: skipped with METALSLICE_QUOTA_WAIT=skip, refused when metalslice
 * is not on PATH, run with the stack's kubeconfig and context. Every value comes through the environment, so nothing
 * in a name or a path is parsed by the shell.
 */
const WAIT_QUOTA_COMMAND = [
  ...metalsliceGuards(
    'METALSLICE_QUOTA_WAIT',
    'wait for quota $METALSLICE_NAMESPACE/$METALSLICE_QUOTA',
    'deploy without that wait (when nothing in this deploy is counted by quota $METALSLICE_NAMESPACE/$METALSLICE_QUOTA)',
    'what it counts may be refused until the quota controller has accounted it',
  ),
  ...KUBECONFIG_FROM_ENVIRONMENT,
  'exec metalslice wait-quota "$METALSLICE_QUOTA" --namespace "$METALSLICE_NAMESPACE" $${cfg:+--kubeconfig "$cfg"} $${ctx:+--context "$ctx"}',
].join('\n');

/**
 * A quota's accounting: a `terraform_data` made again whenever the quota's limits change, whose create runs
 * `metalslice wait-quota` on the provider cluster (the stack's kubeconfig and context, as its kubernetes provider
 * reads them), after the ResourceQuota is applied.
 */
class QuotaAccounted extends Construct {
  readonly resource: TerraformData;

  constructor(scope: Construct, id: string, quota: ITerraformDependable, namespace: string, hard: () => Record<string, string>) {
    super(scope, id);
    let found: ReturnType<typeof stackKubeconfig> | undefined;
    const providerCluster = () => (found ??= stackKubeconfig(this));
    this.resource = new TerraformData(this, 'Resource', {
      // resourceQuotaHard sorts its keys, so the same limits are the same text in every synth.
      triggersReplace: { hard: Lazy.stringValue({ produce: () => JSON.stringify(hard()) }) },
      input: {
        namespace,
        name: RESOURCE_QUOTA_NAME,
        kubeconfig: Lazy.stringValue({ produce: () => providerCluster().configPath }),
        context: Lazy.stringValue({ produce: () => providerCluster().configContext }),
      },
      dependsOn: [quota],
      provisioners: [
        {
          type: 'local-exec',
          interpreter: ['/bin/sh', '-c'],
          command: WAIT_QUOTA_COMMAND,
          environment: {
            METALSLICE_NAMESPACE: '${self.input.namespace}',
            METALSLICE_QUOTA: '${self.input.name}',
            METALSLICE_KUBECONFIG: '${self.input.kubeconfig}',
            METALSLICE_CONTEXT: '${self.input.context}',
          },
        },
      ],
    });
  }
}
