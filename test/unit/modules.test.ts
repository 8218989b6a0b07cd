// The HashiCorp standard module structure, checked on the text: every module and node template has its
// files, every variable is typed, described and validated, reusable modules have no provider block, and
// the provider constraints accept the providers the toolchain mirrors. `tofu fmt -check` and
// `tofu validate` need the toolchain: they run in the e2e project (test/e2e/node-template.test.ts).
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';
import { KUBECTL_PROVIDER } from '../../constructs/plumbing/kubectl';

const MODULES = ['modules/join', 'modules/kubevirt-node', 'modules/metal3-node'];
const TEMPLATES = ['node-templates/kubevirt', 'node-templates/metal3'];
const MIRRORED = { kubernetes: '3.2.1', random: '3.9.0' } as const;

const read = (dir: string, file: string) => fs.readFileSync(path.join(REPO_ROOT, dir, file), 'utf8');
const allTf = (dir: string) =>
  fs
    .readdirSync(path.join(REPO_ROOT, dir))
    .filter((f) => f.endsWith('.tf'))
    .map((f) => read(dir, f))
    .join('\n');

/** Top-level `variable "name" { ... }` blocks (the closing brace at column 0). */
function variables(text: string): { name: string; body: string }[] {
  return [...text.matchAll(/^variable "([^"]+)" \{\n([\s\S]*?)^\}$/gm)].map((m) => ({ name: m[1], body: m[2] }));
}

function versionParts(v: string): number[] {
  return v.split('.').map(Number);
}

