// Lets a plain `node` child process of a unit test load the packages' TypeScript sources (no build
// needed): `.ts` files are transpiled on require, one file at a time as ts-jest does under
// tsconfig.test.json's isolatedModules, and `@sf-m3/core` resolves to its source entry, as in the
// Jest config. The transpiler is esbuild's (a child loading the store and core transpiles some 280
// files: about 1 s of CPU with esbuild, 6 s with TypeScript's transpileModule, paid by every child).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const esbuild = require('esbuild');

const packages = path.resolve(__dirname, '..', 'packages');
// SF_M3_CORE_DIST=1 takes the built core instead (a child that tests only a store package starts
// faster still), when it is built.
const coreDist = path.join(packages, 'core/dist/index.js');
const useDist = process.env.SF_M3_CORE_DIST === '1' && fs.existsSync(coreDist);
const coreEntry = (dist, source) => path.join(packages, 'core', useDist ? `dist/${dist}` : `src/${source}`);
const aliases = {
  '@sf-m3/core': coreEntry('index.js', 'index.ts'),
  '@sf-m3/core/store': coreEntry('store/index.js', 'store/index.ts'),
  '@sf-m3/core/internal': coreEntry('internal.js', 'internal.ts'),
};

const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolve(request, parent, ...rest) {
  if (Object.prototype.hasOwnProperty.call(aliases, request)) return aliases[request];
  try {
    return originalResolve.call(this, request, parent, ...rest);
  } catch (error) {
    if (request.startsWith('.')) return originalResolve.call(this, `${request}.ts`, parent, ...rest);
    throw error;
  }
};

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = esbuild.transformSync(fs.readFileSync(filename, 'utf8'), {
    loader: 'ts',
    format: 'cjs',
    target: 'es2022',
    sourcefile: filename,
  });
  module._compile(code, filename);
};
