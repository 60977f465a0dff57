import { M3Error } from '../../errors';
import type { Redactor } from '../../redaction/Redactor';
import {
  prepareAgentLaunch,
  resolveAgentEnv,
  resolveAgentExecutable,
  type AgentLaunchPlan,
} from '../process/launchPlan';
import type { ResolvedAcpSelection } from './acpOptions';

export { DEFAULT_AGENT_PATH, removeLaunchRoot, resolveAgentExecutable } from '../process/launchPlan';

/** Where and how an ACP agent runs (`workspace` is also the `cwd` of `session/new`). */
export type AcpLaunchPlan = AgentLaunchPlan;

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
  const env = resolveAgentEnv(
    manifest.env,
    redactor,
    (name, variable) =>
      new M3Error(
        'acp_environment_missing',
        `manifest.env.${name} refers to environment variable ${variable}, which is not set: export it before the run`,
        { env: variable },
      ),
  );
  return prepareAgentLaunch({ executable, args: manifest.args, env, tempPrefix: 'm3-acp-' }, redactor);
}
