import type { PruneOptions, PruneReport, PruneSelection } from '@sf-m3/core';
import { validatePruneSelection } from '@sf-m3/core/store';
import type { SqliteConnection } from '../SqliteConnection';
import { deleteRuns } from './deleteRuns';
import { databaseBytes, reclaimSpace } from './reclaimSpace';

/** Runs `work` with the writer inside the store's next write transaction. */
export type InWriteTransaction = <T>(work: (db: SqliteConnection) => Promise<T>) => Promise<T>;

/**
 * `SQLiteExecutionStore.pruneRuns`: selects and deletes in one write transaction (a failure
 * deletes nothing), then, when something went, reclaims the space with `VACUUM` on the file at
 * `path`. `bytesBefore`/`bytesAfter` are the database's size around the whole operation.
 */
export async function pruneRunsOf(
  path: string,
  busyTimeoutMs: number,
  selection: PruneSelection,
  options: PruneOptions,
  inWriteTransaction: InWriteTransaction,
): Promise<PruneReport> {
  const checked = validatePruneSelection(selection);
  const { report, bytesBefore } = await inWriteTransaction(async (db) => ({
    bytesBefore: await databaseBytes(db),
    report: await deleteRuns(db, checked, options),
  }));
  if (report.dryRun || report.runIds.length === 0) return { ...report, bytesBefore, bytesAfter: bytesBefore };
  return { ...report, bytesBefore, bytesAfter: await reclaimSpace(path, busyTimeoutMs) };
}
