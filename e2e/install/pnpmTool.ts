// pnpm for the pnpm install test: installed from the npm registry into a cache outside the
// repository (~/.cache/sf-m3/pnpm-<version>, or M3_PNPM_CACHE), once per machine.
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { output, run } from './userProject';

/** The pnpm the test installs: the registry's newest when this test was written. */
export const PNPM_VERSION = '12.24.0';

/** The pnpm executable in the cache, installing it first when it is not there. */
export async function pnpmExecutable(repoRoot: string): Promise<string> {
  const cache = resolve(process.env.M3_PNPM_CACHE ?? join(homedir(), '.cache', 'sf-m3', `pnpm-${PNPM_VERSION}`));
  if (cache === repoRoot || cache.startsWith(`${repoRoot}/`)) {
    throw new Error(`the pnpm cache ${cache} is inside the repository; set M3_PNPM_CACHE elsewhere`);
  }
  const bin = join(cache, 'node_modules', '.bin', 'pnpm');
  if (existsSync(bin)) return bin;
  mkdirSync(cache, { recursive: true });
  const install = await run(
    cache,
    'npm',
    ['install', '--prefix', cache, `pnpm@${PNPM_VERSION}`, '--no-audit', '--no-fund', '--no-save'],
    5 * 60_000,
  );
  if (install.status !== 0 || !existsSync(bin)) throw new Error(`installing pnpm failed:\n${output(install)}`);
  return bin;
}
