import { StoreError, StoreSchemaError } from '@sf-m3/core/store';
import type { PoolClient } from 'pg';
import { MIGRATIONS } from './migrations';

/** `sf_m3_schema.application`: marks a database as sf-m3's. */
export const APPLICATION = 'sf-m3';

/** Advisory lock key taken while migrating ("sfm3" in ASCII), so concurrent openers migrate once. */
const MIGRATION_LOCK = 0x73666d33;

/** Tables that, without `sf_m3_schema`, mean the database belongs to some other program. */
const OURS = ['runs', 'executions', 'evaluations', 'suites', 'attempts'];

/**
 * Brings the database to the newest schema in one transaction: creates it in an empty database,
 * applies the migrations it lacks, refuses a newer schema (`StoreSchemaError` naming both
 * versions) and a database whose tables are some other program's (`StoreError`). Returns the
 * schema version. `where` names the database (redacted) in messages.
 */
export async function migrate(
  client: PoolClient,
  where: string,
  migrations: readonly string[] = MIGRATIONS,
): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const current = await currentVersion(client, where);
    if (current > migrations.length) {
      throw new StoreSchemaError(
        `the results database ${where} has schema version ${current}, newer than this @sf-m3/store-postgres ` +
          `(version ${migrations.length}): upgrade sf-m3 to read it`,
        { databaseVersion: current, supportedVersion: migrations.length },
      );
    }
    if (current === 0) {
      await client.query(
        `CREATE TABLE sf_m3_schema (singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
           application TEXT NOT NULL, version INTEGER NOT NULL)`,
      );
      await client.query('INSERT INTO sf_m3_schema (application, version) VALUES ($1, 0)', [APPLICATION]);
    }
    for (let version = current; version < migrations.length; version += 1) {
      await client.query(migrations[version]!);
    }
    if (current < migrations.length) {
      await client.query('UPDATE sf_m3_schema SET version = $1', [migrations.length]);
    }
    await client.query('COMMIT');
    return migrations.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function currentVersion(client: PoolClient, where: string): Promise<number> {
  const tables = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = ANY($1)`,
    [['sf_m3_schema', ...OURS]],
  );
  const names = new Set(tables.rows.map((row) => row.name));
  if (!names.has('sf_m3_schema')) {
    const foreign = OURS.filter((name) => names.has(name));
    if (foreign.length > 0) {
      throw new StoreError(
        `the database ${where} is not an sf-m3 results database (it has table ${foreign[0]} but no sf_m3_schema): ` +
          'point --results-db at an empty database or one sf-m3 created',
        { tables: foreign },
      );
    }
    return 0;
  }
  const row = await client.query<{ application: string; version: number }>(
    'SELECT application, version FROM sf_m3_schema',
  );
  const first = row.rows[0];
  if (first === undefined || first.application !== APPLICATION) {
    throw new StoreError(`the database ${where} has an sf_m3_schema table that sf-m3 did not write`, {});
  }
  return first.version;
}
