/**
 * One virtual worker node: its KubeVirt VirtualMachine, its cloud-init Secret (kubeadm join) beside it,
 * and a bootstrap token Secret in the tenant cluster's kube-system. The token is made by Terraform
 * (random provider), so it is never a literal in the synth output. Shared by elastic node pools and
 * static auto-node pools; plan-dependent parts are produced lazily, at synth.
 */
import { Fn, ITerraformDependable, Token } from 'cdktf';
import { MadeAtSynth } from './addresses';
import { checkedTokenTtl, joinDocument, TOKEN_ID_CHARS, TOKEN_SECRET_CHARS, virtualMachineYaml, waitFor } from './vm-nodes';
import { Password } from '../providers/random/password';
import { StringResource } from '../providers/random/string-resource';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { KubectlManifest, KubectlProvider } from '../plumbing/kubectl';
import { adoptsFromManifest, adoptsTokenSecrets, userDataSecret } from '../plumbing/user-data-secret';
import { Taint } from '../core/input/model';
import { KUBEVIRT_API_VERSION } from '../render/kubevirt';
import { KubeObject, POOL_LABEL } from '../render/labels';
import { vmUserDataSecretName } from '../core/naming/derived';
import { renderBootstrapTokenSecret } from '../render/secrets';
import { ITenantCluster } from '../tenant-cluster';
import { NodeDrains } from './node-drain';
import type { NodeRollout } from './node-rollout';

/** Props of a JoinToken. */
export interface JoinTokenProps {
  /** The tenant cluster the token is registered in (its kube-system). */
  readonly cluster: ITenantCluster;
  /** The node the token is for (named in the token's description). */
  readonly nodeName: string;
  /** How long the token is valid after it is made (Terraform duration: hours, minutes, seconds). @default "24h" */
  readonly ttl?: string;
}

/** A bootstrap token made by Terraform and registered in the tenant cluster. */
export class JoinToken extends Construct {
  /** `<id>.<secret>` as a Terraform expression. */
  readonly token: string;
  /** The token's Secret in the tenant cluster's kube-system (what a pool's rollout waits for). */
  readonly secret: ITerraformDependable;

  constructor(scope: Construct, id: string, props: JoinTokenProps) {
    super(scope, id);
    const ttl = checkedTokenTtl(this, props.ttl);
    const tokenId = new StringResource(this, 'TokenId', { ...TOKEN_ID_CHARS });
    const tokenSecret = new Password(this, 'TokenSecret', { ...TOKEN_SECRET_CHARS });
    this.token = `${tokenId.result}.${tokenSecret.result}`;
    const secret = renderBootstrapTokenSecret({
      tokenId: tokenId.result,
      tokenSecret: tokenSecret.result,
      expiration: Fn.timeadd(Fn.timestamp(), ttl),
      description: `metalslice node ${props.nodeName}`,
    });
    // Applied server-side, as the node's VM and user data Secret are: a create whose answer was lost (an API
    // server crash) leaves a Secret the state does not know, and the next apply takes it over instead of stopping
    // on "already exists". Data as `data` (base64): the API server folds stringData in and never shows it.
    const data = Object.fromEntries(Object.entries(secret.stringData as Record<string, string>).map(([k, v]) => [k, Fn.base64encode(v)]));
    this.secret = new KubectlManifest(this, 'BootstrapToken', {
      provider: KubectlProvider.mirroring(props.cluster.provider),
      yamlBody: stringify({ apiVersion: 'v1', kind: 'Secret', metadata: secret.metadata, type: secret.type, data }, { lineWidth: 0 }),
      sensitiveFields: ['data'],
      waitForDeletion: false,
      // The expiration is stamped once, at creation; later plans must not move it (or show a change).
      lifecycle: { ignoreChanges: ['yaml_body'] },
      forgetPrevious: adoptsTokenSecrets(this) ? 'kubernetes_secret_v1' : undefined,
    });
  }
}

