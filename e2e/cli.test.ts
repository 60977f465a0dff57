// End-to-end: fixture projects run through the real `m3` bin and the real Jest, asserting exit
// codes, printed summaries, feedback.json and the rows saved in the SQLite database.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  copyFixture,
  ensureBuilt,
  printedRunId,
  readFeedback,
  removeFixture,
  repoRoot,
  runM3,
  runM3Combined,
  runM3InProcess,
  withStore,
} from './cli.testkit';

jest.setTimeout(180_000);

const MISSING_SUITE =
  "m3 results are being saved, so this test needs a suite: wrap it in describe.m3('<suite name>', ...)";

beforeAll(() => {
  ensureBuilt();
});

describe('m3 test on a green project', () => {
  let folder: string;
  beforeAll(() => {
    folder = copyFixture('cli-green');
  });
  afterAll(() => removeFixture(folder));

  test('prints the summary after Jest output, exits 0 and saves run, suite, attempts, executions, evaluations', async () => {
    const run = runM3Combined(['test'], folder);
    expect(run.status).toBe(0);
    const text = run.combined;
    const summaryAt = text.indexOf('m3 run run-');
    expect(summaryAt).toBeGreaterThan(text.indexOf('Tests:'));
    const summary = text.slice(summaryAt);
    expect(summary).toContain('suites      shipping\n');
    expect(summary).toContain('attempts    2 passed, 0 failed, 1 skipped, 1 todo\n');
    expect(summary).toMatch(/m3\.expect\.toHaveStructuredContent\s+100\.0%\s+\[\d+\.\d%–100\.0%\]\s+2\/2/);
    expect(summary).toMatch(/m3\.expect\.toHaveToolCall\s+100\.0%/);
    expect(summary).toContain('required failures  none\n');
    expect(summary).toMatch(/verdict {5}passed\n$/);
    const runId = printedRunId(summary);
    expect(summary).toContain(`feedback    .m3/reports/${runId}/feedback.json`);

    const saved = await withStore(folder, async (store) => ({
      run: await store.getRun(runId),
      attempts: await store.listAttempts({ runId }),
      suites: await store.listSuites(),
      executions: await store.listExecutions({ runId }),
      evaluations: await store.listEvaluations({ runId }),
    }));
    expect(saved.run).toMatchObject({ runId, status: 'passed', argv: ['test'] });
    expect(saved.suites.map((s) => s.name)).toEqual(['shipping']);
    expect(saved.attempts.map((a) => [a.fullName, a.outcome]).sort()).toEqual([
      ['shipping is skipped', 'skipped'],
      ['shipping is still to do', 'todo'],
      ['shipping quotes a local parcel', 'passed'],
      ['shipping quotes a regional parcel', 'passed'],
    ]);
    expect(saved.executions).toHaveLength(2);
    expect(saved.evaluations.map((e) => e.evaluator).sort()).toEqual([
      'm3.expect.toHaveStructuredContent',
      'm3.expect.toHaveStructuredContent',
      'm3.expect.toHaveToolCall',
    ]);

    const feedback = readFeedback(folder, runId);
    expect(feedback).toMatchObject({
      schemaVersion: 1,
      runId,
      attemptCounts: { total: 4, passed: 2, failed: 0, skipped: 1, todo: 1 },
      summary: { verdict: 'passed', reasons: [], jestExit: { code: 0, signal: null } },
      comparison: null,
    });
    expect(feedback.attempts).toHaveLength(4);
    expect(feedback.evaluationStats['m3.expect.toHaveToolCall']).toMatchObject({ passRate: 1, passed: 1, expected: 1 });
  });

  test('--baseline latest lists the test that regressed and the evaluator whose pass rate fell (within noise)', async () => {
    const run = runM3(['test', '--baseline', 'latest'], folder, { E2E_BREAK: '1' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/baseline {4}run-[0-9a-f]{32}: 1 regressed, 0 fixed, 0 new, 0 removed/);
    expect(run.stdout).toContain('tests/shipping.test.js › shipping quotes a regional parcel  passed → failed');
    expect(run.stdout).toMatch(
      /↓ m3\.expect\.toHaveStructuredContent {2}100\.0% \(\d+\/\d+\) → 50\.0% \(\d+\/\d+\) {2}−50\.0 pts {2}p=1 {2}within noise/,
    );
    expect(run.stdout).toMatch(/verdict {5}failed: 1 test\(s\) failed\n$/);
    const runId = printedRunId(run.stdout);
    const feedback = readFeedback(folder, runId);
    expect(feedback.comparison.regressedTests).toEqual([
      expect.objectContaining({ fullName: 'shipping quotes a regional parcel', before: 'passed', after: 'failed' }),
    ]);
    // One or two trials cannot show a significant drop: the fall is listed, not a regression.
    expect(feedback.comparison.regressedEvaluators).toEqual([]);
    expect(feedback.comparison.evaluators).toContainEqual(
      expect.objectContaining({
        evaluator: 'm3.expect.toHaveStructuredContent',
        baselinePassRate: 1,
        currentPassRate: 0.5,
        significance: 'within noise',
      }),
    );
  });

  // `m3 runs` and the first `m3 report` go through the bin (exit status and output); the other
  // reports through the compiled CLI's `main` in this process (what the bin runs), costing no child.
  test('m3 runs lists both runs, newest first; m3 report re-prints a saved run with its exit status', async () => {
    const runs = runM3(['runs'], folder);
    expect(runs.status).toBe(0);
    const [header, ...lines] = runs.stdout.trim().split('\n');
    expect(header).toMatch(/^RUN\s+STARTED\s+STATUS\s+ATTEMPTS\s+LABEL$/);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^run-[0-9a-f]{32}\s+\S+\s+failed\s+1 passed, 1 failed, 1 skipped, 1 todo/);
    expect(lines[1]).toMatch(/^run-[0-9a-f]{32}\s+\S+\s+passed\s+2 passed, 0 failed, 1 skipped, 1 todo/);
    const [latestId, firstId] = lines.map((line) => line.split(/\s+/)[0]!);

    const latest = runM3(['report'], folder);
    expect(latest.status).toBe(1);
    expect(printedRunId(latest.stdout)).toBe(latestId);
    expect(latest.stdout).toContain('verdict     failed');

    const first = await runM3InProcess(['report', firstId!, '--json'], folder);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ runId: firstId, verdict: 'passed', jestExit: null });

    const compared = await runM3InProcess(['report', latestId!, '--baseline', firstId!], folder);
    expect(compared.stdout).toContain(`baseline    ${firstId}: 1 regressed`);
  });

  // One Jest run checks both --json and --run-id (each Jest run of the fixture costs seconds of CPU).
  test('--json prints only the summary on stdout and Jest output on stderr; --run-id names the run; reusing it and an unknown --baseline are usage errors', async () => {
    const named = runM3(['test', '--json', '--run-id', 'e2e-named-run'], folder);
    expect(named.status).toBe(0);
    const summary = JSON.parse(named.stdout);
    expect(summary).toMatchObject({ schemaVersion: 1, verdict: 'passed', attempts: { passed: 2 } });
    expect(summary.feedbackPath).toBe(`.m3/reports/${summary.runId}/feedback.json`);
    expect(named.stderr).toContain('Tests:');
    expect(summary.runId).toBe('e2e-named-run');
    expect(existsSync(join(folder, '.m3', 'reports', 'e2e-named-run', 'feedback.json'))).toBe(true);
    expect(printedRunId((await runM3InProcess(['report', 'e2e-named-run'], folder)).stdout)).toBe('e2e-named-run');

    const again = runM3(['test', '--run-id', 'e2e-named-run'], folder);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('m3: --run-id: run e2e-named-run already exists');
    expect(again.stderr).not.toContain('Tests:');

    const unknown = runM3(['test', '--baseline', 'run-00000000000000000000000000000000'], folder);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('m3: --baseline: run run-00000000000000000000000000000000 was not found');
  });
});

