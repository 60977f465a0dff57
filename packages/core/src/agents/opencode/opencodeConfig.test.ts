import { ModelValidationError } from '../../errors';
import { opencodeConfig, opencodeToolMap, parseOpencodeModel } from './opencodeConfig';

describe('opencodeConfig', () => {
  it('splits provider/model at the first slash and rejects names without both halves', () => {
    expect(parseOpencodeModel('opencode/big-pickle')).toEqual({ providerID: 'opencode', modelID: 'big-pickle' });
    expect(parseOpencodeModel('openrouter/meta/llama-4')).toEqual({
      providerID: 'openrouter',
      modelID: 'meta/llama-4',
    });
    for (const bad of ['big-pickle', '/x', 'x/']) {
      expect(() => parseOpencodeModel(bad)).toThrow(ModelValidationError);
    }
  });

  it("turns every tool off, then each server's allowed tools on, shorter server names first", () => {
    expect(
      opencodeToolMap([
        { server: 'shop_eu', tools: [] },
        { server: 'shop', tools: 'all' },
        { server: 'math', tools: ['add', 'mul'] },
      ]),
    ).toEqual({ '*': false, 'shop_*': true, 'math_*': false, math_add: true, math_mul: true, 'shop_eu_*': false });
    expect(
      Object.keys(
        opencodeToolMap([
          { server: 'shop_eu', tools: [] },
          { server: 'shop', tools: 'all' },
        ]),
      ),
    ).toEqual(['*', 'shop_*', 'shop_eu_*']);
  });

  it('points the provider at baseUrl with the key as {env:NAME}, and lists local and remote MCP servers', () => {
    const config = opencodeConfig({
      model: { providerID: 'm3', modelID: 'fake' },
      baseUrl: 'http://127.0.0.1:4000/v1',
      apiKeyEnv: 'OPENCODE_API_KEY',
      servers: [
        {
          name: 'example',
          command: '/usr/bin/node',
          args: ['proxy.js', '--config', '/tmp/c'],
          env: [{ name: 'A', value: '1' }],
        },
        { type: 'http', name: 'remote', url: 'http://127.0.0.1:5000/mcp', headers: [{ name: 'x-id', value: 'r' }] },
      ],
      tools: [
        { server: 'example', tools: 'all' },
        { server: 'remote', tools: ['ping'] },
      ],
    });
    expect(config).toMatchObject({
      autoupdate: false,
      share: 'disabled',
      snapshot: false,
      lsp: false,
      model: 'm3/fake',
    });
    expect(config.provider).toEqual({
      m3: {
        npm: '@ai-sdk/openai-compatible',
        name: 'm3',
        options: { baseURL: 'http://127.0.0.1:4000/v1', apiKey: '{env:OPENCODE_API_KEY}' },
        models: { fake: { name: 'fake', tool_call: true } },
      },
    });
    expect(config.mcp).toEqual({
      example: {
        type: 'local',
        command: ['/usr/bin/node', 'proxy.js', '--config', '/tmp/c'],
        environment: { A: '1' },
        enabled: true,
      },
      remote: {
        type: 'remote',
        url: 'http://127.0.0.1:5000/mcp',
        headers: { 'x-id': 'r' },
        oauth: false,
        enabled: true,
      },
    });
    expect(config.permission).toEqual({ '*': 'deny', 'example_*': 'allow', 'remote_*': 'deny', remote_ping: 'allow' });
  });

  it("keeps the provider's own endpoint without a baseUrl", () => {
    const config = opencodeConfig({
      model: { providerID: 'opencode', modelID: 'big-pickle' },
      baseUrl: undefined,
      apiKeyEnv: 'OPENCODE_API_KEY',
      servers: [],
      tools: [],
    });
    expect(config.provider).toEqual({});
    expect(config.tools).toEqual({ '*': false });
  });
});
