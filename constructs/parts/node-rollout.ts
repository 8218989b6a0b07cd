/**
 * NodeRollout: a pool's nodes replaced when they cannot take a change in place (shape, image, Kubernetes version,
 * labels, taints: a new revision, core/plan/change/revision.ts).
 *
 * Terraform updates each VM object and cloud-init Secret in place; KubeVirt only stages a running VM's new spec
 * (`RestartRequired`), and a node reads its user data once, when it boots. So each pool holds one `terraform_data`
 * whose `triggers_replace` is the pool's revision: when it changes, Terraform makes it again, after every VM,
 * Secret and token of the pool is applied, and its create-time provisioner runs `metalslice roll-nodes`
 * (constructs/cli/roll.ts). That makes `maxSurge` copies of the new VM first and waits for them to join, then
 * drains, stops and starts each old node on its new revision (a fresh root disk, cloud-init again), `maxSurge +
 * maxUnavailable` at a time, waiting for each to join again, then drains and deletes the copies. The roller finds
 * the pool's VMs by label and what to replace by each VMI's revision, so scaling a pool changes nothing here, a
 * roll cut short is finished by the next deploy (the resource was never recorded, or is tainted), and a roll
 * with nothing left to replace is a few reads.
 *
 * The roll is the one writer of a stopped node's runStrategy: it labels the VM it stops (ROLL_STOPPED_LABEL), a
 * `kubernetes_resources` data source of the pool lists those VMs when Terraform plans, and each VM is applied
 * `Halted` while it is listed. A deploy resumed after a roll was cut short (its state may miss the VM writes of
 * the last 20 s) so never starts a node the roll stopped on the disk it is replacing; the roll starts it on a fresh
 * one. Such a VM shows once more in the plan after the roll (back to `Always`, in place, restarting nothing).
 *
 * The pools of a stack roll one after another (each waits for the one declared before it), so the peak of a
 * deploy is the fleet at rest plus one pool's surge: what the plan proves.
 */
import { dependable, ITerraformDependable, Lazy, TerraformStack } from 'cdktf';
import { TerraformData } from '../plumbing/terraform-data';
import { Construct } from 'constructs';
import { DEFAULT_DRAIN_TIMEOUT } from '../core/input/disruption';
import type { PoolRollout } from '../core/plan';
import { DrainedCluster } from './node-drain';
import { caCertHash } from '../render/cloud-init';
import { stackKubeconfig } from '../plumbing/stack-provider';
import { KubernetesResources } from '../plumbing/kube-resources';
import { templateLiteral } from '../plumbing/literal';
import { metalsliceGuards } from '../plumbing/metalslice-command';
import { CLUSTER_LABEL, POOL_LABEL, REVISION_LABEL, ROLL_STOPPED_LABEL } from '../core/naming/derived';
import { KUBEVIRT_API_VERSION } from '../render/kubevirt';
import { METAL3_API_VERSION } from '../render/metal3';

/** Props of a NodeRollout. */
export interface NodeRolloutProps {
  /** The tenant cluster the nodes join (drains and joins are read there). */
  readonly cluster: DrainedCluster;
  /** The namespace of the pool's VMs (its quota's). */
  readonly namespace: string;
  /** The pool's name (its VMs carry it as a label). */
  readonly poolName: string;
  /** The pool's node names (resolved at synth): the roll leaves other VMs of the pool (being removed) alone. */
  readonly nodes: () => readonly string[];
  /** How long draining one node may take. @default "15m" */
  readonly drainTimeout?: string;
  /** The pool's rollout, as the plan proved it (resolved at synth). */
  readonly rollout: () => PoolRollout | undefined;
  /**
   * A private pool's HostClaim at the revision, less what is a node's own (`labels`, `spec`: hostSelector, image,
   * poweredOn; resolved at synth): its nodes are hosts, rolled by `roll-hosts`. @default - the pool's nodes are VMs
   */
  readonly hostClaim?: () => HostClaimTemplate;
}

/** A private pool's HostClaim at its revision, less what is a node's own: what `roll-hosts --claim` takes. */
export interface HostClaimTemplate {
  /** The claim's labels (its pool, cluster, node type and revision). */
  readonly labels: Record<string, string>;
  /** `hostSelector`, `image` and `poweredOn`; the roll adds the node's user data Secret and failure domain. */
  readonly spec: Record<string, unknown>;
}

/** `value` as an HCL string literal (inside an interpolation): quotes, backslashes and template openers escaped. */
function hclString(value: string): string {
  return `"${templateLiteral(value.replace(/\\/g, '\\\\').replace(/"/g, '\\"'))}"`;
}

/**
 * The command, for `sh -c`. Every value comes through the environment from the resource's own input, so nothing
 * in a name or a path is parsed by the shell. `$${` is Terraform's escape for a literal `${`.
 */
