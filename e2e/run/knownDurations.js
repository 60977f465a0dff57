// How long the repository's slowest test files take, for slowFirstSequencer.js on a machine whose
// Jest cache has no durations yet (a fresh clone, CI). Seconds of one file under the full run's two
// workers on the 2-core machine (`npx jest --json --outputFile=…`, then
// `node scripts/slowest-test-files.js …` prints these lines). Only the order matters, so refresh
// them when a file's cost changes a lot, not on every run (last refreshed from a full run of 447
// files on 2026-12-05, 419 s).
'use strict';

/** Seconds per test file (path from the repository root) of the files known to be slow. */
const KNOWN_SECONDS = {
  // The install files' own work; whichever starts first also builds the shared install.
  'e2e/install/installTypescript6.test.ts': 55,
  'e2e/userProject.test.ts': 28,
  'e2e/install/installTypescript59.test.ts': 28,
  'e2e/init.test.ts': 23,
  'e2e/faults/runFaults.test.ts': 23,
  'e2e/ui/viewer.browser.test.ts': 21,
  'e2e/install/install.test.ts': 20,
  'e2e/examplesTypes.test.ts': 20,
  'e2e/faults/badServers.test.ts': 19,
  'e2e/install/installPnpm.test.ts': 16,
  'e2e/cassettes/cassettes.test.ts': 16,
  'e2e/cli.test.ts': 15,
  'e2e/install/installEras.test.ts': 14,
  'e2e/cliAgents.test.ts': 14,
  'e2e/environment.test.ts': 11,
};

/** What an e2e file not in the table is taken to cost: each one starts real Jest or m3 runs. */
const E2E_DEFAULT_SECONDS = 10;

/**
 * The test files that work on the run's shared install (e2e/install/sharedInstalledProject.ts):
 * the first of them to start builds it (about a minute: packing, and npm installing the tarballs with
 * sqlite3's binding from a local prebuild), the others wait for it.
 */
const SHARED_INSTALL_FILES = [
  'e2e/install/install.test.ts',
  'e2e/install/installTypescript6.test.ts',
  'e2e/install/installTypescript59.test.ts',
  'e2e/install/installPnpm.test.ts',
  'e2e/install/installEras.test.ts',
];

/** Seconds the shared install takes to build (pack, npm install with sqlite3 from a local prebuild). */
const SHARED_INSTALL_BUILD_SECONDS = 60;

module.exports = { KNOWN_SECONDS, E2E_DEFAULT_SECONDS, SHARED_INSTALL_FILES, SHARED_INSTALL_BUILD_SECONDS };
