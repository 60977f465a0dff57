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
    const env = jestChildEnv({ PATH: '/bin', M3_SERVERS: 'stale' }, options, 'run-abc', ['test', '--trials', '2']);
    expect(env).toEqual({
      PATH: '/bin',
      M3_RESULTS_DB: '/project/.m3/executions.sqlite',
      M3_RUN_ID: 'run-abc',
      M3_ARGV: '["test","--trials","2"]',
      M3_TRIALS: '2',
      M3_EXECUTION_TIMEOUT_MS: '30000',
      M3_HARNESS: JSON.stringify([{ harness: 'acp', models: ['fixture'] }]),
      M3_SERVERS: JSON.stringify([
        { transport: 'stdio', name: 'server', command: 'node', args: ['server.js'], env: {} },
      ]),
    });
  });

  test('leaves optional selections unset', () => {
    const env = jestChildEnv({ M3_TRIALS: '9' }, validateTestOptions({ serverTokens: [] }, '/p'), 'run-x', []);
    expect(Object.keys(env).sort()).toEqual(['M3_ARGV', 'M3_RESULTS_DB', 'M3_RUN_ID']);
  });
});
