/**
 * A node's cloud-init user data Secret on the provider cluster, applied server-side with `kubectl_manifest`.
 *
 * hashicorp/kubernetes's `kubernetes_secret_v1` creates the Secret with a POST: when the API server crashes during
 * that create and the response is lost, the Secret exists and the state does not know it, and the next apply stops
 * on `already exists`. Server-side apply creates or takes over the object alike (the kubectl provider's create is an
 * apply), so the next apply converges, as a VM's does.
 *
 * The body holds `data` (base64), not `stringData`: the API server folds `stringData` into `data` and never shows
 * it, so `kubectl_manifest` would find the field it wrote missing from the live object and plan it on every run.
 * The document holds the bootstrap token, a Terraform reference, so it stays an expression: a local of the
 * document as the node renders it, and `base64encode(local…)` in the body. `yaml_body` is sensitive in the
 * provider's schema, and `data` is shown as `(sensitive value)` in the plan's `yaml_body_parsed`.
 */
import { Fn, ITerraformDependable, TerraformLocal } from 'cdktf';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { ADOPT_MANIFEST_OBJECTS_CONTEXT, ADOPT_MANIFEST_VMS_CONTEXT, ADOPT_TOKEN_SECRETS_CONTEXT, KubectlManifest } from './kubectl';

/** Whether a context key is set (true, or "true" from CDKTF_CONTEXT_JSON). */
function contextSet(scope: Construct, key: string): boolean {
  const flag: unknown = scope.node.tryGetContext(key);
  return flag === true || flag === 'true';
}

/** Whether the deploy takes metalslice 0.1's resources over (the context key {@link ADOPT_MANIFEST_VMS_CONTEXT}). */
export function adoptsFromManifest(scope: Construct): boolean {
  return contextSet(scope, ADOPT_MANIFEST_VMS_CONTEXT);
}

/**
 * Whether the deploy takes the bootstrap token Secrets over from `kubernetes_secret_v1` (what 0.1 and 0.2 wrote
 * them with): the context key {@link ADOPT_TOKEN_SECRETS_CONTEXT}, or the 0.1 key.
 */
export function adoptsTokenSecrets(scope: Construct): boolean {
  return contextSet(scope, ADOPT_TOKEN_SECRETS_CONTEXT) || adoptsFromManifest(scope);
}

/**
 * The resource type a fleet's KubeVirt CR and a quota's ResourceQuota take over from, when the deploy upgrades from
 * 0.11 or earlier (the context key {@link ADOPT_MANIFEST_OBJECTS_CONTEXT}, or the 0.1 or 0.2 key); else undefined.
 */
export function manifestTakenOver(scope: Construct): 'kubernetes_manifest' | undefined {
  return contextSet(scope, ADOPT_MANIFEST_OBJECTS_CONTEXT) || adoptsTokenSecrets(scope) ? 'kubernetes_manifest' : undefined;
}

/** Props of a node's user data Secret. */
export interface UserDataSecretProps {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** The Secret's type. */
  readonly type: string;
  /** The key of `data` that holds the document. */
  readonly key: string;
  /** The cloud-init document: a string that may be a token (resolved at synth) holding Terraform references. */
  readonly document: string;
  /** What the Secret waits for in the same apply (its namespace). @default - nothing */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * The user data Secret of the node `scope`, at `<scope>/UserData` (the construct path `kubernetes_secret_v1`
 * had in 0.1, so an upgrade with the adopt context key forgets that resource without deleting the Secret, and the
 * apply takes the Secret over), and its document at `<scope>/UserDataDocument` (a local).
 */
export function userDataSecret(scope: Construct, props: UserDataSecretProps): KubectlManifest {
  const document = new TerraformLocal(scope, 'UserDataDocument', props.document);
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: props.name, namespace: props.namespace, labels: props.labels },
    type: props.type,
    data: { [props.key]: Fn.base64encode(document.asString) },
  };
  return new KubectlManifest(scope, 'UserData', {
    yamlBody: stringify(secret, { lineWidth: 0 }),
    // The provider's default for a v1 Secret, said here so a change of that default cannot show the data.
    sensitiveFields: ['data'],
    waitForDeletion: false,
    dependsOn: props.dependsOn,
    forgetPrevious: adoptsFromManifest(scope) ? 'kubernetes_secret_v1' : undefined,
  });
}
