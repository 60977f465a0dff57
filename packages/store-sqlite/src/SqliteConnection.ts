import { pathToFileURL } from 'node:url';
import type * as sqlite3 from 'sqlite3';

/** Values a statement can bind. */
export type SqlValue = string | number | bigint | Buffer | null;
/** Positional parameters of a statement. */
export type SqlParams = readonly SqlValue[];

/** The `code` node-sqlite3 puts on its errors (`SQLITE_BUSY`, `SQLITE_NOTADB`, ...). */
export function sqliteErrorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/**
 * A small promise wrapper over one `sqlite3.Database` connection. Statements are prepared once
 * per SQL text and reused (`run`, `get`, `all`); `exec` runs unprepared scripts (DDL, PRAGMA,
 * BEGIN/COMMIT). The connection executes one statement at a time; callers serialize transactions.
 */
export class SqliteConnection {
  /** Prepared statements by SQL text; the promise is cached so concurrent first uses share one. */
  private readonly statements = new Map<string, Promise<sqlite3.Statement>>();
  /** The same statements once prepared, for the synchronous fast path of `run`. */
  private readonly ready = new Map<string, sqlite3.Statement>();
  private closed = false;

  private constructor(private readonly db: sqlite3.Database) {}

  /**
   * Opens (and creates, unless `readOnly`) the database file. `immutable` (read-only only) tells
   * SQLite the file cannot change: no locks, no `-wal`/`-shm` created, so it works in a read-only
   * folder and leaves a file it must not touch exactly as it was.
   */
  static open(
    path: string,
    // `uri` (retention: m3 merge) lets ATTACH name a database by `file:` URI, e.g. `?mode=ro`.
    options: { readOnly?: boolean; immutable?: boolean; uri?: boolean } = {},
  ): Promise<SqliteConnection> {
    // The native module loads with the first database opened, not when sf-m3 is imported.
    const sqlite3 = require('sqlite3') as typeof import('sqlite3');
    const readOnly = options.readOnly === true || options.immutable === true;
    const mode = readOnly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
    const name = options.immutable === true ? `${pathToFileURL(path).href}?immutable=1` : path;
    return new Promise((resolve, reject) => {
      const uri = options.immutable === true || options.uri === true;
      const db = new sqlite3.Database(name, uri ? mode | sqlite3.OPEN_URI : mode, (error) => {
        if (error) reject(error);
        else resolve(new SqliteConnection(db));
      });
    });
  }

  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (error) => (error ? reject(error) : resolve())));
  }

  private prepared(sql: string): Promise<sqlite3.Statement> {
    const cached = this.statements.get(sql);
    if (cached !== undefined) return cached;
    const preparing = new Promise<sqlite3.Statement>((resolve, reject) => {
      const statement = this.db.prepare(sql, (error) => {
        if (error) {
          reject(error);
          return;
        }
        this.ready.set(sql, statement);
        resolve(statement);
      });
    });
    this.statements.set(sql, preparing);
    // A statement that failed to prepare is not kept: the next use reports the error again.
    preparing.catch(() => this.statements.delete(sql));
    return preparing;
  }

  /** Runs a prepared statement; resolves with the number of changed rows and the last rowid. */
  run(sql: string, params: SqlParams = []): Promise<{ changes: number; lastID: number }> {
    const execute = (statement: sqlite3.Statement): Promise<{ changes: number; lastID: number }> =>
      new Promise((resolve, reject) => {
        statement.run(params, function (this: sqlite3.RunResult, error: Error | null) {
          if (error) reject(error);
          else resolve({ changes: this.changes, lastID: this.lastID });
        });
      });
    // Hot path (an evaluation insert per row): no extra await once the statement is prepared.
    const ready = this.ready.get(sql);
    return ready !== undefined ? execute(ready) : this.prepared(sql).then(execute);
  }

  /**
   * The first row of a prepared query, or `undefined`. Reads every row so the statement is left
   * reset: a half-stepped statement would keep `COMMIT` from completing.
   */
  async get<T>(sql: string, params: SqlParams = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, params);
    return rows[0];
  }

  /** Every row of a prepared query. */
  async all<T>(sql: string, params: SqlParams = []): Promise<T[]> {
    const statement = await this.prepared(sql);
    return new Promise((resolve, reject) => {
      statement.all<T>(params, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows)));
    });
  }

  /** Finalizes every cached statement and closes the connection; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const statements = await Promise.allSettled([...this.statements.values()]);
    this.statements.clear();
    this.ready.clear();
    await Promise.all(
      statements.map((s) =>
        s.status === 'fulfilled' ? new Promise<void>((resolve) => s.value.finalize(() => resolve())) : undefined,
      ),
    );
    await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}
