/**
 * The CLI starts without what only some subcommands need: `--help` and `plan` load neither the Kubernetes
 * client (cli/kube/client: inventory, verify --from-cluster) nor verify's control plane. Run on the built CLI (npm test
 * compiles first), with a module-load hook that records what is required.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';

/** The modules the built CLI loads for these arguments, of those matching `watch`. */
function loadedBy(args: readonly string[], watch: RegExp): string[] {
  const hook = `
    const M = require('module'); const load = M._load; const seen = new Set();
    M._load = function (request) { if (${watch.toString()}.test(request)) seen.add(request); return load.apply(this, arguments); };
    process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...seen].sort()) + '\\n'));
  `;
  // As bin/metalslice starts it: the launcher itself, with the hook loaded first.
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `${hook}; process.argv = [process.argv[0], 'metalslice', ...${JSON.stringify(args)}]; require(${JSON.stringify(path.join(REPO_ROOT, 'bin', 'metalslice'))});`,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, CHECKPOINT_DISABLE: '1' },
    },
  );
  const line = r.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  if (!line) throw new Error(`no load report (exit ${r.status}): ${r.stderr.slice(-500)}`);
  return JSON.parse(line.slice('LOADED '.length)) as string[];
}

const HEAVY = /\/kube\/client|@kubernetes\/|verify\/(processes|control-plane|verify)/;

describe('CLI start-up', () => {
  it('--help loads neither the Kubernetes client nor the control plane', () => {
    expect(loadedBy(['--help'], HEAVY)).toEqual([]);
  });

  it('plan loads neither', () => {
    expect(loadedBy(['plan', path.join(REPO_ROOT, 'examples', 'metalslice.yaml')], HEAVY)).toEqual([]);
  });

  it('the hook does see them when a subcommand needs them (the test can fail)', () => {
    expect(loadedBy(['inventory', '--kubeconfig', path.join(REPO_ROOT, 'does-not-exist')], HEAVY)).toContain('./kube/client');
  });
});
