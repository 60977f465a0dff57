import { StoreError } from '@sf-m3/core';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
import { PostgresExecutionStore } from '../PostgresExecutionStore';
import { describeDatabase } from './describeDatabase';

const cluster = clusterForTests();

/** The message of the error `store` fails its first use with, checked to hold no credential. */
async function failure(store: PostgresExecutionStore, secret: string): Promise<string> {
  const error = (await store.listRuns().then(
    () => null,
    (e: unknown) => e,
  )) as StoreError | null;
  await store.close();
  expect(error).toBeInstanceOf(StoreError);
  const text = `${error!.message}\n${JSON.stringify(error)}\n${error!.stack ?? ''}`;
  expect(text).not.toContain(secret);
  return error!.message;
}

describe('PostgreSQL connection errors name the problem and the fix, never the password', () => {
  jest.setTimeout(60_000);

  it('a wrong password', async () => {
    const url = cluster()
      .url()
      .replace(/:([^:@/]+)@/, ':wrong-password-canary@');
    const message = await failure(new PostgresExecutionStore(url), 'wrong-password-canary');
    expect(message).toMatch(
      /the server refused the login: fix the user and password \(in --results-db or M3_RESULTS_DB\)/,
    );
    expect(message).toContain(`postgres://[REDACTED]@127.0.0.1:${cluster().port}/postgres`);
  });

  it('a database that does not exist', async () => {
    const url = cluster().url('no_such_db');
    const secret = new URL(url).password;
    expect(await failure(new PostgresExecutionStore(url), secret)).toMatch(/the database does not exist: create it/);
  });

  it('a port nobody listens on', async () => {
    const url = `postgres://m3:port-canary-secret@127.0.0.1:1/m3`;
    expect(await failure(new PostgresExecutionStore(url), 'port-canary-secret')).toMatch(
      /could not use the PostgreSQL results database postgres:\/\/\[REDACTED\]@127\.0\.0\.1:1\/m3: the connection was refused: start PostgreSQL/,
    );
  });

  it('describes pool configurations and URLs without credentials', () => {
    expect(describeDatabase('postgresql://ci:p%40ss@db.internal:5433/m3?sslmode=require')).toBe(
      'postgresql://[REDACTED]@db.internal:5433/m3?sslmode=require',
    );
    expect(describeDatabase({ host: 'db', port: 5432, database: 'm3', user: 'ci', password: 'pw-secret' })).toBe(
      'postgres://db:5432/m3',
    );
    expect(new PostgresExecutionStore('postgres://u:canary-pw@h/d').location).not.toContain('canary-pw');
  });
});
