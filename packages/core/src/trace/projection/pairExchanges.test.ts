import { TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import { pairExchanges } from './pairExchanges';

describe('pairExchanges', () => {
  it('pairs repeated ids first come, first served, and ignores the wrong direction', () => {
    const b = new TraceEventListBuilder();
    const on = { connectionId: 'c' };
    const r1 = b.add('mcp.request', { ...on, jsonrpcId: 1, direction: 'client_to_server', payload: { method: 'a' } });
    // A server-to-client request reusing id 1 is a different exchange.
    const s1 = b.add('mcp.request', {
      ...on,
      jsonrpcId: 1,
      direction: 'server_to_client',
      payload: { method: 'roots/list' },
    });
    const r2 = b.add('mcp.request', { ...on, jsonrpcId: 1, direction: 'client_to_server', payload: { method: 'b' } });
    const a1 = b.add('mcp.response', { ...on, jsonrpcId: 1, direction: 'server_to_client', payload: { result: {} } });
    const sa = b.add('mcp.response', {
      ...on,
      jsonrpcId: 1,
      direction: 'client_to_server',
      payload: { result: { roots: [] } },
    });
    const a2 = b.add('mcp.response', { ...on, jsonrpcId: 1, direction: 'server_to_client', payload: { result: {} } });
    const { exchanges, unmatchedResponses } = pairExchanges(b.events);
    expect(exchanges.map((x) => [x.request, x.response])).toEqual([
      [r1, a1],
      [s1, sa],
      [r2, a2],
    ]);
    expect(unmatchedResponses).toEqual([]);
  });

  it('keeps string and number ids apart', () => {
    const b = new TraceEventListBuilder();
    b.add('mcp.request', { jsonrpcId: '1', direction: 'client_to_server', payload: { method: 'a' } });
    const answer = b.add('mcp.response', { jsonrpcId: 1, direction: 'server_to_client', payload: { result: {} } });
    const { exchanges, unmatchedResponses } = pairExchanges(b.events);
    expect(exchanges[0]!.response).toBeUndefined();
    expect(unmatchedResponses).toEqual([answer]);
  });

  it('ends a request with a terminal diagnostic, and a late response does not change that', () => {
    const b = new TraceEventListBuilder();
    b.add('mcp.request', { jsonrpcId: 3, direction: 'client_to_server', payload: { method: 'ping' } });
    const diagnostic = b.add('diagnostic', { jsonrpcId: 3, payload: { code: 'transport_closed', message: 'gone' } });
    b.add('diagnostic', { jsonrpcId: 3, payload: { code: 'something_else', message: 'ignored' } });
    const late = b.add('mcp.response', { jsonrpcId: 3, direction: 'server_to_client', payload: { result: {} } });
    const [exchange] = pairExchanges(b.events).exchanges;
    expect(exchange).toMatchObject({ terminal: diagnostic, terminalStatus: 'transport_error', response: late });
  });

  it('does not pair agent-reported events', () => {
    const b = new TraceEventListBuilder();
    b.add('tool.call_requested', {
      origin: 'harness_reported',
      payload: { method: 'tools/call', params: { name: 'x' } },
    });
    expect(pairExchanges(b.events).exchanges).toEqual([]);
  });
});
