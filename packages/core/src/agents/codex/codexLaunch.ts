import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelValidationError } from '../../errors';
import type { Redactor } from '../../redaction/Redactor';
import type { ExecutionCassette } from '../cassette/ExecutionCassette';
import { NATIVE_HARNESS_DEFAULTS } from '../native/nativeHarnessDefaults';
import { prepareNativeLaunch, type NativeLaunch } from '../native/nativeLaunch';
import type { NativeHarnessDefaults, ResolvedNativeSelection } from '../native/nativeSelection';
import type { NativeServerTools } from '../native/nativeToolSelection';
import type { AgentMcpServerDescriptor } from '../wire/AgentServerGroup';
import { codexConfigToml, OPENAI_BASE_URL } from './codexConfig';

/** The `codex` kind: its CLI, package and key variable (its row of `NATIVE_HARNESS_DEFAULTS`). */
export const CODEX_DEFAULTS: NativeHarnessDefaults = NATIVE_HARNESS_DEFAULTS.codex;

/**
 * Prepares `codex app-server` for one execution: the temp root, `CODEX_HOME` = the launch's config
 * folder holding the generated `config.toml` (0600), and the model key passed in its own variable
 * (`apiKeyEnv`, named by the provider's `env_key`; never written to a file). With a `cassette`
 * (contract §24) `base_url` is the channel's proxy, and in mode `replay` an unset key is the
 * placeholder.
 * @throws ModelValidationError when there is neither a key nor a `baseUrl` (Codex would reach
 *   OpenAI without credentials); TransportStartupError when the executable is missing.
 */
export function prepareCodexLaunch(
  selection: ResolvedNativeSelection,
  model: string,
  servers: readonly AgentMcpServerDescriptor[],
  tools: readonly NativeServerTools[],
  redactor: Redactor,
  cassette: ExecutionCassette | null = null,
): Promise<NativeLaunch> {
  return prepareNativeLaunch(
    selection,
    CODEX_DEFAULTS,
    async (dirs, apiKey, route) => {
      const keyEnv = selection.apiKeyEnv ?? CODEX_DEFAULTS.apiKeyEnv ?? 'OPENAI_API_KEY';
      if (apiKey === undefined && selection.baseUrl === undefined) {
        throw new ModelValidationError(
          `the codex harness needs a model key: export ${keyEnv}, or give the selection baseUrl: 'http://127.0.0.1:PORT/v1' for a local endpoint`,
          { harness: 'codex', env: keyEnv },
        );
      }
      const config = codexConfigToml({
        model,
        baseUrl: route?.baseUrl.replace(/\/+$/, '') ?? selection.baseUrl ?? OPENAI_BASE_URL,
        apiKeyEnv: apiKey !== undefined ? keyEnv : undefined,
        servers,
        tools,
      });
      await writeFile(join(dirs.configDir, 'config.toml'), config, { mode: 0o600 });
      return {
        args: ['app-server', '--listen', 'stdio://'],
        env: { CODEX_HOME: dirs.configDir, ...(apiKey !== undefined && { [keyEnv]: apiKey }) },
      };
    },
    redactor,
    cassette,
  );
}
