// The order in which the repository's Jest run starts its test files: slowest first, so the two
// workers stay busy to the end instead of one finishing a long file alone. Jest's own sequencer
// orders by the durations its cache kept from the last run, but a fresh clone (CI) has no cache and
// it falls back to file size, which starts the small install files (minutes each) last. Here a
// file's duration is the cache's when it has one, else knownDurations.js. The files that share the
// run's install (e2e/install/sharedInstalledProject.ts) are spread out: the first starts at once and
// builds the install, the others start only once the other worker has had about as much work as
// the build takes, so no worker sits waiting for the build while other files are queued.
'use strict';

const { relative, sep } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const knownDurations = require('./knownDurations');

/** A test file's path from the repository root, with forward slashes. */
function repoPath(test) {
  return relative(test.context.config.rootDir, test.path).split(sep).join('/');
}

class SlowFirstSequencer extends Sequencer {
  /** Jest passes `options`; `known` is knownDurations.js unless a test gives its own table. */
  constructor(options, known = knownDurations) {
    super(options);
    this.known = known;
  }

  /** Milliseconds the file is expected to take: the cache's figure, the known one, or 0. */
  expectedMs(test) {
    const cached = this.time(test);
    if (cached !== undefined) return cached;
    const path = repoPath(test);
    if (this.known.KNOWN_SECONDS[path] !== undefined) return this.known.KNOWN_SECONDS[path] * 1000;
    return path.startsWith('e2e/') ? this.known.E2E_DEFAULT_SECONDS * 1000 : 0;
  }

  sort(tests) {
    // As Jest's own sort does: the cached durations also decide whether a small run goes in band.
    for (const test of tests) test.duration = this.time(test);
    const expected = new Map(tests.map((test) => [test, this.expectedMs(test)]));
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const ordered = [...tests].sort(
      (a, b) =>
        Number(this.hasFailed(b)) - Number(this.hasFailed(a)) || expected.get(b) - expected.get(a) || size(b) - size(a),
    );
    return spreadSharedInstallFiles(ordered, expected, this.known);
  }
}

/**
 * Moves the first shared-install file to the front and the other ones to just after the files
 * that together take the build's time, keeping every other file in order.
 */
function spreadSharedInstallFiles(ordered, expected, { SHARED_INSTALL_FILES, SHARED_INSTALL_BUILD_SECONDS }) {
  const usesInstall = (test) => SHARED_INSTALL_FILES.includes(repoPath(test));
  const [builder, ...waiters] = ordered.filter(usesInstall);
  if (builder === undefined) return ordered;
  const others = ordered.filter((test) => !usesInstall(test));
  let meanwhileMs = 0;
  let at = 0;
  while (at < others.length && meanwhileMs < SHARED_INSTALL_BUILD_SECONDS * 1000) {
    meanwhileMs += expected.get(others[at]);
    at += 1;
  }
  return [builder, ...others.slice(0, at), ...waiters, ...others.slice(at)];
}

module.exports = SlowFirstSequencer;
