import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { buildRunSummary } from '../../summary/buildRunSummary';
import { seedRun, type SeedTest } from '../../summary/runFixtures.testkit';
import { collectReportData } from '../collectReportData';
import { buildJunitXml, VERDICT_CASE } from './buildJunitXml';
import { parseJunit, propertyValues } from './junitShape.testkit';

const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c';
// Markup, entities, a CDATA end, quotes, control characters XML cannot hold, an ANSI colour, a
// lone surrogate and a secret: everything a hostile failure message can carry.
const HOSTILE = `expect(x).toBe(y)\n\n<script>alert("pwned")</script> & ]]> '\u0000\u0007\u001b[31mred\u001b[39m \uD800 token ${SECRET}`;

async function junitOf(tests: SeedTest[], redactor = new Redactor([SECRET])) {
  const store = new InMemoryExecutionStore();
  const runId = await seedRun(store, tests);
  const summarized = await buildRunSummary(store, { runId, redactor, resultsDb: 'db', cwd: '/project' });
  const data = await collectReportData(store, summarized, redactor, '/project');
  const xml = buildJunitXml(data, redactor);
  await store.close();
  return { runId, xml, report: parseJunit(xml) };
}

describe('buildJunitXml', () => {
  test('two assertions of one matcher in a test are two distinct properties, named by call site', async () => {
    const site = (line: number) => ({ testPath: '/project/tests/git.test.ts', line, matcher: 'toHaveToolCall' });
    const { report } = await junitOf([
      {
        suite: 'git',
        fullName: 'git status and log',
        outcome: 'failed',
        failureMessage: 'git_log was not called',
        evaluations: [
          { evaluator: 'm3.expect.toHaveToolCall', status: 'passed', metadata: site(10) },
          { evaluator: 'm3.expect.toHaveToolCall', status: 'failed', metadata: site(12) },
          { evaluator: 'quote.tone.v1', status: 'passed' },
        ],
      },
    ]);
    const names = report.suites
      .flatMap((s) => s.cases)
      .find((c) => c.name === 'git status and log')!
      .properties.map(([name]) => name)
      .filter((name) => name.startsWith('m3.evaluation.'));
    expect(names).toEqual([
      'm3.evaluation.m3.expect.toHaveToolCall@tests/git.test.ts:10',
      'm3.evaluation.m3.expect.toHaveToolCall@tests/git.test.ts:12',
      'm3.evaluation.quote.tone.v1',
    ]);
  });

  test('one testcase per final attempt, with retries, case id, executions and verdicts as properties', async () => {
    const { runId, report } = await junitOf([
      {
        suite: 'shipping',
        fullName: 'shipping quotes local',
        outcome: 'passed',
        caseId: 'quote-local',
        evaluations: [
          { evaluator: 'quote.correct.v1', status: 'passed' },
          { evaluator: 'quote.tone.v1', status: 'error', required: true },
        ],
      },
      { suite: 'shipping', fullName: 'shipping flaky', outcome: 'failed', failureMessage: 'first try' },
      { suite: 'shipping', fullName: 'shipping flaky', outcome: 'passed', retryIndex: 1 },
      { suite: 'catalog', fullName: 'catalog later', outcome: 'skipped' },
    ]);
    // Three tests, and the run's verdict (the required quote.tone.v1 errored) as a fourth case.
    expect(report).toMatchObject({ name: `m3 ${runId}`, tests: 4, failures: 1, errors: 0, skipped: 1 });
    expect(report.suites.map((s) => [s.name, s.tests])).toEqual([
      ['catalog', 1],
      ['m3', 1],
      ['shipping', 2],
    ]);
    const shipping = report.suites[2]!;
    expect(propertyValues(shipping, 'm3.runId')).toEqual([runId]);
    expect(propertyValues(shipping, 'm3.evaluator.quote.correct.v1.passRate')).toEqual(['1.0000 (1/1)']);
    expect(propertyValues(shipping, 'm3.evaluator.quote.tone.v1.passRate')).toEqual(['0.0000 (0/1)']);
    const [flaky, quotes] = shipping.cases;
    expect(flaky).toMatchObject({ name: 'shipping flaky', classname: 'shipping', file: 'tests/shipping.test.ts' });
    expect(flaky!.failure).toBeNull();
    expect(propertyValues(flaky!, 'm3.attempts')).toEqual(['2']);
    expect(propertyValues(flaky!, 'm3.retries')).toEqual(['1']);
    expect(propertyValues(flaky!, 'm3.retry.0.outcome')).toEqual(['failed']);
    expect(propertyValues(quotes!, 'm3.caseId')).toEqual(['quote-local']);
    expect(propertyValues(quotes!, 'm3.executionId')[0]).toMatch(/^exec-[0-9a-f]{32}$/);
    expect(propertyValues(quotes!, 'm3.evaluation.quote.correct.v1')).toEqual(['passed']);
    expect(propertyValues(quotes!, 'm3.evaluation.quote.tone.v1')).toEqual(['error required']);
    expect(report.suites[0]!.cases[0]!.skipped).toEqual({ message: 'skipped' });
  });

  test('a failed verdict no failed test explains gets a failing case of its own', async () => {
    const { report } = await junitOf([
      {
        suite: 'shipping',
        fullName: 'shipping caught it',
        outcome: 'passed',
        evaluations: [{ evaluator: 'quote.v1', status: 'failed', required: true }],
      },
    ]);
    const verdict = report.suites.find((s) => s.name === 'm3')!.cases[0]!;
    expect(verdict.name).toBe(VERDICT_CASE);
    expect(verdict.failure!.message).toMatch(/^required evaluation did not pass: quote\.v1/);
    expect(report.failures).toBe(1);
  });

  test('hostile text is escaped: it parses, reads back as text, holds no markup and no secret', async () => {
    const name = `quote "all" <b>bold</b> & 'more'\n\ttabbed ${SECRET}`;
    const { xml, report } = await junitOf([
      { suite: 'ship</testsuite><x>', fullName: name, outcome: 'failed', failureMessage: HOSTILE },
    ]);
    expect(xml).not.toContain(SECRET);
    expect(xml).not.toContain('<script>');
    // eslint-disable-next-line no-control-regex -- XML 1.0 cannot carry these at all
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    const [suite] = report.suites;
    expect(suite!.name).toBe('ship</testsuite><x>');
    const [testcase] = suite!.cases;
    // Attribute values keep quotes, tab and newline exactly (character references survive parsing).
    expect(testcase!.name).toBe(`quote "all" <b>bold</b> & 'more'\n\ttabbed [REDACTED]`);
    expect(testcase!.failure!.type).toBe('failed');
    expect(testcase!.failure!.message).toBe(
      `<script>alert("pwned")</script> & ]]> '\uFFFD\uFFFDred \uFFFD token [REDACTED]`,
    );
    expect(testcase!.failure!.text).toBe(
      `expect(x).toBe(y)\n\n<script>alert("pwned")</script> & ]]> '\uFFFD\uFFFDred \uFFFD token [REDACTED]`,
    );
  });

  test('a test that never finished is an <error>', async () => {
    const store = new InMemoryExecutionStore();
    const runId = await seedRun(store, [{ suite: 's', fullName: 's done', outcome: 'passed' }], {
      status: 'interrupted',
    });
    const [attempt] = await store.listAttempts({ runId });
    await store.saveAttempt({ ...attempt!, attemptId: 'attempt-unfinished', fullName: 's hung', outcome: null });
    const redactor = new Redactor([]);
    const summarized = await buildRunSummary(store, { runId, redactor, resultsDb: 'db', cwd: '/project' });
    const report = parseJunit(buildJunitXml(await collectReportData(store, summarized, redactor, '/'), redactor));
    const hung = report.suites.find((s) => s.name === 's')!.cases.find((c) => c.name === 's hung')!;
    expect(hung.error).toMatchObject({ type: 'unfinished' });
    expect(report).toMatchObject({ tests: 3, errors: 1 });
    await store.close();
  });
});

describe('parseJunit (the shape check the tests rely on)', () => {
  test.each([
    ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="x"/>', /root element must be <testsuites>/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="1"', /./],
    [
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="1" failures="0" errors="0" skipped="0" time="0">' +
        '<testsuite name="s" tests="2" failures="0" errors="0" skipped="0" time="0" timestamp="2026-01-01T00:00:00Z">' +
        '<testcase name="a" classname="s" time="0"/></testsuite></testsuites>',
      /tests="2" but it holds 1/,
    ],
    [
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="0" failures="0" errors="0" skipped="0" time="0">' +
        '<testsuite name="s" tests="0" failures="0" errors="0" skipped="0" time="0" timestamp="yesterday"/></testsuites>',
      /not an ISO 8601 instant/,
    ],
  ])('refuses a document that is not JUnit (%#)', (xml, problem) => {
    expect(() => parseJunit(xml)).toThrow(problem);
  });
});
