// Stops what the run shared (its PostgreSQL cluster, if a file started one) and removes the run's
// shared folder (see globalSetup.js) once every test file has finished.
'use strict';
const { rmSync } = require('node:fs');
const { RUN_DIR_ENV } = require('./globalSetup');
const stopRunCluster = require('./stopRunCluster');

module.exports = async function globalTeardown() {
  const folder = process.env[RUN_DIR_ENV];
  if (folder === undefined || folder === '') return;
  try {
    stopRunCluster(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};
