/**
 * `metalslice node-template-vars CONFIG --provider NAME [--out FILE]`: the VMs node-templates/kubevirt
 * renders for a kubevirt provider, as OpenTofu variables (vm-types.auto.tfvars.json beside the template).
 * Nothing is written unless the config plans without errors; the file is replaced whole, never half-written.
 */
import { loadConfigFile } from '../core/input/config';
import { MetalsliceError, PlanIssue, UnreadableInputError } from '../core/base/errors';
import { escapeText } from '../core/base/excerpt';
import { planModel } from '../core/plan';
import { nodeTemplateVars } from '../render/node-template';
import { writeWhole } from './write-whole';

/** Where the command prints. */
export interface NodeTemplateIo {
  /** Standard output. */
  stdout(text: string): void;
  /** Standard error. */
  stderr(text: string): void;
}

/** The command's options. */
export interface NodeTemplateVarsOptions {
  /** The kubevirt node provider whose node types the template makes. */
  readonly provider: string;
  /** Write here (atomically) instead of standard output. @default - standard output */
  readonly out?: string;
}

function printIssues(file: string, issues: readonly PlanIssue[], io: NodeTemplateIo): void {
  for (const i of issues) io.stderr(`error: ${i.path}: ${i.message}\n`);
  io.stderr(`metalslice node-template-vars: ${issues.length} problem(s) in ${escapeText(file)}: nothing written\n`);
}

/** Runs the command; returns the exit code (0 written, 1 the config does not plan, 2 unreadable or unwritable). */
export function runNodeTemplateVars(config: string, opts: NodeTemplateVarsOptions, io: NodeTemplateIo): number {
  let result;
  try {
    const model = loadConfigFile(config);
    result = nodeTemplateVars(planModel(model), model, opts.provider);
  } catch (e) {
    if (!(e instanceof MetalsliceError)) throw e;
    printIssues(config, e.issues, io);
    // As `plan`: a file that cannot be read is a usage error (2); a config that reads but is wrong is 1.
    return e instanceof UnreadableInputError ? 2 : 1;
  }
  if (!result.ok) {
    printIssues(config, result.errors, io);
    return 1;
  }
  const text = `${JSON.stringify(result.vars, null, 2)}\n`;
  if (opts.out === undefined) {
    io.stdout(text);
    return 0;
  }
  try {
    writeWhole(opts.out, text);
  } catch (e) {
    io.stderr(`metalslice node-template-vars: cannot write ${escapeText(opts.out)}: ${(e as NodeJS.ErrnoException).code ?? 'error'}\n`);
    return 2;
  }
  io.stderr(
    `metalslice node-template-vars: wrote ${Object.keys(result.vars.vm_types).length} node type(s) and ${Object.keys(result.vars.vm_pools).length} pool(s) to ${escapeText(opts.out)}\n`,
  );
  return 0;
}