/** The command of a roll: `roll-nodes` for VMs, `roll-hosts` (with the pool's claim) for hosts. */
function rollCommand(hosts: boolean): string {
  const what = hosts ? 'hosts' : 'nodes';
  return [
    ...metalsliceGuards(
      'METALSLICE_ROLL',
      'roll of pool $METALSLICE_POOL',
      `leave the running ${what} of pool $METALSLICE_POOL on their old revision`,
      `its running ${what} keep their old revision`,
    ),
    'cfg="$${METALSLICE_ROLL_KUBECONFIG:-$${KUBE_CONFIG_PATH:-}}"',
    'ctx="$${METALSLICE_ROLL_CONTEXT:-$${KUBE_CTX:-}}"',
    'tcfg="$${METALSLICE_KUBECONFIG:-$${KUBE_CONFIG_PATH:-}}"',
    'tctx="$${METALSLICE_CONTEXT:-$${KUBE_CTX:-}}"',
    `exec metalslice roll-${what} --namespace "$METALSLICE_NAMESPACE" --pool "$METALSLICE_POOL" --cluster "$METALSLICE_CLUSTER" --nodes "$METALSLICE_NODES" --revision "$METALSLICE_REVISION"${hosts ? ' --claim "$METALSLICE_CLAIM"' : ''} --max-surge "$METALSLICE_MAX_SURGE" --max-unavailable "$METALSLICE_MAX_UNAVAILABLE" --drain-timeout "$METALSLICE_DRAIN_TIMEOUT" --cluster-ca-hash "$METALSLICE_CLUSTER_CA_HASH" $\${cfg:+--kubeconfig "$cfg"} $\${ctx:+--context "$ctx"} $\${tcfg:+--tenant-kubeconfig "$tcfg"} $\${tctx:+--tenant-context "$tctx"}`,
  ].join('\n');
}

/** A JSON object, as a Terraform expression, of the entries `{key = <JSON text or null>, ...}` that are not null. */
function jsonObject(entries: string): string {
  return `format("{%s}", join(",", [for k, v in {${entries}} : format("%s:%s", jsonencode(k), v) if v != null]))`;
}

/** A value read from claim `c` (`path` under it) as JSON text, or null when the claim has none. */
const field = (path: string): string => `try(c.${path}, null) == null ? null : jsonencode(c.${path})`;

/**
 * HostClaim `c` (an object of the pool's `kubernetes_resources` list) as JSON text with the fields and the shape
 * render/metal3.ts `renderHostClaim` gives a claim: what the stack applied last, so applying it again changes nothing.
 * The data source conforms each object to the CRD's schema (every field it does not set is null, `customDeploy:
 * {method: null}` among them), which the API server would refuse: only what is set is kept.
 */
const CLAIM_AS_IS = jsonObject(
  [
    `apiVersion = ${field('apiVersion')}`,
    `kind = ${field('kind')}`,
    `metadata = jsonencode({name = c.metadata.name, namespace = c.metadata.namespace, labels = c.metadata.labels})`,
    `spec = ${jsonObject(
      [
        `hostSelector = ${jsonObject(
          [
            `inNamespace = ${field('spec.hostSelector.inNamespace')}`,
            `matchLabels = ${field('spec.hostSelector.matchLabels')}`,
            `matchExpressions = try(c.spec.hostSelector.matchExpressions, null) == null ? null : jsonencode([for e in c.spec.hostSelector.matchExpressions : {key = e.key, operator = e.operator, values = e.values == null ? [] : e.values}])`,
          ].join(', '),
        )}`,
        'image = jsonencode({for k, v in c.spec.image : k => v if v != null})',
        'userData = jsonencode({for k, v in c.spec.userData : k => v if v != null})',
        `poweredOn = ${field('spec.poweredOn')}`,
        `failureDomain = ${field('spec.failureDomain')}`,
      ].join(', '),
    )}`,
  ].join(', '),
);

/** The last rollout declared in each stack: the next one waits for it. */
const lastInStack = new WeakMap<TerraformStack, NodeRollout>();

/** The roll of one pool's nodes onto their new revision. */
export class NodeRollout extends Construct {
  private readonly resource: TerraformData;
  /** The pool's VMs the roll has stopped (VM pools), or its HostClaims not at the revision (host pools), as Terraform reads them when it plans. */
  private readonly stopped: KubernetesResources;
  /** Host pools: the holds (ConfigMaps) of the nodes whose claim the roll has released, as Terraform reads them when it plans. */
  private readonly held?: KubernetesResources;

