/**
 * The HCL modules as an earlier metalslice wrote them, made from the current text so the two never drift apart but
 * in what the release changed: an upgrade test applies the old layout and then the current one, and a benchmark
 * sets the two side by side.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The module objects 0.11 moved from `kubernetes_manifest` to `kubectl_manifest`: module directory and resource name. */
export const MOVED_IN_0_11 = [
  { module: 'kubevirt-node', resource: 'virtual_machine' },
  { module: 'metal3-node', resource: 'host_claim' },
] as const;

/**
 * Writes module `dir` (a copy) as metalslice 0.10 had it: its object `local.<name>` applied by a kubernetes_manifest,
 * and no removed block for that. Throws if the module no longer has what it replaces, so an upgrade is never
 * tested, nor a layout measured, against the current one by mistake.
 */
export function asRelease010(dir: string, name: string): void {
  const edit = (file: string, from: RegExp, to: string) => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    if (!from.test(text)) throw new Error(`${dir}/${file} has no ${from.source}: the 0.10 layout cannot be written from it`);
    fs.writeFileSync(path.join(dir, file), text.replace(from, to));
  };
  edit(
    'main.tf',
    new RegExp(`^resource "kubectl_manifest" "${name}" \\{\\n[\\s\\S]*?^\\}\\n`, 'm'),
    `resource "kubernetes_manifest" "${name}" {\n  manifest   = local.${name}\n  depends_on = [kubectl_manifest.user_data]\n}\n`,
  );
  edit('main.tf', new RegExp(`^removed \\{\\n\\s+from = kubernetes_manifest\\.${name}\\n[\\s\\S]*?^\\}\\n`, 'm'), '');
  edit('outputs.tf', new RegExp(`kubectl_manifest\\.${name}\\.name`), `kubernetes_manifest.${name}.manifest.metadata.name`);
}

/** Writes every module under `modulesDir` (a copy of `modules/`) as 0.10 had it. */
export function modulesAsRelease010(modulesDir: string): void {
  for (const m of MOVED_IN_0_11) asRelease010(path.join(modulesDir, m.module), m.resource);
}
