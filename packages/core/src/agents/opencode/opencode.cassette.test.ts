// OpenCode (the fixture CLI, model-driven) recorded and replayed through a cassette (contract §24).
import { join } from 'node:path';
import { describeCassetteRoundTrip, KEY_ENV } from '../native/__fixtures__/cassetteTrials.testkit';

const FAKE_OPENCODE = join(__dirname, '__fixtures__', 'fake-opencode.js');

describeCassetteRoundTrip({
  kind: 'opencode',
  channel: 'opencode m3fake/quote-model trial 1',
  // The provider's baseURL (openai-compatible) ends in /v1; OpenCode posts to <baseURL>/chat/completions.
  selection: (origin) => ({
    harness: 'opencode',
    executable: FAKE_OPENCODE,
    baseUrl: `${origin}/v1`,
    apiKeyEnv: KEY_ENV,
    models: ['m3fake/quote-model'],
    env: { FAKE_OPENCODE_MODEL: '1' },
  }),
  dialect: 'chat_completions',
  path: '/v1/chat/completions',
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ''),
});