function compare(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** Whether a Terraform version constraint (comma-separated `>=`, `>`, `<`, `<=`, `=`, `~>`) accepts a version. */
function accepts(constraint: string, version: string): boolean {
  return constraint.split(',').every((part) => {
    const m = /^\s*(>=|<=|>|<|=|~>)?\s*([0-9.]+)\s*$/.exec(part);
    if (!m) return false;
    const c = compare(version, m[2]);
    switch (m[1] ?? '=') {
      case '>=':
        return c >= 0;
      case '>':
        return c > 0;
      case '<=':
        return c <= 0;
      case '<':
        return c < 0;
      case '~>': {
        const parts = versionParts(m[2]);
        const upper = parts.length > 2 ? [parts[0], parts[1] + 1] : [parts[0] + 1];
        return c >= 0 && compare(version, upper.join('.')) < 0;
      }
      default:
        return c === 0;
    }
  });
}

describe.each([...MODULES, ...TEMPLATES])('%s', (dir) => {
  it('has main.tf, variables.tf, outputs.tf, versions.tf and a README with an example', () => {
    for (const f of ['main.tf', 'variables.tf', 'outputs.tf', 'versions.tf', 'README.md']) expect(fs.existsSync(path.join(REPO_ROOT, dir, f))).toBe(true);
    expect(read(dir, 'README.md')).toMatch(/```(hcl|yaml)\n/);
  });

  it('types, describes and validates every variable', () => {
    const vars = variables(read(dir, 'variables.tf'));
    expect(vars.length).toBeGreaterThan(0);
    for (const v of vars) {
      expect({
        variable: v.name,
        type: /^\s+type\s+=/m.test(v.body),
        description: /^\s+description\s+=\s+"\S/m.test(v.body),
        validation: /^\s+validation \{/m.test(v.body),
      }).toEqual({
        variable: v.name,
        type: true,
        description: true,
        validation: true,
      });
    }
  });

  it('describes every output and marks the secret ones sensitive', () => {
    const outputs = [...read(dir, 'outputs.tf').matchAll(/^output "([^"]+)" \{\n([\s\S]*?)^\}$/gm)];
    expect(outputs.length).toBeGreaterThan(0);
    for (const [, name, body] of outputs) {
      expect({ name, described: /description\s+=\s+"\S/.test(body) }).toEqual({ name, described: true });
      if (/^(token|cloud_config)$/.test(name)) expect({ name, sensitive: /sensitive\s+=\s+true/.test(body) }).toEqual({ name, sensitive: true });
    }
  });

  it('requires providers with constraints that accept the mirrored kubernetes 3.2.1 and random 3.9.0', () => {
    const versions = read(dir, 'versions.tf');
    const required = [...versions.matchAll(/(\w+) = \{\s*source\s+=\s+"hashicorp\/(\w+)"\s*version\s+=\s+"([^"]+)"/g)];
    expect(required.length).toBeGreaterThan(0);
    for (const [, , provider, constraint] of required) {
      const mirrored = MIRRORED[provider as keyof typeof MIRRORED];
      expect({ provider, constraint, accepts: accepts(constraint, mirrored) }).toEqual({ provider, constraint, accepts: true });
      // ...and the versions the cdktf bindings were generated for.
      expect(accepts(constraint, provider === 'kubernetes' ? '2.38.0' : '3.7.2')).toBe(true);
    }
  });
});

describe('objects', () => {
  it.each([...MODULES, ...TEMPLATES])(
    '%s applies every object server-side (kubectl_manifest: a lost create is taken over, no OpenAPI document read), kubernetes_secret_v1 and kubernetes_manifest only in removed blocks',
    (dir) => {
      const text = allTf(dir);
      const outsideRemoved = text.replace(/^removed \{\n[\s\S]*?^\}$/gm, '');
      expect(outsideRemoved).not.toMatch(/resource "kubernetes_secret_v1"/);
      // Neither a resource nor a reference (an output, a depends_on); the comments may name it.
      expect(outsideRemoved.replace(/^\s*#.*$/gm, '')).not.toMatch(/kubernetes_manifest/);
      // Each resource the modules once applied an object with is forgotten by name, where its object is taken over.
      const forgotten = [...text.matchAll(/^removed \{\n\s+from = (kubernetes_\w+)\.(\w+)/gm)].map((m) => `${m[1]}.${m[2]}`);
      for (const f of forgotten)
        expect({ f, takenOver: new RegExp(`resource "kubectl_manifest" "${f.split('.')[1]}"`).test(text) }).toEqual({ f, takenOver: true });
      const kubectl = /kubectl = \{\s*source\s+=\s+"gavinbunney\/kubectl"\s*version\s+=\s+"([^"]+)"/.exec(read(dir, 'versions.tf'));
      const applies = /resource "kubectl_manifest"/.test(text) || dir.startsWith('node-templates/');
      expect({ dir, requiresKubectl: kubectl !== null }).toEqual({ dir, requiresKubectl: applies });
      // The constraint is the constructs' own, and accepts the version the toolchain mirrors.
      if (kubectl)
        expect({ dir, constraint: kubectl[1], accepts: accepts(kubectl[1], KUBECTL_PROVIDER.version) }).toEqual({
          dir,
          constraint: KUBECTL_PROVIDER.constraint,
          accepts: true,
        });
      // Every old resource is forgotten, never destroyed (the upgrades from 0.2 and 0.10).
      for (const removed of text.matchAll(/^removed \{\n([\s\S]*?)^\}$/gm)) expect(removed[1]).toMatch(/destroy = false/);
    },
  );
});

describe('provider blocks', () => {
  it.each(MODULES)('%s has none (the caller passes its providers)', (dir) => {
    expect(allTf(dir)).not.toMatch(/^provider\s+"/m);
  });

  it.each(TEMPLATES)('%s configures the kubernetes and kubectl providers alike, from variables and the environment', (dir) => {
    for (const provider of ['kubernetes', 'kubectl'])
      expect(read(dir, 'versions.tf')).toMatch(
        new RegExp(`^provider "${provider}" \\{\\n\\s+config_path\\s+= var\\.kubeconfig_path\\n\\s+config_context = var\\.kubeconfig_context\\n\\}`, 'm'),
      );
  });
});

describe('node templates', () => {
  it.each(TEMPLATES)('%s takes the claim as one sensitive variable "vcluster" of type any', (dir) => {
    const vcluster = variables(read(dir, 'variables.tf')).find((v) => v.name === 'vcluster');
    expect(vcluster?.body).toMatch(/type\s+= any/);
    expect(vcluster?.body).toMatch(/sensitive\s+= true/);
  });

  it.each(TEMPLATES)('%s README shows the NodeProvider that points at it', (dir) => {
    const readme = read(dir, 'README.md');
    expect(readme).toContain('kind: NodeProvider');
    expect(readme).toContain(`subPath: ${dir}`);
  });
});

describe('version constraints (the checker itself)', () => {
  it('reads >=, ~> and ranges like Terraform', () => {
    expect(accepts('>= 2.38.0', '3.2.1')).toBe(true);
    expect(accepts('~> 2.0', '3.2.1')).toBe(false);
    expect(accepts('~> 3.7', '3.9.0')).toBe(true);
    expect(accepts('>= 3.0, < 4.0', '3.9.0')).toBe(true);
    expect(accepts('2.38.0', '3.2.1')).toBe(false);
  });
});
