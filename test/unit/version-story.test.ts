// One version story: package.json (which `metalslice --version` prints), the CHANGELOG's newest release and the
// README's upgrade section name the same release, and nothing says "Unreleased" or "this release".
import { describe, expect, it } from '@jest/globals';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../support/models';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const { version } = JSON.parse(read('package.json')) as { version: string };
const minor = version.split('.').slice(0, 2).join('.');

describe('the version story', () => {
  it("has the CHANGELOG's newest section name package.json's version", () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe(version);
    expect(headings).not.toContain('Unreleased');
  });

  it("has the README's upgrade section name the release it upgrades to", () => {
    const readme = read('README.md');
    expect(readme).toMatch(new RegExp(`^### Upgrading from \\d+\\.\\d+ to ${minor.replace('.', '\\.')}\\b`, 'm'));
    expect(readme).not.toMatch(/this release/i);
  });

  it('has package-lock.json agree with package.json', () => {
    const lock = JSON.parse(read('package-lock.json')) as { version: string; packages: Record<string, { version?: string }> };
    expect([lock.version, lock.packages[''].version]).toEqual([version, version]);
  });
});
