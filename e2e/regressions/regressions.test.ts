// End-to-end: regressions that mean something, through the real `m3` CLI on one fixture project
// run several times (contract §21). A noisy evaluator falls from 10/10 to 9/10 (within noise: no
// regression, the gates pass, exit 0) and then to 2/10 (a significant drop: --fail-on-regression
// exits 1 and says by how much); a tool is renamed and a schema changed between the first two runs;
// each gate passes and fails with the right exit status, from the command line, the Jest config's
// testEnvironmentOptions.m3 and package.json's "m3" section, and m3 report agrees afterwards.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  copyFixture,
  ensureBuilt,
  printedRunId,
  readFeedback,
  removeFixture,
  runM3,
  runM3Async,
  runM3InProcess,
  type M3Run,
} from '../cli.testkit';

jest.setTimeout(600_000);

const TRIALS = ['--trials', '10'];
const GATED = ['--baseline', 'latest', '--fail-on-regression'];

describe('m3 test --baseline with significance, interface changes and gates', () => {
  let folder: string;
  const runIds: string[] = [];
  // Ten trials of Jest on a loaded machine can pass runM3's two minutes: allow five.
  const m3 = async (args: string[], env: Record<string, string>): Promise<M3Run> => {
    const run = await runM3Async(['test', ...TRIALS, ...args], folder, env, 300_000);
    if (run.status !== 2)
      runIds.push(args.includes('--json') ? JSON.parse(run.stdout).runId : printedRunId(run.stdout));
    return run;
  };

  beforeAll(() => {
    ensureBuilt();
    folder = copyFixture('regressions');
  });
  afterAll(() => removeFixture(folder));

  // The first through the bin (its exit status); the others through the compiled CLI's `main` in this
  // process (what the bin runs), costing no child. No run is saved by any of them: run 1 finds no baseline.
  test('bad gate values and a regression gate without a baseline are usage errors (exit 2) before Jest runs', async () => {
    const rate = runM3(['test', '--min-pass-rate', '80'], folder);
    expect(rate.status).toBe(2);
    expect(rate.stderr).toContain('--min-pass-rate: a pass rate is a number from 0 to 1 (0.8 means 80%), not "80"');
    const noBaseline = await runM3InProcess(['test', '--fail-on-regression'], folder);
    expect(noBaseline.status).toBe(2);
    expect(noBaseline.stderr).toContain('--fail-on-regression: needs a run to compare with: add --baseline latest');
    expect((await runM3InProcess(['test', '--alpha', '1'], folder)).status).toBe(2);
  });

  test('run 1: 10/10 with the first catalog', async () => {
    const first = await m3([], { NOISY_FAILS: '0', CATALOG: '1' });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/fixture\.noisy\.v1\s+100\.0%.*10\/10/);
  });

  test('run 2: 10/10 → 9/10 is within noise, the gates pass (exit 0), the renamed tool and changed schema are listed', async () => {
    const second = await m3([...GATED, '--min-pass-rate', '0.8', '--json'], { NOISY_FAILS: '1', CATALOG: '2' });
    expect(second.status).toBe(0);
    const summary = JSON.parse(second.stdout);
    expect(summary.verdict).toBe('passed');
    expect(summary.baseline.baselineRunId).toBe(runIds[0]);
    expect(summary.baseline.evaluators).toEqual([
      expect.objectContaining({
        evaluator: 'fixture.noisy.v1',
        baseline: { passRate: 1, passed: 10, expected: 10 },
        current: { passRate: 0.9, passed: 9, expected: 10 },
        delta: -0.1,
        pValue: 1,
        significance: 'within noise',
      }),
    ]);
    expect(summary.baseline.regressions).toEqual([]);
    expect(summary.baseline.dropsWithinNoise).toBe(1);

    const changes = summary.baseline.interfaceChanges;
    expect(changes.compared).toBe(1);
    expect(changes.notComparable).toEqual([]);
    expect(
      changes.changes.map((c: { tool: string; change: string; renamed: string | null }) => [
        c.tool,
        c.change,
        c.renamed,
      ]),
    ).toEqual([
      ['shipping_quote', 'removed', 'quote_shipping'],
      ['quote_shipping', 'added', 'shipping_quote'],
      ['batch_total', 'changed', null],
    ]);
    expect(changes.changes[2]).toMatchObject({
      suiteName: 'noisy',
      server: 'shop',
      fields: ['inputSchema', 'outputSchema'],
      differences: [
        { path: '$.inputSchema.properties.values.items.type', change: 'changed', before: 'number', after: 'string' },
        { path: '$.outputSchema.properties.currency', change: 'added', before: null, after: { type: 'string' } },
      ],
    });

    expect(summary.gates).toEqual([
      expect.objectContaining({
        kind: 'min_pass_rate',
        evaluator: 'fixture.noisy.v1',
        threshold: 0.8,
        actual: 0.9,
        gap: 0,
        passed: true,
      }),
      expect.objectContaining({ kind: 'no_regression', regressions: 0, passed: true, source: 'command line' }),
    ]);
    const feedback = readFeedback(folder, runIds[1]!);
    expect(feedback.comparison.interfaceChanges).toEqual(changes);
    expect(feedback.comparison.dropsWithinNoise).toBe(1);
    expect(feedback.gates).toEqual(summary.gates);
  });

  test('run 3: 9/10 → 2/10 is a significant drop: --fail-on-regression exits 1 and says which and by how much', async () => {
    const third = await m3([...GATED, '--min-pass-rate', '0.2'], { NOISY_FAILS: '8', CATALOG: '2' });
    expect(third.status).toBe(1);
    const text = third.stdout;
    expect(text).toContain('pass rates (Fisher exact, alpha 0.05): 1 significant drop(s), 0 drop(s) within noise');
    expect(text).toContain('↓ fixture.noisy.v1  90.0% (9/10) → 20.0% (2/10)  −70.0 pts  p=0.0055  significant');
    // The same catalog in both runs: compared, no change.
    expect(text).toContain('interface  1 tool catalog(s) compared: 0 change(s)');
    expect(text).toContain('✓ min pass rate fixture.noisy.v1 ≥ 20.0%: 20.0% (2/10) passes');
    expect(text).toContain(
      `✕ no regression against ${runIds[1]}: 1 significant drop(s) (p < 0.05): fixture.noisy.v1 70.0 pts down (p = 0.0055)`,
    );
    expect(text).toMatch(/verdict {5}failed: gate failed: no regression against/);
    const feedback = readFeedback(folder, runIds[2]!);
    expect(feedback.summary.verdict).toBe('failed');
    expect(feedback.gates.filter((g: { passed: boolean }) => !g.passed)).toEqual([
      expect.objectContaining({ kind: 'no_regression', regressions: 1 }),
    ]);

    // The failed gate is saved with the run: m3 report and m3 runs agree with the exit status.
    const report = runM3(['report', runIds[2]!], folder);
    expect(report.status).toBe(1);
    expect(report.stdout).toContain('gate failed: no regression against');
    expect((await runM3InProcess(['runs'], folder)).stdout).toMatch(new RegExp(`${runIds[2]}.*failed`));
  });

  test("package.json's m3 section gates a run with no gate flags: 2/10 is 30 pts below 0.5 (exit 1), no regression", async () => {
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({
        name: 'fixture',
        private: true,
        m3: { minPassRate: 0.5, failOnRegression: true, baseline: 'latest' },
      }),
    );
    const fourth = await m3([], { NOISY_FAILS: '8', CATALOG: '2' });
    expect(fourth.status).toBe(1);
    expect(fourth.stdout).toContain('✕ min pass rate fixture.noisy.v1 ≥ 50.0%: 20.0% (2/10) is 30.0 pts below');
    expect(fourth.stdout).toContain(`✓ no regression against ${runIds[2]}: no significant drop (p < 0.05)`);
    const gates = readFeedback(folder, runIds[3]!).gates;
    expect(gates[0]).toMatchObject({ threshold: 0.5, actual: 0.2, gap: 0.3, passed: false, source: 'package.json' });
  });

  test('testEnvironmentOptions.m3 wins over package.json, and the command line wins over both', async () => {
    const configured = await m3([], { NOISY_FAILS: '8', CATALOG: '2', GATE_MIN_PASS_RATE: '0.1' });
    expect(configured.status).toBe(0);
    expect(configured.stdout).toContain('✓ min pass rate fixture.noisy.v1 ≥ 10.0%: 20.0% (2/10) passes');
    const overridden = await m3(['--min-pass-rate', 'fixture.noisy.v1=0.25'], {
      NOISY_FAILS: '8',
      CATALOG: '2',
      GATE_MIN_PASS_RATE: '0.1',
    });
    expect(overridden.status).toBe(1);
    expect(overridden.stdout).toContain('✕ min pass rate fixture.noisy.v1 ≥ 25.0%: 20.0% (2/10) is 5.0 pts below');
  });
});
