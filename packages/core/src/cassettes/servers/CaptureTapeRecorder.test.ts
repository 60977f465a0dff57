import { readFileSync } from 'node:fs';
import type { CaptureFrameRecord, CaptureRecord } from '../../proxy/CaptureFile';
import { Redactor } from '../../redaction/Redactor';
import { CaptureTapeRecorder } from './CaptureTapeRecorder';
import { McpServerTape } from './McpServerTape';
import { bookIn, cassetteFileIn, testFolder } from './serverCassettes.testkit';

let seq = 0;
/** A frame record as the capture proxy writes it (only the fields the recorder reads matter). */
function frame(
  direction: CaptureFrameRecord['direction'],
  value: unknown,
  extra: Partial<CaptureFrameRecord> = {},
): CaptureRecord {
  const raw = JSON.stringify(value);
  return {
    v: 1,
    seq: seq++,
    time: 0,
    ts: '',
    server: 'files',
    type: 'frame',
    direction,
    origin: direction === 'client_to_server' ? 'client' : 'server',
    format: Array.isArray(value) ? 'batch' : 'json',
    originalSizeBytes: raw.length,
    sizeBytes: raw.length,
    storedBytes: raw.length,
    sha256: '',
    truncated: false,
    redacted: false,
    crlf: false,
    terminated: true,
    raw,
    ...(direction === 'client_to_server' && { forwarded: true }),
    ...extra,
  };
}

const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const answer = (id: number, text: string) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
const denied = (id: number) => ({ id, index: 0, tool: 'rm', decision: 'denied' as const, reason: 'not_allowed' });

describe('CaptureTapeRecorder', () => {
  test('records forwarded requests with their answers and what the server sent before; skips denials and cut frames', async () => {
    const folder = testFolder();
    const book = bookIn(folder, 'record');
    const tape = new McpServerTape({
      scope: book.scope('t', { servers: true }),
      serverName: 'files',
      trial: 1,
      redactor: new Redactor(),
    });
    const recorder = new CaptureTapeRecorder(tape);
    const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'reading' } };
    recorder.add([
      frame('client_to_server', call(1, 'read')),
      frame('server_to_client', log),
      frame('server_to_client', answer(1, 'one')),
      // Denied by the policy: answered by the proxy, never by the server.
      frame('client_to_server', call(2, 'rm'), { forwarded: false, policy: [denied(2)] }),
      frame(
        'server_to_client',
        { jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'denied' } },
        { origin: 'proxy' },
      ),
      // A batch with one call denied: the other one reached the server.
      frame('client_to_server', [call(3, 'rm'), call(4, 'read')], {
        forwarded: true,
        partiallyForwarded: true,
        policy: [{ ...denied(3), index: 0 }],
      }),
      frame('server_to_client', answer(4, 'four')),
      // Cut by the capture bound: cannot be recorded.
      frame('client_to_server', call(5, 'read')),
      frame('server_to_client', answer(5, 'x'), { truncated: true, raw: '{"jsonrpc":"2.0","id":5,"res' }),
    ]);
    expect(tape.counts()).toEqual({ replayed: 0, recorded: 2 });
    expect(recorder.incomplete).toBe(1);
    await book.finish({ fullRun: true });
    const exchanges = JSON.parse(readFileSync(cassetteFileIn(folder), 'utf8')).tests.t.channels['mcp files trial 1'];
    expect(exchanges).toEqual([
      {
        request: { method: 'JSONRPC', path: 'tools/call', headers: {}, body: { arguments: {}, name: 'read' } },
        response: {
          status: 200,
          headers: {},
          body: { before: [log], result: { content: [{ text: 'one', type: 'text' }] } },
        },
      },
      {
        request: { method: 'JSONRPC', path: 'tools/call', headers: {}, body: { arguments: {}, name: 'read' } },
        response: { status: 200, headers: {}, body: { result: { content: [{ text: 'four', type: 'text' }] } } },
      },
    ]);
  });
});
