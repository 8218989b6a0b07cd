/**
 * The stack's own kubernetes provider, as constructs and commands read it at synth: its connection settings, and the
 * kubeconfig a command a provisioner runs reads to reach the same cluster. Not part of the public API.
 */
import { TerraformProvider, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';

/** The connection settings a hashicorp/kubernetes provider and the kubectl provider share (cdktf getter names). */
export interface KubernetesConnection {
  readonly host?: string;
  readonly username?: string;
  readonly password?: string;
  readonly insecure?: unknown;
  readonly tlsServerName?: string;
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  readonly clusterCaCertificate?: string;
  readonly configPath?: string;
  readonly configPaths?: string[];
  readonly configContext?: string;
  readonly configContextAuthInfo?: string;
  readonly configContextCluster?: string;
  readonly token?: string;
  readonly proxyUrl?: string;
  readonly exec?: unknown;
}

/** The stack's default (not aliased) provider of a type (`kubernetes`, `kubectl`), if it has one. */
export function defaultProvider<T extends object = object>(stack: TerraformStack, type: string): (TerraformProvider & T) | undefined {
  return stack.node
    .findAll()
    .find((c): c is TerraformProvider & T => TerraformProvider.isTerraformProvider(c) && c.terraformResourceType === type && c.alias === undefined);
}

/**
 * The kubeconfig and context the stack's default kubernetes provider reads (resolved at synth, when every provider is
 * declared): what a command a provisioner runs against the provider cluster reads too. Empty strings when the
 * provider names none (it takes its cluster from the environment, or from explicit credentials).
 */
export function stackKubeconfig(scope: Construct): { readonly configPath: string; readonly configContext: string } {
  const k = defaultProvider<KubernetesConnection>(TerraformStack.of(scope), 'kubernetes');
  const path = typeof k?.configPath === 'string' ? k.configPath : typeof k?.configPaths?.[0] === 'string' ? k.configPaths[0] : '';
  return { configPath: path, configContext: typeof k?.configContext === 'string' ? k.configContext : '' };
}
