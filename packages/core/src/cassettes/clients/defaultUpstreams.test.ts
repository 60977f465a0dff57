import { ModelValidationError } from '../../errors';
import { ANTHROPIC_UPSTREAM, OPENAI_UPSTREAM, providerUpstream } from './defaultUpstreams';

describe('providerUpstream', () => {
  it("gives each client's default endpoint for openai and anthropic models", () => {
    expect(providerUpstream('pi', 'openai/gpt-4o-mini')).toBe(OPENAI_UPSTREAM);
    expect(providerUpstream('pi', 'anthropic/claude-sonnet-4-5')).toBe(ANTHROPIC_UPSTREAM);
    expect(providerUpstream('opencode', 'openai/gpt-4o-mini')).toBe('https://api.openai.com/v1');
    // OpenCode's AI SDK Anthropic provider takes the base URL with its version.
    expect(providerUpstream('opencode', 'anthropic/claude-sonnet-4-5')).toBe('https://api.anthropic.com/v1');
  });

  it('refuses another provider, naming both fixes', () => {
    expect(() => providerUpstream('pi', 'openrouter/anthropic/claude-sonnet-4')).toThrow(ModelValidationError);
    expect(() => providerUpstream('opencode', 'opencode/big-pickle')).toThrow(
      "opencode agent selection: cassettes cannot tell where provider 'opencode' of model 'opencode/big-pickle' is served (known: openai, anthropic): give the selection baseUrl: '<the provider's API URL>', or run the test with cassettes mode 'off'",
    );
  });
});
