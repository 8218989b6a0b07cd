/**
 * One backend for every stack of an app, each stack with its own state key derived from its name, so that
 * several workstations deploying the same fleet share one state per stack, locked while a deploy runs.
 * No credential is written into `cdk.tf.json`: the kubernetes backend reads a kubeconfig path, S3 and pg read
 * theirs from the environment as their backends do.
 */
import { DataTerraformRemoteStateConfig, TerraformBackend, TerraformRemoteState, TerraformStack } from 'cdktf';
import { Construct, IConstruct } from 'constructs';
import { MetalsliceError } from '../core/base/errors';
import { DEFAULT_STATE_NAMESPACE, StateBackendKind, stateKey, stateKeyProblem } from '../core/naming/state-keys';

export { DEFAULT_STATE_NAMESPACE };
export type { StateBackendKind };

/** Props of `StateBackend.kubernetes`: OpenTofu's kubernetes backend (state in a Secret, lock in a Lease). */
export interface KubernetesStateBackendProps {
  /**
   * The namespace of the state Secrets and lock Leases. It must exist before the first deploy, and only the
   * provider team may read it (`examples/provider/state-namespace.yaml` makes both).
   * @default "metalslice-state"
   */
  readonly namespace?: string;
  /** Path of the kubeconfig that reaches the provider cluster (a path, never its content). @default - `KUBE_CONFIG_PATH` from the environment */
  readonly configPath?: string;
  /** The kubeconfig context to use. @default - the kubeconfig's current context */
  readonly configContext?: string;
  /** Put before every stack's name in its `secret_suffix`, when several apps share a namespace. @default - none */
  readonly keyPrefix?: string;
}

/** Props of `StateBackend.s3`: an S3 bucket, locked with a lock file beside the state (OpenTofu and Terraform 1.10+). */
export interface S3StateBackendProps {
  /** The bucket (it must exist; enable versioning to keep earlier states). */
  readonly bucket: string;
  /** The bucket's region. @default - `AWS_REGION` from the environment */
  readonly region?: string;
  /** Put before every stack's name in its object key (`<keyPrefix><stack>.tfstate`). @default "metalslice/" */
  readonly keyPrefix?: string;
}

/** Props of `StateBackend.pg`: a Postgres database (connection string from `PG_CONN_STR`), locked with advisory locks. */
export interface PgStateBackendProps {
  /** Put before every stack's name in its schema name. @default - none */
  readonly keyPrefix?: string;
}

/**
 * Where the state of every stack of an app lives. Each stack's state key is derived from the stack's name
 * alone (`<keyPrefix><stack name>`): distinct stacks never share a state, and a stack keeps its key in every
 * synth. A key that a backend could not hold is an error at synth naming the stack.
 */
export class StateBackend {
  /** OpenTofu's kubernetes backend on the provider cluster: the state of stack S in Secret `tfstate-default-<keyPrefix>S`, its lock in Lease `lock-tfstate-default-<keyPrefix>S`. */
  static kubernetes(props: KubernetesStateBackendProps = {}): StateBackend {
    return new StateBackend('kubernetes', props.keyPrefix ?? '', {
      namespace: props.namespace ?? DEFAULT_STATE_NAMESPACE,
      ...(props.configPath !== undefined ? { config_path: props.configPath } : {}),
      ...(props.configContext !== undefined ? { config_context: props.configContext } : {}),
    });
  }

  /** An S3 bucket: the state of stack S in `<keyPrefix>S.tfstate`, locked by `use_lockfile` (credentials from the environment). */
  static s3(props: S3StateBackendProps): StateBackend {
    return new StateBackend('s3', props.keyPrefix ?? 'metalslice/', {
      bucket: props.bucket,
      ...(props.region !== undefined ? { region: props.region } : {}),
      encrypt: true,
      use_lockfile: true,
    });
  }

  /** A Postgres database: the state of stack S in schema `<keyPrefix>S` (connection string from `PG_CONN_STR`). */
  static pg(props: PgStateBackendProps = {}): StateBackend {
    return new StateBackend('pg', props.keyPrefix ?? '', {});
  }

  private constructor(
    /** Which backend: `kubernetes`, `s3` or `pg`. */
    readonly kind: StateBackendKind,
    private readonly keyPrefix: string,
    private readonly settings: Readonly<Record<string, string | boolean>>,
  ) {}

  /** The state key of the stack named `stackName` (kubernetes `secret_suffix`, S3 `key`, pg `schema_name`). */
  stateKey(stackName: string): string {
    return stateKey(this.kind, stackName, this.keyPrefix);
  }

  /** Why a stack named `stackName` cannot keep its state here, or undefined when it can. */
  stateKeyProblem(stackName: string): string | undefined {
    return stateKeyProblem(this.kind, this.stateKey(stackName));
  }

  /** Gives `stack` this backend, keyed by the stack's name; throws, naming the stack, if the key does not fit. */
  addTo(stack: TerraformStack): void {
    const name = stack.node.id;
    const problem = this.stateKeyProblem(name);
    if (problem !== undefined) throw new MetalsliceError([{ path: stack.node.path, message: problem }]);
    new KeyedBackend(stack, this.kind, { ...this.settings, [KEY_ATTRIBUTE[this.kind]]: this.stateKey(name) });
  }

  /** Gives every stack under `scope` (an App: all of them) that has no backend yet this backend; every key that does not fit is reported at once. */
  addToEveryStack(scope: IConstruct): void {
    const stacks = scope.node
      .findAll()
      .filter((c): c is TerraformStack => TerraformStack.isStack(c) && !c.node.children.some((c) => TerraformBackend.isBackend(c)));
    const problems = stacks.flatMap((s) => {
      const problem = this.stateKeyProblem(s.node.id);
      return problem === undefined ? [] : [{ path: s.node.path, message: problem }];
    });
    if (problems.length > 0) throw new MetalsliceError(problems);
    for (const stack of stacks) this.addTo(stack);
  }
}

/** The backend attribute that holds a stack's state key. */
const KEY_ATTRIBUTE: Readonly<Record<StateBackendKind, string>> = { kubernetes: 'secret_suffix', s3: 'key', pg: 'schema_name' };

/** The backend block of one stack: the backend's settings and that stack's key, as Terraform writes them. */
class KeyedBackend extends TerraformBackend {
  constructor(
    scope: Construct,
    type: StateBackendKind,
    private readonly attributes: Readonly<Record<string, string | boolean>>,
  ) {
    super(scope, 'backend', type);
  }

  protected override synthesizeAttributes(): Record<string, unknown> {
    return { ...this.attributes };
  }

  protected override synthesizeHclAttributes(): Record<string, unknown> {
    return { ...this.attributes };
  }

  override getRemoteStateDataSource(scope: Construct, name: string, _fromStack: string): TerraformRemoteState {
    return new KeyedRemoteState(scope, name, this.name, { ...this.attributes });
  }
}

/** Another stack's outputs read from this backend (cdktf makes one for a cross-stack reference). */
class KeyedRemoteState extends TerraformRemoteState {
  constructor(scope: Construct, id: string, type: string, config: DataTerraformRemoteStateConfig & Record<string, unknown>) {
    super(scope, id, type, config);
  }
}
