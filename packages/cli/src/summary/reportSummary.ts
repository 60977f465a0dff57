// The end of `m3 test` and `m3 report`: a run's summary printed as text or JSON, its feedback.json
// written, and the exit status its verdict implies.
import type { Redactor } from '@sf-m3/core';
import type { CliIO } from '../CliIO';
import { displayPath } from '../displayPath';
import { buildFeedback, writeFeedback } from '../feedback/writeFeedback';
import type { SummarizedRun } from './buildRunSummary';
import { formatSummary } from './formatSummary';
import { roundSummaryRates } from './roundRates';

/** Prints a summary as text or JSON and writes feedback.json; returns the exit status. */
export function reportSummary(
  { summary, attempts }: SummarizedRun,
  io: CliIO,
  redactor: Redactor,
  json: boolean,
): number {
  const written = writeFeedback(io.cwd, buildFeedback(summary, attempts, redactor));
  const shownPath = displayPath(io.cwd, written);
  if (json) {
    const shown = { ...roundSummaryRates(summary), feedbackPath: shownPath };
    io.stdout(`${JSON.stringify(redactor.redactJson(shown), null, 2)}\n`);
  } else {
    io.stdout(redactor.redactText(formatSummary(summary, { feedbackPath: shownPath })));
  }
  return summary.verdict === 'passed' ? 0 : 1;
}
