import type { TraceRecorder } from '../trace/TraceRecorder';
import type { DiagnosticPayload } from '../trace/payloads';
import type { UnreadableLine } from './ReportingReadBuffer';

/** The diagnostic code and words for each kind of line that is no JSON-RPC message. */
const KINDS = {
  non_json: {
    code: 'non_json_output',
    what: 'non-JSON lines on stdout',
    message:
      'the server wrote a line to stdout that is not JSON; a stdio MCP server must write only JSON-RPC ' +
      'messages to stdout (write logs to stderr)',
  },
  not_json_rpc: {
    code: 'malformed_message',
    what: 'JSON lines on stdout that are not JSON-RPC messages',
    message:
      'the server wrote a JSON line to stdout that is not a JSON-RPC message; a stdio MCP server must write ' +
      'only JSON-RPC messages to stdout',
  },
} as const;

/**
 * Records a line of a stdio server's stdout that is no JSON-RPC message as a rate-limited
 * diagnostic (`TraceRecorder.recordRepeated`, keyed by connection and code): the first lines are
 * quoted one by one, the rest counted into one summary, so a flooding server costs bounded memory
 * and storage (contract §22).
 */
export function recordUnreadableLine(
  recorder: TraceRecorder,
  server: string,
  connectionId: string,
  line: UnreadableLine,
): void {
  const { code, what, message } = KINDS[line.kind];
  const payload: DiagnosticPayload = { code, message };
  recorder.recordRepeated({
    key: `${connectionId}|${code}`,
    what,
    fields: { phase: 'unknown', origin: 'normalized', direction: 'server_to_client', server, connectionId, payload },
    sample: { text: line.text, bytes: line.bytes },
  });
}
