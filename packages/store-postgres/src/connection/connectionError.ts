import { StoreError } from '@sf-m3/core/store';

/** What went wrong talking to the server, and the fix, for the errors users meet first. */
function explain(code: string | undefined, message: string): string | null {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused: start PostgreSQL, or fix the host and port';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve: fix the host';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return 'the server did not answer: check the host, the port and the firewall';
    case '28P01':
    case '28000':
      return 'the server refused the login: fix the user and password';
    case '3D000':
      return 'the database does not exist: create it (createdb NAME) or fix the database name';
    case '42501':
      return 'the user may not create the tables: grant it CREATE on the database, or run once as its owner';
    case '53300':
      return 'the server has no free connection slots: raise max_connections or use fewer Jest workers';
  }
  if (/timeout/i.test(message)) return 'the connection timed out: check the host, the port and the firewall';
  return null;
}

/**
 * A `StoreError` naming the database (credentials redacted), the problem and the fix, for a
 * connection or schema-setup failure; `null` for an error that is not one (a query bug).
 */
export function connectionError(error: unknown, where: string): StoreError | null {
  const { code, message } = error as { code?: string; message?: string };
  const why = explain(code, message ?? '');
  if (why === null) return null;
  return new StoreError(
    `could not use the PostgreSQL results database ${where}: ${why} (in --results-db or M3_RESULTS_DB)`,
    { code: code ?? null },
  );
}
