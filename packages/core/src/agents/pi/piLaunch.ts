import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NativeLaunchDirs, NativeLaunchExtras, NativeModelRoute } from '../native/nativeLaunch';
import type { ResolvedNativeSelection } from '../native/nativeSelection';
import { PI_BRIDGE_CONFIG_ENV, type PiBridgeConfig } from './extension/piBridgeConfig';
import type { PiModel } from './piModel';

/** The built extension Pi loads (from `src/agents/pi` and `dist/agents/pi` alike: the built one). */
export const PI_EXTENSION_PATH = join(
  __dirname,
  '..',
  '..',
  '..',
  'dist',
  'agents',
  'pi',
  'extension',
  'piMcpExtension.js',
);

/** The variable the custom provider's key is read from when the selection has a `baseUrl`. */
export const PI_CUSTOM_KEY_ENV = 'M3_PI_API_KEY';

/**
 * Pi discovers nothing of its own (extensions, skills, prompt templates, themes, AGENTS.md), keeps
 * no session file, runs no built-in tool (read, bash, edit, write...), makes no startup network
 * call, and loads the kit's MCP extension only.
 */
export function piArgs(model: PiModel, extensionPath: string = PI_EXTENSION_PATH): string[] {
  return [
    '--mode',
    'rpc',
    '--no-session',
    '--no-extensions',
    '--no-skills',
    '--no-prompt-templates',
    '--no-themes',
    '--no-context-files',
    '--no-builtin-tools',
    '--offline',
    '--extension',
    extensionPath,
    '--provider',
    model.provider,
    '--model',
    model.id,
  ];
}

/**
 * `models.json` for a selection with `baseUrl`: the model's provider as an OpenAI Chat Completions
 * endpoint whose key Pi reads from `M3_PI_API_KEY` (the file holds the variable's name, never the key).
 */
export function piModelsJson(model: PiModel, baseUrl: string): Record<string, unknown> {
  return {
    providers: {
      [model.provider]: {
        baseUrl,
        api: 'openai-completions',
        apiKey: PI_CUSTOM_KEY_ENV,
        models: [{ id: model.id }],
      },
    },
  };
}

/**
 * `models.json` for a built-in provider behind the cassette proxy (contract §24): only its
 * `baseUrl` changes (Pi keeps the provider's API, models and key variable).
 */
export function piProxiedProviderJson(model: PiModel, proxyUrl: string): Record<string, unknown> {
  return { providers: { [model.provider]: { baseUrl: proxyUrl } } };
}

/**
 * The launch extras: Pi's config folder (`PI_CODING_AGENT_DIR`, inside the launch's 0700 root, with
 * `models.json` when there is a `baseUrl`), its switches (offline, no version check, no telemetry),
 * the bridge config, and the key in the variable Pi reads it from. With a cassette `route`
 * (contract §24) the endpoint in `models.json` is the channel's proxy.
 */
export async function piLaunchExtras(
  selection: ResolvedNativeSelection,
  model: PiModel,
  keyEnv: string | null,
  dirs: NativeLaunchDirs,
  apiKey: string | undefined,
  bridge: PiBridgeConfig,
  route?: NativeModelRoute,
): Promise<NativeLaunchExtras> {
  const agentDir = join(dirs.configDir, 'pi-agent');
  await mkdir(agentDir, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
    [PI_BRIDGE_CONFIG_ENV]: JSON.stringify(bridge),
  };
  const proxyUrl = route?.baseUrl.replace(/\/+$/, '');
  const file = join(agentDir, 'models.json');
  if (selection.baseUrl !== undefined) {
    const models = piModelsJson(model, proxyUrl ?? selection.baseUrl);
    await writeFile(file, `${JSON.stringify(models, null, 2)}\n`, { mode: 0o600 });
    // A loopback endpoint often takes no key; Pi still wants one for a custom provider.
    env[PI_CUSTOM_KEY_ENV] = apiKey ?? 'sf-m3-no-key';
  } else {
    if (proxyUrl !== undefined) {
      const models = piProxiedProviderJson(model, proxyUrl);
      await writeFile(file, `${JSON.stringify(models, null, 2)}\n`, { mode: 0o600 });
    }
    if (keyEnv !== null && apiKey !== undefined) env[keyEnv] = apiKey;
  }
  return { args: piArgs(model), env };
}
