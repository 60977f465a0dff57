import { StoreError } from '../errors/M3Error';
import { Redactor } from '../redaction/Redactor';
import type { ExecutionStore } from './ExecutionStore';

/**
 * Where results are saved: a SQLite file path, or a PostgreSQL URL (`postgres://…` or
 * `postgresql://…`) that selects `@sf-m3/store-postgres` — in `--results-db`, `M3_RESULTS_DB` and
 * `testEnvironmentOptions.m3.resultsDb` alike. The URL's password is a secret: every display of a
 * location goes through `showResultsLocation`.
 */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}

/** The secrets in a location (a URL's password, raw and decoded), for redaction canaries. */
export function resultsLocationSecrets(location: string): string[] {
  if (!isPostgresUrl(location)) return [];
  try {
    const password = new URL(location.trim()).password;
    return [...new Set([password, decodeURIComponent(password)])].filter((s) => s.length > 0);
  } catch {
    return [];
  }
}

/** A location safe to print: a URL's credentials become `[REDACTED]` (paths are unchanged). */
export function showResultsLocation(location: string): string {
  return isPostgresUrl(location)
    ? new Redactor(resultsLocationSecrets(location)).redactText(location.trim())
    : location;
}

/** The package to install for PostgreSQL results. */
export const POSTGRES_STORE_PACKAGE = '@sf-m3/store-postgres';

interface PostgresStoreModule {
  PostgresExecutionStore: new (
    url: string,
    options?: { readOnly?: boolean },
  ) => ExecutionStore & {
    open(): Promise<void>;
  };
}

/**
 * Opens the PostgreSQL store at `url`, loading `@sf-m3/store-postgres` only now (it is an optional
 * install, like the `pg` driver it brings). Missing, it is a `StoreError` naming the package and
 * the install command. `from` are extra folders to resolve it from (the project's root).
 */
export function openPostgresStore(
  url: string,
  options: { readOnly?: boolean } = {},
  from: readonly string[] = [],
): ExecutionStore & { open(): Promise<void> } {
  let loaded: PostgresStoreModule;
  try {
    const resolved = require.resolve(POSTGRES_STORE_PACKAGE, { paths: [...from, __dirname] });
    loaded = require(resolved) as PostgresStoreModule;
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new StoreError(
      `the results database ${showResultsLocation(url)} is PostgreSQL, which needs the ${POSTGRES_STORE_PACKAGE} package: ` +
        `install it (npm install --save-dev ${POSTGRES_STORE_PACKAGE}) or pass a SQLite path to --results-db`,
      { package: POSTGRES_STORE_PACKAGE },
    );
  }
  return new loaded.PostgresExecutionStore(url.trim(), options);
}
