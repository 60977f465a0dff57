// A child process that merges results databases, for the permission tests (run without root's
// file-permission override):   node mergeStores.js <out> <in>...
// Prints one JSON line: { ok, runIds } or { ok: false, name, message }.
'use strict';
require('./registerTypeScript');
const { mergeResultsDatabases } = require('../merge/mergeDatabases.ts');

const [out, ...inputs] = process.argv.slice(2);
mergeResultsDatabases(out, inputs).then(
  (report) => process.stdout.write(`${JSON.stringify({ ok: true, runIds: report.runIds })}\n`),
  (error) => process.stdout.write(`${JSON.stringify({ ok: false, name: error.name, message: error.message })}\n`),
);
