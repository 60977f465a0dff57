// Where the kit's temporary folders (capture files, proxy configs, agent homes) are made. A run
// can name a parent it removes however it ends (the Jest environment does, per worker), so a
// folder whose owner was killed before cleaning up does not outlive the run.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Environment variable naming the folder the kit's temporary folders go under (default: the OS temp folder). */
export const TEMP_DIR_ENV = 'M3_TEMP_DIR';

/** The parent of the kit's temporary folders: `M3_TEMP_DIR` when it is an absolute path, else `os.tmpdir()`. */
export function tempParent(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[TEMP_DIR_ENV];
  return named !== undefined && named !== '' && isAbsolute(named) ? named : tmpdir();
}

/**
 * Makes a fresh private folder `<parent>/<prefix>XXXXXX` (mode 0700); the parent named by
 * `M3_TEMP_DIR` is created (0700) when missing. The caller removes the folder.
 */
export async function makePrivateTempDir(prefix: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const parent = tempParent(env);
  if (parent !== tmpdir()) await mkdir(parent, { recursive: true, mode: 0o700 });
  return mkdtemp(join(parent, prefix));
}
