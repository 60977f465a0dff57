import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The version of the Pi CLI whose entry script is `entry` (`process.argv[1]` in Pi, often the
 * `.bin/pi` symlink): the nearest `package.json` above it naming a `pi-coding-agent` package, or null.
 */
export function piVersionOf(entry: string | undefined): string | null {
  if (entry === undefined || entry === '') return null;
  let dir: string;
  try {
    dir = dirname(realpathSync(entry));
  } catch {
    return null;
  }
  for (let depth = 0; depth < 6; depth++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
        if (typeof pkg.name === 'string' && pkg.name.endsWith('/pi-coding-agent') && typeof pkg.version === 'string') {
          return pkg.version;
        }
      } catch {
        // An unreadable manifest is not Pi's; keep looking above it.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}
