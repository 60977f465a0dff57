import { StoreError, StoreSchemaError } from '@sf-m3/core/store';
import { Pool, type PoolConfig } from 'pg';
import { migrate } from '../schema/migrate';
import { SCHEMA_VERSION } from '../schema/migrations';
import { connectionError } from './connectionError';
import type { PostgresLocation } from './describeDatabase';

/**
 * A connected pool on a database at this code's schema: migrated (writers) or checked (readers:
 * `readOnly` never creates or changes anything, and every transaction is READ ONLY). Connection and
 * permission failures become a `StoreError` naming the (redacted) database and the fix.
 */
export async function openPool(
  location: PostgresLocation,
  where: string,
  options: { maxConnections?: number; readOnly?: boolean },
): Promise<Pool> {
  const config: PoolConfig = typeof location === 'string' ? { connectionString: location } : { ...location };
  config.max ??= options.maxConnections ?? 4;
  config.connectionTimeoutMillis ??= 15_000;
  // A Jest worker keeps its store open across files; idle connections must not keep it alive.
  config.allowExitOnIdle ??= true;
  if (options.readOnly === true) config.options = `${config.options ?? ''} -c default_transaction_read_only=on`.trim();
  const pool = new Pool(config);
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      if (options.readOnly === true) await checkVersion(client, where);
      else await migrate(client, where);
    } finally {
      client.release();
    }
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof StoreError || error instanceof StoreSchemaError) throw error;
    throw connectionError(error, where) ?? redactedError(error, where);
  }
}

async function checkVersion(client: import('pg').PoolClient, where: string): Promise<void> {
  const found = await client.query<{ present: boolean }>("SELECT to_regclass('sf_m3_schema') IS NOT NULL AS present");
  if (!found.rows[0]!.present) {
    throw new StoreError(
      `no sf-m3 results in the PostgreSQL database ${where}: run \`m3 test\` first or pass --results-db`,
    );
  }
  const { rows } = await client.query<{ version: number }>('SELECT version FROM sf_m3_schema');
  const version = rows[0]?.version ?? 0;
  if (version > SCHEMA_VERSION) {
    throw new StoreSchemaError(
      `the results database ${where} has schema version ${version}, newer than this @sf-m3/store-postgres ` +
        `(version ${SCHEMA_VERSION}): upgrade sf-m3 to read it`,
      { databaseVersion: version, supportedVersion: SCHEMA_VERSION },
    );
  }
  if (version < SCHEMA_VERSION) {
    throw new StoreSchemaError(
      `the results database ${where} has schema version ${version}, older than this @sf-m3/store-postgres ` +
        `(version ${SCHEMA_VERSION}): run \`m3 test\` once to migrate it`,
      { databaseVersion: version, supportedVersion: SCHEMA_VERSION },
    );
  }
}

function redactedError(error: unknown, where: string): StoreError {
  const message = (error as Error).message ?? String(error);
  return new StoreError(`could not open the PostgreSQL results database ${where}: ${message}`, {
    code: (error as { code?: string }).code ?? null,
  });
}
