import { existsSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StoreError, StoreSchemaError } from '@sf-m3/core/store';
import type { AttemptCounts, RunRecord } from '@sf-m3/core';
import { identifyDatabase } from '../databaseIdentity';
import { isBusyError } from '../immediateTransaction';
import { BUSY_TIMEOUT_MS, openDatabase } from '../openDatabase';
import { recomputeLineages } from '../prune/recomputeLineages';
import {
  makePrivateReadCopy,
  needsPrivateReadCopy,
  privateReadCopyNotice,
  type PrivateReadCopy,
} from '../privateReadCopy';
import { isWritable } from '../readOnlyConnection';
import { SCHEMA_VERSION } from '../schema';
import { SqliteConnection } from '../SqliteConnection';
import { resolveStorePath } from '../storePath';
import { combineRunRecords } from './combineRunRecords';
import { copyShard, DERIVED_TABLES, MERGED_TABLES, type MergedCounts } from './copyShard';

/** SQLite attaches at most this many databases to one connection, so one merge takes this many files. */
export const MAX_MERGE_INPUTS = 10;

/** What `mergeResultsDatabases` did. */
export interface MergeReport {
  /** OUT, absolute. */
  readonly out: string;
  /** The inputs, absolute, in the order merged. */
  readonly inputs: string[];
  /** Rows added to OUT, by table (0 everywhere when every input was merged before). */
  readonly added: MergedCounts;
  /** The runs the inputs hold, newest first. */
  readonly runIds: string[];
}

/**
 * The `file:` URI an input is attached by: read-only, and immutable where nobody can write (a
 * read-only file or folder with no `-wal`), as `m3 runs` reads (see readOnlyConnection.ts), so a
 * shard file in a read-only location merges and nothing is created beside it.
 */
function readOnlyUri(path: string): string {
  const locked = !isWritable(path) || !isWritable(dirname(path));
  const immutable = locked && !existsSync(`${path}-wal`);
  return `${pathToFileURL(path).href}?mode=ro${immutable ? '&immutable=1' : ''}`;
}

/** Refuses an input that is not an sf-m3 results database of this schema version, before OUT is touched. */
async function checkInput(path: string, readFrom: string): Promise<void> {
  const identity = await identifyDatabase(path, readFrom);
  if (identity.kind === 'new') {
    throw new StoreError(`${path} is empty, not an sf-m3 results database: leave it out of the merge`, { path });
  }
  if (identity.userVersion !== SCHEMA_VERSION) {
    throw new StoreSchemaError(
      `${path} has schema version ${identity.userVersion}, and this sf-m3 merges version ${SCHEMA_VERSION}: ` +
        'merge files written by the same sf-m3 version (run the shards again with this version, or merge with the version that wrote them)',
      { path, databaseVersion: identity.userVersion, supportedVersion: SCHEMA_VERSION },
    );
  }
}

/** Refuses a table merge does not know: copying it blindly could duplicate or corrupt what it holds. */
async function checkTables(db: SqliteConnection, schema: string, path: string): Promise<void> {
  const known = new Set<string>([...MERGED_TABLES, ...DERIVED_TABLES]);
  const tables = await db.all<{ name: string }>(`SELECT name FROM ${schema}.sqlite_schema WHERE type = 'table'`);
  const unknown = tables.map((t) => t.name).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new StoreError(
      `${path} has tables this merge does not know (${unknown.join(', ')}): upgrade sf-m3 so merge knows them`,
      { path, tables: unknown },
    );
  }
}

async function readRuns(db: SqliteConnection, schema: string): Promise<RunRecord[]> {
  const rows = await db.all<{ record_json: string }>(
    `SELECT record_json FROM ${schema}.runs ORDER BY started_at DESC, run_id DESC`,
  );
  return rows.map((row) => JSON.parse(row.record_json) as RunRecord);
}

/** Writes each input run into OUT, combined with OUT's copy of the same run, counts recounted. */
async function mergeRuns(db: SqliteConnection, runs: readonly RunRecord[]): Promise<number> {
  let added = 0;
  for (const run of runs) {
    const row = await db.get<{ record_json: string }>('SELECT record_json FROM main.runs WHERE run_id = ?', [
      run.runId,
    ]);
    const counts: Record<keyof AttemptCounts, number> = { passed: 0, failed: 0, skipped: 0, todo: 0 };
    const outcomes = await db.all<{ outcome: keyof AttemptCounts; n: number }>(
      'SELECT outcome, COUNT(*) AS n FROM main.attempts WHERE run_id = ? AND outcome IS NOT NULL GROUP BY outcome',
      [run.runId],
    );
    // As the run record counts them when a run finishes: every finished attempt, retries included.
    for (const { outcome, n } of outcomes) if (outcome in counts) counts[outcome] = Number(n);
    const existing = row === undefined ? run : (JSON.parse(row.record_json) as RunRecord);
    const merged = combineRunRecords(existing, run, counts);
    if (row === undefined) added += 1;
    await db.run(
      'INSERT INTO main.runs (run_id, started_at, record_json) VALUES (?, ?, ?) ' +
        'ON CONFLICT (run_id) DO UPDATE SET started_at = excluded.started_at, record_json = excluded.record_json',
      [merged.runId, merged.startedAt, JSON.stringify(merged)],
    );
  }
  return added;
}

