// The version `m3 --version` prints: the sf-m3 release, read from the @sf-m3/cli package.json
// beside the compiled CLI (sf-m3 pins @sf-m3/cli at its own exact version, so the two agree).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version field of the @sf-m3/cli package.json one folder above `folder` (dist/ or src/). */
export function cliVersion(folder: string = __dirname): string {
  const manifest = JSON.parse(readFileSync(join(folder, '..', 'package.json'), 'utf8')) as {
    name?: unknown;
    version?: unknown;
  };
  if (manifest.name !== '@sf-m3/cli' || typeof manifest.version !== 'string') {
    throw new Error(`${join(folder, '..', 'package.json')} is not @sf-m3/cli's package.json: reinstall sf-m3`);
  }
  return manifest.version;
}
