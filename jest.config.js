// Unit, property and synth tests run in-process; e2e tests need the toolchain and a kube-apiserver
// (scripts/test-e2e.sh brings them up), each file its own, two files at a time.
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] };
module.exports = {
  // Every run's temp files in one dir that the run removes (scripts/jest-tmpdir-setup.mjs).
  globalSetup: '<rootDir>/scripts/jest-tmpdir-setup.mjs',
  globalTeardown: '<rootDir>/scripts/jest-tmpdir-teardown.mjs',
  projects: [
    { displayName: 'unit', testEnvironment: 'node', transform, roots: ['<rootDir>/test'], testMatch: ['<rootDir>/test/{unit,property,synth}/**/*.test.ts'] },
    { displayName: 'e2e', testEnvironment: 'node', transform, roots: ['<rootDir>/test'], testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    // A node's first boot in a QEMU VM (scripts/test-boot.sh builds the node image first); not part of `npm test`.
    { displayName: 'boot', testEnvironment: 'node', transform, roots: ['<rootDir>/test'], testMatch: ['<rootDir>/test/boot/**/*.test.ts'] },
  ],
};
