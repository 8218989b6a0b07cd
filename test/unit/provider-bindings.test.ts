// metalslice's provider bindings are generated, never edited: regenerating them from the committed provider
// schemas (scripts/provider-bindings.mjs) gives exactly the committed files, and they hold only the resource
// types metalslice creates.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';

const PROVIDERS = path.join(REPO_ROOT, 'constructs', 'providers');

/** Every file under dir, by its path relative to dir, with its text. */
function tree(dir: string, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(files, tree(dir, rel));
    else files[rel] = fs.readFileSync(path.join(dir, rel), 'utf8');
  }
  return files;
}

describe('the generated provider bindings', () => {
  it('are exactly what the generator writes from the committed schemas', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-bindings-'));
    try {
      execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'provider-bindings.mjs'), out], { stdio: 'pipe' });
      const committed = tree(PROVIDERS);
      delete committed['schema.json'];
      expect(tree(out)).toEqual(committed);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('hold only the resource types metalslice creates, and declare a lower bound, not an exact provider version', () => {
    const text = Object.values(tree(PROVIDERS)).join('\n');
    const types = [...new Set([...text.matchAll(/terraformResourceType: '([a-z0-9_]+)'/g)].map((m) => m[1]))].sort();
    expect(types).toEqual([
      'kubernetes',
      'kubernetes_labels',
      'kubernetes_manifest',
      'kubernetes_namespace_v1',
      'kubernetes_resource_quota_v1',
      'kubernetes_role_binding_v1',
      'kubernetes_role_v1',
      'kubernetes_secret_v1',
      'random',
      'random_password',
      'random_string',
    ]);
    expect([...new Set([...text.matchAll(/providerVersionConstraint: '([^']+)'/g)].map((m) => m[1]))].sort()).toEqual(['>= 2.38.0', '>= 3.7.2']);
    expect(text).not.toMatch(/providerVersion: /);
  });
});
