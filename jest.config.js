// The project's own tests: unit tests beside the code (run from TypeScript source through
// ts-jest) and end-to-end tests in e2e/ that spawn the real `jest`/`m3` binaries on fixture
// projects. Unit tests map workspace packages to their sources; e2e tests run the built `dist`.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/packages',
    '<rootDir>/examples/servers',
    '<rootDir>/examples/fixtures',
    '<rootDir>/e2e',
    '<rootDir>/bench',
    '<rootDir>/conformance',
  ],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/__fixtures__/', '<rootDir>/e2e/fixtures/'],
  modulePathIgnorePatterns: ['<rootDir>/e2e/fixtures/', '/dist/'],
  // Unit tests import sibling packages from source, so a package's tests never wait on a build.
  moduleNameMapper: {
    '^@sf-m3/core$': '<rootDir>/packages/core/src/index.ts',
    '^@sf-m3/core/testing$': '<rootDir>/packages/core/src/testing/index.ts',
    '^@sf-m3/core/store$': '<rootDir>/packages/core/src/store/index.ts',
    '^@sf-m3/core/internal$': '<rootDir>/packages/core/src/internal.ts',
    '^@sf-m3/(store-sqlite|store-postgres|matchers|jest-environment|cli)$': '<rootDir>/packages/$1/src/index.ts',
    '^@sf-m3/example-servers$': '<rootDir>/examples/servers/src/index.ts',
    // The private test kits (never built): each kit its own entry, loaded from source.
    '^@sf-m3/test-utils/(trace|store|client|agents|postgres)$': '<rootDir>/packages/test-utils/src/$1/index.ts',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  // One shared folder per run (SF_M3_E2E_RUN_DIR): work several files need is done there once.
  globalSetup: '<rootDir>/e2e/run/globalSetup.js',
  globalTeardown: '<rootDir>/e2e/run/globalTeardown.js',
  // Slowest files first, also on a fresh clone whose Jest cache has no durations yet.
  testSequencer: '<rootDir>/e2e/run/slowFirstSequencer.js',
  testTimeout: 30_000,
  maxWorkers: 2,
};
