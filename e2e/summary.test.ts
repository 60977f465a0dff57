// End-to-end: the summary of `m3 test` on a project that uses a matcher both ways and a negated
// judge assertion. Negated uses report apart (`m3.expect.not.<matcher>`), a passing
// `.not.toSatisfyJudge` is 100% for its matcher and leaves the positive judge rate alone,
// feedback.json carries the whole failure message while the terminal shows its meaningful line,
// JSON rates carry no float noise, and `m3 runs` has a header row.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, ensureBuilt, printedRunId, readFeedback, removeFixture, runM3, runM3Async } from './cli.testkit';
import { printedEvaluatorRates } from './summary.testkit';

jest.setTimeout(240_000);

// More than four decimals anywhere in a JSON document: the noise rounding removes.
const FLOAT_NOISE = /\d\.\d{5,}/;

describe('m3 test summary on summary-rates', () => {
  let folder: string;
  let greenId: string;
  let brokenId: string;
  let brokenText: string;

  beforeAll(async () => {
    ensureBuilt();
    folder = copyFixture('summary-rates');
    // The fake judge listens on loopback in the Jest child, so the runs must not block this process.
    const green = await runM3Async(['test'], folder);
    expect(green.status).toBe(0);
    greenId = printedRunId(green.stdout);
    const broken = await runM3Async(['test', '--baseline', 'latest'], folder, { SUMMARY_BREAK: '1' });
    expect(broken.status).toBe(1);
    brokenText = broken.stdout;
    brokenId = printedRunId(brokenText);
  });
  afterAll(() => removeFixture(folder));

  test('positive and negated uses are separate rows; a passing .not.toSatisfyJudge is 100% and pollutes nothing', () => {
    const rates = printedEvaluatorRates(brokenText);
    console.log(
      `summary-rates evaluator rows:\n${[...rates].map(([name, r]) => `  ${name} ${r.rate} ${r.counts}`).join('\n')}`,
    );
    expect(Object.fromEntries(rates)).toEqual({
      'm3.expect.toHaveToolCall': { rate: '66.7%', counts: '2/3' },
      'm3.expect.not.toHaveToolCall': { rate: '100.0%', counts: '1/1' },
      'm3.expect.toSatisfyJudge': { rate: '100.0%', counts: '1/1' },
      'm3.expect.toSatisfyJudge.judge': { rate: '100.0%', counts: '1/1' },
      'm3.expect.not.toSatisfyJudge': { rate: '100.0%', counts: '1/1' },
      // The judge's own verdict on the response the test asserted it would reject: it rejected it.
      'm3.expect.not.toSatisfyJudge.judge': { rate: '0.0%', counts: '0/1' },
    });
    const feedback = readFeedback(folder, brokenId);
    expect(feedback.evaluationStats['m3.expect.not.toSatisfyJudge']).toMatchObject({ passRate: 1, passed: 1 });
    expect(feedback.evaluationStats['m3.expect.toSatisfyJudge.judge']).toMatchObject({ passRate: 1, expected: 1 });
    // 3/3 → 2/3 is a drop Fisher's exact test cannot tell from noise: listed, not a regression.
    expect(feedback.comparison.regressedEvaluators).toEqual([]);
    expect(
      feedback.comparison.evaluators.find((e: { evaluator: string }) => e.evaluator === 'm3.expect.toHaveToolCall'),
    ).toMatchObject({
      baselinePassRate: 1,
      currentPassRate: 0.6667,
      delta: -0.3333,
      pValue: 1,
      significance: 'within noise',
    });
    expect(brokenText).toContain(
      '  ↓ m3.expect.toHaveToolCall  100.0% (3/3) → 66.7% (2/3)  −33.3 pts  p=1  within noise\n',
    );
  });

  test('the terminal shows the line that says what went wrong; feedback.json has the whole message', () => {
    expect(brokenText).toContain(
      '  ✕ summary tool calls, positive and negated — Expected: at least 1 call to delete_order; ' +
        'Received: 0 matching calls (1 call in total)\n',
    );
    const [failed] = readFeedback(folder, brokenId).failedTests;
    expect(failed.message).toBe(
      'Expected: at least 1 call to delete_order; Received: 0 matching calls (1 call in total)',
    );
    expect(failed.failureMessage).toMatch(/^expect\(received\)\.toHaveToolCall\(tool, options\)\n\n/);
    expect(failed.failureMessage).toContain('Calls that happened (wire evidence):\n  1. shipping_quote on example-mcp');
    expect(failed.failureMessage).toMatch(/\n\nexecutionId=exec-[0-9a-f]{32}$/);
  });

  test('feedback.json and --json hold rounded rates, with no float noise', () => {
    const feedbackText = readFileSync(join(folder, '.m3', 'reports', brokenId, 'feedback.json'), 'utf8');
    const reported = runM3(['report', brokenId, '--baseline', greenId, '--json'], folder);
    expect(reported.status).toBe(1);
    for (const text of [feedbackText, reported.stdout]) expect(text.match(FLOAT_NOISE)).toBeNull();
    const summary = JSON.parse(reported.stdout);
    expect(
      summary.baseline.evaluators.find((e: { evaluator: string }) => e.evaluator === 'm3.expect.toHaveToolCall').delta,
    ).toBe(-0.3333);
    const interval = summary.evaluations.find(
      (e: { evaluator: string }) => e.evaluator === 'm3.expect.toHaveToolCall',
    ).interval;
    console.log(`m3.expect.toHaveToolCall 2/3 interval in --json: ${JSON.stringify(interval)}`);
    expect(interval).toEqual([0.2077, 0.9385]);
  });

  test('m3 runs prints a header row above aligned columns', () => {
    const runs = runM3(['runs'], folder);
    expect(runs.status).toBe(0);
    const lines = runs.stdout.trimEnd().split('\n');
    console.log(`m3 runs:\n${runs.stdout}`);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^RUN\s+STARTED\s+STATUS\s+ATTEMPTS\s+LABEL$/);
    expect(lines[1]).toMatch(new RegExp(`^${brokenId}\\s+\\S+\\s+failed\\s+2 passed, 1 failed, 0 skipped, 0 todo$`));
    expect(lines[2]).toMatch(new RegExp(`^${greenId}\\s+\\S+\\s+passed\\s+3 passed`));
    // Every column starts where its title does.
    for (const title of ['STARTED', 'STATUS', 'ATTEMPTS']) {
      const at = lines[0]!.indexOf(title);
      expect(lines.slice(1).map((line) => line[at - 1] === ' ' && line[at] !== ' ')).toEqual([true, true]);
    }
  });
});
