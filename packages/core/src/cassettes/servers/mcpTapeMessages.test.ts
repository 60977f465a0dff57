import { Redactor } from '../../redaction/Redactor';
import { VolatileStrings } from '../VolatileStrings';
import {
  describeTapeRequest,
  isRequestMessage,
  isResponseMessage,
  messagesOfTapeResponse,
  tapeRequestOf,
  tapeResponseOf,
} from './mcpTapeMessages';

const CANARY = 'canary-7d1c0f9e2b';

describe('MCP messages on a cassette tape', () => {
  test('a request is its method and params: no id, no _meta, keys sorted, volatile strings and secrets replaced', () => {
    const redactor = new Redactor([CANARY]);
    const request = tapeRequestOf(
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'read',
          _meta: { progressToken: 12 },
          arguments: { z: 1, path: '/tmp/run-41/a.txt', token: CANARY, a: { y: 2, x: 1 } },
        },
      },
      redactor,
      new VolatileStrings(['/tmp/run-41']),
    );
    expect(request).toEqual({
      method: 'JSONRPC',
      path: 'tools/call',
      headers: {},
      body: { arguments: { a: { x: 1, y: 2 }, path: '<volatile:1>/a.txt', token: '[REDACTED]', z: 1 }, name: 'read' },
    });
    expect(JSON.stringify(request)).toBe(
      JSON.stringify(
        tapeRequestOf(
          {
            jsonrpc: '2.0',
            id: 'other-id',
            method: 'tools/call',
            params: { arguments: { a: { x: 1, y: 2 }, token: CANARY, z: 1, path: '/tmp/run-41/a.txt' }, name: 'read' },
          },
          redactor,
          new VolatileStrings(['/tmp/run-41']),
        ),
      ),
    );
    expect(tapeRequestOf({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, redactor).body).toBeNull();
  });

  test('an answer keeps result or error and what the server sent before it, without the id; replay gives the agent’s id back', () => {
    const redactor = new Redactor([CANARY]);
    const progress = {
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progress: 1, progressToken: 3 },
    };
    const response = tapeResponseOf(
      { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: `hello ${CANARY}` }] } },
      [progress],
      redactor,
    );
    expect(response).toEqual({
      status: 200,
      headers: {},
      body: {
        before: [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1, progressToken: 3 } }],
        result: { content: [{ text: 'hello [REDACTED]', type: 'text' }] },
      },
    });
    expect(messagesOfTapeResponse(response, 'agent-5')).toEqual([
      progress,
      { jsonrpc: '2.0', id: 'agent-5', result: { content: [{ text: 'hello [REDACTED]', type: 'text' }] } },
    ]);
    const error = tapeResponseOf({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } }, [], redactor);
    expect(error.body).toEqual({ error: { code: -32602, message: 'bad' } });
    expect(messagesOfTapeResponse(error, 4)).toEqual([
      { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } },
    ]);
    expect(messagesOfTapeResponse({ status: 200, headers: {}, body: { choices: [] } }, 1)).toBeNull();
  });

  test('an answer naming this run’s folders is written with placeholders and replayed with the next run’s folders', () => {
    const redactor = new Redactor();
    const recorded = tapeResponseOf(
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'wrote /tmp/run-41/out.txt' }] } },
      [],
      redactor,
      new VolatileStrings(['/tmp/run-41']),
    );
    expect(JSON.stringify(recorded)).not.toContain('/tmp/run-41');
    expect(messagesOfTapeResponse(recorded, 2, new VolatileStrings(['/tmp/run-42']))).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ text: 'wrote /tmp/run-42/out.txt', type: 'text' }] } },
    ]);
  });

  test('classifies messages and describes requests for messages', () => {
    expect(isRequestMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(true);
    expect(isRequestMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(false);
    expect(isResponseMessage({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(isResponseMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(false);
    const request = (path: string, body: unknown) => ({ method: 'JSONRPC', path, headers: {}, body: body as null });
    expect(describeTapeRequest(request('tools/call', { name: 'add_tool' }))).toBe('tools/call add_tool');
    expect(describeTapeRequest(request('resources/read', { uri: 'file:///a' }))).toBe('resources/read file:///a');
    expect(describeTapeRequest(request('tools/list', null))).toBe('tools/list');
  });
});
