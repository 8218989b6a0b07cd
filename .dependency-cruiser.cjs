// The library's imports have no circle, type-only imports included (`npm run lint` runs this; ESLint's
// import-x/no-cycle skips type imports, and a circle of types still means no file can be read on its own).
// The layers between the folders of constructs/core are ESLint's (eslint.config.mjs, import-x/no-restricted-paths).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, even for types only, cannot be read (or moved) one at a time.',
      from: { path: '^constructs/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^constructs/providers/', '\\.d\\.ts$'] },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    includeOnly: '^constructs/',
  },
};
