import { WireEraTracker, type EraObservation } from './WireEraTracker';

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const request = (id: number, method: string, params: Record<string, unknown> = {}): EraObservation => ({
  kind: method === 'tools/call' ? 'tool.call_requested' : 'mcp.request',
  direction: 'client_to_server',
  method,
  message: { jsonrpc: '2.0', id, method, params },
});
const answer = (id: number, method: string, result: Record<string, unknown>): EraObservation => ({
  kind: 'mcp.response',
  direction: 'server_to_client',
  method,
  message: { jsonrpc: '2.0', id, result },
});
const refusal = (id: number, method: string, error: Record<string, unknown>): EraObservation => ({
  kind: 'mcp.error',
  direction: 'server_to_client',
  method,
  message: { jsonrpc: '2.0', id, error },
});

describe('WireEraTracker', () => {
  test('a 2025 handshake: legacy at the revision the server answered, reported once', () => {
    const t = new WireEraTracker('shop');
    expect(t.observe(request(1, 'initialize', { protocolVersion: '2025-11-25' }))).toEqual({});
    const found = t.observe(
      answer(1, 'initialize', {
        protocolVersion: '2025-06-18',
        serverInfo: { name: 's', version: '1' },
        capabilities: { tools: {} },
        instructions: 'hi',
      }),
    );
    expect(found.initialized).toEqual({
      protocolVersion: '2025-06-18',
      era: 'legacy',
      serverInfo: { name: 's', version: '1' },
      capabilities: { tools: {} },
      instructions: 'hi',
    });
    expect(t.observe(request(2, 'tools/list'))).toEqual({});
    expect(t.observe(answer(2, 'tools/list', { tools: [] }))).toEqual({});
  });

  test('2026-07-28: the envelope revision, with server/discover supplying identity and capabilities', () => {
    const t = new WireEraTracker('shop');
    t.observe(request(1, 'server/discover', { _meta: ENVELOPE }));
    const found = t.observe(
      answer(1, 'server/discover', {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'v2', version: '2' } },
      }),
    );
    expect(found.initialized).toEqual({
      protocolVersion: '2026-07-28',
      era: 'modern',
      serverInfo: { name: 'v2', version: '2' },
      capabilities: { tools: {} },
      instructions: null,
    });
    t.observe(request(2, 'tools/call', { name: 'echo', _meta: ENVELOPE }));
    expect(t.observe(answer(2, 'tools/call', { content: [] }))).toEqual({});
  });

  test('a probe a v1 server refuses, then the handshake: legacy, and later answers stay legacy', () => {
    const t = new WireEraTracker('shop');
    t.observe(request(1, 'server/discover', { _meta: ENVELOPE }));
    expect(t.observe(refusal(1, 'server/discover', { code: -32601, message: 'Method not found' }))).toEqual({});
    t.observe(request(2, 'initialize', { protocolVersion: '2025-11-25' }));
    expect(t.observe(answer(2, 'initialize', { protocolVersion: '2025-11-25' })).initialized?.era).toBe('legacy');
    t.observe(request(3, 'tools/list'));
    expect(t.observe(answer(3, 'tools/list', { tools: [] }))).toEqual({});
  });

  test('a 2025 initialize refused with -32022 is an era_mismatch naming both sides and the fix', () => {
    const t = new WireEraTracker('shop');
    t.observe(request(1, 'initialize', { protocolVersion: '2025-11-25' }));
    const found = t.observe(
      refusal(1, 'initialize', {
        code: -32022,
        message: 'Unsupported protocol version: 2025-11-25',
        data: { supported: ['2026-07-28'] },
      }),
    );
    expect(found.initialized).toBeUndefined();
    expect(found.mismatch).toMatchObject({
      code: 'era_mismatch',
      requestedProtocolVersion: '2025-11-25',
      offeredProtocolVersions: ['2026-07-28'],
    });
    expect(found.mismatch!.message).toMatch(
      /^the agent's MCP client speaks only the 2025 protocol .* shop serves only 2026-07-28/,
    );
    expect(found.mismatch!.message).toContain(
      'use an agent whose MCP client speaks 2026-07-28, or serve the 2025 era too',
    );
  });

  test('other errors of initialize are not a mismatch', () => {
    const t = new WireEraTracker('shop');
    t.observe(request(1, 'initialize', { protocolVersion: '2025-11-25' }));
    expect(t.observe(refusal(1, 'initialize', { code: -32603, message: 'boom' }))).toEqual({});
  });
});
