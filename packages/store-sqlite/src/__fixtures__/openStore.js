// A child process that opens a results database the way a run or a reader does, for the
// permission tests (run without root's file-permission override):
//   node openStore.js write <db>   open for writing and register a suite
//   node openStore.js read <db>    open read-only and list the runs
// Prints one JSON line: { ok, runs? } or { ok: false, name, message }.
'use strict';
require('./registerTypeScript');
const { SQLiteExecutionStore } = require('../SQLiteExecutionStore.ts');

const [mode, dbPath] = process.argv.slice(2);
(async () => {
  const store = new SQLiteExecutionStore(dbPath, { readOnly: mode === 'read' });
  try {
    if (mode === 'read') {
      const runs = await store.listRuns();
      process.stdout.write(`${JSON.stringify({ ok: true, runs: runs.map((r) => r.runId) })}\n`);
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
