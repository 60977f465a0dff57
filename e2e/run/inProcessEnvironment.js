// The unit project's test environment: Jest's Node environment in which starting a child
// process fails (inProcessGuard.js), so a test that starts one is moved to the processes project
// instead of slowing down `npm run test:quick`.
'use strict';
const { TestEnvironment } = require('jest-environment-node');
const { guardChildProcesses } = require('./inProcessGuard');

class InProcessEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.guard = null;
  }

  async setup() {
    await super.setup();
    this.guard = guardChildProcesses(this.testPath);
  }

  async teardown() {
    const attempt = this.guard === null ? null : this.guard.release();
    this.guard = null;
    await super.teardown();
    if (attempt !== null) throw attempt;
  }
}

module.exports = InProcessEnvironment;
