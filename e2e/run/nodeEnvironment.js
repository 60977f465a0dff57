// The test environment of the project's own tests (the processes and e2e projects; the unit
// project's extends it): Jest's Node environment, with two things a worker running about 200 of our
// files needs:
// - without Jest 30's leak of one AsyncLocalStorage per test file
//   (packages/jest-environment/src/fileAsyncLocalStorages.ts, which the preset's environment uses
//   too): with the leak, each promise of a worker's last files visited about 200 storages;
// - with V8's code cache for the modules the files load again and again (moduleCodeCache.js).
'use strict';
const { TestEnvironment } = require('jest-environment-node');
const { installModuleCodeCache } = require('./moduleCodeCache');
// Jest loads an environment through the project's transform, so the TypeScript source loads as is.
const { trackFileAsyncLocalStorages } = require('../../packages/jest-environment/src/fileAsyncLocalStorages.ts');

class NodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    installModuleCodeCache();
    this.asyncLocalStorages = trackFileAsyncLocalStorages();
  }

  async teardown() {
    await super.teardown();
    this.asyncLocalStorages.release();
  }
}

module.exports = NodeEnvironment;
