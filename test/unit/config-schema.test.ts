import { describe, expect, it } from '@jest/globals';
import Ajv from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { main } from '../../constructs/cli/main';
import { parseConfigText } from '../../constructs/core/input/config';
import { CONFIG_SCHEMA } from '../../constructs/core/input/config-schema';
import { MetalsliceError } from '../../constructs/core/base/errors';
import { buildConfigSchema, CONFIG_SCHEMA_FILE } from '../support/config-schema';
import { REPO_ROOT } from '../support/models';

// The published config schema (schema/metalslice-config.schema.json) is generated: regenerate it with
// METALSLICE_UPDATE_GOLDEN=1 npx jest test/unit/config-schema.test.ts --selectProjects unit

type Node = { [key: string]: unknown };

/** The schema without what only people read (descriptions, defaults, ids): what validation uses. */
function structure(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(structure);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema as Node)
      .filter(([k]) => !['description', 'default', '$id', 'title', '$schema'].includes(k))
      .map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as Node).map(([p, s]) => [p, structure(s)])) : structure(v)]),
  );
}

const published = JSON.parse(fs.readFileSync(CONFIG_SCHEMA_FILE, 'utf8')) as Node;
const validate = new Ajv({ allErrors: true, strict: false }).compile(published);

/** Every metalslice config in the repo: the examples, and the conformance suite's catalogue. */
const configFiles = [
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'examples'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => path.join(REPO_ROOT, 'examples', f)),
  path.join(REPO_ROOT, 'test', 'conformance', 'vcluster', 'catalogue.yaml'),
];

describe('schema/metalslice-config.schema.json', () => {
  it('is what CONFIG_SCHEMA and the TSDoc of the props generate', () => {
    const built = `${JSON.stringify(buildConfigSchema(), null, 2)}\n`;
    if (process.env.METALSLICE_UPDATE_GOLDEN) fs.writeFileSync(CONFIG_SCHEMA_FILE, built);
    expect(fs.readFileSync(CONFIG_SCHEMA_FILE, 'utf8')).toBe(built);
  }, 60_000);

  it('has the structure the CLI validates with, and a description on every field', () => {
    expect(structure(published)).toEqual(structure(CONFIG_SCHEMA));
    const undocumented: string[] = [];
    const walk = (s: Node, at: string) => {
      for (const [k, v] of Object.entries((s.properties as Record<string, Node> | undefined) ?? {})) {
        if (typeof v.description !== 'string' || v.description === '') undocumented.push(`${at}.${k}`);
        walk(v, `${at}.${k}`);
      }
      if (s.items) walk(s.items as Node, `${at}[]`);
    };
    walk(published, 'config');
    expect(undocumented).toEqual([]);
  });

  it('carries units and defaults from the TSDoc', () => {
    const fleet = ((published.properties as Record<string, Node>).fleets.items as Node).properties as Record<string, Node>;
    expect(fleet.cpuAllocationRatio).toMatchObject({ default: 1, description: expect.stringContaining('vCPUs per physical CPU') });
    expect(fleet.namespace).toMatchObject({ default: 'kubevirt' });
    expect(fleet.hosts.description).toMatch(/Default: none \(or hostsFile\)\.$/);
  });

  it.each(configFiles.map((f) => [path.relative(REPO_ROOT, f), f]))('validates %s', (_name, file) => {
    const data = parse(fs.readFileSync(file, 'utf8')) as unknown;
    expect(validate(data) ? [] : validate.errors).toEqual([]);
  });

  it('rejects a typo at the path the CLI reports', () => {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'examples', 'metalslice.yaml'), 'utf8').replace('reservedPerHost:', 'reservedPerHots:');
    expect(validate(parse(text))).toBe(false);
    const schemaPaths = (validate.errors ?? []).map((e) => `${e.instancePath}/${(e.params as { additionalProperty?: string }).additionalProperty ?? ''}`);
    let cliPath = '';
    try {
      parseConfigText(text, 'c.yaml');
    } catch (e) {
      cliPath = (e as MetalsliceError).issues[0].path;
    }
    expect(cliPath).toBe('fleets[0].reservedPerHots');
    expect(schemaPaths).toContain('/fleets/0/reservedPerHots');
  });

  it('is what `metalslice schema` prints', async () => {
    let stdout = '';
    const code = await main(['schema'], { stdout: (s) => (stdout += s), stderr: () => undefined });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(published);
  });
});