  constructor(scope: Construct, id: string, props: NodeRolloutProps) {
    super(scope, id);
    const stack = TerraformStack.of(this);
    const before = lastInStack.get(stack);
    lastInStack.set(stack, this);
    const planned = (): PoolRollout => {
      const rollout = props.rollout();
      if (!rollout) throw new Error(`[${this.node.path}] pool "${props.poolName}" has no rollout in the plan`);
      return rollout;
    };
    let found: ReturnType<typeof stackKubeconfig> | undefined;
    const providerCluster = () => (found ??= stackKubeconfig(this));
    const kubeconfig = props.cluster.kubeconfigPath ?? '';
    const context = props.cluster.kubeconfigContext ?? '';
    const hosts = props.hostClaim !== undefined;
    const poolSelector = `${POOL_LABEL}=${props.poolName},${CLUSTER_LABEL}=${props.cluster.clusterName}`;
    this.stopped = hosts
      ? new KubernetesResources(this, 'Unrolled', {
          apiVersion: METAL3_API_VERSION,
          kind: 'HostClaim',
          namespace: props.namespace,
          labelSelector: Lazy.stringValue({ produce: () => `${poolSelector},${REVISION_LABEL}!=${planned().revision}` }),
        })
      : new KubernetesResources(this, 'Stopped', {
          apiVersion: KUBEVIRT_API_VERSION,
          kind: 'VirtualMachine',
          namespace: props.namespace,
          labelSelector: `${poolSelector},${ROLL_STOPPED_LABEL}=true`,
        });
    if (hosts)
      this.held = new KubernetesResources(this, 'Held', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: props.namespace,
        labelSelector: `${POOL_LABEL}=${props.poolName},${ROLL_STOPPED_LABEL}=true`,
      });
    this.resource = new TerraformData(this, 'Resource', {
      triggersReplace: { revision: Lazy.stringValue({ produce: () => planned().revision }) },
      input: {
        namespace: props.namespace,
        pool: props.poolName,
        cluster: props.cluster.clusterName,
        revision: Lazy.stringValue({ produce: () => planned().revision }),
        drain_timeout: props.drainTimeout ?? DEFAULT_DRAIN_TIMEOUT,
        kubeconfig,
        context,
        ca_hash: caCertHash(props.cluster.caCertificate),
        // Where the stack's VMs are: the kubeconfig its kubernetes provider reads.
        provider_kubeconfig: Lazy.stringValue({ produce: () => providerCluster().configPath }),
        provider_context: Lazy.stringValue({ produce: () => providerCluster().configContext }),
        // A literal: an image URL may hold `${` or `%{`, which Terraform would read as a template.
        ...(props.hostClaim ? { claim: Lazy.stringValue({ produce: () => templateLiteral(JSON.stringify(props.hostClaim!())) }) } : {}),
      },
      dependsOn: before ? [before.resource] : [],
      provisioners: [
        {
          type: 'local-exec',
          interpreter: ['/bin/sh', '-c'],
          command: rollCommand(hosts),
          environment: {
            METALSLICE_NAMESPACE: '${self.input.namespace}',
            METALSLICE_POOL: '${self.input.pool}',
            METALSLICE_REVISION: '${self.input.revision}',
            METALSLICE_CLUSTER: '${self.input.cluster}',
            // Not in the input: these change when the pool scales, and a provisioner's arguments are no planned change.
            METALSLICE_MAX_SURGE: Lazy.stringValue({ produce: () => String(planned().maxSurge) }),
            METALSLICE_MAX_UNAVAILABLE: Lazy.stringValue({ produce: () => String(planned().maxUnavailable) }),
            METALSLICE_NODES: Lazy.stringValue({ produce: () => props.nodes().join(',') }),
            METALSLICE_DRAIN_TIMEOUT: '${self.input.drain_timeout}',
            METALSLICE_KUBECONFIG: '${self.input.kubeconfig}',
            METALSLICE_CONTEXT: '${self.input.context}',
            METALSLICE_CLUSTER_CA_HASH: '${self.input.ca_hash}',
            METALSLICE_ROLL_KUBECONFIG: '${self.input.provider_kubeconfig}',
            METALSLICE_ROLL_CONTEXT: '${self.input.provider_context}',
            ...(hosts ? { METALSLICE_CLAIM: '${self.input.claim}' } : {}),
          },
        },
      ],
    });
  }

  /**
   * The runStrategy of `node`'s VM as the stack applies it: a Terraform expression, `Halted` while the roll has it
   * stopped (listed by the pool's data source), else `Always`. `node` is a DNS label (a Node name).
   */
  runStrategyOf(node: string): string {
    return `\${length([for vm in ${this.stopped.address}.objects : vm if vm.metadata.name == "${node}"]) > 0 ? "Halted" : "Always"}`;
  }

  /**
   * The HostClaim of host node `node` as the stack applies it: a Terraform expression. A claim not at the pool's
   * revision is applied as it is (the roll replaces it, drained first: a new image applied in place would have Metal3
   * reprovision the host at once); one the roll released is made again `off` (powered off) while the roll holds the
   * node (its ConfigMap `hold` is there); else `planned`. `node` is a DNS label (a Node name).
   */
  hostClaimOf(node: string, hold: string, planned: unknown, off: unknown): string {
    if (this.held === undefined) throw new Error(`[${this.node.path}] hostClaimOf is for host pools`);
    return `\${jsondecode(concat([for c in ${this.stopped.address}.objects : ${CLAIM_AS_IS} if c.metadata.name == "${node}"], [for s in ${this.held.address}.objects : ${hclString(JSON.stringify(off))} if s.metadata.name == "${hold}"], [${hclString(JSON.stringify(planned))}])[0])}`;
  }

  /** The roll runs after `resources` (a node's VM, cloud-init Secret and token) are applied. */
  after(...resources: ITerraformDependable[]): void {
    (this.resource.dependsOn ??= []).push(...resources.map((r) => dependable(r)));
  }
}
