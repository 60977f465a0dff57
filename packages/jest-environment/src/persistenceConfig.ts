import * as path from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { isPostgresUrl, openPostgresStore, ModelValidationError } from '@sf-m3/core/internal';

/** Environment variable the `m3` CLI sets to the results database path; it turns persistence on. */
export const RESULTS_DB_ENV = 'M3_RESULTS_DB';

/** Where (and whether) results are saved for one Jest project. */
export interface PersistenceConfig {
  /** Absolute path of the SQLite database, or `null` when persistence is off. */
  readonly resultsDb: string | null;
}

/** The inputs persistence is decided from. */
export interface PersistenceSources {
  readonly env: NodeJS.ProcessEnv;
  /** `projectConfig.testEnvironmentOptions`. */
  readonly testEnvironmentOptions: Record<string, unknown> | undefined;
  /** `projectConfig.rootDir`: relative `testEnvironmentOptions.m3.resultsDb` paths start here. */
  readonly rootDir: string;
  /** Relative `M3_RESULTS_DB` paths start here (the CLI passes absolute paths). */
  readonly cwd: string;
}

/**
 * contract §11: persistence is on when `M3_RESULTS_DB` is set or `testEnvironmentOptions.m3.resultsDb`
 * is given. `M3_RESULTS_DB` wins: the `m3` CLI sets it to the database it reads its summary from.
 */
export function resolvePersistence(sources: PersistenceSources): PersistenceConfig {
  const fromEnv = sources.env[RESULTS_DB_ENV];
  if (fromEnv !== undefined && fromEnv.trim().length > 0) {
    return { resultsDb: isPostgresUrl(fromEnv) ? fromEnv.trim() : path.resolve(sources.cwd, fromEnv.trim()) };
  }
  const fromOptions = readResultsDbOption(sources.testEnvironmentOptions);
  if (fromOptions !== null && isPostgresUrl(fromOptions)) return { resultsDb: fromOptions };
  return { resultsDb: fromOptions === null ? null : path.resolve(sources.rootDir, fromOptions) };
}

function readResultsDbOption(options: Record<string, unknown> | undefined): string | null {
  const m3 = options?.m3;
  if (m3 === undefined || m3 === null) return null;
  if (typeof m3 !== 'object' || Array.isArray(m3)) {
    throw new ModelValidationError(
      'testEnvironmentOptions.m3 must be an object such as { resultsDb: ".m3/executions.sqlite" }',
    );
  }
  const resultsDb = (m3 as { resultsDb?: unknown }).resultsDb;
  if (resultsDb === undefined || resultsDb === null) return null;
  if (typeof resultsDb !== 'string' || resultsDb.trim().length === 0) {
    throw new ModelValidationError(
      'testEnvironmentOptions.m3.resultsDb must be a non-empty path to a SQLite file, e.g. ".m3/executions.sqlite"',
    );
  }
  return resultsDb.trim();
}

/**
 * The store at a resolved results location: PostgreSQL for a `postgres://` URL (the optional
 * @sf-m3/store-postgres package, resolved from the project too), else the SQLite file.
 */
export function openPersistedStore(location: string, projectRoot: string = process.cwd()): ExecutionStore {
  if (isPostgresUrl(location)) return openPostgresStore(location, {}, [projectRoot]);
  return new (loadSqliteStore())(location);
}

/** The SQLite store class, loaded only when results are saved (it pulls in the sqlite3 driver). */
export function loadSqliteStore(): typeof import('@sf-m3/store-sqlite').SQLiteExecutionStore {
  return (require('@sf-m3/store-sqlite') as typeof import('@sf-m3/store-sqlite')).SQLiteExecutionStore;
}
