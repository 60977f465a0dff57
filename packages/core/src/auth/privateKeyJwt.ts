import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { AddClientAuthentication } from '@modelcontextprotocol/sdk/client/auth.js';
import { ModelValidationError } from '../errors';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

function parseKey(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw new ModelValidationError(
      'auth privateKey is not a PEM private key (PKCS#8 or PKCS#1): check the key (not shown)',
    );
  }
}

/** The JWS algorithm a PEM private key signs with by default (ES256/384/512, RS256, PS256, EdDSA). */
export function algorithmForKey(pem: string): string {
  const key = parseKey(pem);
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'rsa-pss') return 'PS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
  }
  throw new ModelValidationError(
    `auth privateKey has an unsupported key type ${String(type)}: use an EC, RSA or Ed25519 key`,
  );
}

function signWith(alg: string, key: KeyObject, data: Buffer): Buffer {
  if (alg === 'EdDSA') return sign(null, data, key);
  const hash = /^(?:ES|RS|PS)(256|384|512)$/.exec(alg)?.[1];
  if (hash === undefined)
    throw new ModelValidationError(`auth signingAlgorithm ${alg} is not supported: use ES256, RS256, PS256 or EdDSA`);
  if (alg.startsWith('ES')) return sign(`sha${hash}`, data, { key, dsaEncoding: 'ieee-p1363' });
  if (alg.startsWith('PS')) return sign(`sha${hash}`, data, { key, padding: 6, saltLength: Number(hash) / 8 });
  return sign(`sha${hash}`, data, key);
}

const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * `private_key_jwt` client authentication (RFC 7523 §2.2) signed with `node:crypto`: the same
 * claims as the SDK's `createPrivateKeyJwtAuth` (iss = sub = client id, aud = the issuer, 5 min
 * lifetime, a jti), without its ESM-only `jose` import, which Jest's CommonJS runtime cannot load.
 */
export function privateKeyJwtAuth(clientId: string, pem: string, alg: string): AddClientAuthentication {
  const key = parseKey(pem);
  return (_headers, params, url, metadata) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: clientId,
      sub: clientId,
      aud: String(metadata?.issuer ?? url),
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
    };
    const signingInput = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
    const signature = signWith(alg, key, Buffer.from(signingInput)).toString('base64url');
    params.set('client_assertion', `${signingInput}.${signature}`);
    params.set('client_assertion_type', JWT_BEARER);
  };
}
