// The `sf-m3` Jest preset: `module.exports = { preset: 'sf-m3' }` in a project's jest.config.js.
// Everything here is additive to the user's own config: Jest concatenates setupFilesAfterEnv and
// merges transform (the user's patterns are tried first), and the preset sets no testMatch,
// reporters or roots, so the project's own keep working.
'use strict';

const path = require('node:path');

/** The packages the preset loads (sf-m3 depends on each at its exact version). */
const PRESET_PACKAGES = ['@sf-m3/jest-environment', '@sf-m3/matchers', '@sf-m3/core', '@sf-m3/store-sqlite'];

/**
 * Resolves the preset's packages, or throws naming the missing ones and the fix. Jest would show
 * "should have jest-preset.js" for any "Cannot find module" message containing 'sf-m3', which
 * every @sf-m3 name does, so this message must not contain that phrase.
 */
function resolvePresetPackages() {
  const missing = PRESET_PACKAGES.filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new Error(
      `the sf-m3 preset needs ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed ` +
        `next to sf-m3: run \`npm install --save-dev sf-m3\` (it installs all @sf-m3 packages at matching versions)`,
    );
  }
}

resolvePresetPackages();
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

/** Escapes a path for use inside a regular expression. */
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Jest's default transformIgnorePatterns plus the compiled `dist` folders of the @sf-m3 packages,
 * found by their real paths. Installed from the registry they sit under node_modules and the default
 * already skips them; linked (npm link, workspaces, a monorepo checkout) their real paths are
 * outside node_modules, and babel-jest would re-transform several hundred CommonJS files, already
 * compiled, in every new project folder (its cache is keyed by the project's rootDir). A project's
 * own transformIgnorePatterns still replace these, as with any preset.
 */
function transformIgnorePatterns() {
  const compiled = [...PRESET_PACKAGES, '@sf-m3/store-postgres'].flatMap((name) => {
    try {
      return [`^${escapeRegExp(path.join(path.dirname(require.resolve(`${name}/package.json`)), 'dist'))}[\\/]`];
    } catch {
      return [];
    }
  });
  return ['/node_modules/', '\\.pnp\\.[^\\/]+$', ...compiled];
}

/**
 * ts-jest's options under the preset. TS151002 ("Using hybrid module kind (Node16/18/Next) is only
 * supported in isolatedModules: true") is a message ts-jest prints for every file of a project
 * whose tsconfig says `module: NodeNext`/`Node16`, although it compiles them to CommonJS correctly
 * and type-checked; following its advice makes ts-jest transpile each file alone, which emits ES
 * modules in a `"type": "module"` package that Jest (without --experimental-vm-modules) cannot run,
 * and drops type checking. So the preset silences that one code; every other diagnostic still fails
 * the test file, as ts-jest's defaults do.
 */
const TS_JEST_OPTIONS = { diagnostics: { ignoreCodes: [151002] } };

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: path.join(environmentDist, 'M3Environment.js'),
  globalSetup: path.join(environmentDist, 'globalSetup.js'),
  globalTeardown: path.join(environmentDist, 'globalTeardown.js'),
  // Runs inside each test file's sandbox: installs the matchers and builds kits from the same
  // module instances the test imports.
  setupFilesAfterEnv: [path.join(environmentDist, 'setupFramework.js')],
  // Jest's 5 s default is shorter than starting a server process and its SDK on a busy CI machine
  // (the README's first test hit it); the project's own testTimeout still wins over the preset's.
  testTimeout: 30_000,
  // ESM projects (`"type": "module"`, `module: NodeNext`) write relative imports with the extension
  // Node needs after compiling: `./helpers/servers.js` for `./helpers/servers.ts`. ts-jest's ESM
  // recipe maps them to the extensionless path, which Jest resolves through moduleFileExtensions,
  // so a real `./x.js` still resolves to x.js (js comes before ts) and `./x.js` to x.ts when only
  // that exists. Only relative specifiers are mapped; a project's own moduleNameMapper entries are
  // tried first and win on the same pattern.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transformIgnorePatterns: transformIgnorePatterns(),
  transform: {
    // ts-jest through a wrapper that loads it (and the TypeScript compiler) with the first `.ts`
    // file: Jest loads every transformer in each process, and a JavaScript project never needs it.
    ...(tsJest === null
      ? {}
      : {
          '^.+\\.tsx?$': [path.join(environmentDist, 'lazyTsJest.js'), { sfM3TsJestPath: tsJest, ...TS_JEST_OPTIONS }],
        }),
    // Jest's own default for JavaScript, kept so a preset never changes how `.js` files load.
    '^.+\\.[cm]?jsx?$': 'babel-jest',
  },
};