describe('m3 test on failing projects', () => {
  test('a failed assertion and a test without a suite exit 1 and are listed', async () => {
    const folder = copyFixture('cli-failing');
    try {
      const run = runM3(['test'], folder);
      expect(run.status).toBe(1);
      expect(run.stdout).toContain('attempts    1 passed, 2 failed, 0 skipped, 0 todo');
      expect(run.stdout).toContain('  ✕ orders fails an assertion');
      expect(run.stdout).toContain('  ✕ has no suite');
      expect(run.stdout).toMatch(/verdict {5}failed: 2 test\(s\) failed\n$/);
      const runId = printedRunId(run.stdout);
      const attempts = await withStore(folder, (store) => store.listAttempts({ runId }));
      const noSuite = attempts.find((a) => a.fullName === 'has no suite')!;
      expect(noSuite).toMatchObject({ outcome: 'failed', suiteId: null });
      expect(noSuite.failureMessage).toContain(MISSING_SUITE);
    } finally {
      removeFixture(folder);
    }
  });

  test('a required evaluation that failed and was caught fails the run and is named', async () => {
    const folder = copyFixture('cli-required');
    try {
      const run = runM3(['test'], folder);
      expect(run.status).toBe(1);
      expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo');
      expect(run.stdout).toMatch(
        /required failures\n {2}✕ e2e\.gate\.v1 failed \(exec-[0-9a-f]{32}\) — the total was wrong/,
      );
      expect(run.stdout).toMatch(/verdict {5}failed: required evaluation did not pass: e2e\.gate\.v1/);
      const feedback = readFeedback(folder, printedRunId(run.stdout));
      expect(feedback.requiredFailures).toEqual([
        expect.objectContaining({ evaluator: 'e2e.gate.v1', status: 'failed' }),
      ]);
      expect(feedback.summary.verdict).toBe('failed');
    } finally {
      removeFixture(folder);
    }
  });
});

