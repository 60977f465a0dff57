// Stops the run's shared PostgreSQL cluster, if a test file started one (see
// packages/test-utils/src/postgres/runCluster.ts): runs the stop command its description names,
// then removes the cluster's folder.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

/** @param {string} runFolder the run's shared folder (SF_M3_E2E_RUN_DIR) */
module.exports = function stopRunCluster(runFolder) {
  const file = join(runFolder, 'postgres', 'cluster.json');
  if (!existsSync(file)) return;
  /** @type {{ dir: string, stopCommand: string[] }} */
  const { dir, stopCommand } = JSON.parse(readFileSync(file, 'utf8'));
  try {
    const [command, ...args] = stopCommand;
    execFileSync(command, args, { stdio: 'ignore', timeout: 60_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
