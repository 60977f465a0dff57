// The project's own tests, in three Jest projects (select with `--selectProjects`):
// - `unit`: tests beside the code that run in the Jest worker and start no process (its test
//   environment fails a file that does); `npm run test:quick` (jest.quick.config.js), no build needed.
// - `processes`: tests beside the code that start real processes (servers, fake agent CLIs,
//   proxies, PostgreSQL, tsc, child scripts) or read a built bundle, listed in
//   e2e/run/processTests.js; they need `npm run build`.
// - `e2e`: e2e/, which spawns the real built `jest`/`m3` binaries on fixture projects.
// Unit and process tests map workspace packages to their sources (TypeScript through
// e2e/run/typescriptTransform.js).
'use strict';
const processTests = require('./e2e/run/processTests');

/** The folders holding tests beside the code. */
const CODE_ROOTS = ['packages', 'examples/servers', 'examples/fixtures', 'bench', 'conformance'].map(
  (folder) => `<rootDir>/${folder}`,
);

/** What every project shares: packages from source, TypeScript transpiled by esbuild. */
const fromSource = {
  // Jest's Node environment without Jest 30's per-file AsyncLocalStorage leak.
  testEnvironment: '<rootDir>/e2e/run/nodeEnvironment.js',
  testMatch: ['**/*.test.ts'],
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
    '^.+\\.ts$': '<rootDir>/e2e/run/typescriptTransform.js',
  },
};

const IGNORED = ['/node_modules/', '/dist/', '/__fixtures__/', '<rootDir>/e2e/fixtures/'];

/** processTests.js entries as a path pattern (a folder matches everything under it). */
const processPatterns = processTests.map(
  (path) => `^<rootDir>/${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path.endsWith('/') ? '' : '$'}`,
);

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...fromSource,
      displayName: 'unit',
      // e2e/run holds the run's own machinery (sequencer, environment), unit-tested here.
      roots: [...CODE_ROOTS, '<rootDir>/e2e/run'],
      testPathIgnorePatterns: [...IGNORED, ...processPatterns],
      testEnvironment: '<rootDir>/e2e/run/inProcessEnvironment.js',
    },
    {
      ...fromSource,
      displayName: 'processes',
      roots: CODE_ROOTS,
      testMatch: processTests.map((path) => `<rootDir>/${path}${path.endsWith('/') ? '**/*.test.ts' : ''}`),
      testPathIgnorePatterns: IGNORED,
    },
    {
      ...fromSource,
      displayName: 'e2e',
      roots: ['<rootDir>/e2e'],
      testPathIgnorePatterns: [...IGNORED, '<rootDir>/e2e/run/'],
    },
  ],
  // One shared folder per run (SF_M3_E2E_RUN_DIR): work several files need is done there once.
  globalSetup: '<rootDir>/e2e/run/globalSetup.js',
  globalTeardown: '<rootDir>/e2e/run/globalTeardown.js',
  // Slowest files first, also on a fresh clone whose Jest cache has no durations yet.
  testSequencer: '<rootDir>/e2e/run/slowFirstSequencer.js',
  testTimeout: 30_000,
  // Three workers on the 2-core machine: a file waiting on a child (a server starting, a deadline, a
  // kill's grace period) leaves its core to the others. With two, the cores were 77-92% busy for the
  // middle half of the run; with three, 98-99% throughout, and the same CPU (730 s) took 395 s, not 426.
  maxWorkers: 3,
};
