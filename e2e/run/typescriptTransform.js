// The Jest transform for this repository's own TypeScript (tests and the sources they import):
// esbuild's, one file at a time, as tsconfig.test.json's isolatedModules already promised. Nothing
// is type-checked here, as with ts-jest under isolatedModules before: e2e/examplesTypes.test.ts
// type-checks the tests and `tsc -b` the sources. esbuild takes a fraction of the CPU of
// TypeScript's transpileModule, which a fresh clone (an empty Jest cache) pays for every file
// (measured on 60 unit files, cold: 25.8 → 19.6 s of CPU in all). User projects keep ts-jest: the
// preset and the fixture projects use it, as a user's project does.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const esbuild = require('esbuild');

/** What changes every output: this file, esbuild's version and the options below. */
const TRANSFORM_IDENTITY = createHash('sha256').update(readFileSync(__filename)).update(esbuild.version).digest('hex');

/** esbuild's options: CommonJS for Node 20, with a source map so stack traces name the .ts lines. */
function optionsFor(filename) {
  return {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: filename,
    sourcemap: 'external',
    sourcesContent: false,
    // tsconfig.base.json's target (ES2022) gives TypeScript's define semantics for class fields.
    tsconfigRaw: { compilerOptions: { strict: true, useDefineForClassFields: true, esModuleInterop: true } },
  };
}

module.exports = {
  canInstrument: false,
  getCacheKey(source, filename) {
    return createHash('sha256')
      .update(TRANSFORM_IDENTITY)
      .update('\0')
      .update(filename)
      .update('\0')
      .update(source)
      .digest('hex');
  },
  process(source, filename) {
    const { code, map } = esbuild.transformSync(source, optionsFor(filename));
    return { code, map };
  },
};
