// The flake view as terminal text and as Markdown (for a CI job summary).
import { markdownCode, markdownTable, markdownText } from '../markdown/markdownText';
import type { FlakyOutcome, FlakyReport } from './findFlakyTests';

const MARK: Record<'passed' | 'failed' | 'none', string> = { passed: '✓', failed: '✕', none: '·' };

/** `✓✕·`: one mark per run, newest first (`·` when the test did not run there). */
export function outcomeMarks(outcomes: readonly FlakyOutcome[]): string {
  return outcomes.map((o) => MARK[o ?? 'none']).join('');
}

function headline(report: FlakyReport): string {
  const window = `the last ${report.runIds.length} finished run(s)`;
  return report.tests.length === 0
    ? `no flaky tests over ${window} (${report.testsSeen} test(s) seen)`
    : `${report.tests.length} flaky test(s) over ${window}: final attempts passed in some runs and failed in others (${report.testsSeen} test(s) seen)`;
}

/** Terminal text: one line per flaky test with its pass count and outcomes. */
export function formatFlakyText(report: FlakyReport): string {
  const lines = [headline(report)];
  if (report.runIds.length > 0) lines.push(`runs        ${report.runIds.join(', ')} (newest first)`);
  for (const test of report.tests) {
    lines.push(`  ${`${test.passed}/${test.runs} passed`.padEnd(14)} ${outcomeMarks(test.outcomes)}  ${test.key}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Markdown: the same as a table. */
export function formatFlakyMarkdown(report: FlakyReport): string {
  const lines = ['## m3 flaky tests', '', markdownText(headline(report)), ''];
  if (report.runIds.length > 0) {
    lines.push(`Runs, newest first: ${report.runIds.map(markdownCode).join(', ')}`, '');
  }
  if (report.tests.length > 0) {
    lines.push(
      ...markdownTable(
        ['Test', 'Passed', 'Failed', 'Outcomes (newest first)'],
        report.tests.map((t) => [t.key, `${t.passed} / ${t.runs}`, String(t.failed), outcomeMarks(t.outcomes)]),
      ),
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
