// The project's own tests: unit tests beside the code (run from TypeScript source through
// ts-jest) and end-to-end tests in e2e/ that spawn the real `jest`/`m3` binaries on fixture
// projects. Workspace packages import each other through their built `dist` (npm test builds first).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/examples/servers', '<rootDir>/e2e', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/__fixtures__/', '<rootDir>/e2e/fixtures/'],
  modulePathIgnorePatterns: ['<rootDir>/e2e/fixtures/', '/dist/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  testTimeout: 30_000,
  maxWorkers: 2,
};
