/**
 * The resource metalslice applies VirtualMachines and nodes' user data Secrets with: `kubectl_manifest` of the
 * gavinbunney/kubectl provider.
 *
 * hashicorp/kubernetes's `kubernetes_manifest` reads the cluster's OpenAPI document and lists its CRDs for
 * every resource in every plan, so a no-op plan of a stack costs about a second of CPU per VM (measured by
 * `npm run bench:deploy`). `kubectl_manifest` applies the YAML with server-side apply and compares only the
 * fields it wrote with the live object, so a plan costs a GET per VM. KubeVirt's admission defaulting (which
 * rewrites a VM's spec and made `kubernetes_manifest` report "inconsistent result") does not show as drift:
 * the fields metalslice does not write are not compared.
 *
 * Its create is a server-side apply too, so an object whose create response was lost (an API server crash) is
 * taken over by the next apply, where a POST-based create (`kubernetes_secret_v1`) stops on "already exists".
 *
 * The provider has no prebuilt cdktf binding; this module declares the two pieces metalslice uses.
 */
import { defaultProvider, KubernetesConnection } from './stack-provider';
import { TerraformMetaArguments, TerraformProvider, TerraformResource, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';

/** The kubectl provider metalslice's VirtualMachines and user data Secrets are applied with, and the version it is tested with. */
export const KUBECTL_PROVIDER = {
  /** Its registry source. */
  source: 'gavinbunney/kubectl',
  /** The version the e2e tests and the deploy benchmark run (built from its Go module by scripts/toolchain.sh). */
  version: '1.19.0',
  /** The constraint a stack declares: this version and later 1.x releases. */
  constraint: '>= 1.19.0, < 2.0.0',
} as const;

/** The kubectl provider each stack's VMs use, found or made once: a walk of the stack per VM would be quadratic. */
const kubectlProviders = new WeakMap<TerraformStack, TerraformProvider>();

/** The kubectl provider mirroring each aliased kubernetes provider (a tenant cluster's), made once. */
const mirrors = new WeakMap<TerraformProvider, TerraformProvider>();

/** The exec block of a kubernetes provider, as the kubectl provider spells it. */
function execBlock(exec: unknown): Record<string, unknown> | undefined {
  // The binding holds the block as a list of one.
  const block: unknown = Array.isArray(exec) ? exec[0] : exec;
  if (typeof block !== 'object' || block === null) return undefined;
  const e = block as { apiVersion?: string; command?: string; args?: string[]; env?: Record<string, string> };
  return defined({ api_version: e.apiVersion, command: e.command, args: e.args, env: e.env });
}

/** Drops the undefined values, so the provider block holds only what was set. */
function defined(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined));
}

/** Attributes in the form cdktf's HCL renderer takes (`cdktf synth --hcl`): plain values, and nested blocks. */
function forHcl(attributes: Record<string, unknown>): Record<string, unknown> {
  const one = (value: unknown): unknown => {
    if (Array.isArray(value)) return { value, isBlock: false, type: 'list', storageClassType: 'stringList' };
    if (typeof value === 'object' && value !== null)
      return { value: [forHcl(defined(value as Record<string, unknown>))], isBlock: true, type: 'list', storageClassType: 'list' };
    return { value, isBlock: false, type: 'simple', storageClassType: typeof value === 'boolean' ? 'boolean' : 'string' };
  };
  return Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, one(v)]));
}

/**
 * The stack's kubectl provider. It connects where the stack's default kubernetes provider connects (the same
 * host, credentials, kubeconfig and context, read at synth). Given a host and no kubeconfig it reads no
 * kubeconfig, so a workstation's ~/.kube/config never leaks into a stack configured with explicit credentials;
 * given neither, both take the cluster from the environment (hashicorp/kubernetes KUBE_CONFIG_PATH; the kubectl provider
 * KUBE_CONFIG, then KUBECONFIG, then KUBE_CONFIG_PATH: README "Use it as a library").
 */
export class KubectlProvider extends TerraformProvider {
  /**
   * The default kubectl provider of `scope`'s stack: one the stack already has (not aliased), else one made
   * here that mirrors the stack's default kubernetes provider.
   */
  static of(scope: Construct): TerraformProvider {
    const stack = TerraformStack.of(scope);
    let provider = kubectlProviders.get(stack);
    if (provider === undefined) {
      provider = defaultProvider(stack, 'kubectl') ?? new KubectlProvider(stack, 'metalslice-kubectl');
      kubectlProviders.set(stack, provider);
    }
    return provider;
  }

