#!/usr/bin/env node
// The planted-faults MCP server (plantedFaults.js) over stdio, for the fuzzer's tests (contract §25):
// the crash tool's fault is this process exiting with code 3 after writing `planted crash: n=<n>`.
//   PLANTED_PID_DIR, when set, gets an empty file named after this process's pid (tests check reaping).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { createPlantedFaultsServer } = require('./plantedFaults');

if (process.env.PLANTED_PID_DIR) fs.writeFileSync(path.join(process.env.PLANTED_PID_DIR, String(process.pid)), '');

const server = createPlantedFaultsServer({
  crash: (message) => {
    process.stderr.write(`${message}\n`, () => process.exit(3));
    return new Promise(() => undefined);
  },
});
server.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`planted-faults failed: ${error}\n`);
  process.exit(1);
});
