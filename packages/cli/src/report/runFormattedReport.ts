// `m3 report [RUN_ID] --format junit|markdown [--output FILE]` and `m3 report --flaky [--runs K]`:
// the CI outputs of a saved run, dispatched here from commands/report.ts.
import type { Redactor } from '@sf-m3/core';
import type { CliIO } from '../CliIO';
import { noticeTo, openResultsStore } from '../store/openResultsStore';
import type { SummarizedRun } from '../summary/buildRunSummary';
import type { SummaryStore } from '../summary/collectRunFacts';
import { collectReportData } from './collectReportData';
import { findFlakyTests } from './flaky/findFlakyTests';
import { formatFlakyMarkdown, formatFlakyText } from './flaky/formatFlaky';
import { buildJunitXml } from './junit/buildJunitXml';
import { formatMarkdownSummary } from './markdown/formatMarkdownSummary';
import type { ReportOutputOptions } from './reportOutputOptions';
import { writeReportOutput } from './writeReportOutput';

/**
 * Writes the JUnit or Markdown report of a summarized run; the exit status follows its verdict,
 * as plain `m3 report` does (0 passed, 1 failed), so CI can gate on either.
 */
export async function writeFormattedReport(
  store: SummaryStore,
  summarized: SummarizedRun,
  options: ReportOutputOptions & { format: 'junit' | 'markdown' },
  redactor: Redactor,
  io: CliIO,
): Promise<number> {
  const data = await collectReportData(store, summarized, redactor, io.cwd);
  const text = options.format === 'junit' ? buildJunitXml(data, redactor) : formatMarkdownSummary(data, redactor);
  const what = `${options.format === 'junit' ? 'JUnit XML' : 'the Markdown summary'} of ${summarized.summary.runId}`;
  writeReportOutput(text, options.output, what, io);
  return summarized.summary.verdict === 'passed' ? 0 : 1;
}

/** Runs `m3 report --flaky`: exit status 0 whatever it finds (it is a view, not a gate). */
export async function runFlakyReport(
  path: string,
  options: ReportOutputOptions & { flakyRuns: number },
  redactor: Redactor,
  io: CliIO,
): Promise<number> {
  const store = openResultsStore(path, { mustExist: true, onNotice: noticeTo(io, redactor) });
  try {
    const report = await findFlakyTests(store, { runs: options.flakyRuns, cwd: io.cwd, redactor });
    const text = options.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : options.format === 'markdown'
        ? formatFlakyMarkdown(report)
        : formatFlakyText(report);
    writeReportOutput(text, options.output, 'the flaky test report', io);
    return 0;
  } finally {
    await store.close();
  }
}
