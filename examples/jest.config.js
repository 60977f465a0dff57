// The example suites, configured the way a user configures their own project. In your project the
// preset line is `preset: 'sf-m3'`; here the package is this repository itself, so it is named by path.
/** @type {import('jest').Config} */
module.exports = {
  preset: '<rootDir>/../jest-preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/suites/**/*.test.ts'],
  // In your project `sf-m3` resolves from node_modules; inside this repository it is the root package.
  moduleNameMapper: { '^sf-m3$': '<rootDir>/../index.js', '^sf-m3/testing$': '<rootDir>/../testing.js' },
  testTimeout: 30_000,
};
