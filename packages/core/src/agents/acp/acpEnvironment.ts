import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { M3Error } from '../../errors';
import { isSensitiveName, type Redactor } from '../../redaction/Redactor';
import { resolveSecret } from '../../redaction/SecretRef';
import { commandLineCanaries } from '../../servers/redactCommandLine';
import { addCredentialCanary } from '../../servers/resolveConfiguredValues';
import { makePrivateTempDir } from '../../tempfiles/privateTempDir';
import type { ResolvedAcpSelection } from './acpOptions';

/** PATH entries after the agent executable's own folder. */
export const DEFAULT_AGENT_PATH = ['/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);

/** Where and how an agent runs: the resolved executable, an allowlisted env, a temp home and workspace. */
export interface AcpLaunchPlan {
  readonly executable: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** The temp root holding home, XDG folders and the workspace (removed at cleanup). */
  readonly root: string;
  /** The agent's cwd and the `cwd` of `session/new`. */
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

/** The command as an absolute path: as given when absolute, else looked up on the kit's PATH. */
export function resolveAgentExecutable(command: string): string {
  const found = isAbsolute(command)
    ? isExecutableFile(command)
      ? command
      : undefined
    : command.includes('/')
      ? [resolve(command)].find(isExecutableFile)
      : (process.env.PATH ?? '')
          .split(delimiter)
          .filter((d) => d !== '')
          .map((d) => join(d, command))
          .find(isExecutableFile);
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
 * Prepares a launch: resolves the executable, makes a fresh temp root (home, XDG config/data/cache/
 * state, workspace) and the allowlisted environment. Nothing is inherited from the kit's
 * environment but what the manifest names; secret values, and values whose name looks secret
 * (KEY, TOKEN, SECRET, PASSWORD, as for a server's env), and `--token=…`-style arguments become
 * redactor canaries here, before the agent starts.
 * @throws M3Error `acp_executable_missing`, `acp_environment_missing` (a SecretRef's variable is unset)
 */
export async function prepareAcpLaunch(
  manifest: ResolvedAcpSelection['manifest'],
  redactor: Redactor,
): Promise<AcpLaunchPlan> {
  const executable = resolveAgentExecutable(manifest.command);
  for (const canary of commandLineCanaries(manifest.args)) redactor.addCanary(canary);
  const extra: Record<string, string> = {};
  for (const [name, value] of Object.entries(manifest.env)) {
    if (typeof value === 'string') {
      if (isSensitiveName(name)) addCredentialCanary(redactor, value);
      extra[name] = value;
      continue;
    }
    const secret = resolveSecret(value);
    if (secret === undefined) {
      throw new M3Error(
        'acp_environment_missing',
        `manifest.env.${name} refers to environment variable ${value.env}, which is not set: export it before the run`,
        { env: value.env },
      );
    }
    addCredentialCanary(redactor, secret);
    extra[name] = secret;
  }
  const root = await makePrivateTempDir('m3-acp-');
  const dirs = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg', 'config'),
    XDG_DATA_HOME: join(root, 'xdg', 'data'),
    XDG_CACHE_HOME: join(root, 'xdg', 'cache'),
    XDG_STATE_HOME: join(root, 'xdg', 'state'),
  };
  const workspace = join(root, 'workspace');
  await Promise.all([...Object.values(dirs), workspace].map((d) => mkdir(d, { recursive: true, mode: 0o700 })));
  const env: Record<string, string> = {
    PATH: `${dirname(executable)}${delimiter}${DEFAULT_AGENT_PATH}`,
    ...dirs,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
  return { executable, args: [...manifest.args], env, root, workspace };
}

/** Removes a launch's temp root; never throws. */
export async function removeLaunchRoot(plan: AcpLaunchPlan | undefined): Promise<boolean> {
  if (plan === undefined) return true;
  return rm(plan.root, { recursive: true, force: true, maxRetries: 2 }).then(
    () => true,
    () => false,
  );
}
