// The `sf-m3` Jest preset: `module.exports = { preset: 'sf-m3' }` in a project's jest.config.js.
// Everything here is additive to the user's own config: Jest concatenates setupFilesAfterEnv and
// merges transform (the user's patterns are tried first), and the preset sets no testMatch,
// reporters or roots, so the project's own keep working.
'use strict';

const path = require('node:path');

const environmentDist = path.join(path.dirname(require.resolve('@sf-m3/jest-environment/package.json')), 'dist');

/** ts-jest is a peer dependency: without it, `.ts` files are left to the user's own transform. */
function resolveTsJest() {
  try {
    return require.resolve('ts-jest');
  } catch {
    return null;
  }
}

const tsJest = resolveTsJest();

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: path.join(environmentDist, 'M3Environment.js'),
  globalSetup: path.join(environmentDist, 'globalSetup.js'),
  globalTeardown: path.join(environmentDist, 'globalTeardown.js'),
  // Runs inside each test file's sandbox: installs the matchers and builds kits from the same
  // module instances the test imports.
  setupFilesAfterEnv: [path.join(environmentDist, 'setupFramework.js')],
  transform: {
    ...(tsJest === null ? {} : { '^.+\\.tsx?$': tsJest }),
    // Jest's own default for JavaScript, kept so a preset never changes how `.js` files load.
    '^.+\\.[cm]?jsx?$': 'babel-jest',
  },
};
