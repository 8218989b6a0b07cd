// The runtime dependency tree metalslice's users install holds no deprecated package. Read from the lockfile
// (`npm ls --package-lock-only`: no network, and the same answer whatever node_modules holds); the consumer
// e2e test checks the tree `npm install` of the packed tarball gives.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import { REPO_ROOT } from '../support/models';
import { deprecatedIn, NpmLsNode } from '../support/deprecated';

function productionTree(): NpmLsNode {
  const r = spawnSync('npm', ['ls', '--omit=dev', '--all', '--json', '--package-lock-only'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(r.stdout).not.toBe('');
  return JSON.parse(r.stdout) as NpmLsNode;
}

describe('runtime dependencies', () => {
  it('the production tree has no deprecated package', () => {
    const tree = productionTree();
    expect(Object.keys(tree.dependencies ?? {})).toContain('yaml'); // the tree was read
    expect(deprecatedIn(tree)).toEqual([]);
  });

  it('no Kubernetes client library: inventory and verify --from-cluster use constructs/cli/kube/client.ts', () => {
    expect(Object.keys(productionTree().dependencies ?? {}).filter((n) => n.startsWith('@kubernetes/'))).toEqual([]);
  });

  it('finds what @kubernetes/client-node 0.22 brought, at any depth (the check can fail)', () => {
    const tree: NpmLsNode = {
      dependencies: {
        '@kubernetes/client-node': {
          version: '0.22.3',
          dependencies: {
            request: {
              version: '2.88.2',
              dependencies: { 'form-data': { version: '2.3.3' }, 'tough-cookie': { version: '2.5.0' }, uuid: { version: '3.4.0' } },
            },
            'form-data': { version: '4.0.4' },
          },
        },
        'tough-cookie': { version: '4.1.4' },
      },
    };
    expect(deprecatedIn(tree)).toEqual([
      'form-data@2.3.3 (via @kubernetes/client-node > request > form-data)',
      'request@2.88.2 (via @kubernetes/client-node > request)',
      'tough-cookie@2.5.0 (via @kubernetes/client-node > request > tough-cookie)',
      'uuid@3.4.0 (via @kubernetes/client-node > request > uuid)',
    ]);
  });
});
