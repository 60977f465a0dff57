// Removes the run's shared folder (see globalSetup.js) once every test file has finished.
'use strict';
const { rmSync } = require('node:fs');
const { RUN_DIR_ENV } = require('./globalSetup');

module.exports = async function globalTeardown() {
  const folder = process.env[RUN_DIR_ENV];
  if (folder !== undefined && folder !== '') rmSync(folder, { recursive: true, force: true });
};
