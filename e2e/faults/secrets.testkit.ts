// Helpers of the secrets suite: distinct random canaries, and a byte search of files and outputs
// that says which canary turned up where.
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A distinct random secret per input path: a hit names the path it came in by. */
export function plantCanaries<K extends string>(paths: readonly K[]): Record<K, string> {
  return Object.fromEntries(paths.map((path) => [path, `cnry-${path}-${randomBytes(12).toString('hex')}`])) as Record<
    K,
    string
  >;
}

/** One place a canary was found. */
export interface CanaryHit {
  readonly where: string;
  readonly canary: string;
  readonly count: number;
}

/** Every file and folder under `root` (symlinks not followed; entries that vanish are skipped). */
function entriesUnder(root: string): Array<{ path: string; name: string; isDirectory: boolean }> {
  const entries: Array<{ path: string; name: string; isDirectory: boolean }> = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        const info = lstatSync(path);
        if (!info.isDirectory() && !info.isFile()) continue;
        entries.push({ path, name, isDirectory: info.isDirectory() });
        if (info.isDirectory()) walk(path);
      } catch {
        // Removed while we looked.
      }
    }
  };
  walk(root);
  return entries;
}

/** Every regular file under `root`. */
export function filesUnder(root: string): string[] {
  return entriesUnder(root)
    .filter((entry) => !entry.isDirectory)
    .map((entry) => entry.path);
}

/** Every folder under `root` whose name starts with one of `prefixes`, relative to root. */
export function dirsNamed(root: string, prefixes: readonly string[]): string[] {
  return entriesUnder(root)
    .filter((entry) => entry.isDirectory && prefixes.some((prefix) => entry.name.startsWith(prefix)))
    .map((entry) => relative(root, entry.path));
}

function countIn(bytes: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Searches each named text or file (read as bytes now) for every canary. */
export function searchCanaries(
  canaries: Readonly<Record<string, string>>,
  sources: ReadonlyArray<{ where: string; bytes?: Buffer | string; file?: string }>,
): CanaryHit[] {
  const hits: CanaryHit[] = [];
  for (const source of sources) {
    let bytes: Buffer;
    try {
      bytes = source.file !== undefined ? readFileSync(source.file) : Buffer.from(source.bytes ?? '');
    } catch {
      continue;
    }
    for (const [name, canary] of Object.entries(canaries)) {
      const count = countIn(bytes, Buffer.from(canary));
      if (count > 0) hits.push({ where: `${source.where} (${name})`, canary: name, count });
    }
  }
  return hits;
}
