import { dirname } from 'node:path';
import { ModelValidationError, TransportStartupError } from '../../errors';
import type { Redactor } from '../../redaction/Redactor';
import type { ExecutionCassette } from '../cassette/ExecutionCassette';
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
  /**
   * The value of `apiKeyEnv` (a redactor canary), the cassette replay placeholder when it is unset in
   * mode `replay`, or undefined when it is unset or the kind has none.
   */
  readonly apiKey: string | undefined;
}

/** The folders of a launch, for the driver's arguments and config files. */
export type NativeLaunchDirs = Pick<AgentLaunchPlan, 'root' | 'home' | 'configDir' | 'workspace'>;

/**
 * Where the CLI's model traffic goes when the execution has cassettes (contract §24): the channel's
 * loopback proxy, to be written wherever the CLI takes its endpoint.
 */
export interface NativeModelRoute {
  /** The proxy's URL in the form of the upstream (same path prefix: `/v1` kept or absent). */
  readonly baseUrl: string;
  /** True in mode `replay` (the key, when the kit had none, is the placeholder). */
  readonly replay: boolean;
}

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
 * With a `cassette` (contract §24) the execution's channel is opened once the folders exist (their
 * paths are its volatile strings) and `extras` gets its `route`; in mode `replay` an unset key is
 * the placeholder `m3-cassette-replay`.
 * @throws TransportStartupError when the executable is missing; ModelValidationError when an env SecretRef is unset.
 */
export async function prepareNativeLaunch(
  selection: ResolvedNativeSelection,
  defaults: NativeHarnessDefaults,
  extras: (
    dirs: NativeLaunchDirs,
    apiKey: string | undefined,
    route: NativeModelRoute | undefined,
  ) => NativeLaunchExtras | Promise<NativeLaunchExtras>,
  redactor: Redactor,
  cassette: ExecutionCassette | null = null,
): Promise<NativeLaunch> {
  const executable = resolveNativeExecutable(selection, defaults);
  const key = selection.apiKeyEnv !== null ? process.env[selection.apiKeyEnv] : undefined;
  const ownKey = key !== undefined && key !== '' ? key : undefined;
  if (ownKey !== undefined) addCredentialCanary(redactor, ownKey);
  const apiKey = cassette !== null ? cassette.apiKey(ownKey) : ownKey;
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
    const channel = await cassette?.open([base.workspace, base.home, base.configDir, base.root]);
    const route =
      channel !== undefined && cassette !== null ? { baseUrl: channel.baseUrl, replay: cassette.replay } : undefined;
    own = await extras(base, apiKey, route);
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
