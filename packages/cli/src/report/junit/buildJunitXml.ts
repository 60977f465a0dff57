// `m3 report --format junit`: the run as JUnit XML, the shape CI dashboards (GitLab, Jenkins,
// GitHub test reporters) read: <testsuites> > <testsuite> per m3 suite > <testcase> per test, from
// its final attempt. Retries, case ids, executions and the verdicts of the evaluations that judged
// the test's executions are <property> elements; a failed final attempt has a <failure> carrying its
// redacted message. Every value is redacted before it is escaped.
import { relative, isAbsolute } from 'node:path';
import type { AttemptRecord, EvaluationResult, Redactor } from '@sf-m3/core';
import type { ReportData } from '../collectReportData';
import { failureHeadline, fullFailureMessage } from '../../summary/failureText';
import { surfaceJunitProperties } from '../../surface/surfaceJunitProperties';
import { distinctEvaluationNames } from './distinctEvaluationNames';
import { xmlAttributes, xmlText } from './xmlText';

/** Name of the suite that holds attempts recorded without a `describe.m3` suite. */
export const NO_SUITE = '(no suite)';
/** Name of the test case that carries a failed verdict no failed test explains (required evaluations, a crash). */
export const VERDICT_CASE = 'm3 run verdict';

interface TestGroup {
  final: AttemptRecord;
  earlier: AttemptRecord[];
}

type Property = [name: string, value: string];

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function rateText(rate: number | null, passed: number, expected: number): string {
  return `${rate === null ? 'n/a' : rate.toFixed(4)} (${passed}/${expected})`;
}

function groupTests(attempts: readonly AttemptRecord[]): TestGroup[] {
  const byTest = new Map<string, AttemptRecord[]>();
  for (const attempt of attempts) {
    const key = `${attempt.testPath}\u0000${attempt.fullName}`;
    byTest.set(key, [...(byTest.get(key) ?? []), attempt]);
  }
  return [...byTest.values()].map((tries) => {
    const sorted = [...tries].sort((a, b) => a.retryIndex - b.retryIndex);
    return { final: sorted[sorted.length - 1]!, earlier: sorted.slice(0, -1) };
  });
}

function verdictValue(e: EvaluationResult, required: boolean): string {
  const parts: string[] = [e.status];
  if (e.score !== null) parts.push(`score=${e.score}`);
  const code = e.metrics.errorCode;
  if (typeof code === 'string') parts.push(`code=${code}`);
  if (required) parts.push('required');
  return parts.join(' ');
}

function propertiesXml(properties: readonly Property[], indent: string, redactor: Redactor): string {
  if (properties.length === 0) return '';
  const rows = properties.map(
    ([name, value]) =>
      `${indent}  <property${xmlAttributes({ name: redactor.redactText(name), value: redactor.redactText(value) })}/>`,
  );
  return `${indent}<properties>\n${rows.join('\n')}\n${indent}</properties>\n`;
}

interface CaseCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  timeMs: number;
}

