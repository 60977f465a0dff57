#!/usr/bin/env node
// The `m3` command (sf-m3's bin): runs the compiled CLI from packages/cli/dist.
'use strict';
const path = require('node:path');

let cli;
try {
  cli = require(path.join(__dirname, '..', 'packages', 'cli', 'dist', 'main.js'));
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes('cli')) {
    process.stderr.write('m3: the CLI is not built; run `npm run build` (tsc -b) first\n');
    process.exit(2);
  }
  throw error;
}
cli.run(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`m3: ${error && error.message ? String(error.message).split('\n')[0] : String(error)}\n`);
  process.exitCode = 2;
});
