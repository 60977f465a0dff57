import type { ResolvedNativeSelection } from '../native/nativeSelection';
import {
  claudeAllowedTools,
  claudeApiKey,
  claudeMcpConfig,
  claudeServerKeys,
  LOOPBACK_PLACEHOLDER_KEY,
} from './claudeCodeLaunch';

const selection = (baseUrl?: string): ResolvedNativeSelection => ({
  kind: 'claude_code',
  models: ['sonnet'],
  name: undefined,
  executable: undefined,
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  baseUrl,
  env: {},
  args: [],
});

describe('claude_code launch pieces', () => {
  it('names servers as Claude Code writes them in tool names, and refuses two that would clash', () => {
    expect([...claudeServerKeys(['shop', 'my.server', 'a-b'])]).toEqual([
      ['shop', 'shop'],
      ['my.server', 'my_server'],
      ['a-b', 'a-b'],
    ]);
    expect(() => claudeServerKeys(['my.server', 'my_server'])).toThrow(/both appear to Claude Code as 'my_server'/);
  });

  it('turns the tool policy into --allowedTools entries: a server wildcard, exact tools, nothing for none', () => {
    const keys = claudeServerKeys(['shop', 'my.server', 'locked']);
    const allowed = claudeAllowedTools(
      [
        { server: 'shop', tools: 'all' },
        { server: 'my.server', tools: ['quote', 'get'] },
        { server: 'locked', tools: [] },
      ],
      keys,
    );
    expect(allowed).toEqual(['mcp__shop__*', 'mcp__my_server__quote', 'mcp__my_server__get']);
  });

  it('writes stdio and http descriptors in the --mcp-config shape', () => {
    const config = claudeMcpConfig(
      [
        { name: 'shop', command: '/usr/bin/node', args: ['proxy.js'], env: [{ name: 'K', value: 'v' }] },
        { type: 'http', name: 'my.server', url: 'http://127.0.0.1:5/mcp', headers: [{ name: 'X-A', value: 'b' }] },
      ],
      claudeServerKeys(['shop', 'my.server']),
    );
    expect(config).toEqual({
      mcpServers: {
        shop: { type: 'stdio', command: '/usr/bin/node', args: ['proxy.js'], env: { K: 'v' } },
        my_server: { type: 'http', url: 'http://127.0.0.1:5/mcp', headers: { 'X-A': 'b' } },
      },
    });
  });

  it("uses the kit's key, a placeholder only for a loopback endpoint, and otherwise says which variable to set", () => {
    expect(claudeApiKey(selection(), 'sk-real')).toBe('sk-real');
    expect(claudeApiKey(selection('http://127.0.0.1:8080'), undefined)).toBe(LOOPBACK_PLACEHOLDER_KEY);
    expect(claudeApiKey(selection('http://localhost:8080'), undefined)).toBe(LOOPBACK_PLACEHOLDER_KEY);
    expect(() => claudeApiKey(selection(), undefined)).toThrow(/needs the model API key in ANTHROPIC_API_KEY/);
    expect(() => claudeApiKey(selection('https://models.example.com'), undefined)).toThrow(/export it/);
  });
});
