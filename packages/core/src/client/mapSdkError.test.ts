import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ModelValidationError, OperationCancelled, OperationTimeout, ProtocolError, TransportError } from '../errors';
import { Redactor } from '../redaction/Redactor';
import { mapSdkError } from './mapSdkError';

const redactor = new Redactor(['sekret-canary-value']);
const context = { operation: 'tools/call', timeoutMs: 250, redactor, cancelled: false };

describe('mapSdkError', () => {
  test('a JSON-RPC error becomes ProtocolError with the code and a redacted, bounded server message', () => {
    const error = mapSdkError(new McpError(-32602, `bad sekret-canary-value ${'x'.repeat(1000)}`), context);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.details).toMatchObject({ protocolCode: -32602, operation: 'tools/call', errorKind: 'mcp_protocol' });
    expect(error.message).toContain('JSON-RPC error -32602');
    expect(error.message).not.toContain('sekret-canary-value');
    expect(error.message.length).toBeLessThan(500);
  });

  test('the SDK request timeout becomes OperationTimeout naming the timeout', () => {
    const error = mapSdkError(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 250 }), context);
    expect(error).toBeInstanceOf(OperationTimeout);
    expect(error.details).toEqual({ operation: 'tools/call', timeoutMs: 250 });
  });

  test('a closed connection becomes TransportError', () => {
    expect(mapSdkError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), context)).toBeInstanceOf(
      TransportError,
    );
    expect(mapSdkError(new Error('Not connected'), context)).toBeInstanceOf(TransportError);
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(mapSdkError(refused, context)).toBeInstanceOf(TransportError);
  });

  test('anything thrown while the client closes is OperationCancelled', () => {
    const error = mapSdkError(new McpError(ErrorCode.RequestTimeout, 'aborted'), { ...context, cancelled: true });
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(error.details).toMatchObject({ cause: 'client_close' });
  });

  test('a result that fails the SDK schema is a malformed-response ProtocolError without values', () => {
    const parsed = z.object({ tools: z.array(z.string()) }).safeParse({ tools: 'sekret-canary-value' });
    const error = mapSdkError(parsed.error, context);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.details).toMatchObject({ errorKind: 'malformed_response', paths: ['tools'] });
    expect(JSON.stringify(error.details)).not.toContain('sekret');
  });

  test('our own errors pass through; unknown ones become a client-exception ProtocolError', () => {
    const own = new ModelValidationError('nope');
    expect(mapSdkError(own, context)).toBe(own);
    const odd = mapSdkError(new RangeError('weird sekret-canary-value'), context);
    expect(odd).toBeInstanceOf(ProtocolError);
    expect(odd.details).toMatchObject({ errorKind: 'client_exception', exceptionType: 'RangeError' });
    expect(odd.message).not.toContain('sekret-canary-value');
  });
});
