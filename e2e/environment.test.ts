// End-to-end tests of the preset and the environment, the way jest tests itself: spawn the real
// `jest` binary on small fixture projects, then assert exit code, output and the saved rows.
// They run the built `dist` (`npm test` builds first).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import type { AttemptRecord } from '@sf-m3/core';

const repo = path.resolve(__dirname, '..');
const jestBin = path.join(repo, 'node_modules', 'jest', 'bin', 'jest.js');
const environmentConfig = path.join(__dirname, 'fixtures', 'environment', 'jest.config.js');
const noGlobalsConfig = path.join(__dirname, 'fixtures', 'no-globals', 'jest.config.js');
const MISSING_SUITE =
  "m3 results are being saved, so this test needs a suite: wrap it in describe.m3('<suite name>', ...)";

interface JestRun {
  readonly code: number;
  readonly output: string;
}

function runJest(config: string, args: string[], env: Record<string, string> = {}): Promise<JestRun> {
  const cleanEnv: NodeJS.ProcessEnv = { ...process.env, CI: 'true', FORCE_COLOR: '0', ...env };
  for (const name of Object.keys(cleanEnv)) if (name.startsWith('M3_') && !(name in env)) delete cleanEnv[name];
  delete cleanEnv.JEST_WORKER_ID;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [jestBin, '--config', config, '--ci', ...args],
      { cwd: repo, env: cleanEnv, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

async function readDatabase(file: string) {
  const store = new SQLiteExecutionStore(file);
  try {
    const runs = await store.listRuns();
    const attempts = runs.length === 0 ? [] : await store.listAttempts({ runId: runs[0].runId });
    const evaluations = runs.length === 0 ? [] : await store.listEvaluations({ runId: runs[0].runId });
    return { runs, suites: await store.listSuites(), attempts, evaluations };
  } finally {
    await store.close();
  }
}

const byName = (attempts: AttemptRecord[], fullName: string) =>
  attempts.filter((a) => a.fullName === fullName).sort((a, b) => a.retryIndex - b.retryIndex);

let tmp: string;

beforeAll(() => {
  const built = path.join(repo, 'packages', 'jest-environment', 'dist', 'M3Environment.js');
  if (!fs.existsSync(built)) throw new Error('the e2e tests run the built packages: run `npm run build` first');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-m3-e2e-env-'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

jest.setTimeout(120_000);

describe('the sf-m3 preset and environment', () => {
  // One run without persistence covers two cases: the plain file (suites optional, a fresh kit per
  // test, matchers installed: its tests pass) and a caught required failure, which alone fails the run.
  test('plain jest without persistence: optional suites, a fresh kit per test, matchers installed; a caught required failure fails the run, named', async () => {
    const run = await runJest(environmentConfig, ['plain', 'required']);
    expect(run.output).toMatch(/PASS \S*tests\/plain\.test\.js/);
    expect(run.output).toMatch(/PASS \S*tests\/required\.test\.js/);
    expect(run.output).toContain('Tests:       9 passed, 9 total');
    expect(fs.existsSync(path.join(__dirname, 'fixtures', 'environment', '.m3'))).toBe(false);
    // The required failure is the only reason the run fails: named once, and nothing else reported.
    expect(run.output).toContain('m3: 1 required evaluation(s) did not pass, so the run fails:');
    expect(run.output).toContain(
      '- project.answer.v1 failed in "answers catches the required failure" (tests/required.test.js): the answer was 41',
    );
    expect(run.output).not.toContain('project.style.v1 failed in');
    expect(run.output.match(/^\s*- .* failed in "/gm)).toHaveLength(1);
    expect(run.output).not.toMatch(/FAIL |never ran on finished executions|could not be saved/);
    expect(run.code).toBe(1);
  });

  // One persisted run from two workers covers the suites, retries and evaluations of three files and
  // test.m3's expansion per server and trial from the suite's options (tests/trials.test.js).
  test('persistence: run, suites, attempts (skipped, todo, retries) and evaluations from two workers; test.m3 expands per server and trial with one case id', async () => {
    const db = path.join(tmp, 'suites', 'results.sqlite');
    const runId = `run-${'a'.repeat(32)}`;
    const run = await runJest(environmentConfig, ['--maxWorkers=2', 'suites', 'second', 'kit-server', 'trials'], {
      M3_RESULTS_DB: db,
      M3_RUN_ID: runId,
      EXPECTED_EXPANSIONS: '4',
    });
    // suites, second and kit-server: 2 skipped, 1 todo, 12 passed; trials: 5 passed.
    expect(run.output).toContain('Tests:       2 skipped, 1 todo, 17 passed, 20 total');
    expect(run.output).toMatch(/PASS \S*tests\/trials\.test\.js/);
    expect(run.code).toBe(0);

    const { runs, suites, attempts: all, evaluations } = await readDatabase(db);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      runId,
      status: 'passed',
      counts: { passed: 17, failed: 1, skipped: 2, todo: 1 },
    });
    expect(runs[0].finishedAt).not.toBeNull();
    expect(runs[0].argv).toEqual(expect.arrayContaining(['--config', 'suites']));
    expect(suites.map((s) => s.name).sort()).toEqual(['billing', 'echo', 'matrix', 'shipping', 'skipped suite']);
    const suiteId = (name: string) => suites.find((s) => s.name === name)?.suiteId;

    expect(all.every((a) => a.runId === runId && a.finishedAt !== null)).toBe(true);
    const attempts = all.filter((a) => a.testPath !== 'tests/trials.test.js');
    expect(attempts).toHaveLength(16);
    const flaky = byName(attempts, 'shipping is flaky until its second try');
    expect(flaky.map((a) => [a.retryIndex, a.outcome])).toEqual([
      [0, 'failed'],
      [1, 'passed'],
    ]);
    expect(flaky[0].failureMessage).toContain('try 1 fails');
    expect(flaky[0].caseId).toBe('shipping::shipping is flaky until its second try');
    expect(flaky[1].caseId).toBe(flaky[0].caseId);
    expect(flaky[0].attemptId).not.toBe(flaky[1].attemptId);
    expect(byName(attempts, 'shipping is skipped')[0]).toMatchObject({
      outcome: 'skipped',
      suiteId: suiteId('shipping'),
    });
    expect(byName(attempts, 'shipping is still to do')[0]).toMatchObject({ outcome: 'todo', executionIds: [] });
    expect(byName(attempts, 'skipped suite never runs')[0].outcome).toBe('skipped');
    expect(byName(attempts, 'shipping zones knows the local zone')[0]).toMatchObject({
      testPath: 'tests/suites.test.js',
      suiteId: suiteId('shipping'),
    });
    expect(byName(attempts, 'shipping is the same suite as in the other file')[0].suiteId).toBe(suiteId('shipping'));
    expect(attempts.filter((a) => a.suiteId === suiteId('billing'))).toHaveLength(5);

    const echo = byName(attempts, 'echo calls a tool and asserts on the trace')[0];
    expect(echo.executionIds).toHaveLength(1);
    expect(byName(attempts, 'echo leaves a client open')[0].executionIds).toHaveLength(1);
    const checks = evaluations.filter((e) => e.executionId === echo.executionIds[0]);
    expect(checks.map((e) => [e.evaluator, e.status, e.caseId]).sort()).toEqual([
      ['m3.expect.toHaveText', 'passed', 'echo::echo calls a tool and asserts on the trace'],
      ['m3.expect.toHaveToolCall', 'passed', 'echo::echo calls a tool and asserts on the trace'],
    ]);

    // test.m3 from the suite's options: two servers times two trials, one case id.
    const trials = all.filter((a) => a.testPath === 'tests/trials.test.js');
    expect(trials).toHaveLength(5);
    const expanded = trials.filter((a) => a.fullName.startsWith('matrix runs once per server and trial'));
    expect(expanded.map((a) => a.fullName).sort()).toEqual([
      'matrix runs once per server and trial [server=alpha] [trial 1/2]',
      'matrix runs once per server and trial [server=alpha] [trial 2/2]',
      'matrix runs once per server and trial [server=beta] [trial 1/2]',
      'matrix runs once per server and trial [server=beta] [trial 2/2]',
    ]);
    expect(new Set(expanded.map((a) => a.caseId))).toEqual(new Set(['matrix::matrix runs once per server and trial']));
  });

  // One persisted run covers a test outside describe.m3 (a failed test) and a file that cannot load
  // (a file problem on the run), next to a TypeScript file whose tests are saved.
  test('persistence: a test outside describe.m3 fails with the contract message and is recorded; a test file that cannot load marks the saved run failed', async () => {
    const db = path.join(tmp, 'bare-broken.sqlite');
    const run = await runJest(environmentConfig, ['bare', 'broken', 'typed'], { M3_RESULTS_DB: db });
    expect(run.code).toBe(1);
    expect(run.output).toContain(`not an m3 suite bare test: ${MISSING_SUITE}`);
    expect(run.output).toContain('this test file cannot load');
    const { runs, attempts } = await readDatabase(db);
    expect(runs[0]).toMatchObject({ status: 'failed', counts: { passed: 3, failed: 1, skipped: 0, todo: 0 } });
    // The file that could not load is named on the run: it fails the run on its own, without an attempt.
    expect(runs[0].problems).toEqual([
      expect.objectContaining({ kind: 'file_error', testPath: 'tests/broken.test.js' }),
    ]);
    expect(attempts.map((a) => a.fullName).sort()).toEqual([
      'not an m3 suite bare test',
      'typed m3Kit is typed and bound to the suite',
      'typed matrix gets a typed context [trial 1/2]',
      'typed matrix gets a typed context [trial 2/2]',
    ]);
    const bare = attempts.filter((a) => a.testPath === 'tests/bare.test.js');
    expect(bare).toHaveLength(1);
    expect(bare[0]).toMatchObject({ outcome: 'failed', suiteId: null, fullName: 'not an m3 suite bare test' });
    expect(bare[0].failureMessage).toContain(MISSING_SUITE);
  });

  test('a caught required failure fails the saved run but not the attempt', async () => {
    const db = path.join(tmp, 'required.sqlite');
    const run = await runJest(environmentConfig, ['required'], { M3_RESULTS_DB: db });
    expect(run.code).toBe(1);
    expect(run.output).toContain('project.answer.v1 failed in "answers catches the required failure"');
    const { runs, attempts, evaluations } = await readDatabase(db);
    expect(runs[0]).toMatchObject({ status: 'failed', counts: { passed: 2, failed: 0, skipped: 0, todo: 0 } });
    expect(attempts.map((a) => a.outcome)).toEqual(['passed', 'passed']);
    const required = evaluations.find((e) => e.evaluator === 'project.answer.v1');
    expect(required).toMatchObject({
      status: 'failed',
      required: true,
      caseId: 'answers::answers catches the required failure',
    });
  });

  test('test.m3: CLI selections (M3_TRIALS, M3_SERVERS) replace the suite options', async () => {
    const fromCli = await runJest(environmentConfig, ['trials', '--verbose'], {
      EXPECTED_EXPANSIONS: '3',
      M3_TRIALS: '3',
      M3_SERVERS: JSON.stringify([
        { transport: 'stdio', name: 'cli-server', command: 'node', args: ['x.js'], env: {} },
      ]),
    });
    expect(fromCli.output).toContain('runs once per server and trial [server=cli-server] [trial 3/3]');
    expect(fromCli.output).not.toContain('[server=alpha]');
    expect(fromCli.code).toBe(0);
  });

  // Both fixture projects in one process (scripts/type-check-projects.js: each checked as
  // `tsc --noEmit -p` would, sharing the parsed lib and @types files): one TypeScript start, not two.
  test('the global types and the sf-m3 exports type-check in both fixture projects', async () => {
    const script = path.join(repo, 'scripts', 'type-check-projects.js');
    const projects = ['environment', 'no-globals'].map((fixture) =>
      path.join(__dirname, 'fixtures', fixture, 'tsconfig.json'),
    );
    const checks = await new Promise<{ tsconfig: string; code: number; output: string }[]>((resolve, reject) => {
      execFile(process.execPath, [script, ...projects], { cwd: repo }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${script} failed: ${error.message}\n${stdout}${stderr}`));
        else resolve(JSON.parse(stdout));
      });
    });
    expect(checks).toEqual(projects.map((tsconfig) => ({ tsconfig, code: 0, output: '' })));
  });

  test('injectGlobals: false with imports from sf-m3; the project’s own setup file and transforms still work', async () => {
    const run = await runJest(noGlobalsConfig, []);
    expect(run.output).toContain('Tests:       1 skipped, 6 passed, 7 total');
    expect(run.code).toBe(0);
  });
});
