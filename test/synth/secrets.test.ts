/**
 * No secret as a literal in what metalslice writes or prints: every file of the example apps' synth output
 * (cdk.tf.json, metalslice-plan.json and .md), and `metalslice plan` in all three formats, hold no bootstrap
 * token, private key or password. (The e2e suite does the same for `tofu show -json` and the apply logs.)
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';
import { findSecrets } from '../support/secret-scan';
import { readTree, synthExample } from '../support/synth';

describe('no secret literals in synth output or CLI output', () => {
  const outdir = synthExample();
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

  it('the scanner finds what it looks for', () => {
    expect(findSecrets('token: abcdef.0123456789abcdef')).toHaveLength(1);
    expect(findSecrets('-----BEGIN RSA PRIVATE KEY-----')).toHaveLength(1);
    expect(findSecrets('"password": "hunter22"')).toHaveLength(1);
    expect(findSecrets('"password": "${var.bmc_password}"')).toEqual([]);
    expect(findSecrets('x y z', ['s3cr3tvalue'])).toEqual([]);
    expect(findSecrets('has s3cr3tvalue in it', ['s3cr3tvalue'])).toHaveLength(1);
  });

  it('every synthesized file of the example app is clean', () => {
    const files = readTree(outdir);
    expect(files.size).toBeGreaterThan(3);
    for (const [name, text] of files) expect({ name, hits: findSecrets(text) }).toEqual({ name, hits: [] });
  });

  it('metalslice plan prints no secret in text, Markdown or JSON', () => {
    const bin = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
    const cli = path.join(REPO_ROOT, 'constructs', 'cli', 'main.ts');
    const script = `require(${JSON.stringify(cli)}).main(process.argv.slice(1)).then((c) => { process.exitCode = c; })`;
    for (const format of [[], ['--markdown'], ['--json']]) {
      const run = spawnSync(bin, ['-e', script, 'plan', path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), ...format], {
        encoding: 'utf8',
        env: { ...process.env, CHECKPOINT_DISABLE: '1' },
      });
      expect(run.stdout.length).toBeGreaterThan(100);
      expect({ format, hits: findSecrets(run.stdout + run.stderr) }).toEqual({ format, hits: [] });
    }
  });
});
