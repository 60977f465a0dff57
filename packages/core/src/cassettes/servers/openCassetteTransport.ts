import type { ServerDefinition } from '../../servers/ServerDefinition';
import type { TransportPayload } from '../../trace/payloads';
import { openTransport, type OpenedTransport, type OpenTransportOptions } from '../../transport/openTransport';
import { tagTransportKind } from '../../transport/transportKinds';
import type { McpServerTape } from './McpServerTape';
import { TapeRecordingTransport } from './TapeRecordingTransport';
import { TapeReplayTransport } from './TapeReplayTransport';

/**
 * `openTransport` with the server's side on a cassette tape (contract §24). Replay: no process is
 * spawned, no URL connected, no secret resolved; the transport answers from the tape and
 * `transport.connected` says `cassette-replay`. Live: the real transport, recorded on the tape.
 * Either way the caller wraps it in `ObservedTransport`, so the trace sees the same messages.
 */
export async function openCassetteTransport(
  server: ServerDefinition,
  options: OpenTransportOptions,
  tape: McpServerTape,
): Promise<OpenedTransport> {
  if (tape.serving === 'live') {
    const opened = await openTransport(server, options);
    const transport = new TapeRecordingTransport(opened.transport, tape);
    tagTransportKind(transport, opened.kind);
    const { openModern: _noModern, ...rest } = opened;
    return { ...rest, transport };
  }
  const transport = new TapeReplayTransport(tape);
  tagTransportKind(transport, server.kind);
  if (!options.recorder.finished) {
    const payload: TransportPayload = { transport: server.kind, instrumented: 'cassette-replay' };
    options.recorder.record('transport.connected', {
      phase: 'startup',
      origin: 'normalized',
      direction: 'internal',
      server: server.name,
      connectionId: options.connectionId,
      payload,
    });
  }
  return { transport, kind: server.kind, reap: () => transport.close() };
}
