import { EndpointTrustError } from '../errors';
import { checkAuthEndpointTrust, isLoopbackHost } from './authEndpointTrust';

describe('authorization endpoint trust', () => {
  test('loopback hosts', () => {
    for (const url of ['http://localhost:1/x', 'http://127.0.0.1/x', 'http://[::1]:8/x', 'http://a.localhost/x']) {
      expect(isLoopbackHost(new URL(url))).toBe(true);
    }
    expect(isLoopbackHost(new URL('http://auth.example.com/'))).toBe(false);
  });

  test('plain http off loopback and private ranges are refused; https and loopback http pass', async () => {
    await expect(checkAuthEndpointTrust(new URL('http://auth.example.com/token'), 'default', 'token')).rejects.toThrow(
      EndpointTrustError,
    );
    await expect(checkAuthEndpointTrust(new URL('https://10.0.0.5/token'), 'default', 'token')).rejects.toThrow(
      /private/,
    );
    await expect(
      checkAuthEndpointTrust(new URL('https://10.0.0.5/token'), 'trusted_private', 'token'),
    ).resolves.toBeInstanceOf(URL);
    const authorize = new URL('http://127.0.0.1:9/authorize?client_id=a&code_challenge=b&state=c');
    await expect(checkAuthEndpointTrust(authorize, 'default', 'authorization')).resolves.toBeInstanceOf(URL);
  });
});
