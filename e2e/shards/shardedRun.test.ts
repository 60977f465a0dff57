// Three `m3 test --run-id ID -- --shard=i/3` processes at once, each in its own copy of the project
// (as on three CI machines), write one run into one PostgreSQL history; the run's summary must
// equal an unsharded run of the same project, and the database password must never be printed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ThrowawayCluster } from '@sf-m3/test-utils/postgres';
import { PostgresExecutionStore } from '../../packages/store-postgres/src/PostgresExecutionStore';
import { copyFixture, ensureBuilt, removeFixture, repoRoot, runM3Async, type M3Run } from '../cli.testkit';

jest.setTimeout(900_000);
/** Four `m3 test` processes share the machine at once: generous, this is not a timing test. */
const RUN_LIMIT_MS = 600_000;

let cluster: ThrowawayCluster;
const folders: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  if (!existsSync(join(repoRoot, 'packages/store-postgres/dist/index.js'))) {
    const build = spawnSync('npx', ['tsc', '-b'], { cwd: repoRoot, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npx tsc -b failed:\n${build.stdout}${build.stderr}`);
  }
  cluster = await ThrowawayCluster.start();
});

afterAll(async () => {
  for (const folder of folders) removeFixture(folder);
  await cluster?.stop();
});

function project(): string {
  const folder = copyFixture('shards-postgres');
  folders.push(folder);
  return folder;
}

/** What must agree between the sharded and the unsharded run (ids and times differ). */
function comparable(summary: Record<string, any>): unknown {
  return {
    status: summary.status,
    verdict: summary.verdict,
    attempts: summary.attempts,
    suites: summary.suites.map((s: Record<string, any>) => [s.name, s.attempts]),
    failedTests: summary.failedTests.map((t: Record<string, any>) => t.fullName),
    evaluations: summary.evaluations.map((e: Record<string, any>) => ({ ...e, passRateInterval: undefined })),
  };
}

function json(run: M3Run): Record<string, any> {
  return JSON.parse(run.stdout) as Record<string, any>;
}

it('three shards running at once write one run whose summary equals the unsharded run', async () => {
  const url = await cluster.createDatabase('shards');
  const password = new URL(url).password;
  const env = { M3_RESULTS_DB: url };

  // The unsharded run of the same project runs beside them, into the same history (in band: one
  // Jest process, as each shard of one file is).
  const [unsharded, ...shards] = await Promise.all([
    runM3Async(['test', '--run-id', 'run-whole', '--json', '--', '--runInBand'], project(), env, RUN_LIMIT_MS),
    ...[1, 2, 3].map((i) =>
      runM3Async(['test', '--run-id', 'run-sharded', '--json', '--', `--shard=${i}/3`], project(), env, RUN_LIMIT_MS),
    ),
  ]);
  const outputs = shards.map((run) => `${run.stdout}${run.stderr}`);
  for (const output of outputs) expect(output).not.toContain(password);
  // Exactly one shard finished the run and printed it whole; the others said where the run stood.
  const finals = shards.filter((run) => json(run).runFinished !== false);
  expect(finals).toHaveLength(1);
  for (const run of shards.filter((r) => json(r).runFinished === false)) {
    expect(json(run)).toMatchObject({ runId: 'run-sharded', runFinished: false });
  }
  // Only the shard holding the failing test fails; the last shard's status is the run's verdict.
  expect(shards.map((run) => run.status).sort()).toEqual(
    shards.map((run) => ((json(run).shardVerdict ?? json(run).verdict) === 'passed' ? 0 : 1)).sort(),
  );

  expect(unsharded!.status).toBe(1); // part 3 holds a failing test
  const where = project();
  const report = await runM3Async(['report', 'run-sharded', '--json'], where, env);
  const whole = await runM3Async(['report', 'run-whole', '--json'], where, env);
  expect(report.status).toBe(1);
  expect(`${report.stdout}${report.stderr}`).not.toContain(password);
  expect(comparable(json(report))).toEqual(comparable(json(whole)));
  expect(json(report)).toMatchObject({
    status: 'failed',
    attempts: { passed: 3, failed: 1, skipped: 1, todo: 1 },
    resultsDb: `postgres://[REDACTED]@127.0.0.1:${cluster.port}/shards`,
  });
  expect(comparable(json(finals[0]!))).toEqual(comparable(json(report)));

  // One run in the history, finished once, with every shard's attempts and no secret saved.
  const store = new PostgresExecutionStore(url, { readOnly: true });
  try {
    const runs = await store.listRuns();
    expect(runs.map((r) => r.runId).sort()).toEqual(['run-sharded', 'run-whole']);
    const run = runs.find((r) => r.runId === 'run-sharded')!;
    expect(run).toMatchObject({ status: 'failed', counts: { passed: 3, failed: 1, skipped: 1, todo: 1 } });
    expect(JSON.stringify(run)).not.toContain(password);
    expect((await store.listRunShards('run-sharded')).map((s) => [s.index, s.status])).toEqual([
      [1, 'finished'],
      [2, 'finished'],
      [3, 'finished'],
    ]);
    expect((await store.listAttempts({ runId: 'run-sharded' })).length).toBe(
      (await store.listAttempts({ runId: 'run-whole' })).length,
    );
  } finally {
    await store.close();
  }
});

it('names the package, the flag or the fix when a shard cannot write', async () => {
  const folder = project();
  const noRunId = await runM3Async(['test', '--results-db', cluster.url('shards'), '--', '--shard=1/3'], folder);
  expect(noRunId.status).toBe(2);
  expect(noRunId.stderr).toMatch(/--run-id.*shards write one run: give every shard the same --run-id ID/);
  const refused = await runM3Async(['test', '--results-db', 'postgres://m3:refused-canary@127.0.0.1:1/m3'], folder);
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(
    /postgres:\/\/\[REDACTED\]@127\.0\.0\.1:1\/m3: the connection was refused: start PostgreSQL/,
  );
  expect(`${refused.stdout}${refused.stderr}`).not.toContain('refused-canary');
});