/** Props of a VmNode. */
export interface VmNodeProps {
  /** The tenant cluster the node joins. */
  readonly cluster: ITenantCluster;
  /** The namespace of the VM and its cloud-init Secret (the quota's). */
  readonly namespace: string;
  /** The pool the node belongs to (labels the cloud-init Secret). */
  readonly poolName: string;
  /** How long the bootstrap token stays valid after it is made (hours, minutes, seconds). @default "24h" */
  readonly tokenTtl?: string;
  /** Node labels and taints set at join (resolved at synth). */
  readonly join: () => {
    /** Labels the kubelet registers the node with. */
    labels: Record<string, string>;
    /** Taints the kubelet registers the node with. @default - none */
    taints?: readonly Taint[];
  };
  /** The VirtualMachine, given the name of its user-data Secret (resolved at synth). */
  readonly vm: (userDataSecret: string) => KubeObject;
  /** What the VM must wait for in the same apply (its quota's accounted ResourceQuota). @default - nothing */
  readonly admission?: ITerraformDependable;
  /** What the cloud-init Secret must wait for in the same apply (its quota's namespace). @default - nothing */
  readonly namespaceReady?: ITerraformDependable;
  /** How long the node's drain may take before its VM is deleted (hours, minutes, seconds). @default "15m" */
  readonly drainTimeout?: string;
  /** The roll of the node's pool: it runs after this node's VM, Secret and token are applied. @default - none */
  readonly rollout?: NodeRollout;
}

/** One virtual worker node: its VirtualMachine, its cloud-init Secret, and its bootstrap token in the tenant cluster. */
export class VmNode extends Construct {
  constructor(scope: Construct, nodeName: string, props: VmNodeProps) {
    super(scope, nodeName);
    const { cluster } = props;
    const join = new JoinToken(this, 'Join', { cluster, nodeName, ttl: props.tokenTtl });
    const token = join.token;
    const userDataName = vmUserDataSecretName(nodeName);
    // The Secret and the VM live in the quota's namespace. The Secret waits for the namespace only (without it a
    // first apply could create the Secret before the namespace); the VM waits for the accounted ResourceQuota.
    // Both are applied server-side: an API server that crashes during the create leaves an object the state does
    // not know, and the next apply takes it over instead of stopping on "already exists".
    const userData = userDataSecret(this, {
      name: userDataName,
      namespace: props.namespace,
      labels: { [POOL_LABEL]: props.poolName },
      type: 'Opaque',
      key: 'userdata',
      dependsOn: waitFor(this, props.namespaceReady),
      document: Token.asString(new MadeAtSynth(() => joinDocument(cluster, nodeName, token, props.join()))),
    });
    // kubectl_manifest, not kubernetes_manifest: plans stay a GET per VM at fleet scale (see plumbing/kubectl.ts).
    // Upgrading from metalslice 0.1, whose VMs were kubernetes_manifest (and user data Secrets kubernetes_secret_v1):
    // with the context key set, this deploy takes each existing VM and Secret over in place (README "Upgrading from 0.1").
    const vm = new KubectlManifest(this, 'Resource', {
      yamlBody: Token.asString(new MadeAtSynth(() => virtualMachineYaml(props.vm(userDataName), props.rollout, nodeName, this.node.path))),
      // Its Secrets before it, and so after it when it goes: a VM whose drain stops the deploy keeps the user data
      // it boots from (and its token), so nothing of a node that stays is deleted.
      dependsOn: [...(waitFor(this, props.admission) ?? []), userData, join.secret],
      adoptFromManifest: adoptsFromManifest(this) ? `${KUBEVIRT_API_VERSION}//VirtualMachine//${nodeName}//${props.namespace}` : undefined,
    });
    // Before the VM goes (scaled down, pool removed, destroyed), its tenant Node is drained; after, it is deleted.
    NodeDrains.of(this, cluster).add(nodeName, vm, props.drainTimeout);
    props.rollout?.after(vm, userData, join.secret);
  }
}
