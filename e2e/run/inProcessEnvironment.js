// The unit project's test environment: the project's Node environment (nodeEnvironment.js) in which starting a child
// process fails (inProcessGuard.js), so a test that starts one is moved to the processes project
// instead of slowing down `npm run test:quick`.
'use strict';
const NodeEnvironment = require('./nodeEnvironment');
const { guardChildProcesses } = require('./inProcessGuard');

class InProcessEnvironment extends NodeEnvironment {
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
