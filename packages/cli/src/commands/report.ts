// `m3 report [RUN_ID]`: prints a saved run's summary (the latest run when omitted), rewrites its
// feedback.json, and exits with the status its verdict implies.
import { collectRunSurfaceCoverage } from '@sf-m3/core/internal';
import type { RunRecord } from '@sf-m3/core';
import { resolveBaseline } from '../baseline/resolveBaseline';
import { displayPath } from '../displayPath';
import { cliRedactor, type CliIO } from '../CliIO';
import { resolveResultsDb, validateRunId } from '../options/testOptions';
import { UsageError } from '../options/UsageError';
import { validateReportOutput } from '../report/reportOutputOptions';
import type { runFlakyReport, writeFormattedReport } from '../report/runFormattedReport';
import { closeAbandonedRunsAt } from '../store/closeAbandonedRunsAt';
import { noticeTo, openResultsStore } from '../store/openResultsStore';
import { buildRunSummary } from '../summary/buildRunSummary';
import { parseAlpha } from '../gates/parseGateValues';
import { reportSummary } from '../summary/reportSummary';
import type { writeRunHtml } from '../report/html/writeRunHtml';
import type { formatSurfaceReport } from '../surface/formatSurfaceReport';
import type { roundSurfaceCoverage } from '../surface/roundSurfaceCoverage';

/** Options of `m3 report`. */
export interface ReportCommandInput {
  runId?: string;
  resultsDb?: string;
  baseline?: string;
  /** regressions: `--alpha`. */
  alpha?: string;
  json?: boolean;
  // reports lane: CI outputs (see report/reportOutputOptions.ts)
  format?: string;
  output?: string;
  flaky?: boolean;
  runs?: string;
  /** viewer: `--html DIR` writes the run's static HTML report there. */
  html?: string;
  /** surface: `--surface` prints the run's surface coverage (with `--json`, as JSON) instead of the summary. */
  surface?: boolean;
}

// Each output beside the printed summary is required where it is asked for: the HTML report (and
// the viewer's pages it renders), the CI formats and the flaky report, the surface coverage.
const formatted = () =>
  require('../report/runFormattedReport') as {
    runFlakyReport: typeof runFlakyReport;
    writeFormattedReport: typeof writeFormattedReport;
  };
const html = () => require('../report/html/writeRunHtml') as { writeRunHtml: typeof writeRunHtml };
const surface = () => ({
  ...(require('../surface/formatSurfaceReport') as { formatSurfaceReport: typeof formatSurfaceReport }),
  ...(require('../surface/roundSurfaceCoverage') as { roundSurfaceCoverage: typeof roundSurfaceCoverage }),
});

/** Runs `m3 report`; returns the exit status. */
export async function runReportCommand(input: ReportCommandInput, io: CliIO): Promise<number> {
  const path = resolveResultsDb(input.resultsDb, io.cwd, io.env);
  const requested = input.runId === undefined ? null : validateRunId('RUN_ID', input.runId);
  const baselineArg = input.baseline === undefined ? null : input.baseline;
  const alpha = input.alpha === undefined ? undefined : parseAlpha('--alpha', input.alpha);
  const redactor = cliRedactor(io.env);
  // reports lane: --format junit|markdown [--output FILE], --flaky [--runs K]
  const outputs = validateReportOutput(input, io.cwd);
  if (outputs.flakyRuns !== null)
    return formatted().runFlakyReport(path, { ...outputs, flakyRuns: outputs.flakyRuns }, redactor, io);
  const store = openResultsStore(path, { mustExist: true, onNotice: noticeTo(io, redactor) });
  try {
    await closeAbandonedRunsAt(path, store, io, redactor);
    let current: RunRecord | null;
    if (requested === null) {
      current = (await store.listRuns({ limit: 1 }))[0] ?? null;
      if (current === null) {
        throw new UsageError('RUN_ID', 'the results database holds no runs yet; run `m3 test` first');
      }
    } else {
      current = await store.getRun(requested);
      if (current === null) throw new UsageError('RUN_ID', `run ${requested} is not in the results database`);
    }
    const runId = current.runId;
    // viewer: `--html DIR`
    if (input.html !== undefined) await html().writeRunHtml(store, runId, input.html, io, path);
    // surface: `--surface [--json]` prints the coverage only; thresholds are judged by `m3 test`.
    if (input.surface === true) {
      if (outputs.format !== null) throw new UsageError('--surface', 'prints coverage itself; drop --format');
      const coverage = await collectRunSurfaceCoverage(store, runId);
      const { formatSurfaceReport, roundSurfaceCoverage } = surface();
      io.stdout(
        input.json === true
          ? `${JSON.stringify(redactor.redactJson(roundSurfaceCoverage(coverage)), null, 2)}\n`
          : redactor.redactText(formatSurfaceReport(coverage)),
      );
      return 0;
    }
    const baseline = await resolveBaseline(
      store,
      baselineArg === null || baselineArg === 'latest' ? baselineArg : validateRunId('--baseline', baselineArg),
      current,
    );
    const summarized = await buildRunSummary(store, {
      runId,
      redactor,
      resultsDb: displayPath(io.cwd, path),
      cwd: io.cwd,
      baselineRunId: baseline.runId,
      baselineNote: baseline.note,
      alpha,
      jestExit: null,
    });
    // reports lane: a CI output instead of the printed summary
    if (outputs.format !== null) {
      return await formatted().writeFormattedReport(
        store,
        summarized,
        { ...outputs, format: outputs.format },
        redactor,
        io,
      );
    }
    return reportSummary(summarized, io, redactor, input.json === true);
  } finally {
    await store.close();
  }
}
