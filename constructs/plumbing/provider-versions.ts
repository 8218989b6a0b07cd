/**
 * Provider version constraints. metalslice's own bindings (constructs/providers, generated from the kubernetes
 * 3.2.1 and random 3.9.0 schemas by scripts/provider-bindings.mjs) declare `>= 2.38.0` and `>= 3.7.2`: the
 * oldest releases metalslice was tested with, whose resources it uses are the same. metalslice's e2e tests run
 * with kubernetes 3.2.1 and random 3.9.0, built from source (see scripts/toolchain.sh).
 */
import { TerraformStack } from 'cdktf';

/** The oldest provider versions a stack may use (what the bindings' required_providers constraint says). */
export const MINIMUM_PROVIDER_VERSIONS = {
  /** hashicorp/kubernetes. */
  kubernetes: '2.38.0',
  /** hashicorp/random. */
  random: '3.7.2',
} as const;

/**
 * Sets the given providers' constraint to `>= <minimum version>`. metalslice's bindings already declare it; this
 * stays for apps (and 0.1 code) that call it, and for a stack whose provider comes from another binding.
 */
export function acceptNewerProviders(stack: TerraformStack, providers: readonly (keyof typeof MINIMUM_PROVIDER_VERSIONS)[] = ['kubernetes', 'random']): void {
  for (const name of providers) {
    stack.addOverride(`terraform.required_providers.${name}.version`, `>= ${MINIMUM_PROVIDER_VERSIONS[name]}`);
  }
}
