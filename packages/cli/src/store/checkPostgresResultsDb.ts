// postgres lane: what `m3 doctor` can say about a PostgreSQL results database without connecting.
import { POSTGRES_STORE_PACKAGE } from '@sf-m3/core/internal';
import type { DoctorCheck } from '../commands/doctorChecks';
import { detectPackageManager } from '../project/packageManager';

/** Ok when @sf-m3/store-postgres resolves from the project; the connection itself is checked by `m3 test`. */
export function checkPostgresResultsDb(shown: string, source: string, cwd: string): DoctorCheck {
  try {
    require.resolve(POSTGRES_STORE_PACKAGE, { paths: [cwd, __dirname] });
  } catch {
    return {
      name: 'results db',
      status: 'fail',
      detail: `${shown} (${source}) is PostgreSQL, but ${POSTGRES_STORE_PACKAGE} is not installed`,
      fix: detectPackageManager(cwd).addDev(POSTGRES_STORE_PACKAGE),
    };
  }
  return {
    name: 'results db',
    status: 'ok',
    detail: `${shown} (${source}) is PostgreSQL through ${POSTGRES_STORE_PACKAGE} (m3 test checks the connection)`,
  };
}
