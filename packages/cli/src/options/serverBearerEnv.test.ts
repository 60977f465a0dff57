import { bearerEnvSecrets } from './serverBearerEnv';
import { buildServerGroups, type ServerToken } from './serverGroups';
import { validateTestOptions } from './testOptions';
import { UsageError } from './UsageError';
import { jestChildEnv } from '../jest/jestChildEnv';

const t = (flag: ServerToken['flag'], value: string): ServerToken => ({ flag, value });
const http = (...more: ServerToken[]) => [t('server', 'http'), t('url', 'http://127.0.0.1:8123/mcp'), ...more];

describe('--server http --bearer-env NAME', () => {
  test('becomes bearer auth by reference: M3_SERVERS carries the variable name, never the token', () => {
    const options = validateTestOptions({ serverTokens: http(t('bearer-env', 'SHIP_TOKEN'), t('name', 'ship')) }, '/p');
    expect(options.servers).toEqual([
      {
        transport: 'http',
        name: 'ship',
        url: 'http://127.0.0.1:8123/mcp',
        headers: {},
        auth: { kind: 'bearer', token: { kind: 'secret_ref', env: 'SHIP_TOKEN' } },
      },
    ]);
    const env = jestChildEnv({ SHIP_TOKEN: 'tok-ship-5a6b7c8d' }, options, 'run-x', [], ['SHIP_TOKEN']);
    expect(env.M3_SERVERS).not.toContain('tok-ship-5a6b7c8d');
    expect(JSON.parse(env.M3_SERVERS!)[0].auth.token).toEqual({ kind: 'secret_ref', env: 'SHIP_TOKEN' });
    expect(env.M3_SECRET_ENV_NAMES).toBe('SHIP_TOKEN');
  });

  test('reads the tokens from the environment: names for the workers, values for the CLI redactor', () => {
    const servers = buildServerGroups([
      ...http(t('bearer-env', 'SHIP_TOKEN')),
      ...http(t('bearer-env', 'SHIP_TOKEN'), t('name', 'again')),
      t('server', 'stdio'),
      t('command', 'node'),
    ]);
    expect(bearerEnvSecrets(servers, { SHIP_TOKEN: 'tok-ship-5a6b7c8d' })).toEqual({
      names: ['SHIP_TOKEN'],
      values: ['tok-ship-5a6b7c8d', 'tok-ship-5a6b7c8d'],
    });
    expect(bearerEnvSecrets(buildServerGroups(http()), {})).toEqual({ names: [], values: [] });
  });

  test.each([
    ['unset', {}],
    ['empty', { SHIP_TOKEN: ' ' }],
  ])('an %s variable is a usage error naming it and how to set it', (_label, env: NodeJS.ProcessEnv) => {
    const servers = buildServerGroups(http(t('bearer-env', 'SHIP_TOKEN'), t('name', 'ship')));
    expect(() => bearerEnvSecrets(servers, env)).toThrow(UsageError);
    expect(() => bearerEnvSecrets(servers, env)).toThrow(
      '--bearer-env: SHIP_TOKEN (the bearer token of server "ship") is not set: ' +
        'export SHIP_TOKEN=<token> or put it in the --env-file',
    );
  });

  test('a token of several lines is refused without echoing it', () => {
    const servers = buildServerGroups(http(t('bearer-env', 'SHIP_TOKEN')));
    const read = () => bearerEnvSecrets(servers, { SHIP_TOKEN: 'tok-line-1\r\nX-Injected: 1' });
    expect(read).toThrow('--bearer-env: SHIP_TOKEN holds more than one line');
    expect(read).not.toThrow(/tok-line|Injected/);
  });

  test.each<[string, ServerToken[], string]>([
    [
      'a token instead of a variable name (never echoed)',
      http(t('bearer-env', 'Bearer tok-literal-9f8e')),
      '--bearer-env: takes the name of the environment variable holding the token',
    ],
    [
      'an Authorization header besides',
      http(t('header', 'Authorization=Bearer x'), t('bearer-env', 'SHIP_TOKEN')),
      '--bearer-env: and --header Authorization=… both authenticate one server: give one of them',
    ],
    [
      'a stdio group',
      [t('server', 'stdio'), t('command', 'node'), t('bearer-env', 'X')],
      '--bearer-env: does not apply to --server stdio',
    ],
    [
      'two in one group',
      http(t('bearer-env', 'A_TOKEN'), t('bearer-env', 'B_TOKEN')),
      '--bearer-env: is given twice in one --server http group',
    ],
  ])('rejects %s', (_label, tokens, message) => {
    expect(() => buildServerGroups(tokens)).toThrow(UsageError);
    expect(() => buildServerGroups(tokens)).toThrow(message);
    expect(() => buildServerGroups(tokens)).not.toThrow(/tok-literal/);
  });
});
