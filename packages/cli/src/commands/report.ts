// `m3 report [RUN_ID]`: prints a saved run's summary (the latest run when omitted), rewrites its
// feedback.json, and exits with the status its verdict implies.
import type { RunRecord } from '@sf-m3/core';
import { resolveBaseline } from '../baseline/resolveBaseline';
import { displayPath } from '../displayPath';
import { cliRedactor, type CliIO } from '../CliIO';
import { resolveResultsDb, validateRunId } from '../options/testOptions';
import { UsageError } from '../options/UsageError';
import { openResultsStore } from '../store/openResultsStore';
import { buildRunSummary } from '../summary/buildRunSummary';
import { reportSummary } from './test';

/** Options of `m3 report`. */
export interface ReportCommandInput {
  runId?: string;
  resultsDb?: string;
  baseline?: string;
  json?: boolean;
}

/** Runs `m3 report`; returns the exit status. */
export async function runReportCommand(input: ReportCommandInput, io: CliIO): Promise<number> {
  const path = resolveResultsDb(input.resultsDb, io.cwd, io.env);
  const requested = input.runId === undefined ? null : validateRunId('RUN_ID', input.runId);
  const baselineArg = input.baseline === undefined ? null : input.baseline;
  const store = openResultsStore(path, { mustExist: true });
  const redactor = cliRedactor(io.env);
  try {
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
      jestExit: null,
    });
    return reportSummary(summarized, io, redactor, input.json === true);
  } finally {
    await store.close();
  }
}
