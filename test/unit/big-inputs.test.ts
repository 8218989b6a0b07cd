/**
 * Big and deep input is refused before the work, with the bound named: exit 2, the path and the fix said,
 * nothing printed on standard output. Each case was seen to crash, spin or take gigabytes before its bound.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../constructs/cli/main';
import { unreadableOutput } from '../../constructs/cli/inventory';
import { UnreadableInputError } from '../../constructs/core/base/errors';
import { checkSnapshot, SNAPSHOT_API_VERSION, SNAPSHOT_KIND } from '../../constructs/core/hosts/snapshot';
import { MAX_INPUT_BYTES } from '../../constructs/core/input/read-file';
import { REPO_ROOT } from '../support/models';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

let dir = '';
const write = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-big-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a config', () => {
  it('nested 5,000 deep is exit 2 naming the bound of 100 (it overflowed the stack: exit 70)', async () => {
    const file = write('deep.json', `{"fleets": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    const { code, stdout, stderr } = await run(['plan', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/deep\.json:1:1: nests lists and maps more than 100 deep/);
  });

  it('of 700,000 empty fleets (2 MB) is exit 2 naming the list and its bound, before the schema judges an item', async () => {
    const file = write('fleets.json', JSON.stringify({ fleets: Array(700_000).fill({}) }));
    const { code, stdout, stderr } = await run(['plan', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/fleets: has 700,000 items, more than the 20,000 items of a list metalslice plans/);
  });

  it('naming a 3 MB hostsFile of a million empty hosts is exit 2 naming the hosts file and the config path', async () => {
    write('hosts.json', JSON.stringify({ hosts: Array(1_000_000).fill({}) }));
    const file = write('hf.yaml', 'fleets:\n  - {name: a, hostsFile: hosts.json}\n');
    const { code, stdout, stderr } = await run(['plan', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    // At the config's line that names the hosts file; the message names the file whose list is too long.
    expect(stderr).toContain(`hf.yaml:2:15: fleets[0].hostsFile: in hosts file ${path.join(dir, 'hosts.json')}: the hosts list`);
    expect(stderr).toMatch(/has 1,000,000 items, more than the 5,000 hosts of a fleet or provider/);
  });

  it('with 15,000 broken fleets lists 300 problems and says how many more', async () => {
    const file = write('broken.json', JSON.stringify({ fleets: Array(15_000).fill({}) }));
    const { code, stdout } = await run(['plan', file, '--json']);
    expect(code).toBe(1);
    const errors = (JSON.parse(stdout) as { errors: { path: string; message: string }[] }).errors;
    expect(errors).toHaveLength(301);
    expect(errors[300].message).toMatch(/^and 14,700 more problems, not listed \(at most 300 are\)/);
  });
});

describe('a plan JSON (report, --previous)', () => {
  let plan: Record<string, unknown>;
  beforeAll(async () => {
    plan = JSON.parse((await run(['plan', path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), '--json'])).stdout) as Record<string, unknown>;
  });

  it('with a quantity of 8,000,000 digits is exit 2 naming the field, never printed', async () => {
    const fleets = plan.fleets as { capacity: Record<string, string> }[];
    const file = write('digits.json', JSON.stringify({ ...plan, fleets: [{ ...fleets[0], capacity: { ...fleets[0].capacity, cpu: '9'.repeat(8_000_000) } }] }));
    const { code, stdout, stderr } = await run(['report', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/fleets\[0\]\.capacity\.cpu must NOT have more than 64 characters/);
    expect(stderr.length).toBeLessThan(2000);
  });

  it('of a million empty objects is refused before it is parsed, naming the bound', async () => {
    const file = write('empty.json', JSON.stringify({ ...plan, pools: Array(1_000_000).fill({}) }));
    const { code, stdout, stderr } = await run(['report', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/holds more than 500,000 lists and maps, more than a plan within metalslice's bounds/);
  });
});

describe('a cluster snapshot and the inventory', () => {
  it('refuses a snapshot of 100,000 Nodes before any is looked at (verify would create them all)', () => {
    const nodes = Array.from({ length: 100_000 }, (_, i) => ({ metadata: { name: `n${i}` } }));
    expect(() => checkSnapshot({ kind: SNAPSHOT_KIND, apiVersion: SNAPSHOT_API_VERSION, nodes, pods: [] }, 's.json')).toThrow(UnreadableInputError);
    expect(() => checkSnapshot({ kind: SNAPSHOT_KIND, apiVersion: SNAPSHOT_API_VERSION, nodes, pods: [] }, 's.json')).toThrow(
      /has 100,000 nodes, more than the 5,000 hosts of one provider cluster/,
    );
  });

  it('writes no inventory that its own hostsFile cap or host bound would refuse', () => {
    expect(unreadableOutput('{}', 100_000, undefined, 100_000)).toMatch(/100,000 hosts .* more than the 5,000 hosts/);
    expect(unreadableOutput('x'.repeat(MAX_INPUT_BYTES.hostsFile + 1), 5_000, undefined, 5_000)).toMatch(/more than the 32 MiB a hosts file may have/);
    expect(unreadableOutput('{}', 10, '{}', 10)).toBeUndefined();
  });
});

describe('standard output closed early', () => {
  it('`metalslice schema | head -c 10` ends quietly, no EPIPE stack trace', () => {
    const bin = path.join(REPO_ROOT, 'bin', 'metalslice');
    const shell = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" schema | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(shell.stderr).toBe('');
    expect(shell.stdout.trim()).toBe('0');
  });
});
