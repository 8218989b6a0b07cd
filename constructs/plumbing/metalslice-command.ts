/**
 * The start of every command a stack's provisioner runs, for `sh -c`: metalslice itself (drain-node, remove-node,
 * roll-nodes, roll-hosts, wait-quota), so the deploy needs it on PATH. `$${` is Terraform's escape for a literal `${`.
 */

/**
 * The two guards in front of a metalslice command: skipped when `skipVariable` is `skip` (it says `step skipped`, and
 * `note` after it), refused when metalslice is not on PATH (it says how to get it there, or to skip and `instead`).
 */
export function metalsliceGuards(skipVariable: string, step: string, instead: string, note?: string): string[] {
  return [
    `if [ "$\${${skipVariable}:-}" = skip ]; then echo "${step} skipped (${skipVariable}=skip)${note === undefined ? '' : `: ${note}`}"; exit 0; fi`,
    `command -v metalslice >/dev/null 2>&1 || { echo "metalslice is not on PATH: deploy through npx cdktf (which puts node_modules/.bin on PATH), or set ${skipVariable}=skip to ${instead}" >&2; exit 1; }`,
  ];
}

/**
 * The kubeconfig and context a command reads (`$cfg`, `$ctx`): the resource's own (METALSLICE_KUBECONFIG,
 * METALSLICE_CONTEXT), else KUBE_CONFIG_PATH and KUBE_CTX, as the kubernetes provider reads them.
 */
export const KUBECONFIG_FROM_ENVIRONMENT = ['cfg="$${METALSLICE_KUBECONFIG:-$${KUBE_CONFIG_PATH:-}}"', 'ctx="$${METALSLICE_CONTEXT:-$${KUBE_CTX:-}}"'] as const;
