#!/usr/bin/env node
// The slowest test files of a Jest run, from its `--json` output: seconds per file (path from the
// repository root), slowest first, as the KNOWN_SECONDS table of e2e/run/knownDurations.js takes
// them. Usage: npx jest --json --outputFile=/tmp/run.json; node scripts/slowest-test-files.js
// /tmp/run.json [how many, default 15]
'use strict';

const { readFileSync } = require('node:fs');
const path = require('node:path');

const [file, count = '15'] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node scripts/slowest-test-files.js <jest --json output file> [how many]\n');
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const run = JSON.parse(readFileSync(file, 'utf8'));
const seconds = run.testResults
  .map((result) => [
    path.relative(root, result.name).split(path.sep).join('/'),
    Math.round((result.endTime - result.startTime) / 1000),
  ])
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(count));
for (const [test, taken] of seconds) process.stdout.write(`  '${test}': ${taken},\n`);
