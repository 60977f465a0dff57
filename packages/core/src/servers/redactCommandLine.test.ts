import { secretFromEnv } from '../redaction/SecretRef';
import { redactCommandLine } from './redactCommandLine';
import { StdioServer } from './StdioServer';

const ARG_SECRET_ENV = 'M3_TEST_STDIO_ARG_SECRET';

describe('StdioServer toJSON and describe never print a secret-looking argument', () => {
  const secrets = [
    'sk-live-abcdef123456',
    'tok-value-987654',
    'query-token-abc123',
    'bearer-value-xyz12345',
    'header-key-value-1',
    'pw-secret-value-1',
    'envstyle-secret-1',
    'hunter2-long-value',
    'from-secret-ref-42',
  ];
  const server = () =>
    new StdioServer({
      name: 'leaky',
      command: 'node',
      args: [
        'server.js',
        '--api-key=sk-live-abcdef123456',
        '--token',
        'tok-value-987654',
        '--url',
        'https://mcp.example.com/mcp?tenant=a&access_token=query-token-abc123',
        '--header',
        'Authorization: Bearer bearer-value-xyz12345',
        '--header',
        'X-Api-Key: header-key-value-1',
        '-password=pw-secret-value-1',
        'API_TOKEN=envstyle-secret-1',
        '--dsn',
        'postgres://app:hunter2-long-value@db.internal/app',
        '--conn=hunter2-long-value',
        '--from-ref',
        'prefix:from-secret-ref-42',
        '--verbose',
      ],
      env: { DB_PASSWORD: 'hunter2-long-value', REMOTE: secretFromEnv(ARG_SECRET_ENV), MODE: 'test' },
    });

  beforeEach(() => {
    process.env[ARG_SECRET_ENV] = 'from-secret-ref-42';
  });
  afterEach(() => {
    delete process.env[ARG_SECRET_ENV];
  });

  test('every secret is replaced and the rest of the command line stays readable', () => {
    const json = server().toJSON();
    const printed = JSON.stringify([json, server().describe(), String(JSON.stringify(server()))]);
    for (const secret of secrets) expect(printed).not.toContain(secret);
    expect(json.args).toEqual([
      'server.js',
      '--api-key=[REDACTED]',
      '--token',
      '[REDACTED]',
      '--url',
      'https://mcp.example.com/mcp?tenant=a&access_token=[REDACTED]',
      '--header',
      'Authorization: [REDACTED]',
      '--header',
      'X-Api-Key: [REDACTED]',
      '-password=[REDACTED]',
      'API_TOKEN=[REDACTED]',
      '--dsn',
      'postgres://[REDACTED]@db.internal/app',
      '--conn=[REDACTED]',
      '--from-ref',
      'prefix:[REDACTED]',
      '--verbose',
    ]);
    expect(json.env).toEqual({
      DB_PASSWORD: '[REDACTED]',
      REMOTE: { kind: 'secret_ref', env: ARG_SECRET_ENV },
      MODE: 'test',
    });
    // The definition itself is untouched: the child still gets the real arguments.
    expect(server().args).toContain('--api-key=sk-live-abcdef123456');
  });

  test('a flag is kept when what follows it is another flag', () => {
    expect(redactCommandLine(['--token', '--verbose', 'file.txt'], [])).toEqual(['--token', '--verbose', 'file.txt']);
    expect(redactCommandLine(['--secret-flag'], [])).toEqual(['--secret-flag']);
    expect(redactCommandLine(['--port', '8080', 'mode=fast'], [])).toEqual(['--port', '8080', 'mode=fast']);
  });
});
