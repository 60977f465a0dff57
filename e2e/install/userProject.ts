// A user's project outside this repository (under os.tmpdir()), into which the packed tarballs are
// installed from the npm registry's point of view: `sf-m3` as the user names it, the @sf-m3
// packages it depends on pinned to their tarballs by `overrides`, everything else from the
// registry. Every command it runs is logged with its duration, so the test prints what it did.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PackedPackage } from './packTarballs';

/** What one command in the project produced. */
export interface CommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time in seconds. */
  readonly seconds: number;
}

/** Writes a progress line to the test's output (Jest shows a worker's stderr as it comes). */
export function log(line: string): void {
  process.stderr.write(`[install test] ${line}\n`);
}

/** What a command printed, stdout then stderr. */
export function output(result: CommandResult): string {
  return `${result.stdout}\n${result.stderr}`;
}

/** A command line as logged: a URL's user info (`postgres://m3:secret@…`) is not printed. */
function shownCommand(command: string, args: readonly string[]): string {
  return `${command} ${args.join(' ').split('\n')[0]}`.replace(/:\/\/[^/@\s]+@/g, '://[REDACTED]@');
}

/**
 * The environment of the project's commands: this process's, without what would reach back into
 * the repository (NODE_PATH, npm's per-script variables, the m3 variables of an enclosing run).
 * npm's cache, registry and user config are kept so installs hit the same cache.
 */
export function userEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const name of Object.keys(env)) {
    const npmVariable = name.toLowerCase().startsWith('npm_') && !keep.has(name.toLowerCase());
    if (
      npmVariable ||
      name.startsWith('M3_') ||
      ['NODE_PATH', 'SF_M3_ROOT', 'JEST_WORKER_ID', 'INIT_CWD'].includes(name)
    ) {
      delete env[name];
    }
  }
  return env;
}

const running = new Set<number>();

/**
 * Runs `command args` in `cwd` in its own process group, logs it with its status and duration, and
 * resolves with what it printed. After `timeoutMs` the whole group is killed (npm's build scripts
 * are grandchildren that would otherwise keep running and hold the output pipes open).
 */
export function run(
  cwd: string,
  command: string,
  args: readonly string[],
  timeoutMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...userEnv(), ...extraEnv },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) running.add(child.pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    const finish = (status: number | null, how: string): void => {
      clearTimeout(timer);
      if (child.pid !== undefined) running.delete(child.pid);
      const seconds = (Date.now() - started) / 1000;
      log(
        `${shownCommand(command, args)}  (${timedOut ? `killed after ${timeoutMs / 1000} s` : how}, ${seconds.toFixed(1)} s)`,
      );
      if (timedOut) stderr += `\n[install test] killed after ${timeoutMs / 1000} s`;
      resolve({ status, stdout, stderr, seconds });
    };
    child.on('error', (error) => finish(null, `error ${error.message}`));
    child.on('close', (status, signal) => finish(status, `exit ${status ?? signal}`));
  });
}

/** `npx <args>` in `folder`, without ever installing a missing command. */
export function npxIn(
  folder: string,
  args: readonly string[],
  timeoutMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<CommandResult> {
  return run(folder, 'npx', ['--no', '--', ...args], timeoutMs, extraEnv);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Kills every command still running (a test that timed out leaves its command behind). */
export function killRunning(): void {
  for (const pid of running) killGroup(pid);
  running.clear();
}

/**
 * Writes the project's package.json: private, sqlite3's build script allowed (npm 11 runs install
 * scripts only for the packages `allowScripts` names), and `overrides` resolving each @sf-m3
 * package to its tarball, so `npm install <sf-m3 tarball>` never asks the registry for one.
 */
export function writeProjectPackageJson(folder: string, packed: readonly PackedPackage[]): void {
  const overrides = Object.fromEntries(
    packed.filter((entry) => entry.name.startsWith('@sf-m3/')).map((entry) => [entry.name, `file:${entry.tarball}`]),
  );
  const manifest = {
    name: 'm3-install-test-project',
    version: '1.0.0',
    private: true,
    allowScripts: { sqlite3: true, '@parcel/watcher': false },
    overrides,
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * A README's install command (`npm install --save-dev sf-m3 jest …`) with the package `name`
 * replaced by its tarball, as npm arguments, plus `extra` packages (the user's own server's
 * dependencies).
 */
export function installArguments(
  readmeCommand: string,
  { name, tarball }: Pick<PackedPackage, 'name' | 'tarball'>,
  extra: readonly string[] = [],
): string[] {
  const words = readmeCommand.trim().split(/\s+/);
  if (words[0] !== 'npm' || words[1] !== 'install' || !words.includes(name)) {
    throw new Error(`the README's install command is not "npm install … ${name} …": ${readmeCommand}`);
  }
  const args = words.slice(1).map((word) => (word === name ? tarball : word));
  return [...args, ...extra, '--prefer-offline', '--no-audit', '--no-fund'];
}

/** The project's installed version of `name`, read from its package.json. */
export async function installedVersion(folder: string, name: string): Promise<string> {
  const result = await run(folder, process.execPath, ['-p', `require('${name}/package.json').version`], 60_000);
  if (result.status !== 0) throw new Error(`${name} is not installed in ${folder}: ${result.stderr}`);
  return result.stdout.trim();
}
