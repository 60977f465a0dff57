// A child process that opens a results database the way a run or a reader does, for the
// permission tests (run without root's file-permission override):
//   node openStore.js write <db>   open for writing and register a suite
//   node openStore.js read <db>    open read-only and list the runs
// Prints one JSON line: { ok, runs?, notices? } or { ok: false, name, message } (notices: the
// lines the store said, when it said any).
'use strict';
require('./registerTypeScript');
const { SQLiteExecutionStore } = require('../SQLiteExecutionStore.ts');

const [mode, dbPath] = process.argv.slice(2);
(async () => {
  const notices = [];
  const store = new SQLiteExecutionStore(dbPath, { readOnly: mode === 'read', onNotice: (line) => notices.push(line) });
  try {
    if (mode === 'read') {
      const runs = await store.listRuns();
      const said = notices.length > 0 ? { notices } : {};
      process.stdout.write(`${JSON.stringify({ ok: true, runs: runs.map((r) => r.runId), ...said })}\n`);
    } else {
      await store.registerSuite('permissions');
      process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    }
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, name: error.name, message: error.message })}\n`);
  } finally {
    await store.close().catch(() => undefined);
  }
})();
