#!/usr/bin/env node
// The `m3` command of sf-m3: runs the bin of @sf-m3/cli, found the way Node finds any dependency,
// so it works in an installed project and, through the workspace link, in the sf-m3 repository.
'use strict';

let cliBin;
try {
  cliBin = require.resolve('@sf-m3/cli/bin/m3.js');
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND') {
    process.stderr.write(
      'm3: the package @sf-m3/cli is not installed (sf-m3 depends on it); run `npm install --save-dev sf-m3`\n',
    );
    process.exit(2);
  }
  throw error;
}
require(cliBin);
