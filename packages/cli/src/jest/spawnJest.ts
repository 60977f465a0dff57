// Runs the project's real Jest as a child process, after it has read the project's Jest config.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { type LoadedJestConfig, readConfigAnswer, resolveJestConfigModule } from './jestConfigAnswer';
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

/** Where `startJest` reads the project's Jest config before Jest starts (for the gates of `m3 test`). */
export interface JestConfigQuery {
  /** The project folder Jest looks from. */
  folder: string;
  /** Jest's `--config` (`jestConfigArgument`), or null to look where Jest looks. */
  configArg: string | null;
}

/** A Jest process that has read the project's config and waits to be told to run. */
export interface StartedJest {
  /** The project's Jest config as Jest reads it (`testEnvironmentOptions.m3` and its file). */
  readonly config: Promise<LoadedJestConfig>;
  /** Starts Jest and resolves when it ends. */
  run(): Promise<JestExit>;
  /** Ends the process before Jest starts (a usage error in `m3`) and resolves when it is gone. */
  stop(): Promise<JestExit>;
}

/** The process Jest runs in: reads the config, answers on fd 3, waits on fd 4 (bin/jestAfterConfig.js). */
const JEST_AFTER_CONFIG = join(__dirname, '..', '..', 'bin', 'jestAfterConfig.js');

/** The project's `jest-config` module, or the reason there is none. */
function jestConfigModule(jestBin: string): { path: string } | { missing: string } {
  try {
    return { path: resolveJestConfigModule(jestBin) };
  } catch (error) {
    return { missing: `jest-config is not installed: ${(error as Error).message.split('\n')[0]}` };
  }
}

/**
 * Spawns Jest in `cwd` in a process that first reads the project's Jest config (with the project's
 * own `jest-config`, the modules Jest then uses: no second process) and waits for `run()`, leading
 * its own process group so that `m3` can signal the whole run. With `stdoutToStderr`, Jest's
 * stdout goes to our stderr (so `--json` output on stdout stays machine-readable). SIGINT, SIGTERM
 * and SIGHUP sent to `m3` (a Ctrl-C reaches only `m3`'s group) are forwarded to Jest's group and
 * reported in `received`; a second one kills the group. When Jest ended by a signal or `m3` was
 * signalled, whatever is left in the group (workers whose parent died) is killed, so no process of
 * the run survives it.
 */
export function startJest(options: {
  cwd: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  stdoutToStderr: boolean;
  query: JestConfigQuery;
}): StartedJest {
  const jestBin = resolveJestBin(options.cwd);
  const configModule = jestConfigModule(jestBin);
  const group = process.platform !== 'win32' && !wantsTerminal(options.args);
  const child = spawn(
    process.execPath,
    [
      JEST_AFTER_CONFIG,
      jestBin,
      'path' in configModule ? configModule.path : '',
      options.query.folder,
      options.query.configArg ?? '',
      ...options.args,
    ],
    {
      cwd: options.cwd,
      env: options.env,
      detached: group,
      stdio: ['inherit', options.stdoutToStderr ? process.stderr : 'inherit', 'inherit', 'pipe', 'pipe'],
    },
  );
  const answerStream = child.stdio[3] as Readable;
  const goStream = child.stdio[4] as Writable;
  // The child may be gone before it is told anything (a crash); its exit status says so.
  goStream.on('error', () => undefined);
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
  const exit = new Promise<JestExit>((resolve, reject) => {
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
  const config =
    'missing' in configModule
      ? Promise.resolve<LoadedJestConfig>({ status: 'failed', message: configModule.missing })
      : readConfigAnswer(answerStream, options.query.folder, exit);
  // A spawn error rejects `exit`; `config` then answers without it, and run()/stop() rethrow it.
  exit.catch(() => undefined);
  const tell = (what: 'run' | 'stop'): Promise<JestExit> => {
    goStream.end(`${what}\n`);
    return exit;
  };
  return { config, run: () => tell('run'), stop: () => tell('stop') };
}
