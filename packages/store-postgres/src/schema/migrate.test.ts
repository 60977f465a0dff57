import { StoreError, StoreSchemaError } from '@sf-m3/core';
import { Client, Pool } from 'pg';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
import { PostgresExecutionStore } from '../PostgresExecutionStore';
import { migrate } from './migrate';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

const cluster = clusterForTests();

async function sql(url: string, text: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL schema versions and forward migrations', () => {
  it('creates the newest schema in an empty database, once, however many processes open it at once', async () => {
    const url = await cluster().createSchema();
    const stores = [1, 2, 3, 4].map(() => new PostgresExecutionStore(url));
    await Promise.all(stores.map((store) => store.open()));
    await Promise.all(stores.map((store) => store.close()));
    expect(await sql(url, 'SELECT application, version FROM sf_m3_schema')).toEqual([
      { application: 'sf-m3', version: SCHEMA_VERSION },
    ]);
  });

  it('applies only the migrations a database lacks, keeping its rows', async () => {
    const url = await cluster().createSchema();
    const store = new PostgresExecutionStore(url);
    await store.registerSuite('kept');
    await store.close();
    const next = [...MIGRATIONS, 'ALTER TABLE suites ADD COLUMN note TEXT'];
    const pool = new Pool({ connectionString: url });
    const client = await pool.connect();
    try {
      expect(await migrate(client, 'db', next)).toBe(next.length);
      expect(await migrate(client, 'db', next)).toBe(next.length); // nothing left to apply
    } finally {
      client.release();
      await pool.end();
    }
    expect(await sql(url, 'SELECT name, note FROM suites')).toEqual([{ name: 'kept', note: null }]);
    expect(await sql(url, 'SELECT version FROM sf_m3_schema')).toEqual([{ version: next.length }]);
    // This code is now older than the database: refused, naming both versions, nothing changed.
    const older = new PostgresExecutionStore(url);
    const opening = older.open();
    await expect(opening).rejects.toThrow(StoreSchemaError);
    await expect(older.open()).rejects.toThrow(
      `has schema version ${next.length}, newer than this @sf-m3/store-postgres (version ${SCHEMA_VERSION})`,
    );
    await older.close();
  });

  it("refuses a database holding another program's tables and leaves it as it was", async () => {
    const url = await cluster().createSchema();
    await sql(url, 'CREATE TABLE runs (id INTEGER PRIMARY KEY)');
    const store = new PostgresExecutionStore(url);
    await expect(store.listRuns()).rejects.toThrow(StoreError);
    await expect(store.listRuns()).rejects.toThrow(/is not an sf-m3 results database \(it has table runs/);
    await store.close();
    expect(await sql(url, "SELECT to_regclass('sf_m3_schema') IS NULL AS absent")).toEqual([{ absent: true }]);
  });

  it('opens read-only without creating anything, and refuses writes', async () => {
    const url = await cluster().createSchema();
    const reader = new PostgresExecutionStore(url, { readOnly: true });
    await expect(reader.listRuns()).rejects.toThrow(
      /no sf-m3 results in the PostgreSQL database .*run `m3 test` first/,
    );
    await reader.close();
    expect(await sql(url, "SELECT to_regclass('sf_m3_schema') IS NULL AS absent")).toEqual([{ absent: true }]);
    const writer = new PostgresExecutionStore(url);
    await writer.registerSuite('s');
    await writer.close();
    const again = new PostgresExecutionStore(url, { readOnly: true });
    expect((await again.listSuites()).map((s) => s.name)).toEqual(['s']);
    await expect(again.registerSuite('t')).rejects.toThrow(/opened read-only/);
    await again.close();
  });
});