  /**
   * The kubectl provider that connects where the kubernetes provider `kubernetes` (an alias: a tenant cluster's)
   * connects, with the same alias, made once beside it.
   */
  static mirroring(kubernetes: TerraformProvider): TerraformProvider {
    // The stack's own kubernetes provider (a tenant cluster given it): the stack's own kubectl provider.
    if (kubernetes.alias === undefined) return KubectlProvider.of(kubernetes);
    let provider = mirrors.get(kubernetes);
    if (provider === undefined) {
      const scope = kubernetes.node.scope ?? TerraformStack.of(kubernetes);
      provider = new KubectlProvider(scope, `${kubernetes.node.id}-kubectl`, kubernetes);
      mirrors.set(kubernetes, provider);
    }
    return provider;
  }

  private constructor(
    scope: Construct,
    id: string,
    /** The kubernetes provider this one mirrors. @default - the stack's default kubernetes provider */
    private readonly mirrored?: TerraformProvider & KubernetesConnection,
  ) {
    super(scope, id, {
      terraformResourceType: 'kubectl',
      terraformGeneratorMetadata: { providerName: 'kubectl', providerVersionConstraint: KUBECTL_PROVIDER.constraint },
      terraformProviderSource: KUBECTL_PROVIDER.source,
    });
    this.aliasName = mirrored?.alias;
  }

  /** The alias held by the accessors below. */
  private aliasName?: string;

  /** The provider's alias: a mirror's is its kubernetes provider's, the stack's own kubectl provider has none. */
  get alias(): string | undefined {
    return this.aliasName;
  }

  /** Sets the alias (cdktf's providers hold theirs the same way). */
  set alias(value: string | undefined) {
    this.aliasName = value;
  }

  /** The provider block: the default kubernetes provider's connection, read at synth. */
  protected synthesizeAttributes(): Record<string, unknown> {
    return this.connection();
  }

  /** The provider block for `cdktf synth --hcl`. */
  protected synthesizeHclAttributes(): Record<string, unknown> {
    return forHcl(this.connection());
  }

  private connection(): Record<string, unknown> {
    const k = this.mirrored ?? defaultProvider<KubernetesConnection>(TerraformStack.of(this), 'kubernetes');
    if (!k) return {};
    const kubeconfig = k.configPath !== undefined || (k.configPaths?.length ?? 0) > 0;
    // A kubeconfig named: read it. A host given without one: never read a kubeconfig (the kubectl provider would
    // fall back to ~/.kube/config). Neither: both providers take their cluster from the environment.
    const loadConfigFile = kubeconfig ? true : k.host !== undefined ? false : undefined;
    return defined({
      host: k.host,
      username: k.username,
      password: k.password,
      insecure: k.insecure,
      tls_server_name: k.tlsServerName,
      client_certificate: k.clientCertificate,
      client_key: k.clientKey,
      cluster_ca_certificate: k.clusterCaCertificate,
      config_path: k.configPath,
      config_paths: k.configPaths?.length ? k.configPaths : undefined,
      config_context: k.configContext,
      config_context_auth_info: k.configContextAuthInfo,
      config_context_cluster: k.configContextCluster,
      token: k.token,
      proxy_url: k.proxyUrl,
      exec: execBlock(k.exec),
      load_config_file: loadConfigFile,
    });
  }
}

/** Props of a KubectlManifest. */
export interface KubectlManifestProps extends Pick<TerraformMetaArguments, 'dependsOn' | 'provider' | 'lifecycle' | 'forEach'> {
  /** The object, as YAML (one document). */
  readonly yamlBody: string;
  /**
   * Take over the object from a `kubernetes_manifest` of the same construct path (what metalslice 0.1
   * applied VirtualMachines with), in this deploy, without touching it: an `import` block by this import ID
   * (`apiVersion//kind//name//namespace`) and a `removed` block that forgets the old resource.
   * @default - nothing to take over
   */
  readonly adoptFromManifest?: string;
  /**
   * Forget a resource of this type at the same construct path (what metalslice 0.1 applied the object with), in
   * this deploy, without deleting the object: a `removed` block. No import: the create applies server-side and
   * takes the existing object over (force_conflicts), keeping its UID.
   * @default - nothing to forget
   */
  readonly forgetPrevious?: string;
  /**
   * Fields of the object the plan shows as `(sensitive value)` in `yaml_body_parsed` (dot paths, map values only).
   * @default - the provider's default: `data` of a v1 Secret, nothing otherwise
   */
  readonly sensitiveFields?: string[];
  /**
   * On destroy, wait until the object is gone, so that what it needs goes only after it (`wait`: a foreground
   * delete, which the garbage collector ends, then the provider reads the object and sleeps 10 s until it is not
   * found: at least 10 s, as the read right after the delete still finds it). Without, the destroy ends when the
   * API server has deleted the object (background propagation): for an object no finalizer holds and nothing
   * needs gone first, a Secret, the wait was those 10 s and nothing else.
   * @default true
   */
  readonly waitForDeletion?: boolean;
}

