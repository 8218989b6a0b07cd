/**
 * The plan as GitHub Actions workflow commands: one `::error` per problem and one `::warning` per warning,
 * at the file, line and column they come from, so the pull request shows each on the line at fault. Every
 * value is escaped as GitHub's runner reads commands, and control characters first, so that nothing from the
 * input can end a command early or start another (`\n::add-mask::`, `\n::stop-commands::`).
 */
import * as path from 'path';
import type { PlanIssue } from '../base/errors';
import { escapeControls } from '../base/excerpt';
import type { PlanReport } from '../plan/types';

/** Where annotation files are counted from. */
export interface AnnotationOptions {
  /**
   * Directory the issues' relative file names are relative to (where metalslice ran).
   * @default - the file names as they are
   */
  readonly cwd?: string;
  /**
   * The repository checkout (`$GITHUB_WORKSPACE`): GitHub places annotations by a path relative to it.
   * @default - the file names as they are
   */
  readonly workspace?: string;
}

/** A command's message: `%`, carriage return and newline escaped as the runner unescapes them. */
function commandData(text: string): string {
  return escapeControls(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A command property's value: as a message, and `:` and `,` too, which would end the property. */
function commandProperty(text: string): string {
  return commandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The file as GitHub names it: relative to the workspace, with forward slashes. */
function workspaceFile(file: string, o: AnnotationOptions): string {
  if (o.cwd === undefined || o.workspace === undefined) return file;
  const relative = path.relative(o.workspace, path.resolve(o.cwd, file));
  // A file outside the checkout cannot be annotated in place: keep the name as given.
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

function annotation(kind: 'error' | 'warning', issue: PlanIssue, o: AnnotationOptions): string {
  const where: string[] = [];
  if (issue.file !== undefined) where.push(`file=${commandProperty(workspaceFile(issue.file, o))}`);
  if (issue.line !== undefined) where.push(`line=${issue.line}`);
  if (issue.column !== undefined) where.push(`col=${issue.column}`);
  where.push(`title=${commandProperty(`metalslice: ${issue.path}`)}`);
  return `::${kind} ${where.join(',')}::${commandData(`${issue.path}: ${issue.message}`)}`;
}

/** One workflow command per problem, then per warning; empty when there are none. */
export function renderGithubAnnotations(report: Pick<PlanReport, 'errors' | 'warnings'>, options: AnnotationOptions = {}): string {
  const lines = [...report.errors.map((e) => annotation('error', e, options)), ...report.warnings.map((w) => annotation('warning', w, options))];
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
