// `m3 runs`: the most recent runs in the results database, newest first.
import { displayPath } from '../displayPath';
import type { RunRecord } from '@sf-m3/core';
import { cliRedactor, type CliIO } from '../CliIO';
import { positiveInteger, resolveResultsDb } from '../options/testOptions';
import { closeAbandonedRunsAt } from '../store/closeAbandonedRunsAt';
import { noticeTo, openResultsStore } from '../store/openResultsStore';

/** Options of `m3 runs`. */
export interface RunsCommandInput {
  resultsDb?: string;
  limit?: string;
  json?: boolean;
}

/** The column titles `m3 runs` prints above its rows. */
export const RUNS_HEADER = ['RUN', 'STARTED', 'STATUS', 'ATTEMPTS', 'LABEL'] as const;

/** A header row, then one line per run: id, start time, status, attempt counts and label. */
export function formatRuns(runs: readonly RunRecord[]): string {
  if (runs.length === 0) return 'no runs recorded yet\n';
  const rows: string[][] = [
    [...RUNS_HEADER],
    ...runs.map((r) => [
      r.runId,
      r.startedAt,
      r.status,
      `${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped, ${r.counts.todo} todo`,
      r.label ?? '',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** Runs `m3 runs`; returns the exit status. */
export async function runRunsCommand(input: RunsCommandInput, io: CliIO): Promise<number> {
  const limit = input.limit === undefined ? 20 : positiveInteger('--limit', input.limit);
  const path = resolveResultsDb(input.resultsDb, io.cwd, io.env);
  const redactor = cliRedactor(io.env);
  const store = openResultsStore(path, { mustExist: true, onNotice: noticeTo(io, redactor) });
  try {
    await closeAbandonedRunsAt(path, store, io, redactor);
    const runs = await store.listRuns({ limit });
    if (input.json === true) {
      io.stdout(`${JSON.stringify(redactor.redactJson({ resultsDb: displayPath(io.cwd, path), runs }), null, 2)}\n`);
    } else {
      io.stdout(redactor.redactText(formatRuns(runs)));
    }
    return 0;
  } finally {
    await store.close();
  }
}
