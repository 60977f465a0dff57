// The unit project's promise (jest.config.js): its tests run in the Jest worker and start no
// process. While a unit test file runs, every way of starting a child process throws an error that
// names the file and the fix; processTests.js lists the files that do start processes.
'use strict';
const childProcess = require('node:child_process');

/** The child_process functions that start a process. */
const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];

/**
 * Makes starting a child process throw for as long as `testPath` runs. Returns `release()`,
 * which puts the real functions back and returns the error to fail the file with if any start
 * was attempted (a test may have caught the first error, e.g. one expecting a server to fail).
 * @param {string} testPath the test file, named in the error
 * @returns {{ release: () => Error | null }}
 */
function guardChildProcesses(testPath) {
  const originals = STARTERS.map((name) => [name, childProcess[name]]);
  /** @type {Error | null} */
  let first = null;
  for (const [name] of originals) {
    childProcess[name] = function startsNoProcess(command) {
      const error = new Error(
        `${testPath} starts a child process (child_process.${name}(${JSON.stringify(String(command))})), ` +
          'but the unit project (npm run test:quick) runs in-process tests only: ' +
          'list the file in e2e/run/processTests.js so it runs in the processes project.',
      );
      first ??= error;
      throw error;
    };
  }
  return {
    release() {
      for (const [name, original] of originals) childProcess[name] = original;
      return first;
    },
  };
}

module.exports = { guardChildProcesses, STARTERS };
