import { ModelValidationError } from '../../errors';

/** A Pi model as `provider/id` (the id may hold more slashes, e.g. `openrouter/anthropic/claude-sonnet-4`). */
export interface PiModel {
  readonly provider: string;
  readonly id: string;
}

/** The variable Pi reads each built-in provider's key from (pi-ai's env map, the common ones). */
const PROVIDER_KEY_ENV: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  google: 'GEMINI_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
  groq: 'GROQ_API_KEY',
  cerebras: 'CEREBRAS_API_KEY',
  xai: 'XAI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  'vercel-ai-gateway': 'AI_GATEWAY_API_KEY',
  zai: 'ZAI_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  fireworks: 'FIREWORKS_API_KEY',
  huggingface: 'HF_TOKEN',
  opencode: 'OPENCODE_API_KEY',
  'opencode-go': 'OPENCODE_API_KEY',
  moonshotai: 'MOONSHOT_API_KEY',
};

/** Splits `provider/id`; throws `ModelValidationError` naming the form when it is not one. */
export function parsePiModel(model: string): PiModel {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1 || /\s/.test(model)) {
    throw new ModelValidationError(
      `pi agent selection model '${model}' is not 'provider/model': write it as Pi names it, e.g. 'anthropic/claude-sonnet-4-5' or, with baseUrl, '<any provider name>/<model id>'`,
      { option: 'models', harness: 'pi', model },
    );
  }
  return { provider: model.slice(0, slash), id: model.slice(slash + 1) };
}

/** The key variable for a provider: the selection's `apiKeyEnv`, else Pi's own for a built-in provider. */
export function piKeyEnv(apiKeyEnv: string | null, provider: string): string | null {
  return apiKeyEnv ?? PROVIDER_KEY_ENV[provider] ?? null;
}
