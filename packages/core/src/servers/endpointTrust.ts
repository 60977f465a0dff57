import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { TrustLevel } from '../enums';
import { EndpointTrustError, TransportConnectionError } from '../errors';
import { CREDENTIAL_QUERY_PARAMS } from '../redaction/Redactor';

/** Where an address points: this machine, a private or link-local network, or anywhere else. */
export type AddressClass = 'loopback' | 'private' | 'public';

/** Looks a hostname up; the default is `dns.lookup` with every address. */
export type HostLookup = (hostname: string) => Promise<string[]>;

const CREDENTIAL_NAME = /token|secret|passw|api[-_]?key|signature|credential/i;
const TRUST_HINT = "pass trust: 'trusted_private' to new HTTPServer({ ... }) to allow it";

function ipv4Class(address: string): AddressClass {
  const [a = 0, b = 0] = address.split('.').map(Number);
  if (a === 127) return 'loopback';
  if (a === 10 || a === 0) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 169 && b === 254) return 'private';
  return 'public';
}

/** Expands an IPv6 address to eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups];
  return groups.map((g) => parseInt(g, 16) || 0);
}

function ipv6Class(address: string): AddressClass {
  const g = ipv6Groups(address);
  const first = g[0] ?? 0;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    const hi = g[6] ?? 0;
    const lo = g[7] ?? 0;
    return ipv4Class(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  }
  if (g.slice(0, 7).every((x) => x === 0)) return g[7] === 1 ? 'loopback' : 'private';
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'private'; // fe80::/10 link-local
  return 'public';
}

/** Classifies an IP address (v4 or v6; IPv4-mapped IPv6 counts as its IPv4 address). */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) return ipv4Class(address);
  if (family === 6) return ipv6Class(address);
  throw new EndpointTrustError('not an IP address', { address: String(address).slice(0, 64) });
}

/** The URL's host without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** The URL without userinfo, query or fragment: safe to show in messages and traces. */
export function safeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Checks what can be checked without the network: http(s) only, a host, no userinfo, no
 * credential-like query parameters. Returns the parsed URL.
 * @throws EndpointTrustError naming the problem and the fix
 */
export function parseEndpointUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new EndpointTrustError('HTTPServer url is not a valid URL: give an absolute http:// or https:// URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new EndpointTrustError(
      `HTTPServer url must use http or https, got ${parsed.protocol.replace(':', '')}: use the server's Streamable HTTP URL`,
    );
  }
  if (parsed.hostname === '') throw new EndpointTrustError('HTTPServer url has no host: add one');
  if (parsed.username !== '' || parsed.password !== '') {
    throw new EndpointTrustError(
      'HTTPServer url carries credentials (user:password@): the kit refuses them because URLs end up in logs; ' +
        "send them in a header instead, e.g. headers: { Authorization: secretFromEnv('MCP_AUTH') }",
    );
  }
  for (const key of new Set(parsed.searchParams.keys())) {
    if (CREDENTIAL_QUERY_PARAMS.has(key.toLowerCase()) || CREDENTIAL_NAME.test(key)) {
      throw new EndpointTrustError(
        `HTTPServer url carries a credential-like query parameter (${key.slice(0, 64)}): the kit refuses it because ` +
          "URLs end up in logs; send the credential in a header instead, e.g. headers: { Authorization: secretFromEnv('MCP_AUTH') }",
        { parameter: key.slice(0, 64) },
      );
    }
  }
  return parsed;
}

function refusePrivate(url: URL, address: string): never {
  throw new EndpointTrustError(
    `HTTP endpoint ${safeUrl(url)} ${isIP(bareHost(url)) !== 0 ? 'is' : `resolves to ${address}, which is`} a private or link-local address ` +
      `(10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7); the kit refuses it by default: ${TRUST_HINT}`,
    { host: url.hostname, address },
  );
}

const defaultLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Applies the contract §2 trust rules to an endpoint: loopback is allowed; private and link-local
 * addresses need `trust: 'trusted_private'`; hostnames are resolved and every address checked.
 * @throws EndpointTrustError when a rule refuses the URL
 * @throws TransportConnectionError when the hostname does not resolve
 */
export async function checkEndpointTrust(
  url: string | URL,
  trust: TrustLevel,
  lookup: HostLookup = defaultLookup,
): Promise<URL> {
  const parsed = parseEndpointUrl(url);
  const host = bareHost(parsed).replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return parsed;
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await lookup(host);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new TransportConnectionError(
        `HTTP endpoint ${safeUrl(parsed)} is unreachable: its hostname does not resolve${typeof code === 'string' ? ` (${code})` : ''}; check the url`,
        { host: parsed.hostname, phase: 'connect' },
      );
    }
  }
  for (const address of addresses) {
    if (classifyAddress(address) === 'private' && trust !== 'trusted_private') refusePrivate(parsed, address);
  }
  return parsed;
}
