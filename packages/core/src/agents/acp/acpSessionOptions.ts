import { M3Error } from '../../errors';
import type { ResolvedAcpSelection } from './acpOptions';
import { isObject } from '../../json';

/** Ids of what `session/new` advertised: modes and config options. */
function advertised(created: Record<string, unknown>): { modes: string[]; configs: string[] } {
  const modes =
    isObject(created.modes) && Array.isArray(created.modes.availableModes) ? created.modes.availableModes : [];
  const configs = Array.isArray(created.configOptions) ? created.configOptions : [];
  const ids = (list: unknown[]) => list.flatMap((m) => (isObject(m) && typeof m.id === 'string' ? [m.id] : []));
  return { modes: ids(modes), configs: ids(configs) };
}

/**
 * Applies the selection's `agentModeId` (`session/set_mode`) and `sessionConfig`
 * (`session/set_config_option` per key) after `session/new`. Each must have been advertised by the
 * agent, else `M3Error('acp_stale_option')` names what it offers.
 */
export async function applySessionOptions(
  selection: ResolvedAcpSelection,
  created: Record<string, unknown>,
  request: (method: string, params: Record<string, unknown>) => Promise<unknown>,
): Promise<void> {
  const { modes, configs } = advertised(created);
  if (selection.agentModeId !== undefined) {
    if (!modes.includes(selection.agentModeId)) {
      throw new M3Error(
        'acp_stale_option',
        `acp agentModeId '${selection.agentModeId}' is not a mode the agent advertised (${modes.join(', ') || 'none'}): pick one of those or drop agentModeId`,
        { option: 'mode', advertised: modes },
      );
    }
    await request('session/set_mode', { modeId: selection.agentModeId });
  }
  for (const [configId, value] of Object.entries(selection.sessionConfig)) {
    if (!configs.includes(configId)) {
      throw new M3Error(
        'acp_stale_option',
        `acp sessionConfig '${configId}' is not a config option the agent advertised (${configs.join(', ') || 'none'}): pick one of those or drop it`,
        { option: 'config', advertised: configs },
      );
    }
    await request('session/set_config_option', { configId, value });
  }
}
