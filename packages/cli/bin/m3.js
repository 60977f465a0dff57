#!/usr/bin/env node
// The `m3` command (the bin of @sf-m3/cli, and through bin/m3.js of sf-m3): runs the compiled CLI.
'use strict';
const path = require('node:path');

const mainFile = path.join(__dirname, '..', 'dist', 'main.js');
let cli;
try {
  cli = require(mainFile);
} catch (error) {
  // Only an installed package always has dist/; a checkout of the sf-m3 repository needs a build.
  if (error && error.code === 'MODULE_NOT_FOUND' && String(error.message).includes(mainFile)) {
    process.stderr.write(
      `m3: the CLI is not built (${mainFile} is missing); in the sf-m3 repository run \`npm run build\`\n`,
    );
    process.exit(2);
  }
  throw error;
}
cli.run(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`m3: ${error && error.message ? String(error.message).split('\n')[0] : String(error)}\n`);
  process.exitCode = 2;
});