/**
 * The construct context key of the upgrade from metalslice 0.1: a pool's nodes take their VirtualMachines over from
 * kubernetes_manifest, and every node its user data Secret from kubernetes_secret_v1.
 */
export const ADOPT_MANIFEST_VMS_CONTEXT = 'metalslice:adoptManifestVirtualMachines';

/**
 * The construct context key of the upgrade from metalslice 0.2: every node's bootstrap token Secret, a
 * `kubernetes_secret_v1` then, is taken over by its `kubectl_manifest` (the old resource forgotten, the Secret
 * applied server-side, its UID kept). The 0.1 key takes the token Secrets over too.
 */
export const ADOPT_TOKEN_SECRETS_CONTEXT = 'metalslice:adoptBootstrapTokenSecrets';

/**
 * The construct context key of the upgrade from metalslice 0.11 (or any earlier release): each fleet's KubeVirt CR and
 * each quota's ResourceQuota, `kubernetes_manifest` then, is taken over by its `kubectl_manifest` (the old resource
 * forgotten, the object applied server-side, its UID kept). The 0.1 and 0.2 keys take them over too.
 */
export const ADOPT_MANIFEST_OBJECTS_CONTEXT = 'metalslice:adoptManifestObjects';

/**
 * One Kubernetes object applied by `kubectl_manifest`: server-side apply (metalslice's field manager owns only
 * the fields it writes) taking back a field someone changed by hand (force_conflicts: Terraform's config is what
 * the object must be), and on destroy (unless told not to) it waits until the object is gone, so what the object
 * needs (its namespace, its quota, its user-data Secret) outlives it.
 */
export class KubectlManifest extends TerraformResource {
  private readonly yamlBody: string;
  private readonly sensitiveFields?: string[];
  private readonly waitForDeletion: boolean;
  /** The resource types this one takes over from at the same address (each gets a `removed` block). */
  private readonly forget: string[] = [];

  constructor(scope: Construct, id: string, props: KubectlManifestProps) {
    super(scope, id, {
      terraformResourceType: 'kubectl_manifest',
      terraformGeneratorMetadata: { providerName: 'kubectl', providerVersionConstraint: KUBECTL_PROVIDER.constraint },
      provider: props.provider,
      dependsOn: props.dependsOn,
      forEach: props.forEach,
    });
    // The stack's default kubectl provider, made when the stack has none; an aliased one is passed as `provider`.
    if (props.provider === undefined) KubectlProvider.of(scope);
    if (props.lifecycle !== undefined) this.lifecycle = props.lifecycle;
    this.yamlBody = props.yamlBody;
    this.sensitiveFields = props.sensitiveFields;
    this.waitForDeletion = props.waitForDeletion ?? true;
    if (props.adoptFromManifest !== undefined) {
      this.importFrom(props.adoptFromManifest);
      this.forget.push('kubernetes_manifest');
    }
    if (props.forgetPrevious !== undefined && !this.forget.includes(props.forgetPrevious)) this.forget.push(props.forgetPrevious);
  }

  /** The resource, and when it takes an object over, the `removed` block that forgets the old resource. */
  toTerraform(): Record<string, unknown> {
    const tf = super.toTerraform() as Record<string, unknown>;
    if (this.forget.length === 0) return tf;
    return { ...tf, removed: this.forget.map((type) => ({ from: `${type}.${this.friendlyUniqueId}`, lifecycle: { destroy: false } })) };
  }

  /**
   * The resource in HCL (`cdktf synth --hcl`). cdktf's HCL output has no `removed` blocks, and without them a deploy
   * that takes objects over would destroy each old resource's object instead: refused, with the way out.
   */
  toHclTerraform(): Record<string, unknown> {
    if (this.forget.length > 0)
      throw new Error(
        `${this.node.path}: taking objects over from an earlier metalslice (context ${ADOPT_MANIFEST_VMS_CONTEXT}, ${ADOPT_TOKEN_SECRETS_CONTEXT} or ${ADOPT_MANIFEST_OBJECTS_CONTEXT}) needs JSON output: cdktf's HCL output drops the removed blocks that keep the old resources' objects. Synthesize that one deploy without --hcl.`,
      );
    return super.toHclTerraform() as Record<string, unknown>;
  }

  /** The resource's arguments. */
  protected synthesizeAttributes(): Record<string, unknown> {
    return defined({
      yaml_body: this.yamlBody,
      sensitive_fields: this.sensitiveFields,
      server_side_apply: true,
      force_conflicts: true,
      wait: this.waitForDeletion,
    });
  }

  /** The resource's arguments for `cdktf synth --hcl`. */
  protected synthesizeHclAttributes(): Record<string, unknown> {
    return forHcl(this.synthesizeAttributes());
  }
}
