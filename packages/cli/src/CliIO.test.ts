import { cliRedactor } from './CliIO';

describe('cliRedactor', () => {
  test('redacts secret-looking env values, the --env-file names given and extra values, but not words', () => {
    const redactor = cliRedactor(
      { SERVICE_API_KEY: 'svc-9a8b7c6d', AUTH_MODE: 'basic', AUTH_HEADER: 'hdr-value-1234', PATH: '/usr/bin' },
      ['server-secret-1'],
      ['AUTH_MODE', 'AUTH_HEADER'],
    );
    expect(redactor.redactText('svc-9a8b7c6d hdr-value-1234 server-secret-1 /usr/bin')).toBe(
      '[REDACTED] [REDACTED] [REDACTED] /usr/bin',
    );
    expect(redactor.redactText('math basic adds')).toBe('math basic adds');
  });
});
