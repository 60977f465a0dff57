// Pi (the fixture CLI, model-driven) recorded and replayed through a cassette (contract §24).
import { describeCassetteRoundTrip, KEY_ENV } from '../native/__fixtures__/cassetteTrials.testkit';
import { FAKE_PI } from './piHarness.testkit';

describeCassetteRoundTrip({
  kind: 'pi',
  channel: 'pi m3fake/quote-model trial 1',
  // models.json's baseUrl ends in /v1; Pi's openai-completions API posts to <baseUrl>/chat/completions.
  selection: (origin) => ({
    harness: 'pi',
    executable: FAKE_PI,
    baseUrl: `${origin}/v1`,
    apiKeyEnv: KEY_ENV,
    models: ['m3fake/quote-model'],
    env: { FAKE_PI_MODEL: '1' },
  }),
  dialect: 'chat_completions',
  path: '/v1/chat/completions',
  keyOf: (request) => request.headers.authorization?.replace(/^Bearer /, ''),
});
