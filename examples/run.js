#!/usr/bin/env node
// `npm run examples`: runs the example suites through the `m3` CLI, as a user would run
// `npx m3 test`, saving the run into `.m3/executions.sqlite` and printing the summary.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'bin', 'm3.js'),
    'test',
    '--results-db',
    '.m3/executions.sqlite',
    '--',
    '--config',
    'examples/jest.config.js',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (result.error) throw result.error;
process.exit(result.status ?? 1);
