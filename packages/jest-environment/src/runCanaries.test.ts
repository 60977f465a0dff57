import { runCanaries, secretEnvNames, selectionCanaries } from './runCanaries';

describe('runCanaries', () => {
  test('M3_SECRET_ENV_NAMES names the --env-file secrets; values come from the env itself', () => {
    const env = {
      M3_SECRET_ENV_NAMES: 'SERVICE_API_KEY, AUTH_MODE,bad name',
      SERVICE_API_KEY: 'svc-4a5b6c7d',
      AUTH_MODE: 'basic',
      OTHER_TOKEN: 'other-8e9f0a1b',
      PLAIN: 'plain-2c3d4e5f',
    };
    expect(secretEnvNames(env)).toEqual(['SERVICE_API_KEY', 'AUTH_MODE']);
    // `basic` is a word, not a credential: it never becomes a canary.
    expect(runCanaries(env, null).sort()).toEqual(['other-8e9f0a1b', 'svc-4a5b6c7d']);
  });

  test('the CLI server selections: secret headers and env values, Bearer tokens, --token= arguments', () => {
    const servers = [
      {
        transport: 'http',
        name: 'h',
        url: 'http://127.0.0.1:1/mcp',
        headers: { Authorization: 'Bearer hdr-1a2b3c4d', Accept: 'x/y' },
      },
      {
        transport: 'stdio',
        name: 's',
        command: 'node',
        args: ['server.js', '--token=arg-5e6f7a8b', '--api-key', 'arg-9c0d1e2f'],
        env: { API_SECRET: 'env-3a4b5c6d', MODE: 'fast-mode-1' },
      },
      'not a selection',
    ];
    expect(selectionCanaries(servers).sort()).toEqual(
      ['Bearer hdr-1a2b3c4d', 'arg-5e6f7a8b', 'arg-9c0d1e2f', 'env-3a4b5c6d', 'hdr-1a2b3c4d'].sort(),
    );
  });
});
