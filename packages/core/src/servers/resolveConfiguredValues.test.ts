import { TransportStartupError } from '../errors';
import { Redactor } from '../redaction/Redactor';
import { secretFromEnv } from '../redaction/SecretRef';
import { resolveConfiguredValues } from './resolveConfiguredValues';

describe('resolveConfiguredValues', () => {
  it('resolves secrets and registers secrets and sensitive values as canaries', () => {
    const redactor = new Redactor();
    const resolved = resolveConfiguredValues(
      {
        MODE: 'plain-mode-value',
        DB_PASSWORD: 'hunter2hunter2',
        UPSTREAM: secretFromEnv('M3_TEST_UPSTREAM'),
        Authorization: 'Bearer tok-abcdef',
      },
      { redactor, what: 'env', serverName: 's', source: { M3_TEST_UPSTREAM: 'resolved-secret-1' } },
    );
    expect(resolved).toEqual({
      MODE: 'plain-mode-value',
      DB_PASSWORD: 'hunter2hunter2',
      UPSTREAM: 'resolved-secret-1',
      Authorization: 'Bearer tok-abcdef',
    });
    const text = redactor.redactText('plain-mode-value hunter2hunter2 resolved-secret-1 tok-abcdef');
    expect(text).toBe('plain-mode-value [REDACTED] [REDACTED] [REDACTED]');
  });

  it('names the unset variable, never a value', () => {
    const redactor = new Redactor();
    const attempt = (): unknown =>
      resolveConfiguredValues(
        { OK_TOKEN: 'visible-but-secret', MISSING: secretFromEnv('M3_TEST_NOT_SET') },
        { redactor, what: 'headers', serverName: 'remote', source: {} },
      );
    expect(attempt).toThrow(TransportStartupError);
    expect(attempt).toThrow(/environment variable M3_TEST_NOT_SET is not set/);
    expect(attempt).toThrow(expect.objectContaining({ message: expect.not.stringContaining('visible-but-secret') }));
  });

  it('treats an empty variable as unset', () => {
    expect(() =>
      resolveConfiguredValues(
        { A: secretFromEnv('EMPTY_ONE') },
        { redactor: new Redactor(), what: 'env', serverName: 's', source: { EMPTY_ONE: '' } },
      ),
    ).toThrow(/EMPTY_ONE is not set/);
  });
});
