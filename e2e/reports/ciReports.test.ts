// End-to-end: the CI outputs of `m3 report` through the real `m3` binary, on a project run twice
// (green, then with REPORTS_FLIP=1 red): JUnit XML that a strict XML parser reads in the shape CI
// dashboards expect (one testcase per final attempt, retries and verdicts as properties, the
// failure's redacted message), the Markdown job summary with the regressions against the first
// run, and the flake view across both runs. A hostile test name and failure message stay text and
// the secret in the message never reaches a report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { parseJunit, propertyValues } from '../../packages/cli/src/report/junit/junitShape.testkit';
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3, runM3Async } from '../cli.testkit';

jest.setTimeout(300_000);

const TOKEN = 'tok_live_5e2c9a7b3d1f4e6a8c0b';
const HOSTILE_NAME = 'quotes renders <b>"as text"</b> & [a link](https://evil.example) | cell';

describe('m3 report --format junit|markdown and --flaky on a real project', () => {
  let folder: string;
  let greenId: string;
  let redId: string;
  beforeAll(async () => {
    ensureBuilt();
    folder = copyFixture('reports-ci');
    // A secret-looking variable is a redaction canary for everything m3 prints and writes.
    const env = { REPORTS_API_TOKEN: TOKEN };
    const green = await runM3Async(['test'], folder, env);
    expect(green.status).toBe(0);
    greenId = printedRunId(green.stdout);
    const red = await runM3Async(['test'], folder, { ...env, REPORTS_FLIP: '1' });
    expect(red.status).toBe(1);
    redId = printedRunId(red.stdout);
  });
  afterAll(() => removeFixture(folder));

  test('JUnit XML: strict parse, JUnit shape, one case per final attempt, properties, redacted failure', () => {
    const written = runM3(['report', redId, '--format', 'junit', '--output', 'reports/junit.xml'], folder, {
      REPORTS_API_TOKEN: TOKEN,
    });
    expect(written.status).toBe(1);
    expect(written.stdout).toBe(`wrote JUnit XML of ${redId} to reports/junit.xml\n`);
    const xml = readFileSync(join(folder, 'reports', 'junit.xml'), 'utf8');
    expect(xml).not.toContain(TOKEN);
    expect(xml).not.toContain('<script>');
    const report = parseJunit(xml);
    expect(report).toMatchObject({ name: `m3 ${redId}`, tests: 4, failures: 1, errors: 0, skipped: 1 });
    const [suite] = report.suites;
    expect(suite!.name).toBe('quotes');
    expect(propertyValues(suite!, 'm3.verdict')).toEqual(['failed']);
    const byName = new Map(suite!.cases.map((c) => [c.name, c]));
    const quoted = byName.get('quotes quotes a local parcel')!;
    expect(quoted.file).toBe('tests/quotes.test.js');
    expect(propertyValues(quoted, 'm3.evaluation.m3.expect.toHaveToolCall')).toEqual(['passed']);
    expect(propertyValues(quoted, 'm3.executionId')).toHaveLength(1);
    const retried = byName.get('quotes passes on its retry')!;
    expect(retried.failure).toBeNull();
    expect(propertyValues(retried, 'm3.retries')).toEqual(['1']);
    expect(propertyValues(retried, 'm3.retry.0.outcome')).toEqual(['failed']);
    const hostile = byName.get(HOSTILE_NAME)!;
    // The headline is the line that says what went wrong; the whole message is the element's text.
    expect(hostile.failure!.message).toBe('quote was <script>alert("x")</script> ]]> & token [REDACTED]');
    expect(propertyValues(hostile, 'm3.retries')).toEqual(['1']);
    expect(hostile.failure!.text).toContain('quote was <script>alert("x")</script> ]]> & token [REDACTED]');
    expect(byName.get('quotes quotes an international parcel')!.skipped).not.toBeNull();
  });

  test('Markdown summary: verdict, attempts, evaluator rates and the regressions against the green run', () => {
    const shown = runM3(['report', redId, '--format', 'markdown', '--baseline', greenId], folder, {
      REPORTS_API_TOKEN: TOKEN,
    });
    expect(shown.status).toBe(1);
    const text = shown.stdout;
    expect(text.split('\n')[0]).toBe(`## ❌ m3 run \`${redId}\`: failed`);
    expect(text).toContain('- 1 test(s) failed');
    // The hostile test failed twice (jest.retryTimes(1)), the retried test once before passing.
    expect(text).toContain('4 test(s), 6 attempt(s)');
    expect(text).toContain('| quotes | 2 | 3 | 1 | 0 | 6 |');
    expect(text).toMatch(/\| m3\.expect\.toHaveToolCall \| 100\.0% \| [\d.]+% – 100\.0% \| 1 \/ 1 \| 0 \| 0 \|/);
    expect(text).toContain(`### Regressions since \`${greenId}\``);
    expect(text).not.toContain(TOKEN);
    const html = new MarkdownIt({ html: true, linkify: true }).render(text);
    expect(html).not.toMatch(/<b>|<script>|<a /);
    expect(html).toContain('&lt;b&gt;');
  });

  test('--flaky: the hostile test passed in one run and failed in the other', () => {
    const shown = runM3(['report', '--flaky', '--runs', '5', '--json'], folder);
    expect(shown.status).toBe(0);
    const report = JSON.parse(shown.stdout) as { runIds: string[]; tests: Record<string, unknown>[] };
    expect(report.runIds).toEqual([redId, greenId]);
    expect(report.tests).toEqual([
      {
        key: `tests/quotes.test.js › ${HOSTILE_NAME}`,
        fullName: HOSTILE_NAME,
        caseId: expect.any(String),
        runs: 2,
        passed: 1,
        failed: 1,
        outcomes: ['failed', 'passed'],
      },
    ]);
    const text = runM3(['report', '--flaky'], folder);
    expect(text.stdout).toContain(`  1/2 passed     ✕✓  tests/quotes.test.js › ${HOSTILE_NAME}\n`);
  });
});