/**
 * `m3 merge OUT IN...`: copies every row of the input results databases (shard files) into OUT,
 * creating OUT when it does not exist. Every input is checked first (an sf-m3 database of this
 * schema version), then everything is copied in one transaction: a failure leaves OUT as it was.
 * Rows are keyed so nothing duplicates, so merging a file twice adds nothing, and the shards of
 * one run (`m3 test --run-id ID -- --shard=i/N`) become one run. Inputs are only read.
 */
export async function mergeResultsDatabases(
  outPath: string,
  inputPaths: readonly string[],
  options: { busyTimeoutMs?: number; onNotice?: (line: string) => void } = {},
): Promise<MergeReport> {
  const out = resolveStorePath(outPath);
  const inputs = [...new Set(inputPaths.map((p) => resolveStorePath(p)))];
  if (inputs.length === 0) throw new StoreError('merge needs at least one input file', {});
  if (inputs.length > MAX_MERGE_INPUTS) {
    throw new StoreError(
      `merge takes at most ${MAX_MERGE_INPUTS} input files at once (SQLite's attach limit), got ${inputs.length}: ` +
        'merge the rest into the same OUT with another call (merging is idempotent)',
      { count: inputs.length },
    );
  }
  for (const input of inputs) {
    if (!existsSync(input)) {
      throw new StoreError(`no results database at ${input}: check the path of each shard file to merge`, {
        path: input,
      });
    }
    if (existsSync(out) && realpathSync(input) === realpathSync(out)) {
      throw new StoreError(`${input} is OUT itself: name OUT once, then the files to merge into it`, { path: input });
    }
  }
  // An input SQLite cannot read in place (a copied artifact: -wal, no -shm, read-only folder) is
  // read through a private copy (see privateReadCopy.ts), removed when the merge ends.
  const copies = new Map<string, PrivateReadCopy>();
  try {
    for (const input of inputs) {
      if (!needsPrivateReadCopy(input)) continue;
      copies.set(input, makePrivateReadCopy(input));
      options.onNotice?.(privateReadCopyNotice(input));
    }
    const sourceOf = (input: string): string => copies.get(input)?.path ?? input;
    for (const input of inputs) await checkInput(input, sourceOf(input));
    return await mergeInto(out, inputs, sourceOf, options.busyTimeoutMs);
  } finally {
    for (const copy of copies.values()) copy.remove();
  }
}

/** Copies every input (read from `sourceOf(input)`) into OUT in one transaction; see mergeResultsDatabases. */
async function mergeInto(
  out: string,
  inputs: readonly string[],
  sourceOf: (input: string) => string,
  busyTimeoutMs: number | undefined,
): Promise<MergeReport> {
  const options = { busyTimeoutMs };
  // Creates OUT (or migrates it, or refuses a foreign or newer file) the way every writer does.
  const opened = await openDatabase(out, { busyTimeoutMs: options.busyTimeoutMs });
  await opened.writer?.close();
  await opened.reader.close();

  const db = await SqliteConnection.open(out, { uri: true });
  const added = Object.fromEntries(MERGED_TABLES.map((t) => [t, 0])) as MergedCounts;
  const runs = new Map<string, RunRecord>();
  let began = false;
  try {
    await db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}; PRAGMA foreign_keys = ON`);
    await checkTables(db, 'main', out);
    await db.exec('BEGIN IMMEDIATE');
    began = true;
    await db.exec('CREATE TEMP TABLE merge_lineages (lineage_id INTEGER PRIMARY KEY)');
    for (const [i, input] of inputs.entries()) {
      const schema = `shard${i}`;
      await db.run(`ATTACH DATABASE ? AS ${schema}`, [readOnlyUri(sourceOf(input))]);
      await checkTables(db, schema, input);
      const copied = await copyShard(db, schema);
      for (const table of MERGED_TABLES) added[table] += copied[table];
      // Runs are combined in order, so a run split over several inputs folds in one at a time.
      const shardRuns = await readRuns(db, schema);
      added.runs += await mergeRuns(db, shardRuns);
      for (const run of shardRuns) runs.set(run.runId, run);
    }
    await recomputeLineages(db, 'temp.merge_lineages');
    await db.exec('DROP TABLE temp.merge_lineages');
    await db.exec('COMMIT');
    began = false;
    const all = await readRuns(db, 'main');
    return { out, inputs: [...inputs], added, runIds: all.filter((r) => runs.has(r.runId)).map((r) => r.runId) };
  } catch (error) {
    if (began) await db.exec('ROLLBACK').catch(() => undefined);
    if (isBusyError(error)) {
      throw new StoreError(
        `${out} stayed locked by another writer (an m3 test still running?): merge when it has finished`,
        { path: out },
        { cause: error },
      );
    }
    throw error;
  } finally {
    await db.close().catch(() => undefined);
  }
}
