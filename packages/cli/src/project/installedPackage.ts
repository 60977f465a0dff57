// Reads what is installed in a project the way Node resolves it: `node_modules/<name>` in the
// folder and each parent, so a hoisted or linked package is found where `require` would find it.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** An installed package: its folder (symlinks resolved) and its package.json. */
export interface InstalledPackage {
  readonly name: string;
  readonly dir: string;
  readonly version: string;
  readonly json: Readonly<Record<string, unknown>>;
}

/** The package `name` as `require` from `fromDir` would find it, or null when it is not installed. */
export function findInstalledPackage(name: string, fromDir: string): InstalledPackage | null {
  let dir = fromDir;
  for (;;) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
      return { name, dir: realpathSync(dirname(manifest)), version: String(json.version ?? ''), json };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** A string-to-string field of a package.json (`engines`, `peerDependencies`), or `{}`. */
export function stringMap(json: Readonly<Record<string, unknown>>, field: string): Record<string, string> {
  const value = json[field];
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
