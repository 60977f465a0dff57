// Runs the project's real Jest as a child process and waits for it.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { UsageError } from '../options/UsageError';
import { detectPackageManager } from '../project/packageManager';

/** How Jest ended. */
export interface JestExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The signal that ended `m3` itself while Jest ran (forwarded to Jest), if any. */
  received?: NodeJS.Signals | null;
}

/** Signals `m3 test` forwards to Jest and answers with 128 + their number. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The shell convention for a process ended by `signal`: 128 + its number (130 for SIGINT). */
export function signalExitStatus(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
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
  throw new UsageError(
    'm3 test',
    `Jest is not installed in this project; run \`${detectPackageManager(cwd).addDev('jest')}\``,
  );
}

/** Watch mode reads the terminal, which only the foreground process group may do. */
function wantsTerminal(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--watch' || arg === '--watchAll' || arg.startsWith('--watch='));
}

/** Sends `signal` to Jest's process group (its workers and the servers they started), else to Jest. */
function signalGroup(pid: number, signal: NodeJS.Signals, group: boolean): void {
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Spawns `node <jest> [args]` in `cwd`, leading its own process group so that `m3` can signal
 * the whole run. With `stdoutToStderr`, Jest's stdout goes to our stderr (so `--json` output on
 * stdout stays machine-readable). SIGINT, SIGTERM and SIGHUP sent to `m3` (a Ctrl-C reaches only
 * `m3`'s group) are forwarded to Jest's group and reported in `received`; a second one kills the
 * group. When Jest ended by a
 * signal or `m3` was signalled, whatever is left in the group (workers whose parent died) is
 * killed, so no process of the run survives it.
 */
export function spawnJest(options: {
  cwd: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  stdoutToStderr: boolean;
}): Promise<JestExit> {
  const jestBin = resolveJestBin(options.cwd);
  const group = process.platform !== 'win32' && !wantsTerminal(options.args);
  const child = spawn(process.execPath, [jestBin, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: group,
    stdio: ['inherit', options.stdoutToStderr ? process.stderr : 'inherit', 'inherit'],
  });
  let received: NodeJS.Signals | null = null;
  const listeners = new Map<NodeJS.Signals, () => void>();
  for (const signal of FORWARDED) {
    const listener = (): void => {
      // A second signal means the first did not end the run soon enough: end it now.
      const forwarded = received === null ? signal : 'SIGKILL';
      received ??= signal;
      if (child.pid !== undefined) signalGroup(child.pid, forwarded, group);
    };
    listeners.set(signal, listener);
    process.on(signal, listener);
  }
  const release = (): void => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      release();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      release();
      if (group && child.pid !== undefined && (signal !== null || received !== null)) {
        signalGroup(child.pid, 'SIGKILL', true);
      }
      resolve({ code, signal, received });
    });
  });
}
