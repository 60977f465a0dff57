import { readCodexConfig } from './__fixtures__/fakeCodexConfig';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelValidationError } from '../../errors';
import { CODEX_FEATURES_OFF, codexConfigToml, tomlString } from './codexConfig';

const stdio = {
  name: 'shipping',
  command: '/usr/bin/node',
  args: ['/tmp/proxy.js', '--config', '/tmp/m3 "cfg".json'],
  env: [{ name: 'M3_PROXY', value: '1' }],
};
const http = { type: 'http' as const, name: 'docs-1', url: 'http://127.0.0.1:4100/mcp', headers: [] };

/** Parses what the harness wrote (the fixture's reader refuses anything it cannot read). */
function parsed(toml: string): Record<string, any> {
  const dir = mkdtempSync(join(tmpdir(), 'm3-codex-config-'));
  try {
    writeFileSync(join(dir, 'config.toml'), toml);
    return readCodexConfig(join(dir, 'config.toml'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('codexConfigToml', () => {
  const base = { model: 'gpt-5.6-sol', baseUrl: 'http://127.0.0.1:4000/v1', apiKeyEnv: 'OPENAI_API_KEY' };

  it('points Codex at the m3 Responses provider with retries off and the key by variable name only', () => {
    const config = parsed(codexConfigToml({ ...base, servers: [], tools: [] }));
    expect(config).toMatchObject({
      model: 'gpt-5.6-sol',
      model_provider: 'm3',
      check_for_update_on_startup: false,
      sandbox_mode: 'read-only',
      approval_policy: 'never',
      web_search: 'disabled',
      analytics: { enabled: false },
      history: { persistence: 'none' },
      agents: { enabled: false },
      model_providers: {
        m3: {
          base_url: 'http://127.0.0.1:4000/v1',
          wire_api: 'responses',
          env_key: 'OPENAI_API_KEY',
          request_max_retries: 0,
          stream_max_retries: 0,
        },
      },
    });
    for (const feature of CODEX_FEATURES_OFF) expect(config.features[feature]).toBe(false);
    expect(config.features.shell_tool).toBe(false);
    expect(config.features.code_mode_host).toBeUndefined();
  });

  it('omits env_key when there is no key', () => {
    const config = parsed(codexConfigToml({ ...base, apiKeyEnv: undefined, servers: [], tools: [] }));
    expect(config.model_providers.m3.env_key).toBeUndefined();
  });

  it('writes one table per capture proxy with approvals preset and the allow-list of a restricted server', () => {
    const toml = codexConfigToml({
      ...base,
      servers: [stdio, http],
      tools: [
        { server: 'shipping', tools: ['quote'] },
        { server: 'docs-1', tools: 'all' },
      ],
    });
    const config = parsed(toml);
    expect(config.mcp_servers.shipping).toEqual({
      command: '/usr/bin/node',
      args: stdio.args,
      env: { M3_PROXY: '1' },
      required: true,
      startup_timeout_sec: 30,
      default_tools_approval_mode: 'approve',
      enabled_tools: ['quote'],
    });
    expect(config.mcp_servers['docs-1']).toEqual({
      url: 'http://127.0.0.1:4100/mcp',
      required: true,
      startup_timeout_sec: 30,
      default_tools_approval_mode: 'approve',
    });
    const none = parsed(codexConfigToml({ ...base, servers: [stdio], tools: [{ server: 'shipping', tools: [] }] }));
    expect(none.mcp_servers.shipping.enabled_tools).toEqual([]);
  });

  it('refuses a server name Codex cannot take, naming the fix', () => {
    expect(() => codexConfigToml({ ...base, servers: [{ ...stdio, name: 'ship ping' }], tools: [] })).toThrow(
      ModelValidationError,
    );
    expect(() => codexConfigToml({ ...base, servers: [{ ...stdio, name: 'ship ping' }], tools: [] })).toThrow(
      /letters, digits/,
    );
  });

  it('escapes strings as TOML basic strings', () => {
    expect(tomlString('a"b\\c\nd\u0001\u007f')).toBe('"a\\"b\\\\c\\nd\\u0001\\u007F"');
  });
});
