// In a static report, one line under the run's header saying what the size budget left out or
// summarized, so a "not in this report" further down is no surprise. Nothing under `m3 ui`.
import { embeddedData } from '../dataSource';

/** The static report's budget note, or nothing. */
export function StaticReportNote() {
  const data = embeddedData();
  if (data === null || data.omitted === undefined) return null;
  const { executions, evidence, trends } = data.omitted;
  const summarized = data.summarizedExecutions ?? 0;
  if (executions + evidence + trends + summarized === 0) return null;
  const left = [
    executions > 0 ? `${executions} execution(s)` : null,
    evidence > 0 ? `${evidence} raw evidence item(s)` : null,
    trends > 0 ? `${trends} trend view(s)` : null,
  ].filter((p): p is string => p !== null);
  return (
    <p class="muted small" data-testid="static-report-note">
      This static report is kept under {Math.round((data.maxBytes ?? 0) / 1000)} kB, the failed tests&apos; executions
      first{summarized > 0 ? `; ${summarized} execution(s) have long values cut` : ''}
      {left.length > 0 ? `; left out: ${left.join(', ')}` : ''}. <code>m3 ui</code> shows everything.
    </p>
  );
}
