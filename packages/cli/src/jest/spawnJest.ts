// Runs the project's real Jest as a child process and waits for it.
import { spawn } from 'node:child_process';
import { UsageError } from '../options/UsageError';

/** How Jest ended. */
export interface JestExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Finds `jest/bin/jest` as the project would (from `cwd`), falling back to the CLI's own. */
export function resolveJestBin(cwd: string): string {
  for (const paths of [[cwd], [__dirname]]) {
    try {
      return require.resolve('jest/bin/jest', { paths });
    } catch {
      // try the next location
    }
  }
  throw new UsageError('m3 test', 'Jest is not installed in this project; run `npm install --save-dev jest`');
}

/**
 * Spawns `node <jest> [args]` in `cwd`. With `stdoutToStderr`, Jest's stdout goes to our stderr
 * (so `--json` output on stdout stays machine-readable). Ctrl-C reaches Jest through the
 * terminal's process group; SIGTERM sent to `m3` is forwarded.
 */
export function spawnJest(options: {
  cwd: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  stdoutToStderr: boolean;
}): Promise<JestExit> {
  const jestBin = resolveJestBin(options.cwd);
  const child = spawn(process.execPath, [jestBin, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['inherit', options.stdoutToStderr ? process.stderr : 'inherit', 'inherit'],
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onTerm = forward('SIGTERM');
  const onInt = (): void => {
    // The terminal already delivered SIGINT to Jest; staying alive lets us print the summary.
  };
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      resolve({ code, signal });
    });
  });
}
