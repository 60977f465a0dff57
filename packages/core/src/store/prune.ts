import { ModelValidationError } from '../errors/M3Error';
import type { RunRecord } from './records';
import { canonicalInstant } from './storeInputs';

/**
 * Which runs `pruneRuns` removes: all but the `keepRuns` newest (by start time, as `listRuns`
 * orders them), or every run that started before the instant `olderThan` (ISO-8601).
 */
export type PruneSelection = { readonly keepRuns: number } | { readonly olderThan: string };

/** Options of `pruneRuns`. */
export interface PruneOptions {
  /** Report what would be removed and change nothing. */
  readonly dryRun?: boolean;
  /** Also remove selected runs still `running` (by default they are kept and listed in `skippedRunIds`). */
  readonly includeRunning?: boolean;
}

/** What `pruneRuns` removed (or, with `dryRun`, would remove). */
export interface PruneReport {
  readonly dryRun: boolean;
  /** The runs removed, newest first. */
  readonly runIds: string[];
  /** Executions of those runs. */
  readonly executionCount: number;
  /** Evaluations of those runs: the latest row of each lineage, as `listEvaluations` counts them. */
  readonly evaluationCount: number;
  /** Selected runs that were kept because they are still running (pass `includeRunning`). */
  readonly skippedRunIds?: string[];
  /** Size of the store before and after, in bytes, for stores that live in a file. */
  readonly bytesBefore?: number;
  readonly bytesAfter?: number;
}

/** A checked selection: `olderThan` in canonical form, `keepRuns` a non-negative integer. */
export function validatePruneSelection(selection: PruneSelection): PruneSelection {
  const given = selection as Partial<{ keepRuns: unknown; olderThan: unknown }> | null;
  if (given === null || typeof given !== 'object') {
    throw new ModelValidationError('pruneRuns needs { keepRuns: N } or { olderThan: ISO instant }', {});
  }
  const hasKeep = given.keepRuns !== undefined;
  const hasOlder = given.olderThan !== undefined;
  if (hasKeep === hasOlder) {
    throw new ModelValidationError('pruneRuns needs exactly one of keepRuns and olderThan', {});
  }
  if (hasKeep) {
    const keepRuns = given.keepRuns;
    if (typeof keepRuns !== 'number' || !Number.isSafeInteger(keepRuns) || keepRuns < 0) {
      throw new ModelValidationError('keepRuns must be a whole number of runs, 0 or more', { field: 'keepRuns' });
    }
    return { keepRuns };
  }
  return { olderThan: canonicalInstant(given.olderThan as string, 'olderThan') };
}

/**
 * The runs a selection picks out of `runs` (newest first, as `listRuns` returns them), split into
 * those to remove and those kept because they are still running.
 */
export function selectPrunedRuns(
  runs: readonly RunRecord[],
  selection: PruneSelection,
  options: PruneOptions = {},
): { pruned: RunRecord[]; skipped: RunRecord[] } {
  const checked = validatePruneSelection(selection);
  const chosen =
    'keepRuns' in checked
      ? runs.slice(checked.keepRuns)
      : runs.filter((run) => canonicalInstant(run.startedAt, 'startedAt') < checked.olderThan);
  const skip = (run: RunRecord): boolean => run.status === 'running' && options.includeRunning !== true;
  return { pruned: chosen.filter((run) => !skip(run)), skipped: chosen.filter(skip) };
}
