import { ModelValidationError } from '../../errors';
import { secretFromEnv } from '../../redaction/SecretRef';
import { resolveNativeSelection, type NativeHarnessDefaults } from './nativeSelection';

const CLAUDE: NativeHarnessDefaults = {
  kind: 'claude_code',
  executable: 'claude',
  npmPackage: '@anthropic-ai/claude-code',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
};

describe('resolveNativeSelection', () => {
  it('fills the defaults of the kind and keeps what the selection gives', () => {
    const resolved = resolveNativeSelection(
      {
        harness: 'claude_code',
        models: ['sonnet', 'haiku'],
        executable: '/opt/claude/cli.js',
        baseUrl: 'http://127.0.0.1:4010/',
        env: { TOKEN: secretFromEnv('M3_NATIVE_TOKEN'), PLAIN: 'x' },
        args: ['--verbose'],
      },
      CLAUDE,
    );
    expect(resolved).toEqual({
      kind: 'claude_code',
      models: ['sonnet', 'haiku'],
      name: undefined,
      executable: '/opt/claude/cli.js',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      baseUrl: 'http://127.0.0.1:4010',
      env: { TOKEN: { kind: 'secret_ref', env: 'M3_NATIVE_TOKEN' }, PLAIN: 'x' },
      args: ['--verbose'],
    });
  });

  it('takes one model, a name and another key variable', () => {
    const resolved = resolveNativeSelection(
      { harness: 'claude_code', model: 'sonnet', name: 'careful', apiKeyEnv: 'MY_KEY' },
      CLAUDE,
    );
    expect([resolved.models, resolved.name, resolved.apiKeyEnv]).toEqual([['sonnet'], 'careful', 'MY_KEY']);
  });

  it.each([
    [{ models: ['m'], manifest: {} }, "claude_code agent selection: field 'manifest' is unknown"],
    [{ model: 'a', models: ['b'] }, "give 'model' or 'models', not both"],
    [{}, "needs models: ['<model>', ...]"],
    [{ models: [''] }, 'needs models'],
    [{ models: ['m'], executable: '' }, 'executable must be a path'],
    [{ models: ['m'], apiKeyEnv: 'not a name' }, 'apiKeyEnv must name an environment variable'],
    [{ models: ['m'], baseUrl: 'http://models.example.com/v1' }, 'plain http only for loopback hosts'],
    [{ models: ['m'], baseUrl: 'https://user:pw@models.example.com' }, 'must not carry credentials'],
    [{ models: ['m'], env: { 'BAD NAME': 'x' } }, "env name 'BAD NAME' is not a valid variable name"],
    [{ models: ['m'], env: { A: 1 } }, "env.A must be a string or secretFromEnv('NAME')"],
    [{ models: ['m'], args: ['--ok', 2] }, 'args must be a list of strings'],
  ])('rejects %j naming the fix', (fields, message) => {
    const attempt = () => resolveNativeSelection({ harness: 'claude_code', ...fields }, CLAUDE);
    expect(attempt).toThrow(ModelValidationError);
    expect(attempt).toThrow(message);
  });
});
