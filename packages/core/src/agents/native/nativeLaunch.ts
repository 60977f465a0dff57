import { dirname } from 'node:path';
import { ModelValidationError, TransportStartupError } from '../../errors';
import type { Redactor } from '../../redaction/Redactor';
import { commandLineCanaries } from '../../servers/redactCommandLine';
import { addCredentialCanary } from '../../servers/resolveConfiguredValues';
import {
  findAgentExecutable,
  prepareAgentLaunch,
  removeLaunchRoot,
  resolveAgentEnv,
  type AgentLaunchPlan,
} from '../process/launchPlan';
import type { NativeHarnessDefaults, ResolvedNativeSelection } from './nativeSelection';

/** A native CLI's launch: the plan, and the model API key when the kit's environment holds one. */
export interface NativeLaunch {
  readonly plan: AgentLaunchPlan;
  /** The value of `apiKeyEnv` (a redactor canary), or undefined when it is unset or the kind has none. */
  readonly apiKey: string | undefined;
}

/** The folders of a launch, for the driver's arguments and config files. */
export type NativeLaunchDirs = Pick<AgentLaunchPlan, 'root' | 'home' | 'configDir' | 'workspace'>;

/** What the driver adds to a launch: its own arguments and switches (paths may point into the dirs). */
export interface NativeLaunchExtras {
  /** Arguments before the selection's own `args`. */
  readonly args: readonly string[];
  /** The harness's switches (auto-update, telemetry off...); the selection's `env` comes after them. */
  readonly env: Readonly<Record<string, string>>;
}

/** The CLI a selection runs: its `executable`, else the kind's command on PATH; throws naming the npm package. */
export function resolveNativeExecutable(selection: ResolvedNativeSelection, defaults: NativeHarnessDefaults): string {
  const command = selection.executable ?? defaults.executable;
  const found = findAgentExecutable(command);
  if (found === undefined) {
    const where = selection.executable !== undefined ? `at ${command}` : `on PATH (${command})`;
    throw new TransportStartupError(
      `the ${defaults.kind} harness found no executable ${where}: install it with npm install -g ${defaults.npmPackage}, or give the selection executable: '/path/to/${defaults.executable}'`,
      { harness: defaults.kind, executable: command.split('/').pop() ?? '', npmPackage: defaults.npmPackage },
    );
  }
  return found;
}

/**
 * Prepares a native CLI's launch: resolves the executable, reads the API key from `apiKeyEnv` (a
 * redactor canary from here on), resolves the selection's env, and makes the temp root and the
 * allowlisted environment (`prepareAgentLaunch`), with Node's folder on PATH so a JavaScript CLI
 * with a `#!/usr/bin/env node` shebang runs. `extras` gives the driver's own arguments (before the
 * selection's `args`) and switches (before the selection's `env`, which wins); it runs once the
 * folders exist, so its paths can point into them (when it throws, the root is removed). The
 * caller removes `plan.root` at cleanup (`removeLaunchRoot`).
 * @throws TransportStartupError when the executable is missing; ModelValidationError when an env SecretRef is unset.
 */
export async function prepareNativeLaunch(
  selection: ResolvedNativeSelection,
  defaults: NativeHarnessDefaults,
  extras: (dirs: NativeLaunchDirs, apiKey: string | undefined) => NativeLaunchExtras | Promise<NativeLaunchExtras>,
  redactor: Redactor,
): Promise<NativeLaunch> {
  const executable = resolveNativeExecutable(selection, defaults);
  const key = selection.apiKeyEnv !== null ? process.env[selection.apiKeyEnv] : undefined;
  const apiKey = key !== undefined && key !== '' ? key : undefined;
  if (apiKey !== undefined) addCredentialCanary(redactor, apiKey);
  const userEnv = resolveAgentEnv(
    selection.env,
    redactor,
    (name, variable) =>
      new ModelValidationError(
        `${defaults.kind} agent selection env.${name} refers to environment variable ${variable}, which is not set: export it before the run`,
        { env: variable, harness: defaults.kind },
      ),
  );
  const base = await prepareAgentLaunch(
    {
      executable,
      args: selection.args,
      env: {},
      tempPrefix: `m3-${defaults.kind.replace('_', '-')}-`,
      extraPath: [dirname(process.execPath)],
    },
    redactor,
  );
  let own: NativeLaunchExtras;
  try {
    own = await extras(base, apiKey);
  } catch (error) {
    await removeLaunchRoot(base);
    throw error;
  }
  for (const canary of commandLineCanaries([...own.args])) redactor.addCanary(canary);
  const plan: AgentLaunchPlan = {
    ...base,
    args: [...own.args, ...selection.args],
    env: { ...base.env, ...own.env, ...userEnv },
  };
  return { plan, apiKey };
}
