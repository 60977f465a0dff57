import { buildServerGroups, serverSecrets, type ServerToken } from './serverGroups';
import { UsageError } from './UsageError';

const t = (flag: ServerToken['flag'], value: string): ServerToken => ({ flag, value });

describe('buildServerGroups', () => {
  test('groups http and stdio flags in command-line order', () => {
    const groups = buildServerGroups([
      t('server', 'http'),
      t('url', 'http://127.0.0.1:8123/mcp'),
      t('header', 'Authorization=Bearer abc123'),
      t('server', 'stdio'),
      t('command', 'node'),
      t('arg', 'dist/server.js'),
      t('arg', '--stdio'),
      t('env', 'API_KEY=k=v=w'),
      t('name', 'local'),
    ]);
    expect(groups).toEqual([
      {
        transport: 'http',
        name: 'server',
        url: 'http://127.0.0.1:8123/mcp',
        headers: { Authorization: 'Bearer abc123' },
      },
      {
        transport: 'stdio',
        name: 'local',
        command: 'node',
        args: ['dist/server.js', '--stdio'],
        env: { API_KEY: 'k=v=w' },
      },
    ]);
    expect(serverSecrets(groups)).toEqual(['Bearer abc123', 'k=v=w']);
  });

  test('stdio arguments that carry credentials are server secrets; a header may be written "Name: value"', () => {
    const groups = buildServerGroups([
      t('server', 'http'),
      t('url', 'http://127.0.0.1:8123/mcp'),
      t('header', 'Authorization: Bearer hdr-4c5d6e7f'),
      t('server', 'stdio'),
      t('command', 'node'),
      t('arg', 'server.js'),
      t('arg', '--token=tok-0a1b2c3d'),
      t('arg', '--api-key'),
      t('arg', 'key-8e9f0a1b'),
      t('arg', '--max-tokens'),
      t('arg', '1000'),
    ]);
    expect(groups[0]).toMatchObject({ headers: { Authorization: 'Bearer hdr-4c5d6e7f' } });
    expect(serverSecrets(groups)).toEqual(['Bearer hdr-4c5d6e7f', 'tok-0a1b2c3d', 'key-8e9f0a1b']);
  });

  test('--trust marks a private-range endpoint as trusted', () => {
    const [group] = buildServerGroups([
      t('server', 'http'),
      t('url', 'http://10.0.0.5:8080/mcp'),
      t('trust', 'trusted_private'),
    ]);
    expect(group).toEqual({
      transport: 'http',
      name: 'server',
      url: 'http://10.0.0.5:8080/mcp',
      headers: {},
      trust: 'trusted_private',
    });
    expect(() => buildServerGroups([t('server', 'http'), t('url', 'http://h/mcp'), t('trust', 'yes')])).toThrow(
      '--trust: must be "default" or "trusted_private", not "yes"',
    );
    expect(() => buildServerGroups([t('server', 'stdio'), t('command', 'n'), t('trust', 'default')])).toThrow(
      '--trust: does not apply to --server stdio',
    );
  });

  test('names unnamed later groups server-2, server-3', () => {
    const groups = buildServerGroups([
      t('server', 'stdio'),
      t('command', 'a'),
      t('server', 'stdio'),
      t('command', 'b'),
    ]);
    expect(groups.map((g) => g.name)).toEqual(['server', 'server-2']);
  });

  test.each<[string, ServerToken[], string]>([
    [
      'a field before any group',
      [t('url', 'http://localhost/mcp')],
      '--url: must follow --server http or --server stdio',
    ],
    ['an unknown transport', [t('server', 'sse')], '--server: must be "http" or "stdio", not "sse"'],
    ['an http group without --url', [t('server', 'http')], '--server http: needs --url URL'],
    ['a stdio group without --command', [t('server', 'stdio'), t('arg', 'x')], '--server stdio: needs --command CMD'],
    [
      'a stdio flag in an http group',
      [t('server', 'http'), t('url', 'http://localhost/mcp'), t('command', 'node')],
      '--command: does not apply to --server http',
    ],
    [
      'a repeated --url',
      [t('server', 'http'), t('url', 'http://a/mcp'), t('url', 'http://b/mcp')],
      '--url: is given twice in one --server http group',
    ],
    ['a non-http url', [t('server', 'http'), t('url', 'ftp://host/x')], '--url: must use http or https, not ftp'],
    ['a malformed url', [t('server', 'http'), t('url', 'not a url')], '--url: is not a valid URL'],
    ['port 0', [t('server', 'http'), t('url', 'http://localhost:0/mcp')], '--url: port 0 is not a reachable port'],
    [
      'duplicate names',
      [
        t('server', 'stdio'),
        t('command', 'a'),
        t('name', 'x'),
        t('server', 'stdio'),
        t('command', 'b'),
        t('name', 'x'),
      ],
      '--server: two server groups are named "x"',
    ],
  ])('rejects %s', (_label, tokens, message) => {
    expect(() => buildServerGroups(tokens)).toThrow(UsageError);
    expect(() => buildServerGroups(tokens)).toThrow(message);
  });

  test('refuses credentials in URLs without echoing them', () => {
    const userinfo = () => buildServerGroups([t('server', 'http'), t('url', 'http://bob:hunter22@host/mcp')]);
    expect(userinfo).toThrow('--url: must not carry credentials');
    expect(userinfo).not.toThrow(/hunter22/);
    const query = () => buildServerGroups([t('server', 'http'), t('url', 'https://host/mcp?api_key=s3cr3t')]);
    expect(query).toThrow('--url: must not carry the credential-like query parameter "api_key"');
    const named = () => buildServerGroups([t('server', 'http'), t('url', 'https://host/mcp?session_token=s3cr3t')]);
    expect(named).toThrow('--url: carries a credential-like query parameter (session_token)');
    expect(named).not.toThrow(/s3cr3t/);
    expect(query).not.toThrow(/s3cr3t/);
  });

  test('a malformed --header or --env never echoes its value', () => {
    const header = () =>
      buildServerGroups([t('server', 'http'), t('url', 'http://h/mcp'), t('header', 'supersecretvalue')]);
    expect(header).toThrow('--header: expected KEY=VALUE');
    expect(header).not.toThrow(/supersecretvalue/);
    const env = () => buildServerGroups([t('server', 'stdio'), t('command', 'n'), t('env', '=oops')]);
    expect(env).toThrow('--env: expected KEY=VALUE');
  });
});
