/**
 * The config reader's fast paths give what the slow ones give. The built CLI validates with the schema compiled
 * ahead of time (scripts/config-validator.mjs, part of `npm run build`, which npm test runs first); the source
 * compiles it at run time: both must report the same problems. A JSON config is read by JSON.parse unless it
 * repeats a key, which the YAML parser refuses at its line.
 */
import { describe, expect, it } from '@jest/globals';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseDocument } from 'yaml';
import { loadConfigSource } from '../../constructs/core/input/config';
import { configSchemaHash, validateConfigShape } from '../../constructs/core/input/config-schema';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { hasDuplicateKey, plainJson } from '../../constructs/core/input/json-text';
import { REPO_ROOT } from '../support/models';

const BUILT = path.join(REPO_ROOT, 'dist', 'constructs', 'core', 'input');

/** The problems a validator reports for `data`, or [] when it passes. */
function problems(validate: (data: unknown) => unknown, data: unknown): readonly unknown[] {
  try {
    validate(data);
    return [];
  } catch (e) {
    if (e instanceof Error && 'issues' in e) return (e as MetalsliceError).issues;
    throw e;
  }
}

/** A config-like value: the right keys with any values, or any JSON at all. */
const configish = fc.oneof(
  fc.record(
    {
      apiVersion: fc.oneof(fc.constant('metalslice.io/v1alpha1'), fc.string()),
      fleets: fc.array(fc.record({ name: fc.oneof(fc.string(), fc.integer()), hosts: fc.anything(), bogus: fc.anything() }, { requiredKeys: [] })),
      quotas: fc.array(fc.dictionary(fc.constantFrom('name', 'fleet', 'limits', 'namespace', 'nmae'), fc.jsonValue())),
      nodePools: fc.array(fc.dictionary(fc.constantFrom('name', 'quota', 'cluster', 'count', 'shape', 'placement', 'cuont'), fc.jsonValue())),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

describe('the schema compiled ahead of time', () => {
  it('is built from the schema in the source', async () => {
    const built = (await import(path.join(BUILT, 'config-validator.js'))) as { schemaHash: string };
    expect(built.schemaHash).toBe(configSchemaHash());
  });

  it('reports exactly the problems the run-time compiled schema reports', async () => {
    const builtConfig = (await import(path.join(BUILT, 'config-schema.js'))) as { validateConfigShape: (d: unknown) => unknown };
    fc.assert(
      fc.property(configish, (data) => {
        expect(problems(builtConfig.validateConfigShape, data)).toEqual(problems(validateConfigShape, data));
      }),
      { numRuns: 300, seed: 4242 },
    );
  });
});

describe('JSON read by JSON.parse', () => {
  it('finds a repeated key at any depth, decoded, and never a key that is only repeated across objects', () => {
    expect(hasDuplicateKey('{"a":1,"b":{"a":2}}')).toBe(false);
    expect(hasDuplicateKey('{"a":1,"b":[{"c":1},{"c":2}]}')).toBe(false);
    expect(hasDuplicateKey('{"a":1,"b":{"c":1,"c":2}}')).toBe(true);
    expect(hasDuplicateKey('{"a":1,"\\u0061":2}')).toBe(true);
    expect(hasDuplicateKey('{"a\\"":1,"b":"a\\"","a":2}')).toBe(false);
    expect(hasDuplicateKey('["a","a"]')).toBe(false);
  });

  it('gives what the YAML parser gives for any JSON, and nothing for a text with a repeated key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 1);
        const fast = plainJson(text);
        // The YAML parser itself, as the reader calls it when the fast path declines.
        const yaml: unknown = parseDocument(text, { uniqueKeys: true }).toJS({ maxAliasCount: 100 });
        if (/^\s*[{[]/.test(text)) expect(fast).toEqual({ value: yaml });
        else expect(fast).toBeUndefined();
        const repeated = text.replace(/^\{/, '{"k": 1, "k": 2, ');
        if (repeated !== text && text !== '{}') expect(plainJson(repeated)).toBeUndefined();
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('a JSON config with a repeated key is refused at the line of the repeat, as a YAML one is', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-json-'));
    try {
      const file = path.join(dir, 'c.json');
      fs.writeFileSync(file, '{\n  "apiVersion": "metalslice.io/v1alpha1",\n  "fleets": [],\n  "fleets": []\n}\n');
      let thrown: unknown;
      try {
        loadConfigSource(file);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(MetalsliceError);
      const issue = (thrown as MetalsliceError).issues[0];
      expect(issue).toMatchObject({ line: 4 });
      expect(issue.message).toMatch(/DUPLICATE_KEY/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a JSON hosts file (what metalslice inventory writes) with a repeated key is refused at its line, not read last-wins', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-json-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'hosts.json'),
        '{\n  "hosts": [\n    { "name": "h1", "capacity": { "cpu": "8", "memory": "32Gi" },\n      "capacity": { "cpu": "64", "memory": "1Ti" } }\n  ]\n}\n',
      );
      const file = path.join(dir, 'c.yaml');
      fs.writeFileSync(file, 'apiVersion: metalslice.io/v1alpha1\nfleets:\n  - name: f\n    hostsFile: hosts.json\n');
      let thrown: unknown;
      try {
        loadConfigSource(file);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(MetalsliceError);
      expect((thrown as MetalsliceError).issues[0].message).toMatch(/DUPLICATE_KEY/);
      // At line 4 of the hosts file, named by the config path that referenced it.
      expect((thrown as MetalsliceError).issues[0]).toMatchObject({ path: 'fleets[0].hostsFile', file: path.join(dir, 'hosts.json'), line: 4 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a problem in a JSON config read the fast way still carries its line and column', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-json-'));
    try {
      const file = path.join(dir, 'c.json');
      fs.writeFileSync(file, '{\n  "apiVersion": "metalslice.io/v1alpha1",\n  "fleets": [\n    { "name": "f", "hostz": [] }\n  ]\n}\n');
      let thrown: unknown;
      try {
        loadConfigSource(file);
      } catch (e) {
        thrown = e;
      }
      expect((thrown as MetalsliceError).issues).toEqual([expect.objectContaining({ path: 'fleets[0].hostz', line: 4, column: 20 })]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
