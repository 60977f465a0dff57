// Helpers for the end-to-end CLI tests: fixture projects copied to temp folders and run through
// the real `bin/m3.js`, which spawns the real Jest.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import type * as CliMain from '../packages/cli/src/main';

/** The sf-m3 repository root. */
export const repoRoot = resolve(__dirname, '..');
/** The `m3` bin. */
export const m3Bin = join(repoRoot, 'bin', 'm3.js');

/** What one `m3` invocation produced. */
export interface M3Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in the order they were written. */
  combined: string;
}

/** Builds what the e2e tests need (the CLI, the environment, the store, the example servers) when missing. */
export function ensureBuilt(): void {
  const outputs = [
    'packages/cli/dist/main.js',
    'packages/jest-environment/dist/index.js',
    'packages/store-sqlite/dist/index.js',
    'examples/servers/dist/bin/example-server.js',
  ];
  if (outputs.every((file) => existsSync(join(repoRoot, file)))) return;
  const build = spawnSync('npx', ['tsc', '-b'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npx tsc -b failed:\n${build.stdout}${build.stderr}`);
}

/** Opens a fixture folder's results database (`.m3/executions.sqlite`), reads it and closes it. */
export async function withStore<T>(folder: string, read: (store: ExecutionStore) => Promise<T>): Promise<T> {
  const store = new SQLiteExecutionStore(join(folder, '.m3', 'executions.sqlite'));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

/** Copies `e2e/fixtures/<name>` into a fresh temp folder and returns its path. */
export function copyFixture(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `m3-e2e-${name}-`));
  cpSync(join(__dirname, 'fixtures', name), folder, { recursive: true });
  return folder;
}

/** Removes a temp fixture folder. */
export function removeFixture(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}

/**
 * The environment of an `m3` child: this repository as SF_M3_ROOT, no inherited M3_* settings, and
 * cassettes off (`M3_CASSETTES=off`) unless `extraEnv` sets M3_CASSETTES or M3_UPDATE_CASSETTES: a
 * fixture project's agents and judges reach their endpoint live and write no `__cassettes__`.
 */
export function childEnv(extraEnv: Record<string, string>): NodeJS.ProcessEnv {
  const given = withCassettesOff(extraEnv);
  const env: NodeJS.ProcessEnv = { ...process.env, SF_M3_ROOT: repoRoot, ...given };
  for (const name of Object.keys(env)) {
    if ((name.startsWith('M3_') && !(name in given)) || name === 'JEST_WORKER_ID') delete env[name];
  }
  return env;
}

/** `extraEnv` with `M3_CASSETTES=off` unless it chooses the cassette mode itself (contract §24). */
export function withCassettesOff(extraEnv: Record<string, string>): Record<string, string> {
  const chooses = 'M3_CASSETTES' in extraEnv || 'M3_UPDATE_CASSETTES' in extraEnv;
  return chooses ? extraEnv : { M3_CASSETTES: 'off', ...extraEnv };
}

/** Runs `node bin/m3.js <args>` in `cwd`, capturing stdout and stderr separately. */
export function runM3(args: string[], cwd: string, extraEnv: Record<string, string> = {}): M3Run {
  const result = spawnSync(process.execPath, [m3Bin, ...args], {
    cwd,
    env: childEnv(extraEnv),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, combined: '' };
}

/**
 * Runs `node bin/m3.js <args>` without blocking this process's event loop, for tests that serve
 * something the run talks to (a fake model on loopback). Rejects after `timeoutMs`.
 */
export function runM3Async(
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
  timeoutMs = 150_000,
): Promise<M3Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [m3Bin, ...args], { cwd, env: childEnv(extraEnv) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`m3 ${args.join(' ')} did not finish within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr, combined: '' });
    });
  });
}

/**
 * `m3 <args>` through the compiled CLI's `main` (packages/cli/dist/main.js, what the bin requires
 * and runs) in this process, with `env` as a child's whole environment: the exit status and what it
 * printed, without a child process (a child `m3` costs a quarter second of CPU, loading the CLI).
 * For commands that start no Jest: a Jest child `main` started would write to this process's stdio,
 * not to what this returns. Keep at least one bin call per command family.
 */
export async function runM3MainWithEnv(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<M3Run> {
  const cli = jest.requireActual<typeof CliMain>(join(repoRoot, 'packages', 'cli', 'dist', 'main.js'));
  let stdout = '';
  let stderr = '';
  const status = await cli.main(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd,
    env,
  });
  return { status, stdout, stderr, combined: '' };
}

/** `runM3MainWithEnv` with the environment `runM3` gives its child (`childEnv(extraEnv)`). */
export function runM3InProcess(args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<M3Run> {
  return runM3MainWithEnv(args, cwd, childEnv(extraEnv));
}

/** Runs `m3` with stdout and stderr written to one file, so their order can be checked. */
export function runM3Combined(args: string[], cwd: string, extraEnv: Record<string, string> = {}): M3Run {
  const env = childEnv(extraEnv);
  const file = join(cwd, '.m3-e2e-combined');
  const fd = openSync(file, 'w');
  const result = spawnSync(process.execPath, [m3Bin, ...args], {
    cwd,
    env,
    stdio: ['ignore', fd, fd],
    timeout: 120_000,
  });
  closeSync(fd);
  const combined = readFileSync(file, 'utf8');
  rmSync(file);
  return { status: result.status, stdout: '', stderr: '', combined };
}

/** Reads `.m3/reports/<runId>/feedback.json` of a fixture folder. */
export function readFeedback(folder: string, runId: string): Record<string, any> {
  return JSON.parse(readFileSync(join(folder, '.m3', 'reports', runId, 'feedback.json'), 'utf8'));
}

/** The run id printed on the summary's first line. */
export function printedRunId(text: string): string {
  const match = /^m3 run (\S+) {2}\(saved to /m.exec(text);
  if (!match) throw new Error(`no "m3 run <id>" line in:\n${text}`);
  return match[1]!;
}
