// End-to-end: a user's project that installed sf-m3 (node_modules/sf-m3 links to this repository,
// as `npm install` does for a `file:` dependency) and follows the README: `preset: 'sf-m3'` by
// name, `"types": ["jest", "sf-m3/globals"]`, a TypeScript test, `npx m3 test` (the linked bin).
// Its jest.config.js keeps its own testMatch, setupFilesAfterEnv, transform and reporter.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { copyFixture, ensureBuilt, printedRunId, readFeedback, removeFixture, repoRoot } from './cli.testkit';

jest.setTimeout(180_000);

const exampleServer = join(repoRoot, 'examples', 'servers', 'dist', 'bin', 'example-server.js');

/** Links what `npm install --save-dev sf-m3 jest ts-jest typescript @types/jest` would install. */
function installLinks(folder: string): void {
  mkdirSync(join(folder, 'node_modules', '@types'), { recursive: true });
  symlinkSync(repoRoot, join(folder, 'node_modules', 'sf-m3'), 'dir');
  for (const name of ['jest', 'ts-jest', 'typescript', '@types/jest']) {
    symlinkSync(join(repoRoot, 'node_modules', name), join(folder, 'node_modules', name), 'dir');
  }
}

/** Runs the installed `m3` bin (what `npx m3` runs) in the project folder. */
function npxM3(folder: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, EXAMPLE_SERVER: exampleServer, CI: 'true', FORCE_COLOR: '0' };
  for (const name of Object.keys(env)) if (name.startsWith('M3_') || name === 'SF_M3_ROOT') delete env[name];
  delete env.JEST_WORKER_ID;
  const bin = join(folder, 'node_modules', 'sf-m3', 'bin', 'm3.js');
  return spawnSync(process.execPath, [bin, ...args], { cwd: folder, env, encoding: 'utf8', timeout: 150_000 });
}

async function withStore<T>(file: string, read: (store: ExecutionStore) => Promise<T>): Promise<T> {
  const store = new SQLiteExecutionStore(file);
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

let folder: string;

beforeAll(() => {
  ensureBuilt();
  folder = copyFixture('user-project');
  installLinks(folder);
});

afterAll(() => removeFixture(folder));

describe('a user project with preset: sf-m3 installed from this repository', () => {
  test('type-checks with "types": ["jest", "sf-m3/globals"] and without skipLibCheck', () => {
    const tsc = join(folder, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', join(folder, 'tsconfig.json'), '--noEmit'], {
      cwd: folder,
      encoding: 'utf8',
    });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });

  // This run, under an explicit --run-id, is also the baseline of the next test (one `m3 test` fewer).
  test('npx m3 test runs the README test; the project’s testMatch, setup file, transform and reporter keep working; describe.m3.only focuses', async () => {
    const run = npxM3(folder, ['test', '--run-id', 'user-first']);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.stdout).toContain('m3 run user-first  (saved to .m3/executions.sqlite)');
    expect(output).toContain('Tests:       1 skipped, 5 passed, 6 total');
    expect(run.stdout).toContain('attempts    5 passed, 0 failed, 1 skipped, 0 todo\n');
    expect(run.stdout).toMatch(/verdict {5}passed\n$/);
    expect(run.status).toBe(0);

    // The custom reporter ran next to the default one and saw every test.
    const reported = JSON.parse(readFileSync(join(folder, 'reporter-output.json'), 'utf8'));
    expect(reported.tests.map((t: { name: string; status: string }) => [t.name, t.status]).sort()).toEqual([
      ['cleanup leaves a stdio client open', 'passed'],
      ['cleanup the server child was reaped when that test ended', 'passed'],
      ['focused runs', 'passed'],
      ['shipping quotes a local parcel', 'passed'],
      ["shipping the project's own matcher and transform still work", 'passed'],
      ['unfocused is skipped by the focused suite', 'pending'],
    ]);

    const runId = printedRunId(run.stdout);
    const saved = await withStore(join(folder, '.m3', 'executions.sqlite'), async (store) => ({
      suites: await store.listSuites(),
      attempts: await store.listAttempts({ runId }),
      executions: await store.listExecutions({ runId }),
      evaluations: await store.listEvaluations({ runId }),
    }));
    expect(saved.suites.map((s) => s.name).sort()).toEqual(['cleanup', 'focused', 'shipping', 'unfocused']);
    expect(saved.attempts.map((a) => [a.fullName, a.outcome]).sort()).toEqual([
      ['cleanup leaves a stdio client open', 'passed'],
      ['cleanup the server child was reaped when that test ended', 'passed'],
      ['focused runs', 'passed'],
      ['shipping quotes a local parcel', 'passed'],
      ["shipping the project's own matcher and transform still work", 'passed'],
      ['unfocused is skipped by the focused suite', 'skipped'],
    ]);
    // One execution per client, the one left open included, each with its finalized trace.
    expect(saved.executions).toHaveLength(2);
    for (const execution of saved.executions) {
      const trace = await withStore(join(folder, '.m3', 'executions.sqlite'), (store) =>
        store.getTrace(execution.executionId),
      );
      expect(trace.view().toolCalls.map((c) => c.tool.value)).toEqual(['shipping_quote']);
    }
    // Only subjects of an execution are recorded (contract §7): the string check in focus.check.ts is not.
    expect(saved.evaluations.map((e) => e.evaluator).sort()).toEqual([
      'm3.expect.not.toBeToolError',
      'm3.expect.toHaveStructuredContent',
      'm3.expect.toHaveToolCall',
    ]);
    expect(readFeedback(folder, runId).summary.verdict).toBe('passed');
  });

  // The history the previous test saved, moved to another database by the user; the run there
  // compares against its run by id.
  test('--results-db and an explicit --baseline RUN_ID write to the named database and compare against that run', async () => {
    mkdirSync(join(folder, 'history'));
    copyFileSync(join(folder, '.m3', 'executions.sqlite'), join(folder, 'history', 'm3.sqlite'));

    const second = npxM3(folder, ['test', '--results-db', 'history/m3.sqlite', '--baseline', 'user-first', '--json']);
    expect(second.status).toBe(0);
    const summary = JSON.parse(second.stdout);
    expect(summary).toMatchObject({
      verdict: 'passed',
      resultsDb: 'history/m3.sqlite',
      baseline: { baselineRunId: 'user-first', regressedTests: [], regressedEvaluators: [] },
    });
    const runs = await withStore(join(folder, 'history', 'm3.sqlite'), (store) => store.listRuns());
    expect(runs.map((r) => r.runId)).toContain('user-first');
    expect(runs.map((r) => r.runId)).toContain(summary.runId);
    expect(runs).toHaveLength(2);
    // Only the named database got the run.
    const defaultRuns = await withStore(join(folder, '.m3', 'executions.sqlite'), (store) => store.listRuns());
    expect(defaultRuns.map((r) => r.runId)).toEqual(['user-first']);
    expect(existsSync(join(folder, '.m3', 'reports', 'user-first', 'feedback.json'))).toBe(true);
  });
});
