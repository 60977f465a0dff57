import { ModelValidationError } from '../../errors';
import { parsePiModel, piKeyEnv } from './piModel';

describe('Pi models and their keys', () => {
  it('splits provider/id at the first slash', () => {
    expect(parsePiModel('anthropic/claude-sonnet-4-5')).toEqual({ provider: 'anthropic', id: 'claude-sonnet-4-5' });
    expect(parsePiModel('openrouter/anthropic/claude')).toEqual({ provider: 'openrouter', id: 'anthropic/claude' });
  });

  it.each(['sonnet', '/x', 'x/', 'a b/c'])('refuses %p naming the form', (model) => {
    expect(() => parsePiModel(model)).toThrow(ModelValidationError);
    expect(() => parsePiModel(model)).toThrow(/'provider\/model'/);
  });

  it("takes apiKeyEnv, else Pi's own variable for a built-in provider, else none", () => {
    expect(piKeyEnv('MY_KEY', 'anthropic')).toBe('MY_KEY');
    expect(piKeyEnv(null, 'anthropic')).toBe('ANTHROPIC_API_KEY');
    expect(piKeyEnv(null, 'google')).toBe('GEMINI_API_KEY');
    expect(piKeyEnv(null, 'my-local')).toBeNull();
  });
});
