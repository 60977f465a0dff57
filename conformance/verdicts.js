// The framework's own verdict on one scenario, read from its exit status and the checks.json it
// wrote, and the table `npm run conformance` prints.
'use strict';

const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

/** The `checks.json` the framework wrote under `dir` (it adds a timestamped folder per scenario). */
function findChecksFile(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    if (entry === 'checks.json') return path;
    if (statSync(path).isDirectory()) {
      const found = findChecksFile(path);
      if (found) return found;
    }
  }
  return undefined;
}

/** Counts of the check statuses the framework scores (INFO and SKIPPED are not scored). */
function countChecks(checks) {
  const counts = { success: 0, failure: 0, warning: 0 };
  for (const check of checks) {
    if (check.status === 'SUCCESS') counts.success += 1;
    else if (check.status === 'FAILURE') counts.failure += 1;
    else if (check.status === 'WARNING') counts.warning += 1;
  }
  return counts;
}

/**
 * One scenario's verdict. It passes only when the framework agrees twice: its CLI exited 0 (no
 * failed or warning check, the client neither timed out nor failed) and the checks it saved hold at
 * least one SUCCESS and no FAILURE or WARNING. Anything else is a failure with its reason.
 */
function verdict({ scenario, run, checks, seconds }) {
  const counts = checks === undefined ? undefined : countChecks(checks);
  const failing = (checks ?? []).filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  let reason;
  if (run.timedOut) reason = 'the framework did not finish in time';
  else if (checks === undefined) reason = 'the framework saved no checks.json';
  else if (failing.length > 0) {
    const first = failing[0];
    reason = `${first.status} ${first.id}: ${first.errorMessage ?? first.description}`;
  } else if (run.status !== 0)
    reason = `the framework failed the run (exit ${run.status ?? run.signal}): the client did not finish cleanly`;
  else if (counts.success === 0) reason = 'no check succeeded';
  return { scenario, passed: reason === undefined, counts, reason, seconds };
}

/** Reads the checks the framework saved under `dir`; undefined when there are none or they are unreadable. */
function readChecks(dir) {
  const file = findChecksFile(dir);
  if (file === undefined) return undefined;
  try {
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(checks) ? checks : undefined;
  } catch {
    return undefined;
  }
}

/** The adapter's stderr as the framework saved it (for a failure's explanation), last lines only. */
function readClientStderr(dir, maxLines = 8) {
  const file = findChecksFile(dir);
  if (file === undefined) return '';
  try {
    const text = readFileSync(join(file, '..', 'stderr.txt'), 'utf8').trim();
    return text.split('\n').slice(-maxLines).join('\n');
  } catch {
    return '';
  }
}

/** The result table, one row per scenario, then the totals line. */
function formatTable(verdicts) {
  const rows = verdicts.map((v) => [
    v.passed ? 'PASS' : 'FAIL',
    v.scenario,
    v.counts === undefined ? '-' : `${v.counts.success}/${v.counts.failure}/${v.counts.warning}`,
    `${v.seconds.toFixed(1)} s`,
    v.reason ?? '',
  ]);
  const head = ['verdict', 'scenario', 'ok/fail/warn', 'time', 'reason'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const passed = verdicts.filter((v) => v.passed).length;
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `${passed}/${verdicts.length} client scenarios passed`,
  ].join('\n');
}

module.exports = { findChecksFile, countChecks, verdict, readChecks, readClientStderr, formatTable };
