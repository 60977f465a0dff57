import { isIP } from 'node:net';
import type { TrustLevel } from '../enums';
import { EndpointTrustError } from '../errors';
import { checkEndpointTrust, classifyAddress, safeUrl } from '../servers/endpointTrust';
import type { AuthenticationStep } from '../errors';

/** True for `localhost`, `*.localhost` and loopback IP addresses. */
export function isLoopbackHost(url: URL): boolean {
  const host = (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && classifyAddress(host) === 'loopback';
}

/**
 * The trust rules for an authorization endpoint (metadata, registration, authorization, token):
 * the HTTPServer rules (private ranges need `trusted_private`), and https unless the host is
 * loopback, because tokens and secrets travel there.
 * @throws EndpointTrustError naming the endpoint, the step and the fix
 */
export async function checkAuthEndpointTrust(url: URL, trust: TrustLevel, step: AuthenticationStep): Promise<URL> {
  if (url.protocol === 'http:' && !isLoopbackHost(url)) {
    throw new EndpointTrustError(
      `authorization endpoint ${safeUrl(url)} (${step}) uses plain http on a non-loopback host; the kit sends ` +
        'credentials only over https (or to loopback test servers): serve it over https',
      { host: url.host, step, reason: 'insecure_authorization_endpoint' },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EndpointTrustError(`authorization endpoint for ${step} must be an https URL, got ${url.protocol}`, {
      step,
      reason: 'insecure_authorization_endpoint',
    });
  }
  const bare = new URL(url.href);
  bare.search = '';
  return checkEndpointTrust(bare, trust);
}
