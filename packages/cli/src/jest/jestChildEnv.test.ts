import { Redactor } from '@sf-m3/core';
import { validateTestOptions } from '../options/testOptions';
import { jestChildEnv } from './jestChildEnv';
import { redactArgv } from './redactArgv';

describe('redactArgv', () => {
  test('replaces --header and --env values, keeping names, in both spellings', () => {
    const argv = [
      'test',
      '--server',
      'http',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization=Bearer tok-123456',
      '--header=X-Team=blue',
      '--server',
      'stdio',
      '--command',
      'node',
      '--env',
      'PLAIN=visible-but-redacted',
      '--trials',
      '2',
    ];
    expect(redactArgv(argv, new Redactor())).toEqual([
      'test',
      '--server',
      'http',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization=[REDACTED]',
      '--header=X-Team=[REDACTED]',
      '--server',
      'stdio',
      '--command',
      'node',
      '--env',
      'PLAIN=[REDACTED]',
      '--trials',
      '2',
    ]);
  });

  test('--arg values follow the server command-line rules: --token=, --api-key V, Authorization:', () => {
    const argv = [
      'test',
      '--server',
      'stdio',
      '--command',
      'node',
      '--arg',
      'server.js',
      '--arg',
      '--token=short',
      '--arg=--api-key=inline-key-1',
      '--arg',
      '--password',
      '--arg',
      'pw-value',
      '--arg',
      'Authorization: Bearer abc',
      '--arg',
      '--verbose',
      '--',
      '-t',
      'math basic adds',
    ];
    expect(redactArgv(argv, new Redactor())).toEqual([
      'test',
      '--server',
      'stdio',
      '--command',
      'node',
      '--arg',
      'server.js',
      '--arg',
      '--token=[REDACTED]',
      '--arg=--api-key=[REDACTED]',
      '--arg',
      '--password',
      '--arg',
      '[REDACTED]',
      '--arg',
      'Authorization: [REDACTED]',
      '--arg',
      '--verbose',
      '--',
      '-t',
      'math basic adds',
    ]);
  });

  test('redacts canaries anywhere else', () => {
    expect(redactArgv(['--', '--token-in-jest-arg=canary-value-1'], new Redactor(['canary-value-1']))).toEqual([
      '--',
      '--token-in-jest-arg=[REDACTED]',
    ]);
  });
});

describe('jestChildEnv', () => {
  test('sets every M3_ variable from the options and drops stale ones', () => {
    const options = validateTestOptions(
      {
        trials: '2',
        protocol: ['2025-11-25', '2026-07-28'],
        executionTimeout: '30',
        harness: ['acp=fixture'],
        serverTokens: [
          { flag: 'server', value: 'stdio' },
          { flag: 'command', value: 'node' },
          { flag: 'arg', value: 'server.js' },
        ],
      },
      '/project',
    );
    const env = jestChildEnv({ PATH: '/bin', M3_SERVERS: 'stale', M3_PROTOCOLS: 'stale' }, options, 'run-abc', [
      'test',
      '--trials',
      '2',
    ]);
    expect(env).toEqual({
      PATH: '/bin',
      M3_RESULTS_DB: '/project/.m3/executions.sqlite',
      M3_RUN_ID: 'run-abc',
      M3_ARGV: '["test","--trials","2"]',
      M3_CLI_PID: String(process.pid),
      M3_TRIALS: '2',
      M3_PROTOCOLS: '["2025-11-25","2026-07-28"]',
      M3_EXECUTION_TIMEOUT_MS: '30000',
      M3_HARNESS: JSON.stringify([{ harness: 'acp', models: ['fixture'] }]),
      M3_SERVERS: JSON.stringify([
        { transport: 'stdio', name: 'server', command: 'node', args: ['server.js'], env: {} },
      ]),
    });
  });

  test('names (never values) of the --env-file secrets travel in M3_SECRET_ENV_NAMES', () => {
    const options = validateTestOptions({ serverTokens: [] }, '/p');
    const env = jestChildEnv(
      { SERVICE_API_KEY: 'svc-1a2b3c4d', M3_SECRET_ENV_NAMES: 'STALE' },
      options,
      'run-x',
      [],
      ['SERVICE_API_KEY', 'DB_PASSWORD'],
    );
    expect(env.M3_SECRET_ENV_NAMES).toBe('SERVICE_API_KEY,DB_PASSWORD');
    expect(jestChildEnv({ M3_SECRET_ENV_NAMES: 'STALE' }, options, 'run-x', []).M3_SECRET_ENV_NAMES).toBeUndefined();
  });

  test('--seed travels as M3_FUZZ_SEED for describe.m3.fuzz; without it a stale one is dropped', () => {
    const seeded = validateTestOptions({ serverTokens: [], seed: '1234' }, '/p');
    expect(jestChildEnv({}, seeded, 'run-x', []).M3_FUZZ_SEED).toBe('1234');
    const plain = validateTestOptions({ serverTokens: [] }, '/p');
    expect(jestChildEnv({ M3_FUZZ_SEED: '9' }, plain, 'run-x', []).M3_FUZZ_SEED).toBeUndefined();
  });

  test('leaves optional selections unset', () => {
    const env = jestChildEnv(
      { M3_TRIALS: '9', M3_PROTOCOLS: '["2026-07-28"]' },
      validateTestOptions({ serverTokens: [] }, '/p'),
      'run-x',
      [],
    );
    expect(Object.keys(env).sort()).toEqual(['M3_ARGV', 'M3_CLI_PID', 'M3_RESULTS_DB', 'M3_RUN_ID']);
  });
});
