/**
 * `metalslice node-template-vars`: the node template's VM data is written whole and only for a config that
 * plans; a bad provider or a config that does not fit writes nothing and says why, escaping what it echoes.
 */
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadConfigFile } from '../../constructs/core/input/config';
import { planModel } from '../../constructs/core/plan';
import { main } from '../../constructs/cli/main';
import { nodeTemplateVars } from '../../constructs/render/node-template';
import { REPO_ROOT } from '../support/models';

const EXAMPLE = path.join(REPO_ROOT, 'examples', 'metalslice.yaml');
const DOES_NOT_FIT = path.join(REPO_ROOT, 'examples', 'does-not-fit.yaml');

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('metalslice node-template-vars', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-vars-'));

  it("writes the renderer's VMs for the provider, the same bytes every run", async () => {
    const out = path.join(dir, 'vm-types.auto.tfvars.json');
    expect((await run(['node-template-vars', EXAMPLE, '--provider', 'virt', '--out', out])).code).toBe(0);
    const first = fs.readFileSync(out, 'utf8');
    const model = loadConfigFile(EXAMPLE);
    const expected = nodeTemplateVars(planModel(model), model, 'virt');
    if (!expected.ok) throw new Error('the example must plan');
    expect(JSON.parse(first)).toEqual(JSON.parse(JSON.stringify(expected.vars)));
    expect(Object.keys(expected.vars.vm_types).length).toBeGreaterThan(0);
    expect((await run(['node-template-vars', EXAMPLE, '--provider', 'virt', '--out', out])).code).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(first);
    // No temporary file is left beside it.
    expect(fs.readdirSync(dir)).toEqual(['vm-types.auto.tfvars.json']);
  });

  it('an unknown provider is an error naming it, escaped, and nothing is written', async () => {
    const out = path.join(dir, 'unknown.json');
    const r = await run(['node-template-vars', EXAMPLE, '--provider', 'nope\u001b[31m', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--provider: no kubevirt node provider is named');
    expect(r.stderr).toContain('use one of virt');
    expect(r.stderr).not.toContain('\u001b');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('a config that does not plan writes nothing', async () => {
    const out = path.join(dir, 'not-fit.json');
    const r = await run(['node-template-vars', DOES_NOT_FIT, '--provider', 'virt', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/problem\(s\) in .*does-not-fit\.yaml: nothing written/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('a config that reads but is not a config (an unknown field) is exit 1, as plan says, and writes nothing', async () => {
    const bad = path.join(dir, 'typo.yaml');
    fs.writeFileSync(bad, 'apiVersion: metalslice.io/v1alpha1\nfleets: []\nquotaz: []\n');
    const out = path.join(dir, 'typo.json');
    const r = await run(['node-template-vars', bad, '--provider', 'virt', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/quotaz.*did you mean "quotas"/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('an unreadable config is exit 2, its name escaped', async () => {
    const r = await run(['node-template-vars', path.join(dir, 'missing\u001b.yaml'), '--provider', 'virt']);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stdout).toBe('');
  });
});
