import { EndpointTrustError, TransportConnectionError } from '../errors';
import { checkEndpointTrust, classifyAddress, parseEndpointUrl } from './endpointTrust';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['172.15.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['192.169.1.1', 'public'],
    ['169.254.169.254', 'private'],
    ['0.0.0.0', 'private'],
    ['::', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['8.8.8.8', 'public'],
    ['2001:4860::8888', 'public'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('parseEndpointUrl', () => {
  it.each([
    ['not a url', /not a valid URL/],
    ['ftp://example.com/x', /must use http or https, got ftp/],
    ['http://user:pw@example.com/mcp', /carries credentials/],
    ['https://example.com/mcp?token=abc', /credential-like query parameter \(token\)/],
    ['https://example.com/mcp?API_KEY=abc', /credential-like query parameter \(API_KEY\)/],
    ['https://example.com/mcp?sig=abc', /credential-like query parameter \(sig\)/],
    ['https://example.com/mcp?X-Amz-Signature=abc', /credential-like query parameter/],
    ['https://example.com/mcp?client_secret=abc', /credential-like query parameter/],
  ])('refuses %s', (url, message) => {
    expect(() => parseEndpointUrl(url)).toThrow(EndpointTrustError);
    expect(() => parseEndpointUrl(url)).toThrow(message);
  });

  it('never echoes a credential value', () => {
    expect(() => parseEndpointUrl('https://example.com/mcp?access_token=sup3rs3cr3t')).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('sup3rs3cr3t') }),
    );
  });

  it('accepts ordinary query parameters', () => {
    expect(parseEndpointUrl('https://example.com/mcp?tenant=a&page=2').hostname).toBe('example.com');
  });
});

describe('checkEndpointTrust', () => {
  const noDns = async (): Promise<string[]> => {
    throw new Error('DNS must not be used');
  };

  it.each([
    ['http://127.0.0.1:8080/mcp'],
    ['http://localhost:8080/mcp'],
    ['http://api.localhost/mcp'],
    ['http://[::1]:9000/mcp'],
  ])('allows loopback %s without trust and without DNS', async (url) => {
    await expect(checkEndpointTrust(url, 'default', noDns)).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['http://10.0.0.5/mcp'],
    ['http://172.20.1.1/mcp'],
    ['http://192.168.0.10:3000/mcp'],
    ['http://169.254.169.254/latest'],
    ['http://[fd00::1]/mcp'],
    ['http://[fe80::1]/mcp'],
  ])('refuses private/link-local %s unless trusted_private', async (url) => {
    const refused = checkEndpointTrust(url, 'default', noDns);
    await expect(refused).rejects.toThrow(EndpointTrustError);
    await expect(checkEndpointTrust(url, 'default', noDns)).rejects.toThrow(/trust: 'trusted_private'/);
    await expect(checkEndpointTrust(url, 'trusted_private', noDns)).resolves.toBeInstanceOf(URL);
  });

  it('resolves hostnames and checks every address', async () => {
    const lookup = jest.fn(async () => ['93.184.216.34', '10.0.0.7']);
    await expect(checkEndpointTrust('https://intranet.example/mcp', 'default', lookup)).rejects.toThrow(
      /resolves to 10\.0\.0\.7, which is a private or link-local address/,
    );
    expect(lookup).toHaveBeenCalledWith('intranet.example');
    const publicOnly = async (): Promise<string[]> => ['93.184.216.34'];
    await expect(checkEndpointTrust('https://example.com/mcp', 'default', publicOnly)).resolves.toBeInstanceOf(URL);
  });

  it('reports an unresolvable hostname as a connection error', async () => {
    const failing = async (): Promise<string[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkEndpointTrust('https://nowhere.invalid/mcp', 'default', failing)).rejects.toThrow(
      TransportConnectionError,
    );
  });

  it('applies URL checks before anything else', async () => {
    await expect(checkEndpointTrust('http://127.0.0.1/mcp?password=x', 'trusted_private', noDns)).rejects.toThrow(
      EndpointTrustError,
    );
  });
});
