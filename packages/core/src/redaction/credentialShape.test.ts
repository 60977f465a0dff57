import { credentialForms, environmentCanaries, isSecretEnvName, looksLikeCredential } from './credentialShape';
import { Redactor } from './Redactor';

describe('looksLikeCredential', () => {
  test('takes values with digits, mixed case or punctuation, 8 characters or more', () => {
    for (const value of ['hunter22', 'sk-live-abc', 'Tr0ub4dor&3', 'dXNlcjpwYXNz', 'canary-basic-adds']) {
      expect(looksLikeCredential(value)).toBe(true);
    }
  });

  test('refuses short values, single plain words and plain numbers', () => {
    for (const value of [
      'basic',
      'none',
      'enabled',
      'authentication',
      'Localhost',
      '86400000',
      'a1b2',
      '',
      undefined,
    ]) {
      expect(looksLikeCredential(value)).toBe(false);
    }
  });
});

describe('isSecretEnvName', () => {
  test('KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL and AUTH (contract §22), but not AUTHOR', () => {
    for (const name of [
      'SERVICE_API_KEY',
      'GH_TOKEN',
      'client_secret',
      'DB_PASSWORD',
      'GCP_CREDENTIALS',
      'AUTH_HEADER',
    ]) {
      expect(isSecretEnvName(name)).toBe(true);
    }
    for (const name of ['GIT_AUTHOR_NAME', 'PATH', 'MODE']) expect(isSecretEnvName(name)).toBe(false);
  });
});

describe('environmentCanaries', () => {
  const env = {
    SERVICE_API_KEY: 'svc-key-7f3a9c',
    AUTH_MODE: 'basic',
    AUTH_HEADER: 'Bearer hdr-9d8c7b6a',
    PLAIN_SETTING: 'plain-value-123',
    GITHUB_TOKEN: 'ghp_0123456789',
    SHORT_TOKEN: 'a1b2',
    npm_package_keywords_0: 'model-context-protocol',
    GIT_AUTHOR_NAME: 'Ada Lovelace',
  };

  test('secret-looking names of the environment plus the names given, when the value looks like a credential', () => {
    expect(environmentCanaries(env, ['AUTH_MODE', 'AUTH_HEADER']).sort()).toEqual(
      ['Bearer hdr-9d8c7b6a', 'ghp_0123456789', 'svc-key-7f3a9c'].sort(),
    );
  });

  test('redaction replaces secrets, not words: a test named "basic adds" keeps its name', () => {
    const redactor = new Redactor(environmentCanaries(env, ['AUTH_MODE']));
    expect(redactor.redactText('math basic adds with svc-key-7f3a9c')).toBe('math basic adds with [REDACTED]');
    expect(redactor.redactText('the model-context-protocol tests')).toBe('the model-context-protocol tests');
  });
});

describe('credentialForms', () => {
  test('a scheme value and its bare token', () => {
    expect(credentialForms('Bearer abc-123')).toEqual(['Bearer abc-123', 'abc-123']);
    expect(credentialForms('plain-secret')).toEqual(['plain-secret']);
  });
});