describe('m3 test options reach Jest', () => {
  test('--env-file, --trials, --execution-timeout, --harness and --server groups, with secrets never printed or saved', async () => {
    const folder = copyFixture('cli-env');
    try {
      const args = [
        'test',
        '--env-file',
        '.env.e2e',
        '--trials',
        '3',
        '--execution-timeout',
        '2.5',
        '--harness',
        'acp=fixture',
        '--server',
        'stdio',
        '--command',
        'node',
        '--arg',
        'server.js',
        '--arg',
        '--stdio',
        '--env',
        'SERVICE_TOKEN=tok-e2e-secret-777',
        '--name',
        'local',
        '--server',
        'http',
        '--url',
        'http://127.0.0.1:8123/mcp',
        '--header',
        'Authorization=Bearer tok-e2e-bearer-888',
      ];
      const run = runM3(args, folder, { E2E_ALREADY_SET: 'from the shell' });
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/tok-e2e-(secret-777|bearer-888)/);
      expect(run.status).toBe(0);
      // --trials only expands test.m3 tests and this project has none: one warning says so.
      expect(run.stderr.match(/--trials \d+ had no effect.*/g)).toEqual([
        '--trials 3 had no effect: no test.m3 test ran',
      ]);
      const runId = printedRunId(run.stdout);
      const saved = await withStore(folder, (store) => store.getRun(runId));
      expect(saved!.argv).toContain('SERVICE_TOKEN=[REDACTED]');
      expect(saved!.argv).toContain('Authorization=[REDACTED]');
      expect(JSON.stringify(saved)).not.toMatch(/tok-e2e/);
      const feedbackText = readFileSync(join(folder, '.m3', 'reports', runId, 'feedback.json'), 'utf8');
      expect(feedbackText).not.toMatch(/tok-e2e/);
    } finally {
      removeFixture(folder);
    }
  });

  test('--server and --trials replace the suite selections of test.m3', async () => {
    const folder = copyFixture('cli-matrix');
    try {
      const exampleServer = join(repoRoot, 'examples', 'servers', 'dist', 'bin', 'example-server.js');
      const args = ['test', '--server', 'stdio', '--name', 'cli-example', '--command', process.execPath];
      const run = runM3([...args, '--arg', exampleServer, '--trials', '2'], folder);
      expect(run.stdout).toContain('attempts    2 passed, 0 failed, 0 skipped, 0 todo');
      expect(run.status).toBe(0);
      expect(`${run.stdout}${run.stderr}`).not.toContain('had no effect');
      const runId = printedRunId(run.stdout);
      const attempts = await withStore(folder, (store) => store.listAttempts({ runId }));
      expect(attempts.map((a) => a.fullName).sort()).toEqual([
        expect.stringMatching(/quotes through the server chosen on the command line .*trial 1\/2/),
        expect.stringMatching(/quotes through the server chosen on the command line .*trial 2\/2/),
      ]);
      expect(new Set(attempts.map((a) => a.caseId)).size).toBe(1);
    } finally {
      removeFixture(folder);
    }
  });

  test('two Jest workers write one database', async () => {
    const folder = copyFixture('cli-workers');
    try {
      const run = runM3(['test', '--', '--maxWorkers=2'], folder);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('attempts    8 passed, 0 failed, 0 skipped, 0 todo');
      const runId = printedRunId(run.stdout);
      const attempts = await withStore(folder, (store) => store.listAttempts({ runId }));
      expect(attempts).toHaveLength(8);
      expect(new Set(attempts.map((a) => a.testPath)).size).toBe(4);
    } finally {
      removeFixture(folder);
    }
  });

  // The first case through the bin (the process's exit status and stderr, and no Jest output in it);
  // the others through the compiled CLI's `main` in this process (what the bin runs), costing no
  // child: there, the project's `.m3` left unmade shows Jest never ran (a Jest run of this fixture
  // saves its results in it), and stdout stays empty.
  test.each<[string[], string, 'bin' | 'main']>([
    [['test', '--trials', '0'], '--trials', 'bin'],
    [['test', '--server', 'stdio'], '--server stdio: needs --command', 'main'],
    [['test', '--header', 'A=b'], '--header: must follow --server', 'main'],
    // (`--env-file missing.env` cannot be tested here: Node 20 itself rejects a missing `--env-file`
    // anywhere on its command line, script arguments included, exiting 9 before m3 runs — nodejs/node#54232.)
    [['test', '--execution-timeout', '0'], '--execution-timeout: must be a positive number of seconds', 'main'],
    [['test', '--bail'], "unknown option '--bail'", 'main'],
    [
      ['test', '--cassettes', 'live'],
      '--cassettes: "live" is not a cassette mode; use one of auto, record, replay, off',
      'main',
    ],
  ])('bad flags %j exit 2 before Jest runs', async (args, message, through) => {
    const folder = copyFixture('cli-env');
    try {
      if (through === 'bin') {
        const run = runM3(args, folder);
        expect(run.status).toBe(2);
        expect(run.stderr).toContain(message);
        expect(run.stderr).not.toContain('Tests:');
      } else {
        const run = await runM3InProcess(args, folder);
        expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 2, stdout: '' });
        expect(run.stderr).toContain(message);
      }
      expect(existsSync(join(folder, '.m3'))).toBe(false);
    } finally {
      removeFixture(folder);
    }
  });
});

describe('m3 --version', () => {
  // --version through the bin, -V through the compiled CLI's `main` in this process (what the bin runs).
  test.each([['--version'], ['-V']])('m3 %s prints the sf-m3 version and exits 0, running nothing', async (flag) => {
    const folder = copyFixture('cli-env');
    try {
      const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
      const run = flag === '--version' ? runM3([flag], folder) : await runM3InProcess([flag], folder);
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
        status: 0,
        stdout: `${version}\n`,
        stderr: '',
      });
      expect(existsSync(join(folder, '.m3'))).toBe(false);
    } finally {
      removeFixture(folder);
    }
  });
});
