import { ModelValidationError } from '../../errors';

/** The clients whose default endpoint depends on the model's provider (`provider/model`). */
export type ProviderRoutedClient = 'opencode' | 'pi';

/** OpenAI's API, as its clients take it (with `/v1`). */
export const OPENAI_UPSTREAM = 'https://api.openai.com/v1';
/** Anthropic's API origin, as Claude Code and Pi take it (they append `/v1/messages`). */
export const ANTHROPIC_UPSTREAM = 'https://api.anthropic.com';

/**
 * The endpoint each provider's built-in client reaches when the selection gives no `baseUrl`, per
 * client: OpenCode's AI SDK providers take Anthropic's base URL with `/v1`, Pi's the origin.
 */
const PROVIDER_UPSTREAMS: Readonly<Record<ProviderRoutedClient, Readonly<Record<string, string>>>> = {
  opencode: { openai: OPENAI_UPSTREAM, anthropic: `${ANTHROPIC_UPSTREAM}/v1` },
  pi: { openai: OPENAI_UPSTREAM, anthropic: ANTHROPIC_UPSTREAM },
};

/**
 * Where a `provider/model` client's traffic goes without a `baseUrl`, for the cassette proxy to
 * forward to (contract §24).
 * @throws ModelValidationError for a provider the table does not know: the selection must give
 *   `baseUrl`, or the test run its cassettes in mode `off`.
 */
export function providerUpstream(client: ProviderRoutedClient, model: string): string {
  const provider = model.slice(0, Math.max(0, model.indexOf('/')));
  const upstream = PROVIDER_UPSTREAMS[client][provider];
  if (upstream === undefined) {
    const known = Object.keys(PROVIDER_UPSTREAMS[client]).join(', ');
    throw new ModelValidationError(
      `${client} agent selection: cassettes cannot tell where provider '${provider}' of model '${model}' is served (known: ${known}): give the selection baseUrl: '<the provider's API URL>', or run the test with cassettes mode 'off'`,
      { option: 'baseUrl', harness: client, provider },
    );
  }
  return upstream;
}
