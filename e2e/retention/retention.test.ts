// End-to-end: `m3 merge` and `m3 prune` through the real `m3` bin, on results databases written
// by real `m3 test` runs of a fixture project (two Jest shards of one run, and an unsharded run).
// Which runs a database holds around a prune is read from the store itself (a child `m3 runs` costs
// half a second of CPU, and `m3 runs` is not what these tests are about). One call of each command
// (`merge`, `prune`, `report`) goes through the bin, checking its exit status and output; the others
// go through the compiled CLI's `main` in this process (what the bin runs), without a child's CPU.
import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { copyFixture, ensureBuilt, removeFixture, runM3, runM3Async, runM3InProcess, type M3Run } from '../cli.testkit';

// Three real `m3 test` runs at once, on a machine other jobs may be loading: minutes, not seconds.
jest.setTimeout(900_000);
const RUN_TIMEOUT_MS = 600_000;

let folder: string;
const db = (name: string): string => join(folder, `${name}.sqlite`);

/** `m3 <args>` in the fixture folder through the compiled CLI's `main`, in this process. */
const m3 = (args: string[]): Promise<M3Run> => runM3InProcess(args, folder);

/** `m3 report RUN --json` of a database (through `main`), parsed; fails the test with m3's output when it did not exit 0. */
async function report(runId: string, file: string): Promise<Record<string, any>> {
  const run = await m3(['report', runId, '--results-db', file, '--json']);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

/** What a report says about the run's content (not where it was saved). */
function counted(summary: Record<string, any>) {
  return {
    status: summary.status,
    attempts: summary.attempts,
    suites: summary.suites
      .map((s: any) => ({ name: s.name, attempts: s.attempts }))
      .sort((a: any, b: any) => a.name.localeCompare(b.name)),
    evaluations: summary.evaluations,
  };
}

/** The run ids a results database holds, newest first (as `m3 runs` lists them). */
async function runIdsIn(file: string): Promise<string[]> {
  const store = new SQLiteExecutionStore(file);
  try {
    return (await store.listRuns()).map((r) => r.runId);
  } finally {
    await store.close();
  }
}

const expectOk = (run: M3Run): void =>
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });

beforeAll(async () => {
  ensureBuilt();
  folder = copyFixture('retention-shards');
  const runs = await Promise.all([
    runM3Async(
      ['test', '--run-id', 'run-sharded', '--results-db', db('shard-1'), '--', '--shard=1/2', '--runInBand'],
      folder,
      {},
      RUN_TIMEOUT_MS,
    ),
    runM3Async(
      ['test', '--run-id', 'run-sharded', '--results-db', db('shard-2'), '--', '--shard=2/2', '--runInBand'],
      folder,
      {},
      RUN_TIMEOUT_MS,
    ),
    runM3Async(
      ['test', '--run-id', 'run-whole', '--results-db', db('whole'), '--', '--runInBand'],
      folder,
      {},
      RUN_TIMEOUT_MS,
    ),
  ]);
  for (const run of runs)
    expect({ status: run.status, out: run.status === 0 ? '' : run.stdout + run.stderr }).toEqual({
      status: 0,
      out: '',
    });
});
afterAll(() => removeFixture(folder));

describe('m3 merge', () => {
  /** The merged run's report right after the first merge. */
  let mergedReport: Record<string, any>;

  test('two shard files of one run merge into one run whose report is the sum of the shards', async () => {
    const shard1 = await report('run-sharded', db('shard-1'));
    const shard2 = await report('run-sharded', db('shard-2'));
    expect(shard1.attempts.total).toBeGreaterThan(0);
    expect(shard2.attempts.total).toBeGreaterThan(0);

    // The bin's merge: its exit status and output.
    const merge = runM3(['merge', db('merged'), db('shard-1'), db('shard-2')], folder);
    expectOk(merge);
    expect(merge.stdout).toMatch(/^m3 merge {2}merged\.sqlite {2}<- {2}shard-1\.sqlite, shard-2\.sqlite\n/);
    expect(merge.stdout).toContain('runs      run-sharded\n');

    const merged = await report('run-sharded', db('merged'));
    mergedReport = merged;
    const sum = (key: string) => shard1.attempts[key] + shard2.attempts[key];
    expect(merged.attempts).toEqual({
      total: sum('total'),
      passed: sum('passed'),
      failed: sum('failed'),
      skipped: sum('skipped'),
      todo: sum('todo'),
    });
    // The same tests run unsharded give the same counts, per suite and per evaluator.
    expect(counted(merged)).toEqual(counted(await report('run-whole', db('whole'))));
    const toolCalls = merged.evaluations.find((e: any) => e.evaluator === 'm3.expect.toHaveStructuredContent');
    expect(toolCalls).toMatchObject({ expected: 3, passed: 3 });
    expect(merged.startedAt <= shard1.startedAt && merged.startedAt <= shard2.startedAt).toBe(true);
  });

  test('merging the same files again adds nothing and the report stays the same', async () => {
    const before = mergedReport;
    const again = await m3(['merge', db('merged'), db('shard-2'), db('shard-1')]);
    expectOk(again);
    expect(again.stdout).toContain(
      'added     0 runs, 0 attempts, 0 executions, 0 evaluations, 0 evidence blobs, 0 suites\n',
    );
    expect(again.stdout).toContain('nothing new');
    const after = await report('run-sharded', db('merged'));
    expect({ ...after, feedbackPath: null }).toEqual({ ...before, feedbackPath: null });
  });

  test('refuses a file that is not an sf-m3 database, names it, exits 2 and leaves OUT alone', async () => {
    const notes = join(folder, 'notes.sqlite');
    writeFileSync(notes, 'these are notes, not a database; '.repeat(10));
    const size = statSync(db('merged')).size;
    const run = await m3(['merge', db('merged'), db('shard-1'), notes]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/notes\.sqlite is not an sf-m3 results database/);
    expect(statSync(db('merged')).size).toBe(size);
    expect((await m3(['merge', db('merged')])).status).toBe(2);
  });
});

