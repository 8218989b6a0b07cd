/**
 * Every file metalslice reads is a regular file under a size cap, read in bounded memory, and parsed with
 * every syntax error checked: special files are refused (exit 2) before a byte is read, a FIFO never blocks,
 * and a cut-off or doubled inventory is an error, not a smaller plan.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../constructs/cli/main';
import { loadConfigFile } from '../../constructs/core/input/config';
import { issueWhere, MetalsliceError, UnreadableInputError } from '../../constructs/core/base/errors';
import { MAX_INPUT_BYTES, readInputFile } from '../../constructs/core/input/read-file';
import { REPO_ROOT } from '../support/models';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr, all: stdout + stderr };
}

const example = path.join(REPO_ROOT, 'examples', 'metalslice.yaml');
let dir = '';
const at = (name: string) => path.join(dir, name);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-read-'));
  execFileSync('mkfifo', [at('fifo')]);
  fs.mkdirSync(at('a-dir'));
  fs.symlinkSync('/dev/zero', at('zero-link'));
  fs.copyFileSync(example, at('real.yaml'));
  fs.symlinkSync(at('real.yaml'), at('config-link.yaml'));
  // A sparse file one byte over the largest cap: its size is refused before it is read.
  const fd = fs.openSync(at('huge'), 'w');
  fs.ftruncateSync(fd, MAX_INPUT_BYTES.plan + 1);
  fs.closeSync(fd);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readInputFile', () => {
  it.each([
    ['a FIFO', 'fifo', /is a FIFO \(named pipe\), not a regular file/],
    ['a directory', 'a-dir', /is a directory, not a regular file/],
    ['a symlink to /dev/zero', 'zero-link', /is a character device, not a regular file/],
    ['a file over the cap', 'huge', /more than the 8 MiB a config file may have/],
  ])('refuses %s as a config, with an UnreadableInputError naming the file', (_title, name, message) => {
    const started = Date.now();
    let error: unknown;
    try {
      readInputFile(at(name), 'config');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnreadableInputError);
    expect((error as MetalsliceError).issues).toEqual([{ path: at(name), message: expect.stringMatching(message) }]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses /dev/zero itself, which reports a size of 0 and never ends', () => {
    expect(() => readInputFile('/dev/zero', 'hostsFile')).toThrow(/character device/);
  });

  it('stops reading a file whose size lies (procfs reports 0) at the cap', () => {
    // /proc/self/environ is a regular file of size 0 that has content; a 1-byte cap shows the loop is bounded.
    const caps = MAX_INPUT_BYTES as Record<string, number>;
    const saved = caps.kubeconfig;
    caps.kubeconfig = 1;
    try {
      expect(() => readInputFile('/proc/self/environ', 'kubeconfig')).toThrow(/more than the 0\.0 MiB a kubeconfig may have/);
    } finally {
      caps.kubeconfig = saved;
    }
  });

  it('follows a symlink to a regular file', () => {
    expect(readInputFile(at('config-link.yaml'), 'config')).toBe(fs.readFileSync(example, 'utf8'));
  });
});

describe('files a config names', () => {
  const configWith = (name: string, body: string) => {
    fs.writeFileSync(at(name), body);
    return at(name);
  };

  it.each([
    ['a FIFO hostsFile', 'fleets:\n  - {name: a, hostsFile: fifo}\n', 'fleets[0].hostsFile', /FIFO/],
    ['/dev/zero as hostsFile', 'fleets:\n  - {name: a, hostsFile: /dev/zero}\n', 'fleets[0].hostsFile', /character device/],
    ['a FIFO vcluster file', 'vclusters:\n  - {cluster: c, file: fifo}\n', 'vclusters[0].file', /FIFO/],
    ['/dev/zero as a vcluster file', 'vclusters:\n  - {cluster: c, file: /dev/zero}\n', 'vclusters[0].file', /character device/],
  ])('refuses %s at its path, as unreadable', (title, body, where, message) => {
    const file = configWith(`${title.replace(/\W/g, '-')}.yaml`, body);
    expect(() => loadConfigFile(file)).toThrow(UnreadableInputError);
    try {
      loadConfigFile(file);
    } catch (e) {
      // At the key that names the file: line 2, after "  - {name: a, " or "  - {cluster: c, ".
      const column = body.split('\n')[1].indexOf(where.endsWith('.file') ? 'file:' : 'hostsFile:') + 1;
      expect((e as MetalsliceError).issues).toEqual([{ path: where, message: expect.stringMatching(message), file, line: 2, column }]);
    }
  });

  const inventory = JSON.stringify({ hosts: [0, 1, 2, 3].map((i) => ({ name: `bm-${i}`, capacity: { cpu: 64, memory: '256Gi' } })) }, null, 2);
  it.each([
    ['cut off at three quarters', inventory.slice(0, Math.floor(inventory.length * 0.75))],
    ['with a duplicate key', inventory.replace('"hosts": [', '"hosts": [],\n  "hosts": [')],
    ['with trailing garbage', `${inventory}\n}}} garbage`],
  ])('refuses a hostsFile %s instead of planning on what survived', (_title, text) => {
    fs.writeFileSync(at('inv.json'), text);
    const file = configWith('inv-config.yaml', 'fleets:\n  - {name: a, hostsFile: inv.json}\n');
    let error: unknown;
    try {
      loadConfigFile(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetalsliceError);
    // Placed in the inventory, where the error is, and named by the config path that referenced it.
    const [issue] = (error as MetalsliceError).issues;
    expect(issue).toEqual({
      path: 'fleets[0].hostsFile',
      file: at('inv.json'),
      line: expect.any(Number),
      column: expect.any(Number),
      message: expect.stringMatching(new RegExp(`^in hosts file ${at('inv.json')}: [A-Z_]+: .*fix the YAML/JSON syntax$`)),
    });
    expect(issue.line).toBeGreaterThan(2);
    expect(issueWhere(issue)).toBe(`${at('inv.json')}:${issue.line}:${issue.column}: fleets[0].hostsFile`);
  });
});

describe('the CLI on special files', () => {
  it.each([
    [['plan', '/dev/zero']],
    [['plan', 'FIFO']],
    [['plan', 'DIR', '--json']],
    [['plan', example, '--previous', '/dev/zero']],
    [['plan', example, '--previous', 'FIFO', '--markdown']],
    [['report', '/dev/zero']],
    [['report', 'FIFO']],
    [['inventory', '--kubeconfig', '/dev/zero']],
    [['inventory', '--kubeconfig', 'FIFO']],
    [['pack', '/dev/zero']],
    [['pack', 'FIFO']],
  ])('metalslice %j exits 2 at once', async (args) => {
    const resolved = args.map((a) => (a === 'FIFO' ? at('fifo') : a === 'DIR' ? at('a-dir') : a));
    const started = Date.now();
    const { code, all } = await run(resolved);
    expect(code).toBe(2);
    expect(all).toMatch(/not a regular file/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('a plan JSON read back (report, --previous)', () => {
  const planFile = (name: string, doc: unknown) => {
    fs.writeFileSync(at(name), typeof doc === 'string' ? doc : JSON.stringify(doc));
    return at(name);
  };

  it.each([
    ['no fleets or quotas', { ok: true, pools: [] }],
    ['a pool without nodes', { ok: true, kubevirtVersion: 'v1', errors: [], warnings: [], fleets: [], quotas: [], pools: [{ name: 'p' }] }],
    ['errors that are not issues', { ok: false, kubevirtVersion: 'v1', errors: [1, 2], warnings: [], fleets: [], quotas: [], pools: [] }],
  ])('report on a plan with %s is a clear error naming the field, not a crash', async (_title, doc) => {
    const { code, stderr } = await run(['report', planFile('partial.json', doc)]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/is not a metalslice plan/);
    expect(stderr).not.toMatch(/internal error/);
  });

  it('--previous on a plan missing fields is an error at the file, not a crash', async () => {
    const { code, stdout } = await run(['plan', example, '--json', '--previous', planFile('prev.json', { ok: true, pools: [{ name: 'x' }] })]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/is not a metalslice plan/);
  });

  it('does not quote a file that is not JSON', async () => {
    const { code, all } = await run(['report', planFile('secret.json', 'GITHUB_TOKEN=ghp_abcdefghijklmnop\n')]);
    expect(code).toBe(2);
    expect(all).toMatch(/is not valid JSON/);
    expect(all).not.toContain('ghp_');
  });
});
