// A child process that spends one results file's judge budget, for the cross-process test.
//   node judgeReserver.js <db> <runId> <limit> <tries>   prints "granted <n>"
'use strict';
require('../../__fixtures__/registerTypeScript');
const { SQLiteExecutionStore } = require('../../SQLiteExecutionStore.ts');

const [dbPath, runId, limitText, triesText] = process.argv.slice(2);

async function main() {
  const store = new SQLiteExecutionStore(dbPath);
  // Concurrent calls within the process as well as across processes.
  const results = await Promise.all(
    Array.from({ length: Number(triesText) }, () => store.reserveJudgeRequest(runId, Number(limitText))),
  );
  await store.close();
  process.stdout.write(`granted ${results.filter(Boolean).length}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
