import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The folder holding `initdb` and `pg_ctl`, or null when PostgreSQL's server tools are not installed. */
export function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = [];
  // An explicit folder wins, then PATH, then where Debian's `postgresql` package puts the tools
  // (/usr/lib/postgresql/<version>/bin is not on PATH), newest version first.
  if (env.M3_POSTGRES_BIN !== undefined && env.M3_POSTGRES_BIN !== '') candidates.push(env.M3_POSTGRES_BIN);
  candidates.push(...(env.PATH ?? '').split(delimiter).filter((dir) => dir !== ''));
  candidates.push('/usr/local/bin', '/usr/local/pgsql/bin');
  candidates.push(...debianVersions().map((version) => `/usr/lib/postgresql/${version}/bin`));
  for (const dir of candidates) {
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

function debianVersions(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** The message for a machine without the server tools, naming the fix. */
export const NO_POSTGRES_TOOLS =
  'PostgreSQL server tools (initdb, pg_ctl) were not found on PATH, in /usr/local/bin or in ' +
  '/usr/lib/postgresql/<version>/bin: install them (Debian: apt-get install postgresql) or set ' +
  'M3_POSTGRES_BIN to the folder that holds them';
