import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { M3Error } from '../../errors';
import { isSensitiveName, type Redactor } from '../../redaction/Redactor';
import { resolveSecret, type SecretRef } from '../../redaction/SecretRef';
import { commandLineCanaries } from '../../servers/redactCommandLine';
import { addCredentialCanary } from '../../servers/resolveConfiguredValues';
import { makePrivateTempDir } from '../../tempfiles/privateTempDir';

/** PATH entries after the agent executable's own folder (and, for native CLIs, Node's). */
export const DEFAULT_AGENT_PATH = ['/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);

/**
 * Where and how an agent process runs: the resolved executable, an allowlisted environment, a
 * fresh temp root with home, XDG folders, a config folder and the workspace (the agent's cwd).
 */
export interface AgentLaunchPlan {
  readonly executable: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** The temp root (0700) holding everything below; removed at cleanup. */
  readonly root: string;
  /** `HOME` of the agent. */
  readonly home: string;
  /** A private folder for config files the harness writes (MCP config, provider config). */
  readonly configDir: string;
  /** The agent's cwd. */
  readonly workspace: string;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The command as an absolute path (as given when absolute, else looked up on the kit's PATH), or undefined. */
export function findAgentExecutable(command: string): string | undefined {
  if (isAbsolute(command)) return isExecutableFile(command) ? command : undefined;
  if (command.includes('/')) return [resolve(command)].find(isExecutableFile);
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d !== '')
    .map((d) => join(d, command))
    .find(isExecutableFile);
}

/** The command as an absolute path; throws `acp_executable_missing` when it is not found. */
export function resolveAgentExecutable(command: string): string {
  const found = findAgentExecutable(command);
  if (found === undefined) {
    throw new M3Error(
      'acp_executable_missing',
      'the acp agent executable was not found: give manifest.command as an absolute path or install it on PATH',
      { executable: command.split('/').pop() ?? '' },
    );
  }
  return found;
}

/**
 * Resolves an agent's extra environment: `SecretRef`s read from the kit's environment, and secret
 * values (and values whose name looks secret: KEY, TOKEN, SECRET, PASSWORD) made redactor canaries.
 * `missing(name, env)` builds the error for a SecretRef whose variable is unset.
 */
export function resolveAgentEnv(
  env: Readonly<Record<string, string | SecretRef>>,
  redactor: Redactor,
  missing: (name: string, variable: string) => Error,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string') {
      if (isSensitiveName(name)) addCredentialCanary(redactor, value);
      resolved[name] = value;
      continue;
    }
    const secret = resolveSecret(value);
    if (secret === undefined) throw missing(name, value.env);
    addCredentialCanary(redactor, secret);
    resolved[name] = secret;
  }
  return resolved;
}

/** Options of `prepareAgentLaunch`. */
export interface AgentLaunchOptions {
  /** Absolute path of the executable (already resolved). */
  readonly executable: string;
  readonly args: readonly string[];
  /** Variables beside the allowlisted ones (already resolved; later keys win). */
  readonly env: Readonly<Record<string, string>>;
  /** Prefix of the temp root's name, e.g. `m3-acp-`. */
  readonly tempPrefix: string;
  /** Folders put on PATH after the executable's own (e.g. Node's, for a JavaScript CLI). */
  readonly extraPath?: readonly string[];
}

/**
 * Makes a fresh temp root (home, XDG config/data/cache/state, config folder, workspace, all 0700)
 * and the allowlisted environment: PATH, HOME, XDG_*, `C.UTF-8`, `TZ=UTC`, `NO_COLOR`, `CI`, then
 * `env`. Nothing else is inherited from the kit's environment. `--token=…`-style arguments become
 * redactor canaries.
 */
export async function prepareAgentLaunch(options: AgentLaunchOptions, redactor: Redactor): Promise<AgentLaunchPlan> {
  for (const canary of commandLineCanaries([...options.args])) redactor.addCanary(canary);
  const root = await makePrivateTempDir(options.tempPrefix);
  const dirs = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg', 'config'),
    XDG_DATA_HOME: join(root, 'xdg', 'data'),
    XDG_CACHE_HOME: join(root, 'xdg', 'cache'),
    XDG_STATE_HOME: join(root, 'xdg', 'state'),
  };
  const workspace = join(root, 'workspace');
  const configDir = join(root, 'config');
  await Promise.all(
    [...Object.values(dirs), workspace, configDir].map((d) => mkdir(d, { recursive: true, mode: 0o700 })),
  );
  const path = [...new Set([dirname(options.executable), ...(options.extraPath ?? [])])].join(delimiter);
  const env: Record<string, string> = {
    PATH: `${path}${delimiter}${DEFAULT_AGENT_PATH}`,
    ...dirs,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    CI: '1',
    ...options.env,
  };
  return { executable: options.executable, args: [...options.args], env, root, home: dirs.HOME, configDir, workspace };
}

/** Removes a launch's temp root; never throws; false when it could not. */
export async function removeLaunchRoot(plan: { root: string } | undefined): Promise<boolean> {
  if (plan === undefined) return true;
  return rm(plan.root, { recursive: true, force: true, maxRetries: 2 }).then(
    () => true,
    () => false,
  );
}

/**
 * The last step of every driver's cleanup: removes the launch's temp root, and notes the
 * `cleanup_failed` limitation when that or an earlier step (`clean` false) left something behind.
 */
export async function removeLaunchRootNotingFailure(
  recorder: { addLimitation(limitation: string): void },
  plan: { root: string } | undefined,
  clean: boolean,
): Promise<void> {
  const removed = await removeLaunchRoot(plan);
  if (!(removed && clean)) recorder.addLimitation('cleanup_failed');
}
