import { jsonRpcMessageEvent, openRequests, phaseOfMethod, type PendingRequestMethods } from './jsonRpcMessageEvent';

const context = { server: 'shop', connectionId: 'c1', origin: 'wire_observed' as const };
const c2s = { ...context, direction: 'client_to_server' as const };
const s2c = { ...context, direction: 'server_to_client' as const };

describe('jsonRpcMessageEvent', () => {
  test('maps requests by method and names responses after their request', () => {
    const pending: PendingRequestMethods = new Map();
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'quote', arguments: { kg: 2 } } };
    const request = jsonRpcMessageEvent(call, JSON.stringify(call), { ...c2s, turnId: 't1', sessionId: 's1' }, pending);
    expect(request.kind).toBe('tool.call_requested');
    expect(request.fields).toMatchObject({
      origin: 'wire_observed',
      server: 'shop',
      connectionId: 'c1',
      direction: 'client_to_server',
      jsonrpcId: 3,
      phase: 'mcp_call',
      payload: { method: 'tools/call', params: call.params },
      preRedacted: true,
      raw: JSON.stringify(call),
      rawSource: 'mcp',
      rawRedacted: false,
      sessionId: 's1',
      turnId: 't1',
    });
    const result = { jsonrpc: '2.0', id: 3, result: { content: [] } };
    const response = jsonRpcMessageEvent(result, JSON.stringify(result), s2c, pending);
    expect([response.kind, response.fields.payload]).toEqual([
      'tool.result_received',
      { method: 'tools/call', result: { content: [] } },
    ]);
    expect(pending.size).toBe(0);
    // The same id again has no open request: the response is named 'unknown'.
    expect(jsonRpcMessageEvent(result, '', s2c, pending)).toMatchObject({
      kind: 'mcp.response',
      fields: { payload: { method: 'unknown' } },
    });
  });

  test('keeps ids typed and per direction: a server request with the same number pairs separately', () => {
    const pending: PendingRequestMethods = new Map();
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: '7', method: 'resources/read' }, '', c2s, pending);
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} }, '', s2c, pending);
    const samplingAnswer = jsonRpcMessageEvent({ jsonrpc: '2.0', id: 7, result: {} }, '', c2s, pending);
    expect([samplingAnswer.kind, samplingAnswer.fields.payload]).toEqual([
      'sampling.response',
      { method: 'sampling/createMessage', result: {} },
    ]);
    const error = jsonRpcMessageEvent(
      { jsonrpc: '2.0', id: '7', error: { code: -32002, message: 'not found' } },
      '',
      s2c,
      pending,
    );
    expect([error.kind, error.fields.phase, error.fields.payload]).toEqual([
      'mcp.error',
      'mcp_call',
      { method: 'resources/read', error: { code: -32002, message: 'not found', data: null } },
    ]);
  });

  test('notifications: progress, cancellation and the rest', () => {
    const pending: PendingRequestMethods = new Map();
    const kinds = ['notifications/progress', 'notifications/cancelled', 'notifications/initialized'].map(
      (method) => jsonRpcMessageEvent({ jsonrpc: '2.0', method }, '', c2s, pending).kind,
    );
    expect(kinds).toEqual(['mcp.progress', 'mcp.cancellation_requested', 'mcp.notification']);
    expect(jsonRpcMessageEvent({ jsonrpc: '2.0', method: 'x' }, '', c2s, pending).fields.jsonrpcId).toBeUndefined();
  });

  test('anything else is a malformed_message diagnostic that keeps the frame', () => {
    const pending: PendingRequestMethods = new Map();
    for (const value of [null, 3, [1], { jsonrpc: '2.0', id: 1 }]) {
      const event = jsonRpcMessageEvent(value, JSON.stringify(value), c2s, pending);
      expect(event.kind).toBe('diagnostic');
      expect(event.fields).toMatchObject({
        payload: { code: 'malformed_message' },
        raw: JSON.stringify(value),
        origin: 'wire_observed',
      });
    }
  });

  test('marks frames that already carry a redaction', () => {
    const frame = '{"jsonrpc":"2.0","method":"x","params":{"t":"[REDACTED]"}}';
    const event = jsonRpcMessageEvent(JSON.parse(frame), frame, c2s, new Map());
    expect(event.fields.rawRedacted).toBe(true);
  });

  test('phases', () => {
    expect(['initialize', 'tools/list', 'ping', undefined].map(phaseOfMethod)).toEqual([
      'initialization',
      'mcp_call',
      'idle',
      'idle',
    ]);
  });
});

describe('openRequests', () => {
  test('lists unanswered requests of one direction with their typed ids', () => {
    const pending: PendingRequestMethods = new Map();
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: 1, method: 'tools/call' }, '', c2s, pending);
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: 'a|b', method: 'ping' }, '', c2s, pending);
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, '', c2s, pending);
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: 2, result: {} }, '', s2c, pending);
    jsonRpcMessageEvent({ jsonrpc: '2.0', id: 5, method: 'roots/list' }, '', s2c, pending);
    expect(openRequests(pending, 'client_to_server')).toEqual([
      { id: 1, method: 'tools/call' },
      { id: 'a|b', method: 'ping' },
    ]);
    expect(openRequests(pending, 'server_to_client')).toEqual([{ id: 5, method: 'roots/list' }]);
  });
});
