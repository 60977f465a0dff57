// The repository's Jest run: one private folder every test file of the run may share (named by
// SF_M3_E2E_RUN_DIR, which Jest's workers inherit), so work that several files need, such as the
// install tests' packed and installed project, is done once per run. globalTeardown removes it.
'use strict';
const { mkdtempSync, realpathSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** The variable naming the run's shared folder. */
const RUN_DIR_ENV = 'SF_M3_E2E_RUN_DIR';

module.exports = async function globalSetup() {
  process.env[RUN_DIR_ENV] = realpathSync(mkdtempSync(join(tmpdir(), 'm3-test-run-')));
};
module.exports.RUN_DIR_ENV = RUN_DIR_ENV;
