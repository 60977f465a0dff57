import { validateReportOutput } from './reportOutputOptions';

describe('validateReportOutput', () => {
  test('defaults: the printed summary', () => {
    expect(validateReportOutput({}, '/p')).toEqual({ format: null, output: null, flakyRuns: null, json: false });
  });

  test('formats, an output path relative to the project, and --flaky with its window', () => {
    expect(validateReportOutput({ format: 'junit', output: 'out/junit.xml' }, '/p')).toMatchObject({
      format: 'junit',
      output: '/p/out/junit.xml',
    });
    expect(validateReportOutput({ flaky: true }, '/p').flakyRuns).toBe(10);
    expect(validateReportOutput({ flaky: true, runs: '3', format: 'markdown' }, '/p')).toMatchObject({
      flakyRuns: 3,
      format: 'markdown',
    });
  });

  test.each<[Record<string, unknown>, string]>([
    [{ format: 'html' }, '--format: must be junit or markdown, not "html"'],
    [{ format: 'junit', json: true }, '--json: --json and --format are two different outputs'],
    [{ output: 'x.xml' }, '--output: writes a --format junit|markdown report (or --flaky): add --format'],
    [{ format: 'junit', output: ' ' }, '--output: must name a file'],
    [{ runs: '3' }, '--runs: only applies to --flaky'],
    [{ flaky: true, runs: '1' }, '--runs: a test can only differ across 2 or more runs'],
    [{ flaky: true, runs: 'all' }, '--runs: must be a positive whole number'],
    [{ flaky: true, format: 'junit' }, '--format: --flaky writes text, --json or --format markdown'],
    [{ flaky: true, runId: 'run-1' }, 'RUN_ID: --flaky reads the last --runs runs'],
    [{ flaky: true, baseline: 'latest' }, '--baseline: does not apply to --flaky'],
  ])('%j is a usage error naming the flag', (raw, message) => {
    expect(() => validateReportOutput(raw, '/p')).toThrow(message);
  });
});
