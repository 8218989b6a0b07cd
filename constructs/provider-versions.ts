/**
 * Provider version constraints. The prebuilt cdktf bindings pin the exact provider versions they were
 * generated from (kubernetes 2.38.0, random 3.7.2); the resources metalslice uses are unchanged in later
 * releases, so a stack may accept those versions and newer ones. metalslice's e2e tests run with
 * kubernetes 3.2.1 and random 3.9.0, built from source (see scripts/toolchain.sh).
 */
import { TerraformStack } from 'cdktf';

/** The provider versions the prebuilt cdktf bindings were generated from: the oldest a stack may use. */
export const MINIMUM_PROVIDER_VERSIONS = {
  /** hashicorp/kubernetes, as @cdktf/provider-kubernetes 12 was generated from. */
  kubernetes: '2.38.0',
  /** hashicorp/random, as @cdktf/provider-random 12 was generated from. */
  random: '3.7.2',
} as const;

/** Relaxes the exact pins of the given providers (those the stack uses) to `>= <binding version>`. */
export function acceptNewerProviders(stack: TerraformStack, providers: readonly (keyof typeof MINIMUM_PROVIDER_VERSIONS)[] = ['kubernetes', 'random']): void {
  for (const name of providers) {
    stack.addOverride(`terraform.required_providers.${name}.version`, `>= ${MINIMUM_PROVIDER_VERSIONS[name]}`);
  }
}