/** Builds the JUnit XML document of one run. */
export function buildJunitXml(data: ReportData, redactor: Redactor): string {
  const { summary } = data;
  const suiteNames = new Map(summary.suites.map((s) => [s.suiteId, s.name]));
  const requiredIds = new Set(summary.requiredFailures.map((f) => f.evaluationId).filter((id) => id !== null));
  const byExecution = new Map<string, EvaluationResult[]>();
  for (const e of data.evaluations) {
    if (e.executionId === null) continue;
    byExecution.set(e.executionId, [...(byExecution.get(e.executionId) ?? []), e]);
  }
  const shownPath = (path: string): string =>
    (isAbsolute(path) ? relative(data.cwd, path) : path).split('\\').join('/');

  const suites = new Map<string, { cases: string[]; counts: CaseCounts; startedAt: string | null }>();
  const suiteOf = (name: string) => {
    let suite = suites.get(name);
    if (!suite) {
      suite = { cases: [], counts: { tests: 0, failures: 0, errors: 0, skipped: 0, timeMs: 0 }, startedAt: null };
      suites.set(name, suite);
    }
    return suite;
  };

  const groups = groupTests(data.attempts).sort((a, b) =>
    `${a.final.testPath}\u0000${a.final.fullName}`.localeCompare(`${b.final.testPath}\u0000${b.final.fullName}`),
  );
  for (const { final, earlier } of groups) {
    const suiteName =
      final.suiteId === null ? NO_SUITE : (suiteNames.get(final.suiteId) ?? `suite ${String(final.suiteId)}`);
    const suite = suiteOf(suiteName);
    const durationMs = final.durationMs ?? 0;
    suite.counts.tests += 1;
    suite.counts.timeMs += durationMs;
    if (suite.startedAt === null || final.startedAt < suite.startedAt) suite.startedAt = final.startedAt;

    const properties: Property[] = [];
    if (final.caseId !== null) properties.push(['m3.caseId', final.caseId]);
    properties.push(['m3.attempts', String(earlier.length + 1)], ['m3.retries', String(earlier.length)]);
    for (const attempt of earlier) {
      properties.push([`m3.retry.${attempt.retryIndex}.outcome`, attempt.outcome ?? 'unfinished']);
    }
    // Evaluation property names are distinct within the test case (call site, then a counter).
    const judged = final.executionIds.flatMap((id) => byExecution.get(id) ?? []);
    const names = distinctEvaluationNames(judged, data.cwd);
    let next = 0;
    for (const executionId of final.executionIds) {
      properties.push(['m3.executionId', executionId]);
      for (const e of byExecution.get(executionId) ?? []) {
        properties.push([names[next]!, verdictValue(e, e.required || requiredIds.has(e.evaluationId))]);
        next += 1;
      }
    }

    const attributes = xmlAttributes({
      name: redactor.redactText(final.fullName),
      classname: redactor.redactText(suiteName),
      file: redactor.redactText(shownPath(final.testPath)),
      time: seconds(durationMs),
    });
    let body = propertiesXml(properties, '      ', redactor);
    if (final.outcome === 'failed') {
      suite.counts.failures += 1;
      const message = failureHeadline(final.failureMessage, redactor) ?? 'the test failed';
      const full = fullFailureMessage(final.failureMessage, redactor) ?? message;
      body += `      <failure${xmlAttributes({ message, type: 'failed' })}>${xmlText(full)}</failure>\n`;
    } else if (final.outcome === null) {
      suite.counts.errors += 1;
      body += `      <error${xmlAttributes({ message: 'the test never finished (its worker stopped or the run was interrupted)', type: 'unfinished' })}/>\n`;
    } else if (final.outcome === 'skipped' || final.outcome === 'todo') {
      suite.counts.skipped += 1;
      body += `      <skipped${xmlAttributes({ message: final.outcome })}/>\n`;
    }
    suite.cases.push(
      body === '' ? `    <testcase${attributes}/>\n` : `    <testcase${attributes}>\n${body}    </testcase>\n`,
    );
  }

  // A failed verdict that no failed test explains would otherwise show green on a dashboard.
  // decideVerdict lists "N test(s) failed" first when tests failed; the rest need a case of their own.
  const unexplained = summary.failedTests.length > 0 ? summary.reasons.slice(1) : summary.reasons;
  if (summary.verdict === 'failed' && unexplained.length > 0) {
    const suite = suiteOf('m3');
    suite.counts.tests += 1;
    suite.counts.failures += 1;
    const text = unexplained.map((r) => redactor.redactText(r)).join('\n');
    suite.cases.push(
      `    <testcase${xmlAttributes({ name: VERDICT_CASE, classname: 'm3', time: '0.000' })}>\n` +
        `      <failure${xmlAttributes({ message: redactor.redactText(unexplained[0]!), type: 'verdict' })}>${xmlText(text)}</failure>\n` +
        `    </testcase>\n`,
    );
  }

  const total: CaseCounts = { tests: 0, failures: 0, errors: 0, skipped: 0, timeMs: 0 };
  const suiteXml: string[] = [];
  for (const [name, suite] of [...suites.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    for (const key of Object.keys(total) as (keyof CaseCounts)[]) total[key] += suite.counts[key];
    const properties: Property[] = [
      ['m3.runId', summary.runId],
      ['m3.verdict', summary.verdict],
      ...surfaceJunitProperties(summary.surface),
    ];
    for (const rate of data.suiteRates.get(name) ?? []) {
      properties.push([`m3.evaluator.${rate.evaluator}.passRate`, rateText(rate.passRate, rate.passed, rate.expected)]);
    }
    suiteXml.push(
      `  <testsuite${xmlAttributes({
        name: redactor.redactText(name),
        tests: suite.counts.tests,
        failures: suite.counts.failures,
        errors: suite.counts.errors,
        skipped: suite.counts.skipped,
        time: seconds(suite.counts.timeMs),
        timestamp: suite.startedAt ?? summary.startedAt,
      })}>\n${propertiesXml(properties, '    ', redactor)}${suite.cases.join('')}  </testsuite>\n`,
    );
  }
  const root = xmlAttributes({
    name: `m3 ${summary.runId}`,
    tests: total.tests,
    failures: total.failures,
    errors: total.errors,
    skipped: total.skipped,
    time: seconds(total.timeMs),
    timestamp: summary.startedAt,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n${suiteXml.join('')}</testsuites>\n`;
}
