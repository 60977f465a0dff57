#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.js in sequence, each comparing sf-m3 with the raw
// library it wraps on the same work, and prints their tables. Not part of `npm test`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

async function main() {
  const only = process.argv.slice(2);
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  let failed = 0;
  for (const file of files) {
    process.stdout.write(`\n=== ${file} ===\n`);
    const started = Date.now();
    try {
      const mod = require(path.join(__dirname, file));
      await mod.run();
    } catch (error) {
      failed += 1;
      process.stdout.write(`FAILED: ${error && error.stack ? error.stack : String(error)}\n`);
    }
    process.stdout.write(`(${file} took ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

main();
