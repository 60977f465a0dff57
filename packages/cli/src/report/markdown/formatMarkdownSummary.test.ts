import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import MarkdownIt from 'markdown-it';
import { buildRunSummary } from '../../summary/buildRunSummary';
import { seedRun, type SeedTest } from '../../summary/runFixtures.testkit';
import { collectReportData } from '../collectReportData';
import { formatMarkdownSummary } from './formatMarkdownSummary';
import { markdownText } from './markdownText';

const SECRET = 'ghp_0123456789abcdefABCDEF0123456789abcd';
// CI job summaries render Markdown with (sanitized) HTML: render as permissively as possible.
const markdown = new MarkdownIt({ html: true, linkify: true });

async function summaryOf(before: SeedTest[] | null, after: SeedTest[]) {
  const store = new InMemoryExecutionStore();
  const redactor = new Redactor([SECRET]);
  const baselineRunId = before === null ? null : await seedRun(store, before);
  const runId = await seedRun(store, after);
  const summarized = await buildRunSummary(store, { runId, redactor, resultsDb: 'db', cwd: '/project', baselineRunId });
  const text = formatMarkdownSummary(await collectReportData(store, summarized, redactor, '/project'), redactor);
  await store.close();
  return { runId, baselineRunId, text, html: markdown.render(text) };
}

const quote = (outcome: 'passed' | 'failed', status: 'passed' | 'failed'): SeedTest => ({
  suite: 'shipping',
  fullName: 'shipping quotes local',
  outcome,
  ...(outcome === 'failed' && { failureMessage: 'expect(q).toBe(9)\n\nExpected: 9\nReceived: 99' }),
  evaluations: [{ evaluator: 'quote.v1', status }],
});

describe('formatMarkdownSummary', () => {
  test('a green run: verdict, attempts, evaluator rates with intervals and counts', async () => {
    const { runId, text, html } = await summaryOf(null, [quote('passed', 'passed')]);
    expect(text.split('\n')[0]).toBe(`## ✅ m3 run \`${runId}\`: passed`);
    expect(text).toContain('| shipping | 1 | 0 | 0 | 0 | 1 |');
    expect(text).toContain('| quote.v1 | 100.0% | 20.7% – 100.0% | 1 / 1 | 0 | 0 |');
    expect(html).toContain('<table>');
    expect(text).not.toContain('Regressions');
  });

  test('a red run against its baseline: reasons, failed tests and the regressions the comparison found', async () => {
    const { baselineRunId, text, html } = await summaryOf([quote('passed', 'passed')], [quote('failed', 'failed')]);
    expect(text).toContain('## ❌ m3 run');
    expect(text).toContain('- 1 test(s) failed');
    expect(text).toContain('| shipping quotes local | Expected: 9; Received: 99 |');
    expect(text).toContain(`### Regressions since \`${baselineRunId}\``);
    expect(text).toContain('| tests/shipping.test.ts › shipping quotes local | passed | failed |');
    // 1/1 then 0/1 is no evidence (Fisher p = 1): a drop within noise, not a fallen evaluator.
    expect(text).toContain('0 evaluator(s) fell significantly, 1 drop(s) within noise');
    expect(text).not.toContain('| quote.v1 | 100.0% | 0.0% |');
    expect(html).toContain('<h3>Regressions since');
  });

  test('an evaluator that fell significantly is listed with both rates and the change', async () => {
    const trial = (i: number, status: 'passed' | 'failed'): SeedTest => ({
      ...quote('passed', status),
      fullName: `shipping quotes local ${i}`,
    });
    const many = (status: 'passed' | 'failed') => Array.from({ length: 12 }, (_, i) => trial(i, status));
    const { text } = await summaryOf(many('passed'), many('failed'));
    // 12/12 then 0/12: Fisher p ≈ 1.9e-7, a regression.
    expect(text).toContain('1 evaluator(s) fell significantly');
    expect(text).toContain('| quote.v1 | 100.0% | 0.0% | −100.0 pts |');
  });

  test('hostile names and messages render as text: no tag, link, heading or extra cell', async () => {
    const hostile = `<img src=x onerror=alert(1)> [click](https://evil.example) **bold** | cell ${SECRET}\n# heading`;
    const { text, html } = await summaryOf(null, [
      { suite: 'shipping', fullName: hostile, outcome: 'failed', failureMessage: `Error: ${hostile}` },
    ]);
    expect(text).not.toContain(SECRET);
    expect(html).not.toMatch(/<img|<a |<strong>|<h1>/);
    const row = html.split('\n').find((line) => line.includes('onerror'))!;
    expect(row).toContain(
      '&lt;img src=x onerror=alert(1)&gt; [click](https://evil.example) **bold** | cell [REDACTED] # heading',
    );
    // The failed-tests table still has its three cells per row (test, what went wrong, failed assertions).
    const failedTable = html.slice(html.indexOf('<h3>Failed tests</h3>'));
    const firstRow = failedTable.slice(
      failedTable.indexOf('<tbody>'),
      failedTable.indexOf('</tr>', failedTable.indexOf('<tbody>')),
    );
    expect(firstRow.match(/<td>/g)).toHaveLength(3);
  });
});

test('says how many judge calls the judge budget kept from being sent', async () => {
  const store = new InMemoryExecutionStore();
  const redactor = new Redactor([]);
  const runId = await seedRun(store, [
    {
      suite: 'shipping',
      fullName: 'shipping judged',
      outcome: 'passed',
      evaluations: [{ evaluator: 'a.v1', status: 'passed' }],
    },
  ]);
  const [passed] = await store.listEvaluations({ runId });
  const spent = { ...passed!, evaluationId: 'eval-spent', status: 'error' as const, subjectDigest: 'f'.repeat(64) };
  await store.saveEvaluation({
    result: { ...spent, metrics: { errorCode: 'judge_budget_exhausted' } },
    labels: {
      runId,
      suiteName: 'shipping',
      caseId: null,
      server: null,
      tool: null,
      transport: null,
      harness: null,
      model: null,
      trial: null,
      judgeModel: null,
      rubricId: null,
      matrixId: null,
      metadata: {},
    },
  });
  const summarized = await buildRunSummary(store, { runId, redactor, resultsDb: 'db', cwd: '/project' });
  const text = formatMarkdownSummary(await collectReportData(store, summarized, redactor, '/project'), redactor);
  expect(text).toContain("1 judge call(s) past the run's judge budget (--judge-max-requests) were not sent");
  expect(text).toContain('| a.v1 | 50.0% |');
  await store.close();
});

describe('markdownText', () => {
  test.each([
    ['- item', '<p>- item</p>'],
    ['1. first', '<p>1. first</p>'],
    ['> quote', '<p>&gt; quote</p>'],
    ['`code`', '<p>`code`</p>'],
    ['a\\*b', '<p>a\\*b</p>'],
  ])('%j stays literal text', (input, rendered) => {
    expect(markdown.render(markdownText(input)).trim()).toBe(rendered);
  });
});