describe('m3 prune', () => {
  let history: string;
  beforeAll(async () => {
    history = db('history');
    expectOk(await m3(['merge', history, db('shard-1'), db('shard-2'), db('whole')]));
  });

  test('--dry-run prints what would go and changes nothing', async () => {
    const size = statSync(history).size;
    const run = await m3(['prune', '--results-db', history, '--keep-runs', '1', '--dry-run']);
    expectOk(run);
    expect(statSync(history).size).toBe(size);
    const runIds = await runIdsIn(history);
    expect(runIds).toHaveLength(2);
    expect(run.stdout).toContain(`would prune 1 run, `);
    expect(run.stdout).toContain(`  ${runIds[1]}\n`);
    expect(run.stdout).toContain('dry run: nothing was changed');
  });

  test('--keep-runs deletes the older run, reclaims the space, and the kept run reports as before', async () => {
    const file = db('keep');
    copyFileSync(history, file);
    const [kept, old] = await runIdsIn(file);
    const keptBefore = await report(kept, file);
    const before = statSync(file).size;

    const run = await m3(['prune', '--results-db', file, '--keep-runs', '1', '--json']);
    expectOk(run);
    const pruned = JSON.parse(run.stdout);
    expect(pruned).toMatchObject({ dryRun: false, runIds: [old], executionCount: 3, evaluationCount: 4 });
    expect(pruned.bytesAfter).toBeLessThan(pruned.bytesBefore);
    const after = statSync(file).size;
    expect(after).toBeLessThan(before);
    expect(after).toBe(pruned.bytesAfter);
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);

    expect(await runIdsIn(file)).toEqual([kept]);
    expect({ ...(await report(kept, file)), resultsDb: null }).toEqual({ ...keptBefore, resultsDb: null });
    // The bin's report: its exit status and message for a run the prune removed.
    const gone = runM3(['report', old, '--results-db', file], folder);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain(`run ${old} is not in the results database`);
  });

  test('--older-than deletes the runs that started before the duration ago, and prints the space', async () => {
    const file = db('aged');
    copyFileSync(history, file);
    const store = new SQLiteExecutionStore(file);
    const whole = (await store.getRun('run-whole'))!;
    await store.saveRun({ ...whole, startedAt: '2020-01-01T00:00:00.000Z' });
    await store.close();

    const nothing = await m3(['prune', '--results-db', file, '--older-than', '3650d']);
    expectOk(nothing);
    expect(nothing.stdout).toContain('nothing to prune');
    const run = await m3(['prune', '--results-db', file, '--older-than', '30d']);
    expectOk(run);
    expect(run.stdout).toMatch(/pruned 1 run, 3 executions, 4 evaluations:\n {2}run-whole\n/);
    expect(run.stdout).toMatch(/database {2}[\d.]+ [KM]B -> [\d.]+ [KM]B \([\d.]+ [KM]B reclaimed\)\n/);
    expect(await runIdsIn(file)).toEqual(['run-sharded']);
  });

  test('bad arguments are usage errors (exit 2) that say what to pass', async () => {
    const cases: [string[], RegExp][] = [
      [[], /exactly one of --keep-runs N .* and --older-than DURATION/],
      [['--keep-runs', '2', '--older-than', '30d'], /exactly one of --keep-runs/],
      [['--keep-runs', '-1'], /--keep-runs: must be a whole number of runs to keep/],
      [['--keep-runs', 'all'], /--keep-runs: must be a whole number/],
      [['--older-than', '30'], /--older-than: "30" is not a duration: .* e\.g\. 30d/],
      [['--older-than', '1y'], /--older-than: "1y" is not a duration/],
    ];
    // The first through the bin (the process's exit status and stderr), the rest through its main.
    const first = runM3(['prune', '--results-db', history, ...cases[0]![0]], folder);
    expect({ status: first.status, stderr: first.stderr }).toEqual({
      status: 2,
      stderr: expect.stringMatching(cases[0]![1]),
    });
    for (const [args, message] of cases.slice(1)) {
      const run = await m3(['prune', '--results-db', history, ...args]);
      expect({ args, status: run.status }).toEqual({ args, status: 2 });
      expect(run.stderr).toMatch(message);
    }
    const missing = await m3(['prune', '--results-db', db('nowhere'), '--keep-runs', '1']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no results database at');
    expect(existsSync(db('nowhere'))).toBe(false);
  });
});
