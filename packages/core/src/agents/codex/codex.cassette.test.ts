// Codex (the fixture CLI, model-driven) recorded and replayed through a cassette (contract §24).
import { describeCassetteRoundTrip, KEY_ENV } from '../native/__fixtures__/cassetteTrials.testkit';
import { FAKE_CODEX } from '@sf-m3/test-utils/agents';

describeCassetteRoundTrip({
  kind: 'codex',
  channel: 'codex gpt-5.4 trial 1',
  // Codex's provider base_url ends in /v1; it posts to <base_url>/responses.
  selection: (origin) => ({
    harness: 'codex',
    executable: FAKE_CODEX,
    baseUrl: `${origin}/v1`,
    apiKeyEnv: KEY_ENV,
    models: ['gpt-5.4'],
    env: { FAKE_CODEX_MODEL: '1' },
  }),
  dialect: 'responses',
  path: '/v1/responses',
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ''),
});
