import { Redactor } from '../../redaction/Redactor';
import { secretFromEnv } from '../../redaction/SecretRef';
import { prepareAcpLaunch, removeLaunchRoot } from './acpEnvironment';

describe('prepareAcpLaunch', () => {
  afterEach(() => {
    delete process.env.M3_ACP_ENV_TEST_SECRET;
  });

  it('makes SecretRef values and secret-named plain values redaction canaries, as for a server env', async () => {
    process.env.M3_ACP_ENV_TEST_SECRET = 'Bearer ref-token-4k2j9';
    const redactor = new Redactor();
    const plan = await prepareAcpLaunch(
      {
        command: process.execPath,
        args: [],
        env: {
          PROVIDER_API_KEY: 'plain-key-value-8h3',
          AUTH: secretFromEnv('M3_ACP_ENV_TEST_SECRET'),
          PLAIN_SETTING: 'visible-value',
        },
      },
      redactor,
    );
    try {
      expect(plan.env).toMatchObject({
        PROVIDER_API_KEY: 'plain-key-value-8h3',
        AUTH: 'Bearer ref-token-4k2j9',
        PLAIN_SETTING: 'visible-value',
      });
      expect(redactor.redactText('k=plain-key-value-8h3 t=ref-token-4k2j9 s=visible-value')).toBe(
        'k=[REDACTED] t=[REDACTED] s=visible-value',
      );
    } finally {
      await removeLaunchRoot(plan);
    }
  });
});
