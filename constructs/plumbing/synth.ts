/**
 * Synth for app entry points: a failed plan prints its problems (construct path and fix) and exits 1,
 * without a stack trace and without writing a half-finished cdktf.out.
 */
import * as fs from 'fs';
import * as path from 'path';
import { IConstruct } from 'constructs';

/** What synthOrExit needs of an app: a cdktn or a cdktf `App` has both, so either is taken as it is. */
export interface ISynthesizableApp extends IConstruct {
  /** The directory the app writes its stacks to. */
  readonly outdir: string;
  /** Writes every stack's `cdk.tf.json` (and metalslice's plan files) under `outdir`. */
  synth(): void;
}

/** Synthesizes the app; on a failed plan prints its problems (construct path and fix), removes what was written, and exits 1. */
export function synthOrExit(app: ISynthesizableApp): void {
  try {
    app.synth();
  } catch (e) {
    // cdktf wraps a plan's problems in a resolution error with the token's creation stack: keep the problems.
    const message = (e instanceof Error ? e.message : String(e)).replace(/\nObject creation stack:[\s\S]*$/, '');
    // Remove what cdktf may have written for stacks synthesized before the failing one.
    const outdir = app.outdir;
    if (outdir && fs.existsSync(path.join(outdir, 'stacks'))) fs.rmSync(path.join(outdir, 'stacks'), { recursive: true, force: true });
    process.stderr.write(`metalslice: synth failed, nothing was written:\n${message.replace(/^(Error: |Resolution error: )+/, '')}\n`);
    process.exit(1);
  }
}
