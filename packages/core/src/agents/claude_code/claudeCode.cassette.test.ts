// Claude Code (the fixture CLI, model-driven) recorded and replayed through a cassette (contract §24).
import { describeCassetteRoundTrip, KEY_ENV } from '../native/__fixtures__/cassetteTrials.testkit';
import { FAKE_CLAUDE } from '@sf-m3/test-utils/agents';

describeCassetteRoundTrip({
  kind: 'claude_code',
  channel: 'claude_code sonnet trial 1',
  // Claude Code takes the origin (ANTHROPIC_BASE_URL) and posts to /v1/messages.
  selection: (origin) => ({
    harness: 'claude_code',
    executable: FAKE_CLAUDE,
    baseUrl: origin,
    apiKeyEnv: KEY_ENV,
    models: ['sonnet'],
    env: { FAKE_CLAUDE_MODEL: '1' },
  }),
  dialect: 'anthropic_messages',
  path: '/v1/messages',
  keyOf: (request) => request.headers['x-api-key'],
});
