import { isCredentialKey, isSensitiveName, REDACTED, Redactor } from './Redactor';

describe('Redactor', () => {
  it('replaces every registered canary, longest first, and ignores values too short to be secrets', () => {
    const redactor = new Redactor(['s3cret-value', 's3cret-value-longer', 'abc']);
    expect(redactor.redactText('a s3cret-value-longer and a s3cret-value')).toBe(`a ${REDACTED} and a ${REDACTED}`);
    expect(redactor.redactText('abc stays')).toBe('abc stays');
    expect(redactor.size).toBe(2);
  });

  it('redacts bearer and basic tokens and URL credentials without a canary', () => {
    const redactor = new Redactor();
    expect(redactor.redactText('Authorization: Bearer abc.def-123')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactor.redactText('Basic dXNlcjpwYXNz')).toBe(`Basic ${REDACTED}`);
    expect(redactor.redactText('https://ada:hunter2@example.com/x')).toBe(`https://${REDACTED}@example.com/x`);
  });

  it('replaces secrets, not words: a plain word after Basic or Bearer is not a token', () => {
    const redactor = new Redactor();
    expect(redactor.redactText('math basic adds two numbers')).toBe('math basic adds two numbers');
    expect(redactor.redactText('Basic authentication and bearer tokens')).toBe(
      'Basic authentication and bearer tokens',
    );
    expect(redactor.redactText('BEARER tok-4f5e6d and basic Zm9vOmJhcg==')).toBe(
      `BEARER ${REDACTED} and basic ${REDACTED}`,
    );
  });

  it('redacts credential keys structurally but keeps ordinary MCP data under token-like keys', () => {
    const redactor = new Redactor(['canary-1234']);
    const payload = {
      headers: { Authorization: 'anything', 'x-api-key': 'k-1' },
      params: { _meta: { progressToken: 7 }, maxTokens: 256, key: 'order-1', keyword: 'ship', api_key: 'k-2' },
      nested: [{ password: 'p', note: 'contains canary-1234' }],
    };
    expect(redactor.redactJson(payload)).toEqual({
      headers: { Authorization: REDACTED, 'x-api-key': REDACTED },
      params: { _meta: { progressToken: 7 }, maxTokens: 256, key: 'order-1', keyword: 'ship', api_key: REDACTED },
      nested: [{ password: REDACTED, note: `contains ${REDACTED}` }],
    });
  });

  it('extends into a new redactor without changing the original', () => {
    const base = new Redactor(['first-secret']);
    const extended = base.extend(['second-secret']);
    expect(extended.containsSecret('second-secret')).toBe(true);
    expect(base.containsSecret('second-secret')).toBe(false);
  });
});

describe('secret names', () => {
  it('env and header names holding KEY, TOKEN, SECRET or PASSWORD are sensitive', () => {
    for (const name of ['API_KEY', 'GITHUB_TOKEN', 'client_secret', 'DB_PASSWORD', 'Authorization']) {
      expect(isSensitiveName(name)).toBe(true);
    }
    expect(isSensitiveName('PATH')).toBe(false);
  });

  it('only credential JSON keys are redacted structurally', () => {
    expect(['api_key', 'apiKey', 'X-Api-Key', 'access_token', 'password', 'token'].every(isCredentialKey)).toBe(true);
    expect(['progressToken', 'maxTokens', 'key', 'keyword', 'tokens'].some(isCredentialKey)).toBe(false);
  });
});
