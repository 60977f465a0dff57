// A child process that merges results databases, for the permission tests (run without root's
// file-permission override):   node mergeStores.js <out> <in>...
// Prints one JSON line: { ok, runIds, notices? } or { ok: false, name, message } (notices: the lines
// the merge said, when it said any).
'use strict';
require('./registerTypeScript');
const { mergeResultsDatabases } = require('../merge/mergeDatabases.ts');

const [out, ...inputs] = process.argv.slice(2);
const notices = [];
mergeResultsDatabases(out, inputs, { onNotice: (line) => notices.push(line) }).then(
  (report) => {
    const said = notices.length > 0 ? { notices } : {};
    process.stdout.write(`${JSON.stringify({ ok: true, runIds: report.runIds, ...said })}\n`);
  },
  (error) => process.stdout.write(`${JSON.stringify({ ok: false, name: error.name, message: error.message })}\n`),
);
