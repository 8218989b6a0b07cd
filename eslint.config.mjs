// Lint for every TypeScript file the compiler sees, with typescript-eslint's type-checked rules.
// `npm run lint` runs it on the whole repository with --max-warnings 0, and Prettier's check; `npm test` runs it too.
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** The library's own source: the shape rules below (size, cycles, layers) hold for it. */
const LIBRARY = ['constructs/**/*.ts'];

/**
 * The folders of constructs/core, the planner's stages, each with the folders it may import (README,
 * "Architecture"). Whatever a folder does not list, it may not import; the files at the top of core
 * (index.ts, public-types.ts) gather the public API and may import every folder.
 */
const CORE_FOLDER_READS = {
  base: [],
  packing: ['base'],
  kubevirt: ['base'],
  input: ['base'],
  naming: ['base', 'input'],
  quota: ['base'],
  hosts: ['base', 'kubevirt', 'input', 'naming'],
  vm: ['base', 'kubevirt', 'input'],
  auto: ['base', 'packing', 'input', 'naming', 'quota', 'hosts', 'vm'],
  plan: ['base', 'packing', 'kubevirt', 'input', 'naming', 'quota', 'hosts', 'vm', 'auto'],
  report: ['base', 'input', 'plan'],
};

/** core is the bottom layer: it imports nothing from render, verify, cli or the constructs. */
const CORE_ZONES = [
  {
    target: './constructs/core',
    from: [
      './constructs/render/**',
      './constructs/verify/**',
      './constructs/cli/**',
      './constructs/providers/**',
      './constructs/plumbing/**',
      './constructs/parts/**',
      './constructs/*.ts',
    ],
    message: 'constructs/core is the bottom layer: it imports nothing from render, verify, cli or the constructs.',
  },
];

/**
 * status/ compares what the clusters returned with the plan: it reads no cluster, runs no process and writes
 * nothing (cli/status.ts does the reading), so it imports neither cli/ nor verify/ nor cdktf's constructs.
 */
const STATUS_ZONES = [
  {
    target: './constructs/status',
    from: ['./constructs/cli/**', './constructs/verify/**', './constructs/parts/**', './constructs/plumbing/**', './constructs/*.ts'],
    message:
      'constructs/status is pure: it compares what cli/status.ts read with the plan, and imports nothing that reads a cluster, runs a process or makes a construct.',
  },
];

const CORE_FOLDER_ZONES = Object.entries(CORE_FOLDER_READS).map(([folder, reads]) => {
  const others = Object.keys(CORE_FOLDER_READS).filter((f) => f !== folder && !reads.includes(f));
  return {
    target: `./constructs/core/${folder}`,
    from: [...others.map((f) => `./constructs/core/${f}/**`), './constructs/core/*.ts'],
    message: `constructs/core/${folder} ${reads.length > 0 ? `may import only ${reads.map((f) => `core/${f}`).join(', ')}` : 'imports no other folder of core'} (eslint.config.mjs CORE_FOLDER_READS): move the shared piece down, or this code up`,
  };
});

export default tseslint.config(
  // dependency-cruiser's config is plain data for its own CLI (`npm run lint` runs it), checked by Prettier.
  { ignores: ['dist/**', 'node_modules/**', '**/cdktf.out/**', 'vendor/**', 'constructs/providers/**', '.dependency-cruiser.cjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The JavaScript files outside tsconfig.json (configs, the report script) are type-checked on their own.
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore names what is left out on purpose (a field dropped by destructuring, an unused argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Quantity is made to be written into messages: its toString is the Kubernetes quantity.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allow: [{ from: 'file', name: 'Quantity', path: 'constructs/core/base/quantity.ts' }] },
      ],
    },
  },
  {
    // Shape of the library (issue 29): a function a reader holds in one screen, no import cycles, and the layers
    // kept apart. Tests and examples are free of these: a test's table of cases is long on purpose.
    files: LIBRARY,
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads the modules an import reaches with typescript-eslint's parser, and resolves `./x` to `./x.ts`.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      // Blank lines and comments do not count: a function's reasons (comments) are never what makes it too long.
      // Over 60 lines is allowed only with a one-line comment above the function saying why (checked by review).
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // Branches a reader follows at once; past this, name the steps (as the planner's phases do).
      complexity: ['error', { max: 25 }],
      // Modules that import each other cannot be read (or loaded) one at a time. This rule skips type-only imports;
      // dependency-cruiser (.dependency-cruiser.cjs, in `npm run lint`) refuses circles of those too.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The layers: core plans (no cdktf, no renderers, no constructs, no verifier, no CLI); everything else asks it.
      'import-x/no-restricted-paths': ['error', { zones: [...CORE_ZONES, ...CORE_FOLDER_ZONES, ...STATUS_ZONES] }],
      // A file a reader holds in a sitting: past this, cut it along the seams its sections already mark.
      'max-lines': ['error', { max: 600 }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['cdktf', 'cdktn', 'cdktf/*', 'cdktn/*'], message: 'Only the constructs use cdktf; the core stays pure.' }] },
      ],
    },
  },
  {
    // The constructs themselves are written against cdktf.
    files: [
      'constructs/*.ts',
      'constructs/parts/**/*.ts',
      'constructs/plumbing/**/*.ts',
      'constructs/render/**/*.ts',
      'constructs/verify/**/*.ts',
      'constructs/cli/**/*.ts',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Probes the unit tests lint from standard input (test/unit/lint-rules.test.ts): not files of the project,
    // so the type-checked rules cannot see them; the shape rules above still apply.
    files: ['constructs/**/lint-probe-*.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
