#!/usr/bin/env node
// `npm run examples`: builds the workspace, then runs the example suites through the `m3` CLI, as
// a user would run `npx m3 test`, saving the run into `.m3/executions.sqlite` and printing the
// summary.
//   npm run examples                  build, then run
//   npm run examples -- --no-build    skip `npm run build` (CI has just built, in `npm test`)
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--no-build');
if (unknown.length > 0) throw new Error(`unknown argument '${unknown[0]}': the only option is --no-build`);
if (!args.includes('--no-build')) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const built = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.error) throw built.error;
  if (built.status !== 0) process.exit(built.status ?? 1);
}
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
