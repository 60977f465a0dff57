// `m3 report --format markdown`: the run summary for CI job summaries ($GITHUB_STEP_SUMMARY, GitLab
// or Buildkite annotations): the verdict and its reasons, attempts (retries included), evaluator
// pass rates with intervals and counts, failed tests, required evaluations that did not pass, and
// what the baseline comparison (`--baseline`) found. Every value is redacted, then escaped.
import { JudgeErrorCode } from '@sf-m3/core/internal';
import type { Redactor } from '@sf-m3/core';
import type { ReportData } from '../collectReportData';
import { formatRate } from '../../summary/formatSummary';
import type { BaselineComparison, FailedTest } from '../../summary/RunSummary';
import { assertionLabel, assertionText } from '../../ui/shape/assertionLabel';
import { markdownCode, markdownTable, markdownText } from './markdownText';

/** Failed tests and required failures listed before the rest are left to feedback.json. */
export const MAX_MARKDOWN_ROWS = 50;

function interval(value: [number, number] | null): string {
  return value === null ? 'n/a' : `${formatRate(value[0])} – ${formatRate(value[1])}`;
}

function points(delta: number | null): string {
  if (delta === null) return 'n/a';
  const value = delta * 100;
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} pts`;
}

function more(total: number, shown: number): string[] {
  return total > shown ? ['', markdownText(`… and ${total - shown} more in feedback.json`)] : [];
}

function regressionLines(baseline: BaselineComparison, redact: (s: string) => string): string[] {
  const lines = [`### Regressions since ${markdownCode(baseline.baselineRunId)}`, ''];
  const counts =
    `${baseline.regressedTests.length} regressed, ${baseline.fixedTests.length} fixed, ` +
    `${baseline.newTests} new, ${baseline.removedTests} removed test(s); ` +
    `${baseline.regressedEvaluators.length} evaluator(s) fell significantly, ` +
    `${baseline.dropsWithinNoise} drop(s) within noise`;
  lines.push(markdownText(counts), '');
  if (baseline.regressedTests.length > 0 || baseline.fixedTests.length > 0) {
    const changes = [...baseline.regressedTests, ...baseline.fixedTests].slice(0, MAX_MARKDOWN_ROWS);
    lines.push(
      ...markdownTable(
        ['Test', 'Before', 'Now'],
        changes.map((t) => [redact(t.key), t.before, t.after]),
      ),
      '',
    );
  }
  if (baseline.regressedEvaluators.length > 0) {
    lines.push(
      ...markdownTable(
        ['Evaluator', 'Baseline', 'Now', 'Change'],
        baseline.regressedEvaluators.map((e) => [
          redact(e.evaluator),
          formatRate(e.baselinePassRate),
          formatRate(e.currentPassRate),
          points(e.delta),
        ]),
      ),
      '',
    );
  }
  return lines;
}

/** Renders the run as a Markdown summary. */
export function formatMarkdownSummary(data: ReportData, redactor: Redactor): string {
  const { summary } = data;
  const redact = (text: string): string => redactor.redactText(text);
  const passed = summary.verdict === 'passed';
  const lines: string[] = [`## ${passed ? '✅' : '❌'} m3 run ${markdownCode(summary.runId)}: ${summary.verdict}`, ''];
  if (summary.reasons.length > 0) {
    for (const reason of summary.reasons) lines.push(`- ${markdownText(redact(reason))}`);
    lines.push('');
  }
  // What failed comes first: each failed test, what went wrong and the m3 assertions that failed in it.
  if (summary.failedTests.length > 0) {
    const shown = summary.failedTests.slice(0, MAX_MARKDOWN_ROWS);
    lines.push(
      '### Failed tests',
      '',
      ...markdownTable(
        ['Test', 'What went wrong', 'Failed assertions'],
        shown.map((t) => [redact(t.fullName), redact(t.message ?? ''), redact(failedAssertionsOf(t, data))]),
      ),
      ...more(summary.failedTests.length, shown.length),
      '',
    );
  }
  const a = summary.attempts;
  const finals = a.total - countRetries(data);
  lines.push(
    markdownText(
      `Run status ${summary.status}, started ${summary.startedAt}; ${finals} test(s), ${a.total} attempt(s).`,
    ),
    '',
    ...markdownTable(
      ['Suite', 'Passed', 'Failed', 'Skipped', 'Todo', 'Attempts'],
      [
        ...summary.suites.map((s) => [
          redact(s.name),
          String(s.attempts.passed),
          String(s.attempts.failed),
          String(s.attempts.skipped),
          String(s.attempts.todo),
          String(s.attempts.total),
        ]),
        ['All', String(a.passed), String(a.failed), String(a.skipped), String(a.todo), String(a.total)],
      ],
    ),
    '',
  );

  lines.push('### Evaluators', '');
  if (summary.evaluations.length === 0) {
    lines.push('No evaluations were recorded.', '');
  } else {
    lines.push(
      ...markdownTable(
        ['Evaluator', 'Pass rate', '95% interval', 'Passed / expected', 'Errors', 'Missing required'],
        summary.evaluations.map((e) => [
          redact(e.evaluator),
          formatRate(e.passRate),
          interval(e.interval),
          `${e.passed} / ${e.expected}`,
          String(e.statusCounts.error),
          String(e.missingRequired),
        ]),
      ),
      '',
    );
  }
  const overBudget = data.evaluations.filter((e) => e.metrics.errorCode === JudgeErrorCode.BUDGET_EXHAUSTED).length;
  if (overBudget > 0) {
    lines.push(
      markdownText(
        `${overBudget} judge call(s) past the run's judge budget (--judge-max-requests) were not sent and count as errors.`,
      ),
      '',
    );
  }

  if (summary.requiredFailures.length > 0) {
    const shown = summary.requiredFailures.slice(0, MAX_MARKDOWN_ROWS);
    lines.push(
      '### Required evaluations that did not pass',
      '',
      ...markdownTable(
        ['Evaluator', 'Status', 'Where', 'Why'],
        shown.map((f) => [
          redact(f.evaluator),
          f.status,
          redact(f.executionId ?? f.caseId ?? ''),
          redact(f.rationale ?? ''),
        ]),
      ),
      ...more(summary.requiredFailures.length, shown.length),
      '',
    );
  }
  if (summary.baseline !== null) lines.push(...regressionLines(summary.baseline, redact));
  else if (summary.baselineNote !== null) lines.push(markdownText(redact(`Baseline: ${summary.baselineNote}`)), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The evaluations that did not pass in a failed test's executions, each with its call site. */
function failedAssertionsOf(test: FailedTest, data: ReportData): string {
  const executions = new Set(
    data.attempts
      .filter((a) => a.testPath === test.testPath && a.fullName === test.fullName)
      .flatMap((a) => a.executionIds),
  );
  return data.evaluations
    .filter((e) => e.executionId !== null && executions.has(e.executionId) && e.status !== 'passed')
    .map((e) => {
      const where = assertionText(assertionLabel(e, data.cwd));
      return `${e.evaluator} ${e.status}${where === '' ? '' : ` at ${where}`}`;
    })
    .join('; ');
}

/** Attempts that were retries of an earlier attempt of the same test. */
function countRetries(data: ReportData): number {
  return data.attempts.filter((attempt) => attempt.retryIndex > 0).length;
}
