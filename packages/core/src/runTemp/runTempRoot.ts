import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** The run-state folder the preset's global setup exports to every worker (`@sf-m3/jest-environment`). */
const RUN_STATE_DIR_ENV = 'M3_RUN_STATE_DIR';

/**
 * Where a temporary file of the run goes (capture files, proxy configs, agent homes): inside the
 * run's state folder when one exists — it is removed when the run ends however it ends, a worker
 * killed before its own clean-up included (SPEC §22) — else the OS temp directory.
 */
export function runTempRoot(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[RUN_STATE_DIR_ENV];
  if (dir !== undefined && dir.length > 0) {
    try {
      if (statSync(dir).isDirectory()) return dir;
    } catch {
      // a stale value (the run ended): fall back to the temp directory
    }
  }
  return tmpdir();
}
