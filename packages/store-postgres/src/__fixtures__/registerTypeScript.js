// Lets a plain `node` child process load the TypeScript sources (no build needed): `.ts` files are
// transpiled on require with TypeScript's own transpileModule, and `@sf-m3/core` resolves to its
// source entry, as in the Jest config.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const ts = require('typescript');

const packages = path.resolve(__dirname, '../../..');
// SF_M3_CORE_DIST=1 takes the built core instead (a child that tests only this package starts in
// seconds instead of transpiling all of core's sources).
const coreDist = path.join(packages, 'core/dist/index.js');
const useDist = process.env.SF_M3_CORE_DIST === '1' && fs.existsSync(coreDist);
const aliases = { '@sf-m3/core': useDist ? coreDist : path.join(packages, 'core/src/index.ts') };

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
  const source = fs.readFileSync(filename, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};
