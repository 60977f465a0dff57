// `m3 prune (--keep-runs N | --older-than DURATION) [--dry-run] [--include-running] [--json]`:
// deletes whole runs and what only they reference, then reclaims the space (contract §20).
import type { PruneSelection } from '@sf-m3/core';
import { cliRedactor, type CliIO } from '../CliIO';
import { displayPath } from '../displayPath';
import { resolveResultsDb } from '../options/testOptions';
import { UsageError } from '../options/UsageError';
import { formatPruneReport } from '../retention/formatPruneReport';
import { openPrunableStore } from '../retention/openPrunableStore';
import { olderThanInstant } from '../retention/parseAge';

/** Options of `m3 prune`, as typed. */
export interface PruneCommandInput {
  resultsDb?: string;
  keepRuns?: string;
  olderThan?: string;
  dryRun?: boolean;
  includeRunning?: boolean;
  json?: boolean;
}

/** The selection the flags ask for and how to describe it; a `UsageError` naming the flag otherwise. */
export function pruneSelection(input: PruneCommandInput, now: Date): { selection: PruneSelection; described: string } {
  if ((input.keepRuns === undefined) === (input.olderThan === undefined)) {
    throw new UsageError(
      input.keepRuns === undefined ? '--keep-runs or --older-than' : '--keep-runs',
      'choose what to delete with exactly one of --keep-runs N (keep the N newest runs) and --older-than DURATION (e.g. 30d)',
    );
  }
  if (input.keepRuns !== undefined) {
    if (!/^\d{1,9}$/.test(input.keepRuns.trim())) {
      throw new UsageError(
        '--keep-runs',
        `must be a whole number of runs to keep (0 or more), not "${input.keepRuns}"`,
      );
    }
    const keepRuns = Number(input.keepRuns);
    return { selection: { keepRuns }, described: `keep the ${keepRuns} newest run${keepRuns === 1 ? '' : 's'}` };
  }
  const olderThan = olderThanInstant('--older-than', input.olderThan!, now);
  return { selection: { olderThan }, described: `runs started before ${olderThan}` };
}

/** Runs `m3 prune`; returns the exit status (0, or 2 for a usage or store problem). */
export async function runPruneCommand(input: PruneCommandInput, io: CliIO, now = new Date()): Promise<number> {
  const { selection, described } = pruneSelection(input, now);
  const path = resolveResultsDb(input.resultsDb, io.cwd);
  const store = await openPrunableStore(path);
  const redactor = cliRedactor(io.env);
  try {
    const report = await store.pruneRuns(selection, {
      dryRun: input.dryRun === true,
      includeRunning: input.includeRunning === true,
    });
    const shown = displayPath(io.cwd, path);
    if (input.json === true) {
      io.stdout(`${JSON.stringify(redactor.redactJson({ resultsDb: shown, selection, ...report }), null, 2)}\n`);
    } else {
      io.stdout(redactor.redactText(formatPruneReport(report, shown, described)));
    }
    return 0;
  } finally {
    await store.close();
  }
}
