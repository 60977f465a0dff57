// The process `m3 test` runs Jest in (not a user command). It first reads the project's Jest config
// with the project's own `jest-config` (`readInitialOptions`: every file format, ESM by import(),
// TypeScript as Jest loads it, a function awaited) and answers `testEnvironmentOptions.m3` to `m3`
// on fd 3, whatever the config prints. It then waits on fd 4: `run` starts Jest here, in this same
// process, where the jest-config modules just loaded are the ones Jest uses; anything else (a usage
// error in `m3`, or `m3` gone) ends it before Jest starts. So the user's config never runs inside
// `m3`, and reading it costs no second process.
// argv: <jest bin> <jest-config module, or '' when m3 found none> <project folder> <--config, or ''> [jest args…]
'use strict';

const { closeSync, readSync, writeSync } = require('node:fs');

const ANSWER_FD = 3;
const GO_FD = 4;
const [jestBin, jestConfig, folder, configArg, ...jestArgs] = process.argv.slice(2);

/** Writes the answer and closes fd 3, so `m3` reads it whole at end of stream. */
function answer(value) {
  try {
    writeSync(ANSWER_FD, JSON.stringify(value));
  } finally {
    closeSync(ANSWER_FD);
  }
}

/** Reads the project's config; never throws (a config Jest cannot read is Jest's to report). */
async function readConfig() {
  if (jestConfig === '') return closeSync(ANSWER_FD);
  try {
    const { config, configPath } = await require(jestConfig).readInitialOptions(
      configArg === '' ? undefined : configArg,
      { packageRootOrConfig: folder },
    );
    const options = config && config.testEnvironmentOptions;
    const m3 = options && typeof options === 'object' ? options.m3 : undefined;
    answer({ status: 'loaded', configPath, m3: m3 === undefined ? null : m3 });
  } catch (error) {
    const message = String((error && error.message) || error);
    answer(/^Could not find a config file/.test(message) ? { status: 'none' } : { status: 'failed', message });
  }
}

/** Blocks until `m3` says what to do: true for `run`; false for anything else, or fd 4 closed unsaid. */
function toldToRun() {
  const buffer = Buffer.alloc(16);
  let said = '';
  for (;;) {
    let read;
    try {
      read = readSync(GO_FD, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error && error.code === 'EAGAIN') continue;
      return false;
    }
    if (read === 0) break;
    said += buffer.toString('utf8', 0, read);
    if (said.includes('\n')) break;
  }
  closeSync(GO_FD);
  return said.trim() === 'run';
}

readConfig().then(() => {
  if (!toldToRun()) process.exit(0);
  // Jest sees the command line it would have seen had `m3` spawned its bin directly.
  process.argv = [process.argv[0], jestBin, ...jestArgs];
  require(jestBin);
});
