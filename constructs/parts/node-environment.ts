/**
 * NodeEnvironment: the namespace on the provider cluster that holds a (tenant cluster x provider) pair's node
 * objects when no quota holds them (HostClaims and their Secrets; VMs of auto nodes live in their quota's
 * namespace, where its ResourceQuota counts them), and its default-deny NetworkPolicy.
 */
import { ITerraformDependable } from 'cdktf';
import { Manifest } from '../providers/kubernetes/manifest';
import { Construct, IConstruct } from 'constructs';
import { renderNodeEnvironment } from '../render/node-environment';

/** The namespace and default-deny policy of a (tenant cluster x provider) pair, created once per pair. */
export class NodeEnvironment extends Construct {
  /** The environment of the pair, created at the stack root on first use. */
  static ensure(scope: IConstruct, cluster: string, provider: string): NodeEnvironment {
    let root: IConstruct = scope;
    while (root.node.scope && root.node.scope.node.scope) root = root.node.scope;
    const id = `node-env-${cluster}-${provider}`;
    const existing = root.node.tryFindChild(id);
    if (existing instanceof NodeEnvironment) return existing;
    return new NodeEnvironment(root, id, cluster, provider);
  }

  /** The namespace on the provider cluster holding the pair's node objects. */
  readonly namespace: string;
  /** The namespace object: what objects placed in it must be created after. */
  readonly namespaceResource: ITerraformDependable;

  private constructor(scope: Construct, id: string, cluster: string, provider: string) {
    super(scope, id);
    const [namespace, policy] = renderNodeEnvironment({ cluster, provider });
    this.namespace = namespace.metadata.name;
    this.namespaceResource = new Manifest(this, 'Namespace', { manifest: namespace });
    new Manifest(this, 'DefaultDeny', { manifest: policy, dependsOn: [this.namespaceResource] });
  }
}
