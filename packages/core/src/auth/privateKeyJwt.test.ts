import { generateKeyPairSync } from 'node:crypto';
import { verifyClientAssertion } from '../testing/oauth/clientAuthentication';
import { ModelValidationError } from '../errors';
import { algorithmForKey, privateKeyJwtAuth } from './privateKeyJwt';

function pair(type: 'ec' | 'rsa' | 'ed25519', options: object = {}): { privateKey: string; publicKey: string } {
  const keys = generateKeyPairSync(type as 'ec', options as { namedCurve: string });
  return {
    privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

describe('private_key_jwt client assertions', () => {
  test.each([
    ['ec P-256', pair('ec', { namedCurve: 'P-256' }), 'ES256'],
    ['ec P-384', pair('ec', { namedCurve: 'P-384' }), 'ES384'],
    ['rsa', pair('rsa', { modulusLength: 2048 }), 'RS256'],
    ['ed25519', pair('ed25519'), 'EdDSA'],
  ])('%s keys sign with %s by default, and the assertion verifies', async (_name, keys, alg) => {
    expect(algorithmForKey(keys.privateKey)).toBe(alg);
    const params = new URLSearchParams();
    await privateKeyJwtAuth('client-1', keys.privateKey, alg)(new Headers(), params, 'https://as.example/token', {
      issuer: 'https://as.example',
    } as never);
    expect(params.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const assertion = params.get('client_assertion') ?? '';
    const client = { clientId: 'client-1', publicKey: keys.publicKey };
    expect(verifyClientAssertion(assertion, client, ['https://as.example'])).toBeUndefined();
    expect(verifyClientAssertion(assertion, client, ['https://other.example'])).toMatch(/aud/);
    expect(
      verifyClientAssertion(assertion, { ...client, publicKey: pair('ec', { namedCurve: 'P-256' }).publicKey }, [
        'https://as.example',
      ]),
    ).toBeDefined();
  });

  test('a key that is not PEM is refused without showing it', () => {
    expect(() => algorithmForKey('not-a-key-0123456789')).toThrow(ModelValidationError);
    expect(() => algorithmForKey('not-a-key-0123456789')).not.toThrow(/0123456789/);
  });
});
