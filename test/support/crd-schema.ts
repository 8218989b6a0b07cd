/**
 * Validates rendered objects against the upstream CRDs in `../shared/crds` (relative to the repo root) or
 * `$METALSLICE_CRD_DIR`: each served version's `openAPIV3Schema`, compiled with ajv on first use.
 * CEL rules (`x-kubernetes-validations`) are not evaluated; structural schema, enums, patterns, required
 * fields, int-or-string and formats are.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parseAllDocuments } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface CrdVersion {
  readonly file: string;
  readonly schema: Json;
  validate?: ValidateFunction;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export function crdDirectory(): string {
  return process.env.METALSLICE_CRD_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'crds');
}

let registry: Map<string, CrdVersion> | undefined;
let ajv: Ajv | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function load(): Map<string, CrdVersion> {
  if (registry) return registry;
  registry = new Map();
  const dir = crdDirectory();
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()) {
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))) {
      const crd: unknown = doc.toJS();
      if (!isObject(crd) || crd.kind !== 'CustomResourceDefinition' || !isObject(crd.spec)) continue;
      const group = crd.spec.group;
      const names = crd.spec.names;
      if (typeof group !== 'string' || !isObject(names) || typeof names.kind !== 'string') continue;
      for (const version of Array.isArray(crd.spec.versions) ? crd.spec.versions : []) {
        if (!isObject(version) || version.served === false || !isObject(version.schema)) continue;
        const schema = version.schema.openAPIV3Schema;
        if (!isObject(schema)) continue;
        registry.set(`${group}/${String(version.name)}/${names.kind}`, { file, schema: schema as Json });
      }
    }
  }
  return registry;
}

function compiler(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // Kubernetes' OpenAPI extensions carry no JSON Schema meaning of their own (int-or-string comes with anyOf in these CRDs).
  for (const keyword of [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-int-or-string',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
    'x-kubernetes-validations',
    'x-kubernetes-group-version-kind',
  ]) {
    ajv.addKeyword({ keyword, schemaType: ['boolean', 'string', 'array', 'object'] });
  }
  const integer = (bits: 32 | 64) => ({
    type: 'number' as const,
    validate: (n: number) => Number.isInteger(n) && (bits === 64 || (n >= -(2 ** 31) && n < 2 ** 31)),
  });
  ajv.addFormat('int32', integer(32));
  ajv.addFormat('int64', integer(64));
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('int-or-string', true);
  ajv.addFormat('quantity', true);
  ajv.addFormat('', true);
  return ajv;
}

/** Formats a schema uses that ajv does not know are accepted as is (Kubernetes ignores unknown formats too). */
function registerUnknownFormats(schema: Json, target: Ajv): void {
  const walk = (node: Json): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      const format = node.format;
      if (typeof format === 'string' && !target.formats[format]) target.addFormat(format, true);
      for (const value of Object.values(node)) walk(value);
    }
  };
  walk(schema);
}

/**
 * Kubernetes prunes fields a structural schema does not declare, silently. For tests that is a bug in the
 * renderer, so unknown fields are made errors: `additionalProperties: false` wherever an object declares
 * its properties and does not preserve unknown fields.
 */
function forbidUnknownFields(node: Json): Json {
  if (Array.isArray(node)) return node.map(forbidUnknownFields);
  if (!isObject(node)) return node;
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(node))
    out[k] =
      k === 'properties' && isObject(v) ? Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, forbidUnknownFields(pv)])) : forbidUnknownFields(v);
  if (isObject(node.properties) && node.additionalProperties === undefined && node['x-kubernetes-preserve-unknown-fields'] !== true)
    out.additionalProperties = false;
  return out;
}

/** The served `group/version/kind`s found, for tests that want to know what is covered. */
export function knownKinds(): string[] {
  return [...load().keys()].sort();
}

/**
 * Errors of `obj` against its CRD, picked by apiVersion and kind, as `path: message` strings; empty = valid.
 * An object whose kind has no CRD in the directory is reported as an error, so a typo cannot pass silently.
 */
export function validateAgainstCrd(obj: unknown): string[] {
  if (!isObject(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
    return ['the object has no apiVersion and kind'];
  }
  const { apiVersion, kind } = obj;
  const key = apiVersion.includes('/') ? `${apiVersion}/${kind}` : `core/${apiVersion}/${kind}`;
  const entry = load().get(key);
  if (!entry) {
    const sameKind = [...load().keys()].filter((k) => k.endsWith(`/${kind}`));
    return [`no CRD serves ${apiVersion} ${kind} in ${crdDirectory()}${sameKind.length > 0 ? ` (served: ${sameKind.join(', ')})` : ''}`];
  }
  if (!entry.validate) {
    const target = compiler();
    registerUnknownFormats(entry.schema, target);
    entry.validate = target.compile(forbidUnknownFields(entry.schema) as object);
  }
  const errors: string[] = [];
  const metadata = obj.metadata;
  if (
    !isObject(metadata) ||
    typeof metadata.name !== 'string' ||
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(metadata.name) ||
    metadata.name.length > 253
  ) {
    errors.push('/metadata/name: must be a DNS-1123 subdomain');
  }
  if (!entry.validate(obj)) {
    for (const e of entry.validate.errors ?? []) {
      const where = e.instancePath === '' ? '/' : e.instancePath;
      const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
      errors.push(`${where}: ${e.message ?? e.keyword}${extra}`);
    }
  }
  return errors;
}
