import { agentChannelKey, judgeChannelKey } from './cassetteChannelKey';

describe('cassette channel keys', () => {
  it('names an agent execution by harness, model and trial, or by the selection name and trial', () => {
    expect(agentChannelKey({ harness: 'openai', model: 'gpt-4o-mini', trial: 2 })).toBe('openai gpt-4o-mini trial 2');
    expect(agentChannelKey({ harness: 'claude_code', model: 'sonnet', name: 'strict-claude', trial: 1 })).toBe(
      'strict-claude trial 1',
    );
  });

  it('names a judge by its model', () => {
    expect(judgeChannelKey('gpt-4.1-mini')).toBe('judge gpt-4.1-mini');
  });
});
