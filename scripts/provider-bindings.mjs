// Generates metalslice's own provider bindings (constructs/providers/) with the provider generator of CDK for
// Terraform (cdktf-cli's @cdktf/provider-generator; cdktn's emits the same code), from the providers' own
// schemas: only the resource types metalslice creates, so the bindings are ~300 KB of TypeScript instead of
// the 145 MB prebuilt packages, and they are compiled against whichever framework a build targets.
//
// Usage:
//   node scripts/provider-bindings.mjs --schema     rewrite constructs/providers/schema.json from `tofu providers
//                                                   schema -json` (needs the toolchain's env: TF_CLI_CONFIG_FILE)
//   node scripts/provider-bindings.mjs [OUTDIR]     generate the bindings from schema.json into OUTDIR
//                                                   (default constructs/providers); test/unit/provider-bindings
//                                                   checks that the committed ones are exactly this output
// The generator and the schema JSON are untyped from a .mjs file: their values are `any` here by nature.
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SCHEMA = path.join(ROOT, 'constructs', 'providers', 'schema.json');

/** The providers, their versions in the toolchain, the constraint a stack declares, and the resource types used. */
const PROVIDERS = {
  kubernetes: {
    source: 'hashicorp/kubernetes',
    version: '3.2.1',
    constraint: '>= 2.38.0',
    resources: [
      'kubernetes_labels',
      'kubernetes_manifest',
      'kubernetes_namespace_v1',
      'kubernetes_resource_quota_v1',
      'kubernetes_role_v1',
      'kubernetes_role_binding_v1',
      'kubernetes_secret_v1',
    ],
  },
  random: { source: 'hashicorp/random', version: '3.9.0', constraint: '>= 3.7.2', resources: ['random_password', 'random_string'] },
};

/** The provider schemas of the toolchain's providers, cut to the resource types metalslice creates. */
function readSchemas() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-schema-'));
  try {
    const required = Object.entries(PROVIDERS)
      .map(([name, p]) => `    ${name} = { source = "${p.source}", version = "${p.version}" }`)
      .join('\n');
    fs.writeFileSync(path.join(dir, 'main.tf'), `terraform {\n  required_providers {\n${required}\n  }\n}\n`);
    execFileSync('tofu', ['init', '-input=false', '-no-color'], { cwd: dir, stdio: 'ignore' });
    const all = JSON.parse(execFileSync('tofu', ['providers', 'schema', '-json'], { cwd: dir, maxBuffer: 64 << 20 }).toString());
    const provider_schemas = {};
    const provider_versions = {};
    for (const p of Object.values(PROVIDERS)) {
      const key = Object.keys(all.provider_schemas).find((k) => k.endsWith(`/${p.source}`));
      if (!key) throw new Error(`tofu has no schema for ${p.source}`);
      const s = all.provider_schemas[key];
      const fqpn = `registry.terraform.io/${p.source}`;
      provider_schemas[fqpn] = { provider: s.provider, resource_schemas: Object.fromEntries(p.resources.map((r) => [r, s.resource_schemas[r]])) };
      provider_versions[fqpn] = p.version;
    }
    return { format_version: all.format_version, provider_schemas, provider_versions };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the bindings for the schema into outdir: one folder per provider, one per resource type. */
async function generate(schema, outdir) {
  const { TerraformProviderGenerator } = require('@cdktf/provider-generator/lib/get/generator/provider-generator');
  const { ConstructsMakerProviderTarget, TerraformProviderConstraint, LANGUAGES } = require('@cdktf/commons');
  const { CodeMaker } = require('codemaker');
  for (const [name, p] of Object.entries(PROVIDERS)) {
    // One generator per provider: a generator keeps state between providers and misnames the second one's files.
    // Without provider_versions the bindings declare the constraint (`>= 2.38.0`), not the exact version the schema
    // was read from, in required_providers: a stack takes any provider release that has these resource types.
    const { provider_versions: _versions, ...unpinned } = schema;
    const generator = new TerraformProviderGenerator(new CodeMaker(), unpinned);
    generator.generate(new ConstructsMakerProviderTarget(new TerraformProviderConstraint({ name, source: p.source, version: p.constraint }), LANGUAGES[0]));
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'metalslice-bindings-'));
    try {
      await generator.save(tmp);
      const target = path.join(outdir, name);
      fs.rmSync(target, { recursive: true, force: true });
      copyTypeScript(path.join(tmp, 'providers', name), target);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

/**
 * Copies the generated .ts files (not the per-resource README.md nor the lazy index), with the generator's two
 * TSDoc slips fixed so the API reference builds without warnings: `@param provider?` and `@param options` name
 * parameters called `provider` and `config`.
 */
function copyTypeScript(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTypeScript(path.join(from, entry.name), path.join(to, entry.name));
    else if (entry.name.endsWith('.ts') && entry.name !== 'lazy-index.ts') {
      const text = fs.readFileSync(path.join(from, entry.name), 'utf8');
      fs.writeFileSync(path.join(to, entry.name), text.replaceAll('@param provider? ', '@param provider ').replaceAll('@param options ', '@param config '));
    }
  }
}

if (process.argv[2] === '--schema') {
  fs.writeFileSync(SCHEMA, `${JSON.stringify(readSchemas(), null, 1)}\n`);
} else {
  await generate(JSON.parse(fs.readFileSync(SCHEMA, 'utf8')), process.argv[2] ?? path.join(ROOT, 'constructs', 'providers'));
}
