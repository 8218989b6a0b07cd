// Lint for every TypeScript file the compiler sees, with typescript-eslint's type-checked rules.
// `npm run lint` runs it on the whole repository with --max-warnings 0, and Prettier's check; `npm test` runs it too.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/cdktf.out/**', 'vendor/**', 'constructs/providers/**'] },
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
        { allowNumber: true, allowBoolean: true, allow: [{ from: 'file', name: 'Quantity', path: 'constructs/core/quantity.ts' }] },
      ],
    },
  },
);
