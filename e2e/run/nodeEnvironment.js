// The test environment of the project's own tests (the processes and e2e projects; the unit
// project's extends it): Jest's Node environment without Jest 30's leak of one AsyncLocalStorage
// per test file (packages/jest-environment/src/fileAsyncLocalStorages.ts, which the preset's
// environment uses too): with the leak, each promise of a worker's last files (a worker runs about
// 200 of ours) visited about 200 storages.
'use strict';
const { TestEnvironment } = require('jest-environment-node');
// Jest loads an environment through the project's transform, so the TypeScript source loads as is.
const { trackFileAsyncLocalStorages } = require('../../packages/jest-environment/src/fileAsyncLocalStorages.ts');

class NodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.asyncLocalStorages = trackFileAsyncLocalStorages();
  }

  async teardown() {
    await super.teardown();
    this.asyncLocalStorages.release();
  }
}

module.exports = NodeEnvironment;
